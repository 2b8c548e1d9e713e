"""A version-2 book straight from a retrograde result (generator/solve.py), with a
placeholder trap order: one tier holding all of each entry's optimal moves.

Validity does not decide the order of the tiers, only that together they are exactly the
optimal moves, so such a book proves; it is not what ``ttt-book build`` writes (its
``trap_order.method`` says ``"placeholder"`` and it has no ``trap_rates``). It gives the book
vectors and the tests books the memoized solver cannot make: misère ones, and 4x4.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.book import document, encode
from generator.book_arrays import counts_member
from generator.codes import decode
from generator.solve import Retrograde
from player.entry import entry_text
from player.rules import Rules

#: The ``trap_order`` member of a book whose tiers are not a trap order.
PLACEHOLDER = {"method": "placeholder", "tolerance": "0"}


def retro_book(result: Retrograde) -> dict[str, Any]:
    """The book document of ``result``: its rules (misère or not), one single-tier entry per
    unfinished position, its counts."""
    base = result.rules
    rules = Rules(base.rows, base.cols, base.k, misere=result.misere)
    rows = result.unfinished()
    keys = decode(result.codes[rows], rules.cells)
    bests = result.best[rows].tolist()
    scores = result.scores[rows]
    optimal = scores == result.best[rows][:, None]
    entries = {}
    for key, best, row in zip(keys, bests, optimal, strict=True):
        entries[key] = entry_text(best, [np.flatnonzero(row).tolist()])
    return document(rules, entries, counts_member(result), PLACEHOLDER, {})


def retro_book_bytes(result: Retrograde) -> bytes:
    """``retro_book(result)`` as ``ttt-book build`` lays a book out."""
    return encode(retro_book(result))
