"""Plays a fastest win, else a draw, else the slowest loss: the lowest such cell."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve


def choose(board: str) -> int:
    return best_moves(board)[0]


if __name__ == "__main__":
    serve(choose)
