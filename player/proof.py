"""Prove a parsed book: steps 4 to 15 of docs/book-format.md, "A valid book".

The reader derives the winning lines and the symmetries from ``rows``, ``cols`` and ``k`` and
compares the file's copies with them, then checks every entry against its successors: each
move's score is the successor's best score moved one ply (player/entry.py), the entry's best
score must be the best of them, and its tiers exactly the moves that reach it. By induction on
the number of empty cells, a book that passes is the truth, whoever wrote it. The reason code
is the first failing step's over the whole book (keys, shapes, successors present,
consistency), so it does not depend on the order the file lists the entries in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import itemgetter

from player.board import EMPTY, FIRST, SECOND, canonicalizer, winner
from player.entry import EntryShapeError, one_ply_back, parse_entry, successors
from player.errors import BookError
from player.format import CANONICAL_RULE, FORMAT_NAME, FORMAT_VERSION
from player.rules import Cell, Rules, RulesError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Fail = Callable[[str, str], BookError]


@dataclass(frozen=True, slots=True)
class ProvenBook:
    """What a proof leaves: the rules, and every entry's best score keyed by canonical board."""

    rules: Rules
    bests: dict[str, int]


def prove(data: Any, source: object, expected: Rules | None) -> ProvenBook:
    """Steps 4 to 15 on parsed JSON ``data``; BookError with the first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    texts: dict[str, Any] = data["entries"]
    layers = _check_keys(rules, texts, fail)
    bests, misshapen = _parse_entries(rules, texts, fail)
    missing, inconsistent = _check_successors(rules, texts, layers, bests, fail)
    if EMPTY * rules.cells not in texts:
        missing = missing or fail("missing-entry", "has no entry for the empty board")
    for error in (misshapen, missing, inconsistent):
        if error is not None:
            raise error
    return ProvenBook(rules, bests)


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


def _check_keys(rules: Rules, texts: dict[str, Any], fail: Fail) -> list[list[str]]:
    """Step 12, but for canonical form (checked layer by layer in ``_check_successors``, where
    the images are made anyway): every key is a board with a move to make. Returns the keys by
    number of marks."""
    cells = rules.cells
    layers: list[list[str]] = [[] for _ in range(cells)]
    for key in texts:
        if len(key) != cells or key.translate(_NOT_MARKS):
            raise fail("entry-key", f"has entry key {_short(key)}, not {cells} cells of X, O and .")
        x, o = key.count(FIRST), key.count(SECOND)
        if x - o not in (0, 1):
            raise fail("entry-key", f"has entry key {key!r} with {x} X and {o} O")
        if x + o == cells or winner(rules, key) is not None:
            raise fail("entry-key", f"has entry key {key!r}, a finished board")
        layers[x + o].append(key)
    return layers


def _parse_entries(
    rules: Rules, texts: dict[str, Any], fail: Fail
) -> tuple[dict[str, int], BookError | None]:
    """Step 13: every entry is a string of the grammar. Returns each well-shaped entry's best
    score, and the error of the first misshapen entry found (raised once step 12 has passed)."""
    bests: dict[str, int] = {}
    misshapen = None
    cells = rules.cells
    for key, text in texts.items():
        if type(text) is not str:
            what = f"entry {key!r}: is {_json_type(text)}, not a string"
            misshapen = misshapen or fail("entry-shape", what)
            continue
        try:
            bests[key] = parse_entry(text, cells)[0]
        except EntryShapeError as error:
            misshapen = misshapen or fail("entry-shape", f"entry {key!r}: {_short(text)} {error}")
    return bests, misshapen


_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)


def _check_successors(
    rules: Rules, texts: dict[str, Any], layers: list[list[str]], bests: dict[str, int], fail: Fail
) -> tuple[BookError | None, BookError | None]:
    """The rest of step 12 (canonical keys), step 14 (successors present) and step 15 (each
    entry follows from its successors), one layer of keys at a time, the fullest first.

    A successor has one mark more than its key, so checking a layer needs only the images of
    the next one: ``orbit`` maps every image of every key of a layer to that key, and a
    successor's entry is one look-up. Holding two layers' images at a time instead of the whole
    book's keeps the memory of a 4x4 book within bounds. A key not in canonical form is raised
    at once (no earlier step is left to fail); the first missing successor and the first
    inconsistent entry are returned, to be raised in step order.
    """
    images = _imager(rules)
    missing = inconsistent = None
    below: dict[str, str] = {}  # the images of the layer with one mark more
    for keys in reversed(layers):
        orbit: dict[str, str] = {}
        for key in keys:
            for image in images(key):
                if image < key:
                    raise fail("entry-key", f"has entry key {key!r}, which is not in canonical form")
                orbit[image] = key
        for key in keys:
            scores: list[int | None] = [None] * rules.cells
            complete = True
            for cell, score, child in successors(rules, key):
                if score is None:
                    child_key = below.get(child)
                    if child_key is None:
                        missing = missing or _missing(rules, key, cell, child, fail)
                        complete = False
                        continue
                    child_best = bests.get(child_key)
                    if child_best is None:  # misshapen: step 13 fails anyway
                        complete = False
                        continue
                    score = one_ply_back(child_best)
                scores[cell] = score
            if complete and inconsistent is None and key in bests:
                inconsistent = _inconsistency(rules, key, texts[key], scores, fail)
        below = orbit
    return missing, inconsistent


def _missing(rules: Rules, key: str, cell: Cell, child: str, fail: Fail) -> BookError:
    absent = canonicalizer(rules)(child)[0]
    return fail(
        "missing-entry", f"has no entry {absent!r} for {child!r}, the successor of {key!r} by cell {cell}"
    )


def _inconsistency(
    rules: Rules, key: str, text: str, scores: list[int | None], fail: Fail
) -> BookError | None:
    """Step 15 for one entry, given every move's score: the error, or None if it is consistent."""
    best, tiers = parse_entry(text, rules.cells)
    truth = max(score for score in scores if score is not None)
    if best != truth:
        cells = [cell for cell, score in enumerate(scores) if score == truth]
        return fail(
            "entry-inconsistent",
            f"entry {key!r}: best score {best}, but its successors make it {truth} (cells {cells})",
        )
    flat = [cell for tier in tiers for cell in tier]
    optimal = {cell for cell, score in enumerate(scores) if score == best}
    if len(set(flat)) != len(flat) or set(flat) != optimal:
        shown = [list(tier) for tier in tiers]
        what = f"entry {key!r}: tiers {shown} are not exactly its best moves {sorted(optimal)}"
        return fail("entry-inconsistent", what)
    return None


def _imager(rules: Rules) -> Callable[[str], list[str]]:
    """``board -> its image under every symmetry of rules`` (``image[i] = board[perm[i]]``)."""
    getters = [itemgetter(*symmetry.perm) for symmetry in rules.symmetries]
    return lambda board: ["".join(get(board)) for get in getters]


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _short(value: Any, limit: int = 60) -> str:
    """A parsed JSON value for a one-line message, as JSON: ASCII only, cut to ``limit``."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
