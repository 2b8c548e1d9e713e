"""The README's examples, run as a reader would run them, so that they cannot go stale.

* Every command line in a ```sh block: ``make TARGET`` lines are planned with ``make -n`` (a
  test cannot run ``make test`` inside ``make test``); ``ttt-play`` and ``ttt-book`` lines run
  for real, as the README tells a newcomer to run them (``. .venv/bin/activate`` after ``make
  play``: the tests' environment activated), and must exit 0: interactive ones on a
  pseudo-terminal where ``q`` quits, files the example writes go to a temporary folder instead
  of /tmp or the repository's book/; the line adding the build extra runs with ``--dry-run``.
  The 4x4 block runs whole, in order, under ``make test-big``.
* Every ```python block runs in a fresh interpreter of the test environment; a ``# → text``
  comment after a ``print`` is the line it must print.
* Every ```js block runs in Node against the repository's book; a ``// → text`` comment after a
  ``console.log`` is the line it must print. A block that calls ``fetch`` is the browser
  example: it runs as a module in a ``web/`` folder beside the reader and the book (where the
  page's own module is), with ``fetch`` reading files; web/test_browser.py runs it in Chromium too.
  A block that imports the package by its name (``from 'tictactoe-book'``) runs in a project of
  its own with the npm package installed from the tarball ``npm pack`` makes (tests/npm_package.py).
* The ```html block is a page importing the npm package through an import map: its map must
  name the installed package's module, and its module script runs in Node in that project
  (tests/test_packages.py opens the page itself in Chromium).
* The ```c and ```rust blocks ("Use it in your game") are compiled against the source the ```sh
  line beside them exports (gcc with warnings as errors; the Rust as a game's crate that adds
  the exported crate with ``cargo add --path``, with no warning at all) and run; a ``// → text``
  comment is a line the program prints. They need gcc and cargo, so they are marked ``exports``
  and run by make test-exports.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest
from c_build import STRICT_C, tool
from npm_package import install, pack

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent  # the environment running the tests has ttt-play and ttt-book
TIMEOUT = 120
ARROW = re.compile(r"//\s*→ ?(.*)$")  # one space after the arrow; a grid's own spaces kept
# The browser example runs in Node with this fetch: the URL resolved against the module, read as a file.
FETCH = (
    "import { readFile as readFile__ } from 'node:fs/promises';\n"
    "globalThis.fetch = async (url) => new Response(await readFile__(new URL(url, import.meta.url)));\n"
)


GAME = "Use it in your game"  # the section of snippets a game developer copies


@dataclass(frozen=True)
class Block:
    """A fenced code block of the README: its language, first line number, text, and the
    section (the ``## `` heading) it is in."""

    lang: str
    line: int
    text: str
    section: str = ""


def blocks(lang: str, readme: Path = README) -> list[Block]:
    text = readme.read_text()
    found = []
    for match in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        if match.group(1) == lang:
            headings = re.findall(r"^## (.*)$", text[: match.start()], re.MULTILINE)
            line = text[: match.start()].count("\n") + 1
            found.append(Block(lang, line, match.group(2), headings[-1] if headings else ""))
    return found


def game_block(lang: str) -> Block:
    """The one block of ``lang`` in the README's section for game developers."""
    (block,) = [b for b in blocks(lang) if b.section == GAME]
    return block


def commands() -> list[tuple[str, list[str]]]:
    """(the README's line, its words without the comment) for every command in a sh block."""
    found = []
    for block in blocks("sh"):
        for line in block.text.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                found.append((line.split(" #")[0].strip(), words))
    return found


# ---------------------------------------------------------------- the shell examples


def test_the_readme_has_the_examples_this_file_runs() -> None:
    lines = [line for line, _ in commands()]
    assert any(line.startswith("make ") for line in lines)
    assert any("ttt-play" in line and "--moves" in line for line in lines)
    assert any(line.startswith("echo ") for line in lines)
    assert any("ttt-book query" in line for line in lines)
    assert len(blocks("js")) >= 2
    assert len(blocks("python")) >= 1
    for lang in ("python", "js", "html", "c", "rust"):
        assert game_block(lang), lang


@pytest.mark.parametrize(
    "line", [line for line, words in commands() if words[0] == "make"], ids=lambda line: line
)
def test_a_make_example_names_a_target_make_can_plan(line: str) -> None:
    words = shlex.split(line)
    result = subprocess.run(
        ["make", "-n", *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, (line, result.stderr)


ACTIVATE = ". .venv/bin/activate"  # the README's line that puts the commands on PATH
ADD_BUILD = ".venv/bin/python -m pip install -e '.[build]'"  # the README's line adding numpy


def program_lines() -> list[str]:
    """The README's commands that run a program (not make, not the activation); the 4x4 block's
    run in its own test."""
    return [
        line for line, words in commands() if words[0] != "make" and line != ACTIVATE and "4x4" not in line
    ]


def for_this_test(line: str, tmp: Path) -> str:
    """The README's line with the test's own environment and a temporary folder for output."""
    # /tmp/ first: the environment's own path may lie under /tmp (a clone there, as CI may use).
    line = line.replace("/tmp/", f"{tmp}/").replace(".venv/bin/", f"{BIN}/")
    words = shlex.split(line)
    if "build" in words and "-o" not in words and "--output" not in words:
        line += f" -o {tmp}/tictactoe.json"  # not over the repository's book
    if words[1:4] == ["-m", "pip", "install"]:
        line = line.replace("'.[build]'", f"'{ROOT}[build]'") + " --dry-run"  # nothing changed
    return line


def activated(command: str) -> str:
    """``command`` after the README's ``. .venv/bin/activate``: the tests' environment's own
    activation script (the environment ``make`` made), else its folder put first on PATH."""
    script = BIN / "activate"
    if script.is_file():
        return f". {shlex.quote(str(script))} && {command}"
    return f"PATH={shlex.quote(str(BIN))}:$PATH && {command}"


def newcomer_env() -> dict[str, str]:
    """The environment of a shell before the README's activation: the tests' environment's
    folder of commands not on PATH, no colour, no terminal features."""
    path = [
        part
        for part in os.environ.get("PATH", "").split(os.pathsep)
        if Path(part or ".").resolve() != BIN.resolve()
    ]
    return dict(os.environ, PATH=os.pathsep.join(path), NO_COLOR="1", TERM="dumb")


def test_the_readme_puts_the_commands_on_path_before_it_uses_them() -> None:
    """One way to type the commands, the --help examples' way (issue 33, item 6): after make
    play the README activates the environment, then writes ttt-play and ttt-book bare; and every
    build comes after the line that adds numpy (make book or the pip line), which make play
    leaves out."""
    lines = [line for line, _ in commands()]
    assert ACTIVATE in lines and lines.index(ACTIVATE) > lines.index(
        next(x for x in lines if x.startswith("make play"))
    )
    first_bare = next(i for i, line in enumerate(lines) if line.startswith(("ttt-", "echo ")))
    assert lines.index(ACTIVATE) < first_bare
    assert not any(".venv/bin/ttt-" in line for line in lines)
    needs_numpy = [
        i for i, line in enumerate(lines) if line.startswith(("ttt-book build", "ttt-book verify"))
    ]
    adds_numpy = [i for i, line in enumerate(lines) if line == ADD_BUILD or line.startswith("make book")]
    assert needs_numpy and all(any(a < i for a in adds_numpy) for i in needs_numpy), (needs_numpy, adds_numpy)


@pytest.mark.parametrize("line", program_lines(), ids=lambda line: line)
def test_a_program_example_runs(line: str, tmp_path: Path) -> None:
    assert line.startswith(("ttt-play", "ttt-book", "echo ", ADD_BUILD)), (
        f"a README example this test cannot run: {line}"
    )
    command = activated(for_this_test(line, tmp_path))
    words = shlex.split(line)
    scripted = "|" in words or "--moves" in words or "--watch" in words or words[0] != "ttt-play"
    env = newcomer_env()
    if scripted:
        result = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {command}"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert result.returncode == 0, (line, result.stdout[-2000:], result.stderr[-2000:])
        assert "Traceback" not in result.stderr
        return
    # An interactive game, typed at a terminal: it starts, and q quits it cleanly.
    child = pexpect.spawn("bash", ["-c", command], cwd=str(ROOT), env=env, encoding="utf-8", timeout=TIMEOUT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, (line, child.before)
    assert "Traceback" not in (child.before or "")


def block_of(words: str) -> Block:
    (found,) = [block for block in blocks("sh") if words in block.text]
    return found


@pytest.mark.big
def test_the_readmes_4x4_steps_run_in_order(tmp_path: Path) -> None:
    """The README's 4x4 block, line after line in one folder as a newcomer types it after make
    play and the activation: numpy added (here --dry-run: the tests' environment has it), the
    book built, then played on the screen (q quits)."""
    lines = [
        line.split(" #")[0].strip() for line in block_of("--rules 4x4:4").text.splitlines() if line.strip()
    ]
    assert (
        lines[0] == ADD_BUILD
        and lines[1].startswith("ttt-book build --rules 4x4:4")
        and "4x4.json" in lines[2]
    )
    env = newcomer_env()
    for line in lines[:2]:
        command = activated(for_this_test(line, tmp_path))
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, (line, done.stderr[-2000:])
    child = pexpect.spawn(
        "bash",
        ["-c", activated(for_this_test(lines[2], tmp_path))],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=600,
    )
    child.expect("Your move")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


# ---------------------------------------------------------------- the Python examples

PY_ARROW = re.compile(r"#\s*→ ?(.*)$")  # one space after the arrow; a grid's own spaces kept


def python_expected_lines(block: Block) -> list[str]:
    """The lines a Python example says it prints (its ``# → text`` comments)."""
    return [m.group(1).rstrip() for line in block.text.splitlines() if (m := PY_ARROW.search(line))]


@pytest.mark.parametrize("block", blocks("python"), ids=lambda b: f"README line {b.line}")
def test_a_python_example_runs_and_prints_what_it_says(block: Block, tmp_path: Path) -> None:
    expected = python_expected_lines(block)
    assert expected, "a Python example shows what it prints with # → comments"
    script = tmp_path / "example.py"
    script.write_text(block.text)
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


# ---------------------------------------------------------------- the JavaScript examples


def expected_lines(block: Block) -> list[str]:
    return [m.group(1).rstrip() for line in block.text.splitlines() if (m := ARROW.search(line))]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with the repository's clients/ and book/ (linked) and an empty web/."""
    for name in ("clients", "book"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    (tmp_path / "web").mkdir()
    return tmp_path


PACKAGE_IMPORT = "from 'tictactoe-book';"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project of its own with the npm package installed from its tarball, nothing else."""
    folder = tmp_path_factory.mktemp("npm")
    tarball, _ = pack(folder)
    return install(tarball, folder / "project")


def run_node(script: Path, cwd: Path) -> list[str]:
    """The lines a Node script prints (it must succeed)."""
    node = shutil.which("node")
    assert node, "the README's JavaScript examples need Node.js 18+ (as make test-js does)"
    result = subprocess.run([node, str(script)], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("block", blocks("js"), ids=lambda b: f"README line {b.line}")
def test_a_javascript_example_runs_and_prints_what_it_says(
    block: Block, checkout: Path, request: pytest.FixtureRequest
) -> None:
    expected = expected_lines(block)
    assert expected, "a JavaScript example shows what it prints with // → comments"
    if PACKAGE_IMPORT in block.text:  # as a game developer runs it: the package installed
        folder = request.getfixturevalue("project")
        script = folder / f"example_{block.line}.mjs"
        script.write_text(block.text)
        assert run_node(script, folder) == expected
        return
    node = shutil.which("node")
    assert node, "the README's JavaScript examples need Node.js 18+ (as make test-js does)"
    if "fetch(" in block.text:
        script = checkout / "web" / "example.mjs"
        script.write_text(FETCH + block.text)
    else:
        script = checkout / "example.mjs"
        script.write_text(block.text)
    result = subprocess.run(
        [node, str(script)], cwd=checkout, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)
MODULE = re.compile(r'<script type="module">(.*?)</script>', re.DOTALL)


def page_parts(block: Block) -> tuple[dict[str, str], str]:
    """The page's import map and its module script."""
    (mapping,) = IMPORT_MAP.findall(block.text)
    (module,) = MODULE.findall(block.text)
    return json.loads(mapping)["imports"], module


def test_the_browser_page_imports_the_installed_package(project: Path) -> None:
    """The page's import map names the package's own module, and its module script prints what
    it says (in Node, which finds the package in node_modules as the map tells a browser to)."""
    block = game_block("html")
    imports, module = page_parts(block)
    package = json.loads((project / "node_modules" / "tictactoe-book" / "package.json").read_text())
    entry = package["exports"]["."]["default"].removeprefix("./")
    assert imports == {"tictactoe-book": f"./node_modules/tictactoe-book/{entry}"}
    assert (project / imports["tictactoe-book"]).is_file()
    script = project / "page_module.mjs"
    script.write_text(module)
    assert run_node(script, project) == expected_lines(block)


# ---------------------------------------------------------------- the C and Rust examples


def exported(lang: str, tmp: Path) -> Path:
    """Runs the game section's ``ttt-book export --lang LANG`` line (its folder under ``tmp``);
    returns the folder."""
    (line,) = [line for line, words in commands() if "export" in words and f"--lang {lang}" in line]
    command = activated(for_this_test(line, tmp))
    subprocess.run(
        ["bash", "-c", command], check=True, capture_output=True, timeout=TIMEOUT, env=newcomer_env()
    )
    (folder,) = {Path(for_this_test(w, tmp)) for w in shlex.split(line) if w.startswith("/tmp/")}
    return folder


@pytest.mark.exports
def test_the_c_example_compiles_without_a_warning_and_prints_what_it_says(tmp_path: Path) -> None:
    block = game_block("c")
    folder = exported("c", tmp_path)
    (folder / "game.c").write_text(block.text)
    tool("gcc")
    subprocess.run(
        [*STRICT_C, "-I", str(folder), "-o", str(folder / "game"), str(folder / "game.c")],
        check=True,
        capture_output=True,
        timeout=TIMEOUT,
    )
    done = subprocess.run([str(folder / "game")], capture_output=True, text=True, check=True, timeout=TIMEOUT)
    assert done.stdout.splitlines() == expected_lines(block)


@pytest.mark.exports
def test_the_rust_example_compiles_without_a_warning_and_prints_what_it_says(tmp_path: Path) -> None:
    """A new binary crate (cargo new) that adds the exported crate as the README says (cargo add
    --path, offline: it has no dependencies), its src/main.rs the README's; warnings refused."""
    block = game_block("rust")
    crate = exported("rust", tmp_path)
    (path,) = re.findall(r"`cargo add --path (\S+)`", README.read_text())
    assert Path(for_this_test(path, tmp_path)) == crate
    game = tmp_path / "mygame"
    cargo = tool("cargo")
    env = {**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target"), "RUSTFLAGS": "-D warnings"}
    for command in (
        ["new", "--vcs", "none", "--quiet", str(game)],
        ["add", "--offline", "--path", str(crate)],
    ):
        subprocess.run([cargo, *command], cwd=tmp_path if command[0] == "new" else game, env=env, check=True)
    (game / "src" / "main.rs").write_text(block.text)
    done = subprocess.run(
        [cargo, "run", "--offline", "--quiet"], cwd=game, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr  # not even a warning
    assert done.stdout.splitlines() == expected_lines(block)


def test_the_javascript_examples_use_the_readers_real_exports(checkout: Path) -> None:
    """What the README imports from the reader is exported; what it calls on the book is a method."""
    node = shutil.which("node")
    assert node
    text = "\n".join(b.text for b in blocks("js"))
    imported = set()
    for names in re.findall(r"import \{([^}]*)\} from '[^']*tictactoe-book\.js'", text):
        imported |= {name.strip() for name in names.split(",")}
    methods = set(re.findall(r"\bbook\.(\w+)\(", text))
    assert imported == {"loadBook"} and {"evaluate", "bestMoves", "optimalMoves", "chooseMove"} <= methods
    probe = (
        "import * as reader from './clients/js/tictactoe-book.js';\n"
        "import { readFileSync } from 'node:fs';\n"
        "const book = reader.loadBook(readFileSync('book/tictactoe.json'));\n"
        f"const imported = {sorted(imported)!r}, methods = {sorted(methods)!r};\n"
        "for (const name of imported)\n"
        "  if (typeof reader[name] !== 'function') throw new Error(`no export ${name}`);\n"
        "for (const name of methods)\n"
        "  if (typeof book[name] !== 'function') throw new Error(`no method ${name}`);\n"
    )
    (checkout / "probe.mjs").write_text(probe)
    result = subprocess.run(
        [node, "probe.mjs"], cwd=checkout, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
