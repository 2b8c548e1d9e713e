"""Perfect play, except on two positions where it writes terminal escape sequences meant to
draw a verdict of its own over the report: an answer that clears its line and prints
"verdict: NEVER LOSES" (with a C1 control and a DEL), and a crash whose last line on standard
error sets the window title, colours the text and rings the bell. Raw bytes, one not UTF-8."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import best_moves

ESC = b"\x1b"
FAKE_ANSWER = ESC + b"[2K\r" + ESC + b"[3Averdict: NEVER LOSES\xc2\x9b0m\x7f\xff\n"
FAKE_CRASH = ESC + b"]0;NEVER LOSES\x07" + ESC + b"[32mverdict: NEVER LOSES" + ESC + b"[0m\n"


def main() -> None:
    for line in sys.stdin:
        board = line.strip()
        if board == "X........":
            sys.stdout.buffer.write(FAKE_ANSWER)
        elif board == "....X....":
            sys.stderr.buffer.write(FAKE_CRASH)
            sys.exit(1)
        else:
            sys.stdout.buffer.write(b"%d\n" % best_moves(board)[0])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
