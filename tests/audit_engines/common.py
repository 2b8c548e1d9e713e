"""Shared by the audit's test engines: an exhaustive negamax of their own (no book, no player
package; the lines and the side to move are tests/oracles/oracle.py's), and the contract's loop:
a board per line in, a cell per line out."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from oracles.oracle import line_owner, to_move

__all__ = ["line_owner", "to_move"]  # the engines import them from here, with the rest


def free(board: str) -> list[int]:
    return [c for c in range(9) if board[c] == "."]


def play(board: str, cell: int) -> str:
    return board[:cell] + to_move(board) + board[cell + 1 :]


@functools.cache
def value(board: str) -> int:
    """Negamax for the side to move: a win in p plies is 10 - p, a loss -(10 - p), a draw 0."""
    best = -100
    for cell in free(board):
        best = max(best, move_value(board, cell))
    return best


def move_value(board: str, cell: int) -> int:
    after = play(board, cell)
    if line_owner(after):
        return 9  # a win in 1
    if "." not in after:
        return 0
    inner = value(after)
    return -inner + (1 if inner > 0 else -1 if inner < 0 else 0)


def best_moves(board: str, cells: list[int] | None = None) -> list[int]:
    options = free(board) if cells is None else cells
    top = max(move_value(board, c) for c in options)
    return [c for c in options if move_value(board, c) == top]


def immediate_wins(board: str, mark: str) -> list[int]:
    return [c for c in free(board) if line_owner(board[:c] + mark + board[c + 1 :]) == mark]


def serve(choose: Callable[[str], object]) -> None:
    for line in sys.stdin:
        print(choose(line.strip()), flush=True)
