"""Perfect play, but it dies when X opens in the centre (O to move on ....X....)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve


def choose(board: str) -> int:
    if board == "....X....":
        sys.exit("cannot cope with the centre")
    return best_moves(board)[0]


if __name__ == "__main__":
    serve(choose)
