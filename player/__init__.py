"""Runtime for reading the tic-tac-toe book: rules, notation, symmetry, loading and playing.

Nothing here searches the game tree: every answer is a look-up in the book. The main entry
points are available from the package itself, imported on first use (PEP 562) so that the
player's start-up only pays for what it uses::

    import player
    book = player.load_book()                      # the packaged book, checked
    book.best_moves("X...O....")                   # optimal moves, in the board's orientation
    book.evaluate("X...O....").scores              # every legal move's score
    player.choose_move(book, "X...O....", "hard", rng=random.Random(1))
"""

from __future__ import annotations

__version__ = "1.0.0"

_EXPORTS = {
    "load_book": "player.book",
    "Book": "player.book",
    "Evaluation": "player.book",
    "choose_move": "player.levels",
    "candidates": "player.levels",
    "LEVELS": "player.levels",
    "Rules": "player.rules",
    "Position": "player.position",
    "BoardError": "player.errors",
    "BookError": "player.errors",
    "IllegalMoveError": "player.errors",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'player' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
