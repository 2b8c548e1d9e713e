"""The wheel carries the packaged books and their records as package data, and the installed player
uses them from any directory; ``make book`` proves the books and records them
(tictactoe_generator.packaged)."""

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

from tictactoe_book.game import Rules
from tictactoe_book.reader import PACKAGED, parse_book

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
        assert "tictactoe_book/tictactoe.json" in names
        # the CRC-32 of each book's bytes, 8 lowercase hex digits and a newline
        recorded = archive.read("tictactoe_book/tictactoe.json.crc32").decode()
        assert recorded == f"{zlib.crc32((ROOT / 'book' / 'tictactoe.json').read_bytes()):08x}\n"
        misere = (ROOT / "book" / "tictactoe-misere.json").read_bytes()
        assert archive.read("tictactoe_book/tictactoe-misere.json") == misere
        recorded = archive.read("tictactoe_book/tictactoe-misere.json.crc32").decode()
        assert recorded == f"{zlib.crc32(misere):08x}\n"
        for name in ("tictactoe-vs-random.json", "tictactoe-misere-vs-random.json"):  # --against random
            raw = (ROOT / "book" / name).read_bytes()
            assert archive.read(f"tictactoe_book/{name}") == raw
            assert archive.read(f"tictactoe_book/{name}.crc32").decode() == f"{zlib.crc32(raw):08x}\n"
        assert "tictactoe_book/py.typed" in names
        book = (ROOT / "book" / "tictactoe.json").read_bytes()
        assert archive.read("tictactoe_book/tictactoe.json") == book
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        text = archive.read(entry_points).decode()
        assert (
            "ttt-play = tictactoe_book.commands:ttt_play" in text
            and "ttt-book = tictactoe_generator.commands:ttt_book" in text
        )
        # the two packages, each with its entry point, and the wheel's metadata
        tops = {name.split("/")[0] for name in names}
        dist_info = f"tictactoe_book-{project_version()}.dist-info"
        assert tops == {"tictactoe_book", "tictactoe_generator", dist_info}
        assert {"tictactoe_book/commands.py", "tictactoe_generator/commands.py"} <= names
        # every packaged book the registry names, and its record (pyproject.toml lists them)
        packaged = {
            f"tictactoe_book/{name}{suffix}" for name in PACKAGED.values() for suffix in ("", ".crc32")
        }
        assert packaged <= names
        assert not [n for n in names if n.endswith((".json", ".crc32")) and n not in packaged]
        assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
        # the licence file, where PEP 639 puts it
        assert archive.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()


def test_the_wheel_carries_the_export_templates(wheel: Path) -> None:
    """``ttt-book export`` reads its C and Rust templates as package data."""
    templates = sorted(
        p.name for p in (ROOT / "generator" / "tictactoe_generator" / "export" / "templates").iterdir()
    )
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"book.c", "lib.rs", "Cargo.toml", "state.c"} <= set(templates)
    assert [n for n in templates if f"tictactoe_generator/export/templates/{n}" not in names] == []


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
        "import sys, tictactoe_book, tictactoe_book.reader\n"
        "print(tictactoe_book.__file__)\nprint(tictactoe_book.reader.default_book_path())\n"
        "sys.argv = ['ttt-play', '--moves', '5', '--seed', '1']\n"
        "from tictactoe_book.apps.cli import run\nrun()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(target)), lines[0]
    assert lines[1] == str(target / "tictactoe_book" / "tictactoe.json")
    assert run.returncode == 1 and "Unfinished" in run.stdout  # one move given: the game goes on


def install(wheel: Path, target: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )


TRUST = "import tictactoe_book; b = tictactoe_book.load_book(); print(b.trust, len(b))"
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
    installed = target / "tictactoe_book" / "tictactoe.json"
    data = json.loads(installed.read_bytes())
    data["entries"]["........X"] = "0 0,1,2,3,5,6,7"
    installed.write_text(json.dumps(data))
    refused = subprocess.run(
        [sys.executable, "-c", TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert refused.returncode != 0
    assert "[entry-inconsistent]" in refused.stderr
    # The same bytes with the record removed are proven too: still refused.
    (target / "tictactoe_book" / "tictactoe.json.crc32").unlink()
    again = subprocess.run(
        [sys.executable, "-c", TRUST], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert "[entry-inconsistent]" in again.stderr


@pytest.mark.parametrize("key", sorted(PACKAGED), ids=lambda key: PACKAGED[key])
def test_each_packaged_record_in_the_checkout_is_its_books_crc32_and_the_book_proves(
    key: tuple[bool, str],
) -> None:
    """book/NAME.crc32 is what the wheel ships as the packaged book's record: it must be the
    CRC-32 of the book's bytes (``make book`` writes both), and the book must prove for 3x3."""
    misere, _ = key
    book = ROOT / "book" / PACKAGED[key]
    raw = book.read_bytes()
    assert (ROOT / "book" / f"{PACKAGED[key]}.crc32").read_text() == f"{zlib.crc32(raw):08x}\n"
    loaded = parse_book(raw, str(book), rules=Rules(3, 3, 3, misere))
    assert loaded.rules == Rules(3, 3, 3, misere)


def book_copy(tmp_path: Path) -> Path:
    """The checkout's packaged books without their records, in a folder of their own."""
    folder = tmp_path / "book"
    folder.mkdir()
    for name in PACKAGED.values():
        shutil.copy(ROOT / "book" / name, folder / name)
    return folder


def record(folder: Path) -> subprocess.CompletedProcess[str]:
    """``make book``'s last step on ``folder``."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_generator.packaged", str(folder)], capture_output=True, text=True
    )


def test_make_book_records_each_packaged_book_once(tmp_path: Path) -> None:
    folder = book_copy(tmp_path)
    done = record(folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"recorded {folder / name}.crc32" for name in PACKAGED.values()]
    for name in PACKAGED.values():
        assert (folder / f"{name}.crc32").read_text() == f"{zlib.crc32((folder / name).read_bytes()):08x}\n"
    assert record(folder).stdout == ""  # nothing changed: nothing written


def test_a_book_that_does_not_prove_is_not_recorded(tmp_path: Path) -> None:
    folder = book_copy(tmp_path)
    book = folder / "tictactoe.json"
    data = json.loads(book.read_bytes())
    data["entries"]["........X"] = "0 0"
    book.write_text(json.dumps(data))
    done = record(folder)
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: ") and "[entry-inconsistent]" in line and str(book) in line
    assert not list(folder.glob("*.crc32"))


def test_a_misere_book_for_other_rules_is_not_recorded(tmp_path: Path) -> None:
    folder = book_copy(tmp_path)
    # the normal book where the misère one belongs: it proves, but for the wrong rules
    shutil.copy(folder / "tictactoe.json", folder / "tictactoe-misere.json")
    done = record(folder)
    assert done.returncode == 1 and "[rules]" in done.stderr and "tictactoe-misere.json" in done.stderr
    assert not (folder / "tictactoe-misere.json.crc32").exists()


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
