"""Solve an m,n,k-game exactly: one walk of the game tree from the empty board, memoized.

Scores use the book's scale (docs/book-format.md): for the side to move, a win in ``p`` plies
scores ``cells + 1 - p``, a loss in ``p`` plies ``-(cells + 1 - p)``, a draw 0. Higher is better,
so maximizing the score makes the winner win as fast as possible and the loser lose as slowly
as possible.
"""

from __future__ import annotations

from dataclasses import dataclass

from player.board import EMPTY, FIRST, SECOND
from player.rules import Cell, Rules, RulesError


@dataclass(frozen=True)
class Outcomes:
    """How many complete games end each way."""

    first_wins: int
    second_wins: int
    draws: int

    @property
    def total(self) -> int:
        """All complete games."""
        return self.first_wins + self.second_wins + self.draws

    def __add__(self, other: Outcomes) -> Outcomes:
        return Outcomes(
            self.first_wins + other.first_wins,
            self.second_wins + other.second_wins,
            self.draws + other.draws,
        )


@dataclass(frozen=True)
class Solution:
    """Every reachable position of ``rules`` with its proven move scores."""

    rules: Rules
    #: unfinished board -> {move: score of that move for the side to move}
    move_scores: dict[str, dict[Cell, int]]
    #: finished board -> the winning mark, or None for a full board with no line
    finished: dict[str, str | None]
    #: nodes of the full game tree (every move sequence prefix, the empty board included)
    tree_nodes: int
    #: complete games by result
    games: Outcomes
    #: positions the search expanded: each unfinished position exactly once
    searches: int = 0

    def score(self, board: str) -> int:
        """The score of an unfinished board for the side to move: its best move's score."""
        return max(self.move_scores[board].values())

    @property
    def reachable(self) -> int:
        """Reachable positions, finished ones included."""
        return len(self.move_scores) + len(self.finished)


#: The largest board this pure-Python solver takes on: 3x4 (111,973 positions) solves in
#: seconds; 4x4 has millions of positions and would take hours and gigabytes.
SOLVER_MAX_CELLS = 12


def solve(rules: Rules) -> Solution:
    """Walk the whole game tree once; no position is searched twice."""
    if rules.cells > SOLVER_MAX_CELLS:
        raise RulesError(
            f"{rules} has {rules.cells} cells; this solver stops at {SOLVER_MAX_CELLS} (3x4) to stay fast"
        )
    if rules.misere:
        raise RulesError(f"{rules}: this solver plays normal rules only (generator.retrograde solves misère)")
    cells = rules.cells
    win_score = cells  # a win on the very next ply
    through: list[list[tuple[Cell, ...]]] = [[] for _ in range(cells)]
    for line in rules.lines:
        for c in line:
            through[c].append(line)

    move_scores: dict[str, dict[Cell, int]] = {}
    finished: dict[str, str | None] = {}
    searches = 0

    def completes_line(board: str, cell: Cell, mark: str) -> bool:
        return any(all(board[c] == mark for c in line) for line in through[cell])

    def search(board: str, mark: str) -> int:
        """Score of ``board`` for ``mark``, who is to move; the board is not finished."""
        nonlocal searches
        known = move_scores.get(board)
        if known is not None:
            return max(known.values())
        searches += 1
        nxt = SECOND if mark == FIRST else FIRST
        scores: dict[Cell, int] = {}
        for cell in range(cells):
            if board[cell] != EMPTY:
                continue
            child = board[:cell] + mark + board[cell + 1 :]
            if completes_line(child, cell, mark):
                finished[child] = mark
                scores[cell] = win_score
            elif EMPTY not in child:
                finished[child] = None
                scores[cell] = 0
            else:
                s = search(child, nxt)
                scores[cell] = -s + (1 if s > 0 else -1 if s < 0 else 0)
        move_scores[board] = scores
        return max(scores.values())

    empty = EMPTY * cells
    search(empty, FIRST)
    nodes, games = _count_tree(rules, move_scores, finished)
    return Solution(rules, move_scores, finished, nodes, games, searches)


def _count_tree(
    rules: Rules, move_scores: dict[str, dict[Cell, int]], finished: dict[str, str | None]
) -> tuple[int, Outcomes]:
    """Count game-tree nodes and complete games, memoized on positions (counts add up)."""
    memo: dict[str, tuple[int, Outcomes]] = {}
    outcome = {
        FIRST: Outcomes(1, 0, 0),
        SECOND: Outcomes(0, 1, 0),
        None: Outcomes(0, 0, 1),
    }

    def count(board: str) -> tuple[int, Outcomes]:
        if board in finished:
            return 1, outcome[finished[board]]
        known = memo.get(board)
        if known is not None:
            return known
        mark = FIRST if board.count(FIRST) == board.count(SECOND) else SECOND
        nodes, games = 1, Outcomes(0, 0, 0)
        for cell in move_scores[board]:
            n, g = count(board[:cell] + mark + board[cell + 1 :])
            nodes += n
            games = games + g
        memo[board] = (nodes, games)
        return nodes, games

    return count(EMPTY * rules.cells)
