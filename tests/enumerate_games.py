"""Exact match-up rates by enumerating every line of play (no sampling), for the tests.

Written apart from ``generator/trap.py``: its own novice (from ``oracle.LINES``) and its own walk.
A policy maps a board (book notation, X moved first) to the cells it picks uniformly among.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from oracle import LINES, to_move, winner

Policy = Callable[[str], tuple[int, ...]]
Rates = tuple[Fraction, Fraction, Fraction]  # (win, draw, loss) for the player under test


def free_cells(board: str) -> tuple[int, ...]:
    return tuple(i for i, m in enumerate(board) if m == ".")


def completing(board: str, mark: str) -> tuple[int, ...]:
    """Cells where ``mark`` would complete a line."""
    found = set()
    for line in LINES:
        marks = [board[c] for c in line]
        if marks.count(mark) == 2 and marks.count(".") == 1:
            found.add(line[marks.index(".")])
    return tuple(sorted(found))


def random_player(board: str) -> tuple[int, ...]:
    return free_cells(board)


def novice_player(board: str) -> tuple[int, ...]:
    me = to_move(board)
    foe = "O" if me == "X" else "X"
    return completing(board, me) or completing(board, foe) or free_cells(board)


def match(tested: Policy, opponent: Policy, tested_mark: str) -> Rates:
    """(win, draw, loss) of ``tested`` playing ``tested_mark`` (X moves first) from the empty board."""

    @cache
    def walk(board: str) -> Rates:
        won = winner(board)
        if won:
            return (
                (Fraction(1), Fraction(0), Fraction(0))
                if won == tested_mark
                else (Fraction(0), Fraction(0), Fraction(1))
            )
        if "." not in board:
            return (Fraction(0), Fraction(1), Fraction(0))
        mark = to_move(board)
        options = (tested if mark == tested_mark else opponent)(board)
        assert options, f"no move offered on {board}"
        total = [Fraction(0)] * 3
        for cell in options:
            assert board[cell] == ".", f"illegal move {cell} on {board}"
            sub = walk(board[:cell] + mark + board[cell + 1 :])
            for i in range(3):
                total[i] += sub[i]
        return (total[0] / len(options), total[1] / len(options), total[2] / len(options))

    return walk(".........")
