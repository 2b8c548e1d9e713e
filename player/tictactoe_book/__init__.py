"""A proven book for tic-tac-toe, and every m,n,k-game up to 16 cells: the reader, and a player.

Nothing here searches the game tree: every answer is a look-up in a book that was proven
consistent when it was loaded (docs/book-format.md, "A valid book")::

    from tictactoe_book import Position, Rng, choose_move, load_book

    book = load_book()                      # the packaged 3x3 book; a path for another
    position = Position("X...O....")        # a game in progress, under its rules
    book.evaluate(position).optimal         # optimal moves, in the board's orientation
    choose_move(book, position, "hard", rng=Rng(1))  # seed 1: the same move in every language
    position.play(8).outcome()              # None while the game goes on

Every error subclasses a built-in one: ``BookError``, ``BoardError``, ``IllegalMoveError``,
``RulesError``, ``LevelError`` and ``OpponentError`` are ``ValueError``s (docs/architecture.md,
"The public API", says what raises which). docs/architecture.md says which module holds what.

Importing the package imports none of its modules: each public name is imported from its
module when first asked for (``__getattr__``), so that the commands' entry points
(``tictactoe_book.commands``) start, and catch Ctrl-C, before anything else is imported.
"""

from importlib import import_module

if __name__ != "tictactoe_book":  # player/ and generator/ are folders, not packages: one name, one copy
    raise ImportError(f"tictactoe_book is imported as {__name__}: import it as tictactoe_book")
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe_book.book import Book, Evaluation, MoveValue
    from tictactoe_book.errors import (
        BOOK_REASONS,
        BoardError,
        BookError,
        IllegalMoveError,
        LevelError,
        OpponentError,
        RulesError,
    )
    from tictactoe_book.game import Outcome, Position, Rules
    from tictactoe_book.history import Game
    from tictactoe_book.notation import grid, parse_move
    from tictactoe_book.play import LEVELS, Rng, candidates, choose_move
    from tictactoe_book.reader import load_book, parse_book

__version__ = "3.0.0"

__all__ = [
    "BOOK_REASONS",
    "LEVELS",
    "BoardError",
    "Book",
    "BookError",
    "Evaluation",
    "Game",
    "IllegalMoveError",
    "LevelError",
    "MoveValue",
    "OpponentError",
    "Outcome",
    "Position",
    "Rng",
    "Rules",
    "RulesError",
    "__version__",
    "candidates",
    "choose_move",
    "grid",
    "load_book",
    "parse_book",
    "parse_move",
]

#: The module that defines each public name.
_HOMES = {
    "BOOK_REASONS": "errors",
    "BoardError": "errors",
    "BookError": "errors",
    "IllegalMoveError": "errors",
    "LevelError": "errors",
    "OpponentError": "errors",
    "RulesError": "errors",
    "Outcome": "game",
    "Position": "game",
    "Rules": "game",
    "LEVELS": "play",
    "Rng": "play",
    "candidates": "play",
    "choose_move": "play",
    "Game": "history",
    "grid": "notation",
    "parse_move": "notation",
    "MoveValue": "book",
    "Book": "book",
    "Evaluation": "book",
    "load_book": "reader",
    "parse_book": "reader",
}


def __getattr__(name: str) -> object:
    """A public name, imported from its module when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
