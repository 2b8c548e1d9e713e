"""A long build's progress on a terminal: one click progress bar per stage, on standard error.

The solver reports ``progress(stage, done, total)`` after each layer of marks
(generator/retrograde.py, generator/trap_arrays.py); this turns those calls into bars. Quiet
unless the stream is a terminal and the environment has no ``CI`` variable (CI services set it,
and some give their jobs a terminal): pipes, logs, test runners and CI see nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TextIO

import click

from generator.retrograde import Progress

#: What each stage of a build does, as its bar's label.
LABELS = {"reach": "positions", "solve": "solve", "trap": "trap order"}
LABEL_WIDTH = max(len(label) for label in LABELS.values())


def shows_progress(stream: TextIO) -> bool:
    """Whether bars belong on ``stream``: a terminal, outside CI."""
    return stream.isatty() and not os.environ.get("CI")


@contextmanager
def progress_bars(stream: TextIO | None = None) -> Iterator[Progress | None]:
    """A ``Progress`` callback drawing bars on ``stream`` (default: standard error), or None
    where bars do not belong (``shows_progress``): pass it to the solver as it is."""
    stream = sys.stderr if stream is None else stream
    if not shows_progress(stream):
        yield None
        return
    open_bars: dict[str, tuple[Any, ExitStack]] = {}  # per stage: its bar, and how to close it

    def report(stage: str, done: int, total: int) -> None:
        if stage not in open_bars:
            label = LABELS.get(stage, stage).ljust(LABEL_WIDTH)
            closing = ExitStack()
            bar = closing.enter_context(click.progressbar(length=total, label=label, file=stream))
            open_bars[stage] = (bar, closing)
        bar, closing = open_bars[stage]
        bar.update(done - bar.pos)
        if done >= total:  # finish the line before the next stage draws its own
            del open_bars[stage]
            closing.close()

    try:
        yield report
    finally:
        for _, closing in open_bars.values():
            closing.close()
