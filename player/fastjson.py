"""Parse JSON with CPython's own C scanner, without importing ``json`` (and with it ``re``).

Why: on the machines this project is measured on, ``import json`` costs about 15 ms — almost
all of it ``re`` and ``enum``, which ``json.decoder`` needs only for its whitespace regex —
against about 20 ms for the whole interpreter, and the player must start fast (issue 3).
``_json.make_scanner`` is the scanner ``json.loads`` itself uses; this module gives it the same
settings ``json.loads`` does and does the whitespace handling with ``str`` methods. Where the
C scanner is missing (not CPython) or the text is not valid JSON, it defers to ``json.loads``,
so errors are exactly ``json.JSONDecodeError``. A test compares it with ``json.loads``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WHITESPACE = " \t\n\r"


def _constant(name: str) -> float:
    return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


class _Context:
    """The attributes ``_json.make_scanner`` reads, as ``json.JSONDecoder()`` sets them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_constant)


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - other Pythons
        return None
    return make_scanner(_Context())  # type: ignore[arg-type]


_SCAN = _scanner()


def loads(text: str) -> Any:
    """Like ``json.loads(text)`` for a ``str``."""
    if _SCAN is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _SCAN(text, start)
        except StopIteration:
            pass  # not JSON at all: let json.loads raise its usual error
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    return json.loads(text)
