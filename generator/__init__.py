"""Build time: the solver, the book's writer, its verification, exports and reports.

It imports ``player`` and is never imported by it. The solver and the writer need numpy (the
``build`` extra); ``build_tools`` imports them, or says what to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from player.errors import BuildToolMissing


def build_tools() -> ModuleType:
    """``generator.writer``, with the solver it drives; BuildToolMissing without numpy."""
    try:
        return importlib.import_module("generator.writer")
    except ModuleNotFoundError as error:
        if error.name != "numpy":
            raise
        raise BuildToolMissing(
            "building a book needs numpy, a build-time tool: pip install 'tictactoe-book[build]'"
        ) from None
