"""A book by parts (docs/book-parts.md, format version 3): a folder holding a small manifest,
``manifest.json``, and compact parts, each a zlib stream of sorted lines ``KEY ENTRY`` (the
entry string of format version 2) for one layer (number of marks) and one range of keys.

``load_parts`` reads the manifest alone; a position's answer then reads, checks against the
manifest's length and SHA-256, and caches the part holding its canonical key and the parts of
its successors, and nothing else. The answers are version 2's ``Book``'s own: ``PartsBook``
is a ``Book`` whose entries are a mapping that reads parts as it is asked
(``PartTexts``). Every entry answered is first checked against its successors by the
version-2 rule (the definition: ``proof.missing``, ``proof.inconsistency``); ``first_failure``
runs that rule over every entry of every part (the definition of the proof by parts), which
``tictactoe_book.parts_proof.prove_parts`` runs with the proof's accelerator (``ttt-book verify FOLDER``).

The steps and their reason codes are version 2's (tictactoe_book.book_format,
tictactoe_book.proof), with ``parts`` for the manifest's list of parts and ``part-missing``,
``part-hash``, ``part-format`` for a part's file; a message about a part names its file, and
the entry where one is at fault.
"""

from __future__ import annotations

import hashlib
import os
import re
import zlib
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from tictactoe_book.book import Book, Entry, ranked
from tictactoe_book.book_format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_BOOK_BYTES,
    check_header,
    parse_json,
    read_book_bytes,
)
from tictactoe_book.errors import BookError, EntryShapeError
from tictactoe_book.game import EMPTY, MAX_CELLS, Rules
from tictactoe_book.grammar import misshapen, parse_entry, short
from tictactoe_book.proof import Move, inconsistency, key_problem, missing, successors

#: The format version of a book by parts (version 2 is the whole-file book).
PARTS_VERSION = 3
#: The manifest's name in a book's folder.
MANIFEST = "manifest.json"
#: A part's file name: letters, digits, ``_``, ``-`` and ``.``, not starting with ``.``.
PART_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}", re.ASCII)
SHA256 = re.compile(r"[0-9a-f]{64}", re.ASCII)
#: A part's text, decompressed, is at most this long (a bound on a damaged stream).
MAX_PART_TEXT = MAX_BOOK_BYTES
#: Parts held in memory at once by a reader (least recently used first out): a position needs
#: its own part and its successors', at most ``cells + 1``.
CACHED_PARTS = 64


@dataclass(frozen=True, slots=True)
class Part:
    """One item of the manifest's ``parts``: the file, the layer (marks on the board) and the
    range of keys it holds, how many, and its bytes' length and SHA-256."""

    file: str
    layer: int
    first: str
    last: str
    entries: int
    size: int
    sha256: str


# ---------------------------------------------------------------- the manifest


def manifest_path(path: str | os.PathLike[str]) -> str:
    """The manifest of the book at ``path``: a folder's ``manifest.json``, or ``path`` itself."""
    where = os.fspath(path)
    return os.path.join(where, MANIFEST) if os.path.isdir(where) else where


def is_book_by_parts(path: str | os.PathLike[str]) -> bool:
    """Does ``path`` name a book by parts: a folder holding ``manifest.json``, or a file of that
    name? (A folder without one is no book of either version: version 2's reader refuses it.)"""
    where = os.fspath(path)
    return os.path.lexists(os.path.join(where, MANIFEST)) or os.path.basename(where) == MANIFEST


def check_manifest(data: Any, source: str, expected: Rules | None) -> tuple[Rules, tuple[Part, ...]]:
    """Steps 4 to 11 of docs/book-parts.md on the parsed manifest: its rules and parts, or
    BookError with the first failing step's code."""

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    shared = data
    if type(data) is dict and data.get("format") == FORMAT_NAME:
        version = data.get("version")
        if type(version) is not int or version != PARTS_VERSION:
            raise fail("version", f"has format version {short(version)}; this reader reads {PARTS_VERSION}")
        # steps 4 and 6 to 9 are version 2's own, on the members the two versions share
        shared = {**data, "version": FORMAT_VERSION, "entries": {}, "counts": {"entries": 0}}
    rules = check_header(shared, fail, expected, MAX_CELLS)
    parts = _check_parts(data.get("parts"), rules, fail)
    counts = data.get("counts")
    stated = counts.get("entries") if type(counts) is dict else None
    total = sum(part.entries for part in parts)
    if type(stated) is not int or stated != total:
        raise fail("counts", f"has {total} entries in its parts but counts.entries says {short(stated)}")
    return rules, parts


def _check_parts(raw: Any, rules: Rules, fail: Any) -> tuple[Part, ...]:
    """Step 10 (``parts``): the list of parts, each well formed, in order, none overlapping."""
    if type(raw) is not list or not raw:
        raise fail("parts", "has parts that are not a non-empty array")
    parts = []
    for place, item in enumerate(raw):
        problem = _part_problem(item, rules)
        if problem is not None:
            raise fail("parts", f"has parts[{place}] {problem}")
        parts.append(
            Part(item["file"], item["layer"], item["first"], item["last"], item["entries"], item["bytes"],
                 item["sha256"])
        )  # fmt: skip
    for one, two in pairwise(parts):
        if (one.layer, one.last) >= (two.layer, two.first):
            raise fail("parts", f"has part {two.file!r} out of order or overlapping {one.file!r}")
    files = [part.file for part in parts]
    if len(set(files)) != len(files):
        raise fail("parts", "names one file for two parts")
    return tuple(parts)


def _part_problem(item: Any, rules: Rules) -> str | None:
    """What is wrong with one item of ``parts``, or None."""
    if type(item) is not dict:
        return "that is not an object"
    file, layer = item.get("file"), item.get("layer")
    if type(file) is not str or not PART_NAME.fullmatch(file) or file == MANIFEST:
        return f"with file {short(file)}, not a part's file name"
    if type(layer) is not int or not 0 <= layer < rules.cells:
        return f"with layer {short(layer)}, not 0 to {rules.cells - 1}"
    for end in ("first", "last"):
        key = item.get(end)
        if type(key) is not str or not _in_layer(key, rules.cells, layer):
            return f"with {end} {short(key)}, not a board of {rules.cells} cells with {layer} marks"
    if item["first"] > item["last"]:
        return "whose first key is after its last"
    for count in ("entries", "bytes"):
        value = item.get(count)
        if type(value) is not int or not 1 <= value <= MAX_BOOK_BYTES:
            return f"with {count} {short(value)}, not 1 to {MAX_BOOK_BYTES:,}"
    if type(item.get("sha256")) is not str or not SHA256.fullmatch(item["sha256"]):
        return f"with sha256 {short(item.get('sha256'))}, not 64 lowercase hex digits"
    return None


def _in_layer(key: str, cells: int, layer: int) -> bool:
    """Is ``key`` ``cells`` characters of X, O and . with ``layer`` marks?"""
    return len(key) == cells and not key.strip(".OX") and key.count(EMPTY) == cells - layer


# ---------------------------------------------------------------- a part


def read_part(folder: str, part: Part, rules: Rules) -> dict[str, str]:
    """The entries of ``part`` (key: entry string), in key order: its file's bytes checked
    against the manifest (``part-missing``, ``part-hash``), its text against the layout
    (``part-format``) and each entry string against the grammar (``entry-shape``)."""
    texts = part_texts(folder, part, rules)
    check_shapes(texts, os.path.join(folder, part.file), rules)
    return texts


def part_texts(folder: str, part: Part, rules: Rules) -> dict[str, str]:
    """The entries of ``part`` as its file holds them, the bytes and the layout checked."""
    return _layout(part_bytes(folder, part), part, rules.cells, os.path.join(folder, part.file))


def part_bytes(folder: str, part: Part) -> bytes:
    """The bytes of ``part``'s file, checked against the manifest's length and SHA-256
    (``part-missing``, ``part-hash``)."""
    path = os.path.join(folder, part.file)
    try:
        raw = read_book_bytes(path)
    except BookError as error:
        code = "part-missing" if error.code == "unreadable" else "part-hash"
        raise BookError(path, code, f"part {part.file!r}: {error.reason}") from None
    if len(raw) != part.size:
        raise BookError(path, "part-hash", f"is {len(raw):,} bytes; the manifest says {part.size:,}")
    digest = hashlib.sha256(raw).hexdigest()
    if digest != part.sha256:
        raise BookError(path, "part-hash", f"has SHA-256 {digest}; the manifest says {part.sha256}")
    return raw


def check_shapes(texts: dict[str, str], path: str, rules: Rules) -> None:
    """Step 13 (``entry-shape``) for the entries of one part, the first misshapen one named."""
    for key, text in texts.items():
        try:
            parse_entry(text, rules.cells)
        except EntryShapeError:
            raise BookError(path, "entry-shape", f"entry {key!r}: {misshapen(text, rules.cells)}") from None


def _layout(raw: bytes, part: Part, cells: int, path: str) -> dict[str, str]:
    """``part-format``: the part's bytes are one zlib stream of ASCII lines ``KEY ENTRY``, its
    ``entries`` keys of its layer, strictly increasing, from its ``first`` to its ``last``."""

    def fail(reason: str) -> BookError:
        return BookError(path, "part-format", reason)

    stream = zlib.decompressobj()
    try:
        text = stream.decompress(raw, MAX_PART_TEXT + 1)
    except zlib.error as error:
        raise fail(f"is not a zlib stream ({error})") from None
    if len(text) > MAX_PART_TEXT:
        raise fail(f"holds more than {MAX_PART_TEXT:,} bytes of text")
    if not stream.eof or stream.unused_data:
        raise fail("is not exactly one whole zlib stream")
    if not text.isascii() or not text.endswith(b"\n"):
        raise fail("is not ASCII lines, each ending in a newline")
    lines = text.decode().split("\n")
    lines.pop()
    if len(lines) != part.entries:
        raise fail(f"holds {len(lines):,} lines; the manifest says {part.entries:,} entries")
    keys = [line[:cells] for line in lines]
    for line, key in zip(lines, keys, strict=True):
        if line[cells : cells + 1] != " " or not _in_layer(key, cells, part.layer):
            raise fail(f"has line {short(line)}, not a key of {part.layer} marks, a space and an entry")
    if keys[0] != part.first or keys[-1] != part.last:
        raise fail(
            f"holds keys {keys[0]!r} to {keys[-1]!r}; the manifest says {part.first!r} to {part.last!r}"
        )
    bad = next((two for one, two in pairwise(keys) if one >= two), None)
    if bad is not None:
        raise fail(f"has key {bad!r} out of increasing order")
    return dict(zip(keys, (line[cells + 1 :] for line in lines), strict=True))


class PartTexts(Mapping[str, str]):
    """The entries of a book by parts as a mapping (key: entry string), a part read when a key
    of its range is first asked for and kept among the ``limit`` most recently used."""

    def __init__(self, folder: str, rules: Rules, parts: tuple[Part, ...], *, limit: int = CACHED_PARTS):
        self.folder, self.rules, self.parts = folder, rules, parts
        self.limit = max(limit, rules.cells + 2)
        self.cached: OrderedDict[int, dict[str, str]] = OrderedDict()
        #: per layer, the places of its parts in ``parts`` and their first keys
        self.layers: dict[int, tuple[list[int], list[str]]] = {}
        for place, part in enumerate(parts):
            places, firsts = self.layers.setdefault(part.layer, ([], []))
            places.append(place)
            firsts.append(part.first)
        #: how many times a part's file was read (a test counts them)
        self.reads = 0

    def place_of(self, key: str) -> int | None:
        """The place in ``parts`` of the part whose range holds ``key``, or None."""
        places, firsts = self.layers.get(len(key) - key.count(EMPTY), ([], []))
        at = bisect_right(firsts, key) - 1
        if at < 0 or key > self.parts[places[at]].last:
            return None
        return places[at]

    def part(self, place: int) -> dict[str, str]:
        """The entries of the part at ``place``, read and checked when not cached."""
        found = self.cached.get(place)
        if found is None:
            found = read_part(self.folder, self.parts[place], self.rules)
            self.reads += 1
            self.cached[place] = found
            if len(self.cached) > self.limit:
                self.cached.popitem(last=False)
        else:
            self.cached.move_to_end(place)
        return found

    def __getitem__(self, key: str) -> str:
        place = self.place_of(key) if type(key) is str else None
        if place is None:
            raise KeyError(key)
        return self.part(place)[key]

    def __len__(self) -> int:
        return sum(part.entries for part in self.parts)

    def __iter__(self) -> Iterator[str]:
        for place in range(len(self.parts)):
            yield from self.part(place)


# ---------------------------------------------------------------- the book


class PartsBook(Book):
    """A book by parts: version 2's ``Book``, its entries read part by part (``PartTexts``).
    Before an entry first answers, it is checked against its successors by the rule of the
    proof (docs/book-format.md, steps 14 and 15): the parts it reads are checked against the
    manifest, and the answer is consistent with them. ``trust`` is ``"parts"``."""

    def __init__(self, rules: Rules, data: dict[str, Any], source: str, texts: PartTexts) -> None:
        super().__init__(rules, {**data, "entries": texts}, source, trust="parts")
        self.texts = texts
        #: the SHA-256 of the manifest's bytes (which name every part's): the book's identity
        self.manifest_sha256 = ""

    def __repr__(self) -> str:
        parts = len(self.texts.parts)
        return f"<PartsBook {self.rules} {len(self.texts)} entries in {parts} parts from {self.source}>"

    def _derive(self, key: str) -> Entry:
        moves = successors(self.rules, self.texts, key)  # type: ignore[arg-type]  # (a mapping: get and [])
        problem = entry_problem(self.rules, self.texts, key, moves)
        if problem is not None:
            raise problem
        return self._entry_of(key, moves)


def entry_problem(
    rules: Rules, texts: PartTexts, key: str, moves: list[Move] | None = None
) -> BookError | None:
    """Steps 14 and 15 for the entry ``key`` (in a part already read and checked): the error
    naming its part, or None. The parts of its successors are read (and checked) as needed;
    ``moves``: its ``successors``, if the caller has them already."""
    if moves is None:
        moves = successors(rules, texts, key)  # type: ignore[arg-type]  # (a mapping: get and [])
    place = texts.place_of(key)
    assert place is not None
    path = os.path.join(texts.folder, texts.parts[place].file)
    if any(score is None for *_, score in moves):
        return BookError(path, "missing-entry", missing(rules, texts, key, moves))  # type: ignore[arg-type]
    wrong = inconsistency(rules, texts, key, moves)  # type: ignore[arg-type]
    return None if wrong is None else BookError(path, "entry-inconsistent", wrong)


def load_parts(
    path: str | os.PathLike[str], *, rules: Rules | None = None, against: str | None = None
) -> PartsBook:
    """The book by parts at ``path`` (its folder or its manifest), the manifest read and
    checked (no part is read until asked); BookError naming the file if it cannot be used.
    ``rules`` and ``against`` as ``load_book`` takes them."""
    where = manifest_path(path)
    raw = read_book_bytes(where)
    data = parse_json(raw, where)
    stated, parts = check_manifest(data, where, rules)
    book = PartsBook(stated, data, where, PartTexts(os.path.dirname(where) or ".", stated, parts))
    book.manifest_sha256 = hashlib.sha256(raw).hexdigest()
    found = ranked(book, against)
    assert isinstance(found, PartsBook)
    return found


# ---------------------------------------------------------------- the proof by parts, entry by entry


def first_failure(book: PartsBook, *, limit: int = CACHED_PARTS) -> BookError | None:
    """The proof by parts of ``book`` (its manifest checked: ``load_parts``) entry by entry, as
    docs/book-parts.md writes its steps 12 to 18: every part's bytes, layout, keys and entry
    strings, then every entry against its successors (``entry_problem``), at most ``limit``
    parts in memory. The definition of the proof by parts: the BookError of the first failing
    step, naming the first part (and entry) in manifest order that fails it, or None.
    ``tictactoe_book.parts_proof.prove_parts`` finds the same with the proof's accelerator,
    layer by layer (tests/test_parts_proof.py holds the two to the same findings)."""
    rules, texts = book.rules, book.texts
    first: dict[str, BookError] = {}  # the first finding of each step, in manifest order
    for part in texts.parts:
        path_of_part = os.path.join(texts.folder, part.file)
        try:
            entries = part_texts(texts.folder, part, rules)
            problem = next(filter(None, (key_problem(rules, key) for key in entries)), None)
            if problem is not None:
                first.setdefault("entry-key", BookError(path_of_part, "entry-key", problem))
            check_shapes(entries, path_of_part, rules)
        except BookError as error:
            first.setdefault(error.code, error)
    found = _first_of(first, ("part-missing", "part-hash", "part-format", "entry-key", "entry-shape"))
    if found is not None:
        return found
    if texts.place_of(EMPTY * rules.cells) is None or EMPTY * rules.cells not in texts:
        return BookError(book.source, "missing-entry", NO_EMPTY_BOARD)
    texts.limit = max(limit, rules.cells + 2)
    for place in range(len(texts.parts)):
        for key in texts.part(place):
            found = entry_problem(rules, texts, key)
            if found is not None:
                first.setdefault(found.code, found)
                if found.code == "missing-entry":
                    return found
    return first.get("entry-inconsistent")


#: The message of a book by parts without the empty board.
NO_EMPTY_BOARD = "has no entry for the empty board"


def _first_of(found: dict[str, BookError], codes: tuple[str, ...]) -> BookError | None:
    """The finding of the earliest of ``codes`` in ``found``, if any."""
    return next((found[code] for code in codes if code in found), None)
