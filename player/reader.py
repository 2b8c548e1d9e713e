"""The reader: a book file's bytes proven and then asked about, in the order of
docs/book-format.md, step for step beside clients/js/tictactoe-book.js.

1. the bytes of a regular file (``read_book_bytes``);
2. and 3. strict JSON within limits (``parse_json``);
4. to 11. the header: format, version, canonical rule, rules, and the winning lines and
   symmetries the reader derives from the rules and compares with the file's (``check_header``);
12. to 15. every entry on its own (``EntryChecker``): its key is a board with a move to make, in
   canonical form; its string follows the grammar of *An entry* (``parse_entry``); every
   successor that does not finish the game has an entry; and each move's score, the successor's
   stored best score one ply back (``tictactoe_book.game.one_ply_back``), makes the entry's best score and
   tiers. By induction on the number of empty cells, a book that passes is the truth, whoever
   wrote it.

Then ``Book.evaluate(board)`` looks the board up under its canonical key, scores every move
from the successors' entries, and maps the answer back onto the board's own orientation and
marks. ``load_book`` reads a file (the packaged book by default) and proves it, unless its exact
bytes were proven before (player/trust.py); ``parse_book`` proves bytes.

An entry's check reads only its successors' stored strings, so a big book's entries are
checked in independent spans by a pool of processes (``concurrent.futures``), one worker per
core; the finding is the first failing step's, naming the first entry in file order that fails
it, whichever worker found it.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import json
import os
import re
import signal
import stat
import threading
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, chain, repeat
from typing import TYPE_CHECKING, Any

import tictactoe_book.trust as trust
from tictactoe_book.codes import board_codes, canonical
from tictactoe_book.errors import BOOK_REASONS, BookError, EntryShapeError, RulesError, echoed
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Position,
    Rules,
    Symmetry,
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
    from multiprocessing.sharedctypes import Synchronized
    from multiprocessing.synchronize import Event

    Fail = Callable[[str, str], BookError]
    #: How far a load has gone, for an app to show: ``progress(stage, done, total)``, the
    #: solver's shape (tictactoe_book.generator.solve.Progress). ``"read"`` once the file's bytes are read
    #: (done 0 of its size in bytes: parsing them follows), then, if it is proven, ``"index"``
    #: (entries sorted by layer for the proof, of the book's entries, from 0 to all) and
    #: ``"prove"`` (entries checked of the book's entries) from 0 as the proof starts to all as
    #: it ends.
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
#: Books of more entries than this are proven by a pool of processes, one per core.
PARALLEL_ABOVE = 100_000
#: A proof's progress is told after each run of this many entries checked, and from a pool every
#: PROGRESS_SECONDS: about 280 steps for 4x4, none but the last for 3x3 (627 entries).
PROGRESS_ENTRIES = 4096
PROGRESS_SECONDS = 0.1
#: Sorting the keys into layers before a proof is told after each run of this many keys: 18
#: steps for 4x4, which take seconds; one for 3x3.
INDEX_STEP = 65536


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
    cell_of = _cell_numbers(cells)
    tiers: list[tuple[Cell, ...]] = []
    for part in rest.split(" "):
        if "," not in part:
            cell = cell_of.get(part)
            if cell is None:
                raise EntryShapeError(_bad_cell(part, cells))
            tiers.append((cell,))
            continue
        tier: list[Cell] = []
        for item in part.split(","):
            cell = cell_of.get(item)
            if cell is None:
                raise EntryShapeError(_bad_cell(item, cells))
            if tier and cell <= tier[-1]:
                raise EntryShapeError(f"has tier {_show(part)}, not in increasing order")
            tier.append(cell)
        tiers.append(tuple(tier))
    return best, tuple(tiers)


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


def prove(
    data: Any,
    source: object,
    expected: Rules | None,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
) -> Rules:
    """Steps 4 to 15 on parsed JSON ``data``: the rules the book is for, or BookError with the
    first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    ``workers``: how many processes check the entries (None: one per core for a book of more
    than PARALLEL_ABOVE entries, else this process alone). ``progress`` is told the entries
    checked (stage ``"prove"``).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    entries = data["entries"]
    indexed = None if progress is None else lambda done: progress("index", done, len(entries))
    checker = EntryChecker(rules, entries, progress=indexed)
    if workers is None:
        workers = cores() if len(checker.keys) > PARALLEL_ABOVE else 1
    total = len(checker.keys)
    if progress is not None:
        progress("prove", 0, total)
    found = checker.check_all(
        workers, None if progress is None else lambda done: progress("prove", done, total)
    )
    if found is not None:
        raise fail(found[2], found[3])
    return rules


#: What an entry's check finds wrong: the rank of its step, the entry's place in the file, the
#: reason code and the message. The smallest is the book's (``min``: the first step, then the
#: first entry).
Finding = tuple[int, int, str, str]
_RANK = {code: rank for rank, code in enumerate(BOOK_REASONS)}
_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)
#: Not scores (a score is within 2**53 - 1): what a look-up of a successor gives when it is no
#: image of an entry, and when it is one of a misshapen entry (step 13 refuses the book then,
#: whatever the other entries say). Both are beyond every score, so a key's largest move score
#: tells whether it met either.
_UNKNOWN = 2**62
_MISSHAPEN = 2**61
_NOT_PARSED: tuple[int, list[Cell], int] = (0, [], 0)  # (by identity: a string not parsed yet)


#: Part of the entries, by place in ``EntryChecker.order``: ``(start, stop)``.
Span = tuple[int, int]


class EntryChecker:
    """Steps 12 to 15 for the entries of one book, in spans (``check``).

    A successor has one mark more than its key, so checking the keys with ``m`` marks needs
    only the entries with ``m + 1``. The checker takes the keys layer by layer, the fullest
    first (``order``), and keeps the layer above indexed: each of its entries under every image
    of its key (``onto``), with the score of a move onto it. A move's score is then one look-up
    of the successor as it stands: found, it is an image of that entry's key, so its canonical
    key is that one; not found, it finishes the game or has no entry. Checking a layer indexes
    it for the next; a span that starts inside a layer indexes the layer above it, and the
    part of its own first layer it does not check, before it starts.
    """

    def __init__(
        self, rules: Rules, texts: dict[str, Any], *, progress: Callable[[int], None] | None = None
    ) -> None:
        """``progress`` is told how many keys are sorted into their layers (a 4x4 book's take
        seconds), from 0 to all, in steps of INDEX_STEP."""
        self.rules = rules
        self.texts = texts
        #: the keys in file order: a finding names the first one
        self.keys = list(texts)
        cells = rules.cells
        self._codes = board_codes(rules)
        layers: list[list[int]] = [[] for _ in range(cells + 1)]
        for start in range(0, len(self.keys), INDEX_STEP):
            if progress is not None:
                progress(start)
            for index, key in enumerate(self.keys[start : start + INDEX_STEP], start):
                layers[max(0, min(cells - key.count(EMPTY), cells))].append(index)  # (no board: anywhere)
        #: the places of the keys in ``keys``, the fullest layer first, file order within one
        self.order = [index for layer in reversed(layers) for index in layer]
        #: where the layer of each number of marks starts and ends in ``order``
        self.starts = [sum(map(len, layers[marks + 1 :])) for marks in range(rules.cells + 1)]
        self.ends = [start + len(layer) for start, layer in zip(self.starts, layers, strict=True)]
        if progress is not None:
            progress(len(self.keys))
        self._code, self._images = self._codes.code, self._codes.images
        self._owners = line_owners(rules)
        # a code's occupied cells, one bit each (the low bit of the cell's digit)
        self._low_bits = int("01" * rules.cells, 2)
        #: per set of occupied cells: the free cells, and what a move on each adds to a code
        self._moves: dict[int, tuple[list[Cell], list[int]]] = {}
        #: per distinct entry string: its best score, its optimal moves in increasing order,
        #: and the score of a move onto its key (None: not a string of the grammar)
        self._facts: dict[str, tuple[int, list[Cell], int] | None] = {}
        #: told how many more entries ``check`` has checked, after each PROGRESS_ENTRIES (None:
        #: nobody asked; in a pool's worker, the count the parent reads)
        self.advance: Callable[[int], None] | None = None

    def check_all(self, workers: int, progress: Callable[[int], None] | None = None) -> Finding | None:
        """The book's finding over every entry (and the empty board's), or None if it proves.

        With more than one worker, the entries are cut into as many spans of equal size and
        checked in a pool of processes (``_in_pool``). ``progress`` is told the number of
        entries checked so far, now and then."""
        found: list[Finding | None] = []
        if EMPTY * self.rules.cells not in self.texts:
            found.append(
                (_RANK["missing-entry"], len(self.keys), "missing-entry", "has no entry for the empty board")
            )
        spans = self.spans(workers)
        pooled = _in_pool(self, spans, workers, progress) if workers > 1 else None
        if pooled is None:  # one worker, or no pool could be had
            self.advance = None if progress is None else _running_total(progress)
            try:
                pooled = [self.check(span) for span in spans]
            finally:
                self.advance = None
        found.extend(pooled)
        return min((finding for finding in found if finding is not None), default=None)

    def spans(self, workers: int) -> list[Span]:
        """``order`` cut into at most ``workers`` spans of about equal work, counted in the
        dictionary operations of ``check``: per key checked, one look-up per free cell and one
        entry per image; per key indexed only (the layer above a span's start, and its first
        layer's keys before it), one entry per image."""
        count, images = len(self.order), len(self.rules.symmetries)
        if workers <= 1 or count == 0:
            return [(0, count)]
        cells = self.rules.cells
        per_key = (repeat(images + cells - m, self.ends[m] - self.starts[m]) for m in range(cells, -1, -1))
        work = [0, *accumulate(chain.from_iterable(per_key))]  # of the keys before each place

        def overhead(start: int) -> int:
            """The work of indexing what a span from ``start`` does not check itself."""
            marks = self._marks_at(start)
            above = self.ends[marks + 1] - self.starts[marks + 1] if marks < self.rules.cells else 0
            return images * (above + start - self.starts[marks])

        def cut(most: int) -> list[Span]:
            """Spans of at most ``most`` work each (one key at least), as long as they can be."""
            spans, start = [], 0
            while start < count:
                stop = bisect_right(work, work[start] + most - overhead(start)) - 1
                spans.append((start, max(stop, start + 1)))
                start = spans[-1][1]
            return spans

        low, high = work[count] // workers, work[count]
        while low < high:  # the least work per span that needs no more than ``workers`` spans
            middle = (low + high) // 2
            if len(cut(middle)) <= workers:
                high = middle
            else:
                low = middle + 1
        return cut(low)

    def _marks_at(self, place: int) -> int:
        """The number of marks of the key at ``place`` in ``order``."""
        return next(m for m in range(self.rules.cells + 1) if self.starts[m] <= place < self.ends[m])

    def check(self, span: Span) -> Finding | None:
        """The first finding among the entries of ``span`` (by step, then by place)."""
        start, stop = span
        first: Finding | None = None
        if start >= stop:
            return first
        marks = self._marks_at(start)
        with _collector_paused():
            above = marks + 1
            onto = self._index(self.starts[above], self.ends[above]) if above <= self.rules.cells else {}
            while start < stop:
                end = min(stop, self.ends[marks])  # where this layer ends in the span
                # the next layer's successors are this whole layer: the part before the span
                # indexed now, the rest as it is checked (none for the span's last layer)
                below = None if end == stop else self._index(self.starts[marks], start)
                advance = self.advance
                step = PROGRESS_ENTRIES if advance is not None else max(end - start, 1)
                for run in range(start, end, step):  # (one run when no one is told)
                    for place in range(run, min(run + step, end)):
                        index = self.order[place]
                        found = self._entry(index, onto, below)
                        if found is not None:
                            finding = (_RANK[found[0]], index, *found)
                            if first is None or finding < first:
                                first = finding
                    if advance is not None:
                        advance(min(run + step, end) - run)
                onto, start, marks = below or {}, end, marks - 1
        return first

    def _index(self, start: int, stop: int) -> dict[int, int]:
        """Every image of the keys at places ``start`` to ``stop - 1`` of ``order``, each with
        the score of a move onto it (``_MISSHAPEN`` for a misshapen entry; a key that is no
        board is skipped: its own check finds it)."""
        onto: dict[int, int] = {}
        for place in range(start, stop):
            key = self.keys[self.order[place]]
            if len(key) == self.rules.cells and not key.translate(_NOT_MARKS):
                self._add(onto, key, self._codes.images(self._codes.code(key)))
        return onto

    def _add(self, onto: dict[int, int], key: str, orbit: list[int]) -> None:
        """Index ``key`` (whose images are ``orbit``) in ``onto``."""
        facts = self._facts_of(self.texts[key])
        score = _MISSHAPEN if facts is None else facts[2]
        for image in orbit:
            onto[image] = score

    def _entry(
        self, index: int, onto: dict[int, int], below: dict[int, int] | None
    ) -> tuple[str, str] | None:
        """What is wrong with the entry at ``index`` at its earliest failing step, as a reason
        code and a message; None if nothing is. ``onto`` indexes the layer above; the entry's
        key is indexed in ``below`` if given."""
        key = self.keys[index]
        cells = self.rules.cells
        # step 12: the key is a board with a move to make, in canonical form
        if len(key) != cells or key.translate(_NOT_MARKS):
            return "entry-key", f"has entry key {_short(key)}, not {cells} cells of X, O and ."
        code = self._code(key)
        low_bits = self._low_bits
        x, o = (code >> 1 & low_bits).bit_count(), (code & low_bits).bit_count()  # X is 2, O is 1
        if x - o not in (0, 1):
            return "entry-key", f"has entry key {key!r} with {x} X and {o} O"
        if x + o == cells or self._owners(key):
            return "entry-key", f"has entry key {key!r}, a finished board"
        orbit = self._images(code)
        text = self.texts[key]
        facts = self._facts.get(text, _NOT_PARSED) if type(text) is str else None
        if facts is _NOT_PARSED:
            facts = self._facts_of(text)
        if below is not None:
            score = _MISSHAPEN if facts is None else facts[2]
            for image in orbit:
                below[image] = score
        if min(orbit) < code:
            return "entry-key", f"has entry key {key!r}, which is not in canonical form"
        # step 13: the string follows the grammar
        if facts is None:
            return "entry-shape", f"entry {key!r}: {_misshapen(text, cells)}"
        # step 14: every successor that does not finish the game has an entry; step 15: each
        # move scores its successor's best score one ply back (or as the game ends there), and
        # the entry is the best of them and the moves that reach it
        occupied = (code | code >> 1) & low_bits
        free, added = self._moves.get(occupied) or self._free_moves(occupied, key, x == o)
        look_up = onto.get
        scores = [look_up(code + move, _UNKNOWN) for move in added]
        truth = max(scores)
        if truth >= _MISSHAPEN:
            mover = FIRST if x == o else SECOND
            for at, cell in enumerate(free):
                if scores[at] == _UNKNOWN:
                    ends = end_score(self.rules, key[:cell] + mover + key[cell + 1 :])
                    if ends is None:
                        return "missing-entry", self._missing(key, cell, mover)
                    scores[at] = ends
            truth = max(scores)
            if truth >= _MISSHAPEN:
                return None  # a successor's entry is misshapen: step 13 refuses the book
        best, flat, _ = facts
        if best == truth and flat == [
            cell for cell, score in zip(free, scores, strict=True) if score == best
        ]:
            return None
        return "entry-inconsistent", self._inconsistency(key, text, free, scores)

    def _free_moves(self, occupied: int, key: str, x_to_move: bool) -> tuple[list[Cell], list[int]]:
        """The free cells of the boards with ``key``'s occupied cells, and what a move of the
        side to move there adds to a code."""
        mark = FIRST if x_to_move else SECOND
        free = [cell for cell, mark in enumerate(key) if mark == EMPTY]
        moves = self._moves[occupied] = free, [self._codes.placed(mark, cell) for cell in free]
        return moves

    def _facts_of(self, text: Any) -> tuple[int, list[Cell], int] | None:
        """An entry string's best score, its optimal moves in increasing order and the score of
        a move onto its key; None if it is not a string of the grammar (each distinct string
        parsed once)."""
        if type(text) is not str:
            return None
        facts = self._facts.get(text, _NOT_PARSED)
        if facts is not _NOT_PARSED:
            return facts
        try:
            best, tiers = parse_entry(text, self.rules.cells)
        except EntryShapeError:
            facts = None
        else:
            # each tier is increasing (the grammar), so once sorted and equal to a key's optimal
            # moves in increasing order, the tiers hold each of them exactly once
            flat = list(tiers[0]) if len(tiers) == 1 else sorted(c for tier in tiers for c in tier)
            facts = best, flat, one_ply_back(best)
        self._facts[text] = facts
        return facts

    def _missing(self, key: str, cell: Cell, mover: str) -> str:
        """Step 14's message: the successor of ``key`` by ``cell`` has no entry."""
        successor = key[:cell] + mover + key[cell + 1 :]
        absent = canonical(self.rules, successor)[0]
        return f"has no entry {absent!r} for {successor!r}, the successor of {key!r} by cell {cell}"

    def _inconsistency(self, key: str, text: str, free: list[Cell], scores: list[int]) -> str:
        """Step 15's message for an entry that does not follow from its moves' scores."""
        best, tiers = parse_entry(text, self.rules.cells)
        truth = max(scores)
        optimal = [cell for cell, score in zip(free, scores, strict=True) if score == truth]
        if best != truth:
            return f"entry {key!r}: best score {best}, but its successors make it {truth} (cells {optimal})"
        shown = [list(tier) for tier in tiers]
        return f"entry {key!r}: tiers {shown} are not exactly its best moves {optimal}"


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused. Checking an entry makes a few small lists and
    tuples and no cycle; the passes the collector made over the millions of them took an eighth
    of a 4x4 proof's time (docs/benchmarks.md)."""
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


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _in_pool(
    checker: EntryChecker, spans: list[Span], workers: int, progress: Callable[[int], None] | None = None
) -> list[Finding | None] | None:
    """Each span's finding, in the order of ``spans``, checked by ``workers`` processes; None if
    no process could be had, or one died (then this process checks them). ``progress`` is told
    every PROGRESS_SECONDS the entries the workers have checked, which they count in shared
    memory as they go.

    The workers start with the checker (forked where the platform can: the parsed book is not
    copied) and ignore Ctrl-C: the parent answers it. Nothing outlives the proof: a worker ends
    itself when the parent is gone (killed) or abandons the proof (interrupted, or failed).
    All of them start with the first submission, with SIGINT blocked, so that none is
    interrupted before it ignores it.

    The pool's modules are imported here, not with the reader: only a book of more than
    PARALLEL_ABOVE entries needs them, and they would cost every start of the player a fifth
    of its time (docs/benchmarks.md, "Start-up").
    """
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing import get_all_start_methods, get_context

    context = get_context("fork" if "fork" in get_all_start_methods() else None)
    abandoned = context.Event()
    checked = None if progress is None else context.Value("q", 0)
    try:
        with ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(checker, os.getpid(), abandoned, checked),
        ) as pool:
            try:
                blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    results = [pool.submit(_check_in_worker, span) for span in spans]
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                timeout = None if checked is None else PROGRESS_SECONDS
                while True:
                    waited = wait(results, timeout, FIRST_EXCEPTION)
                    if progress is not None and checked is not None:
                        progress(checked.value)
                    if not waited.not_done or any(result.exception() for result in waited.done):
                        break
                return [result.result() for result in results]
            except BaseException:
                # the workers end themselves within 0.2 s; the pool's thread is joined before the
                # error goes on (left running, it races the interpreter's exit for its pipe)
                abandoned.set()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    except (OSError, BrokenProcessPool):
        return None


def _running_total(progress: Callable[[int], None]) -> Callable[[int], None]:
    """``advance(entries)``, telling ``progress`` the entries checked so far."""
    done = 0

    def advance(entries: int) -> None:
        nonlocal done
        done += entries
        progress(done)

    return advance


_WORKER: EntryChecker | None = None


def _start_worker(
    checker: EntryChecker, parent: int, abandoned: Event, checked: Synchronized[int] | None
) -> None:
    """A worker's start: ignore Ctrl-C, SIGTERM and SIGHUP, which a terminal or a supervisor
    sends the whole group (the parent ends the proof on them, player/apps/signals.py, and this
    worker with it; one ended while it held the lock of ``abandoned`` or ``checked`` would hang
    the parent), watch the parent, keep the checker, and count the entries it checks in
    ``checked`` (if the parent shows a proof's progress)."""
    global _WORKER
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_watch, args=(parent, abandoned), daemon=True).start()
    if checked is not None:

        def advance(entries: int) -> None:
            with checked.get_lock():
                checked.value += entries

        checker.advance = advance
    _WORKER = checker


def _watch(parent: int, abandoned: Event) -> None:
    """End this worker at once when its parent is gone or has abandoned the proof (else it
    would finish its span for nothing, or, orphaned, wait on the pool's queue forever)."""
    while os.getppid() == parent and not abandoned.wait(0.2):
        pass
    os._exit(1)


def _check_in_worker(span: Span) -> Finding | None:
    assert _WORKER is not None
    return _WORKER.check(span)


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
    proven before: the packaged book's, or a recorded one's: player/trust.py).

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
        mover = side_to_move(key)
        scores: list[int | None] = [None] * rules.cells
        for cell, mark in enumerate(key):
            if mark == EMPTY:
                child = put(key, cell, mover)
                ends = end_score(rules, child)
                if ends is None:
                    stored = self._texts[canonical(rules, child)[0]]
                    ends = one_ply_back(parse_entry(stored, rules.cells)[0])
                scores[cell] = ends
        value, plies = decode_score(best, key.count(EMPTY), rules.cells)
        return Entry(key, mover, value, plies, tuple(scores), tiers)

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
    return os.path.join(os.path.dirname(here), "book", name)


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
    1 MB proven on this machine before (player/trust.py); a book larger than 1 MB that proves
    now is recorded. ``progress`` is told how far the load has gone (``Progress``).
    """
    packaged = path is None
    if against is not None:
        opponent(against)  # before the file is read: a misspelt name is the caller's error
    _caller_rules(rules)
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
