"""4x4 facts of the retrograde solver, and a spot check against an independent negamax.

4x4 with k=4: 9,722,011 reachable positions, 1,217,977 up to symmetry (finished ones
included), a draw. 4x4 with k=3: 6,036,001 reachable, 756,387 up to symmetry, a first-player
win. Each solve takes seconds and a few hundred MB: ``make test-big`` runs these, ``make test``
does not.
"""

from __future__ import annotations

import random

import pytest
from oracles.negamax import Negamax, Result

from tictactoe_book import Rules
from tictactoe_book.game import transform
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import Retrograde, solve

pytestmark = pytest.mark.big

#: (fewest marks, most marks, how many positions): late positions are cheap for a plain
#: negamax, early ones are not, so most samples come from the end of the game.
SAMPLES = ((10, 15, 2000), (7, 9, 150), (5, 6, 6))


@pytest.fixture(scope="module")
def four_in_a_row() -> Retrograde:
    return solve(Rules(4, 4, 4))


@pytest.fixture(scope="module")
def three_in_a_row() -> Retrograde:
    return solve(Rules(4, 4, 3))


def test_4x4_k4_counts_and_draw(four_in_a_row: Retrograde) -> None:
    assert four_in_a_row.counts.reachable == 9_722_011
    assert four_in_a_row.counts.canonical == 1_217_977
    assert decode(four_in_a_row.codes[:1], 16) == ["." * 16]
    assert four_in_a_row.value[0] == 0


def test_4x4_k3_counts_and_first_player_win(three_in_a_row: Retrograde) -> None:
    assert three_in_a_row.counts.reachable == 6_036_001
    assert three_in_a_row.counts.canonical == 756_387
    assert three_in_a_row.value[0] == 1


def spot_check(result: Retrograde, samples: tuple[tuple[int, int, int], ...], seed: int) -> int:
    """Compare random reachable boards (random images of random positions) with the negamax."""
    rules = result.rules
    negamax = Negamax(rules.rows, rules.cols, rules.k, misere=result.misere)
    rng = random.Random(seed)
    unfinished = result.unfinished()
    marks = result.marks[unfinished]
    checked = 0
    for fewest, most, count in samples:
        rows = unfinished[(marks >= fewest) & (marks <= most)].tolist()
        for row in rng.sample(rows, min(count, len(rows))):
            symmetry = rng.choice(rules.symmetries)
            board = transform(decode(result.codes[row : row + 1], rules.cells)[0], symmetry)
            # the image's cell i is the position's cell perm[i]
            scores = result.scores[row].tolist()
            found = {i: scores[source] for i, source in enumerate(symmetry.perm) if board[i] == "."}
            expected = {c: book_score(r, rules.cells) for c, r in negamax.moves(board).items()}
            assert found == expected, board
            checked += 1
    return checked


def book_score(result: Result, cells: int) -> int:
    value, plies = result
    return value * (cells + 1 - plies)


def test_4x4_k4_agrees_with_an_independent_negamax(four_in_a_row: Retrograde) -> None:
    assert spot_check(four_in_a_row, SAMPLES, seed=44) == sum(count for _, _, count in SAMPLES)


def test_4x4_k3_agrees_with_an_independent_negamax(three_in_a_row: Retrograde) -> None:
    assert spot_check(three_in_a_row, ((8, 15, 2000), (6, 7, 100), (4, 5, 10)), seed=43) == 2110


def test_4x4_misere_agrees_with_an_independent_negamax() -> None:
    misere = solve(Rules(4, 4, 4, misere=True))
    assert misere.counts.reachable == 9_722_011
    assert spot_check(misere, ((11, 15, 1000), (8, 10, 50)), seed=45) == 1050
