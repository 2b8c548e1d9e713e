"""Trap order over arrays (generator/tictactoe_generator/trap.py) against an independent oracle
(tests/oracles/trap_oracle.py),
exact and in floating point.

3x3: the policy wins 89/96 as the first player and 82/315 as the second against novice, 379/384
and 50/63 against random (docs/book-format.md). The 3x4 comparison with the oracle takes seconds
and runs under ``make test-big`` (test_build_big.py).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from limits_doc import documented_limits
from oracles.trap_oracle import TrapOracle

from tictactoe_book import Rules
from tictactoe_generator import trap as module
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import Retrograde, solve
from tictactoe_generator.trap import BOOK_FIRST, BOOK_SECOND, Rate, TrapArrays, tier_ranks, trap_arrays

ROOT = Path(__file__).resolve().parent.parent


def pair(rates: dict[str, Rate]) -> tuple[Rate, Rate]:
    """Chances keyed by opponent, as the oracle gives them: (against novice, against random)."""
    assert list(rates) == ["novice", "random"]  # the registry's order
    return rates["novice"], rates["random"]


def keyed(traps: TrapArrays) -> dict[str, int]:
    """Each canonical unfinished board and its row."""
    rows = traps.result.unfinished()
    return dict(zip(decode(traps.result.codes[rows], traps.result.rules.cells), rows.tolist(), strict=True))


def test_3x3_is_exact_with_the_documented_rates(exact: TrapArrays) -> None:
    assert exact.method == "exact" and exact.tolerance == 0
    assert pair(exact.first_player_rates) == (Fraction(89, 96), Fraction(379, 384))
    assert pair(exact.second_player_rates) == (Fraction(82, 315), Fraction(50, 63))


@pytest.mark.parametrize("shape", [(3, 3, 3), (3, 4, 3), (4, 3, 3), (2, 3, 2)], ids=str)
def test_float_tiers_equal_exact_tiers_and_rates_within_1e_12(shape: tuple[int, int, int]) -> None:
    result = solve(Rules(*shape))
    exact, approximate = trap_arrays(result, method="exact"), trap_arrays(result, method="float")
    assert approximate.method == "float" and approximate.tolerance == module.TOLERANCE
    assert np.array_equal(approximate.tier, exact.tier)
    for book in (BOOK_FIRST, BOOK_SECOND):
        want, got = exact.probabilities(book), approximate.probabilities(book)
        assert list(want) == list(got) == ["novice", "random"]
        for name in want:
            assert np.abs(want[name] - got[name]).max() <= 1e-12
    rows = range(0, len(result.codes), 97)  # and a sample through the exact fractions themselves
    for book, row in ((book, row) for book in (BOOK_FIRST, BOOK_SECOND) for row in rows):
        want, got = pair(exact.rates(book, row)), pair(approximate.rates(book, row))
        assert abs(float(want[0]) - got[0]) <= 1e-12 and abs(float(want[1]) - got[1]) <= 1e-12


@pytest.mark.parametrize("against", ["novice", "random"])
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misère"])
def test_3x3_every_canonical_position_as_an_independent_oracle(misere: bool, against: str) -> None:
    traps = trap_arrays(solve(Rules(misere=misere)), against=against)
    oracle = TrapOracle(3, 3, 3, misere=misere, against=against)
    marks = traps.result.marks
    assert len(keyed(traps)) == 627
    for board, row in keyed(traps).items():
        tiers, rates = oracle.book(board)
        assert traps.tiers(row) == tiers, board
        assert pair(traps.rates(int(marks[row]) % 2, row)) == rates, board
        assert pair(traps.rates(1 - int(marks[row]) % 2, row)) == oracle.reply(board), board


# The limits among policies that never lose (issue 24), as (against novice, against random):
# ranked against novice first, the novice limit; ranked against random first, the random one.
LIMITS = {
    "novice": ((F(89, 96), F(379, 384)), (F(82, 315), F(50, 63))),
    "random": ((F(7, 8), F(191, 192)), (F(22, 315), F(866, 945))),
}


@pytest.mark.parametrize("against", ["novice", "random"])
def test_3x3_from_the_empty_board_each_order_reaches_its_opponents_limit(against: str) -> None:
    traps = trap_arrays(solve(Rules()), against=against)
    assert (pair(traps.first_player_rates), pair(traps.second_player_rates)) == LIMITS[against]
    oracle = TrapOracle(3, 3, 3, against=against)
    assert (oracle.book("." * 9)[1], oracle.reply("." * 9)) == LIMITS[against]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misère"])
@pytest.mark.parametrize("against", ["novice", "random"])
def test_the_documented_3x3_limits_are_the_oracles(misere: bool, against: str) -> None:
    """docs/scaling.md's table of limits, its 3x3 rows: the independent oracle from the empty
    board, and what the build states."""
    game = "3x3 k=3 misère" if misere else "3x3 k=3"
    documented = documented_limits()[(game, against)]
    oracle = TrapOracle(3, 3, 3, misere=misere, against=against)
    assert (oracle.book("." * 9)[1], oracle.reply("." * 9)) == documented
    traps = trap_arrays(solve(Rules(misere=misere)), against=against)
    assert (pair(traps.first_player_rates), pair(traps.second_player_rates)) == documented


def test_2x4_misere_every_canonical_position_as_an_independent_oracle() -> None:
    traps = trap_arrays(solve(Rules(2, 4, 2, misere=True)))
    oracle = TrapOracle(2, 4, 2, misere=True)
    for board, row in keyed(traps).items():
        assert traps.tiers(row) == oracle.book(board)[0], board
    assert pair(traps.first_player_rates) == oracle.book("." * 8)[1]
    assert pair(traps.second_player_rates) == oracle.reply("." * 8)


def test_misere_3x3_the_book_opens_in_the_centre() -> None:
    # . . .
    # . X .      the only first move that does not lose: the only tier
    # . . .
    traps = trap_arrays(solve(Rules(misere=True)))
    assert traps.tiers(0) == ((4,),)


def test_the_misere_novice_avoids_completing_its_own_line() -> None:
    # X X .
    # O O .      O to move, misère: 5 completes O's row (a loss), 2 and 6..8 do not
    # X . .
    board = "XX.OO.X.."
    oracle = TrapOracle(3, 3, 3, misere=True)
    assert oracle.novice(board) == [2, 7, 8]
    # the normal novice takes the row instead
    assert TrapOracle(3, 3, 3).novice(board) == [5]


def test_exact_is_refused_where_denominators_would_not_fit(
    retro: Retrograde, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "EXACT_LIMIT", 1000)
    assert trap_arrays(retro).method == "float"  # chosen by default
    with pytest.raises(ValueError, match="beyond int64"):
        trap_arrays(retro, method="exact")


def test_progress_is_reported_per_layer(retro: Retrograde) -> None:
    calls: list[tuple[str, int, int]] = []
    trap_arrays(retro, progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert calls == [("trap", done, 9) for done in range(1, 10)]


# ---------------------------------------------------------------- tier_ranks, by hand


def ranks(position: list[int], novice: list[float], random: list[float], tolerance: float) -> list[int]:
    found = tier_ranks(np.array(position), [np.array(novice), np.array(random)], tolerance)
    return [int(rank) for rank in found]


def test_tiers_go_by_novice_then_random() -> None:
    # one position, four moves: (novice, random)
    moves = [(0.5, 0.1), (0.5, 0.9), (0.7, 0.0), (0.5, 0.9)]
    novice, random = [n for n, _ in moves], [r for _, r in moves]
    assert ranks([0, 0, 0, 0], novice, random, 0.0) == [2, 1, 0, 1]


def test_positions_are_ranked_apart() -> None:
    assert ranks([0, 0, 1, 1], [0.1, 0.2, 0.2, 0.1], [0.0] * 4, 0.0) == [1, 0, 0, 1]


def test_float_chances_within_the_tolerance_are_tied() -> None:
    a = 0.3
    b = a * (1 + 1e-12)  # rounding noise, far below 1e-9 of the value
    c = a * (1 + 1e-6)  # a real difference
    assert ranks([0, 0, 0], [a, b, c], [0.0] * 3, module.TOLERANCE) == [1, 1, 0]
    # novice ties within the tolerance are then ranked by random
    assert ranks([0, 0], [a, b], [0.2, 0.4], module.TOLERANCE) == [1, 0]
    # exactly: every difference counts
    assert ranks([0, 0, 0], [a, b, c], [0.0] * 3, 0.0) == [2, 1, 0]


def test_exact_ranks_work_on_integers() -> None:
    found = tier_ranks(np.array([0, 0, 0]), [np.array([6, 6, 9]), np.array([1, 2, 2])], 0.0)
    assert found.tolist() == [2, 1, 0]


def test_each_further_opponent_breaks_the_ties_left_before_it() -> None:
    # two positions; each move's chances against three opponents, in ranking order
    position = [0, 0, 0, 0, 1, 1, 1]
    chances = [(5, 1, 0), (5, 1, 3), (5, 2, 0), (4, 9, 9), (1, 1, 1), (1, 1, 2), (1, 1, 1)]
    keys = [np.array([c[i] for c in chances]) for i in range(3)]
    assert tier_ranks(np.array(position), keys, 0.0).tolist() == [2, 1, 0, 3, 1, 0, 1]
    assert tier_ranks(np.array(position), keys[:1], 0.0).tolist() == [0, 0, 0, 1, 0, 0, 0]


@pytest.mark.parametrize("seed", range(5))
def test_the_lcm_of_candidate_counts_is_python_s(seed: int) -> None:
    """Bit sets of up to 20 cells (4x5 uses bit 19), counted by Python: the trap order's
    denominators rest on it; the empty sets (finished rows) count for nothing."""
    rng = random.Random(seed)
    sets = [rng.getrandbits(rng.choice((3, 8, 16, 20))) & rng.getrandbits(20) for _ in range(50)]
    sets += [0, 1 << 19]
    counts = {bin(value).count("1") for value in sets} - {0}
    assert module.lcm_of_counts(np.array(sets, dtype=np.uint32)) == math.lcm(*counts)
    assert module.lcm_of_counts(np.zeros(3, dtype=np.uint32)) == 1


def test_the_margins_of_float_ties_are_the_closest_tie_and_the_closest_distinct_pair() -> None:
    """``Margins``: what the float method called a tie and what it kept apart, relatively."""
    margins = module.Margins()
    position = np.array([0, 0, 0, 1, 1, 2])
    first = np.array([0.5, 0.5 * (1 + 2e-12), 0.3, 0.25, 0.2, 0.9])
    ranks = tier_ranks(position, [first], module.TOLERANCE, margins)
    assert ranks.tolist() == [0, 0, 1, 0, 1, 0]
    assert margins.tied == pytest.approx(2e-12, rel=1e-3)
    assert margins.apart == pytest.approx(0.05 / 0.25)  # 0.25 against 0.2; 0.5 against 0.3 is 0.4
    exact = module.Margins()
    tier_ranks(position, [np.array([4, 4, 3, 2, 1, 9])], 0.0, exact)
    assert (exact.tied, exact.apart) == (0.0, 0.25)  # equal neighbours: a tie with no gap
