"""The errors a reader of the book can raise, each naming the offending value.

They subclass the built-in errors (python-chess does the same with ``IllegalMoveError(ValueError)``),
so a caller that only knows ``ValueError`` still catches them.
"""

from __future__ import annotations


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
    """A book file that cannot be used: missing, unreadable, malformed or for other rules."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
