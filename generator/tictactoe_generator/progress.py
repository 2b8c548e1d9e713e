"""A long build's progress on a terminal: a bar for each stage of the solver.

The solver reports ``progress(stage, done, total)`` after each layer of marks
(generator/tictactoe_generator/solve.py, generator/tictactoe_generator/trap.py); this turns those calls into
the project's
one progress bar, ``tictactoe_book.apps.progress.progress``: on standard error, only on a terminal (never in
a pipe, a file or a CI log), once the stage has taken a moment, erased when it ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from tictactoe_book.apps.progress import Advance, progress, unshown

if TYPE_CHECKING:  # numpy: the command line imports this module before it knows it will build
    from tictactoe_generator.solve import Progress

#: What each stage of a build does, as its bar's label.
LABELS = {
    "reach": "Finding every position",
    "solve": "Solving",
    "trap": "Ordering the traps",
    "index": "Reading the book",  # (a book over 1 MB, before it is proven and written:
    "prove": "Proving the book",  # tictactoe_book.reader)
}


@contextmanager
def stage_bars() -> Iterator[Progress]:
    """A ``Progress`` callback for the solver that shows a bar per stage."""
    with ExitStack() as closing:
        yield _StageBars(closing)


class _StageBars:
    """The open stage's bar; a new stage closes it and opens its own."""

    def __init__(self, closing: ExitStack) -> None:
        self.closing = closing
        self.stage: str | None = None
        self.advance: Advance = unshown
        self.shown = 0  # steps of the open stage already passed to its bar

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.closing.close()  # erases the previous stage's bar
            self.advance = self.closing.enter_context(progress(total, LABELS.get(stage, stage)))
            self.stage, self.shown = stage, 0
        self.advance(done - self.shown)
        self.shown = done
