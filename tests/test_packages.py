"""What a game developer installs, built as a release builds it and used away from the
repository (make test-packages; make test leaves it out: it builds, downloads build tools and
starts Chromium).

* The Python distribution: ``python -m build`` makes the sdist and the wheel (in isolated
  environments, hatchling from PyPI), ``twine check --strict`` passes, the metadata is complete,
  the sdist unpacked on its own builds the same wheel, and the wheel installed into a fresh
  virtual environment in a temporary folder (its dependencies from PyPI, nothing else) runs
  ``ttt-play --moves``, ``ttt-book query``, the README's library snippet, and ``ttt-book export
  --single-header``, whose headers (the book, and both strategies) compile from two C files
  each with -Wall -Wextra -Werror (tests/c_build.py, as tests/test_exports.py builds them from
  the repository); the wheel with its extras in another fresh environment runs examples/.
* The npm package: ``npm pack`` (tests/npm_package.py), the tarball's files and version, the
  tarball installed into a fresh project that has nothing else, where a Node script plays a game
  (the package README's examples, as printed, and the issue's example of the game state and a
  book imported as JSON), ``tsc --noEmit`` type-checks the README's TypeScript and a file of
  misuses each types must refuse (TypeScript 5.9 and 7 from npm), the types declare exactly the
  exports of both entries (node.js, index.js), the packaged books go through the reader's proof,
  and a plain HTML page imports the package through an import map in Chromium (Debian's).
* Bundlers (pinned versions from npm): the package README's recipes for Vite (dev server and
  build), esbuild (a page, Node) and webpack 5, each built and run in Chromium or Node, with the
  README's book imported as JSON and with loadPackagedBook; Vite 7's dev server without and
  with the setting the README gives for it.
* One version: the wheel, the installed commands, the tarball and pyproject.toml agree.
"""

from __future__ import annotations

import contextlib
import dataclasses
import email.parser
import functools
import http.server
import json
import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from c_build import DRIVERS, ask, check_vectors, compile_c, implementing_file
from npm_package import install, npm, pack
from test_readme import Block, blocks, expected_lines, game_block, python_expected_lines
from test_versions import project_version

from tictactoe_book import load_book
from tictactoe_book.reader import PACKAGED as PACKAGED_NAMES
from tictactoe_generator.parts import split_document

pytestmark = pytest.mark.packages

ROOT = Path(__file__).resolve().parent.parent
NPM_README = ROOT / "clients" / "js" / "README.md"
VECTORS = json.loads((ROOT / "book" / "vectors.json").read_text())
BOOKS = (
    "tictactoe.json",
    "tictactoe-misere.json",
    "tictactoe-vs-random.json",
    "tictactoe-misere-vs-random.json",
)
TIMEOUT = 600
# The compilers a TypeScript user may have: the last JavaScript one (its compiler API lists the
# declared exports) and the native one `npm install typescript` gives today.
TYPESCRIPT = {"ts5": "typescript@5.9.3", "ts7": "typescript@7.0.2"}


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` run to its end; it must succeed (its output shown when it does not)."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    return done


# ================================================================ the Python distribution


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel ``python -m build`` makes from the checkout."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)], cwd=out)
    (sdist,) = out.glob("tictactoe_book-*.tar.gz")
    (wheel,) = out.glob("tictactoe_book-*.whl")
    return {"sdist": sdist, "wheel": wheel}


def test_the_distributions_are_named_for_the_projects_version(dists: dict[str, Path]) -> None:
    version = project_version()
    assert dists["sdist"].name == f"tictactoe_book-{version}.tar.gz"
    assert dists["wheel"].name == f"tictactoe_book-{version}-py3-none-any.whl"


def test_twine_check_passes(dists: dict[str, Path]) -> None:
    run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dists["sdist"]), str(dists["wheel"])],
        cwd=ROOT,
    )


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(archive.read(name).decode())


def test_the_wheel_has_complete_metadata(dists: dict[str, Path]) -> None:
    meta = metadata(dists["wheel"])
    assert meta["Name"] == "tictactoe-book" and meta["Version"] == project_version()
    assert meta["License-Expression"] == "MIT" and meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "## Use it in your game" in meta.get_payload()  # the README is the long description
    classifiers = meta.get_all("Classifier") or []
    for wanted in (
        "Typing :: Typed",
        "Topic :: Games/Entertainment :: Board Games",
        "Programming Language :: Python :: 3.11",
    ):
        assert wanted in classifiers
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Changelog", "Documentation"} <= set(urls)
    assert "tic-tac-toe" in (meta["Keywords"] or "")
    required = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert sorted(required) == ["click>=8.1"]  # orjson is the build's (docs/architecture.md)
    with zipfile.ZipFile(dists["wheel"]) as archive:
        names = set(archive.namelist())
    assert {"tictactoe_book/py.typed", "tictactoe_generator/py.typed"} <= names
    assert f"tictactoe_book-{project_version()}.dist-info/licenses/LICENSE" in names


def test_the_sdist_holds_what_a_build_needs_and_no_local_files(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in (
        "pyproject.toml",
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "player/tictactoe_book/commands.py",
        "generator/tictactoe_generator/commands.py",
    ):
        assert needed in names
    assert {f"book/{name}" for name in BOOKS} <= names
    assert {f"book/{name}.crc32" for name in PACKAGED_NAMES.values()} <= names
    assert not [
        n for n in names if n.startswith((".venv/", ".git/")) or "/node_modules/" in n or "__pycache__" in n
    ]


def members(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_sdist_alone_builds_the_same_wheel(dists: dict[str, Path], tmp_path: Path) -> None:
    """Unpacked in a folder of its own, away from the checkout, the sdist builds a wheel with
    the same files, byte for byte (the books proven and their records written again)."""
    with tarfile.open(dists["sdist"]) as archive:
        archive.extractall(tmp_path, filter="data")
    (source,) = tmp_path.iterdir()
    out = tmp_path / "out"
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(source)], cwd=tmp_path)
    (again,) = out.glob("*.whl")
    assert again.name == dists["wheel"].name
    built, rebuilt = members(dists["wheel"]), members(again)
    assert sorted(built) == sorted(rebuilt)
    assert [name for name in built if built[name] != rebuilt[name]] == []


def clean_environment(**more: str) -> dict[str, str]:
    """This process's environment without what would let a program find the checkout or the
    test environment (PYTHONPATH, the virtual environment, a book named by TTT_BOOK)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "VIRTUAL_ENV", "TTT_BOOK", "PYTHONHOME"}
    }
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    return {**env, **more}


@pytest.fixture(scope="module")
def venv(dists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment in a temporary folder with the wheel installed (and its
    dependencies, from PyPI). Returns its bin folder; its folder is where programs run."""
    folder = tmp_path_factory.mktemp("fresh")
    python = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable
    run([python, "-m", "venv", str(folder / "venv")], cwd=folder, env=clean_environment())
    bin_ = folder / "venv" / "bin"
    run(
        [str(bin_ / "python"), "-m", "pip", "install", "--quiet", str(dists["wheel"])],
        cwd=folder,
        env=clean_environment(),
    )
    return bin_


def in_venv(bin_: Path, *words: str) -> subprocess.CompletedProcess[str]:
    """A command of the fresh environment, run in its folder (outside the checkout)."""
    return subprocess.run(
        [str(bin_ / words[0]), *words[1:]],
        cwd=bin_.parent.parent,
        env=clean_environment(PATH=f"{bin_}{os.pathsep}/usr/bin:/bin"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def test_the_fresh_environment_is_away_from_the_checkout(venv: Path) -> None:
    done = in_venv(
        venv, "python", "-c", "import tictactoe_book; print(tictactoe_book.__file__); import numpy"
    )
    assert not Path(done.stdout.splitlines()[0]).is_relative_to(ROOT)
    assert Path(done.stdout.splitlines()[0]).is_relative_to(venv.parent)
    assert "No module named 'numpy'" in done.stderr  # the player and the exports need no numpy


def test_without_numpy_an_installed_wheel_names_a_command_an_index_can_answer(venv: Path) -> None:
    """After ``pip install`` of the wheel, ``ttt-book build`` without numpy named ``pip install
    'tictactoe-book[build]'``, which no index has (issue 42, item 6): it names the build extra's
    own requirements, numpy and orjson, with this environment's pip, status 1 (docs/reliability.md)."""
    done = in_venv(venv, "ttt-book", "build", "-o", "b.json")
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    python = os.path.relpath(venv / "python", venv.parent.parent)  # as typed from where it ran
    assert line == f"Error: building needs numpy: {python} -m pip install 'numpy>=1.26' 'orjson>=3.9'", line
    dry = in_venv(
        venv, "python", "-m", "pip", "install", "--dry-run", "--quiet", "numpy>=1.26", "orjson>=3.9"
    )
    assert dry.returncode == 0, dry.stderr


def test_a_game_with_its_own_player_and_generator_modules_uses_the_package(
    venv: Path, tmp_path: Path
) -> None:
    """The wheel installs one import name, tictactoe_book: a game's folder with its own
    player.py and generator.py (most games have a player.py) imports both and the library, and
    the commands run from it (issue 30: ``import player; player.load_book()`` was the game's)."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "player.py").write_text('NAME = "the game\'s player"\n')
    (game / "generator.py").write_text('NAME = "the game\'s generator"\n')
    code = (
        "import generator, player, tictactoe_book\n"
        "book = tictactoe_book.load_book()\n"
        "position = tictactoe_book.Position('X...O...X')\n"
        "print(player.NAME, generator.NAME, book.trust, book.best_moves(position))\n"
    )
    env = clean_environment(PATH=f"{venv}{os.pathsep}/usr/bin:/bin")
    done = subprocess.run(
        [str(venv / "python"), "-c", code], cwd=game, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.stdout == "the game's player the game's generator packaged (1, 3, 5, 7)\n", done.stderr
    for command in (["ttt-play", "--moves", "5,1,6,2,7", "--seed", "2"], ["ttt-book", "query", "X...O...."]):
        ran = subprocess.run(
            [str(venv / command[0]), *command[1:]],
            cwd=game,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert "Traceback" not in ran.stderr and ran.stdout, (command, ran.stderr)
    site = next((venv.parent / "lib").glob("python3*/site-packages"))
    tops = {path.name for path in site.iterdir()}
    assert {"tictactoe_book", "tictactoe_generator"} <= tops
    assert not tops & {"player", "generator", "ttt_commands.py", "commands.py"}


def test_the_installed_commands_say_the_projects_version(venv: Path) -> None:
    for command in ("ttt-play", "ttt-book"):
        done = in_venv(venv, command, "--version")
        assert done.stdout == f"{command}, version {project_version()}\n", done.stderr


def test_the_installed_ttt_play_plays_a_scripted_game(venv: Path) -> None:
    """The README's scripted game: the human's five moves, the computer's four answers, a draw."""
    done = in_venv(venv, "ttt-play", "--moves", "5,1,6,2,7", "--seed", "2", "--json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    game = json.loads(done.stdout)
    assert (game["result"], game["board"], len(game["moves"])) == ("draw", "XXOOXXXOO", 9)


def test_the_installed_ttt_book_answers_a_query(venv: Path) -> None:
    done = in_venv(venv, "ttt-book", "query", "--json", "X...O...X")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["turn"], answer["value"], answer["optimal"]) == ("O", "draw", [1, 3, 5, 7])
    # X . O
    # . X .      O to move: only the far corner (9, as people number cells) holds the draw
    # . . .
    readable = in_venv(venv, "ttt-book", "query", "X.O/.X./...")
    assert readable.returncode == 0 and readable.stderr == "", readable.stderr
    assert "optimal moves, trap order (best first): 9" in readable.stdout


def test_the_readmes_library_snippet_runs_in_the_fresh_environment(venv: Path) -> None:
    block = game_block("python")
    assert "Position" in block.text and "book.best_moves" in block.text  # the book and the game
    done = in_venv(venv, "python", "-c", block.text)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == python_expected_lines(block)


@pytest.fixture(scope="module")
def venv_with_extras(dists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another fresh environment: the wheel with the adapters' extras (OpenSpiel, PettingZoo and
    what they need, from PyPI). Returns its bin folder."""
    folder = tmp_path_factory.mktemp("extras")
    python = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable
    run([python, "-m", "venv", str(folder / "venv")], cwd=folder, env=clean_environment())
    bin_ = folder / "venv" / "bin"
    wheel = f"tictactoe-book[openspiel,pettingzoo] @ {dists['wheel'].as_uri()}"
    run([str(bin_ / "python"), "-m", "pip", "install", "--quiet", wheel], cwd=folder, env=clean_environment())
    return bin_


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "examples").glob("*.py")))
def test_the_examples_run_with_the_installed_package(venv_with_extras: Path, example: str) -> None:
    """examples/ as a user runs them after ``pip install 'tictactoe-book[...]'``, away from the
    checkout (tests/test_examples.py checks that they use the public API only)."""
    script = venv_with_extras.parent.parent / example
    shutil.copy(ROOT / "examples" / example, script)
    done = in_venv(venv_with_extras, "python", str(script))
    assert done.returncode == 0, done.stderr
    assert "'loss': 0" in done.stdout or "loss    0  expected     0.0" in done.stdout


@pytest.fixture(scope="module")
def headers(venv: Path) -> Path:
    """The single headers the installed ``ttt-book`` writes: the book, and each side's strategy."""
    folder = venv.parent.parent / "headers"
    for extra in ([], ["--strategy", "X"], ["--strategy", "O"]):
        done = in_venv(
            venv, "ttt-book", "export", "--lang", "c", "--single-header", *extra, "-o", str(folder)
        )
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["tictactoe_book.h", "tictactoe_o.h", "tictactoe_x.h"]
    return folder


def test_the_installed_single_header_compiles_from_two_files_and_passes_every_vector(headers: Path) -> None:
    """One C file includes the header as it is (the vectors driver), a second defines the
    implementation macro and includes it twice; -Wall -Wextra -Werror."""
    sources = [DRIVERS / "vectors_driver.c", implementing_file(headers, "tictactoe_book.h")]
    program = compile_c(headers, sources, ["-O2"], "vectors_single")
    assert check_vectors(program, VECTORS) == len(VECTORS["valid"]) + len(VECTORS["invalid"])


def test_the_installed_strategy_headers_compile_beside_the_book(headers: Path) -> None:
    """The book and both strategies in one program, each implemented in a C file of its own and
    included as they are by a fourth."""
    names = ["tictactoe_book.h", "tictactoe_x.h", "tictactoe_o.h"]
    sources = [DRIVERS / "three_headers.c", *(implementing_file(headers, h) for h in names)]
    program = compile_c(headers, sources, ["-O2"], "three_headers")
    assert ask(program, [""]) == ["best=1:4 o=4 x=-6"]  # -6: TTT_ERR_TURN


# ================================================================ the npm package


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    return pack(tmp_path_factory.mktemp("npm"))


def test_the_tarball_holds_the_package_and_nothing_else(packed: tuple[Path, dict[str, object]]) -> None:
    tarball, report = packed
    version = project_version()
    assert (report["name"], report["version"]) == ("tictactoe-book", version)
    assert tarball.name == f"tictactoe-book-{version}.tgz"
    with tarfile.open(tarball) as archive:
        files = {
            m.name.removeprefix("package/"): archive.extractfile(m).read() for m in archive if m.isfile()
        }  # type: ignore[union-attr]
    assert sorted(files) == sorted(
        ["LICENSE", "README.md", "package.json", "index.js", "node.js", "packaged.js", "index.d.ts"]
        + ["tictactoe-book.js"]
        + [f"books/{name}" for name in BOOKS]
    )
    for name in BOOKS:  # the repository's books, byte for byte: staged at pack time, not kept twice
        assert files[f"books/{name}"] == (ROOT / "book" / name).read_bytes()
    assert files["LICENSE"] == (ROOT / "LICENSE").read_bytes()
    assert files["tictactoe-book.js"] == (ROOT / "clients" / "js" / "tictactoe-book.js").read_bytes()
    assert json.loads(files["package.json"])["version"] == version


def test_a_book_that_does_not_prove_fails_the_pack(tmp_path: Path) -> None:
    """The pack proves each book for the rules it ships under, as the wheel's build does."""
    source = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "clients" / "js", source / "clients" / "js", ignore=shutil.ignore_patterns("node_modules")
    )
    shutil.copytree(ROOT / "book", source / "book")
    shutil.copy(ROOT / "LICENSE", source / "LICENSE")
    shutil.copy(source / "book" / "tictactoe.json", source / "book" / "tictactoe-misere.json")  # wrong rules
    done = subprocess.run(
        [npm(), "pack", "--pack-destination", str(tmp_path), "--loglevel=error"],
        cwd=source / "clients" / "js",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode != 0
    assert "[rules]" in done.stderr and "tictactoe-misere.json" in done.stderr
    assert not list(tmp_path.glob("*.tgz"))
    assert not (source / "clients" / "js" / "books").exists()  # nothing half staged left behind


@pytest.fixture(scope="module")
def project(packed: tuple[Path, dict[str, object]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh project with the tarball installed, and nothing else."""
    folder = install(packed[0], tmp_path_factory.mktemp("consumer") / "game")
    assert sorted(p.name for p in (folder / "node_modules").iterdir() if not p.name.startswith(".")) == [
        "tictactoe-book"
    ]
    return folder


def node(script: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    found = shutil.which("node")
    assert found is not None
    return subprocess.run([found, str(script)], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def npm_blocks(lang: str) -> list[Block]:
    return blocks(lang, NPM_README)


@pytest.mark.parametrize("block", npm_blocks("js"), ids=lambda b: f"npm README line {b.line}")
def test_the_npm_readmes_node_examples_run_as_printed(
    block: Block, project: Path, book_3x4_path: Path, tmp_path: Path
) -> None:
    """Each in the project as a file of its own: the first plays a whole game, perfect against
    perfect; another reads a 3x4 book it is given, another the same book by parts."""
    here = tmp_path / "game"
    shutil.copytree(project, here, symlinks=True)
    shutil.copy(book_3x4_path, here / "3x4.json")
    (here / "3x4-parts").mkdir()
    for name, data in split_document(load_book(book_3x4_path).data).items():
        (here / "3x4-parts" / name).write_bytes(data)
    script = here / "example.mjs"
    script.write_text(block.text)
    done = node(script, here)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected_lines(block)


def test_the_node_example_plays_a_whole_game() -> None:
    (first, *_) = npm_blocks("js")
    assert "chooseMove" in first.text and "while" in first.text and expected_lines(first) == ["draw"]


PACKAGED = """
import { BookError, loadPackagedBook } from 'tictactoe-book';
const out = [];
for (const misere of [false, true]) for (const against of ['novice', 'random']) {
  const book = await loadPackagedBook({ misere, against });
  out.push([misere, against, book.rules.misere, book.against, book.bestMoves('.X.......').join(',')]);
}
try {
  await loadPackagedBook({ against: 'expert' });
} catch (error) {
  out.push([error.name, error.message]);
}
console.log(JSON.stringify(out));
"""


def test_each_packaged_book_loads_by_what_it_is(project: Path) -> None:
    script = project / "packaged.mjs"
    script.write_text(PACKAGED)
    done = node(script, project)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        [False, "novice", False, "novice", "0,2"],  # the top edge answered in a corner
        [False, "random", False, "random", "4"],  # and, against a random player, in the centre
        [True, "novice", True, "novice", "3,5,6,8"],
        [True, "random", True, "random", "3,5,6,8"],
        ["RangeError", 'unknown opponent "expert"; choose one of novice, random'],
    ]


def test_a_packaged_book_goes_through_the_proof(project: Path, tmp_path: Path) -> None:
    """An installed book edited by hand (after X's corner, O's centre made a loser and every other
    cell a draw) is refused by the reader's proof, and a missing one says it cannot be read."""
    here = tmp_path / "game"
    shutil.copytree(project, here, symlinks=True)
    books = here / "node_modules" / "tictactoe-book" / "books"
    data = json.loads((books / "tictactoe.json").read_bytes())
    data["entries"]["........X"] = "0 0,1,2,3,5,6,7"
    (books / "tictactoe.json").write_text(json.dumps(data))
    (books / "tictactoe-misere.json").unlink()
    script = here / "proof.mjs"
    script.write_text(
        "import { loadPackagedBook } from 'tictactoe-book';\n"
        "for (const misere of [false, true]) {\n"
        "  try { await loadPackagedBook({ misere }); console.log('loaded'); }\n"
        "  catch (error) { console.log(error.name, error.code, error.message); }\n"
        "}\n"
    )
    done = node(script, here)
    lines = done.stdout.splitlines()
    assert lines[0].startswith(
        "BookError entry-inconsistent tictactoe-book/books/tictactoe.json: has entry"
    ), lines
    assert lines[1].startswith(
        "BookError unreadable tictactoe-book/books/tictactoe-misere.json: cannot be read"
    ), lines


# ---------------------------------------------------------------- TypeScript

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "target": "es2022",
        "lib": ["es2022", "dom"],
        "types": [],
        "noEmit": True,
        "skipLibCheck": False,  # the package's index.d.ts is checked too
        "resolveJsonModule": True,  # a book imported as JSON (the README's TypeScript)
    },
    "include": ["*.ts"],
}

# What the types must refuse: were a declaration `any`, its @ts-expect-error would be unused,
# which tsc reports as an error.
MISUSES = """\
import {
  BookError, Game, Position, loadBook, loadPackagedBook, loadPartsBook, openPartsBook, parseMove,
  type MoveValue, type Outcome, type PartsReader, type Reader,
} from 'tictactoe-book';

const book: Reader = await loadPackagedBook();
// @ts-expect-error a board is a string
book.evaluate(42);
// @ts-expect-error no such level
book.chooseMove('.........', { level: 'godlike' });
// @ts-expect-error the packaged books are ranked against novice or random
await loadPackagedBook({ against: 'expert' });
// @ts-expect-error a reason code is one of REASON_CODES
new BookError('nonsense', 'message');
// @ts-expect-error loadBook answers at once: a reader, not a promise
loadBook(new Uint8Array()).then(() => undefined);
// @ts-expect-error a cell is a number
const cell: string = book.bestMoves('X...O...X')[0];
const value: 1 | 0 | -1 = book.evaluate('X........').value;
console.log(cell, value);
const position = new Position('X........');
// @ts-expect-error a cell is a number
position.play('4');
// @ts-expect-error outcome() is null while the game goes on
const winner: 'X' | 'O' | null = position.outcome().winner;
// @ts-expect-error a position's board cannot be changed
position.board = 'O........';
// @ts-expect-error the rules are rows, cols, k and misere
new Position('.........', { rows: 3, cols: 3 });
console.log(winner);
const game = new Game(position);
// @ts-expect-error a cell is a number: parseMove reads a typed one
game.play('4');
// @ts-expect-error a game starts from a Position
new Game('.........');
// @ts-expect-error the moves played are read-only: play and undo change them
game.moves.push(4);
// @ts-expect-error a move as typed is a string
parseMove(5, position);
// @ts-expect-error a game's result is an Outcome, a move's value a MoveValue
const worth: MoveValue = new Position('XXXOO....').outcome() as Outcome;
const undone: number | null = game.undo();
console.log(worth, undone, game.position.grid(), game.position.parseMove('5'));
const parts: PartsReader = await openPartsBook('3x4-parts');
// @ts-expect-error a book by parts answers with a Promise: it may read its parts first
const moves: number[] = parts.bestMoves('.'.repeat(12));
// @ts-expect-error loadPartsBook needs readPart, the function reading a part's bytes by name
loadPartsBook('{}', {});
new BookError('part-hash', 'a part refused');
console.log(moves, (await parts.evaluate('.'.repeat(12))).valueWord, parts.reads);
"""


@pytest.fixture(scope="module")
def typescript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TypeScript from npm, in a folder of its own (the game's project stays as it was)."""
    folder = tmp_path_factory.mktemp("typescript")
    (folder / "package.json").write_text('{ "private": true }\n')
    aliases = [f"{alias}@npm:{spec}" for alias, spec in TYPESCRIPT.items()]
    run([npm(), "install", "--no-audit", "--no-fund", "--loglevel=error", *aliases], cwd=folder)
    return folder / "node_modules"


@pytest.fixture(scope="module")
def typed_project(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's project with a tsconfig, the npm README's TypeScript and the misuses."""
    here = tmp_path_factory.mktemp("typed") / "game"
    shutil.copytree(project, here, symlinks=True)
    (here / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2))
    (block,) = npm_blocks("ts")
    (here / "readme.ts").write_text(block.text)
    (here / "misuses.ts").write_text(MISUSES)
    return here


@pytest.mark.parametrize("compiler", sorted(TYPESCRIPT))
def test_the_typescript_type_checks_against_the_package(
    typescript: Path, typed_project: Path, compiler: str
) -> None:
    node_ = shutil.which("node")
    assert node_ is not None
    done = subprocess.run(
        [node_, str(typescript / compiler / "bin" / "tsc"), "-p", str(typed_project)],
        cwd=typed_project,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


PROBE = """\
import ts from '{typescript}';
import * as runtime from 'tictactoe-book';

const options = {{
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, types: [],
}};
const program = ts.createProgram(['probe.ts'], options);
const checker = program.getTypeChecker();
const [statement] = program.getSourceFile('probe.ts').statements;
const module = checker.getSymbolAtLocation(statement.moduleSpecifier);
const values = checker.getExportsOfModule(module).filter((s) => s.flags & ts.SymbolFlags.Value);
const declared = values.map((s) => s.name);
const browser = await import('./node_modules/tictactoe-book/index.js');
console.log(JSON.stringify({{
  declared: declared.sort(), runtime: Object.keys(runtime).sort(), browser: Object.keys(browser).sort(),
}}));
"""


def test_the_types_declare_exactly_the_modules_exports(typescript: Path, typed_project: Path) -> None:
    """Every value the module exports at run time is declared, and nothing that it lacks (types
    and interfaces, which exist only for the compiler, aside): in Node (node.js) and for browsers
    and bundlers (index.js) alike."""
    (typed_project / "probe.ts").write_text("import * as book from 'tictactoe-book';\nexport { book };\n")
    script = typed_project / "probe.mjs"
    script.write_text(PROBE.format(typescript=(typescript / "ts5" / "lib" / "typescript.js").as_posix()))
    done = node(script, typed_project)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["declared"] == found["runtime"] == found["browser"]
    assert {"loadPackagedBook", "loadBook", "Position", "IllegalMoveError"} <= set(found["runtime"])


# ---------------------------------------------------------------- Chromium


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``folder`` served over HTTP by a static server (as any would) while the block runs; yields
    the origin."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def section_blocks(lang: str, section: str) -> list[Block]:
    return [b for b in npm_blocks(lang) if b.section == section]


@pytest.fixture(scope="module")
def served(project: Path) -> Iterator[str]:
    """The game's project served, with the npm README's page as index.html and the README's as
    readme.html; yields the origin."""
    (page,) = section_blocks("html", "In a browser, without a bundler")
    (project / "index.html").write_text(page.text)
    (project / "readme.html").write_text(game_block("html").text)
    with serving(project) as origin:
        yield origin


def chromium_options() -> tuple[str, list[str]]:
    """The browser web/test_browser.py drives (Debian's chromium) and its flags."""
    sys.path.insert(0, str(ROOT / "web"))
    try:
        from test_browser import CHROMIUM, FLAGS
    finally:
        sys.path.remove(str(ROOT / "web"))
    return CHROMIUM, FLAGS


@dataclasses.dataclass
class PageRun:
    """What a page did in Chromium: the lines its scripts logged, its uncaught errors, and every
    address it asked for."""

    printed: list[str]
    errors: list[str]
    requested: list[str]


def open_page(url: str, lines: int) -> PageRun:
    """``url`` opened in headless Chromium until its scripts have logged ``lines`` lines (or
    thrown, or 10 s have passed)."""
    from playwright.sync_api import sync_playwright

    executable, flags = chromium_options()
    run_ = PageRun([], [], [])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=flags)
        tab = browser.new_page()
        # what the page's scripts log (not the browser's own errors: they are checked apart)
        tab.on(
            "console", lambda message: run_.printed.append(message.text) if message.type == "log" else None
        )
        tab.on("pageerror", lambda error: run_.errors.append(str(error)))
        tab.on("request", lambda request: run_.requested.append(request.url))
        tab.goto(url)
        for _ in range(200):
            if len(run_.printed) >= lines or run_.errors:
                break
            tab.wait_for_timeout(50)
        browser.close()
    return run_


@pytest.mark.parametrize(
    ("page", "block"),
    [
        ("index.html", lambda: section_blocks("html", "In a browser, without a bundler")[0]),
        ("readme.html", lambda: game_block("html")),
    ],
    ids=["npm README", "README"],
)
def test_a_plain_page_imports_the_package_through_an_import_map(
    served: str, page: str, block: object
) -> None:
    expected = expected_lines(block())  # type: ignore[operator]
    done = open_page(f"{served}/{page}", len(expected))
    assert done.errors == []
    assert done.printed == expected
    # the module and its book came from the installed package, nothing from elsewhere
    assert f"{served}/node_modules/tictactoe-book/books/tictactoe.json" in done.requested
    assert all(url.startswith(served) for url in done.requested), done.requested


# ---------------------------------------------------------------- bundlers

BUNDLING = "With a bundler"
# What a game's project installs to bundle, pinned so that a new release cannot change a run:
# Vite 8, and Vite 7 for what the README says of the dev servers before 8.
BUNDLERS = ["vite@8.3.8", "vite7@npm:vite@7.3.8", "esbuild@0.28.2", "webpack@5.113.0", "webpack-cli@7.3.1"]

# The other way in: loadPackagedBook, where the README says a bundler keeps the books in reach
# (the misère book: another file than the README's).
PACKAGED_MAIN = """\
import { loadPackagedBook, Position } from 'tictactoe-book';

const book = await loadPackagedBook({ misere: true });
console.log(`misère, the first move: ${book.bestMoves(Position.empty(book.rules))}`);
"""
PACKAGED_PRINTS = ["misère, the first move: 4"]  # the centre alone does not lose


def bundling_commands() -> dict[str, list[str]]:
    """The README's command for each bundler: vite (the dev server), vite-build, esbuild (for a
    page), esbuild-node, webpack."""
    found: dict[str, list[str]] = {}
    for block in section_blocks("sh", BUNDLING):
        for line in block.text.splitlines():
            words = shlex.split(line, comments=True)
            if words[:2] == ["npx", "vite"]:
                found["vite-build" if "build" in words else "vite"] = words
            elif words[:2] == ["npx", "esbuild"]:
                found["esbuild-node" if "--platform=node" in words else "esbuild"] = words
            elif words[:2] == ["npx", "webpack"]:
                found["webpack"] = words
    assert sorted(found) == ["esbuild", "esbuild-node", "vite", "vite-build", "webpack"], found
    return found


def test_the_readme_has_a_recipe_for_each_bundler() -> None:
    commands = bundling_commands()
    assert "--platform=node" not in commands["esbuild"]
    (main,) = section_blocks("js", BUNDLING)[:1]
    assert "with { type: 'json' }" in main.text and "loadBook(tictactoe)" in main.text
    assert expected_lines(main) == ["O plays 2: XO..O...X"]


@pytest.fixture(scope="module")
def bundling(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's project with the bundlers installed (from npm) and the README's src/main.js and
    index.html; each test bundles in a copy of its own."""
    here = tmp_path_factory.mktemp("bundling") / "game"
    shutil.copytree(project, here, symlinks=True)
    run([npm(), "install", "--save-dev", "--no-audit", "--no-fund", "--loglevel=error", *BUNDLERS], cwd=here)
    (here / "src").mkdir()
    (here / "src" / "main.js").write_text(section_blocks("js", BUNDLING)[0].text)
    (index,) = section_blocks("html", BUNDLING)
    (here / "index.html").write_text(index.text)
    return here


RECIPES = {"readme": None, "packaged": PACKAGED_MAIN}
PAGE = '<!doctype html>\n<meta charset="utf-8">\n{script}\n'  # a page loading a bundle


def bundled(bundling: Path, tmp_path: Path, recipe: str) -> tuple[Path, list[str]]:
    """A copy of the bundling project whose src/main.js is the README's (``readme``) or calls
    loadPackagedBook (``packaged``), and the lines it must print."""
    here = tmp_path / "game"
    shutil.copytree(bundling, here, symlinks=True)
    if recipe == "packaged":
        (here / "src" / "main.js").write_text(PACKAGED_MAIN)
        return here, PACKAGED_PRINTS
    return here, expected_lines(section_blocks("js", BUNDLING)[0])


def assert_ran_in_chromium(origin: str, page: str, expected: list[str]) -> None:
    done = open_page(f"{origin}/{page}", len(expected))
    assert done.errors == [] and done.printed == expected, (done.errors, done.printed, done.requested)
    assert all(url.startswith(origin) for url in done.requested), done.requested


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_an_esbuild_bundle_for_a_page_builds_and_plays_in_chromium(
    bundling: Path, tmp_path: Path, recipe: str
) -> None:
    """The package's browser side reads no file: the bundle has nothing of Node's in it. For
    loadPackagedBook the books are copied beside the bundle, as the README says."""
    here, expected = bundled(bundling, tmp_path, recipe)
    run(bundling_commands()["esbuild"], cwd=here)
    bundle = (here / "dist" / "main.js").read_text()
    assert "node:" not in bundle and "readFile" not in bundle
    if recipe == "packaged":
        shutil.copytree(here / "node_modules" / "tictactoe-book" / "books", here / "dist" / "books")
    (here / "page.html").write_text(PAGE.format(script='<script type="module" src="dist/main.js"></script>'))
    with serving(here) as origin:
        assert_ran_in_chromium(origin, "page.html", expected)


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_an_esbuild_bundle_for_node_runs_on_its_own(bundling: Path, tmp_path: Path, recipe: str) -> None:
    here, expected = bundled(bundling, tmp_path, recipe)
    command = bundling_commands()["esbuild-node"]
    run(command, cwd=here)
    (outfile,) = [word.removeprefix("--outfile=") for word in command if word.startswith("--outfile=")]
    bundle = here / outfile
    if recipe == "readme":  # the book is in the bundle: it runs anywhere, without node_modules
        away = tmp_path / "elsewhere"
        away.mkdir()
        bundle = Path(shutil.copy(bundle, away / "main.mjs"))
    done = node(bundle, bundle.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_a_webpack_bundle_builds_and_plays_in_chromium(bundling: Path, tmp_path: Path, recipe: str) -> None:
    here, expected = bundled(bundling, tmp_path, recipe)
    run(bundling_commands()["webpack"], cwd=here)
    assert "node:" not in (here / "dist" / "main.js").read_text()
    (here / "page.html").write_text(PAGE.format(script='<script src="dist/main.js"></script>'))
    with serving(here) as origin:
        assert_ran_in_chromium(origin, "page.html", expected)


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_a_vite_build_plays_in_chromium(bundling: Path, tmp_path: Path, recipe: str) -> None:
    here, expected = bundled(bundling, tmp_path, recipe)
    run(bundling_commands()["vite-build"], cwd=here)
    with serving(here / "dist") as origin:
        assert_ran_in_chromium(origin, "index.html", expected)


ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a terminal's colour sequences


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def dev_server(command: list[str], cwd: Path) -> Iterator[str]:
    """A Vite dev server started by ``command`` (a port and the host added) in its own process
    group, ended with it; yields its origin once it says it is ready."""
    port = free_port()
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", str(port), "--strictPort"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    said: queue.Queue[str | None] = queue.Queue()

    def read() -> None:  # every line it prints, read to its end so the pipe never fills
        assert server.stdout is not None
        for line in server.stdout:
            said.put(line)
        said.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        lines: list[str] = []
        deadline = time.monotonic() + TIMEOUT
        while (line := said.get(timeout=max(deadline - time.monotonic(), 0.1))) is not None:
            lines.append(line)
            # colours stripped: Vite colours its output when CI is set, even into a pipe
            if f":{port}/" in ANSI.sub("", line):
                break
        else:
            raise AssertionError(f"the dev server ended: {''.join(lines)}")
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=TIMEOUT)
        reader.join(timeout=TIMEOUT)
        assert server.stdout is not None
        server.stdout.close()


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_the_vite_dev_server_plays_in_chromium(bundling: Path, tmp_path: Path, recipe: str) -> None:
    here, expected = bundled(bundling, tmp_path, recipe)
    with dev_server(bundling_commands()["vite"], here) as origin:
        assert_ran_in_chromium(origin, "", expected)


def test_vite_7s_dev_server_needs_the_package_left_out_of_its_pre_bundling(
    bundling: Path, tmp_path: Path
) -> None:
    """As the README says: without the setting the book fetched is the app's page, refused as
    unreadable; with the README's vite.config.js it loads."""
    here, expected = bundled(bundling, tmp_path, "packaged")
    vite7 = ["node", str(here / "node_modules" / "vite7" / "bin" / "vite.js")]
    with dev_server(vite7, here) as origin:
        done = open_page(f"{origin}/", 1)
    assert len(done.errors) == 1 and done.errors[0].endswith("not the book) [unreadable]"), done.errors
    (config,) = [b for b in section_blocks("js", BUNDLING) if "optimizeDeps" in b.text]
    (here / "vite.config.js").write_text(config.text)
    with dev_server(vite7, here) as origin:
        assert_ran_in_chromium(origin, "", expected)


# ---------------------------------------------------------------- the example, from the tarball

DONE_WHEN = """\
import { Position, loadBook } from 'tictactoe-book';
import book from 'tictactoe-book/books/tictactoe.json' with { type: 'json' };

const misere = new Position('XXXOO....', { rows: 3, cols: 3, k: 3, misere: true });
const start = new Position('.........');
const reader = loadBook(book);
console.log(JSON.stringify([
  misere.outcome().winner, start.legalMoves().length, start.play(4).board, start.play(4).turn,
  reader.bestMoves(start.play(4)), reader.against,
]));
"""


def test_the_game_state_and_a_book_imported_as_json_from_the_tarball(project: Path) -> None:
    """Issue 31's own words, in the project that installed the tarball and nothing else."""
    script = project / "done_when.mjs"
    script.write_text(DONE_WHEN)
    done = node(script, project)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    # . . .
    # . X .      O to move: a corner holds the draw
    # . . .
    assert json.loads(done.stdout) == ["O", 9, "....X....", "O", [0, 2, 6, 8], "novice"]
