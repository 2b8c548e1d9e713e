"""A proven book for tic-tac-toe, and every m,n,k-game up to 16 cells: the reader, and a player.

Nothing here searches the game tree: every answer is a look-up in a book that was proven
consistent when it was loaded (docs/book-format.md, "A valid book")::

    import random
    import player

    book = player.load_book()                      # the packaged 3x3 book; a path for another
    book.evaluate("X...O....").optimal             # optimal moves, in the board's orientation
    player.choose_move(book, "X...O....", "hard", rng=random.Random(1))

Every error subclasses a built-in one: ``BookError``, ``BoardError``, ``IllegalMoveError`` and
``RulesError`` are ``ValueError``s. The modules: player/game.py (the rules, boards, canonical
form and scores), player/reader.py (the book proven and asked), player/play.py (levels, the
reference opponents, exact rates), player/apps/ (the command line and its screens).
"""

from player.errors import BOOK_REASONS, BoardError, BookError, IllegalMoveError, RulesError
from player.game import Position, Rules
from player.play import LEVELS, choose_move
from player.reader import Book, Evaluation, load_book, parse_book

__version__ = "2.0.0"

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
    "RulesError",
    "__version__",
    "choose_move",
    "load_book",
    "parse_book",
]
