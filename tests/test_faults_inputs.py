"""Inputs that cannot be used: books on every command path, and the file ``levels --update``
rewrites. One line naming the file, status 3, no traceback, the file untouched.

Books are judged by the loader (its reasons are its own); these tests only hold every command
to the exit table, so they use books that no loader accepts (missing, a folder) and make a
book fail while in use by raising the loader's own ``BookError`` from ``Book.evaluate``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from faultkit import (
    BOOK_CLI,
    PLAY,
    ROOT,
    assert_one_line,
    read_only,
    run,
    snapshot,
    temporaries,
    text,
    unreadable_preamble,
)

from tictactoe_generator import cli as book_cli
from tictactoe_generator.reports import levels as levels_table
from tictactoe_generator.reports.levels import END, START

# name: (program, arguments before the book option, after it, standard input)
BOOK_PATHS: dict[str, tuple[str, list[str], bytes]] = {
    "play-moves": (PLAY, ["--moves", "5", "--seed", "1"], b""),
    "play-watch": (PLAY, ["--watch", "--seed", "1"], b""),
    "play-interactive": (PLAY, ["--interactive", "--seed", "1"], b"h\n5\nq\n"),
    "query": (BOOK_CLI, ["query", "X........"], b""),
    "levels": (BOOK_CLI, ["levels"], b""),
}


def with_book(name: str, book: str) -> tuple[str, list[str], bytes]:
    program, args, stdin = BOOK_PATHS[name]
    if program == PLAY:
        return program, ["--book", book, *args], stdin
    return program, [args[0], "--book", book, *args[1:]], stdin


@pytest.mark.parametrize("kind", ["missing", "directory"])
@pytest.mark.parametrize("name", sorted(BOOK_PATHS))
def test_a_book_that_cannot_be_used_is_status_3_on_every_path(tmp_path: Path, name: str, kind: str) -> None:
    book = tmp_path / "none.json" if kind == "missing" else tmp_path
    program, args, stdin = with_book(name, str(book))
    process = run(program, *args, input=stdin, stdin=None)
    assert_one_line(process, 3, str(book))


def test_the_book_from_the_environment_too(tmp_path: Path) -> None:
    process = run(PLAY, "--moves", "5", env={"TTT_BOOK": str(tmp_path / "none.json")})
    assert_one_line(process, 3, "none.json")


# Book.evaluate fails as a book found bad only when an entry is used would. The BookError is
# the loader's own (from a missing file), so nothing here depends on its constructor.
FAILING_ENTRY = {
    "BookError": """
from tictactoe_book.reader import Book, load_book
from tictactoe_book.errors import BookError
try:
    load_book("/nonexistent/damaged-entry.json")
except BookError as error:
    _failure = error
def _evaluate(self, board, *, first="X"):
    raise _failure
Book.evaluate = _evaluate
""",
    "BoardError": """
from tictactoe_book.reader import Book
from tictactoe_book.errors import BoardError
def _evaluate(self, board, *, first="X"):
    raise BoardError("unreachable", f"board {board!r} is not in the book: it cannot arise in play")
Book.evaluate = _evaluate
""",
}


@pytest.mark.parametrize("failure", sorted(FAILING_ENTRY))
@pytest.mark.parametrize("name", sorted(BOOK_PATHS))
def test_a_book_failing_while_in_use_is_status_3(name: str, failure: str) -> None:
    program, args, stdin = BOOK_PATHS[name]
    process = run(program, *args, input=stdin, stdin=None, preamble=FAILING_ENTRY[failure])
    if name == "query" and failure == "BoardError":
        # query's BOARD is the user's: a board the book cannot answer is a usage error
        assert process.returncode == 2 and "Traceback" not in text(process.stderr)
        return
    line = assert_one_line(process, 3)
    assert ("damaged-entry.json" if failure == "BookError" else "not in the book") in line


# ---------------------------------------------------------------- levels --update FILE

README = f"# Title\n\n{START}\nold table\n{END}\n\nThe end.\n".encode()


def update(folder: Path, name: str = "README.md", **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    kwargs.setdefault("timeout", 20)
    return run(BOOK_CLI, "levels", "--update", name, cwd=folder, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"# no markers at all\n", "no <!-- levels-table:start --> ... <!-- levels-table:end --> markers"),
        (f"{END}\nold\n{START}\n".encode(), "comes before the start marker"),
        (f"{START}\n{START}\nold\n{END}\n".encode(), "2 start and 1 end markers"),
        (README.replace(b"old", b"\xffold"), "is not UTF-8 text (byte"),
    ],
    ids=["no-markers", "end-before-start", "two-starts", "not-utf8"],
)
def test_an_update_file_with_bad_content(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "README.md").write_bytes(content)
    before = snapshot(tmp_path)
    assert_one_line(update(tmp_path), 3, "README.md", words)
    assert snapshot(tmp_path) == before


def test_an_update_file_that_is_missing_a_folder_or_a_fifo(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    before = snapshot(tmp_path)
    assert_one_line(update(tmp_path, "missing.md"), 3, "missing.md: no such file")
    assert_one_line(update(tmp_path, "folder"), 3, "folder: is a directory")
    assert_one_line(update(tmp_path, "fifo"), 3, "fifo: is a named pipe (FIFO)")  # and does not hang
    assert snapshot(tmp_path) == before


def test_an_unreadable_update_file(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_bytes(README)
    before = snapshot(tmp_path)
    if os.geteuid() == 0:  # root reads anything: the refusal is injected
        process = update(tmp_path, preamble=unreadable_preamble(Path("README.md")))
    else:
        readme.chmod(0)
        process = update(tmp_path)
        readme.chmod(0o644)
    assert_one_line(process, 3, "README.md: cannot be read", "Permission denied")
    assert snapshot(tmp_path) == before


def test_an_update_in_a_read_only_folder(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_bytes(README)
    before = snapshot(tmp_path)
    with read_only(tmp_path):
        process = update(tmp_path)
    assert_one_line(process, 4, "cannot write README.md")
    assert snapshot(tmp_path) == before


def test_an_update_keeps_the_mode_and_follows_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.md").write_bytes(README)
    (tmp_path / "real.md").chmod(0o600)
    (tmp_path / "README.md").symlink_to("real.md")
    process = update(tmp_path, timeout=60)
    assert process.returncode == 0, text(process.stderr)
    assert (tmp_path / "README.md").is_symlink()
    updated = (tmp_path / "real.md").read_bytes()
    assert updated.startswith(b"# Title\n\n" + START.encode()) and updated.endswith(
        END.encode() + b"\n\nThe end.\n"
    )
    assert b"| perfect |" in updated
    assert (tmp_path / "real.md").stat().st_mode & 0o777 == 0o600
    assert temporaries(tmp_path) == []


def fake_table(changing: Path | None = None) -> object:
    def table(book: object, *args: object, **kwargs: object) -> str:
        if changing is not None:
            changing.write_bytes(changing.read_bytes() + b"an edit made meanwhile\n")
        return f"{START}\nnew table\n{END}"

    return table


def test_a_file_edited_while_the_table_is_computed_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = tmp_path / "README.md"
    readme.write_bytes(README)
    monkeypatch.setattr(levels_table, "markdown_table", fake_table(readme))
    result = CliRunner().invoke(book_cli.main, ["levels", "--update", str(readme)])
    assert result.exit_code == 3, result.output
    assert "changed while the table was computed" in result.output
    assert readme.read_bytes() == README + b"an edit made meanwhile\n"


def test_a_current_table_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = tmp_path / "README.md"
    readme.write_bytes(README.replace(b"old table", b"new table"))
    before = readme.stat()
    monkeypatch.setattr(levels_table, "markdown_table", fake_table())
    result = CliRunner().invoke(book_cli.main, ["levels", "--update", str(readme)])
    assert result.exit_code == 0, result.output
    assert "already current" in result.output
    assert readme.stat().st_mtime_ns == before.st_mtime_ns


def test_the_repository_readme_markers_are_intact() -> None:
    text_ = (ROOT / "README.md").read_text()
    assert text_.count(START) == 1 and text_.count(END) == 1 and text_.index(START) < text_.index(END)
