"""Exact win/draw/loss rates of each play level against the reference opponents.

Every line of play is enumerated with exact fractions: a level picks uniformly among
``player.levels.candidates``; *random* uniformly among legal moves; *novice* as defined in
``player.novice.novice_moves``. ``ttt-book levels`` prints the table aligned for a terminal,
with a legend (``plain_table``), or as the README publishes it (``markdown_table``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from fractions import Fraction
from functools import cache, partial
from pathlib import Path

from generator.atomic import read_regular_file, target, write_files
from player.errors import InputFileError, TableMarkerError
from player.game import EMPTY, FIRST, SECOND, Cell, Rules, legal_moves, side_to_move, winner
from player.play import LEVELS, candidates, novice_moves
from player.reader import Book

Policy = Callable[[str], tuple[Cell, ...]]
Outcome = Callable[[str], str | None]
Rates = tuple[Fraction, Fraction, Fraction]
#: (level, opponent, "first"/"second") -> exact (win, draw, loss) of the computer
Table = dict[tuple[str, str, str], Rates]
OPPONENTS = ("random", "novice")
SIDES = ("first", "second")
#: How many matches ``level_rates`` plays: one step of its progress each.
MATCHES = len(LEVELS) * len(OPPONENTS) * len(SIDES)
COLUMN = 7  # characters of one percentage column in the plain table ("100.00" and a space)
START = "<!-- levels-table:start -->"
END = "<!-- levels-table:end -->"


def level_policy(book: Book, level: str) -> Policy:
    """The moves ``level`` picks among (uniformly) on a board, X having moved first."""
    return lambda board: candidates(book.evaluate(board), level)


def opponent_policy(book: Book, name: str) -> Policy:
    """The reference opponent ``random`` or ``novice``."""
    if name == "random":
        return lambda board: tuple(legal_moves(board))
    return lambda board: tuple(novice_moves(book.rules, board, side_to_move(board)))


def match(book: Book, tested: Policy, opponent: Policy, tested_mark: str) -> Rates:
    """(win, draw, loss) for ``tested`` playing ``tested_mark``, X moving first.

    Exact, in integers: the walk gives a board with ``e`` empty cells its rates times
    ``scale ** e``, ``scale`` being divisible by every count of options (1 to cells), so each
    average over a board's options is an integer too; one division at the end. (Fractions,
    reduced by a gcd on every addition, took three times as long.)"""
    return _match(book.rules, tested, opponent, tested_mark, partial(winner, book.rules))


def _match(rules: Rules, tested: Policy, opponent: Policy, tested_mark: str, won_by: Outcome) -> Rates:
    """``match``, with ``won_by(board)`` giving the board's winner (or None): ``level_rates``
    shares one remembered across its matches."""
    scale = math.lcm(*range(1, rules.cells + 1))

    @cache
    def walk(board: str) -> tuple[int, int, int]:
        whole = scale ** board.count(EMPTY)
        won = won_by(board)
        if won is not None:
            return (whole, 0, 0) if won == tested_mark else (0, 0, whole)
        if EMPTY not in board:
            return (0, whole, 0)
        mark = side_to_move(board)
        options = (tested if mark == tested_mark else opponent)(board)
        share = scale // len(options)
        win = draw = loss = 0
        for cell in options:
            child_win, child_draw, child_loss = walk(board[:cell] + mark + board[cell + 1 :])
            win, draw, loss = win + child_win, draw + child_draw, loss + child_loss
        return (win * share, draw * share, loss * share)

    win, draw, loss = walk(EMPTY * rules.cells)
    whole = scale**rules.cells
    return (Fraction(win, whole), Fraction(draw, whole), Fraction(loss, whole))


def level_rates(book: Book, *, advance: Callable[[], None] | None = None) -> Table:
    """(level, opponent, "first"/"second") -> exact (win, draw, loss); ``advance()`` is called
    after each of the MATCHES matches (for a progress bar)."""
    table = {}
    # each policy plays in several matches, and the same boards recur in all of them: a
    # policy's choice and a board's winner are worked out once
    opponents = {name: cache(opponent_policy(book, name)) for name in OPPONENTS}
    won_by = cache(partial(winner, book.rules))
    for level in LEVELS:
        policy = cache(level_policy(book, level))
        for opponent in OPPONENTS:
            for side, mark in zip(SIDES, (FIRST, SECOND), strict=True):
                table[(level, opponent, side)] = _match(book.rules, policy, opponents[opponent], mark, won_by)
                if advance is not None:
                    advance()
    return table


def _cell(rates: Rates) -> str:
    return " / ".join(f"{float(r) * 100:.2f}" for r in rates)


def markdown_table(
    book: Book, table: Table | None = None, *, advance: Callable[[], None] | None = None
) -> str:
    """The README's table: percentages won / drawn / lost, exact values rounded to 0.01
    (``table``: the rates, if already computed; else ``advance`` as for ``level_rates``)."""
    table = level_rates(book, advance=advance) if table is None else table
    lines = [
        START,
        "| level | vs random, moving first | vs random, moving second "
        "| vs novice, moving first | vs novice, moving second |",
        "|---|---|---|---|---|",
    ]
    for level in LEVELS:
        cells = [_cell(table[(level, opp, side)]) for opp in OPPONENTS for side in SIDES]
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    lines.append(END)
    return "\n".join(lines)


LEGEND = """\
The computer's results at each level, in % of its games: won / drawn / lost,
as it moves first or second; exact (every game enumerated, nothing sampled),
against two reference opponents:
  random  plays any free cell, at random;
  novice  wins at once if it can, else blocks the computer's win, else random."""


def plain_table(table: Table) -> str:
    """The table for a terminal: aligned columns under a legend saying whose results they are
    and against which opponent."""
    group = 3 * COLUMN
    lines = [
        LEGEND,
        "",
        (f"{'':<8} {'':<12}" + "".join(f"  {'against ' + opp:^{group}}" for opp in OPPONENTS)).rstrip(),
        f"{'level':<8} {'computer':<12}"
        + "".join(f"  {'won':>{COLUMN}}{'drawn':>{COLUMN}}{'lost':>{COLUMN}}" for _ in OPPONENTS),
    ]
    for level in LEVELS:
        for side in SIDES:
            row = f"{level if side == SIDES[0] else '':<8} {'moves ' + side:<12}"
            for opp in OPPONENTS:
                row += "  " + "".join(
                    f"{float(rate) * 100:>{COLUMN}.2f}" for rate in table[(level, opp, side)]
                )
            lines.append(row.rstrip())
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
