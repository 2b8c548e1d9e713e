"""The errors a reader of the book can raise, each naming the offending value.

They subclass the built-in errors (python-chess does the same with ``IllegalMoveError(ValueError)``),
so a caller that only knows ``ValueError`` still catches them.
"""

from __future__ import annotations

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


class BoardError(ValueError):
    """A board that is malformed, impossible, unreachable or already finished.

    ``code`` is one of the reasons the conformance vectors use: ``length``, ``character``,
    ``counts``, ``unreachable``, ``over``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class IllegalMoveError(ValueError):
    """A move off the board or onto an occupied cell."""


class BookError(ValueError):
    """A book file that cannot be used; ``code`` is one of ``BOOK_REASONS``.

    ``str()`` is one line: the file, then what is wrong with it.
    """

    def __init__(self, path: object, code: str, reason: str) -> None:
        if code not in BOOK_REASONS:
            raise ValueError(f"unknown book reason code {code!r}")
        super().__init__(f"{path}: {reason} [{code}]")
        self.path = path
        self.code = code
        self.reason = reason
