"""The wheel carries the book as package data, and the installed player uses it from any directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from test_versions import project_version

from tictactoe_book.reader import PACKAGED

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("tictactoe_book-*.whl")
    return found


def test_the_wheel_carries_the_book_and_type_marker(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "player/tictactoe.json" in names
        # the CRC-32 of each book's bytes, 8 lowercase hex digits and a newline
        recorded = archive.read("player/tictactoe.json.crc32").decode()
        assert recorded == f"{zlib.crc32((ROOT / 'book' / 'tictactoe.json').read_bytes()):08x}\n"
        misere = (ROOT / "book" / "tictactoe-misere.json").read_bytes()
        assert archive.read("player/tictactoe-misere.json") == misere
        assert archive.read("player/tictactoe-misere.json.crc32").decode() == f"{zlib.crc32(misere):08x}\n"
        for name in ("tictactoe-vs-random.json", "tictactoe-misere-vs-random.json"):  # --against random
            raw = (ROOT / "book" / name).read_bytes()
            assert archive.read(f"player/{name}") == raw
            assert archive.read(f"player/{name}.crc32").decode() == f"{zlib.crc32(raw):08x}\n"
        assert "player/py.typed" in names
        assert archive.read("player/tictactoe.json") == (ROOT / "book" / "tictactoe.json").read_bytes()
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        text = archive.read(entry_points).decode()
        assert (
            "ttt-play = tictactoe_book.commands:ttt_play" in text
            and "ttt-book = tictactoe_book.commands:ttt_book" in text
        )
        # the two packages, the entry points' module beside them, and the wheel's own metadata
        tops = {name.split("/")[0] for name in names}
        dist_info = f"tictactoe_book-{project_version()}.dist-info"
        assert tops == {"player", "generator", "commands.py", dist_info}
        # the licence file, where PEP 639 puts it
        assert archive.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()


def test_the_wheel_carries_the_export_templates(wheel: Path) -> None:
    """``ttt-book export`` reads its C and Rust templates as package data."""
    templates = sorted(p.name for p in (ROOT / "generator" / "export" / "templates").iterdir())
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"book.c", "lib.rs", "Cargo.toml", "state.c"} <= set(templates)
    assert [n for n in templates if f"generator/export/templates/{n}" not in names] == []


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed by pip into a folder of its own, once (a test that edits it copies it)."""
    target = tmp_path_factory.mktemp("installed") / "site"
    install(wheel, target)
    return target


def test_installed_player_runs_from_any_directory(installed: Path, tmp_path: Path) -> None:
    target = installed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("TTT_BOOK", None)
    code = (
        "import sys, player, tictactoe_book.reader\n"
        "print(tictactoe_book.__file__)\nprint(tictactoe_book.reader.default_book_path())\n"
        "sys.argv = ['ttt-play', '--moves', '5', '--seed', '1']\n"
        "from tictactoe_book.apps.cli import run\nrun()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(target)), lines[0]
    assert lines[1] == str(target / "player" / "tictactoe.json")
    assert run.returncode == 1 and "Unfinished" in run.stdout  # one move given: the game goes on


def install(wheel: Path, target: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )


TRUST = "import player; b = tictactoe_book.load_book(); print(b.trust, len(b))"
MISERE_TRUST = (
    "from tictactoe_book.reader import load_book; from tictactoe_book.game import Rules\n"
    "b = load_book(rules=Rules(3, 3, 3, misere=True)); print(b.trust, b.rules)"
)


def test_the_packaged_book_skips_the_proof_only_with_its_recorded_bytes(
    installed: Path, tmp_path: Path
) -> None:
    target = tmp_path / "site"
    shutil.copytree(installed, target, symlinks=True)  # this test edits its installed book
    env = {**os.environ, "PYTHONPATH": str(target)}
    trusted = subprocess.run(
        [sys.executable, "-c", TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert trusted.stdout.split() == ["packaged", "627"], trusted.stderr
    misere = subprocess.run(
        [sys.executable, "-c", MISERE_TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert misere.stdout.split() == ["packaged", "3x3", "k=3", "misère"], misere.stderr
    game = subprocess.run(
        [str(target / "bin" / "ttt-play"), "--misere", "--watch", "--seed", "1"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert game.returncode == 0 and game.stdout.rstrip().endswith("Result: draw."), game.stderr
    # A hand edit of the installed book: after X's corner, O's centre made a loser and every
    # other cell claimed as a draw. The bytes no longer match the record, so the book is
    # proven, and refused.
    installed = target / "player" / "tictactoe.json"
    data = json.loads(installed.read_bytes())
    data["entries"]["........X"] = "0 0,1,2,3,5,6,7"
    installed.write_text(json.dumps(data))
    refused = subprocess.run(
        [sys.executable, "-c", TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert refused.returncode != 0
    assert "[entry-inconsistent]" in refused.stderr
    # The same bytes with the record removed are proven too: still refused.
    (target / "player" / "tictactoe.json.crc32").unlink()
    again = subprocess.run(
        [sys.executable, "-c", TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert "[entry-inconsistent]" in again.stderr


def source_copy(tmp_path: Path) -> Path:
    """A copy of the checkout to build a wheel from after editing its books."""
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "*cache*", "node_modules", "dist", "build"),
    )
    return source


def failed_build(source: Path, out: Path, code: str) -> None:
    """Building a wheel from ``source`` fails naming the reason ``code``, and leaves no wheel,
    and no folder of the build's own in the temporary directory."""
    temporary = out / "tmp"
    temporary.mkdir()
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert build.returncode != 0
    assert f"[{code}]" in build.stdout + build.stderr
    assert not list(out.glob("*.whl"))
    assert not [p.name for p in temporary.iterdir() if p.name.startswith("ttt-book-record-")]


def test_a_book_that_does_not_prove_fails_the_build(tmp_path: Path) -> None:
    source = source_copy(tmp_path)
    book = source / "book" / "tictactoe.json"
    data = json.loads(book.read_bytes())
    data["entries"]["........X"] = "0 0"
    book.write_text(json.dumps(data))
    failed_build(source, tmp_path, "entry-inconsistent")


def test_a_misere_book_for_other_rules_fails_the_build(tmp_path: Path) -> None:
    source = source_copy(tmp_path)
    # the normal book where the misère one belongs: it proves, but for the wrong rules
    shutil.copy(source / "book" / "tictactoe.json", source / "book" / "tictactoe-misere.json")
    failed_build(source, tmp_path, "rules")


def test_the_npm_package_ships_the_books_the_wheel_ships() -> None:
    """clients/js/index.js's PACKAGED_BOOKS mirrors tictactoe_book.reader.PACKAGED: the same files for
    the same (misère, opponent), so loadPackagedBook and load_book open the same book."""
    node = shutil.which("node")
    assert node is not None
    script = (
        "import { PACKAGED_BOOKS } from './clients/js/index.js';\n"
        "console.log(JSON.stringify(PACKAGED_BOOKS));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    shipped = {(b["misere"], b["against"]): b["file"] for b in json.loads(done.stdout)}
    assert shipped == PACKAGED
