"""Adapters for agent-training libraries (optional extras; the player never imports these).

* ``tictactoe_book.integrations.openspiel``: a bot for OpenSpiel's ``tic_tac_toe``, ``mnk`` and their
  ``misere`` (``pip install 'tictactoe-book[openspiel]'``);
* ``tictactoe_book.integrations.pettingzoo``: an opponent policy for PettingZoo's ``tictactoe_v3``
  (``pip install 'tictactoe-book[pettingzoo]'``).

Both take the book a bot plays from here (``book_for_game``): the caller's, refused at once
when its rules are not the game's, or the packaged book for the game's rules, loaded once per
process however many bots are made.
"""

from __future__ import annotations

import functools

from tictactoe_book.book import Book
from tictactoe_book.game import Rules
from tictactoe_book.opponents import DEFAULT
from tictactoe_book.reader import book_for, load_book


@functools.cache
def packaged_book(rules: Rules, against: str) -> Book:
    """The packaged book for ``rules`` (3x3, normal or misère) whose moves are ranked against
    ``against``, loaded the first time it is asked for and kept; ValueError in one line for
    other rules (``load_book``'s BookError, saying how to build one) or an unknown opponent."""
    return load_book(rules=rules, against=against)


def book_for_game(rules: Rules, game: str, *, book: Book | None, against: str | None) -> Book:
    """The book a bot for ``game`` (named so in messages), played by ``rules``, plays from:
    ``book``, else the packaged book for ``rules`` ranked against ``against`` (novice unless
    given), shared by every bot. ValueError in one line if ``book`` is for other rules or
    ranked against another opponent than ``against``."""
    if book is None:
        return packaged_book(rules, against or DEFAULT)
    if book.rules != rules:
        raise ValueError(f"{book.source} is a book for {book.rules}, but {game} is {rules}")
    return book_for(book, against)
