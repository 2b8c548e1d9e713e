"""The seeded choice in Python (``tictactoe_book.Rng``, ``choose_move``): mulberry32 and the pick
as docs/porting.md ("5. Levels") writes them, compared with tests/oracles/mulberry32.py, which
shares nothing with the package; the seeds it takes; a ``random.Random`` choosing as before.
"""

from __future__ import annotations

import random

import pytest
from oracles.mulberry32 import KEPT, MASK, REDRAWN, mulberry32, uniform_pick

from tictactoe_book import LEVELS, Position, Rng, choose_move, load_book
from tictactoe_book.play import MAX_SEED, candidates

BOOK = load_book()


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, *REDRAWN, KEPT, MASK])
def test_the_numbers_are_mulberry32s(seed: int) -> None:
    rng, state = Rng(seed), seed
    for _ in range(50):
        state, number = mulberry32(state)
        assert (rng.next_u32(), rng.state) == (number, state)


def test_seed_1_gives_the_published_numbers() -> None:
    rng = Rng(1)
    assert [rng.next_u32() for _ in range(3)] == [2693262067, 11749833, 2265367787]


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 9, 12, 16, 2**31 + 1, 2**32])
def test_a_pick_is_the_documented_one(count: int) -> None:
    for seed in (*range(200), *REDRAWN, KEPT, MASK):
        rng = Rng(seed)
        assert (rng.pick(count), rng.state) == uniform_pick(count, seed), (count, seed)


def test_a_number_among_the_top_2_32_mod_n_is_drawn_again() -> None:
    # 2^32 mod 9 is 4: REDRAWN's first numbers are among the top 4, KEPT's just below them
    for seed in REDRAWN:
        rng = Rng(seed)
        assert rng.pick(9) == mulberry32(mulberry32(seed)[0])[1] % 9
        assert rng.state == (seed + 2 * 0x6D2B79F5) & MASK
    rng = Rng(KEPT)
    assert rng.pick(9) == mulberry32(KEPT)[1] % 9 and rng.state == (KEPT + 0x6D2B79F5) & MASK
    rng = Rng(REDRAWN[1])  # its first number, 2^32 - 4, is kept among 8: 2^32 mod 8 is 0
    assert rng.pick(8) == (2**32 - 4) % 8 and rng.state == (REDRAWN[1] + 0x6D2B79F5) & MASK


def test_one_candidate_draws_nothing() -> None:
    rng = Rng(5)
    assert rng.pick(1) == 0 and rng.choice(["only"]) == "only" and rng.state == 5
    # X X .
    # O O .      X to move: perfect has one candidate, cell 2
    # . . .
    assert choose_move(BOOK, "XX.OO....", rng=rng) == 2 and rng.state == 5


@pytest.mark.parametrize(
    ("seed", "error", "words"),
    [
        (-1, ValueError, "seed -1 is not a whole number from 0 to 4294967295"),
        (2**32, ValueError, "seed 4294967296 is not a whole number from 0 to 4294967295"),
        ("7", TypeError, "a seed is an int from 0 to 4294967295, got '7'"),
        (True, TypeError, "got True"),
        (1.0, TypeError, "got 1.0"),
        (None, TypeError, "got None"),
    ],
)
def test_a_seed_is_a_whole_number_from_0_to_2_32_minus_1(seed: object, error: type, words: str) -> None:
    assert MAX_SEED == 2**32 - 1
    with pytest.raises(error) as raised:
        Rng(seed)  # type: ignore[arg-type]
    assert words in str(raised.value)


@pytest.mark.parametrize("count", [0, -1, 2**32 + 1, 1.5])
def test_a_pick_among_no_items_is_refused(count: object) -> None:
    with pytest.raises(ValueError, match="a choice is among 1 to 2\\*\\*32 items"):
        Rng(1).pick(count)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
def test_choose_move_draws_the_documented_pick_among_the_candidates(level: str) -> None:
    """A game from each seed, both sides at ``level``: every move is the candidate the oracle's
    pick names, from one state carried through the game (an extra draw, or none where one is
    due, changes the games)."""
    for seed in range(20):
        rng, state, position = Rng(seed), seed, Position.empty()
        while not position.is_over:
            options = candidates(BOOK.evaluate(position), level)
            index, state = uniform_pick(len(options), state)
            assert choose_move(BOOK, position, level, rng=rng) == options[index]
            assert rng.state == state
            position = position.play(options[index])


def test_an_o_first_game_is_the_x_first_game_with_the_marks_swapped() -> None:
    for seed in range(10):
        moves = {}
        for first in "XO":
            rng, position, cells = Rng(seed), Position.empty(first=first), []
            while not position.is_over:
                cells.append(choose_move(BOOK, position, "easy", rng=rng))
                position = position.play(cells[-1])
            moves[first] = cells
        assert moves["X"] == moves["O"], seed


def test_a_random_random_still_chooses_by_its_own_choice() -> None:
    """The choices before 3.0.0, kept for callers who replay them: ``random.Random(seed).choice``
    among the candidates (nothing drawn for one)."""
    for seed in range(30):
        for board in (".........", "X...O....", "XX.OO...."):
            options = candidates(BOOK.evaluate(board), "easy")
            theirs = options[0] if len(options) == 1 else random.Random(seed).choice(options)
            assert choose_move(BOOK, board, "easy", rng=random.Random(seed)) == theirs


def test_an_rng_repr_rebuilds_it() -> None:
    rng = Rng(12)
    rng.next_u32()
    again = eval(repr(rng), {"Rng": Rng})
    assert again.state == rng.state and again.next_u32() == rng.next_u32()


@pytest.mark.parametrize("rng", [5, "seed", object()], ids=["int", "str", "object"])
def test_an_rng_that_chooses_nothing_is_a_type_error_naming_it(rng: object) -> None:
    with pytest.raises(TypeError) as refused:
        choose_move(BOOK, ".........", rng=rng)  # type: ignore[arg-type]
    assert str(refused.value).startswith(
        "rng must be an Rng (tictactoe_book.Rng(seed)) or a random.Random, got "
    )
    assert repr(rng)[:20] in str(refused.value)
