"""SIGTERM and SIGHUP end a command as Ctrl-C does, then as the signal would have.

Left to their default, either signal ended the process at once: a progress bar stayed on the
screen with the cursor hidden, curses left the terminal as it drew it, and nothing else ran to
its end. Within ``ended_by_signals`` each is raised where the program is, as ``Terminated``, so
every ``finally`` runs (the bar erased and the cursor shown, a proof's workers ended, an audited
program and what it started ended, a write's temporaries removed or its renames rolled back);
then the process ends by the same signal, so that its parent sees how it ended (a shell reports
143 or 129). A signal ignored when the command started (``nohup``) stays ignored.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The signals that ask a command to end, besides Ctrl-C's SIGINT.
ENDING = (signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread; a BaseException, as KeyboardInterrupt is, so
    that no ``except Exception`` stops it on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def ended_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Terminated`` within; a ``Terminated`` that leaves it ends the
    process by its signal (``end_by``)."""
    for signum in ENDING:
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _raise)
    try:
        yield
    except Terminated as ended:
        end_by(ended.signum)


def end_by(signum: int) -> NoReturn:
    """End the process by ``signum``, its default action, once what is written is flushed."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
    os.kill(os.getpid(), signum)
    sys.exit(128 + signum)  # (should the signal be blocked after all: the shell's status for it)
