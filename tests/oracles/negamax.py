"""An independent solver for any m,n,k-game, normal or misère: memoized negamax over strings.

Written apart from ``generator`` (and from ``oracle.py``, which knows 3x3 only): it never lists
winning lines but walks the four directions from the cell just played, counting the run of the
mover's marks as a person checks a gomoku board; no symmetry, no integer codes, no arrays.

Results are (value, plies) for the side to move: value +1 win / 0 draw / -1 loss, plies to the
end counting the move about to be made; better = win sooner, then draw, then lose later.
"""

from __future__ import annotations

Result = tuple[int, int]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def preference(result: Result) -> tuple[int, int]:
    """Sort key: larger is better for the side to move."""
    value, plies = result
    return (2, -plies) if value > 0 else (0, plies) if value < 0 else (1, 0)


class Negamax:
    """Solves boards of one game; remembers every board it has solved."""

    def __init__(self, rows: int, cols: int, k: int, *, misere: bool = False) -> None:
        self.rows, self.cols, self.k, self.misere = rows, cols, k, misere
        self.memo: dict[str, Result] = {}
        # per cell, per direction: the cells met walking away from it each way (nearest first,
        # k - 1 at most: a run of k needs no more), walked once here instead of on every check
        self.rays = [
            [(self.walk(cell, dr, dc), self.walk(cell, -dr, -dc)) for dr, dc in DIRECTIONS]
            for cell in range(rows * cols)
        ]

    def walk(self, cell: int, dr: int, dc: int) -> tuple[int, ...]:
        """The cells from ``cell`` (excluded) in steps of (dr, dc) until the edge, k - 1 at most."""
        row, col = divmod(cell, self.cols)
        met = []
        r, c = row + dr, col + dc
        while 0 <= r < self.rows and 0 <= c < self.cols and len(met) < self.k - 1:
            met.append(r * self.cols + c)
            r, c = r + dr, c + dc
        return tuple(met)

    def makes_a_row(self, board: str, cell: int) -> bool:
        """Does the mark on ``cell`` stand in a run of at least ``k`` of its kind?"""
        mark = board[cell]
        for both_ways in self.rays[cell]:
            run = 1
            for way in both_ways:
                for other in way:
                    if board[other] != mark:
                        break
                    run += 1
            if run >= self.k:
                return True
        return False

    def moves(self, board: str) -> dict[int, Result]:
        """(value, plies) of every legal move on an unfinished ``board``."""
        mark = "X" if board.count("X") == board.count("O") else "O"
        results = {}
        for cell, here in enumerate(board):
            if here != ".":
                continue
            child = board[:cell] + mark + board[cell + 1 :]
            if self.makes_a_row(child, cell):
                results[cell] = (-1, 1) if self.misere else (1, 1)
            elif "." not in child:
                results[cell] = (0, 1)
            else:
                value, plies = self.solve(child)
                results[cell] = (-value, plies + 1)
        return results

    def solve(self, board: str) -> Result:
        """(value, plies) of an unfinished ``board`` for the side to move."""
        known = self.memo.get(board)
        if known is None:
            known = self.memo[board] = max(self.moves(board).values(), key=preference)
        return known
