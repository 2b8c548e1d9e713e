"""Find any board in a retrograde result (generator/retrograde.py), through its canonical code.

The result keeps one row per class of boards equal under symmetry. A board's row is that of its
canonical code, found by binary search in the sorted layer of its number of marks; its move at
cell ``perm[c]`` is the canonical board's move at ``c`` (player/board.py).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from generator.code_symmetry import canonical_codes, canonical_with_symmetry
from generator.position_codes import CODE, Codes, encode, marks_of
from generator.retrograde import OCCUPIED, Retrograde
from player.board import MARKS
from player.rules import Cell


def rows_of(result: Retrograde, codes: Codes) -> npt.NDArray[np.int64]:
    """The row of each code's class in ``result``, or -1 where the code is not reachable."""
    codes = np.asarray(codes, dtype=CODE)
    canonical = canonical_codes(result.symmetries, codes)
    marks = marks_of(codes, result.rules.cells)
    rows = np.full(len(codes), -1, dtype=np.int64)
    for m in np.unique(marks).tolist():
        start, stop = result.layer_starts[m], result.layer_starts[m + 1]
        if start == stop:
            continue
        layer = result.codes[start:stop]
        which = np.flatnonzero(marks == m)
        at = np.minimum(np.searchsorted(layer, canonical[which]), len(layer) - 1)
        found = layer[at] == canonical[which]
        rows[which[found]] = start + at[found]
    return rows


def move_scores(result: Retrograde, board: str) -> dict[Cell, int]:
    """The score of each legal move on ``board`` (any reachable unfinished board, in the book's
    notation); raises KeyError if the board is not one."""
    if len(board) != result.rules.cells or set(board) - set(MARKS):
        raise KeyError(f"board {board!r} is not a board of {result.rules}")
    code = np.array([encode(board)], dtype=CODE)
    row = int(rows_of(result, code)[0])
    if row < 0:
        raise KeyError(f"board {board!r} is not a reachable position of {result.rules}")
    _, used = canonical_with_symmetry(result.symmetries, code)
    perm = result.rules.symmetries[int(used[0])].perm
    scores = result.scores[row]
    moves = {perm[c]: int(scores[c]) for c in range(result.rules.cells) if scores[c] != OCCUPIED}
    if not moves:
        raise KeyError(f"board {board!r} is finished")
    return dict(sorted(moves.items()))
