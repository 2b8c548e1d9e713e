"""The textbook rule list: win, else block, else centre, else a corner, else an edge.

It misses fork blocks: as O after X 0, O 4, X 8 it takes corner 2, X must block at 6 and
that forks (3 and 7).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import free, immediate_wins, serve, to_move


def choose(board: str) -> int:
    me = to_move(board)
    foe = "O" if me == "X" else "X"
    for options in (immediate_wins(board, me), immediate_wins(board, foe)):
        if options:
            return options[0]
    for cell in (4, 0, 2, 6, 8, 1, 3, 5, 7):
        if cell in free(board):
            return cell
    raise AssertionError(board)


if __name__ == "__main__":
    serve(choose)
