"""``ttt-book levels``: the aligned table and its legend, ``--markdown``, ``--update``, and the
progress bar (only on a terminal). The rates themselves are proved in tests/test_levels.py; here
they are stand-ins, so these tests cost no enumeration."""

from __future__ import annotations

import io
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import tictactoe_generator.reports
from tictactoe_book import LEVELS, Book
from tictactoe_book.apps import console
from tictactoe_book.apps import progress as progress_bars
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.reports import levels as levels_table
from tictactoe_generator.reports.levels import (
    END,
    OPPONENTS,
    SIDES,
    START,
    Table,
    markdown_table,
    plain_table,
)

ROOT = Path(__file__).resolve().parent.parent

#: The table's rows as `ttt-book levels` shows them: the perfect level from each ranking, then
#: the others.
ROWS = ("perfect", "perfect --against random", *LEVELS[1:])
#: Stand-in rates, each one different so that a misplaced column shows: row i, opponent j,
#: side k wins (i + 1) / (10 + 4j + 2k + 1), draws a 1/10, loses the rest.
FAKE: Table = {}
for i, level in enumerate(ROWS):
    for j, opponent in enumerate(OPPONENTS):
        for k, side in enumerate(SIDES):
            win = Fraction(i + 1, 10 + 4 * j + 2 * k + 1)
            FAKE[(level, opponent, side)] = (win, Fraction(1, 10), 1 - win - Fraction(1, 10))


def fake_rates(book: Book, *others: Book, advance: object = None) -> Table:
    assert [other.against for other in others] == [a for a in ("novice", "random") if a != book.against]
    assert all(other.rules == book.rules for other in others)
    for _ in range(len(FAKE)):
        if callable(advance):
            advance()
    return FAKE


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(book_cli, ["levels", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_the_plain_table_is_aligned_under_a_legend() -> None:
    text = plain_table(FAKE)
    lines = text.splitlines()
    assert all(len(line) < 80 for line in lines)
    legend = " ".join(lines[:6])
    for words in (
        "The computer's results",
        "won / drawn / lost",
        "moves first or second",
        "random",
        "novice",
    ):
        assert words in legend, words
    header = next(line for line in lines if line.startswith("level"))
    rows = lines[lines.index(header) + 1 :]
    assert len(rows) == 2 * len(ROWS)
    # every number ends where its column's heading ends
    ends = [m.end() for m in re.finditer(r"won|drawn|lost", header)]
    for row in rows:
        assert [m.end() for m in re.finditer(r"\d+\.\d\d", row)] == ends, row
    assert 'A level "--against random" plays from the book ranked to beat a random player' in text
    for i, level in enumerate(ROWS):
        first, second = rows[2 * i], rows[2 * i + 1]
        assert first.startswith(f"{level:<24} first ") and second.startswith(" " * 25 + "second ")
        numbers = [float(n) for n in re.findall(r"\d+\.\d\d", first)]
        # the columns in the registry's order (tictactoe_book.opponents): novice, then random
        assert numbers[0] == round(float(FAKE[(level, "novice", "first")][0]) * 100, 2)
        assert numbers[3] == round(float(FAKE[(level, "random", "first")][0]) * 100, 2)


def test_levels_prints_the_plain_table_and_markdown_on_request(
    book: Book, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(levels_table, "level_rates", fake_rates)
    code, out = run()
    assert code == 0 and out == plain_table(FAKE) + "\n"
    assert "|" not in out and "Enumerating" not in out  # no bar where standard error is no terminal
    code, out = run("--markdown")
    assert code == 0 and out == markdown_table(book, FAKE) + "\n"
    assert out.startswith(START) and out.rstrip().endswith(END)


def test_update_writes_the_markdown_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, book: Book) -> None:
    monkeypatch.setattr(levels_table, "level_rates", fake_rates)
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\n{START}\nold\n{END}\n")
    code, out = run("--update", str(readme))
    assert code == 0 and "updated the levels table" in out
    assert readme.read_text() == f"# Title\n\n{markdown_table(book, FAKE)}\n"


def test_levels_takes_a_3x4_book_and_names_its_game(
    monkeypatch: pytest.MonkeyPatch, book_3x4_path: Path
) -> None:
    monkeypatch.setattr(levels_table, "level_rates", fake_rates)
    code, out = run("--book", str(book_3x4_path))
    assert code == 0, out
    assert out.startswith("The game: 3x4 k=3.\nThe computer's results at each level")
    assert out.endswith(plain_table(FAKE).split("\n", 5)[-1] + "\n")  # the same table under it


def test_levels_of_the_misere_book_say_how_its_novice_plays() -> None:
    # Misère tic-tac-toe is a draw with best play (the first player takes the centre and
    # answers each move with its mirror image), so the perfect level never loses, on either side.
    code, out = run("--book", str(ROOT / "book" / "tictactoe-misere.json"))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "The game: 3x3 k=3 misère."
    assert "never completing a line of its own" in out and "blocks" not in out
    at = next(i for i, line in enumerate(lines) if line.startswith("perfect"))
    for row in lines[at : at + 2]:  # moving first, moving second
        assert row.split()[-4] == row.split()[-1] == "0.00", row  # lost: against random, novice


def table_rows(out: str) -> list[str]:
    """The names of the rows of a plain table, in order."""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("level "))
    width = lines[header].index(" moves")
    return [line[:width].strip() for line in lines[header + 1 :: 2]]


def test_levels_of_a_book_ranked_against_random_is_the_same_table() -> None:
    """Either packaged ranking given as --book shows the same rows, the other ranking built
    beside it: the levels below perfect play by the scores alone, so they are named by the
    level alone (not "hard --against random")."""
    code, packaged = run()
    assert code == 0, packaged
    code, out = run("--book", str(ROOT / "book" / "tictactoe-vs-random.json"))
    assert code == 0 and out == packaged, out
    assert table_rows(out) == ["perfect", "perfect --against random", "hard", "medium", "easy"]


def test_levels_of_a_book_ranked_against_a_program_shows_its_own_row(tmp_path: Path) -> None:
    """A book ranked against a program (its tiers here the novice book's, only the name
    changed) gets a row of its own beside both reference rankings, and a legend line."""
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    old = b'"trap_order":{"method":"exact","tolerance":"0"}'
    path = tmp_path / "program.json"
    path.write_bytes(raw.replace(old, b'"trap_order":{"against":"program","method":"exact","tolerance":"0"}'))
    code, out = run("--book", str(path))
    assert code == 0, out
    rows = table_rows(out)
    assert rows == [
        "perfect",
        "perfect --against random",
        "perfect, ranked against program",
        "hard",
        "medium",
        "easy",
    ]
    assert "plays from this book's own order" in out
    lines = out.splitlines()
    numbers = {row: [] for row in rows}
    at = next(i for i, line in enumerate(lines) if line.startswith("level ")) + 1
    for i, row in enumerate(rows):
        numbers[row] = re.findall(r"\d+\.\d\d", lines[at + 2 * i] + lines[at + 2 * i + 1])
    assert numbers["perfect, ranked against program"] == numbers["perfect"]  # the same tiers


def test_levels_refuses_a_book_too_big_to_walk(monkeypatch: pytest.MonkeyPatch, book_3x4_path: Path) -> None:
    monkeypatch.setattr(tictactoe_generator.reports, "MAX_CELLS", 9)
    monkeypatch.setattr(levels_table, "level_rates", fake_rates)
    code, out = run("--book", str(book_3x4_path))
    assert code == 3
    why = "the levels are worked out for boards of at most 9 cells"
    assert out == f"Error: {book_3x4_path}: is a book for 3x4 k=3; {why}\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_after_a_moment_and_is_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    monkeypatch.setattr(console.sys, "stderr", stream)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)
    with progress_bars.progress(4, "Counting") as advance:
        for _ in range(4):
            advance()
    shown = stream.getvalue()
    assert "Counting" in shown and "100%" in shown
    assert shown.endswith("\r\x1b[2K\x1b[?25h")  # erased, the cursor shown again


def test_no_progress_for_quick_work_or_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    monkeypatch.setattr(console.sys, "stderr", stream)
    with progress_bars.progress(4, "Counting") as advance:  # done well within PROGRESS_AFTER
        advance()
    assert stream.getvalue() == ""
    piped = io.StringIO()
    monkeypatch.setattr(console.sys, "stderr", piped)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)
    with progress_bars.progress(4, "Counting") as advance:
        advance()
    assert piped.getvalue() == ""


def test_progress_is_erased_when_the_work_is_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    monkeypatch.setattr(console.sys, "stderr", stream)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)
    with pytest.raises(KeyboardInterrupt), progress_bars.progress(4, "Counting") as advance:
        advance()
        raise KeyboardInterrupt
    assert stream.getvalue().endswith("\r\x1b[2K\x1b[?25h")
