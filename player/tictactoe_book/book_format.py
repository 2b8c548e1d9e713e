"""A book file, read as docs/book-format.md writes it ("A valid book", steps 1 to 11): its
bytes, strict JSON within limits, and the header against the tables the reader derives from
the rules.

1. the bytes of a regular file (``read_book_bytes``);
2. and 3. strict JSON within limits (``check_limits``, ``parse_json``);
4. to 11. the header: format, version, canonical rule, rules, and the winning lines and
   symmetries derived from the rules and compared with the file's (``check_header``);

Steps 12 to 15 are the proof's (tictactoe_book.grammar, an entry's grammar; tictactoe_book.proof,
the definition; tictactoe_book.proof_engine, its accelerator); tictactoe_book.reader runs them all
and answers from the book.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from typing import TYPE_CHECKING, Any

from tictactoe_book.errors import BookError, RulesError
from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules
from tictactoe_book.grammar import MAX_INTEGER, json_type, short, show

if TYPE_CHECKING:
    from collections.abc import Callable

    Fail = Callable[[str, str], BookError]

    #: How far a load has gone, for an app to show: ``progress(stage, done, total)``, the
    #: solver's shape (tictactoe_generator.solve.Progress). ``"read"`` once the file's bytes are read
    #: (done 0 of its size in bytes: parsing them follows), then, if it is proven, ``"prove"``
    #: (entries checked of the book's entries) from 0 as the proof starts to all as it ends.
    Progress = Callable[[str, int, int], None]

FORMAT_NAME = "tictactoe-book"
#: Bumped only for a change an existing reader would misread; readers refuse versions they don't know.
FORMAT_VERSION = 2
#: The only canonicalization rule: the smallest image under the symmetries.
CANONICAL_RULE = "min-image"
#: Step 2 ("limits"): readers refuse larger files before parsing them (a 4x4 book is about 40 MB).
MAX_BOOK_BYTES = 64 * 1024 * 1024
#: Step 2: at most this many of the characters ``[``, ``{`` and ``,``, counted anywhere in the text;
#: it bounds the number of values a parser builds (a 4x4 book has about one per entry, 1.1 million).
MAX_STRUCTURE = 4_000_000
#: Step 7 ("rules"): the largest board a whole-file book holds (its proof's table has 3 ** cells
#: bytes); a book by parts holds up to ``tictactoe_book.game.MAX_CELLS``.
MAX_BOOK_CELLS = 16
#: Step 3 ("json"): arrays and objects nest at most this deep (the book itself uses 3 levels).
MAX_DEPTH = 32


# ---------------------------------------------------------------- step 1: the bytes


def read_book_bytes(path: str) -> bytes:
    """Step 1 and the size half of step 2: the bytes of a regular file, read without blocking
    on a FIFO or a device; BookError ``unreadable`` or ``limits`` naming ``path``."""
    if not path:
        raise BookError("''", "unreadable", "an empty path names no file")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BookError(path, "unreadable", "no such file") from None
    except OSError as error:
        raise BookError(path, "unreadable", f"cannot be opened ({error.strerror or error})") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise BookError(path, "unreadable", f"is {kind}, not a book file")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            raw = handle.read(MAX_BOOK_BYTES + 1)
    except OSError as error:
        raise BookError(path, "unreadable", f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(descriptor)
    check_limits(raw, path)
    return raw


# ---------------------------------------------------------------- steps 2 and 3: strict JSON


class _Refused(Exception):
    """Raised from inside a ``json`` hook; becomes a BookError with code ``json``."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise _Refused(f"member {show(twice)} appears twice in one object")
    return made


def _no_float(text: str) -> Any:
    raise _Refused(f"number {show(text)} is not an integer")


def _no_constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


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


def parse_json(raw: bytes, source: object) -> Any:
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
    except json.JSONDecodeError as error:  # "Unterminated string starting at": where, first
        where = error.msg.removesuffix(" at").removesuffix(" starting")
        raise refuse(f"line {error.lineno}, column {error.colno}: {where}") from None
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
                return f"member name {show(bad)} holds a lone surrogate"
        for member in members:
            kind = type(member)
            if kind is dict or kind is list:
                stack.append((member, depth + 1))
            elif kind is int:
                if not -MAX_INTEGER <= member <= MAX_INTEGER:
                    return f"integer {show(str(member))} is beyond 2**53 - 1 in magnitude"
            elif kind is str and check_strings and not _text_ok(member):
                return f"string {show(member)} holds a lone surrogate"
    return None


def lone_surrogate(value: Any) -> str | None:
    """What in ``value``, parsed JSON, holds a lone surrogate (a ``\\ud800`` escape), for a
    message; None if nothing does. Strict JSON has none (docs/book-format.md): strict parsers
    refuse it, and no UTF-8 can hold it. (A book's proof checks it in ``_walk``, with the rest.)"""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            bad = next((name for name in item if not _text_ok(name)), None)
            if bad is not None:
                return f"member name {show(bad)} holds a lone surrogate"
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is str and not _text_ok(item):
            return f"string {show(item)} holds a lone surrogate"
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


# ---------------------------------------------------------------- steps 4 to 11: the header


def check_header(data: Any, fail: Fail, expected: Rules | None, max_cells: int = MAX_BOOK_CELLS) -> Rules:
    """Steps 4 to 11: everything but the entries; returns the rules the file states (of at
    most ``max_cells`` cells: a book by parts holds more than a whole-file book)."""
    if type(data) is not dict:
        raise fail("format", f"is not a book: the top level is {json_type(data)}, not an object")
    if data.get("format") != FORMAT_NAME:
        raise fail("format", f"is not a {FORMAT_NAME} file (format {short(data.get('format'))})")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise fail("version", f"has format version {short(version)}; this reader reads {FORMAT_VERSION}")
    if data.get("canonical") != CANONICAL_RULE:
        raise fail("format", f"uses canonical rule {short(data.get('canonical'))}, not {CANONICAL_RULE!r}")
    rules = _check_rules(data.get("rules"), fail, expected, max_cells)
    lines = data["rules"].get("lines")
    if not (
        type(lines) is list
        and len(lines) == len(rules.lines)
        and all(_cells_equal(got, line) for got, line in zip(lines, rules.lines, strict=True))
    ):
        raise fail("lines", f"has winning lines that are not those of {rules}")
    symmetries = data.get("symmetries")
    if (
        type(symmetries) is not list
        or len(symmetries) != len(rules.symmetries)
        or not all(
            type(item) is dict and type(item.get("name")) is str and _cells_equal(item.get("perm"), s.perm)
            for item, s in zip(symmetries, rules.symmetries, strict=False)
        )
    ):
        raise fail("symmetries", f"has symmetries that are not the {len(rules.symmetries)} of {rules}")
    entries = data.get("entries")
    if type(entries) is not dict:
        raise fail("entries", f"has entries that are {json_type(entries)}, not an object")
    counts = data.get("counts")
    stated = counts.get("entries") if type(counts) is dict else None
    if type(stated) is not int or stated != len(entries):
        raise fail("counts", f"has {len(entries)} entries but counts.entries says {short(stated)}")
    return rules


def _cells_equal(got: Any, cells: tuple[Cell, ...]) -> bool:
    """Is ``got`` the JSON array of exactly these integers? (Not ``==``: in Python ``False == 0``,
    so ``[false, 1, 2] == [0, 1, 2]``, and JSON's ``false`` is not the number 0.)"""
    return (
        type(got) is list
        and len(got) == len(cells)
        and all(type(item) is int and item == cell for item, cell in zip(got, cells, strict=True))
    )


def _check_rules(raw: Any, fail: Fail, expected: Rules | None, max_cells: int) -> Rules:
    if type(raw) is not dict:
        raise fail("rules", f"has rules that are {json_type(raw)}, not an object")
    rows, cols, k = raw.get("rows"), raw.get("cols"), raw.get("k")
    if not (type(rows) is int and type(cols) is int and type(k) is int):
        raise fail("rules", f"has rules with non-integer rows, cols or k: {short([rows, cols, k])}")
    misere = raw.get("misere")
    if type(misere) is not bool:
        raise fail("rules", f"has rules.misere {short(misere)}, not true or false")
    try:
        rules = Rules(rows, cols, k, misere)
    except RulesError as error:
        raise fail("rules", f"has impossible rules: {error}") from None
    if rules.cells > max_cells:
        raise fail(
            "rules", f"has impossible rules: board {rows}x{cols} has {rules.cells} cells; at most {max_cells}"
        )
    if type(raw.get("cells")) is not int or raw.get("cells") != rules.cells:
        raise fail("rules", f"says {short(raw.get('cells'))} cells; {rules} has {rules.cells}")
    if (raw.get("first"), raw.get("second"), raw.get("empty")) != (FIRST, SECOND, EMPTY):
        raise fail("rules", "uses marks other than X, O and '.'")
    if expected is not None and rules != expected:
        raise fail("rules", f"is a book for {rules}, not {expected}")
    return rules
