"""An independent judge of book validity (format version 2), written from docs/book-format.md
("A valid book") alone.

It shares nothing with ``player`` or ``generator`` (as ``oracle.py`` shares nothing with the
solver): its own strict JSON rules on top of the standard ``json`` module's hooks, its own
derived lines and symmetries, its own successor walk. Tests use it as a third opinion: on the
book vectors beside the readers, and to say who is right when the Python and JavaScript readers
disagree on a mutated book.

``judge(raw)`` returns ``"valid"`` or the reason code of the first failing step;
``first_failing(raw)`` that code and the first entry in file order that fails the step (an
entry's step: 12 to 15, the empty board aside); ``ranking(raw)``, for a valid book, whom its
tiers are ranked against (docs/book-format.md, "Trap order": ``trap_order.against`` when it is a
string, else ``"novice"``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from typing import Any

MAX_BYTES = 67_108_864
MAX_STRUCTURAL = 4_000_000
MAX_DEPTH = 32
MAX_INTEGER = 2**53 - 1


class Refused(Exception):
    """The book fails the step named by ``code`` (at the entry ``key``, for an entry's step)."""

    def __init__(self, code: str, key: str | None = None) -> None:
        super().__init__(code)
        self.code, self.key = code, key


Game = tuple[int, int, int, bool]  # rows, cols, k, misère
Table = tuple[tuple[int, ...], ...]  # lines or symmetries, hashable


def judge(raw: bytes, rules: Game | None = None) -> str:
    """``"valid"`` or the code of the first step that fails; ``rules`` is the game played
    (``None``: whatever the file states)."""
    try:
        _prove(raw, rules)
    except Refused as refused:
        return refused.code
    return "valid"


def first_failing(raw: bytes, rules: Game | None = None) -> tuple[str, str | None]:
    """``judge``'s code, and the key of the first entry in file order that fails that step
    (None for a step of the whole book, and for a missing empty board)."""
    try:
        _prove(raw, rules)
    except Refused as refused:
        return refused.code, refused.key
    return "valid", None


def ranking(raw: bytes) -> str:
    """Whom a valid book's tiers are ranked against, read from its text as the spec says."""
    order = strict_json(raw).get("trap_order")
    against = order.get("against") if isinstance(order, dict) else None
    return against if isinstance(against, str) else "novice"


def is_int(value: object) -> bool:
    return type(value) is int  # not bool: true and false are not numbers


def same(a: object, b: object) -> bool:
    """Equal with JSON types: 1 is not true, [1] is not [true]."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _prove(raw: bytes, rules: Game | None) -> None:
    # step 2, before parsing: size, then the bound on values
    if len(raw) > MAX_BYTES:
        raise Refused("limits")
    if raw.count(b"[") + raw.count(b"{") + raw.count(b",") > MAX_STRUCTURAL:
        raise Refused("limits")
    data = strict_json(raw)
    # steps 4 to 6: the header
    if not isinstance(data, dict) or not same(data.get("format"), "tictactoe-book"):
        raise Refused("format")
    if not same(data.get("version"), 2):
        raise Refused("version")
    if not same(data.get("canonical"), "min-image"):
        raise Refused("format")
    rows, cols, k, misere = _rules(data.get("rules"), rules)
    cells = rows * cols
    # steps 8 and 9: the derived tables
    lines = derived_lines(rows, cols, k)
    if not same(data["rules"].get("lines"), lines):
        raise Refused("lines")
    perms = derived_symmetries(rows, cols)
    symmetries = data.get("symmetries")
    if not (
        isinstance(symmetries, list)
        and len(symmetries) == len(perms)
        and all(
            isinstance(s, dict) and isinstance(s.get("name"), str) and same(s.get("perm"), p)
            for s, p in zip(symmetries, perms, strict=False)
        )
    ):
        raise Refused("symmetries")
    # steps 10 and 11
    entries = data.get("entries")
    if not isinstance(entries, dict):
        raise Refused("entries")
    counts = data.get("counts")
    if not isinstance(counts, dict) or not same(counts.get("entries"), len(entries)):
        raise Refused("counts")
    # steps 12 to 15, each over every entry before the next; the key and successor checks are
    # remembered across books (the book vectors judge ~180 edits of one book), hence tuples
    line_table, perm_table = tuple(map(tuple, lines)), tuple(map(tuple, perms))
    for key in entries:
        if not _good_key(key, cells, line_table, perm_table):
            raise Refused("entry-key", key)
    parsed = {}
    for key, entry in entries.items():
        read = _read_entry(entry, cells)
        if read is None:
            raise Refused("entry-shape", key)
        parsed[key] = read
    successors = {key: _successors(key, cells, line_table, perm_table, misere) for key in entries}
    for key, moves in successors.items():
        if any(child is not None and child not in entries for _, child, _ in moves):
            raise Refused("missing-entry", key)
    if "." * cells not in entries:
        raise Refused("missing-entry")
    for key, (best, tiers) in parsed.items():
        if not _consistent(key, best, tiers, successors[key], parsed, cells):
            raise Refused("entry-inconsistent", key)


class _NotStrict(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _NotStrict("duplicate member name")
    return result


def _integer(token: str) -> int:
    digits = token.removeprefix("-")
    if len(digits) > 16 or abs(int(token)) > MAX_INTEGER:  # (checked on length first: int() of
        raise _NotStrict("integer out of range")  # 5,000 digits is itself an error in Python)
    return int(token)


def _refuse_token(token: str) -> Any:
    raise _NotStrict(f"not an integer: {token}")


def strict_json(raw: bytes) -> Any:
    """Step 3. ``json`` already refuses raw control characters in strings, trailing text, and
    white space other than space, tab, LF and CR; the hooks refuse the rest."""
    try:
        text = raw.decode("utf-8")  # (refuses encoded surrogates too)
    except UnicodeDecodeError:
        raise Refused("json") from None
    if text.startswith("\ufeff"):
        raise Refused("json")
    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_refuse_token,
            parse_int=_integer,
            parse_constant=_refuse_token,
        )
    except (ValueError, RecursionError, _NotStrict):
        raise Refused("json") from None
    # depth and lone surrogates, without recursion
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _no_surrogates(value)
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise Refused("json")
            if isinstance(value, dict):
                for name in value:
                    _no_surrogates(name)
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)
    return data


def _no_surrogates(text: str) -> None:
    try:
        text.encode("utf-8")  # a lone surrogate cannot be encoded; a pair was joined by json
    except UnicodeEncodeError:
        raise Refused("json") from None


def _rules(raw: Any, caller: Game | None) -> Game:
    if not isinstance(raw, dict):
        raise Refused("rules")
    rows, cols, k, misere = raw.get("rows"), raw.get("cols"), raw.get("k"), raw.get("misere")
    if not (is_int(rows) and is_int(cols) and is_int(k)) or min(rows, cols, k) < 1:
        raise Refused("rules")
    if misere is not True and misere is not False:
        raise Refused("rules")
    if rows * cols > 16 or (k > rows and k > cols) or not same(raw.get("cells"), rows * cols):
        raise Refused("rules")
    if not (same(raw.get("first"), "X") and same(raw.get("second"), "O") and same(raw.get("empty"), ".")):
        raise Refused("rules")
    if caller is not None and (rows, cols, k, misere) != caller:
        raise Refused("rules")
    return rows, cols, k, misere


def derived_lines(rows: int, cols: int, k: int) -> list[list[int]]:
    """The winning lines, in the order docs/book-format.md gives."""
    lines = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append([(r + i * dr) * cols + (c + i * dc) for i in range(k)])
    return lines


def derived_symmetries(rows: int, cols: int) -> list[list[int]]:
    perms: list[list[int]] = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                perm = []
                for r in range(rows):
                    for c in range(cols):
                        sr, sc = (c, r) if transpose else (r, c)
                        if flip_rows:
                            sr = rows - 1 - sr
                        if flip_cols:
                            sc = cols - 1 - sc
                        perm.append(sr * cols + sc)
                if perm not in perms:
                    perms.append(perm)
    return perms


def canonical_key(board: str, perms: Sequence[Sequence[int]]) -> str:
    return min("".join(board[i] for i in perm) for perm in perms)


def _full_line(board: str, lines: Sequence[Sequence[int]]) -> bool:
    return any(board[line[0]] != "." and all(board[i] == board[line[0]] for i in line) for line in lines)


@functools.cache
def _good_key(key: str, cells: int, lines: Table, perms: Table) -> bool:
    if len(key) != cells or any(ch not in "XO." for ch in key):
        return False
    if key.count("X") - key.count("O") not in (0, 1):
        return False
    if "." not in key or _full_line(key, lines):
        return False
    return canonical_key(key, perms) == key


# "<best> <tier> <tier> ...": RFC 8259's integer, then tiers of cell numbers (no sign, no
# leading zero), each tier after one space, cells within it joined by commas.
NUMBER = r"(?:0|[1-9][0-9]*)"
ENTRY = re.compile(rf"(-?{NUMBER})((?: {NUMBER}(?:,{NUMBER})*)+)", re.ASCII)


def _read_entry(entry: Any, cells: int) -> tuple[int, list[list[int]]] | None:
    """(best, tiers) of a well-formed entry string, else None (step 13)."""
    if not isinstance(entry, str):
        return None
    match = ENTRY.fullmatch(entry)
    if match is None:
        return None
    best_text, tiers_text = match.groups()
    if len(best_text.lstrip("-")) > 16 or abs(int(best_text)) > MAX_INTEGER:
        return None
    tiers = []
    for tier_text in tiers_text[1:].split(" "):
        if any(len(cell) > 2 for cell in tier_text.split(",")):
            return None  # beyond any board of 16 cells
        tier = [int(cell) for cell in tier_text.split(",")]
        if any(cell >= cells for cell in tier) or tier != sorted(set(tier)):
            return None
        tiers.append(tier)
    return int(best_text), tiers


@functools.cache
def _successors(
    key: str, cells: int, lines: Table, perms: Table, misere: bool
) -> tuple[tuple[int, str | None, int], ...]:
    """(cell, canonical key of the unfinished successor or None, score if finished)."""
    mover = "X" if key.count("X") == key.count("O") else "O"
    moves: list[tuple[int, str | None, int]] = []
    for cell in range(cells):
        if key[cell] != ".":
            continue
        child = key[:cell] + mover + key[cell + 1 :]
        if _full_line(child, lines):
            moves.append((cell, None, -cells if misere else cells))
        elif "." not in child:
            moves.append((cell, None, 0))
        else:
            moves.append((cell, canonical_key(child, perms), 0))
    return tuple(moves)


def _consistent(
    key: str,
    best: int,
    tiers: list[list[int]],
    moves: tuple[tuple[int, str | None, int], ...],
    parsed: dict[str, tuple[int, list[list[int]]]],
    cells: int,
) -> bool:
    scores = {}
    for cell, child, finished_score in moves:
        if child is None:
            scores[cell] = finished_score
            continue
        b = parsed[child][0]
        scores[cell] = 0 if b == 0 else (1 - b if b > 0 else -b - 1)
    if best != max(scores.values()):
        return False
    flat = [c for tier in tiers for c in tier]
    optimal = {c for c, s in scores.items() if s == best}
    return len(flat) == len(set(flat)) and set(flat) == optimal
