"""An independent tic-tac-toe oracle: plain minimax, written separately from the generator.

It shares nothing with ``player`` or ``generator``: its own winning lines (typed in), no symmetry,
no memo of its own (tests wrap it in a cache; the benchmark uses it bare as the naive baseline,
the way introductory tutorials build it).

Scores: (value, plies) for the side to move, value +1 win / 0 draw / -1 loss, plies to the end
counting the move about to be made. Better = win sooner, then draw, then lose later.
"""

from __future__ import annotations

from collections.abc import Callable

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

Result = tuple[int, int]  # (value, plies)


def line_owner(board: str) -> str | None:
    """The mark owning a line of ``board``, or None: the winner under the normal rules, the
    loser under misère (the audit's misère engine asks it too)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def to_move(board: str) -> str:
    return "X" if board.count("X") == board.count("O") else "O"


def rank(result: Result) -> tuple[int, int]:
    """Sort key: larger is better for the side to move."""
    value, plies = result
    if value > 0:
        return (2, -plies)
    if value < 0:
        return (0, plies)
    return (1, 0)


def move_results(board: str, solve: Callable[[str], Result]) -> dict[int, Result]:
    """(value, plies) of each legal move for the side to move, using ``solve`` for the rest."""
    mark = to_move(board)
    results = {}
    for cell in range(9):
        if board[cell] != ".":
            continue
        child = board[:cell] + mark + board[cell + 1 :]
        if line_owner(child) == mark:
            results[cell] = (1, 1)
        elif "." not in child:
            results[cell] = (0, 1)
        else:
            value, plies = solve(child)
            results[cell] = (-value, plies + 1)
    return results


def minimax(board: str) -> Result:
    """Plain recursive minimax, no memo: the naive way."""
    return max(move_results(board, minimax).values(), key=rank)


def all_positions() -> tuple[set[str], set[str]]:
    """(unfinished, finished) reachable positions, by a breadth-first walk from the empty board."""
    unfinished: set[str] = set()
    finished: set[str] = set()
    frontier = {"........."}
    while frontier:
        nxt = set()
        for board in frontier:
            if line_owner(board) or "." not in board:
                finished.add(board)
                continue
            unfinished.add(board)
            mark = to_move(board)
            for cell in range(9):
                if board[cell] == ".":
                    nxt.add(board[:cell] + mark + board[cell + 1 :])
        frontier = nxt
    return unfinished, finished


def orientations(board: str) -> list[str]:
    """The board's 8 images, by rotating the 3x3 grid and mirroring it (typed out, no tables)."""

    def rotate(b: str) -> str:  # clockwise: new row r = old column r read bottom to top
        return "".join(b[(2 - c) * 3 + r] for r in range(3) for c in range(3))

    def mirror(b: str) -> str:
        return "".join(b[r * 3 + (2 - c)] for r in range(3) for c in range(3))

    images = []
    current = board
    for _ in range(4):
        images.append(current)
        images.append(mirror(current))
        current = rotate(current)
    return images
