"""Perfect play, except that it never takes an immediate win when another move is free."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, free, immediate_wins, serve, to_move


def choose(board: str) -> int:
    wins = immediate_wins(board, to_move(board))
    others = [c for c in free(board) if c not in wins]
    return best_moves(board, others or None)[0]


if __name__ == "__main__":
    serve(choose)
