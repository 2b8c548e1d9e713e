"""The wheel carries the book as package data, and the installed player uses it from any directory."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

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
        assert "player/py.typed" in names
        assert archive.read("player/tictactoe.json") == (ROOT / "book" / "tictactoe.json").read_bytes()
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        text = archive.read(entry_points).decode()
        assert "ttt-play = player.cli:run" in text and "ttt-book = generator.cli:run" in text


def test_installed_player_runs_from_any_directory(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("TTT_BOOK", None)
    code = (
        "import sys, player, player.book\n"
        "print(player.__file__)\nprint(player.book.default_book_path())\n"
        "sys.argv = ['ttt-play', '--moves', '5', '--seed', '1']\n"
        "from player.cli import run\nrun()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(target)), lines[0]
    assert lines[1] == str(target / "player" / "tictactoe.json")
    assert run.returncode == 1 and "Unfinished" in run.stdout  # one move given: the game goes on
