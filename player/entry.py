"""An entry of the book and the successor rule (docs/book-format.md, "An entry", "Move scores").

A book stores, under each canonical key, one string: the best score of the side to move, then
its optimal moves in trap order, tier by tier::

    "........X": "0 4"                  O to move draws; only the centre (4) keeps the draw
    ".........": "0 0,2,6,8 1,3,5,7 4"  three tiers of drawing first moves, the corners first

Everything else is derived. ``parse_entry`` reads the string (the grammar is the format's, and
nothing else is accepted); ``successors`` lists a key's moves, scoring those that finish the
game by the rules; ``one_ply_back`` turns a successor's best score into the move's score. The
proof (player/proof.py) and the book's answers (player/book.py) both score moves with these,
so there is one definition of a move's score.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from player.board import EMPTY, line_owners, side_to_move
from player.format import MAX_INTEGER
from player.rules import Cell, Rules
from player.score import decode_score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

Tiers = tuple[tuple[Cell, ...], ...]

#: RFC 8259's integer: an optional minus sign, then 0 or digits without a leading zero.
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)", re.ASCII)


class EntryShapeError(ValueError):
    """An entry string off the grammar; ``str()`` says where, for a message about the entry."""


class Entry(NamedTuple):
    """One canonical position, as its string and its successors make it: cells are the
    canonical board's; ``scores`` has one item per cell, None where occupied.

    A NamedTuple rather than a dataclass: both are immutable values that pickle and copy, and
    creating this class at import costs about a fifth as much, which the player's start-up
    goal notices (docs/benchmarks.md).
    """

    key: str
    turn: str
    value: int
    plies: int
    scores: tuple[int | None, ...]
    tiers: Tiers

    @property
    def best(self) -> int:
        """The best score of any move."""
        return max(score for score in self.scores if score is not None)


def parse_entry(text: str, cells: int) -> tuple[int, Tiers]:
    """``(best, tiers)`` from an entry string of a board with ``cells`` cells.

    The grammar (docs/book-format.md, "An entry"): an integer as RFC 8259 writes one (``-0`` is
    0), at most 2**53 - 1 in magnitude; then one or more tiers, each after exactly one space; a
    tier is cell numbers below ``cells`` (decimal, no leading zero) joined by single commas, in
    increasing order. Raises EntryShapeError saying what is wrong.
    """
    head, space, rest = text.partition(" ")
    best = _BESTS.get(head)
    if best is None:
        best = _integer(head)
    if not space:
        raise EntryShapeError("has no tier after its best score")
    cell_of = _cell_numbers(cells)
    tiers: list[tuple[Cell, ...]] = []
    for part in rest.split(" "):
        if "," not in part:
            cell = cell_of.get(part)
            if cell is None:
                raise EntryShapeError(_bad_cell(part, cells))
            tiers.append((cell,))
            continue
        tier: list[Cell] = []
        for item in part.split(","):
            cell = cell_of.get(item)
            if cell is None:
                raise EntryShapeError(_bad_cell(item, cells))
            if tier and cell <= tier[-1]:
                raise EntryShapeError(f"has tier {_show(part)}, not in increasing order")
            tier.append(cell)
        tiers.append(tuple(tier))
    return best, tuple(tiers)


def entry_text(best: int, tiers: Tiers | list[list[Cell]]) -> str:
    """The string ``parse_entry`` reads back as ``(best, tiers)`` (tiers written as given)."""
    return f"{best} " + " ".join(",".join(map(str, tier)) for tier in tiers)


def _integer(text: str) -> int:
    """The best score, off the fast path of ``_BESTS``: any integer of the grammar."""
    if not _INTEGER.fullmatch(text):
        what = "nothing" if not text else _show(text)
        raise EntryShapeError(f"starts with {what}, not an integer best score")
    if len(text) > 17 or abs(int(text)) > MAX_INTEGER:  # (length first: int() refuses 4,300 digits)
        raise EntryShapeError(f"has best score {_show(text)}, beyond 2**53 - 1 in magnitude")
    return int(text)


#: Every best score a book of up to 16 cells can hold, written as the grammar writes it; any
#: other integer is read by ``_integer`` (and is inconsistent later, but not misshapen).
_BESTS = {str(n): n for n in range(-17, 18)} | {"-0": 0}


@cache
def _cell_numbers(cells: int) -> dict[str, Cell]:
    """``"0"`` to ``str(cells - 1)``: the only texts that are cell numbers of the board."""
    return {str(cell): cell for cell in range(cells)}


def _bad_cell(text: str, cells: int) -> str:
    if not text:
        return "has an empty tier or cell (two spaces or commas in a row, or one at an end)"
    if _INTEGER.fullmatch(text) and not text.startswith("-"):
        return f"names cell {_show(text)}, off the board (cells 0 to {cells - 1})"
    return f"has {_show(text)} where a cell number belongs"


def _show(text: str, limit: int = 24) -> str:
    """``repr`` of a short piece of ``text``, ASCII only (safe on any terminal)."""
    return ascii(text if len(text) <= limit else text[:limit] + "...")


# ---------------------------------------------------------------- the successor rule


#: A move as ``(cell, score, successor)``: ``score`` is the move's score when it finishes the
#: game (by the rules), else None, and then the score follows from the successor's entry.
Move = tuple[Cell, "int | None", str]


def successors(rules: Rules, key: str) -> list[Move]:
    """Every move of the side to move on ``key`` (a board with no full line), in cell order,
    each scored by ``end_score`` when it finishes the game."""
    mover = side_to_move(key)
    moves: list[Move] = []
    start = 0
    while (cell := key.find(EMPTY, start)) >= 0:
        start = cell + 1
        child = key[:cell] + mover + key[start:]
        moves.append((cell, end_score(rules, child), child))
    return moves


def end_score(rules: Rules, board: str) -> int | None:
    """The score of the move that made ``board`` (from a board with no full line) if the game
    is over there, else None (the score then follows from the board's entry).

    A move that completes a line scores ``cells`` (a win in 1 ply), or under misère ``-cells``
    (a loss in 1 ply); one that fills the board otherwise scores 0 (a draw). These are
    ``one_ply_back`` of a finished board's own score for the side to move there:
    ``-(cells + 1)`` after a line (``cells + 1`` under misère), 0 after a draw."""
    if line_owners(rules)(board):
        return -rules.cells if rules.misere else rules.cells
    return None if EMPTY in board else 0


def one_ply_back(best: int) -> int:
    """The score of a move whose successor's best score is ``best`` (the other side's view):
    the same result for the other side, one ply later."""
    if best > 0:
        return 1 - best
    if best < 0:
        return -best - 1
    return 0


def derive(rules: Rules, key: str, text: str, best_of: Callable[[str], int]) -> Entry:
    """The entry stored under ``key`` as ``text``, in a proven book: every move scored by the
    successor rule, ``best_of(successor)`` giving the best score stored for a successor board."""
    best, tiers = parse_entry(text, rules.cells)
    scores: list[int | None] = [None] * rules.cells
    for cell, score, child in successors(rules, key):
        scores[cell] = one_ply_back(best_of(child)) if score is None else score
    value, plies = decode_score(best, key.count(EMPTY), rules.cells)
    return Entry(key, side_to_move(key), value, plies, tuple(scores), tiers)
