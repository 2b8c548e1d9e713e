"""The seeded choice as docs/porting.md ("5. Levels") writes it, for tests to compare every
language's with: mulberry32 written from its published JavaScript (Tommy Ettinger's, public
domain), and the uniform pick among ``count`` candidates. Shares nothing with ``player``.

Published (``Math.imul`` is a product modulo 2^32)::

    function mulberry32(a) {
      return function() {
        var t = a += 0x6D2B79F5;
        t = Math.imul(t ^ t >>> 15, t | 1);
        t ^= t + Math.imul(t ^ t >>> 7, t | 61);
        return ((t ^ t >>> 14) >>> 0) / 4294967296;
      }
    }
"""

from __future__ import annotations

MASK = 0xFFFFFFFF


def mulberry32(state: int) -> tuple[int, int]:
    """(the new state, the number) of mulberry32 from ``state``."""
    state = (state + 0x6D2B79F5) & MASK
    z = state
    z = ((z ^ (z >> 15)) * (z | 1)) & MASK
    z ^= (z + ((z ^ (z >> 7)) * (z | 61))) & MASK
    return state, z ^ (z >> 14)


def uniform_pick(count: int, state: int) -> tuple[int, int]:
    """(the index, the new state) of a uniform choice among ``count`` from mulberry32: a number
    is drawn again while it lies among the top 2^32 mod count (none is drawn for one choice)."""
    if count == 1:
        return 0, state
    while True:
        state, number = mulberry32(state)
        if number < 2**32 - 2**32 % count:
            return number % count, state


#: Seeds whose first number is among the top 2^32 mod 9 = 4 (found by trying every seed): a choice
#: among nine (the empty 3x3 board's cells, at hard, medium and easy) draws again.
REDRAWN = (394144346, 1433749601, 1749556311)
#: A seed whose first number is just below them: kept.
KEPT = 379462424
