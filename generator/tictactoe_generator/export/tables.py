"""The tables every source export holds (``ttt-book export``), computed from a proven book.

An export replaces the JSON with static tables and a few functions in another language
(generator/tictactoe_generator/export/c.py, generator/tictactoe_generator/export/rust.py write them). Both
languages hold the same
tables, defined once here:

* a *key* is a canonical board's code, ``tictactoe_book.codes.board_codes(rules).code(board)``: the
  board read as a base-4 number, first cell most significant, ``.`` = 0, ``O`` = 1, ``X`` = 2
  (``tictactoe_book.game.DIGITS``). The order of the codes is the order of the board strings (``.`` <
  ``O`` < ``X`` in ASCII), so the smallest code among a board's images is its canonical key
  (docs/book-format.md, "Canonical form"); 4**16 = 2**32, so any book's codes fit in 32 bits;
* the **full table** (``FullTable``): every entry of the book, sorted by key, with its best
  score and its top trap-order tier as a bit mask of canonical cells (bit ``c`` = cell ``c``).
  The lower tiers are not kept: every move's score, and so the optimal moves, follow from the
  successors' best scores as in the book itself;
* a **strategy table** (``StrategyTable``): for one side, only the positions it can face while
  it plays the first cell (lowest-numbered, on the canonical board) of the book's top tier
  against every opposing line, each with that one move.

Every function here is pure: a book in, immutable values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from tictactoe_book.codes import board_codes
from tictactoe_book.errors import ExportTooLarge
from tictactoe_book.game import Cell, Position, Rules, canonical, check_mark
from tictactoe_book.opponents import DEFAULT
from tictactoe_book.reader import Book

#: The largest book an export is written for: 3x4 (20,088 entries) is well inside it; 4x4
#: (1,135,214 entries) is not (docs/porting.md, "Exports", gives the sizes).
MAX_EXPORT_ENTRIES = 200_000


@dataclass(frozen=True, slots=True)
class FullTable:
    """Every entry of a book, sorted by key: ``keys[i]`` has best score ``bests[i]`` and
    top tier ``tops[i]`` (a bit mask of canonical cells)."""

    rules: Rules
    keys: tuple[int, ...]
    bests: tuple[int, ...]
    tops: tuple[int, ...]
    #: whom the top tiers are ranked to beat: the book's ``trap_order.against``
    against: str = DEFAULT


@dataclass(frozen=True, slots=True)
class StrategyTable:
    """What ``side`` plays, sorted by key: on canonical board ``keys[i]``, cell ``moves[i]``."""

    rules: Rules
    side: str
    keys: tuple[int, ...]
    moves: tuple[Cell, ...]
    #: whom the moves are ranked to beat: the book's ``trap_order.against``
    against: str = DEFAULT


def check_size(count: int, what: str) -> None:
    """Refuse a table of more than MAX_EXPORT_ENTRIES entries (ExportTooLarge)."""
    if count > MAX_EXPORT_ENTRIES:
        raise ExportTooLarge(
            f"{what} has {count:,} entries; an export holds at most {MAX_EXPORT_ENTRIES:,} "
            "(use the JSON book for larger boards)"
        )


def full_table(book: Book) -> FullTable:
    """The full table of a proven book (ExportTooLarge above MAX_EXPORT_ENTRIES entries)."""
    check_size(len(book), f"the {book.rules} book")
    code = board_codes(book.rules).code
    rows = []
    for key in book.canonical_keys():
        entry = book.entry(key)
        assert entry is not None  # a key of the book
        mask = sum(1 << cell for cell in entry.tiers[0])
        rows.append((code(key), entry.best, mask))
    rows.sort()
    return FullTable(
        book.rules,
        tuple(r[0] for r in rows),
        tuple(r[1] for r in rows),
        tuple(r[2] for r in rows),
        book.against,
    )


def strategy_move(book: Book, key: str) -> Cell:
    """The one move a strategy table keeps for canonical ``key``: its top tier's first cell."""
    entry = book.entry(key)
    assert entry is not None  # every position a strategy reaches is in a proven book
    return entry.tiers[0][0]


def strategy_table(book: Book, side: str) -> StrategyTable:
    """The positions ``side`` (X or O; X moves first) can face while it plays ``strategy_move``
    against every opposing line, with the move for each."""
    check_mark(side, "side")
    rules = book.rules
    faced: dict[str, Cell] = {}
    # Walk the game in canonical positions, a ply at a time: a position reached in any
    # orientation is the same row of the table.
    frontier = {Position.empty(rules)}  # the empty board is canonical
    while frontier:
        following: set[Position] = set()
        for position in sorted(frontier, key=str):
            if position.turn == side:
                if position.board in faced:
                    continue
                move = faced[position.board] = strategy_move(book, position.board)
                children = [position.play(move)]
            else:
                children = [position.play(cell) for cell in position.legal_moves()]
            following.update(
                Position(canonical(rules, child.board)[0], rules) for child in children if not child.is_over
            )
        frontier = following
    check_size(len(faced), f"the {rules} strategy for {side}")
    code = board_codes(rules).code
    rows = sorted((code(key), move) for key, move in faced.items())
    return StrategyTable(rules, side, tuple(r[0] for r in rows), tuple(r[1] for r in rows), book.against)
