"""The trap order, measured by enumerating every game against the reference opponents.

Targets (issue 2): never loses; wins against novice at least 92.70% first / 26.03% second, and
against random at least 98.69% first / 79.36% second. Choosing uniformly among the optimal moves
(as published tic-tac-toe AIs do) wins 77.5% / 16.5% against novice, 96.8% / 77.7% against random.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.enumerate_games import match, novice_player, random_player

from tictactoe_book import Book
from tictactoe_generator.trap import TrapArrays

OPPONENTS = {"novice": novice_player, "random": random_player}


def trap_policy(book: Book):  # type: ignore[no-untyped-def]
    return lambda board: book.evaluate(board).tiers[0]


def uniform_optimal(book: Book):  # type: ignore[no-untyped-def]
    return lambda board: book.evaluate(board).optimal


@pytest.mark.parametrize(
    ("opponent", "mark", "at_least"),
    [("novice", "X", "92.70"), ("novice", "O", "26.03"), ("random", "X", "98.69"), ("random", "O", "79.36")],
)
def test_trap_order_reaches_its_targets(book: Book, opponent: str, mark: str, at_least: str) -> None:
    win, _draw, loss = match(trap_policy(book), OPPONENTS[opponent], mark)
    assert loss == 0
    assert win * 100 >= Fraction(at_least), float(win)


@pytest.mark.parametrize(
    ("opponent", "mark", "published"),
    [("novice", "X", 77.5), ("novice", "O", 16.5), ("random", "X", 96.8), ("random", "O", 77.7)],
)
def test_uniform_optimal_play_matches_the_published_rates(
    book: Book, opponent: str, mark: str, published: float
) -> None:
    win, _draw, loss = match(uniform_optimal(book), OPPONENTS[opponent], mark)
    assert loss == 0
    assert round(float(win) * 100, 1) == published


def test_book_and_generator_state_the_enumerated_rates(book: Book, exact: TrapArrays) -> None:
    for mark, side in (("X", "first"), ("O", "second")):
        for name, player in OPPONENTS.items():
            win, _, _ = match(trap_policy(book), player, mark)
            stated = book.data["trap_rates"][side][name]
            assert Fraction(stated) == win
        rates = exact.first_player_rates if side == "first" else exact.second_player_rates
        assert rates == {
            "novice": match(trap_policy(book), novice_player, mark)[0],
            "random": match(trap_policy(book), random_player, mark)[0],
        }


def test_tiers_hold_exact_ties_only(book: Book) -> None:
    # The empty board: corners first, then edges, then the centre: every opening draws, but a
    # corner sets the most traps.
    assert book.evaluate(".........").tiers == ((0, 2, 6, 8), (1, 3, 5, 7), (4,))
