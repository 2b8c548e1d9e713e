"""Perfect play after a slow start, as a JVM or a program loading a model starts: it sleeps
argv[1] seconds (3 unless given) before it reads its first board, then answers each at once."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve


def choose(board: str) -> int:
    return best_moves(board)[0]


if __name__ == "__main__":
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
    serve(choose)
