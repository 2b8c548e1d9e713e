"""Perfect play, but it floods standard error with 32 MiB and exits with status 1 when asked
two positions: after X opens in the centre (....X....) in lines of 1 KiB, then its reason on a
last line; after X opens in the corner 0 (X........) in one line, never ended."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves, serve

MIB = 1024 * 1024


def choose(board: str) -> int:
    if board == "....X....":
        sys.stderr.buffer.write((b"." * 1023 + b"\n") * (32 * MIB // 1024))
        sys.exit("gave up after all that")
    if board == "X........":
        sys.stderr.buffer.write(b"!" * (32 * MIB))
        sys.exit(1)
    return best_moves(board)[0]


if __name__ == "__main__":
    serve(choose)
