"""Entry strings from arrays (docs/book-format.md, "Entries"): each row's best score and its
optimal moves in trap order, formatted for many rows at once, for the writer of the version-2
book (tictactoe_generator.writer) and the build by layers (tictactoe_generator.layer_tasks)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tictactoe_book.game import MAX_CELLS


def entry_texts(best: npt.NDArray[np.int8], tier: npt.NDArray[np.int8]) -> list[str]:
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
