"""The book's members from a retrograde result and its trap order (book format version 2).

Version 2 (docs/book-format.md) writes each canonical unfinished position as one string,
``"<best> <tier> <tier> ..."``: the best score, then the optimal moves in trap order, best tier
first, cells increasing within a tier, single spaces between tiers and commas within::

    ".........": "0 0,2,6,8 1,3,5,7 4"

A 4x4 book has over a million entries, so the strings are formatted with arrays, all at once
(``_entry_texts``), not one by one. The document itself is the writer's
(generator/book.py); these functions give it the parts that come from the arrays.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.codes import decode
from generator.solve import Retrograde
from generator.trap import TOLERANCE_TEXT, Rate, TrapArrays
from player.rules import MAX_CELLS


def entry_strings(traps: TrapArrays) -> dict[str, str]:
    """Every canonical unfinished position's key and entry string, in row order."""
    result = traps.result
    cells = result.rules.cells
    rows = result.unfinished()
    keys = decode(result.codes[rows], cells)
    return dict(zip(keys, _entry_texts(result.best[rows], traps.tier[rows]), strict=True))


def _entry_texts(best: npt.NDArray[np.int8], tier: npt.NDArray[np.int8]) -> list[str]:
    """The entry string of each row of scores and tiers (``TrapArrays.tier``: -1 off the tiers).

    Formatted for all rows at once: each row's characters are laid out in a fixed-width byte
    matrix (the score in 4 places, then 3 per cell: two digits and the separator after it), the
    unused places left 0; dropping the zeros joins the rows with the newline that ends each
    one, and a single decode and split gives the strings.
    """
    rows, cells = tier.shape
    # each row's optimal moves by tier, then cell, the other cells last: sorting the values
    # ``tier * cells + cell`` (a sort of values is several times faster than an argsort)
    key = tier.astype(np.int16) * cells + np.arange(cells, dtype=np.int16)
    key[tier < 0] = cells * cells
    key.sort(axis=1)
    order = (key % cells).astype(np.uint8)
    ranked = np.where(key < cells * cells, key // cells, -1)
    following = np.full_like(ranked, -1)
    following[:, :-1] = ranked[:, 1:]
    separator = np.where(following == ranked, np.uint8(_COMMA), np.uint8(_SPACE))
    separator[following < 0] = _NEWLINE
    used = ranked >= 0
    layout = np.zeros((rows, _SCORE_WIDTH + 3 * cells), dtype=np.uint8)
    layout[:, :_SCORE_WIDTH] = _SCORE_TEXTS[best.astype(np.int64) - _SCORE_MIN]
    layout[:, _SCORE_WIDTH::3] = _TENS[order] * used
    layout[:, _SCORE_WIDTH + 1 :: 3] = _ONES[order] * used
    layout[:, _SCORE_WIDTH + 2 :: 3] = separator * used
    flat = layout.ravel()
    text: str = flat[flat != 0].tobytes().decode("ascii")
    return text.split("\n")[:-1]


_COMMA, _SPACE, _NEWLINE = (ord(c) for c in ", \n")
#: A cell's two digits as bytes (a leading 0 byte for cells 0 to 9: dropped with the padding).
_TENS = np.array([ord(f"{c:2d}"[0]) if c >= 10 else 0 for c in range(MAX_CELLS)], dtype=np.uint8)
_ONES = np.array([ord(f"{c:2d}"[1]) for c in range(MAX_CELLS)], dtype=np.uint8)
assert MAX_CELLS <= 100
#: Every score a position can have (|score| <= MAX_CELLS + 1), as up to three characters and a
#: space, padded with zeros to _SCORE_WIDTH bytes: row ``score - _SCORE_MIN``.
_SCORE_MIN = -(MAX_CELLS + 1)
_SCORE_WIDTH = 4
_SCORE_TEXTS = np.array(
    [list(f"{score} ".encode().ljust(_SCORE_WIDTH, b"\0")) for score in range(_SCORE_MIN, MAX_CELLS + 2)],
    dtype=np.uint8,
)


def trap_order_member(traps: TrapArrays) -> dict[str, str]:
    """The ``trap_order`` member: how the chances were computed, and the tie tolerance."""
    return {"method": traps.method, "tolerance": "0" if traps.method == "exact" else TOLERANCE_TEXT}


def trap_rates_member(traps: TrapArrays) -> dict[str, dict[str, str]]:
    """The ``trap_rates`` member: the policy's chances of winning from the empty board."""
    return {
        side: {"novice": rate_text(novice), "random": rate_text(random)}
        for side, (novice, random) in (
            ("first", traps.first_player_rates),
            ("second", traps.second_player_rates),
        )
    }


def rate_text(rate: Rate) -> str:
    """An exact chance as ``"n/d"``; a float one as a decimal with 12 significant digits
    (``"0.927083333333"``), never in exponent notation."""
    if isinstance(rate, Fraction):
        return f"{rate.numerator}/{rate.denominator}"
    return np.format_float_positional(rate, precision=12, unique=False, fractional=False, trim="-")


def counts_member(result: Retrograde) -> dict[str, Any]:
    """The informational ``counts`` member, as version 1 writes it (docs/book-format.md)."""
    counts = result.counts
    return {
        "entries": counts.canonical_unfinished,
        "positions": counts.reachable,
        "unfinished": counts.unfinished,
        "finished": counts.finished,
        "canonical_positions": counts.canonical,
        "canonical_finished": counts.canonical_finished,
        "tree_nodes": counts.tree_nodes,
        "games": counts.games.total,
        "first_wins": counts.games.first_wins,
        "second_wins": counts.games.second_wins,
        "draws": counts.games.draws,
    }
