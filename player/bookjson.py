"""A book file's bytes as strict JSON: steps 2 and 3 of docs/book-format.md, "A valid book".

The standard ``json`` module parses; its hooks and one walk over the result add what the format
asks on top of RFC 8259, which most JSON libraries let through silently:

* no object has two members with the same name (``object_pairs_hook`` sees every pair);
* every number is an integer (``parse_float`` and ``parse_constant`` refuse ``8.0``, ``1e3``,
  ``NaN``) of magnitude at most 2**53 - 1 (RFC 7493, I-JSON), checked in the walk;
* no string holds a lone surrogate (``"\\ud800"`` decodes to one; the walk finds it);
* arrays and objects nest at most ``MAX_DEPTH`` deep (the walk measures it; deeper than the
  interpreter's own limit is a ``RecursionError`` inside ``json``, refused the same way).

Before parsing, the size and the number of ``[``, ``{`` and ``,`` characters are bounded, so
that what the parser builds is bounded too (every value but the first in a container follows a
comma): a 64 MiB file of ``[],[],...`` is refused before it becomes 20 million lists.
"""

from __future__ import annotations

import codecs
import json

from player.errors import BookError
from player.format import MAX_BOOK_BYTES, MAX_DEPTH, MAX_INTEGER, MAX_STRUCTURE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _Refused(Exception):
    """Raised from inside a ``json`` hook; becomes a BookError with code ``json``."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise _Refused(f"member {_show(twice)} appears twice in one object")
    return made


def _no_float(text: str) -> Any:
    raise _Refused(f"number {_show(text)} is not an integer")


def _no_constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def _show(text: str, limit: int = 40) -> str:
    """``repr`` of a short piece of ``text``, safe to print on any terminal."""
    shown = ascii(text if len(text) <= limit else text[:limit] + "...")
    return shown


def check_limits(raw: bytes, source: object) -> None:
    """Step 2: refuse a file too large, or with too many values, before parsing it."""
    if len(raw) > MAX_BOOK_BYTES:
        raise BookError(source, "limits", f"is larger than {MAX_BOOK_BYTES:,} bytes")
    structure = raw.count(b"[") + raw.count(b"{") + raw.count(b",")
    if structure > MAX_STRUCTURE:
        raise BookError(
            source,
            "limits",
            f"holds {structure:,} of the characters [ {{ and , (at most {MAX_STRUCTURE:,}): too many values",
        )


def parse(raw: bytes, source: object) -> Any:
    """Steps 2 and 3: the parsed document, or BookError with code ``limits`` or ``json``."""
    check_limits(raw, source)

    def refuse(reason: str) -> BookError:
        return BookError(source, "json", f"is not strict JSON: {reason}")

    if raw.startswith(codecs.BOM_UTF8):
        raise refuse("it starts with a byte-order mark")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise refuse(f"not UTF-8 text (byte {error.start})") from None
    try:
        document = json.loads(
            text, object_pairs_hook=_object, parse_float=_no_float, parse_constant=_no_constant
        )
    except _Refused as error:
        raise refuse(str(error)) from None
    except RecursionError:
        raise refuse(f"arrays and objects nest more than {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as error:
        raise refuse(f"line {error.lineno}, column {error.colno}: {error.msg}") from None
    except ValueError:  # int() refuses more than 4,300 digits (CVE-2020-10735)
        raise refuse("an integer has thousands of digits") from None
    problem = _walk(document, check_strings=b"\\u" in raw)
    if problem is not None:
        raise refuse(problem)
    return document


def _walk(document: Any, *, check_strings: bool) -> str | None:
    """What is wrong with the parsed ``document`` beyond the parser's checks, or None.

    ``check_strings``: look for lone surrogates; they can only come from ``\\u`` escapes (UTF-8
    decoding refuses encoded ones), so a text without one needs no string checks.
    """
    stack: list[tuple[Any, int]] = [([document], 0)]  # the document is a member at depth 1
    while stack:
        value, depth = stack.pop()
        members = value.values() if type(value) is dict else value
        if depth > MAX_DEPTH:
            return f"arrays and objects nest more than {MAX_DEPTH} deep"
        if check_strings and type(value) is dict:
            bad = next((name for name in value if not _text_ok(name)), None)
            if bad is not None:
                return f"member name {_show(bad)} holds a lone surrogate"
        for member in members:
            kind = type(member)
            if kind is dict or kind is list:
                stack.append((member, depth + 1))
            elif kind is int:
                if not -MAX_INTEGER <= member <= MAX_INTEGER:
                    return f"integer {_show(str(member))} is beyond 2**53 - 1 in magnitude"
            elif kind is str and check_strings and not _text_ok(member):
                return f"string {_show(member)} holds a lone surrogate"
    return None


def _text_ok(text: str) -> bool:
    """No lone surrogate: every str ``json`` returns encodes to UTF-8 unless it holds one."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
