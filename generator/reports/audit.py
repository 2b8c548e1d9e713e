"""Grade a tic-tac-toe program against the book (``ttt-book audit``).

The contract: the program reads one board per line (the book's notation, X moved first, the
side to move given by the counts) and writes one line holding the cell it plays, 0-based in
reading order. A Python callable ``f(board) -> cell`` is audited the same way, in-process.

The audit asks the program about every distinct position it can reach playing either side
against *every* line of opposing play, each once (``repeat`` times with ``repeat``), then judges
the answers with the book alone:

* a *loss*: a line of play, replayable from the empty board, that the program loses;
* a *missed win*: a winning move was there and it played one that does not win;
* a *slower win*: it played a winning move, but not a fastest one;
* a *mistake*: a drawn position it turned into a lost one (each loss goes through one);
* *failures*: an illegal cell, an unreadable answer, a time-out, a crash. A failure forfeits
  the game: the program lost it, and it counts as a loss in the rates.

What the program printed (an unreadable answer, the last line of a crash's standard error) is
kept with its control characters escaped (:func:`escaped`), so it cannot draw on the terminal.

The rates against the random and novice opponents and the book's own player (its top trap tier,
uniformly) are exact fractions from enumerating every line, which needs the program to answer
the same way each time it is asked about a position. With ``repeat`` > 1, a position whose
answers differ is reported (``varies``) and every distinct answer is followed when looking for
losses; the rates then weight each answer by how often it came, and are marked estimated.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from player.errors import ProgramWontRun
from player.game import EMPTY, FIRST, SECOND, Cell, legal_moves, other, side_to_move, winner
from player.play import Policy, level_policy, opponent_policy
from player.rates import PlayOut
from player.reader import Book

#: Characters of one answer line kept; a longer answer is unreadable.
MAX_ANSWER = 64
#: Bytes kept of a program's standard error, the last: its last line, however much it writes.
ERRORS_KEPT = 4096
#: Bytes read from a program at once: a pipe's default capacity on Linux (pipe(7)).
READ_SIZE = 65536
OPPONENTS = ("random", "novice", "book")
FAILURES = ("illegal", "unreadable", "timeout", "crash")


@dataclass(frozen=True, slots=True)
class Failure:
    """An answer that is not a legal cell: ``kind`` is one of FAILURES; ``text`` what came."""

    kind: str
    text: str


Answer = Cell | Failure


class Program(Protocol):
    def ask(self, board: str) -> Answer: ...

    def close(self) -> None: ...


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


def decoded(data: bytes) -> str:
    """Bytes a program wrote, as text to show: UTF-8, every other byte and control escaped."""
    return escaped(data.decode("utf-8", "surrogateescape"))


def read_answer(text: str, board: str) -> Answer:
    """A cell if ``text`` names a free cell of ``board``, else the failure it is (``text`` as
    the program wrote it: an unreadable one is kept :func:`escaped`)."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()) or len(stripped) > 4:
        return Failure("unreadable", escaped(text[:MAX_ANSWER]))
    cell = int(stripped)
    if cell >= len(board) or board[cell] != EMPTY:
        return Failure("illegal", stripped)
    return cell


class ProcessProgram:
    """A command that answers one line per board, kept running between questions.

    After a time-out or a crash the process is ended and a fresh one answers the next question
    (a program is asked about positions, not played through games, so nothing is lost). Each
    runs in a session of its own, so ending it ends its process group: whatever it started
    (a shell script's commands, in the background or not) ends with it.

    Its standard error is a pipe, read while it is asked and while it ends (so a full pipe
    never blocks it); only the last ERRORS_KEPT bytes are kept, for the last line of a crash,
    however much it writes.
    """

    def __init__(self, argv: list[str], *, timeout: float = 5.0) -> None:
        self.argv = argv
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = b""
        self.errors = b""  # the end of the running process's standard error
        self.starts = 0
        self.answered = 0

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own process group (and no terminal to draw on)
            )
        except OSError as error:
            raise ProgramWontRun(f"cannot start {self.argv[0]!r}: {error.strerror or error}") from None
        self.starts += 1
        self.pending = b""
        self.errors = b""
        self.process = process
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
        deadline = time.monotonic() + self.timeout
        out, err = process.stdout.fileno(), process.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(out, selectors.EVENT_READ)
            selector.register(err, selectors.EVENT_READ)
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                ready = {key.fd for key, _ in selector.select(left)} if left > 0 else set()
                if not ready:
                    self._stop()
                    return Failure("timeout", f"no answer within {self.timeout:g} s")
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
                    return Failure("unreadable", decoded(self.pending[:MAX_ANSWER]))
        line, _, self.pending = self.pending.partition(b"\n")
        self.answered += 1
        return read_answer(line.decode("utf-8", "surrogateescape"), board)

    def _crashed(self, board: str) -> Failure:
        status = self._wait()
        self._stop()
        # the last line on standard error, split at newlines only (a \r in it is shown escaped)
        last = self.errors.decode("utf-8", "surrogateescape").rstrip().rpartition("\n")[2].strip()
        said = f": {escaped(last[:200])}" if last else ""
        if self.answered == 0 and self.starts == 1:
            raise ProgramWontRun(f"{self.argv[0]!r} ended before answering its first board{said}")
        return Failure("crash", f"exited with status {status} when asked {board}{said}")

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
        process = self.process
        if process is None:
            return
        # The group's id is the leader's pid, the group's while any member lives, even after the
        # leader was reaped (as _wait does, for its status); once none is left, killpg fails.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
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

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            with contextlib.suppress(OSError):  # it may have gone already
                self.process.stdin.close()
            self._wait()
        self._stop()


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
            return Failure("crash", escaped(f"raised {type(error).__name__}: {error} when asked {board}"))
        if isinstance(answer, bool) or not isinstance(answer, int | str):
            return Failure("unreadable", escaped(repr(answer)[:MAX_ANSWER]))
        return read_answer(str(answer), board)

    def close(self) -> None:
        pass


def load_callable(spec: str) -> Callable[[str], object]:
    """``module:function`` (the current folder importable, as with ``python -m``);
    ProgramWontRun if there is no such function."""
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise ProgramWontRun(f"{spec!r} is not MODULE:FUNCTION")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ProgramWontRun(f"cannot import {module_name!r}: {error}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ProgramWontRun(f"{module_name!r} has no function {name!r}")
    return function  # type: ignore[no-any-return]


@dataclass
class Report:
    """What the audit found; cells 0-based, lines of play from the empty board (X first)."""

    asked: int = 0
    repeat: int = 1
    losses: list[dict[str, Any]] = field(default_factory=list)
    missed_wins: list[dict[str, Any]] = field(default_factory=list)
    slower_wins: list[dict[str, Any]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    varies: list[dict[str, Any]] = field(default_factory=list)
    rates: dict[str, dict[str, dict[str, Fraction]]] = field(default_factory=dict)

    @property
    def can_lose(self) -> bool:
        return bool(self.losses or self.failures)

    @property
    def exact(self) -> bool:
        return not self.varies

    def as_json(self) -> dict[str, Any]:
        return {
            "cells_from": 0,
            "asked": self.asked,
            "repeat": self.repeat,
            "can_lose": self.can_lose,
            "rates_exact": self.exact,
            "losses": self.losses,
            "missed_wins": self.missed_wins,
            "slower_wins": self.slower_wins,
            "mistakes": self.mistakes,
            "failures": self.failures,
            "varies": self.varies,
            "rates": {
                opponent: {side: {k: str(v) for k, v in rates.items()} for side, rates in sides.items()}
                for opponent, sides in self.rates.items()
            },
        }


def audit(program: Program, book: Book, *, repeat: int = 1) -> Report:
    """Ask ``program`` about every position it can reach on either side, then judge it."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    answers: dict[str, list[Answer]] = {}
    lines: dict[str, list[Cell]] = {}  # a line of play reaching each position asked

    def walk(board: str, mark: str, moves: list[Cell]) -> None:
        if winner(book.rules, board) is not None or EMPTY not in board:
            return
        mover = side_to_move(board)
        if mover == mark:
            if board not in answers:
                lines[board] = moves
                answers[board] = [program.ask(board) for _ in range(repeat)]
            follow = sorted({a for a in answers[board] if not isinstance(a, Failure)})
        else:
            follow = legal_moves(board)
        for cell in follow:
            walk(board[:cell] + mover + board[cell + 1 :], mark, [*moves, cell])

    empty = EMPTY * book.rules.cells
    try:
        for mark in (FIRST, SECOND):
            walk(empty, mark, [])
    finally:
        program.close()
    report = Report(asked=len(answers), repeat=repeat)
    judge(report, book, answers, lines)
    for mark in (FIRST, SECOND):
        report.losses.extend(losing_lines(book, answers, mark))
    report.rates = all_rates(book, answers)
    return report


def judge(report: Report, book: Book, answers: dict[str, list[Answer]], lines: dict[str, list[Cell]]) -> None:
    """The findings position by position, in the order the positions were asked."""
    for board, given in answers.items():
        where = {"board": board, "line": lines[board], "turn": side_to_move(board)}
        counts = Counter(str(a.kind + ":" + a.text) if isinstance(a, Failure) else a for a in given)
        if len(counts) > 1:
            report.varies.append(
                {**where, "answers": {str(k): n for k, n in sorted(counts.items(), key=str)}}
            )
        evaluation = book.evaluate(board)
        seen_failures = set()
        for answer in dict.fromkeys(given):
            if isinstance(answer, Failure):
                if answer not in seen_failures:
                    seen_failures.add(answer)
                    report.failures.append({**where, "kind": answer.kind, "answer": answer.text})
                continue
            value, plies = evaluation.outcome(answer)
            found = {**where, "played": answer, "outcome": [value, plies]}
            if evaluation.value == 1 and value != 1:
                best = [c for c in evaluation.scores if evaluation.outcome(c)[0] == 1]
                report.missed_wins.append({**found, "wins": best})
            elif evaluation.value == 1 and plies > evaluation.plies:
                report.slower_wins.append(
                    {**found, "fastest": list(evaluation.optimal), "plies": evaluation.plies}
                )
            elif evaluation.value == 0 and value == -1:
                report.mistakes.append({**found, "draws": list(evaluation.optimal)})


def losing_lines(book: Book, answers: dict[str, list[Answer]], mark: str) -> list[dict[str, Any]]:
    """Every line of play the program, playing ``mark``, loses to the other side's last move."""
    found: list[dict[str, Any]] = []

    def walk(board: str, moves: list[Cell]) -> None:
        won = winner(book.rules, board)
        if won is not None:
            if won != mark:
                found.append({"as": mark, "moves": moves, "board": board})
            return
        if EMPTY not in board:
            return
        mover = side_to_move(board)
        follow = (
            sorted({a for a in answers[board] if not isinstance(a, Failure)})
            if mover == mark
            else legal_moves(board)
        )
        for cell in follow:
            walk(board[:cell] + mover + board[cell + 1 :], [*moves, cell])

    walk(EMPTY * book.rules.cells, [])
    return found


def all_rates(book: Book, answers: dict[str, list[Answer]]) -> dict[str, dict[str, dict[str, Fraction]]]:
    """opponent -> "as X"/"as O" -> win/draw/loss of the program, exact (``player.play.PlayOut``,
    each of its answers to a position weighted by how often it came); a failure forfeits."""
    rules = book.rules
    opponents: dict[str, Policy] = {
        "random": opponent_policy(rules, "random"),
        "novice": opponent_policy(rules, "novice"),
        "book": level_policy(book, "perfect"),
    }

    def program(board: str) -> list[Cell | None]:
        return [None if isinstance(answer, Failure) else answer for answer in answers[board]]

    most = max(len(given) for given in answers.values()) if answers else 1
    start = EMPTY * rules.cells
    found: dict[str, dict[str, dict[str, Fraction]]] = {}
    for name, reply in opponents.items():
        for mark in (FIRST, SECOND):
            outcome = PlayOut(rules, {mark: program, other(mark): reply}, most=most).outcome(start, mark)
            found.setdefault(name, {})[f"as {mark}"] = {
                "win": outcome.win,
                "draw": outcome.draw,
                "loss": outcome.loss,
            }
    return found


def render(report: Report, program: str, *, max_lines: int = 50) -> str:
    """The readable report: cells 0-8 as the contract numbers them."""

    def line(moves: list[Cell]) -> str:
        return " ".join(map(str, moves)) or "(empty board)"

    verdict = (
        f"CAN LOSE: {len(report.losses)} losing lines, {len(report.failures)} failures"
        if report.can_lose
        else "NEVER LOSES"
    )
    out = [
        f"audit of {escaped(program)}",
        f"asked {report.asked} distinct positions"
        + (f", each {report.repeat} times" if report.repeat > 1 else ", each once"),
        f"verdict: {verdict}",
        "cells are 0-8 in reading order; a line is the moves from the empty board, X first",
    ]

    def section(title: str, items: list[dict[str, Any]], show: Callable[[dict[str, Any]], str]) -> None:
        out.append("")
        out.append(f"{title}: {len(items)}")
        out.extend(f"  {show(item)}" for item in items[:max_lines])
        if len(items) > max_lines:
            out.append(f"  ... and {len(items) - max_lines} more (--json lists every one)")

    section("losses", report.losses, lambda x: f"as {x['as']}: {line(x['moves'])}  -> {x['board']}")
    section(
        "missed wins",
        report.missed_wins,
        lambda x: (
            f"{x['board']} {x['turn']} to move (line {line(x['line'])}): played {x['played']}, "
            f"wins: {' '.join(map(str, x['wins']))}"
        ),
    )
    section(
        "slower wins",
        report.slower_wins,
        lambda x: (
            f"{x['board']} {x['turn']} to move: played {x['played']} (win in {x['outcome'][1]}), "
            f"fastest {' '.join(map(str, x['fastest']))} (win in {x['plies']})"
        ),
    )
    section(
        "mistakes (a draw thrown away)",
        report.mistakes,
        lambda x: (
            f"{x['board']} {x['turn']} to move (line {line(x['line'])}): played {x['played']} "
            f"(loss in {x['outcome'][1]}), draws: {' '.join(map(str, x['draws']))}"
        ),
    )
    section(
        "failures (each forfeits the game)",
        report.failures,
        lambda x: f"{x['kind']}: {x['board']} {x['turn']} to move (line {line(x['line'])}): {x['answer']}",
    )
    if report.repeat > 1:
        section("positions answered differently", report.varies, lambda x: f"{x['board']}: {x['answers']}")
    out.append("")
    out.append(
        "rates (win / draw / loss of the program, "
        + ("exact, by enumerating every line" if report.exact else "estimated: its answers varied")
        + "):"
    )
    for opponent, sides in report.rates.items():
        for side, r in sides.items():
            cells = " / ".join(f"{float(r[k]) * 100:6.2f}%" for k in ("win", "draw", "loss"))
            fractions = " / ".join(str(r[k]) for k in ("win", "draw", "loss"))
            out.append(f"  vs {opponent:<6} {side}: {cells}   ({fractions})")
    return "\n".join(out)
