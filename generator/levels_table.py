"""Exact win/draw/loss rates of each play level against the reference opponents.

Every line of play is enumerated with exact fractions: a level picks uniformly among
``player.levels.candidates``; *random* uniformly among legal moves; *novice* as defined in
``player.novice.novice_moves``. ``ttt-book levels`` prints the table the README publishes.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from player.board import EMPTY, FIRST, SECOND, legal_moves, side_to_move, winner
from player.book import Book
from player.levels import LEVELS, candidates
from player.novice import novice_moves
from player.rules import Cell

Policy = Callable[[str], tuple[Cell, ...]]
Rates = tuple[Fraction, Fraction, Fraction]
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
    """(win, draw, loss) for ``tested`` playing ``tested_mark``, X moving first."""
    rules = book.rules

    @cache
    def walk(board: str) -> Rates:
        won = winner(rules, board)
        if won is not None:
            return (
                (Fraction(1), Fraction(0), Fraction(0))
                if won == tested_mark
                else (Fraction(0), Fraction(0), Fraction(1))
            )
        if EMPTY not in board:
            return (Fraction(0), Fraction(1), Fraction(0))
        mark = side_to_move(board)
        options = (tested if mark == tested_mark else opponent)(board)
        totals = [Fraction(0)] * 3
        for cell in options:
            for i, part in enumerate(walk(board[:cell] + mark + board[cell + 1 :])):
                totals[i] += part
        return (totals[0] / len(options), totals[1] / len(options), totals[2] / len(options))

    return walk(EMPTY * rules.cells)


def level_rates(book: Book) -> dict[tuple[str, str, str], Rates]:
    """(level, opponent, "first"/"second") -> exact (win, draw, loss)."""
    table = {}
    for level in LEVELS:
        policy = level_policy(book, level)
        for opponent in ("random", "novice"):
            other = opponent_policy(book, opponent)
            table[(level, opponent, "first")] = match(book, policy, other, FIRST)
            table[(level, opponent, "second")] = match(book, policy, other, SECOND)
    return table


def _cell(rates: Rates) -> str:
    return " / ".join(f"{float(r) * 100:.2f}" for r in rates)


def markdown_table(book: Book) -> str:
    """The README's table: percentages won / drawn / lost, exact values rounded to 0.01."""
    table = level_rates(book)
    lines = [
        START,
        "| level | vs random, moving first | vs random, moving second "
        "| vs novice, moving first | vs novice, moving second |",
        "|---|---|---|---|---|",
    ]
    for level in LEVELS:
        cells = [
            _cell(table[(level, opp, side)]) for opp in ("random", "novice") for side in ("first", "second")
        ]
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    lines.append(END)
    return "\n".join(lines)


class TableMarkerError(ValueError):
    """A file whose levels-table markers are missing, repeated or out of order."""


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
