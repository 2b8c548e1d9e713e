"""The solver (generator/tictactoe_generator/solve.py) against the project's facts and two independent
minimaxes (tests/oracles/oracle.py, tests/oracles/negamax.py).

3x3: 5,478 reachable positions (4,520 unfinished, 958 finished), 765 up to symmetry (627 and
138), 549,946 game-tree nodes, 255,168 games (131,184 / 77,904 / 46,080), a draw. 3x4 with
k=3: 111,973 reachable, 28,275 up to symmetry, a first-player win. Misère 3x3 is a draw and the
centre is the only first move that does not lose. The 4x4 facts are in test_solve_big.py;
the 3x4 comparison with the negamax, which takes seconds, in test_build_big.py.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from oracles import oracle
from oracles.negamax import Negamax, Result

from tictactoe_book import Rules
from tictactoe_book.game import EMPTY, canonical, decode_score
from tictactoe_book.opponents import NOVICE
from tictactoe_generator.codes import FIRST_DIGIT, SECOND_DIGIT, completing_cells, decode
from tictactoe_generator.solve import (
    FIRST_LINE,
    FULL,
    OCCUPIED,
    SECOND_LINE,
    UNFINISHED,
    Outcomes,
    Retrograde,
    solve,
)
from tictactoe_generator.writer import build_book, encode

Reachable = tuple[set[str], set[str]]

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def retro() -> Retrograde:
    return solve(Rules())


@pytest.fixture(scope="module")
def misere() -> Retrograde:
    return solve(Rules(misere=True))


def book_score(result: Result, cells: int) -> int:
    """(value, plies) on the book's scale, written out here from docs/book-format.md."""
    value, plies = result
    return value * (cells + 1 - plies)


def entries(result: Retrograde) -> dict[str, dict[int, int]]:
    """Each canonical unfinished board with its move scores, read straight off the arrays."""
    rows = result.unfinished()
    boards = decode(result.codes[rows], result.rules.cells)
    return {
        board: {c: s for c, s in enumerate(scores) if s != OCCUPIED}
        for board, scores in zip(boards, result.scores[rows].tolist(), strict=True)
    }


def move_scores(found: dict[str, dict[int, int]], rules: Rules, board: str) -> dict[int, int]:
    """The move scores of any reachable unfinished ``board``, in its own orientation, from its
    canonical position's (``found``: ``entries``): its canonical cell ``j`` is its cell ``perm[j]``."""
    key, symmetry = canonical(rules, board)
    return {symmetry.perm[cell]: score for cell, score in found[key].items()}


def test_3x3_counts(retro: Retrograde) -> None:
    counts = retro.counts
    assert (counts.reachable, counts.unfinished, counts.finished) == (5478, 4520, 958)
    assert (counts.canonical, counts.canonical_unfinished, counts.canonical_finished) == (765, 627, 138)
    assert counts.tree_nodes == 549946
    assert counts.games == Outcomes(131184, 77904, 46080)
    assert counts.games.total == 255168


def test_3x3_is_a_draw(retro: Retrograde) -> None:
    assert decode(retro.codes[:1], 9) == ["........."]
    assert (int(retro.best[0]), int(retro.value[0]), int(retro.plies[0])) == (0, 0, 9)


def test_3x3_every_board_scores_as_the_oracle(
    retro: Retrograde, reachable: Reachable, cached_oracle: functools._lru_cache_wrapper[Result]
) -> None:
    found = entries(retro)
    assert len(found) == 627
    unfinished, _ = reachable
    for board in unfinished:  # all 4,520, each in its own orientation
        expected = {c: book_score(r, 9) for c, r in oracle.move_results(board, cached_oracle).items()}
        assert move_scores(found, retro.rules, board) == expected, board


def test_3x3_book_from_the_solve_is_the_shipped_book() -> None:
    assert encode(build_book(Rules())) == (ROOT / "book" / "tictactoe.json").read_bytes()


def test_value_and_plies_decode_the_best_score(retro: Retrograde) -> None:
    marks, value, plies = retro.marks.tolist(), retro.value.tolist(), retro.plies.tolist()
    for row in retro.unfinished().tolist():
        empties = 9 - marks[row]
        assert (value[row], plies[row]) == decode_score(int(retro.best[row]), empties, 9)
        assert retro.first_to_move[row] == (marks[row] % 2 == 0)


def test_scores_mark_exactly_the_free_cells_and_stay_in_range(retro_3x4: Retrograde) -> None:
    cells = 12
    boards = decode(retro_3x4.codes, cells)
    unfinished = retro_3x4.status == UNFINISHED
    free = np.array([[mark == EMPTY for mark in board] for board in boards])
    has_move = free & unfinished[:, None]
    assert np.array_equal(retro_3x4.scores != OCCUPIED, has_move)
    assert np.array_equal(retro_3x4.successors >= 0, has_move)
    moves = retro_3x4.scores[has_move]
    assert moves.min() >= -(cells - 1) and moves.max() <= cells
    assert np.array_equal(retro_3x4.best[unfinished], retro_3x4.scores[unfinished].max(axis=1))


def test_successors_are_the_canonical_children(retro_3x4: Retrograde) -> None:
    rules = retro_3x4.rules
    boards = decode(retro_3x4.codes, rules.cells)
    for row in retro_3x4.unfinished().tolist()[::7]:
        board = boards[row]
        mark = "X" if board.count("X") == board.count("O") else "O"
        for cell, child_row in enumerate(retro_3x4.successors[row].tolist()):
            if board[cell] == EMPTY:
                child = board[:cell] + mark + board[cell + 1 :]
                assert boards[child_row] == canonical(rules, child)[0]


def test_finished_positions_say_how_they_ended(retro: Retrograde, reachable: Reachable) -> None:
    unfinished, finished = reachable
    boards = decode(retro.codes, 9)
    how = {FIRST_LINE: "X", SECOND_LINE: "O", FULL: None}
    for board, status in zip(boards, retro.status.tolist(), strict=True):
        if status == UNFINISHED:
            assert board in unfinished
        else:
            assert board in finished
            assert oracle.line_owner(board) == how[status], board


def test_3x4_counts_and_first_player_win(retro_3x4: Retrograde) -> None:
    assert (retro_3x4.counts.reachable, retro_3x4.counts.canonical) == (111973, 28275)
    assert retro_3x4.value[0] == 1


def test_misere_3x3_is_a_draw_and_only_the_centre_does_not_lose(misere: Retrograde) -> None:
    # . . .
    # . X .      the one first move that keeps the draw
    # . . .
    assert misere.value[0] == 0
    first_moves = misere.scores[0].tolist()
    assert [cell for cell, score in enumerate(first_moves) if score >= 0] == [4]
    assert all(score < 0 for cell, score in enumerate(first_moves) if cell != 4)


def test_misere_3x3_every_board_scores_as_an_independent_negamax(
    misere: Retrograde, reachable: Reachable
) -> None:
    negamax, found = Negamax(3, 3, 3, misere=True), entries(misere)
    for board in reachable[0]:  # the same 4,520 boards: misère ends games the same way
        expected = {c: book_score(r, 9) for c, r in negamax.moves(board).items()}
        assert move_scores(found, misere.rules, board) == expected, board


def test_misere_counts_swap_the_winners(retro: Retrograde, misere: Retrograde) -> None:
    normal, reversed_ = retro.counts, misere.counts
    assert reversed_.games == Outcomes(normal.games.second_wins, normal.games.first_wins, normal.games.draws)
    assert (reversed_.reachable, reversed_.canonical, reversed_.tree_nodes) == (5478, 765, 549946)


def test_progress_is_reported_per_layer() -> None:
    calls: list[tuple[str, int, int]] = []
    solve(Rules(2, 3, 2), progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert calls == [("reach", m, 6) for m in range(1, 7)] + [("solve", m, 7) for m in range(1, 8)]


def test_completing_cells_give_the_novices_moves(retro_3x4: Retrograde) -> None:
    rules = retro_3x4.rules
    rows = retro_3x4.unfinished()
    codes = retro_3x4.codes[rows]
    first = retro_3x4.first_to_move[rows]
    as_x = completing_cells(rules, codes, FIRST_DIGIT)
    as_o = completing_cells(rules, codes, SECOND_DIGIT)
    for i, board in enumerate(decode(codes, rules.cells)):
        mark = "X" if first[i] else "O"
        wins, blocks = (as_x[i], as_o[i]) if first[i] else (as_o[i], as_x[i])
        free = [c for c, m in enumerate(board) if m == EMPTY]
        chosen = np.flatnonzero(wins) if wins.any() else np.flatnonzero(blocks) if blocks.any() else free
        assert list(chosen) == NOVICE.moves(rules, board, mark), board
