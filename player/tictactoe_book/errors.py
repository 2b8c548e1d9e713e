"""Every error the project raises, and every list of reason codes its outputs carry.

Each error subclasses the built-in error a caller would catch anyway (python-chess does the same
with ``IllegalMoveError(ValueError)``), so code that only knows ``ValueError`` or ``OSError``
still catches it; each message names the offending value (and, for a file, its path). The
command lines turn them into one line and an exit status (player/tictactoe_book/apps/console.py).
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Any

#: Characters of a value an error message repeats (a board, a level, a seed, a command), as the
#: message writes it: a longer value is cut there and its length given (``echoed``).
MAX_ECHOED = 100
#: Characters of a file name a message repeats: whole up to the longest path Linux opens
#: (PATH_MAX), since a real file's name is worth reading in full; a longer one names no file.
MAX_ECHOED_PATH = 4096


def echoed(value: object, form: Callable[[Any], str] = repr, *, limit: int = MAX_ECHOED) -> str:
    """``value`` as an error message repeats it, written by ``form`` (``repr`` unless given:
    ``str``, ``ascii``, JSON...): whole when it is at most ``limit`` characters, else its first
    ``limit`` and how long it was, so that one bad value (a 100,000-character board, a 400-digit
    seed) cannot make a message of its own length. A string is cut before it is written, so
    no escape is split (its length is the string's); any other value after (the written
    length)."""
    if isinstance(value, str):
        return form(value) if len(value) <= limit else f"{form(value[:limit])}... ({len(value):,} characters)"
    try:
        text = form(value)
    except ValueError:  # an int of thousands of digits, which str() refuses (CVE-2020-10735)
        return "a number of thousands of digits"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


#: Why a book is refused, in the order a reader checks (docs/book-format.md, "A valid book").
#: Every reader (this package, ``ttt-book verify``, the JavaScript reader) gives the code of the
#: first step that fails, so the same file gets the same code everywhere.
BOOK_REASONS = (
    "unreadable",
    "limits",
    "json",
    "format",
    "version",
    "rules",
    "lines",
    "symmetries",
    "entries",
    "counts",
    "entry-key",
    "entry-shape",
    "missing-entry",
    "entry-inconsistent",
)
#: Why a book by parts is refused beyond BOOK_REASONS (docs/book-parts.md, "A valid book by
#: parts"): its list of parts, and a part's file missing, not the bytes the manifest names, or
#: not laid out as a part.
PARTS_REASONS = ("parts", "part-missing", "part-hash", "part-format")
#: Why a board is refused (docs/porting.md, "Errors"; the conformance vectors use them).
BOARD_REASONS = ("length", "character", "counts", "unreachable", "over")
#: Every error code an engine answer can carry (docs/engine.md lists them with examples).
ENGINE_REASONS = ("json", "request", "op", "board", "first", "level", "seed", "against", "too-long")


# ---------------------------------------------------------------- the game and the book


class RulesError(ValueError):
    """Rules that describe no playable board (e.g. ``k`` longer than the board)."""


class BoardError(ValueError):
    """A board that is malformed, impossible, unreachable or already finished; ``code`` is one
    of BOARD_REASONS."""

    def __init__(self, code: str, message: str) -> None:
        if code not in BOARD_REASONS:
            raise ValueError(f"unknown board reason code {code!r}")
        super().__init__(message)
        self.code = code


class IllegalMoveError(ValueError):
    """A move off the board or onto an occupied cell, or after the game ended."""


class OpponentError(ValueError):
    """A name that is not one of the reference opponents (tictactoe_book.opponents.OPPONENTS)."""


class BookError(ValueError):
    """A book file that cannot be used; ``code`` is one of BOOK_REASONS (or of PARTS_REASONS,
    for a book by parts).

    ``str()`` is one line: the file, then what is wrong with it.
    """

    def __init__(self, path: object, code: str, reason: str) -> None:
        if code not in BOOK_REASONS and code not in PARTS_REASONS:
            raise ValueError(f"unknown book reason code {code!r}")
        super().__init__(f"{echoed(path, str, limit=MAX_ECHOED_PATH)}: {reason} [{code}]")
        self.path = path
        self.code = code
        self.reason = reason


class EntryShapeError(ValueError):
    """An entry string off the grammar of docs/book-format.md, "An entry"; ``str()`` says where,
    for a message about the entry."""


# ---------------------------------------------------------------- play


class LevelError(ValueError):
    """A level name the player does not know."""


class TooManyLines(RuntimeError):
    """Counting exact chances would walk more new positions than the budget allows."""


class ScriptError(ValueError):
    """A move list that cannot be played: not numbers, off the board, taken, or past the end."""


class RequestError(ValueError):
    """An engine request that cannot be answered; ``code`` is one of ENGINE_REASONS, ``detail``
    the members the answer's error object adds."""

    def __init__(self, code: str, message: str, **detail: object) -> None:
        if code not in ENGINE_REASONS:
            raise ValueError(f"unknown engine reason code {code!r}")
        super().__init__(message)
        self.code = code
        self.detail = detail


class StreamError(OSError):
    """A standard stream that cannot be written; ``str()`` is the one line to show.

    It carries no ``errno`` of its own (the cause is in ``original``): click's ``main`` turns any
    ``OSError`` with ``errno == EPIPE`` into a bare ``sys.exit(1)``, and this must reach the
    command line's status table instead.
    """

    def __init__(self, stream: str, original: OSError) -> None:
        reason = {errno.EBADF: "it is closed", errno.EPIPE: "the pipe is closed"}.get(
            original.errno or 0, original.strerror or str(original)
        )
        super().__init__(f"cannot write {stream}: {reason}")
        self.stream = stream
        self.original = original

    @property
    def broken_pipe(self) -> bool:
        return self.original.errno == errno.EPIPE


# ---------------------------------------------------------------- build time


class BuildToolMissing(RuntimeError):
    """A tool the build needs (numpy, the ``build`` extra) is not installed."""


class ClusterError(RuntimeError):
    """The cluster a build was asked to run on (``ttt-book build --engine dask --scheduler``)
    cannot be used: no scheduler answers, or it went away."""


class OutputError(OSError):
    """A file that cannot be written: ``str()`` is one line naming it and the reason."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"cannot write {echoed(path, str, limit=MAX_ECHOED_PATH)}: {reason}")
        self.path = path
        self.reason = reason


class InputFileError(OSError):
    """A file that cannot be read as asked: ``str()`` is one line naming it and the reason."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{echoed(path, str, limit=MAX_ECHOED_PATH)}: {reason}")
        self.path = path
        self.reason = reason


class TableMarkerError(ValueError):
    """A file whose levels-table markers are missing, repeated or out of order."""


class ExportTooLarge(ValueError):
    """A book or strategy too large for a source export; the message names the count."""


class BookTooLarge(ValueError):
    """A book that would be larger than every reader takes (the format's size limit); the
    message names the rules, the size and the limit."""


class SameFileError(ValueError):
    """Two outputs of one command that name the same file."""


class ProgramWontRun(Exception):
    """An audited program that cannot be started, or ends before answering its first question."""
