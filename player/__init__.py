"""A proven book for tic-tac-toe, and every m,n,k-game up to 16 cells: the reader, and a player.

Nothing here searches the game tree: every answer is a look-up in a book that was proven
consistent when it was loaded (docs/book-format.md, "A valid book")::

    import random
    import tictactoe_book

    book = tictactoe_book.load_book()                      # the packaged 3x3 book; a path for another
    position = tictactoe_book.Position("X...O....")        # a game in progress, under its rules
    book.evaluate(position).optimal                # optimal moves, in the board's orientation
    tictactoe_book.choose_move(book, position, "hard", rng=random.Random(1))
    position.play(8).outcome()                     # None while the game goes on

Every error subclasses a built-in one: ``BookError``, ``BoardError``, ``IllegalMoveError``,
``RulesError`` and ``OpponentError`` are ``ValueError``s. docs/architecture.md says which module
holds what.
"""

from tictactoe_book.errors import (
    BOOK_REASONS,
    BoardError,
    BookError,
    IllegalMoveError,
    OpponentError,
    RulesError,
)
from tictactoe_book.game import Outcome, Position, Rules
from tictactoe_book.play import LEVELS, choose_move
from tictactoe_book.reader import Book, Evaluation, load_book, parse_book

__version__ = "2.0.0"

__all__ = [
    "BOOK_REASONS",
    "LEVELS",
    "BoardError",
    "Book",
    "BookError",
    "Evaluation",
    "IllegalMoveError",
    "OpponentError",
    "Outcome",
    "Position",
    "Rules",
    "RulesError",
    "__version__",
    "choose_move",
    "load_book",
    "parse_book",
]
