"""A bot for OpenSpiel's ``tic_tac_toe`` that plays from the book.

OpenSpiel numbers the cells row by row like the book (action = row * 3 + col), player 0 is
``x`` and moves first; its state prints as three rows of ``x``, ``o`` and ``.``.
"""

from __future__ import annotations

import random
from typing import Any

from player.game import EMPTY, FIRST, SECOND
from player.play import check_level, choose_move
from player.reader import Book, book_for

_MARKS = {"x": FIRST, "o": SECOND, ".": EMPTY}


def board_from_state(state: Any) -> str:
    """The book's board for an OpenSpiel tic-tac-toe state (from its text)."""
    return "".join(_MARKS[ch] for ch in str(state) if ch in _MARKS)


def book_action(book: Book, state: Any, level: str = "perfect", *, rng: random.Random | None = None) -> int:
    """The book's move (an OpenSpiel action) for the player to move in ``state``."""
    return choose_move(book, board_from_state(state), level, rng=rng)


def make_bot(
    level: str = "perfect", *, book: Book | None = None, seed: int | None = None, against: str | None = None
) -> Any:
    """A ``pyspiel.Bot`` playing from the book at ``level``: ``book``, else the packaged 3x3 book
    ranked against ``against`` (``"novice"``, the default, or ``"random"``: the opponent the
    perfect level wins most often against). ValueError for a ``book`` ranked against another
    opponent than ``against``."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]  # the openspiel extra, untyped

    check_level(level)
    used = book_for(book, against)
    rng = random.Random(seed)

    class BookBot(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def step(self, state: Any) -> int:
            return book_action(used, state, level, rng=rng)

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    return BookBot()
