"""Exact win/draw/loss rates of each play level against the reference opponents.

Every line of play is enumerated with exact fractions (``tictactoe_book.rates.PlayOut``): a level picks
uniformly among ``tictactoe_book.play.candidates``; *random* and *novice* are ``tictactoe_book.play``'s.
``ttt-book levels`` prints the table aligned for a terminal, with a legend (``plain_table``), or
as the README publishes it (``markdown_table``); ``update_file`` rewrites it in a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path

from tictactoe_book.errors import InputFileError, TableMarkerError
from tictactoe_book.game import EMPTY, FIRST, SECOND, Rules, other
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.play import LEVELS, level_policy
from tictactoe_book.rates import PlayOut
from tictactoe_book.reader import Book, load_book
from tictactoe_generator import build_tools
from tictactoe_generator.atomic import read_regular_file, target, write_files

Rates = tuple[Fraction, Fraction, Fraction]
#: (row, opponent, "first"/"second") -> exact (win, draw, loss) of the computer; a row is a
#: level, named as ``row_name`` names it
Table = dict[tuple[str, str, str], Rates]
SIDES = ("first", "second")
COLUMN = 7  # characters of one percentage column in the plain table ("100.00" and a space)
START = "<!-- levels-table:start -->"
END = "<!-- levels-table:end -->"


#: The rankings of the table's perfect rows, in order: the default first.
RANKINGS = tuple(OPPONENTS)


def row_name(level: str, against: str) -> str:
    """The table's name for the perfect level playing from a book ranked against ``against``:
    the option that plays it (``perfect --against random``), the level alone for the default,
    and for a ranking no option names (a program's) ``perfect, ranked against program``. The
    other levels play from the scores alone, the same whatever the ranking: the level alone."""
    if level != LEVELS[0] or against == RANKINGS[0]:
        return level
    return f"{level} --against {against}" if against in RANKINGS else f"{level}, ranked against {against}"


def table_rows(book: Book, *others: Book) -> list[tuple[str, Book, str]]:
    """The table's rows, in order, as (name, book, level): the perfect level of ``book`` and of
    each of ``others`` (the same game ranked against other opponents), the reference rankings
    first (RANKINGS), then the other levels of ``book``."""
    order = {against: i for i, against in enumerate(RANKINGS)}
    perfect = sorted([book, *others], key=lambda b: order.get(b.against, len(order)))
    rows = [(row_name(LEVELS[0], b.against), b, LEVELS[0]) for b in perfect]
    return rows + [(level, book, level) for level in LEVELS[1:]]


def other_rankings(book: Book, *, packaged: bool) -> list[Book]:
    """The books of the reference rankings (RANKINGS) the table shows beside ``book``'s own:
    the packaged ones for a ``packaged`` book, else built in memory (the build extra)."""
    missing = [against for against in RANKINGS if against != book.against]
    if packaged:
        return [load_book(rules=book.rules, against=against) for against in missing]
    writer = build_tools()
    return [writer.ranked_against(book.rules, against) for against in missing]


def matches(book: Book, *others: Book) -> int:
    """How many matches ``level_rates`` plays for these books: one step of its progress each."""
    return len(table_rows(book, *others)) * len(OPPONENTS) * len(SIDES)


def level_rates(book: Book, *others: Book, advance: Callable[[], None] | None = None) -> Table:
    """(row, opponent, "first"/"second") -> exact (win, draw, loss) of the computer for each of
    ``table_rows``, every game of each match walked (``tictactoe_book.rates.PlayOut``); ``advance()``
    is called after each match (for a progress bar)."""
    table = {}
    start = EMPTY * book.rules.cells
    # each player plays in several matches: its choice on a board is worked out once
    opponents = {name: cache(foe.policy(book.rules)) for name, foe in OPPONENTS.items()}
    for row, source, level in table_rows(book, *others):
        tested = cache(level_policy(source, level))
        for opponent in OPPONENTS:
            for side, mark in zip(SIDES, (FIRST, SECOND), strict=True):
                match = PlayOut(book.rules, {mark: tested, other(mark): opponents[opponent]})
                outcome = match.results(start, mark)
                table[(row, opponent, side)] = (outcome.win, outcome.draw, outcome.loss)
                if advance is not None:
                    advance()
    return table


def rows_of(table: Table) -> list[str]:
    """The rows of ``table``, in its order."""
    return list(dict.fromkeys(row for row, _, _ in table))


def _cell(rates: Rates) -> str:
    return " / ".join(f"{float(r) * 100:.2f}" for r in rates)


def markdown_table(
    book: Book, table: Table | None = None, *, advance: Callable[[], None] | None = None
) -> str:
    """The README's table: percentages won / drawn / lost, exact values rounded to 0.01
    (``table``: the rates, if already computed; else ``advance`` as for ``level_rates``, on
    ``book`` alone)."""
    table = level_rates(book, advance=advance) if table is None else table
    heads = [f"vs {opp}, moving {side}" for opp in OPPONENTS for side in SIDES]
    lines = [START, "| level | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for row in rows_of(table):
        cells = [_cell(table[(row, opp, side)]) for opp in OPPONENTS for side in SIDES]
        name = f"`{row}`" if " " in row else row
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append(END)
    return "\n".join(lines)


LEGEND = """\
The computer's results at each level, {unit}: won / drawn / lost,
as it moves first or second; exact (every game enumerated, nothing sampled),
against the reference opponents:"""
TARGETED = """\
A level "--against random" plays from the book ranked to beat a random player
(ttt-play --against random), "perfect" from the one ranked to beat a novice;
the other levels play by the scores alone, whatever the ranking."""
PROGRAM = """\
A level "ranked against" another opponent plays from this book's own order."""


def legend(rules: Rules, rows: list[str] | None = None, *, unit: str = "in % of its games") -> str:
    """What the table shows, for a book of ``rules`` (named unless they are the classic game's),
    with a note on the rankings if one of the ``rows`` names one; ``unit``: how rates are
    written."""
    named = [] if rules == Rules() else [f"The game: {rules}."]
    targeted = [TARGETED] if any("--against" in row for row in rows or []) else []
    program = [PROGRAM] if any("ranked against" in row for row in rows or []) else []
    opponents = [f"  {name:<7} {foe.description(rules)}." for name, foe in OPPONENTS.items()]
    return "\n".join([*named, LEGEND.format(unit=unit), *opponents, *targeted, *program])


def plain_table(table: Table, rules: Rules | None = None) -> str:
    """The table for a terminal: aligned columns under a legend saying whose results they are,
    against which opponent, and in which game (``rules``: the classic one unless given)."""
    rows = rows_of(table)
    group = 3 * COLUMN
    width = max(len("level"), *map(len, rows))
    lines = [
        legend(rules or Rules(), rows),
        "",
        (f"{'':<{width}} {'':<6}" + "".join(f"  {'against ' + opp:^{group}}" for opp in OPPONENTS)).rstrip(),
        f"{'level':<{width}} {'moves':<6}"
        + "".join(f"  {'won':>{COLUMN}}{'drawn':>{COLUMN}}{'lost':>{COLUMN}}" for _ in OPPONENTS),
    ]
    for row in rows:
        for side in SIDES:
            line = f"{row if side == SIDES[0] else '':<{width}} {side:<6}"
            for opp in OPPONENTS:
                line += "  " + "".join(
                    f"{float(rate) * 100:>{COLUMN}.2f}" for rate in table[(row, opp, side)]
                )
            lines.append(line.rstrip())
    return "\n".join(lines)


def exact_table(table: Table, rules: Rules | None = None) -> str:
    """The table's rates as exact fractions, under the legend: each row's name on a line, then a
    line per side and opponent (what ``plain_table`` rounds: ``191/192`` where it shows 99.48)."""
    rows = rows_of(table)
    lines = [legend(rules or Rules(), rows, unit="as exact fractions")]
    for row in rows:
        lines += ["", row]
        for side in SIDES:
            for opp in OPPONENTS:
                won, drawn, lost = table[(row, opp, side)]
                lines.append(
                    f"  {side + ',':<7} against {opp + ':':<7}  won {won}, drawn {drawn}, lost {lost}"
                )
    return "\n".join(lines)


def replace_table(text: str, table: str, source: object = "<text>") -> str:
    """``text`` with everything from its start marker to its end marker replaced by ``table``
    (which carries the markers itself). Raises TableMarkerError naming ``source``."""
    starts, ends = text.count(START), text.count(END)
    if not starts or not ends:
        raise TableMarkerError(f"{source}: no {START} ... {END} markers to replace")
    if starts > 1 or ends > 1:
        raise TableMarkerError(f"{source}: {starts} start and {ends} end markers; expected one of each")
    start, end = text.index(START), text.index(END)
    if end < start:
        raise TableMarkerError(f"{source}: the end marker {END} comes before the start marker {START}")
    return text[:start] + table + text[end + len(END) :]


#: The largest file ``update_file`` reads: a README, far above any real one.
MAX_UPDATE_BYTES = 16 * 1024 * 1024


def update_file(path: Path, table: Callable[[], str]) -> bool:
    """Replace the table between the markers of the file at ``path`` by ``table()``, keeping
    its mode; whether it changed. Everything that can be refused is refused before ``table``
    is called (it takes seconds): InputFileError or TableMarkerError for a file that cannot be
    read or has no markers, OutputError for one that cannot be written; and InputFileError if
    the file changed meanwhile (nothing written)."""
    raw, read = read_regular_file(path, MAX_UPDATE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputFileError(path, f"is not UTF-8 text (byte {error.start})") from None
    replace_table(text, "", path)
    target(path)
    updated = replace_table(text, table(), path)
    if updated == text:
        return False
    if _changed(path, read):
        raise InputFileError(path, "changed while the table was computed; nothing written, run again")
    write_files({path: updated.encode()})
    return True


def _changed(path: Path, read: os.stat_result) -> bool:
    """Whether ``path`` is no longer the file that was read (replaced, resized or rewritten)."""
    try:
        now = os.stat(path)
    except OSError:
        return True
    fields = ("st_dev", "st_ino", "st_size", "st_mtime_ns")
    return any(getattr(now, f) != getattr(read, f) for f in fields)
