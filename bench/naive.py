"""The naive baseline: the minimax an introductory tutorial writes for 3x3, with no memo and no
symmetry, searching the whole tree below a board on every call (what a book look-up replaces)."""

from __future__ import annotations

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def minimax(board: str) -> int:
    """+1 if the side to move wins with best play, -1 if it loses, 0 for a draw."""
    mover = "X" if board.count("X") == board.count("O") else "O"
    best = -2
    for cell, mark in enumerate(board):
        if mark != ".":
            continue
        child = board[:cell] + mover + board[cell + 1 :]
        if any(all(child[c] == mover for c in line) for line in LINES):
            return 1
        score = 0 if "." not in child else -minimax(child)
        best = max(best, score)
    return best
