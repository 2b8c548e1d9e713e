"""The reader: a book file's bytes proven and then asked about, in the order of
docs/book-format.md, step for step beside clients/js/tictactoe-book.js.

1. the bytes of a regular file (``read_book_bytes``);
2. and 3. strict JSON within limits (``parse_json``);
4. to 11. the header: format, version, canonical rule, rules, and the winning lines and
   symmetries the reader derives from the rules and compares with the file's (``check_header``);
12. to 15. the entries (``check_entries``): each key is a board with a move to make, in
   canonical form; its string follows the grammar of *An entry* (``parse_entry``); every
   successor that does not finish the game has an entry; and each move's score, the successor's
   stored best score one ply back (``tictactoe_book.game.one_ply_back``), makes the entry's best score and
   tiers. By induction on the number of empty cells, a book that passes is the truth, whoever
   wrote it.

Then ``Book.evaluate(board)`` looks the board up under its canonical key, scores every move
from the successors' entries, and maps the answer back onto the board's own orientation and
marks. ``load_book`` reads a file (the packaged book by default) and proves it, unless its exact
bytes were proven before (player/tictactoe_book/trust.py); ``parse_book`` proves bytes.

The entries are checked over whole runs of them, in one process (``_EntryProof``): every image
of every key goes into one table indexed by the board's rank, then every move is one look-up
there; the finding is the first failing step's, naming the first entry in file order that
fails it, in the exact rule's words.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import json
import os
import re
import stat
import sys
from array import array
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass
from functools import cache, cached_property, reduce
from itertools import accumulate, compress, repeat
from operator import add, and_, floordiv, itemgetter, mod, ne, xor
from typing import TYPE_CHECKING, Any

import tictactoe_book.trust as trust
from tictactoe_book.codes import canonical
from tictactoe_book.errors import BookError, EntryShapeError, RulesError, echoed
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Position,
    Rules,
    Symmetry,
    after_line,
    check_mark,
    check_playable,
    decode_score,
    end_score,
    line_owners,
    one_ply_back,
    other,
    put,
    side_to_move,
    swap_marks,
)
from tictactoe_book.opponents import DEFAULT, OPPONENTS, opponent

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

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
#: Step 3 ("json"): arrays and objects nest at most this deep (the book itself uses 3 levels).
MAX_DEPTH = 32
#: Step 3: integers beyond this magnitude are refused (RFC 7493: exact in every JSON reader).
MAX_INTEGER = 2**53 - 1
#: The packaged books' names: 3x3, and 3x3 misère, each ranked against each reference opponent
#: first (``PACKAGED[misere, against]``): ``tictactoe[-misere][-vs-NAME].json``, no ``-vs-`` for
#: the default opponent.
PACKAGED = {
    (misere, name): f"tictactoe{'-misere' if misere else ''}{'' if name == DEFAULT else f'-vs-{name}'}.json"
    for name in OPPONENTS
    for misere in (False, True)
}
BOOK_NAME = PACKAGED[False, DEFAULT]
MISERE_BOOK_NAME = PACKAGED[True, DEFAULT]


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
        raise _Refused(f"member {_show(twice)} appears twice in one object")
    return made


def _no_float(text: str) -> Any:
    raise _Refused(f"number {_show(text)} is not an integer")


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
                return f"member name {_show(bad)} holds a lone surrogate"
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is str and not _text_ok(item):
            return f"string {_show(item)} holds a lone surrogate"
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


def check_header(data: Any, fail: Fail, expected: Rules | None) -> Rules:
    """Steps 4 to 11: everything but the entries; returns the rules the file states."""
    if type(data) is not dict:
        raise fail("format", f"is not a book: the top level is {_json_type(data)}, not an object")
    if data.get("format") != FORMAT_NAME:
        raise fail("format", f"is not a {FORMAT_NAME} file (format {_short(data.get('format'))})")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise fail("version", f"has format version {_short(version)}; this reader reads {FORMAT_VERSION}")
    if data.get("canonical") != CANONICAL_RULE:
        raise fail("format", f"uses canonical rule {_short(data.get('canonical'))}, not {CANONICAL_RULE!r}")
    rules = _check_rules(data.get("rules"), fail, expected)
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
        raise fail("entries", f"has entries that are {_json_type(entries)}, not an object")
    counts = data.get("counts")
    stated = counts.get("entries") if type(counts) is dict else None
    if type(stated) is not int or stated != len(entries):
        raise fail("counts", f"has {len(entries)} entries but counts.entries says {_short(stated)}")
    return rules


def _cells_equal(got: Any, cells: tuple[Cell, ...]) -> bool:
    """Is ``got`` the JSON array of exactly these integers? (Not ``==``: in Python ``False == 0``,
    so ``[false, 1, 2] == [0, 1, 2]``, and JSON's ``false`` is not the number 0.)"""
    return (
        type(got) is list
        and len(got) == len(cells)
        and all(type(item) is int and item == cell for item, cell in zip(got, cells, strict=True))
    )


def _check_rules(raw: Any, fail: Fail, expected: Rules | None) -> Rules:
    if type(raw) is not dict:
        raise fail("rules", f"has rules that are {_json_type(raw)}, not an object")
    rows, cols, k = raw.get("rows"), raw.get("cols"), raw.get("k")
    if not (type(rows) is int and type(cols) is int and type(k) is int):
        raise fail("rules", f"has rules with non-integer rows, cols or k: {_short([rows, cols, k])}")
    misere = raw.get("misere")
    if type(misere) is not bool:
        raise fail("rules", f"has rules.misere {_short(misere)}, not true or false")
    try:
        rules = Rules(rows, cols, k, misere)
    except RulesError as error:
        raise fail("rules", f"has impossible rules: {error}") from None
    if type(raw.get("cells")) is not int or raw.get("cells") != rules.cells:
        raise fail("rules", f"says {_short(raw.get('cells'))} cells; {rules} has {rules.cells}")
    if (raw.get("first"), raw.get("second"), raw.get("empty")) != (FIRST, SECOND, EMPTY):
        raise fail("rules", "uses marks other than X, O and '.'")
    if expected is not None and rules != expected:
        raise fail("rules", f"is a book for {rules}, not {expected}")
    return rules


# ---------------------------------------------------------------- an entry's grammar


Tiers = tuple[tuple[Cell, ...], ...]

#: RFC 8259's integer: an optional minus sign, then 0 or digits without a leading zero.
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)", re.ASCII)


def parse_entry(text: str, cells: int) -> tuple[int, Tiers]:
    """``(best, tiers)`` from an entry string of a board with ``cells`` cells.

    The grammar (docs/book-format.md, "An entry"): an integer as RFC 8259 writes one (``-0`` is
    0), at most 2**53 - 1 in magnitude; then one or more tiers, each after exactly one space; a
    tier is cell numbers below ``cells`` (decimal, no leading zero) joined by single commas, in
    increasing order. Raises EntryShapeError saying what is wrong.
    """
    head, space, rest = text.partition(" ")
    best = _BESTS.get(head)
    if best is None:
        best = _integer(head)
    if not space:
        raise EntryShapeError("has no tier after its best score")
    return best, tuple(map(_tiers(cells).__getitem__, rest.split(" ")))


class _Tiers(dict[str, tuple[Cell, ...]]):
    """The tiers of a board of ``cells`` cells by their text, each text read once: a text that
    is no tier raises EntryShapeError and is not kept, so this holds at most one item per set of
    cells (65,535 on 16 cells; a 4x4 book uses about 9,000)."""

    def __init__(self, cells: int) -> None:
        super().__init__()
        self.cells = cells

    def __missing__(self, part: str) -> tuple[Cell, ...]:
        cells, cell_of = self.cells, _cell_numbers(self.cells)
        tier: list[Cell] = []
        for item in part.split(","):
            cell = cell_of.get(item)
            if cell is None:
                raise EntryShapeError(_bad_cell(item, cells))
            if tier and cell <= tier[-1]:
                raise EntryShapeError(f"has tier {_show(part)}, not in increasing order")
            tier.append(cell)
        found = self[part] = tuple(tier)
        return found


@cache
def _tiers(cells: int) -> _Tiers:
    return _Tiers(cells)


def entry_text(best: int, tiers: Tiers | list[list[Cell]]) -> str:
    """The string ``parse_entry`` reads back as ``(best, tiers)`` (tiers written as given)."""
    return f"{best} " + " ".join(",".join(map(str, tier)) for tier in tiers)


def _integer(text: str) -> int:
    """The best score, off the fast path of ``_BESTS``: any integer of the grammar."""
    if not _INTEGER.fullmatch(text):
        what = "nothing" if not text else _show(text)
        raise EntryShapeError(f"starts with {what}, not an integer best score")
    if len(text) > 17 or abs(int(text)) > MAX_INTEGER:  # (length first: int() refuses 4,300 digits)
        raise EntryShapeError(f"has best score {_show(text)}, beyond 2**53 - 1 in magnitude")
    return int(text)


#: Every best score a book of up to 16 cells can hold, written as the grammar writes it; any
#: other integer is read by ``_integer`` (and is inconsistent later, but not misshapen).
_BESTS = {str(n): n for n in range(-17, 18)} | {"-0": 0}


@cache
def _cell_numbers(cells: int) -> dict[str, Cell]:
    """``"0"`` to ``str(cells - 1)``: the only texts that are cell numbers of the board."""
    return {str(cell): cell for cell in range(cells)}


def _bad_cell(text: str, cells: int) -> str:
    if not text:
        return "has an empty tier or cell (two spaces or commas in a row, or one at an end)"
    if _INTEGER.fullmatch(text) and not text.startswith("-"):
        return f"names cell {_show(text)}, off the board (cells 0 to {cells - 1})"
    return f"has {_show(text)} where a cell number belongs"


def _show(text: str) -> str:
    """``text`` for a message about the file: ``ascii()`` of it (safe on any terminal), cut as
    every echoed value is (``tictactoe_book.errors.echoed``)."""
    return echoed(text, ascii)


# ---------------------------------------------------------------- steps 12 to 15: the entries


def prove(data: Any, source: object, expected: Rules | None, *, progress: Progress | None = None) -> Rules:
    """Steps 4 to 15 on parsed JSON ``data``: the rules the book is for, or BookError with the
    first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    ``progress`` is told the entries checked (stage ``"prove"``).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    texts = data["entries"]
    total = len(texts)
    if progress is not None:
        progress("prove", 0, total)
    told = None if progress is None else lambda done: progress("prove", done, total)
    found = check_entries(rules, texts, told)
    if found is not None:
        raise fail(*found)
    return rules


def check_entries(
    rules: Rules, texts: dict[str, Any], progress: Callable[[int], None] | None = None
) -> tuple[str, str] | None:
    """Steps 12 to 15 on the entries of a book for ``rules``: the first failing step's reason
    code and message, naming the first entry in file order that fails it; None if every entry
    passes. ``progress`` is told how many entries are checked, now and then, up to all of them
    (the proof takes two passes over them: each counts for half)."""
    with _collector_paused():
        return _EntryProof(rules, texts).finding(progress)


#: The entries are taken a run of at most this many at a time, and the proof's progress told
#: after each: about 560 times for 4x4 (two passes), four times for 3x3 (two passes over the
#: keys with X to move and those with O to move, a run each).
PROGRESS_ENTRIES = 4096
_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)
#: A board's cells as the digits of its rank (``.`` 0, ``O`` 1, ``X`` 2), in ASCII, then as bytes.
_TO_RANK = bytes.maketrans((EMPTY + SECOND + FIRST).encode(), b"012")
_FROM_RANK = bytes.maketrans(b"012", b"\0\1\2")
#: A cell's digit as 1 where the cell is free, holds O, holds X (``_Boards``); 0xff where it is
#: free; 0x80 where it is not, which makes a byte of 0 to 2 one of ``_OFF``.
_COUNTS = tuple(bytes.maketrans(b"\0\1\2", bytes(int(digit == d) for d in range(3))) for digit in range(3))
_KEEP_FREE = bytes.maketrans(b"\0\1\2", b"\xff\0\0")
_TAKEN = bytes.maketrans(b"\0\1\2", b"\0\x80\x80")
_OFF = b"\x80\x81\x82"
#: A tier's byte (0 or 1) as one that is not 0, and back: so that the bytes of occupied cells,
#: made 0, can be dropped.
_NONZERO = bytes.maketrans(b"\0\1", b"\2\3")
_FROM_NONZERO = bytes.maketrans(b"\2\3", b"\0\1")
#: A move's score as the proof's bytes hold it, one byte a move: ``_LEVEL + score`` for a score
#: within ``_NEAR`` of 0 (every move of a book of up to 16 cells scores within 17), and two
#: bytes that are no score: ``_NO_ENTRY`` (the successor is neither finished nor an entry) and
#: ``_FAR`` (the successor's best score is no nearer: the exact rule decides that entry). An
#: entry's best score within ``_NEAR`` is ``_LEVEL + best``, another ``_LEVEL``; a move's byte
#: less its entry's best byte, plus ``_LEVEL``, is then within 1 to 255, so the subtraction of
#: two runs of bytes read as integers borrows across no byte.
_LEVEL = 128
_NEAR = 62
_NO_ENTRY = _LEVEL - _NEAR - 2
_FAR = _LEVEL + _NEAR + 1
#: A move's byte as looked up (0 where no entry has the successor) as the proof holds it.
_UNFOUND = bytes.maketrans(b"\0", bytes((_NO_ENTRY,)))
#: ``score - best + _LEVEL`` read as the move's verdict: 1 if it scores the best score, 0 if
#: less, 2 if more (no tier can make that entry consistent).
_VERDICT = bytes(0 if byte < _LEVEL else 1 if byte == _LEVEL else 2 for byte in range(256))
#: Per best score within ``_NEAR`` (one more for a move onto it): its byte, and a move's onto it.
_BEST = {best: _LEVEL + best for best in range(-_NEAR, _NEAR + 1)}
_ONTO = {best: _LEVEL + one_ply_back(best) for best in range(-_NEAR - 1, _NEAR + 2)}


@cache
def _one_at(byte: int) -> bytes:
    """A translation of ``byte`` to 1 and of every other byte to 0."""
    return bytes(int(other == byte) for other in range(256))


class _EntryProof:
    """Steps 12 to 15 for the entries of one book, over whole runs of them.

    The keys are read as one string of their cells' digits (``.`` 0, ``O`` 1, ``X`` 2, a key's
    row after another, each followed by a newline). A board's *rank* reads its digits in base
    3: ranks compare as boards do, and every board of ``cells`` cells has one below ``3 **
    cells``. So one table of ``3 ** cells`` bytes (43 MB for 16 cells) holds, at the rank of
    every image of every key, the score of a move onto it: the first pass, a run of keys at a
    time in file order, puts them there, and checks step 12: the ranks of the images
    (``_Images``) show which keys are not canonical, and the cells' columns of digits
    (``_Boards``) which are finished. A successor has one mark more than its key, so in the
    second pass a move's score is the table's byte at the key's rank plus the mark's place
    value: an image of an entry with one mark more (other boards have other ranks), or 0 if
    the move finishes the game (the columns show where, line by line) or reaches no entry. The
    moves' scores are held against the entries' best scores and tiers all at once, a run of
    entries with the same side to move at a time (``_moves``).

    Each distinct entry string is parsed once (``_facts``). An entry next to a best score beyond
    the bytes' reach is checked by the exact rule, and every message is the exact rule's
    (``_key_problem``, ``_missing``, ``_inconsistency``).
    """

    def __init__(
        self, rules: Rules, texts: dict[str, Any], *, progress: Callable[[int], None] | None = None
    ) -> None:
        """``progress`` is told how many keys are sorted into their layers (a 4x4 book's take
        seconds), from 0 to all, in steps of INDEX_STEP."""
        self.rules = rules
        self.texts = texts
        #: the keys and their entries, in file order: a finding names the first that fails
        self.keys = list(texts)
        self.values = list(texts.values())
        self.images = _Images(rules)
        #: ``_Boards.lead`` (``cells`` + #X - #O) as 0 where a key has as many X as O or one
        #: more, else 1
        self.unlike = bytes(0 if lead in (rules.cells, rules.cells + 1) else 1 for lead in range(256))
        #: per distinct entry string of the grammar, ``cells + 2`` bytes: the byte of a move
        #: onto its key, the byte of its best score, and a byte per cell, 1 on its tiers' cells
        self.facts: dict[str, bytes] = {}
        #: the entry strings inconsistent whatever their successors say (a cell in two tiers, a
        #: best score no move of the board can have), unless the exact rule decides their entry
        self.wrong: set[str] = set()

    def finding(self, progress: Callable[[int], None] | None) -> tuple[str, str] | None:
        """The first failing step's code and message (see ``check_entries``)."""
        keys, values, cells = self.keys, self.values, self.rules.cells
        tell = progress or (lambda done: None)
        if not all(map(cells.__eq__, map(len, keys))) or "".join(keys).translate(_NOT_MARKS):
            return "entry-key", next(filter(None, map(self._key_problem, keys)))
        misshapen = self._facts()
        # the keys with X to move (an even number of marks: ``cells + 1`` plus their empty cells
        # is odd), then those with O to move
        empties = map(str.count, keys, repeat(EMPTY))
        x_moves = list(map(and_, map(add, empties, repeat(cells + 1)), repeat(1)))
        facts = misshapen is None
        groups = [_Group(self, 2, x_moves, facts), _Group(self, 1, list(map(xor, x_moves, repeat(1))), facts)]
        table = bytearray(3**cells)
        total, done = len(keys), 0
        # the first pass: step 12 (13 held over), and every image of every key in the table
        unfit: list[int] = []  # keys failing step 12
        for group in groups:
            for start, ranked, digits in group.runs(cells):
                images = self.images.of(ranked)
                group.ranks.extend(images[0])
                bad = self._unfit(_Boards.of(digits, cells), images)
                if bad:
                    unfit.extend(map(group.places.__getitem__, map(start.__add__, bad)))
                if not unfit and misshapen is None:
                    onto = group.onto[start : start + len(images[0])]
                    for image in images:
                        deque(map(table.__setitem__, image, onto), maxlen=0)
                done += len(images[0])
                tell(done // 2)  # (each pass counts for half)
        if unfit or misshapen is not None:
            tell(total)
            if unfit:
                return "entry-key", self._key_problem(keys[min(unfit)]) or ""
            assert misshapen is not None
            return "entry-shape", f"entry {keys[misshapen]!r}: {_misshapen(values[misshapen], cells)}"
        # the second pass: steps 14 and 15, every move looked up in the table
        missing: set[int] = set()  # entries with a successor that is no entry
        apart: set[int] = set()  # entries next to a best score beyond the bytes' reach
        wrong: set[int] = set()  # entries inconsistent with their successors (the others)
        for group in groups:
            for start, _, digits in group.runs(cells):
                stop = min(start + PROGRESS_ENTRIES, group.count)
                found = self._moves(
                    group.mover,
                    _Boards.of(digits, cells),
                    group.ranks[start:stop],
                    group.bests[start:stop],
                    group.tiers[start * cells : stop * cells],
                    table,
                )
                for found_places, rows in zip((missing, apart, wrong), found, strict=True):
                    if rows:
                        found_places.update(map(group.places.__getitem__, map(start.__add__, rows)))
                done += stop - start
                tell(done // 2)
        if missing:
            return "missing-entry", _missing(self.rules, self.texts, keys[min(missing)])
        if EMPTY * cells not in self.texts:
            return "missing-entry", "has no entry for the empty board"
        if self.wrong:
            wrong.update(place for place, text in enumerate(values) if text in self.wrong)
        wrong -= apart  # (the exact rule decides those)
        wrong.update(place for place in apart if _inconsistency(self.rules, self.texts, keys[place]))
        if wrong:
            return "entry-inconsistent", _inconsistency(self.rules, self.texts, keys[min(wrong)]) or ""
        return None

    def _unfit(self, board: _Boards, images: list[list[int]]) -> list[int]:
        """Step 12 for a run of keys (``board``, whose ranks under every symmetry are
        ``images``): the rows of those with other counts of X and O than a move to make allows,
        finished, or not canonical."""
        count = len(images[0])
        found = _places(board.lead.translate(self.unlike), None)
        found.extend(_places(board.free, 0))  # a full board
        for line in self.rules.lines:
            full = reduce(and_, map(board.lanes.__getitem__, line))  # a lane of 2 (all X) or 1 (all O)
            if full:
                found.extend(_places(full.to_bytes(count), None))
        # an image ranked below its key: each list of ranks as one integer, a lane of at least 32
        # bits a rank, the image's with the lane's top bit set, less the key's: that bit stays
        # where the image is not below
        guards, width = _guards(count), array(_RANKS).itemsize
        keys = int.from_bytes(array(_RANKS, images[0]).tobytes(), sys.byteorder)
        for image in images[1:]:
            ahead = (int.from_bytes(array(_RANKS, image).tobytes(), sys.byteorder) | guards) - keys
            below = (ahead & guards) ^ guards
            if below:
                found.extend(
                    at // width for at in _places(below.to_bytes(width * count, sys.byteorder), None)
                )
        return found

    def _key_problem(self, key: str) -> str | None:
        """Step 12 for one key, as the exact rule: what is wrong with it, or None."""
        cells = self.rules.cells
        if len(key) != cells or key.translate(_NOT_MARKS):
            return f"has entry key {_short(key)}, not {cells} cells of X, O and ."
        x, o = key.count(FIRST), key.count(SECOND)
        if x - o not in (0, 1):
            return f"has entry key {key!r} with {x} X and {o} O"
        if x + o == cells or line_owners(self.rules)(key):
            return f"has entry key {key!r}, a finished board"
        if canonical(self.rules, key)[0] != key:
            return f"has entry key {key!r}, which is not in canonical form"
        return None

    def _facts(self) -> int | None:
        """Step 13: parse each distinct entry string once, keeping what the proof needs of it;
        the place of the first entry that is not a string of the grammar, or None."""
        values, cells = self.values, self.rules.cells
        strings = values if set(map(type, values)) <= {str} else [v for v in values if type(v) is str]
        distinct = list(dict.fromkeys(strings))  # (in file order: the strings lie in memory so)
        try:
            parsed = list(map(parse_entry, distinct, repeat(cells)))
            texts = distinct
        except EntryShapeError:  # (then find every misshapen one)
            maybe = list(map(_parsed, distinct, repeat(cells)))
            texts = list(compress(distinct, maybe))
            parsed = [found for found in maybe if found is not None]
        bests = list(map(itemgetter(0), parsed))
        tiers = list(map(itemgetter(1), parsed))
        masks = list(map(sum, map(map, repeat(_TierMasks().__getitem__), tiers)))
        onto, best = map(_ONTO.get, bests, repeat(_FAR)), map(_BEST.get, bests, repeat(_LEVEL))
        scores = map(bytes, zip(onto, best, strict=True))
        rows = map(bytes.__add__, scores, map(_TierRows(cells).__getitem__, masks))
        self.facts = dict(zip(texts, rows, strict=True))
        # inconsistent whatever the successors say: a best score beyond every move's, or a cell
        # in two tiers (then the tiers' sum of bits is not their union)
        sizes = map(sum, map(map, repeat(len), tiers))
        self.wrong = {text for text, best in zip(texts, bests, strict=True) if best not in _BEST}
        self.wrong.update(compress(texts, map(ne, map(int.bit_count, masks), sizes)))
        if len(texts) == len(distinct) and len(strings) == len(values):
            return None
        return next(
            place for place, text in enumerate(values) if type(text) is not str or text not in self.facts
        )

    def _moves(
        self, mover: int, board: _Boards, ranks: list[int], bests: bytes, tiers: bytes, table: bytearray
    ) -> tuple[set[int], set[int], set[int]]:
        """Steps 14 and 15 for a run of entries with the same side to move (``mover``: its digit),
        their moves looked up in ``table``: ``board`` and ``ranks`` are their keys, ``bests``
        their best scores' bytes, ``tiers`` their tiers' cells (a byte per cell). The rows of
        the run with a successor that is no entry, of those next to a best score beyond the
        bytes' reach (``_FAR``: the exact rule decides them), and of the others inconsistent.

        The moves are taken a cell at a time, over the entries on which it is free: their
        successors' bytes in the table (``moves``), each entry's best byte (``against``) and a
        byte of its tiers (``wanted``), cell after cell in the same order; the difference of
        the first two, read as verdicts (``_VERDICT``), must be the third.
        """
        rules, cells, count = self.rules, self.rules.cells, len(ranks)
        ending = bytes.maketrans(bytes((mover,)), bytes((_LEVEL + one_ply_back(after_line(rules)),)))
        last = int.from_bytes(board.free.translate(_one_at(1)))  # one free cell: the move fills the board
        everywhere = _lanes(mover, count)
        frees, scores = [], []
        for cell, column in enumerate(board.columns):
            free = column.translate(_COUNTS[0])
            taken = int.from_bytes(column.translate(_TAKEN))
            after = memoryview(table)[mover * 3 ** (cells - 1 - cell) :]  # a rank + the mark's place
            found = bytes(map(after.__getitem__, compress(ranks, free)))
            after.release()
            wins = 0  # a lane of ``mover`` where the mover's other marks fill a line through cell
            for line in rules.lines_through[cell]:
                wins |= reduce(and_, (board.lanes[other] for other in line if other != cell), everywhere)
            if wins:
                won = (wins | taken).to_bytes(count).translate(ending, _OFF)
                found = (int.from_bytes(found) | int.from_bytes(won)).to_bytes(len(found))
            if last:
                drawn = int.from_bytes(found.translate(_one_at(0))) & int.from_bytes(
                    (last | taken).to_bytes(count).translate(None, _OFF)
                )
                if drawn:  # the board full, no line: a draw
                    found = (int.from_bytes(found) | drawn * _LEVEL).to_bytes(len(found))
            frees.append(free)
            scores.append(found.translate(_UNFOUND))
        moves = b"".join(scores)
        by_cell = b"".join(board.columns)  # every cell's digits, a cell after another
        keep = int.from_bytes(by_cell.translate(_KEEP_FREE))
        marked = b"".join(tiers[cell::cells] for cell in range(cells))  # a cell after another
        against = (int.from_bytes(bests * cells) & keep).to_bytes(len(marked)).translate(None, b"\0")
        level = _lanes(_LEVEL, len(moves))
        seen = (
            (int.from_bytes(moves) - int.from_bytes(against) + level).to_bytes(len(moves)).translate(_VERDICT)
        )
        wanted = (int.from_bytes(marked.translate(_NONZERO)) & keep).to_bytes(len(marked))
        wanted = wanted.translate(_FROM_NONZERO, b"\0")

        def rows(at: list[int]) -> set[int]:
            """The entries of the moves at places ``at`` of ``moves``."""
            starts, found = list(accumulate(map(len, scores), initial=0)), set()
            for place in at:
                cell = bisect_right(starts, place) - 1
                found.add(list(compress(range(count), frees[cell]))[place - starts[cell]])
            return found

        gaps = rows(_places(moves, _NO_ENTRY))
        apart = rows(_places(moves, _FAR))
        wrong: set[int] = set()
        off_board = int.from_bytes(marked) & ~keep  # a tier on an occupied cell
        if off_board:
            wrong.update(at % count for at in _places(off_board.to_bytes(len(marked)), None))
        if seen != wanted:
            wrong |= rows(_places((int.from_bytes(seen) ^ int.from_bytes(wanted)).to_bytes(len(moves)), None))
        return gaps, apart, wrong


class _Boards:
    """A run of boards as columns: per cell, its digit on each board (``columns``, a byte a
    board; ``lanes``, the same bytes as an integer), and per board, as a byte, ``cells`` plus
    its X less its O (``lead``), and its free cells (``free``)."""

    __slots__ = ("columns", "free", "lanes", "lead")

    def __init__(self, columns: list[bytes]) -> None:
        count, cells = len(columns[0]) if columns else 0, len(columns)
        self.columns = columns
        self.lanes = [int.from_bytes(column) for column in columns]
        free, seconds, firsts = (
            sum(int.from_bytes(column.translate(table)) for column in columns) for table in _COUNTS
        )
        self.free = free.to_bytes(count)
        self.lead = (firsts + _lanes(cells, count) - seconds).to_bytes(count)

    @classmethod
    def of(cls, digits: bytes, cells: int) -> _Boards:
        """The boards of ``digits`` (rows of ``cells`` digits 0 to 2, each followed by a byte)."""
        return cls([digits[cell :: cells + 1] for cell in range(cells)])


class _Group:
    """The entries with one side to move (``mover``: its digit), in file order: their keys as
    the digits of their ranks (``digits``, in ASCII: each key's row followed by a newline),
    their keys' ranks (filled by the first pass), and per entry the facts of its string
    (``_EntryProof._facts``): the byte of a move onto it, its best score's byte and its tiers'
    cells (a byte per cell); their places in the file when a finding asks (``places``)."""

    def __init__(self, proof: _EntryProof, mover: int, chosen: list[int], facts: bool) -> None:
        self.mover, self.chosen = mover, chosen
        keys = list(compress(proof.keys, chosen))
        self.count = len(keys)
        self.digits = ("\n".join(keys) + "\n").encode().translate(_TO_RANK) if keys else b""
        self.ranks: list[int] = []
        self.onto = self.bests = self.tiers = b""
        if facts:  # (every string is of the grammar)
            cells, width = proof.rules.cells, proof.rules.cells + 2
            rows = b"".join(map(proof.facts.__getitem__, compress(proof.values, chosen)))
            self.onto, self.bests = rows[0::width], rows[1::width]
            tiers = bytearray(self.count * cells)
            for cell in range(cells):
                tiers[cell::cells] = rows[2 + cell :: width]
            self.tiers = bytes(tiers)

    @cached_property
    def places(self) -> list[int]:
        """Each entry's place in the file."""
        return list(compress(range(len(self.chosen)), self.chosen))

    def runs(self, cells: int) -> Iterator[tuple[int, bytes, bytes]]:
        """The entries a run of PROGRESS_ENTRIES at a time: the first's row, and their keys'
        digits, in ASCII and as bytes 0 to 2."""
        width = cells + 1
        for start in range(0, self.count, PROGRESS_ENTRIES):
            ranked = self.digits[start * width : (start + PROGRESS_ENTRIES) * width]
            yield start, ranked, ranked.translate(_FROM_RANK)


def _lanes(byte: int, count: int) -> int:
    """``count`` bytes of ``byte`` as an integer."""
    return int.from_bytes(bytes((byte,)) * count)


#: The array type of a list of ranks (every rank is below 3 ** 16 < 2 ** 26): 32 bits or more.
_RANKS = "I" if array("I").itemsize >= 4 else "L"


@cache
def _guards(count: int) -> int:
    """``count`` lanes as ``array(_RANKS).tobytes()`` lays them out, each with its top bit set."""
    top = 1 << 8 * array(_RANKS).itemsize - 1
    return int.from_bytes(array(_RANKS, [top] * count).tobytes(), sys.byteorder)


class _Images:
    """The ranks of boards' images under every symmetry of ``rules``, for whole runs of boards.

    A rank reads the board's digits in base 3; an image's is the sum, over the board's cells,
    of each digit times the place value of the cell it moves to. So the board is cut in two
    halves of cells, and a table per symmetry and half holds that sum for every way the half's
    cells can be filled (3 ** 8 = 6,561 of them for 16 cells): an image's rank is two look-ups
    and an addition.
    """

    def __init__(self, rules: Rules) -> None:
        cells = rules.cells
        self.cells = cells
        #: the place value of the second half's first cell: a rank's two halves are divmod by it
        self.split = 3 ** (cells - cells // 2)
        self.tables: list[tuple[list[int], list[int]]] = []
        for symmetry in rules.symmetries[1:]:
            halves = []
            for cells_of_half in (range(cells // 2), range(cells // 2, cells)):
                table = [0]
                for cell in cells_of_half:  # the first cell the most significant digit of the index
                    value = 3 ** (cells - 1 - symmetry.inverse[cell])
                    table = [partial + digit * value for partial in table for digit in range(3)]
                halves.append(table)
            self.tables.append((halves[0], halves[1]))

    def of(self, digits: bytes) -> list[list[int]]:
        """The ranks of the boards of ``digits`` (rows of ``cells`` digits ``0`` to ``2``, each
        followed by a newline) and of their images, a list per symmetry in ``rules.symmetries``
        order (the identity's first)."""
        rows = digits.split(b"\n")
        rows.pop()  # (after the last newline)
        ranks = list(map(int, rows, repeat(3)))
        firsts = list(map(floordiv, ranks, repeat(self.split)))
        seconds = list(map(mod, ranks, repeat(self.split)))
        images = [ranks]
        for first, second in self.tables:
            images.append(list(map(add, map(first.__getitem__, firsts), map(second.__getitem__, seconds))))
        return images


def _places(data: bytes, byte: int | None) -> list[int]:
    """Where ``data`` holds ``byte`` (None: any byte but 0)."""
    if byte is None:
        return [match.start() for match in re.finditer(rb"[^\x00]", data)]
    found, at = [], data.find(byte)
    while at >= 0:
        found.append(at)
        at = data.find(byte, at + 1)
    return found


class _TierMasks(dict[tuple[Cell, ...], int]):
    """A tier's cells as bits, each tier's once."""

    def __missing__(self, tier: tuple[Cell, ...]) -> int:
        mask = self[tier] = sum(1 << cell for cell in tier)
        return mask


class _TierRows(dict[int, bytes]):
    """A set of cells (as bits) as a byte per cell of the board, 1 on each of them."""

    def __init__(self, cells: int) -> None:
        super().__init__()
        self.cells = cells

    def __missing__(self, mask: int) -> bytes:
        row = self[mask] = bytes(mask >> cell & 1 for cell in range(self.cells))
        return row


def _parsed(text: str, cells: int) -> tuple[int, Tiers] | None:
    """``parse_entry(text, cells)``, or None if ``text`` is not of the grammar."""
    try:
        return parse_entry(text, cells)
    except EntryShapeError:
        return None


#: A move: its cell, the board it makes, that board's canonical key (None if the game ends
#: there), and its score (None if that key is no entry).
Move = tuple[Cell, str, str | None, int | None]


def _successors(rules: Rules, texts: dict[str, Any], key: str) -> list[Move]:
    """Each move of the side to move on ``key`` (an entry's key): its cell, the board it makes,
    that board's canonical key if the game goes on (else None), and the move's score: as the
    game ends, or the best score stored under that key one ply back (None if it is no entry)."""
    mover = side_to_move(key)
    found: list[Move] = []
    for cell, mark in enumerate(key):
        if mark == EMPTY:
            board = put(key, cell, mover)
            ends = end_score(rules, board)
            if ends is not None:
                found.append((cell, board, None, ends))
                continue
            successor = canonical(rules, board)[0]
            text = texts.get(successor)
            score = None if text is None else one_ply_back(parse_entry(text, rules.cells)[0])
            found.append((cell, board, successor, score))
    return found


def _missing(rules: Rules, texts: dict[str, Any], key: str) -> str:
    """Step 14's message for the entry ``key``, one of whose successors has no entry."""
    cell, successor, absent, _ = next(move for move in _successors(rules, texts, key) if move[3] is None)
    return f"has no entry {absent!r} for {successor!r}, the successor of {key!r} by cell {cell}"


def _inconsistency(rules: Rules, texts: dict[str, Any], key: str) -> str | None:
    """Step 15 for the entry ``key``, every successor of which has an entry: what is wrong, or
    None if its best score is the best of its moves' scores and its tiers exactly those moves."""
    best, tiers = parse_entry(texts[key], rules.cells)
    moves = [(cell, score) for cell, _, _, score in _successors(rules, texts, key)]
    truth = max(score for _, score in moves if score is not None)
    optimal = [cell for cell, score in moves if score == truth]
    if best == truth and sorted(cell for tier in tiers for cell in tier) == optimal:
        return None
    if best != truth:
        return f"entry {key!r}: best score {best}, but its successors make it {truth} (cells {optimal})"
    shown = [list(tier) for tier in tiers]
    return f"entry {key!r}: tiers {shown} are not exactly its best moves {optimal}"


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused. The proof makes lists and strings by the run and no
    cycle; the collector's passes over them are time for nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _misshapen(text: Any, cells: int) -> str:
    """What is wrong with an entry's value that is not a string of the grammar."""
    if type(text) is not str:
        return f"is {_json_type(text)}, not a string"
    try:
        parse_entry(text, cells)
    except EntryShapeError as error:
        return f"{_short(text)} {error}"
    raise AssertionError(f"{text!r} follows the grammar")


# ---------------------------------------------------------------- the book's answers


@dataclass(frozen=True, slots=True)
class Entry:
    """One canonical position, as its string and its successors make it: cells are the
    canonical board's; ``scores`` has one item per cell, None where occupied."""

    key: str
    turn: str
    value: int
    plies: int
    scores: tuple[int | None, ...]
    tiers: Tiers

    @property
    def best(self) -> int:
        """The best score of any move."""
        return max(score for score in self.scores if score is not None)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the book says about a board, in that board's own orientation and marks.

    ``cell_scores`` has one score per cell (None on occupied cells) on the book's scale
    (docs/book-format.md): higher is better; ``cells + 1 - p`` is a win in ``p`` plies, its
    negative a loss, 0 a draw. ``tiers`` are the optimal moves in trap order, best first.
    ``turn`` is the mark to move as the game holds it (``first`` moved first); ``key`` and
    ``symmetry`` are where the answer was found: ``symmetry`` maps the board onto ``key``.
    """

    board: str
    first: str
    turn: str
    value: int
    plies: int
    cell_scores: tuple[int | None, ...]
    tiers: Tiers
    key: str
    symmetry: Symmetry

    @property
    def scores(self) -> dict[Cell, int]:
        """Every legal move's score (a new dict each time: the evaluation stays immutable)."""
        return {cell: score for cell, score in enumerate(self.cell_scores) if score is not None}

    @property
    def optimal(self) -> tuple[Cell, ...]:
        """Every optimal move, in increasing order."""
        return tuple(sorted(c for tier in self.tiers for c in tier))

    def outcome(self, cell: Cell) -> tuple[int, int]:
        """(+1 win / 0 draw / -1 loss, plies to the end) if the side to move plays ``cell``."""
        score = self.cell_scores[cell]
        if score is None:
            raise KeyError(cell)
        return decode_score(score, self.board.count(EMPTY), len(self.board))


class Book:
    """A proven book: every entry is consistent with its successors (or the bytes are ones
    proven before: the packaged book's, or a recorded one's: player/tictactoe_book/trust.py).

    Build one with ``load_book`` or ``parse_book``. An entry's move scores are derived from its
    successors' best scores when the entry is first asked for.
    """

    def __init__(self, rules: Rules, data: dict[str, Any], source: str, *, trust: str) -> None:
        self.rules = rules
        self.source = source
        #: why the answers can be trusted: ``"proven"`` (proven when it was loaded),
        #: ``"packaged"`` (the packaged book's bytes, proven when the package was built) or
        #: ``"recorded"`` (bytes proven before on this machine)
        self.trust = trust
        #: the parsed document, for its informational members (``counts``, ``trap_rates``)
        self.data = data
        self._texts: dict[str, str] = data["entries"]
        self._entries: dict[str, Entry] = {}
        self._cache: dict[tuple[str, str], Evaluation] = {}

    def __repr__(self) -> str:
        return f"<Book {self.rules} {len(self._texts)} entries from {self.source}>"

    @property
    def against(self) -> str:
        """The opponent the tiers are ranked against first, as the book states it (its
        ``trap_order.against``; the default opponent, ``"novice"``, when it says nothing)."""
        order = self.data.get("trap_order")
        against = order.get("against", DEFAULT) if isinstance(order, dict) else DEFAULT
        return against if isinstance(against, str) else DEFAULT

    def __len__(self) -> int:
        return len(self._texts)

    def canonical_keys(self) -> list[str]:
        """The canonical keys, in file order."""
        return list(self._texts)

    def entry(self, key: str) -> Entry | None:
        """The entry stored under canonical ``key``, or None if there is none."""
        found = self._entries.get(key)
        if found is None and key in self._texts:
            try:
                found = self._entries[key] = self._derive(key)
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                # only for trusted bytes (packaged, recorded) that were not a proven book after all
                raise BookError(self.source, "entry-shape", f"entry {key!r} is unusable: {error}") from None
        return found

    def _derive(self, key: str) -> Entry:
        """The entry under ``key``: each move scored as the game ends, or one ply back from the
        best score stored for its successor's canonical key."""
        rules = self.rules
        best, tiers = parse_entry(self._texts[key], rules.cells)
        scores: list[int | None] = [None] * rules.cells
        for cell, _, successor, score in _successors(rules, self._texts, key):
            if score is None:
                raise KeyError(successor)
            scores[cell] = score
        value, plies = decode_score(best, key.count(EMPTY), rules.cells)
        return Entry(key, side_to_move(key), value, plies, tuple(scores), tiers)

    def evaluate(self, board: str | Position, *, first: str = FIRST) -> Evaluation:
        """The book's answer for ``board``: a board string (X moved first unless
        ``first="O"``) or a ``Position`` (its own ``first``; RulesError if it is a position of
        other rules than the book's).

        Raises BoardError for a malformed, impossible or finished board (a proven book holds
        every other board), and ValueError for a ``first`` that is not X or O.
        """
        if isinstance(board, Position):
            return self._evaluate_position(board)
        check_mark(first, "first")
        if type(board) is str:
            cached = self._cache.get((board, first))
            if cached is not None:
                return cached
        check_playable(self.rules, board, first)  # errors name the board as the game holds it
        as_book = swap_marks(board) if first == SECOND else board
        key, symmetry = canonical(self.rules, as_book)
        entry = self.entry(key)
        if entry is None:  # only bytes trusted, not proven (a proven book holds every board)
            raise BookError(self.source, "missing-entry", f"has no entry {key!r} for {board!r}")
        perm = symmetry.perm
        cell_scores: list[int | None] = [None] * self.rules.cells
        for cell, score in enumerate(entry.scores):
            cell_scores[perm[cell]] = score
        evaluation = Evaluation(
            board=board,
            first=first,
            turn=entry.turn if first == FIRST else other(entry.turn),
            value=entry.value,
            plies=entry.plies,
            cell_scores=tuple(cell_scores),
            tiers=tuple(tuple(sorted(perm[c] for c in tier)) for tier in entry.tiers),
            key=key,
            symmetry=symmetry,
        )
        self._cache[(board, first)] = evaluation
        return evaluation

    def _evaluate_position(self, position: Position) -> Evaluation:
        if position.rules != self.rules:
            raise RulesError(f"a position of {position.rules} asked of a book for {self.rules}")
        return self.evaluate(position.board, first=position.first)

    def best_moves(self, board: str | Position, *, first: str = FIRST) -> tuple[Cell, ...]:
        """The top tier of the trap order for the side to move (the optimal moves that win most
        often against fallible opponents; the perfect level chooses among them), in increasing
        order, in the board's orientation."""
        return self.evaluate(board, first=first).tiers[0]

    def optimal_moves(self, board: str | Position, *, first: str = FIRST) -> tuple[Cell, ...]:
        """Every optimal move for the side to move, in increasing order, in the board's orientation."""
        return self.evaluate(board, first=first).optimal


def default_book_path(*, misere: bool = False, against: str = DEFAULT) -> str:
    """The book inside the installed package, else the repository's book/ (editable installs):
    the 3x3 book, or with ``misere`` the 3x3 misère book, its moves ranked against ``against``
    (a name of tictactoe_book.opponents.OPPONENTS) first."""
    name = PACKAGED[misere, opponent(against).name]
    here = os.path.dirname(os.path.abspath(__file__))
    packaged = os.path.join(here, name)
    if os.path.isfile(packaged):
        return packaged
    return os.path.join(os.path.dirname(os.path.dirname(here)), "book", name)  # player/tictactoe_book/


def load_book(
    path: str | os.PathLike[str] | None = None,
    *,
    rules: Rules | None = None,
    against: str | None = None,
    progress: Progress | None = None,
) -> Book:
    """Read and prove a book file; BookError naming the file if it cannot be used.

    ``path`` defaults to the packaged 3x3 book (the packaged 3x3 misère book for misère
    ``rules``) whose moves are ranked against ``against`` first: ``"novice"`` (the default), or
    ``"random"`` for the book that wins most often against a random player. A file given by
    ``path`` is read by its own ranking (``Book.against`` says whom its order targets); with
    ``against`` too, ValueError if that is not its ranking (``ttt-book build --against`` writes
    one that is). ``rules`` is the game the caller plays: a book for other rules is refused;
    None (the default) takes the rules the file states. The proof is skipped for bytes proven
    before: the packaged book's recorded bytes (only without ``path``), and a book larger than
    1 MB proven on this machine before (player/tictactoe_book/trust.py); a book larger than 1 MB that proves
    now is recorded. ``progress`` is told how far the load has gone (``Progress``).
    """
    packaged = path is None
    if against is not None:
        opponent(against)  # before the file is read: a misspelt name is the caller's error
    _caller_rules(rules)
    if path is not None:  # a book by parts (docs/book-parts.md): a folder, or its manifest.json
        import tictactoe_book.parts as parts

        if parts.is_book_by_parts(path):
            return parts.load_parts(path, rules=rules, against=against)
    misere = rules is not None and rules.misere
    where = default_book_path(misere=misere, against=against or DEFAULT) if path is None else os.fspath(path)
    raw = read_book_bytes(where)
    if progress is not None:
        progress("read", 0, len(raw))
    why = trust.proven_before(raw, where, packaged=packaged)
    book = None if why is None else _trusted(raw, where, rules, why)
    if book is None:
        book = parse_book(raw, where, rules=rules, progress=progress)
        trust.remember(raw)
    return _ranked(book, against)


def book_for(book: Book | None, against: str | None) -> Book:
    """``book``, else the packaged 3x3 book ranked against ``against`` (novice unless given):
    what a caller offering both arguments plays from. ValueError if ``book`` is ranked against
    another opponent than ``against``, or ``against`` is not a reference opponent."""
    if book is None:
        return load_book(against=against)
    if against is not None:
        opponent(against)
    return _ranked(book, against)


def _ranked(book: Book, against: str | None) -> Book:
    """``book`` if it is ranked against ``against`` (any ranking for None), else ValueError."""
    if against is not None and book.against != against:
        raise ValueError(f"{book.source} ranks its moves against {book.against}, not {against}")
    return book


def parse_book(
    raw: bytes, source: str = "<bytes>", *, rules: Rules | None = None, progress: Progress | None = None
) -> Book:
    """Prove a book from its bytes (steps 2 to 15) and load it; BookError naming ``source``.
    (No record is read or written: ``load_book`` keeps the record, for files.) ``progress`` is
    told how far the proof has gone."""
    _caller_rules(rules)
    data = parse_json(raw, source)
    return Book(prove(data, source, rules, progress=progress), data, source, trust="proven")


def _caller_rules(rules: object) -> None:
    """TypeError unless ``rules``, the game a caller plays, is a Rules or None (a text such as
    "3x3" is for ``Rules.parse``): the caller's mistake, not the book's."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a tictactoe_book.Rules or None, got {echoed(rules)}")


def _trusted(raw: bytes, source: str, expected: Rules | None, why: str) -> Book | None:
    """Bytes proven before (strict JSON included), packaged or recorded: parsed, not proven
    again. Their rules are still checked against the caller's. None if they do not even read
    as a book (a record naming bytes no proof accepted): the caller proves them instead."""
    try:
        data = json.loads(raw)
        stated = data["rules"]
        rules = Rules(stated["rows"], stated["cols"], stated["k"], stated["misere"])
        data["entries"].items()
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if expected is not None and rules != expected:
        raise BookError(source, "rules", f"is a book for {rules}, not {expected}")
    return Book(rules, data, source, trust=why)


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    """A parsed JSON value for a one-line message, as JSON: ASCII only, cut as every echoed
    value is (``tictactoe_book.errors.echoed``)."""
    return echoed(value, _json_ascii)


def _json_ascii(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)
