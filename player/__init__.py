"""Runtime for reading the tic-tac-toe book: rules, notation, symmetry, proving and playing.

Nothing here searches the game tree: every answer is a look-up in a book that was proven
consistent when it was loaded (docs/book-format.md, "A valid book")::

    import player
    book = player.load_book()                      # the packaged book
    book.best_moves("X...O....")                   # optimal moves, in the board's orientation
    book.evaluate("X...O....").scores              # every legal move's score
    player.choose_move(book, "X...O....", "hard", rng=random.Random(1))

The names below are imported on first use (PEP 562), so ``ttt-play`` pays at start-up only
for the modules a game needs (docs/benchmarks.md); type checkers see the real definitions.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from player.book import Book, Evaluation, load_book, parse_book
    from player.errors import BOOK_REASONS, BoardError, BookError, IllegalMoveError
    from player.levels import LEVELS, candidates, choose_move
    from player.position import Position
    from player.rules import Rules

__version__ = "1.0.0"

_HOMES = {
    "Book": "player.book",
    "Evaluation": "player.book",
    "load_book": "player.book",
    "parse_book": "player.book",
    "BOOK_REASONS": "player.errors",
    "BoardError": "player.errors",
    "BookError": "player.errors",
    "IllegalMoveError": "player.errors",
    "LEVELS": "player.levels",
    "candidates": "player.levels",
    "choose_move": "player.levels",
    "Position": "player.position",
    "Rules": "player.rules",
}
__all__ = [
    "BOOK_REASONS",
    "LEVELS",
    "BoardError",
    "Book",
    "BookError",
    "Evaluation",
    "IllegalMoveError",
    "Position",
    "Rules",
    "candidates",
    "choose_move",
    "load_book",
    "parse_book",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'player' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
