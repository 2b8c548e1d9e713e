"""Prove a parsed book: steps 4 to 15 of docs/book-format.md, "A valid book".

The reader derives the winning lines and the symmetries from ``rows``, ``cols`` and ``k`` and
compares the file's copies with them (steps 4 to 11, ``check_header``), then checks every entry
on its own (steps 12 to 15, ``EntryChecker``): its key is a board with a move to make, in
canonical form; its string follows the grammar; every successor that does not finish the game
has an entry; and each move's score, the successor's stored best score moved one ply
(player/entry.py), makes the entry's best score and tiers. By induction on the number of empty
cells, a book that passes is the truth, whoever wrote it.

An entry's check reads only its successors' stored strings, so the entries are checked in
independent spans, in a pool of processes (``concurrent.futures``) for a book of more than
``PARALLEL_ABOVE`` entries: one worker per core. The book is refused with the reason code of
the first failing step over the whole book, naming the first entry in file order that fails
that step, whichever worker finds it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import threading
from bisect import bisect_right
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from multiprocessing import get_all_start_methods, get_context
from typing import TYPE_CHECKING, Any

from player.board import EMPTY, FIRST, SECOND, canonicalizer, line_owners
from player.board_codes import board_codes
from player.entry import EntryShapeError, end_score, one_ply_back, parse_entry
from player.errors import BOOK_REASONS, BookError
from player.format import CANONICAL_RULE, FORMAT_NAME, FORMAT_VERSION
from player.rules import Cell, Rules, RulesError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from multiprocessing.synchronize import Event

    Fail = Callable[[str, str], BookError]

#: Books of more entries than this are proven by a pool of processes, one per core.
PARALLEL_ABOVE = 100_000


@dataclass(frozen=True, slots=True)
class ProvenBook:
    """What a proof leaves: the rules the book is for."""

    rules: Rules


def prove(data: Any, source: object, expected: Rules | None, *, workers: int | None = None) -> ProvenBook:
    """Steps 4 to 15 on parsed JSON ``data``; BookError with the first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    ``workers``: how many processes check the entries (None: one per core for a book of more
    than PARALLEL_ABOVE entries, else this process alone).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    checker = EntryChecker(rules, data["entries"])
    if workers is None:
        workers = cores() if len(checker.keys) > PARALLEL_ABOVE else 1
    found = checker.check_all(workers)
    if found is not None:
        raise fail(found[2], found[3])
    return ProvenBook(rules)


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

    def __init__(self, rules: Rules, texts: dict[str, Any]) -> None:
        self.rules = rules
        self.texts = texts
        #: the keys in file order: a finding names the first one
        self.keys = list(texts)
        cells = rules.cells
        layers: list[list[int]] = [[] for _ in range(cells + 1)]
        for index, key in enumerate(self.keys):  # (a key that is no board: anywhere)
            layers[max(0, min(cells - key.count(EMPTY), cells))].append(index)
        #: the places of the keys in ``keys``, the fullest layer first, file order within one
        self.order = [index for layer in reversed(layers) for index in layer]
        #: where the layer of each number of marks starts and ends in ``order``
        self.starts = [sum(map(len, layers[marks + 1 :])) for marks in range(rules.cells + 1)]
        self.ends = [start + len(layer) for start, layer in zip(self.starts, layers, strict=True)]
        self._codes = board_codes(rules)
        self._code, self._images = self._codes.code, self._codes.images
        self._owners = line_owners(rules)
        # a code's occupied cells, one bit each (the low bit of the cell's digit)
        self._low_bits = int("01" * rules.cells, 2)
        #: per set of occupied cells: the free cells, and what a move on each adds to a code
        self._moves: dict[int, tuple[list[Cell], list[int]]] = {}
        #: per distinct entry string: its best score, its optimal moves in increasing order,
        #: and the score of a move onto its key (None: not a string of the grammar)
        self._facts: dict[str, tuple[int, list[Cell], int] | None] = {}

    def check_all(self, workers: int) -> Finding | None:
        """The book's finding over every entry (and the empty board's), or None if it proves.

        With more than one worker, the entries are cut into as many spans of equal size and
        checked in a pool of processes (``_in_pool``)."""
        found: list[Finding | None] = []
        if EMPTY * self.rules.cells not in self.texts:
            found.append(
                (_RANK["missing-entry"], len(self.keys), "missing-entry", "has no entry for the empty board")
            )
        spans = self.spans(workers)
        if workers > 1:
            try:
                found.extend(_in_pool(self, spans, workers))
            except (OSError, BrokenProcessPool):  # no process to be had, or one died: check here
                found.extend(self.check(span) for span in spans)
        else:
            found.extend(self.check(span) for span in spans)
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
                for place in range(start, end):
                    index = self.order[place]
                    found = self._entry(index, onto, below)
                    if found is not None:
                        finding = (_RANK[found[0]], index, *found)
                        if first is None or finding < first:
                            first = finding
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
        absent = canonicalizer(self.rules)(successor)[0]
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


def _in_pool(checker: EntryChecker, spans: list[Span], workers: int) -> list[Finding | None]:
    """Each span's finding, in the order of ``spans``, checked by ``workers`` processes.

    The workers start with the checker (forked where the platform can: the parsed book is not
    copied) and ignore Ctrl-C: the parent answers it. Nothing outlives the proof: a worker ends
    itself when the parent is gone (killed) or abandons the proof (interrupted, or failed).
    All of them start in the first ``map`` submission, with SIGINT blocked, so that none is
    interrupted before it ignores it.
    """
    context = get_context("fork" if "fork" in get_all_start_methods() else None)
    abandoned = context.Event()
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(checker, os.getpid(), abandoned)
    ) as pool:
        try:
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                results = pool.map(_check_in_worker, spans)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            return list(results)
        except BaseException:
            abandoned.set()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


_WORKER: EntryChecker | None = None


def _start_worker(checker: EntryChecker, parent: int, abandoned: Event) -> None:
    """A worker's start: ignore Ctrl-C, watch the parent, keep the checker."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_watch, args=(parent, abandoned), daemon=True).start()
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


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _short(value: Any, limit: int = 60) -> str:
    """A parsed JSON value for a one-line message, as JSON: ASCII only, cut to ``limit``."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
