"""Exact match-up rates by enumerating every line of play (no sampling), for the tests.

Written apart from ``generator/tictactoe_generator/trap.py``: its own novice (from ``oracle.LINES``) and its
own walk. A policy maps a board (book notation, X moved first) to the cells it picks uniformly among.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from .oracle import LINES, line_owner, to_move

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
    """(win, draw, loss) of ``tested`` playing ``tested_mark`` (X moves first) from the empty board.

    The chances flow forward ply by ply: a board's share of the games splits evenly among the
    moves offered there. Shares are integers out of ``9! ** 9``, which every split (by 1 to 9)
    keeps whole, so the sums are exact without a Fraction reduced on every addition."""
    whole = math.factorial(9) ** 9
    ply: dict[str, int] = {".........": whole}
    ends = {"win": 0, "draw": 0, "loss": 0}
    while ply:
        following: dict[str, int] = {}
        for board, share in ply.items():
            won = line_owner(board)
            if won:
                ends["win" if won == tested_mark else "loss"] += share
                continue
            if "." not in board:
                ends["draw"] += share
                continue
            mark = to_move(board)
            options = (tested if mark == tested_mark else opponent)(board)
            assert options, f"no move offered on {board}"
            part, rest = divmod(share, len(options))
            assert rest == 0, f"{share} does not split {len(options)} ways"
            for cell in options:
                assert board[cell] == ".", f"illegal move {cell} on {board}"
                child = board[:cell] + mark + board[cell + 1 :]
                following[child] = following.get(child, 0) + part
        ply = following
    return (Fraction(ends["win"], whole), Fraction(ends["draw"], whole), Fraction(ends["loss"], whole))
