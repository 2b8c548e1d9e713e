"""An entry string's grammar (docs/book-format.md, "An entry"; step 13 of "A valid book"),
and how the reader's messages show what a file holds.

An entry is ``"<best> <tier> <tier> ..."``: an integer as RFC 8259 writes one, then one or more
tiers, each after exactly one space, each a list of cell numbers joined by commas in increasing
order. ``parse_entry`` reads one, ``misshapen`` says what is wrong with a value that is not one,
``entry_text`` writes one.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from tictactoe_book.errors import EntryShapeError, echoed

#: Step 3 (strict JSON) and the grammar: integers beyond this magnitude are refused (RFC 7493:
#: exact in every JSON reader).
MAX_INTEGER = 2**53 - 1
#: An entry's tiers: cell numbers (``tictactoe_book.game.Cell``), best tier first.
Tiers = tuple[tuple[int, ...], ...]

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


class _Tiers(dict[str, tuple[int, ...]]):
    """The tiers of a board of ``cells`` cells by their text, each text read once: a text that
    is no tier raises EntryShapeError and is not kept, so this holds at most one item per set of
    cells (65,535 on 16 cells; a 4x4 book uses about 9,000)."""

    def __init__(self, cells: int) -> None:
        super().__init__()
        self.cells = cells

    def __missing__(self, part: str) -> tuple[int, ...]:
        cells, cell_of = self.cells, _cell_numbers(self.cells)
        tier: list[int] = []
        for item in part.split(","):
            cell = cell_of.get(item)
            if cell is None:
                raise EntryShapeError(_bad_cell(item, cells))
            if tier and cell <= tier[-1]:
                raise EntryShapeError(f"has tier {show(part)}, not in increasing order")
            tier.append(cell)
        found = self[part] = tuple(tier)
        return found


@cache
def _tiers(cells: int) -> _Tiers:
    return _Tiers(cells)


def entry_text(best: int, tiers: Tiers | list[list[int]]) -> str:
    """The string ``parse_entry`` reads back as ``(best, tiers)`` (tiers written as given)."""
    return f"{best} " + " ".join(",".join(map(str, tier)) for tier in tiers)


def _integer(text: str) -> int:
    """The best score, off the fast path of ``_BESTS``: any integer of the grammar."""
    if not _INTEGER.fullmatch(text):
        what = "nothing" if not text else show(text)
        raise EntryShapeError(f"starts with {what}, not an integer best score")
    if len(text) > 17 or abs(int(text)) > MAX_INTEGER:  # (length first: int() refuses 4,300 digits)
        raise EntryShapeError(f"has best score {show(text)}, beyond 2**53 - 1 in magnitude")
    return int(text)


#: Every integer of at most two digits, written as the grammar writes it: every best score a
#: book can hold (at most ``tictactoe_book.game.MAX_CELLS + 1`` in magnitude); any other
#: integer is read by ``_integer`` (and is inconsistent later, but not misshapen).
_BESTS = {str(n): n for n in range(-99, 100)} | {"-0": 0}


@cache
def _cell_numbers(cells: int) -> dict[str, int]:
    """``"0"`` to ``str(cells - 1)``: the only texts that are cell numbers of the board."""
    return {str(cell): cell for cell in range(cells)}


def _bad_cell(text: str, cells: int) -> str:
    if not text:
        return "has an empty tier or cell (two spaces or commas in a row, or one at an end)"
    if _INTEGER.fullmatch(text) and not text.startswith("-"):
        return f"names cell {show(text)}, off the board (cells 0 to {cells - 1})"
    return f"has {show(text)} where a cell number belongs"


def show(text: str) -> str:
    """``text`` for a message about the file: ``ascii()`` of it (safe on any terminal), cut as
    every echoed value is (``tictactoe_book.errors.echoed``)."""
    return echoed(text, ascii)


def misshapen(text: Any, cells: int) -> str | None:
    """Step 13 for an entry's value: what is wrong with it (not a string, or a string not of
    the grammar), or None."""
    if type(text) is not str:
        return f"is {json_type(text)}, not a string"
    try:
        parse_entry(text, cells)
    except EntryShapeError as error:
        return f"{short(text)} {error}"
    return None


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def short(value: Any) -> str:
    """A parsed JSON value for a one-line message, as JSON: ASCII only, cut as every echoed
    value is (``tictactoe_book.errors.echoed``)."""
    return echoed(value, _json_ascii)


def _json_ascii(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)
