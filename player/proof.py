"""Prove a parsed book: steps 4 to 15 of docs/book-format.md, "A valid book".

The reader derives the winning lines and the symmetries from ``rows``, ``cols`` and ``k`` and
compares the file's copies with them, then checks every entry against its successors: each
move's score must be the successor's best score moved one ply, and the value, plies, turn and
tiers must follow. By induction on the number of empty cells, a book that passes is the truth,
whoever wrote it. The entries are checked in phases (keys, shapes, successors present,
consistency), so the reason code does not depend on the order the file lists them in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import itemgetter

from player.board import EMPTY, FIRST, SECOND, canonicalizer, side_to_move, winner
from player.entry import Entry
from player.errors import BookError
from player.format import CANONICAL_RULE, FORMAT_NAME, FORMAT_VERSION
from player.rules import Cell, Rules, RulesError
from player.score import decode_score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Fail = Callable[[str, str], BookError]


@dataclass(frozen=True, slots=True)
class ProvenBook:
    """What a proof leaves: the rules and every entry, keyed by canonical board."""

    rules: Rules
    entries: dict[str, Entry]


def prove(data: Any, source: object, expected: Rules | None) -> ProvenBook:
    """Steps 4 to 15 on parsed JSON ``data``; BookError with the first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    raw_entries: dict[str, Any] = data["entries"]
    orbits: dict[str, str] = {}  # every image of every key -> that key
    images = _imager(rules)
    for key in raw_entries:
        _check_key(rules, key, fail)
        for image in images(key):
            if image < key:
                raise fail("entry-key", f"has entry key {key!r}, which is not in canonical form")
            orbits[image] = key
    for key, raw in raw_entries.items():
        _check_shape(rules, key, raw, fail)
    successors = _successors(rules, raw_entries, orbits, fail)
    entries = {key: Entry.from_json(key, raw) for key, raw in raw_entries.items()}
    bests = {key: _best_or_none(entry) for key, entry in entries.items()}
    for key, entry in entries.items():
        _check_consistent(rules, entry, successors[key], bests, fail)
    return ProvenBook(rules, entries)


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
    if data["rules"].get("lines") != [list(line) for line in rules.lines]:
        raise fail("lines", f"has winning lines that are not those of {rules}")
    symmetries = data.get("symmetries")
    if (
        type(symmetries) is not list
        or len(symmetries) != len(rules.symmetries)
        or not all(
            type(item) is dict and type(item.get("name")) is str and item.get("perm") == list(s.perm)
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


def _check_rules(raw: Any, fail: Fail, expected: Rules | None) -> Rules:
    if type(raw) is not dict:
        raise fail("rules", f"has rules that are {_json_type(raw)}, not an object")
    rows, cols, k = raw.get("rows"), raw.get("cols"), raw.get("k")
    if not (type(rows) is int and type(cols) is int and type(k) is int):
        raise fail("rules", f"has rules with non-integer rows, cols or k: {_short([rows, cols, k])}")
    try:
        rules = Rules(rows, cols, k)
    except RulesError as error:
        raise fail("rules", f"has impossible rules: {error}") from None
    if type(raw.get("cells")) is not int or raw.get("cells") != rules.cells:
        raise fail("rules", f"says {_short(raw.get('cells'))} cells; {rules} has {rules.cells}")
    if (raw.get("first"), raw.get("second"), raw.get("empty")) != (FIRST, SECOND, EMPTY):
        raise fail("rules", "uses marks other than X, O and '.'")
    if expected is not None and rules != expected:
        raise fail("rules", f"is a book for {rules}, not {expected}")
    return rules


def _check_key(rules: Rules, key: str, fail: Fail) -> None:
    """Step 12: a canonical board with a move to make."""
    if len(key) != rules.cells or key.translate(_NOT_MARKS):
        raise fail("entry-key", f"has entry key {_short(key)}, not {rules.cells} cells of X, O and .")
    x, o = key.count(FIRST), key.count(SECOND)
    if x - o not in (0, 1):
        raise fail("entry-key", f"has entry key {key!r} with {x} X and {o} O")
    if EMPTY not in key or winner(rules, key) is not None:
        raise fail("entry-key", f"has entry key {key!r}, a finished board")


def _check_shape(rules: Rules, key: str, raw: Any, fail: Fail) -> None:
    """Step 13: every member the reader uses has the right JSON type."""

    def bad(what: str) -> BookError:
        return fail("entry-shape", f"entry {key!r}: {what}")

    if type(raw) is not dict:
        raise bad(f"is {_json_type(raw)}, not an object")
    if raw.get("turn") not in (FIRST, SECOND):
        raise bad(f"turn {_short(raw.get('turn'))} is not 'X' or 'O'")
    for name in ("value", "plies"):
        if type(raw.get(name)) is not int:
            raise bad(f"{name} {_short(raw.get(name))} is not an integer")
    scores = raw.get("scores")
    if (
        type(scores) is not list
        or len(scores) != rules.cells
        or not all(score is None or type(score) is int for score in scores)
    ):
        raise bad(f"scores must be {rules.cells} integers or nulls, not {_short(scores)}")
    tiers = raw.get("tiers")
    if (
        type(tiers) is not list
        or not tiers
        or not all(type(t) is list and t and all(type(c) is int for c in t) for t in tiers)
    ):
        raise bad(f"tiers must be a non-empty list of non-empty lists of cells, not {_short(tiers)}")


_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)

#: A successor as ``(cell, fixed score or None, canonical key or None)``: a finished successor
#: has a score from the rules; any other has the canonical key of its entry.
Successor = tuple[Cell, "int | None", "str | None"]


def _successors(
    rules: Rules, raw_entries: dict[str, Any], orbits: dict[str, str], fail: Fail
) -> dict[str, list[Successor]]:
    """Step 14: the empty board and every unfinished successor have entries.

    ``orbits`` maps every image of every (canonical) key to that key, so a successor's entry is
    one look-up: its canonical key is an entry exactly when the successor is in some orbit.
    """
    if EMPTY * rules.cells not in raw_entries:
        raise fail("missing-entry", "has no entry for the empty board")
    found: dict[str, list[Successor]] = {}
    # The keys passed step 12 (no full line), so a successor can only be won through its new mark:
    # read only the lines through that cell.
    through = [[itemgetter(*line) for line in lines] for lines in rules.lines_through]
    full = {FIRST: FIRST * rules.k, SECOND: SECOND * rules.k}
    for key in raw_entries:
        mover = side_to_move(key)
        line_of_mover = full[mover]
        moves: list[Successor] = []
        for cell in range(rules.cells):
            if key[cell] != EMPTY:
                continue
            child = key[:cell] + mover + key[cell + 1 :]
            if any("".join(read(child)) == line_of_mover for read in through[cell]):
                moves.append((cell, rules.cells, None))  # the move wins at once
            elif EMPTY not in child:
                moves.append((cell, 0, None))  # the move fills the board: a draw
            else:
                child_key = orbits.get(child)
                if child_key is None:
                    missing = canonicalizer(rules)(child)[0]
                    raise fail(
                        "missing-entry",
                        f"has no entry {missing!r} for {child!r}, the successor of {key!r} by cell {cell}",
                    )
                moves.append((cell, None, child_key))
        found[key] = moves
    return found


def one_ply_back(best: int) -> int:
    """The score of a move whose successor's best score is ``best`` (the other side's view):
    the same result for the other side, one ply later."""
    if best > 0:
        return 1 - best
    if best < 0:
        return -best - 1
    return 0


def _check_consistent(
    rules: Rules, entry: Entry, moves: list[Successor], bests: dict[str, int | None], fail: Fail
) -> None:
    """Step 15: the entry follows from its successors."""
    key = entry.key

    def bad(what: str) -> BookError:
        return fail("entry-inconsistent", f"entry {key!r}: {what}")

    if entry.turn != side_to_move(key):
        raise bad(f"turn is {entry.turn!r} but {side_to_move(key)!r} is to move")
    truth: list[int | None] = [None] * rules.cells  # None on occupied cells
    for cell, fixed, child_key in moves:
        if fixed is None:
            assert child_key is not None
            child_best = bests[child_key]
            if child_best is None:
                raise bad(f"its successor {child_key!r} has no score at all")
            fixed = one_ply_back(child_best)
        truth[cell] = fixed
    if list(entry.scores) != truth:
        cell = next(c for c in range(rules.cells) if entry.scores[c] != truth[c])
        if truth[cell] is None:
            raise bad(f"scores occupied cell {cell}")
        raise bad(f"cell {cell} scores {entry.scores[cell]!r}; its successor makes it {truth[cell]}")
    best = max(score for score in truth if score is not None)
    value_plies = decode_score(best, key.count(EMPTY), rules.cells)
    if (entry.value, entry.plies) != value_plies:
        raise bad(
            f"value {entry.value} in {entry.plies} plies; its best score {best} means "
            f"{value_plies[0]} in {value_plies[1]}"
        )
    flat = [cell for tier in entry.tiers for cell in tier]
    optimal = {cell for cell, score in enumerate(truth) if score == best}
    if len(set(flat)) != len(flat) or set(flat) != optimal:
        raise bad(f"tiers {[list(t) for t in entry.tiers]} are not exactly its best moves {sorted(optimal)}")


def _best_or_none(entry: Entry) -> int | None:
    scores = [score for score in entry.scores if score is not None]
    return max(scores) if scores else None


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
