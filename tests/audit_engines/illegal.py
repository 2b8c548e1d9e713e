"""Perfect play, except on three positions: an occupied cell, a cell off the board, and words."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve

WRONG = {
    "....X....": "4",  # occupied: the centre X just took
    "X........": "9",  # off the board
    "X...O...X": "the corner, obviously",
}


def choose(board: str) -> object:
    return WRONG.get(board, best_moves(board)[0])


if __name__ == "__main__":
    serve(choose)
