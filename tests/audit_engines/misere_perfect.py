"""Perfect misère play from the rules alone (completing a line loses): the best move by its own
negamax, a win as fast as it can, else a draw, else the slowest loss; the lowest such cell."""

from __future__ import annotations

import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import free, line_owner, play, serve


@functools.cache
def value(board: str) -> int:
    """Negamax for the side to move: a win in p plies is 10 - p, a loss -(10 - p), a draw 0."""
    return max(move_value(board, cell) for cell in free(board))


def move_value(board: str, cell: int) -> int:
    after = play(board, cell)
    if line_owner(after):
        return -9  # the mover completed a line: a loss in 1
    if "." not in after:
        return 0
    inner = value(after)
    return -inner + (1 if inner > 0 else -1 if inner < 0 else 0)


def choose(board: str) -> int:
    top = max(move_value(board, c) for c in free(board))
    return next(c for c in free(board) if move_value(board, c) == top)


if __name__ == "__main__":
    serve(choose)
