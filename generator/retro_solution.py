"""A retrograde result (generator/retrograde.py) as a ``generator.solve.Solution``.

The solution lists every reachable board, so this is for small boards only (3x4 has 111,973);
existing code (trap order, the book writer, the vectors) and tests take it unchanged. Each class
is unfolded into its boards: the image ``board[i] = key[perm[i]]`` of the canonical board
``key`` has at cell ``i`` the move ``perm[i]`` of ``key``, with the same score.
"""

from __future__ import annotations

from generator.position_codes import decode
from generator.retrograde import FIRST_LINE, FULL, SECOND_LINE, UNFINISHED, Retrograde
from generator.solve import SOLVER_MAX_CELLS, Solution
from player.board import EMPTY, FIRST, SECOND
from player.rules import Cell, RulesError

_WINNER = {FIRST_LINE: FIRST, SECOND_LINE: SECOND, FULL: None}


def as_solution(result: Retrograde) -> Solution:
    """Every reachable board of ``result`` with its move scores, as ``generator.solve`` gives.

    ``Solution`` has no misère rules (its ``finished`` names the mark that completed a line as
    the winner), so a misère result is refused; ``searches`` stays 0: nothing was searched.
    """
    rules = result.rules
    if result.misere:
        raise ValueError("a Solution holds normal rules only; this result is misère")
    if rules.cells > SOLVER_MAX_CELLS:
        raise RulesError(f"{rules} has too many boards to list one by one (at most {SOLVER_MAX_CELLS} cells)")
    move_scores: dict[str, dict[Cell, int]] = {}
    finished: dict[str, str | None] = {}
    perms = [symmetry.perm for symmetry in rules.symmetries]
    for key, status, row in zip(
        decode(result.codes, rules.cells), result.status.tolist(), result.scores.tolist(), strict=True
    ):
        for perm in perms:
            board = "".join(key[p] for p in perm)
            if status == UNFINISHED:
                move_scores[board] = {i: row[p] for i, p in enumerate(perm) if board[i] == EMPTY}
            else:
                finished[board] = _WINNER[status]
    return Solution(rules, move_scores, finished, result.counts.tree_nodes, result.counts.games)
