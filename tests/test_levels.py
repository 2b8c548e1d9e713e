"""The player's levels, proved by enumeration: perfect never loses and takes every immediate win;
its exact rates equal the book's trap-order rates; the README's table is what the project computes."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from enumerate_games import match, novice_player, random_player

from generator.reports.levels import END, START, level_rates, markdown_table
from player import LEVELS, Book, Rules, choose_move
from player.errors import LevelError
from player.game import EMPTY, legal_moves, other, swap_marks, winner
from player.play import candidates

ROOT = Path(__file__).resolve().parent.parent
Rates = dict[tuple[str, str, str], tuple[Fraction, Fraction, Fraction]]


@pytest.fixture(scope="module")
def rates(book: Book) -> Rates:
    """generator.reports.levels's exact rates, computed once for the tests that read them."""
    return level_rates(book)


@pytest.mark.parametrize("first", ["X", "O"])
@pytest.mark.parametrize("computer", ["X", "O"])
def test_perfect_never_loses_against_any_line_of_play(book: Book, computer: str, first: str) -> None:
    """Every opponent move, and every move the perfect level may choose among ties."""
    rules = Rules()
    seen: set[str] = set()
    games = 0

    def walk(board: str, turn: str) -> None:
        nonlocal games
        if board in seen:
            return
        seen.add(board)
        won = winner(rules, board)
        assert won != other(computer), f"the computer ({computer}) lost: {board}"
        if won or EMPTY not in board:
            games += 1
            return
        if turn == computer:
            moves = candidates(book.evaluate(board, first=first), "perfect")
        else:
            moves = tuple(legal_moves(board))
        for cell in moves:
            walk(board[:cell] + turn + board[cell + 1 :], other(turn))

    walk(EMPTY * 9, first)
    assert games > 100


def test_perfect_takes_every_immediate_win(book: Book, reachable: tuple[set[str], set[str]]) -> None:
    unfinished, _ = reachable
    checked = 0
    for board in unfinished:
        turn = "X" if board.count("X") == board.count("O") else "O"
        wins = {c for c in legal_moves(board) if winner(Rules(), board[:c] + turn + board[c + 1 :]) == turn}
        if wins:
            assert set(candidates(book.evaluate(board), "perfect")) <= wins, board
            # the same position in a game where O moved first
            assert set(book.evaluate(swap_marks(board), first="O").tiers[0]) <= wins
            checked += 1
    assert checked > 1000


def test_perfect_rates_equal_the_trap_order_rates(book: Book, rates: Rates) -> None:
    stated = book.data["trap_rates"]
    for side, mark in (("first", "X"), ("second", "O")):
        for opponent, player in (("novice", novice_player), ("random", random_player)):
            win, draw, loss = rates[("perfect", opponent, side)]
            assert loss == 0
            assert win == Fraction(stated[side][opponent])
            # and the tests' own enumerator agrees
            assert match(lambda b: candidates(book.evaluate(b), "perfect"), player, mark) == (win, draw, loss)


#: Published rates of the book's top-tier policy (docs/book-format.md, "Trap order"; first round).
KNOWN_TRAP_RATES = {
    ("first", "novice"): Fraction(89, 96),
    ("second", "novice"): Fraction(82, 315),
    ("first", "random"): Fraction(379, 384),
    ("second", "random"): Fraction(50, 63),
}


def test_the_books_trap_rates_are_the_known_ones(book: Book) -> None:
    for (side, opponent), rate in KNOWN_TRAP_RATES.items():
        assert Fraction(book.data["trap_rates"][side][opponent]) == rate


@pytest.mark.parametrize("level", LEVELS)
def test_every_levels_rates_agree_with_the_independent_enumerator(
    book: Book, rates: Rates, level: str
) -> None:
    """generator.reports.levels (and, through the trap order, generator.trap's novice) against the
    tests' own enumerator and novice, written apart from them."""
    for side, mark in (("first", "X"), ("second", "O")):
        for opponent, player in (("novice", novice_player), ("random", random_player)):
            independent = match(lambda b: candidates(book.evaluate(b), level), player, mark)
            assert rates[(level, opponent, side)] == independent, (level, opponent, side)


def test_weaker_levels_are_weaker_and_do_lose(rates: Rates) -> None:
    for opponent in ("random", "novice"):
        for side in ("first", "second"):
            wins = [rates[(level, opponent, side)][0] for level in LEVELS]
            assert wins == sorted(wins, reverse=True), (opponent, side, wins)
            assert rates[("easy", opponent, side)][2] > 0


def test_readme_table_is_current(book: Book, rates: Rates) -> None:
    readme = (ROOT / "README.md").read_text()
    assert START in readme and END in readme
    published = readme[readme.index(START) : readme.index(END) + len(END)]
    assert published == markdown_table(book, rates), (
        "README levels table is stale: ttt-book levels --update README.md"
    )


def test_level_semantics_on_small_positions(book: Book) -> None:
    # X X .
    # O O .      X to move: every level takes the win at 2
    # . . .
    for level in LEVELS:
        assert candidates(book.evaluate("XX.OO...."), level) == (2,)
    # X X .
    # O . .      O to move must block at 2: medium and hard do, easy may not
    # . . .
    board = "XX.O....."
    assert candidates(book.evaluate(board), "medium") == (2,)
    assert candidates(book.evaluate(board), "hard") == (2,)
    assert len(candidates(book.evaluate(board), "easy")) == 6
    with pytest.raises(LevelError, match="'expert'"):
        candidates(book.evaluate(board), "expert")


def test_choices_are_reproducible_with_a_seeded_rng(book: Book) -> None:
    picks = [choose_move(book, ".........", rng=random.Random(7)) for _ in range(5)]
    assert len(set(picks)) == 1
    assert picks[0] in (0, 2, 6, 8)
    spread = {choose_move(book, ".........", rng=random.Random(s)) for s in range(40)}
    assert spread == {0, 2, 6, 8}  # exact ties stay ties: the player varies among them
