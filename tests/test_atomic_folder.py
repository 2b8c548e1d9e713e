"""A folder of many files written all at once or not at all (tictactoe_generator.atomic_folder,
past FOLDER_AT_ONCE files: a 4x5 book by parts has 40,000, and the first 4x5 build of its day
failed after 33 minutes with "Too many open files" when each file held its own descriptors):
under a limit of 64 descriptors, thousands of files written, an old folder replaced whole, a
folder holding anything else refused untouched, a failure half-way leaving the old folder and
no temporary, a write killed with SIGKILL leaving a folder the next one removes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tictactoe_book.errors import OutputError
from tictactoe_generator.atomic_folder import FOLDER_AT_ONCE, write_into

TEMP_MARK = ".ttt-tmp-"
MANY = 3 * FOLDER_AT_ONCE


def book_like(n: int, fill: bytes) -> dict[str, bytes]:
    files = {f"{i:02d}-{i:05d}.part": fill + bytes([i % 256]) for i in range(n)}
    return {"manifest.json": b'{"n": %d}' % n, **files}


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def write_in_child(
    folder: Path, n: int, fill: bytes, *, before: str = ""
) -> subprocess.CompletedProcess[str]:
    """write_into in a process allowed 64 open descriptors."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
        f"{before}\n"
        "from tictactoe_generator.atomic_folder import write_into\n"
        f"from test_atomic_folder import book_like\n"
        f"write_into(sys.argv[1], book_like({n}, {fill!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    return subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env, timeout=120
    )


def test_thousands_of_files_under_a_limit_of_64_descriptors(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "book"
    done = write_in_child(folder, MANY, b"a")
    assert done.returncode == 0, done.stderr
    assert contents(folder) == book_like(MANY, b"a")
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == ["book"]  # no temporary left


def test_an_old_folder_of_the_same_kinds_is_replaced_whole(tmp_path: Path) -> None:
    folder = tmp_path / "book"
    write_into(folder, book_like(MANY, b"a"))
    os.chmod(folder, 0o750)
    write_into(folder, book_like(FOLDER_AT_ONCE + 1, b"b"))
    assert contents(folder) == book_like(FOLDER_AT_ONCE + 1, b"b")  # the old parts past it gone
    assert (os.stat(folder).st_mode & 0o777) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]


def test_a_folder_holding_anything_else_is_refused_untouched(tmp_path: Path) -> None:
    folder = tmp_path / "book"
    write_into(folder, book_like(MANY, b"a"))
    (folder / "notes.txt").write_text("mine")
    before = contents(folder)
    with pytest.raises(OutputError, match=r"it holds 'notes\.txt', not a file of what is written there"):
        write_into(folder, book_like(MANY, b"b"))
    assert contents(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]


def test_a_failure_half_way_leaves_the_old_folder_and_no_temporary(tmp_path: Path) -> None:
    """The 500th file cannot be written (its name is over the file system's 255 bytes)."""
    folder = tmp_path / "book"
    write_into(folder, book_like(MANY, b"a"))
    before = contents(folder)
    files = book_like(MANY, b"b")
    files["x" * 300 + ".part"] = b"too long a name"
    with pytest.raises(OutputError, match="cannot write"):
        write_into(folder, files)
    assert contents(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]


def test_a_folder_a_killed_write_left_is_removed_by_the_next(tmp_path: Path) -> None:
    """A write killed with SIGKILL half-way (its 100th file) leaves its locked temporary folder;
    the next write into the same folder removes it, and the old folder never changed."""
    folder = tmp_path / "book"
    write_into(folder, book_like(MANY, b"a"))
    kill = (
        "import os, signal\n"
        "_open, _count = os.open, [0]\n"
        "def _open_(path, flags, mode=0o777, *, dir_fd=None):\n"
        "    if '.ttt-tmp-' in os.fspath(path) and flags & os.O_CREAT:\n"
        "        _count[0] += 1\n"
        "        if _count[0] == 100:\n"
        "            os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return _open(path, flags, mode, dir_fd=dir_fd)\n"
        "os.open = _open_\n"
    )
    done = write_in_child(folder, MANY, b"b", before=kill)
    assert done.returncode == -signal.SIGKILL, done.stderr
    left = [p.name for p in tmp_path.iterdir() if TEMP_MARK in p.name]
    assert len(left) == 1
    assert contents(folder) == book_like(MANY, b"a")
    write_into(folder, book_like(MANY, b"c"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]
    assert contents(folder) == book_like(MANY, b"c")
