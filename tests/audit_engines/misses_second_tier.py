"""Perfect play but on one line: as X it opens on the edge 1, and if O answers 7 (an optimal
reply, but not in the book's top tier, which holds 0 and 2) it takes 0 and then, while it holds
1 and 0 against O's 7, plays the first free cell, and loses. The best never-losing O beats it by
answering 7: a best response that looked at the top tier alone would say it cannot be beaten."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve


def choose(board: str) -> int:
    if board == ".........":
        return 1
    if board == ".X.....O.":
        return 0
    if board[0] == board[1] == "X" and board[7] == "O":
        return board.index(".")
    return best_moves(board)[0]


if __name__ == "__main__":
    serve(choose)
