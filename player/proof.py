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
import os
from dataclasses import dataclass

from player.board import EMPTY, FIRST, SECOND, canonicalizer, line_owners
from player.board_codes import board_codes
from player.entry import EntryShapeError, finishing_scorer, one_ply_back, parse_entry
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
    bests, missing, inconsistent = _check_layers(rules, texts, layers, fail)
    misshapen = _first_misshapen(rules, texts, fail) if len(bests) < len(texts) else None
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
    """Step 12 but for a finished line and canonical form (checked layer by layer in
    ``check_span``, in two processes for a big book): every key is a board with a move to make.
    Returns the keys by number of marks."""
    cells = rules.cells
    layers: list[list[str]] = [[] for _ in range(cells)]
    for key in texts:
        if len(key) != cells or key.translate(_NOT_MARKS):
            raise fail("entry-key", f"has entry key {_short(key)}, not {cells} cells of X, O and .")
        x, o = key.count(FIRST), key.count(SECOND)
        if x - o not in (0, 1):
            raise fail("entry-key", f"has entry key {key!r} with {x} X and {o} O")
        if x + o == cells:
            raise fail("entry-key", f"has entry key {key!r}, a finished board")
        layers[x + o].append(key)
    return layers


def _first_misshapen(rules: Rules, texts: dict[str, Any], fail: Fail) -> BookError | None:
    """Step 13's error: the first entry, in the file's order, that is not a string of the
    grammar (``_check_layers`` has found that there is one)."""
    for key, text in texts.items():
        if type(text) is not str:
            return fail("entry-shape", f"entry {key!r}: is {_json_type(text)}, not a string")
        try:
            parse_entry(text, rules.cells)
        except EntryShapeError as error:
            return fail("entry-shape", f"entry {key!r}: {_short(text)} {error}")
    return None


_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)
#: Not a score: what ``_check_layers`` reads for a board no entry is stored under, and for
#: one whose entry is misshapen. Both beyond any score (a best score is within 2**53 - 1), so
#: the largest of a key's scores tells whether it has either.
_ABSENT = 2**62
_MISSHAPEN = 2**61

#: A well-shaped entry as ``_check_layers`` uses it: its best score, the score of a move onto
#: its key (``one_ply_back``), and its tiers' cells in increasing order.
Facts = tuple[int, int, list[Cell]]
_NOT_YET: Facts = (0, 0, [])  # (compared by identity: an entry string not parsed yet)


def _check_layers(
    rules: Rules, texts: dict[str, Any], layers: list[list[str]], fail: Fail
) -> tuple[dict[str, int], BookError | None, BookError | None]:
    """The rest of step 12 (canonical keys), step 13 (the entries' grammar), step 14
    (successors present) and step 15 (each entry follows from its successors), one layer of
    keys at a time, the fullest first (``check_span``); a book of more than ``SPLIT_ABOVE``
    entries on a machine with two cores or more in two processes (player/proof_split.py).

    Returns every well-shaped entry's best score, the first missing successor's error and the
    first inconsistent entry's (in this order of layers and the file's order within a layer),
    to be raised in step order. A key not in canonical form is raised at once: no earlier step
    is left to fail.
    """
    if len(texts) > SPLIT_ABOVE and _cores() > 1:
        from player.proof_split import check_in_two  # multiprocessing: only for a big book

        return check_in_two(rules, texts, layers, fail)
    bests: dict[str, int] = {}
    missing, inconsistent = check_span(rules, texts, layers, len(layers) - 1, 0, bests, fail)
    return bests, missing, inconsistent


#: Books of more entries than this are proven in two processes where there are two cores.
SPLIT_ABOVE = 200_000


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_span(
    rules: Rules,
    texts: dict[str, Any],
    layers: list[list[str]],
    top: int,
    bottom: int,
    bests: dict[str, int],
    fail: Fail,
    *,
    head: int = 0,
    tail: int | None = None,
) -> tuple[BookError | None, BookError | None]:
    """``_check_layers`` for the layers of ``top`` marks down to ``bottom``: adds their
    well-shaped entries' best scores to ``bests``; returns their first missing successor's and
    first inconsistent entry's errors; raises their first key not in canonical form.

    For two processes sharing a layer (player/proof_split.py): the first ``head`` keys of the
    layer ``top`` are only imaged (their canonical form checked, their successors not), and of
    the layer ``bottom`` only the first ``tail`` keys are checked.

    A successor has one mark more than its key, so checking a layer needs only the images of
    the next one: ``onto`` maps the code (player/board_codes.py) of every image of every key
    of a layer to the score of a move onto it (``one_ply_back`` of the key's best), and a
    move's score is one look-up. A successor that is no image there either finishes the game
    (``player.entry.finishing_scorer``; a key is never a finished board, step 12) or is
    missing. Holding two layers' images at a time instead of the whole book's keeps the memory
    of a 4x4 book within bounds. An entry string is parsed once, however many keys share it.
    """
    cells = rules.cells
    codes = board_codes(rules)
    code_of, images = codes.code, codes.images
    finished = finishing_scorer(rules)
    owners = line_owners(rules)
    # A code's occupied cells, one bit each (the low bit of the cell's digit): the same for
    # every key with the same free cells, which are found once for all of them.
    low_bits = int("01" * cells, 2)
    facts_of: dict[str, Facts | None] = {}  # each distinct entry string's facts (None: misshapen)
    missing = inconsistent = None
    below: dict[int, int] = {}
    if top + 1 < len(layers):
        layer_onto(rules, texts, layers[top + 1], below, facts_of, None)
    for marks in range(top, bottom - 1, -1):
        mover = FIRST if marks % 2 == 0 else SECOND
        placed = [codes.placed(mover, cell) for cell in range(cells)]
        free_of: dict[int, tuple[list[Cell], list[int]]] = {}  # the free cells, what a move there adds
        look_up = below.get
        onto: dict[int, int] = {}
        keys = layers[marks]
        if marks == bottom and tail is not None:
            keys = keys[:tail]
        if marks == top and head:
            layer_onto(rules, texts, keys[:head], onto, facts_of, fail)
            keys = keys[head:]
        for key in keys:
            if owners(key):
                raise fail("entry-key", f"has entry key {key!r}, a finished board")
            code = code_of(key)
            orbit = images(code)
            if min(orbit) < code:
                raise fail("entry-key", f"has entry key {key!r}, which is not in canonical form")
            text = texts[key]
            facts = _known_facts(text, facts_of, cells)
            if facts is None:
                score = _MISSHAPEN
            else:
                bests[key] = facts[0]
                score = facts[1]
            for image in orbit:
                onto[image] = score
            occupied = (code | code >> 1) & low_bits
            moves = free_of.get(occupied)
            if moves is None:
                free = [cell for cell, mark in enumerate(key) if mark == EMPTY]
                moves = free_of[occupied] = (free, [placed[cell] for cell in free])
            free = moves[0]
            scores = [look_up(code + move, _ABSENT) for move in moves[1]]
            truth = max(scores)
            if truth >= _MISSHAPEN:  # a move that finishes the game, or step 13 or 14 fails
                for at, cell in enumerate(free):
                    if scores[at] == _ABSENT:
                        ends = finished(key, cell, mover)
                        scores[at] = _ABSENT if ends is None else ends
                if scores.count(_ABSENT) and missing is None:
                    missing = _missing(rules, key, free[scores.index(_ABSENT)], mover, fail)
                truth = max(scores)
            if facts is None or truth >= _MISSHAPEN or inconsistent is not None:
                continue
            best, _, flat = facts
            if best != truth or flat != [
                cell for cell, score in zip(free, scores, strict=True) if score == best
            ]:
                inconsistent = _inconsistency(rules, key, text, free, scores, fail)
        below = onto
    return missing, inconsistent


def layer_onto(
    rules: Rules,
    texts: dict[str, Any],
    keys: list[str],
    onto: dict[int, int],
    facts_of: dict[str, Facts | None],
    fail: Fail | None,
) -> None:
    """``check_span``'s ``onto`` for ``keys`` of one layer, added to ``onto``; their successors
    are not checked, and their canonical form only with ``fail``: what a process needs of keys
    another process checks."""
    codes = board_codes(rules)
    code_of, images = codes.code, codes.images
    for key in keys:
        code = code_of(key)
        orbit = images(code)
        if fail is not None and min(orbit) < code:
            raise fail("entry-key", f"has entry key {key!r}, which is not in canonical form")
        facts = _known_facts(texts[key], facts_of, rules.cells)
        score = _MISSHAPEN if facts is None else facts[1]
        for image in orbit:
            onto[image] = score


def _known_facts(text: Any, facts_of: dict[str, Facts | None], cells: int) -> Facts | None:
    """The facts of an entry's value (None if it is no string of the grammar), each distinct
    string parsed once and remembered in ``facts_of``."""
    if type(text) is not str:
        return None
    facts = facts_of.get(text, _NOT_YET)
    if facts is _NOT_YET:
        facts = facts_of[text] = _facts(text, cells)
    return facts


def _facts(text: str, cells: int) -> Facts | None:
    """An entry string's facts, or None if it is not a string of the grammar (step 13: found
    again by ``_first_misshapen``, for its message)."""
    try:
        best, tiers = parse_entry(text, cells)
    except EntryShapeError:
        return None
    # each tier is increasing (the grammar), so one tier is its own sorted list; sorted and equal
    # to a key's optimal moves in increasing order, the tiers hold each of them exactly once
    flat = list(tiers[0]) if len(tiers) == 1 else sorted(cell for tier in tiers for cell in tier)
    return best, one_ply_back(best), flat


def _missing(rules: Rules, key: str, cell: Cell, mover: str, fail: Fail) -> BookError:
    child = key[:cell] + mover + key[cell + 1 :]
    absent = canonicalizer(rules)(child)[0]
    return fail(
        "missing-entry", f"has no entry {absent!r} for {child!r}, the successor of {key!r} by cell {cell}"
    )


def _inconsistency(
    rules: Rules, key: str, text: str, moves: list[Cell], move_scores: list[int], fail: Fail
) -> BookError:
    """Step 15's error for an entry that does not follow from its moves' scores."""
    scores: list[int | None] = [None] * rules.cells
    for cell, score in zip(moves, move_scores, strict=True):
        scores[cell] = score
    best, tiers = parse_entry(text, rules.cells)
    truth = max(score for score in scores if score is not None)
    if best != truth:
        cells = [cell for cell, score in enumerate(scores) if score == truth]
        return fail(
            "entry-inconsistent",
            f"entry {key!r}: best score {best}, but its successors make it {truth} (cells {cells})",
        )
    optimal = {cell for cell, score in enumerate(scores) if score == best}
    shown = [list(tier) for tier in tiers]
    what = f"entry {key!r}: tiers {shown} are not exactly its best moves {sorted(optimal)}"
    return fail("entry-inconsistent", what)


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _short(value: Any, limit: int = 60) -> str:
    """A parsed JSON value for a one-line message, as JSON: ASCII only, cut to ``limit``."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
