"""What the commands read from their options: marks, levels, seeds, seconds (``ttt-play
--delay``; ``ttt-book audit --timeout``, ``--startup``), and whether to colour.

Types click checks a value with (one clear line, status 2, for a bad one) and the colours of
the board's words on a terminal.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from tictactoe_book.apps.console import InputProblem, is_terminal
from tictactoe_book.apps.progress import loading
from tictactoe_book.book import Book
from tictactoe_book.errors import BookError, echoed
from tictactoe_book.game import FIRST, SECOND, Rules
from tictactoe_book.opponents import DEFAULT, OPPONENTS
from tictactoe_book.play import LEVELS, MAX_SEED
from tictactoe_book.reader import book_for, load_book

MARK = click.Choice([FIRST, SECOND], case_sensitive=False)
LEVEL = click.Choice(list(LEVELS), case_sensitive=False)
#: A reference opponent's name, from the registry (``tictactoe_book.opponents``).
OPPONENT = click.Choice(list(OPPONENTS), case_sensitive=False)
#: Styles by kind; a kind of several words (``"draw book"``) takes each word's style. Win, draw
#: and loss are the page's green, grey and red (web/style.css).
COLOURS: dict[str, dict[str, Any]] = {
    "X": {"fg": "cyan", "bold": True},
    "O": {"fg": "yellow", "bold": True},
    "free": {"dim": True},
    "win": {"fg": "green"},
    "draw": {"fg": "bright_black"},
    "loss": {"fg": "red"},
    "book": {"bold": True, "underline": True},
}
MAX_DELAY = 10.0


class SeedParam(click.ParamType):  # type: ignore[type-arg]
    """A whole number from 0 to MAX_SEED (2**32 - 1), checked by its digits before any conversion (a
    5,000-digit number would hit Python's int() limit)."""

    name = "INTEGER"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED:
            return value
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_SEED)) or int(text) > MAX_SEED:
            self.fail(f"{echoed(text)} is not a whole number from 0 to {MAX_SEED}", param, ctx)
        return int(text)


#: A number of seconds as people type it: ASCII digits, a decimal point with digits on at least
#: one side (``2``, ``0.5``, ``.5``, ``2.``).
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


class Seconds(click.ParamType):  # type: ignore[type-arg]
    """A number of seconds from ``low`` to ``high``, finite: every option that takes a time
    (``nan`` passes click's FloatRange, since no comparison with it is true, so it is named)."""

    name = "SECONDS"

    def __init__(self, low: float, high: float) -> None:
        self.low = low
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        # typed: decimal ASCII digits only (float() also takes "1_0", "١٠", "1e1" and " 1 ")
        if isinstance(value, str) and _DECIMAL.fullmatch(value) is None:
            self.fail(f"{echoed(value)} is not a number of seconds", param, ctx)
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{echoed(value)} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not self.low <= seconds <= self.high:
            self.fail(
                f"{echoed(value)} is not a number of seconds from {self.low:g} to {self.high:g}", param, ctx
            )
        return seconds


#: ``ttt-play --delay``: the pause after each watched move.
DELAY = Seconds(0, MAX_DELAY)


def colour_wanted(stream: object, forced: bool | None) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb."""
    if forced is not None:
        return forced
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def painter(enabled: bool):  # type: ignore[no-untyped-def]
    """``paint(text, kind)`` colouring X, O and free cells when ``enabled``."""
    if not enabled:
        return lambda text, kind: text

    def paint(text: str, kind: str) -> str:
        style: dict[str, Any] = {}
        for word in kind.split():
            style.update(COLOURS.get(word, {}))
        return click.style(text, **style)

    return paint


Decorated = TypeVar("Decorated", bound=Callable[..., Any])


def book_choice_options(*, misere_help: str, against_help: str) -> Callable[[Decorated], Decorated]:
    """``--misere`` and ``--against`` as every command that opens its book with ``open_book``
    declares them (``ttt-play``, ``ttt-book export``): a flag and an opponent's name, None
    unless given; each command says in its help what the book is for."""
    misere = click.option("--misere", is_flag=True, help=misere_help)
    against = click.option("--against", type=OPPONENT, default=None, help=against_help)

    def declare(command: Decorated) -> Decorated:
        return against(misere(command))

    return declare


def open_book(path: str | None, misere: bool = False, against: str | None = None) -> Book:
    """Load and prove the book for play: the packaged 3x3 book (with ``misere``, the packaged
    3x3 misère book) ranked against ``against`` (novice unless given), or the file at ``path``
    under the rules it states. One line naming the file and status 3 if it cannot be used; a
    usage error (status 2) for ``misere`` with a book that is not misère, or for ``against``
    with a book ranked against another opponent."""
    try:
        if path is None:
            rules = Rules(3, 3, 3, misere=True) if misere else None
            return load_book(rules=rules, against=against or DEFAULT)
        with loading(path) as shown:
            book = load_book(path, rules=None, progress=shown)
    except BookError as error:
        raise InputProblem(str(error)) from None
    if misere and not book.rules.misere:
        raise click.UsageError(
            f"--misere: {path} is a book for {book.rules}, not a misère game (play it without --misere)"
        )
    try:
        return book_for(book, against)
    except ValueError as error:  # its words say which book to build
        raise click.UsageError(f"--against {against}: {error}") from None
