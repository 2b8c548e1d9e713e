"""SIGTERM, SIGHUP and SIGQUIT end a command as Ctrl-C does, then as the signal would have.

Left to their default, either signal ended the process at once: a progress bar stayed on the
screen with the cursor hidden, curses left the terminal as it drew it, and nothing else ran to
its end. Within ``ended_by_signals`` each is raised where the program is, as ``Terminated``, so
every ``finally`` runs (the bar erased and the cursor shown, a proof's workers ended, an audited
program and what it started ended, a write's temporaries removed or its renames rolled back);
then the process ends by the same signal, so that its parent sees how it ended (a shell reports
143 or 129). A signal ignored when the command started (``nohup``) stays ignored.

Some stretches must not be split by any of them: renames and their record, a clean-up, a
program started and recorded to be ended. Within ``held()`` every signal that ends a command
(``STOPPING``: Ctrl-C's too) is noted instead of acted on, and the first that came is delivered
on leaving it, to the handler it was meant for: the stretch runs to its end, then the command
stops as it would have (issue 41: raised at any bytecode, SIGTERM had left an old book beside
new vectors, temporaries behind, and an audited program running).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from contextvars import ContextVar
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The signals that ask a command to end, besides Ctrl-C's SIGINT (SIGQUIT: Ctrl-\\).
ENDING = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: Every signal that stops a command: Ctrl-C's, and the ending ones.
STOPPING = (signal.SIGINT, *ENDING)
#: Whether this context runs a command that ends its process when it returns (``ended_by_signals``).
_ENDS_THE_PROCESS: ContextVar[bool] = ContextVar("_ENDS_THE_PROCESS", default=False)


class Terminated(BaseException):
    """SIGTERM, SIGHUP or SIGQUIT, raised in the main thread; a BaseException, as KeyboardInterrupt is, so
    that no ``except Exception`` stops it on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def ended_by_signals() -> Iterator[None]:
    """SIGTERM, SIGHUP and SIGQUIT raise ``Terminated`` within; a ``Terminated`` that leaves it ends the
    process by its signal (``end_by``)."""
    for signum in ENDING:
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _raise)
    token = _ENDS_THE_PROCESS.set(True)
    try:
        yield
    except Terminated as ended:
        end_by(ended.signum)
    finally:
        _ENDS_THE_PROCESS.reset(token)


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


class Held:
    """The signals that stop a command (STOPPING) noted instead of acted on, from ``hold()``
    until ``release()`` or ``drop()``; what came, in ``arrived``.

    Only the main thread sets handlers (and only it gets their exceptions): elsewhere nothing
    is held. A signal that is ignored (``nohup``), or handled outside Python, is left alone. The
    handlers are swapped with the signals blocked, so that none comes half-way through a swap;
    a hold within a hold notes to the outer one, which decides.
    """

    def __init__(self) -> None:
        self.previous: dict[int, Any] = {}
        self.arrived: list[int] = []
        self.holding = False

    def hold(self) -> None:
        if self.holding or threading.current_thread() is not threading.main_thread():
            return
        with _blocked():
            self.holding = True  # (first: whatever is recorded below is put back)
            for signum in STOPPING:
                handler = signal.getsignal(signum)
                if handler is None or handler == signal.SIG_IGN:
                    continue
                self.previous[signum] = handler
                signal.signal(signum, self._note)

    def _note(self, signum: int, frame: FrameType | None) -> None:
        if signum not in self.arrived:
            self.arrived.append(signum)

    def release(self) -> None:
        """Put the handlers back, and deliver the first signal that came to its own."""
        self._restore()
        if self.arrived:
            signal.raise_signal(self.arrived[0])  # its handler runs now: raises, or ends us

    def drop(self) -> None:
        """The held stretch's work is done, and what came is dropped. In a command that ends
        its process (``ended_by_signals``) the signals stay held to that end: none can come
        after the work is done and reported and turn it into a failure. Elsewhere (a command
        run in-process, a library) the handlers are put back."""
        if not _ENDS_THE_PROCESS.get():
            self._restore()

    def _restore(self) -> None:
        if not self.holding:
            return
        with _blocked():
            for signum, handler in self.previous.items():
                signal.signal(signum, handler)
            self.previous.clear()
            self.holding = False


@contextlib.contextmanager
def _blocked() -> Iterator[None]:
    """The stopping signals blocked in this thread within (they wait, and come on leaving)."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Within, the signals that stop a command are held (``Held``); on leaving, the first that
    came is delivered to its own handler, as if it came then."""
    holding = Held()
    try:
        holding.hold()
        yield
    finally:
        holding.release()
