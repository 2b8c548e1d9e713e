"""Progress on a terminal: how far some long work has gone, on standard error, only when that is
a terminal (never in a pipe, a file or a CI log), erased when the work ends however it ends.

``progress`` is the project's one bar (``ttt-book levels``, each stage of a build through
generator/tictactoe_generator/progress.py); ``loading`` shows what loading a big book is doing (ttt-play,
ttt-book's ``--book``), from what ``tictactoe_book.reader.load_book`` tells it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Protocol

import click

from tictactoe_book.apps.console import echo, is_terminal
from tictactoe_book.errors import StreamError
from tictactoe_book.trust import RECORD_ABOVE

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tictactoe_book.book_format import Progress

PROGRESS_AFTER = 0.5  # seconds of work before a progress bar is worth showing


class Advance(Protocol):
    """What ``progress`` yields: told that ``steps`` more steps are done."""

    def __call__(self, steps: int = 1) -> None: ...


def unshown(steps: int = 1) -> None:
    """The ``Advance`` of a progress nobody sees."""


@contextlib.contextmanager
def progress(
    length: int,
    label: str,
    *,
    after: float | None = None,
    counted: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Advance]:
    """``advance(steps=1)``, to be called as each of ``length`` steps of some work is done.

    Once the work has taken more than a moment (``after`` seconds, PROGRESS_AFTER unless
    given) a bar shows how far it has gone, on standard error, and only when standard error is
    a terminal: never in a pipe, a file or a CI log. With ``counted`` (the steps' name, as
    ``"entries"``) its label says how many of how many. The time left (``time_left``) is
    reckoned from the steps counted since the first ones, so that what came before them (a
    parse, a table built) is not taken for their pace. The bar is erased when the work ends,
    however it ends.
    """
    stream = sys.stderr
    if not is_terminal(stream):
        yield unshown
        return
    wait = PROGRESS_AFTER if after is None else after
    started = clock()
    done = 0
    first: tuple[float, int] | None = None  # when steps were first counted, and how many then
    bar: Any = None

    def named() -> str:
        return label if counted is None else f"{label} {done:,} of {length:,} {counted}"

    def left() -> str:
        return "" if first is None else time_left(first, (clock(), done), length)

    def advance(steps: int = 1) -> None:
        nonlocal done, bar, first
        done += steps
        if first is None and done > 0:
            first = (clock(), done)
        if bar is None and clock() - started >= wait:
            # (not click's width to fit the terminal: it fills the last column, so the ^C a
            # terminal echoes wraps onto a line of its own, which erasing the bar leaves)
            bar = click.progressbar(
                length=length,
                label=named(),
                file=stream,
                width=30 if counted is None else 20,
                show_eta=False,  # click's reckons from the bar's start: time_left instead
                item_show_func=lambda text: text,
            )
            bar.render_progress()
            bar.update(done, left())
        elif bar is not None:
            bar.label = named()
            bar.update(steps, left())

    try:
        yield advance
    finally:
        if bar is not None:
            erase_line()


def time_left(first: tuple[float, int], now: tuple[float, int], length: int) -> str:
    """The time the rest of ``length`` steps will take, as ``MM:SS`` (``H:MM:SS`` past an hour),
    at the pace of the steps counted from ``first`` (a clock's time, the steps done by then) to
    ``now``; "" until that pace is known."""
    (since, done_then), (at, done) = first, now
    if done <= done_then or at <= since:
        return ""
    seconds = round((at - since) / (done - done_then) * (length - done))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02} left" if hours else f"{minutes:02}:{seconds:02} left"


def erase_line() -> None:
    """Erase the line a progress report is on, on standard error, and show the cursor again; a
    terminal that has gone (SIGHUP) cannot be, and is not, erased."""
    with contextlib.suppress(StreamError):
        echo("\r\x1b[2K\x1b[?25h", err=True, nl=False)


@contextlib.contextmanager
def loading(path: str | None) -> Iterator[Progress]:
    """A ``progress`` for ``tictactoe_book.reader.load_book`` that shows on standard error, only when it
    is a terminal, what loading a big book is doing: "Reading NAME (35 MB)..." while its bytes
    are parsed (one call of the standard parser, which tells nothing), then a bar of its entries
    proven ("Proving 412,345 of 1,135,214 entries"). A book of up to 1 MB (trust.RECORD_ABOVE:
    one that proves in well under a second) shows a bar only if its stage takes PROGRESS_AFTER
    seconds. Erased when the load ends, however it ends."""
    if not is_terminal(sys.stderr):
        yield lambda stage, done, total: None
        return
    name = os.path.basename(path) if path else "the book"
    labels = {"prove": "Proving"}  # a bar per stage (the file's name was said: 80 columns)
    reading = big = False
    stage_now = ""
    advance: Advance = unshown
    shown = 0

    def report(stage: str, done: int, total: int) -> None:
        nonlocal reading, big, advance, shown, stage_now
        if stage == "read" and total > RECORD_ABOVE:
            echo(f"\r\x1b[2KReading {name} ({total / 1e6:,.0f} MB)...", err=True, nl=False)
            reading = big = True
        elif stage in labels:
            if stage != stage_now:  # a bar of its own, the last stage's closed
                bars.close()
                if reading:
                    erase_line()
                    reading = False
                stage_now, shown = stage, 0
                bar = progress(total, labels[stage], after=0 if big else None, counted="entries")
                advance = bars.enter_context(bar)
            advance(done - shown)
            shown = done

    with contextlib.ExitStack() as bars:
        try:
            yield report
        finally:
            if reading:
                erase_line()
