"""Perfect play, but it never answers when X opens in the corner 0 (O to move on X........)."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve


def choose(board: str) -> int:
    if board == "X........":
        time.sleep(3600)
    return best_moves(board)[0]


if __name__ == "__main__":
    serve(choose)
