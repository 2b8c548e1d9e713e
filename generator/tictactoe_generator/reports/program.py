"""A program under test, as the audit's contract runs it: one board per line in (the book's
notation, X moved first, the side to move given by the counts), one line holding the cell it
plays out, 0-based in reading order (``ProcessProgram``); or a Python callable
``f(board) -> cell`` run in-process (``CallableProgram``). ``ttt-book audit`` grades one and
``ttt-book build --against-program`` plays to beat one.

What a program printed (an unreadable answer, the last line of a crash's standard error) is
kept with its control characters escaped (:func:`escaped`), so it cannot draw on the terminal.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import secrets
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tictactoe_book.apps.signals import held
from tictactoe_book.errors import ProgramWontRun, echoed
from tictactoe_book.game import EMPTY, Cell
from tictactoe_generator.reports import STARTUP

#: Characters an answer line may take: four times as many without a newline is unreadable, and
#: the rest is not waited for (a cell needs at most two).
MAX_ANSWER = 64
#: Bytes kept of a program's standard error, the last: its last line, however much it writes.
ERRORS_KEPT = 4096
#: Bytes read from a program at once: a pipe's default capacity on Linux (pipe(7)).
READ_SIZE = 65536
FAILURES = ("illegal", "unreadable", "timeout", "crash")
#: The environment variable set in a program's environment, to a value of its own: every
#: process it starts inherits it, and so is found when it has left the program's session.
MARK = "TTT_AUDITED_PROGRAM"


@dataclass(frozen=True, slots=True)
class Failure:
    """An answer that is not a legal cell: ``kind`` is one of FAILURES; ``text`` what came."""

    kind: str
    text: str


Answer = Cell | Failure


class Program(Protocol):
    def ask(self, board: str) -> Answer: ...

    def close(self, *, at_once: bool = False) -> None: ...


def escaped(text: str) -> str:
    """``text`` with every character that is not printable written as ``ascii()`` writes it
    (``\\x1b``, ``\\r``, ``\\x9b``, ``\\u202e``) and a backslash as two, printable Unicode kept:
    a program's output shown this way cannot move the cursor or draw a verdict of its own.
    A byte that was not UTF-8 (decoded with surrogateescape) is shown as ``\\xNN`` too."""
    return "".join(char if char.isprintable() and char != "\\" else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's stand-in for the byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    return ascii(char)[1:-1]


def shown_command(command: str) -> str:
    """A program's command line as a message names it: quoted, :func:`escaped`, and cut as
    every value a message repeats is (``tictactoe_book.errors.echoed``)."""
    return echoed(command, lambda text: f"'{escaped(text)}'")


def decoded(data: bytes) -> str:
    """Bytes a program wrote, as text to show: UTF-8, every other byte and control escaped."""
    return escaped(data.decode("utf-8", "surrogateescape"))


def read_answer(text: str, board: str) -> Answer:
    """A cell if ``text`` names a free cell of ``board``, else the failure it is (``text`` as
    the program wrote it: an unreadable one is kept :func:`escaped`)."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()) or len(stripped) > 4:
        return Failure("unreadable", echoed(text, escaped))
    cell = int(stripped)
    if cell >= len(board) or board[cell] != EMPTY:
        return Failure("illegal", stripped)
    return cell


class ProcessProgram:
    """A command that answers one line per board, kept running between questions.

    It has ``timeout`` seconds to answer a board, and ``startup`` more for the first board after
    each start: its start-up is not charged to its first answer. After a time-out or a crash
    the process is ended and a fresh one answers the next question (a program is asked about
    positions, not played through games, so nothing is lost).

    Each runs in a session of its own, so ending it ends its process group: whatever it started
    (a shell script's commands, in the background or not) ends with it; and so does any that
    left its session (``setsid``, a daemon's double fork), found by the environment variable
    MARK it inherits (:func:`end_marked`; on Linux, from /proc).

    Its standard error is a pipe, read while it is asked and while it ends (so a full pipe
    never blocks it); only the last ERRORS_KEPT bytes are kept, for the last line of a crash,
    however much it writes.
    """

    def __init__(self, argv: list[str], *, timeout: float = 5.0, startup: float = STARTUP) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout must be a finite number of seconds above 0, got {timeout!r}")
        if not (math.isfinite(startup) and startup >= 0):
            raise ValueError(f"startup must be a finite number of seconds from 0 up, got {startup!r}")
        self.argv = argv
        self.timeout = timeout
        self.startup = startup
        self.fresh = False  # started, and no board answered yet: the start-up allowance applies
        self.mark = secrets.token_hex(8)  # MARK's value in the environment of what it starts
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = b""
        self.errors = b""  # the end of the running process's standard error
        self.starts = 0
        self.answered = 0

    def _start(self) -> subprocess.Popen[bytes]:
        # Held from before the fork until the process is recorded: a signal between the two
        # (raised inside Popen, the child forked and perhaps not yet running the program, whose
        # mark is set only by its exec) left a process that nothing would end (issue 41, item 1).
        # Delivered once it is recorded, the signal ends it as any other time (``_stop``).
        with held():
            try:
                process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    bufsize=0,
                    start_new_session=True,  # its own process group (and no terminal to draw on)
                    env={**os.environ, MARK: self.mark},
                )
            except OSError as error:
                reason = error.strerror or error
                raise ProgramWontRun(f"cannot start {echoed(self.argv[0])}: {reason}") from None
            self.process = process
            self.starts += 1
            self.fresh = True
            self.pending = b""
            self.errors = b""
        return process

    def _read_errors(self, fd: int) -> bool:
        """Read what the program wrote on standard error, keeping the end; False at its end."""
        chunk = os.read(fd, READ_SIZE)
        self.errors = (self.errors + chunk)[-ERRORS_KEPT:]
        return bool(chunk)

    def ask(self, board: str) -> Answer:
        process = self.process or self._start()
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        try:
            process.stdin.write(board.encode() + b"\n")
        except OSError:
            return self._crashed(board)
        allowed = self.timeout + (self.startup if self.fresh else 0)
        deadline = time.monotonic() + allowed
        out, err = process.stdout.fileno(), process.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(out, selectors.EVENT_READ)
            selector.register(err, selectors.EVENT_READ)
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                ready = {key.fd for key, _ in selector.select(left)} if left > 0 else set()
                if not ready:
                    self._stop()
                    return Failure("timeout", self._no_answer(allowed))
                if err in ready and not self._read_errors(err):
                    selector.unregister(err)
                if out not in ready:
                    continue
                chunk = os.read(out, READ_SIZE)
                if not chunk:
                    return self._crashed(board)
                self.pending += chunk
                if len(self.pending) > 4 * MAX_ANSWER and b"\n" not in self.pending:
                    self._stop()
                    return Failure(
                        "unreadable", echoed(self.pending.decode("utf-8", "surrogateescape"), escaped)
                    )
        line, _, self.pending = self.pending.partition(b"\n")
        self.answered += 1
        self.fresh = False
        return read_answer(line.decode("utf-8", "surrogateescape"), board)

    def _no_answer(self, allowed: float) -> str:
        """What a time-out says: the time to answer, and the allowance to start if it had one."""
        if allowed == self.timeout:
            return f"no answer within {self.timeout:g} s"
        return f"no answer within {self.timeout:g} s (and {self.startup:g} s to start)"

    def _crashed(self, board: str) -> Failure:
        """Its standard output ended (or its input did): it exited, or closed its standard
        output and runs on (ended here); ProgramWontRun if that came before any answer."""
        status = self._wait()
        self._stop()
        # the last line on standard error, split at newlines only (a \r in it is shown escaped)
        last = self.errors.decode("utf-8", "surrogateescape").rstrip().rpartition("\n")[2].strip()
        said = f": {echoed(last, escaped)}" if last else ""
        how = "closed its standard output" if status is None else f"exited with status {status}"
        if self.answered == 0 and self.starts == 1:
            ended = "closed its standard output" if status is None else "ended"
            name = shown_command(" ".join(self.argv))
            raise ProgramWontRun(f"{name} {ended} before answering its first board{said}")
        return Failure("crash", f"{how} when asked {board}{said}")

    def _wait(self) -> int | None:
        """The program's exit status once it ends, or None if it is still running after the
        time-out; its standard error is read meanwhile (it may be writing a lot as it ends)."""
        process = self.process
        assert process is not None and process.stderr is not None
        deadline = time.monotonic() + self.timeout
        err = process.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(err, selectors.EVENT_READ)
            # The end of its standard error usually says it has ended; but a process it started
            # may hold that pipe open, so whether it has ended is checked every 50 ms too.
            while process.poll() is None and (left := deadline - time.monotonic()) > 0:
                if selector.select(min(left, 0.05)) and not self._read_errors(err):
                    break
        with contextlib.suppress(subprocess.TimeoutExpired):
            return process.wait(max(0.0, deadline - time.monotonic()))
        return None

    def _stop(self) -> None:
        with held():  # ended whole: a signal half-way would leave what it started running
            self._end()

    def _end(self) -> None:
        process = self.process
        if process is None:
            return
        # The group's id is the leader's pid, the group's while any member lives, even after the
        # leader was reaped (as _wait does, for its status); once none is left, killpg fails.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        end_marked(self.mark)  # and whatever it started that left its group
        assert process.stderr is not None
        # What the group wrote before it was killed may still be in the pipe: read that, and no
        # more than a pipe can hold, 1 MiB (pipe(7); one that left the group could write for ever).
        err = process.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(err, selectors.EVENT_READ)
            for _ in range(1024 * 1024 // READ_SIZE):
                if not selector.select(0) or not self._read_errors(err):
                    break
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        self.process = None

    def close(self, *, at_once: bool = False) -> None:
        """End the program: its standard input closed and its own end waited for (``timeout``
        seconds), or ``at_once`` (the audit stopped or failed: a SIGTERM waited ``--timeout``,
        up to 600 s, for a program that would not end); then ended with what it started,
        whatever stops the wait."""
        try:
            if not at_once and self.process is not None and self.process.stdin is not None:
                with contextlib.suppress(OSError):  # it may have gone already
                    self.process.stdin.close()
                self._wait()
        finally:
            self._stop()


#: How many times ``end_marked`` looks for marked processes at most: each look ends every one
#: it sees, so only those started meanwhile by one not yet ended are left for the next.
END_ROUNDS = 100


def end_marked(mark: str) -> int:
    """End (SIGKILL) every process whose environment holds MARK set to ``mark``, looking again
    until none is left (one may start another while it is ended); how many were ended.

    Linux only (the environments are read from /proc; elsewhere nothing is found), and only
    the processes of this user, whose environments it may read: a process that cleared its
    environment and left the program's session is not found.
    """
    wanted = f"{MARK}={mark}".encode()
    ended: set[int] = set()  # (one still dying when looked at again is seen twice)
    for _ in range(END_ROUNDS):  # each round ends the processes it sees; a killed one cannot fork
        found = [pid for pid in _process_ids() if _end_if_marked(pid, wanted)]
        if not found:
            break
        ended.update(found)
    return len(ended)


def _process_ids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _end_if_marked(pid: int, wanted: bytes) -> bool:
    """SIGKILL process ``pid`` if its environment holds ``wanted``. One that does is held by a
    pidfd and its environment read again before the signal, so that a process id reused
    meanwhile gets none (most processes are not marked: they cost one read)."""
    if not _marked(pid, wanted):
        return False
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return False
    except (AttributeError, OSError):  # a kernel before 5.3: by its id, as os.kill does
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        return True
    try:
        if not _marked(pid, wanted):
            return False
        signal.pidfd_send_signal(handle, signal.SIGKILL)
        return True
    except OSError:  # gone meanwhile
        return False
    finally:
        os.close(handle)


def _marked(pid: int, wanted: bytes) -> bool:
    """Whether process ``pid``'s environment holds ``wanted`` (False for one gone, or another
    user's)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return wanted in environ.read().split(b"\0")
    except OSError:
        return False


class CallableProgram:
    """A Python function ``f(board) -> cell`` (an int, or a string holding one), in-process.

    An exception is a crash; no time limit is applied (a function cannot be stopped safely).
    """

    def __init__(self, function: Callable[[str], object]) -> None:
        self.function = function

    def ask(self, board: str) -> Answer:
        try:
            answer = self.function(board)
        except Exception as error:
            return Failure(
                "crash", f"raised {type(error).__name__}: {echoed(str(error), escaped)} when asked {board}"
            )
        if isinstance(answer, bool) or not isinstance(answer, int | str):
            return Failure("unreadable", echoed(answer, lambda value: escaped(repr(value))))
        return read_answer(str(answer), board)

    def close(self, *, at_once: bool = False) -> None:
        pass


def load_callable(spec: str) -> Callable[[str], object]:
    """``module:function`` (the current folder importable, as with ``python -m``);
    ProgramWontRun if there is no such function."""
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise ProgramWontRun(f"{echoed(spec)} is not MODULE:FUNCTION")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ProgramWontRun(f"cannot import {echoed(module_name)}: {echoed(str(error), str)}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ProgramWontRun(f"{echoed(module_name)} has no function {echoed(name)}")
    return function  # type: ignore[no-any-return]
