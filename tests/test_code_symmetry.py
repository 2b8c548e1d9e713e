"""Position codes and their symmetry tables over arrays (generator/tictactoe_generator/codes.py) agree with
the board strings, with the codes of ``tictactoe_book.codes.board_codes`` and with
``tictactoe_book.game.canonical``."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tictactoe_book import Rules
from tictactoe_book.codes import board_codes
from tictactoe_book.game import canonical, transform
from tictactoe_generator.codes import (
    CODE,
    canonical_codes,
    code_symmetries,
    decode,
    image,
    stabilizer_sizes,
)

SHAPES = [Rules(3, 3, 3), Rules(3, 4, 3), Rules(4, 4, 4), Rules(2, 3, 2), Rules(1, 4, 3), Rules(4, 3, 3)]
EVERY_3X3_STRING = ["".join(t) for t in itertools.product(".OX", repeat=9)]


def random_strings(cells: int, count: int) -> list[str]:
    rng = random.Random(cells)
    return ["".join(rng.choice(".OX") for _ in range(cells)) for _ in range(count)]


def codes_of(boards: list[str]) -> np.ndarray:
    """The boards' codes, as the player computes them (one length per call)."""
    code = board_codes(Rules(1, len(boards[0]), 1)).code
    return np.array([code(b) for b in boards], dtype=CODE)


def test_codes_round_trip_and_sort_as_the_strings_do() -> None:
    # X . O
    # . X .      X = 2, O = 1, . = 0, two bits a cell, cell 0 highest
    # . . .
    assert codes_of(["X.O.X...."]).tolist() == [0b10_00_01_00_10_00_00_00_00]
    codes = codes_of(EVERY_3X3_STRING)
    assert decode(codes, 9) == EVERY_3X3_STRING
    assert decode(np.sort(codes), 9) == sorted(EVERY_3X3_STRING)


@pytest.mark.parametrize("rules", SHAPES, ids=str)
def test_each_table_is_its_symmetry(rules: Rules) -> None:
    boards = random_strings(rules.cells, 500)
    symmetries = code_symmetries(rules)
    assert symmetries.count == len(rules.symmetries)
    for s, symmetry in enumerate(rules.symmetries):
        assert decode(image(symmetries, codes_of(boards), s), rules.cells) == [
            transform(b, symmetry) for b in boards
        ]


def same_as_canonicalizer(rules: Rules, boards: list[str]) -> None:
    keys = canonical_codes(code_symmetries(rules), codes_of(boards))
    assert decode(keys, rules.cells) == [canonical(rules, b)[0] for b in boards]


def test_canonical_form_on_every_3x3_string() -> None:
    same_as_canonicalizer(Rules(), EVERY_3X3_STRING)


def test_canonical_form_on_every_reachable_unfinished_3x4_board(boards_3x4: list[str]) -> None:
    same_as_canonicalizer(Rules(3, 4, 3), boards_3x4)


@pytest.mark.parametrize("rules", SHAPES, ids=str)
def test_canonical_form_on_random_boards(rules: Rules) -> None:
    same_as_canonicalizer(rules, random_strings(rules.cells, 3000))


@pytest.mark.parametrize("rules", SHAPES, ids=str)
def test_stabilizer_times_orbit_is_the_group(rules: Rules) -> None:
    boards = [*random_strings(rules.cells, 300), "." * rules.cells]
    fixed = stabilizer_sizes(code_symmetries(rules), codes_of(boards))
    for board, size in zip(boards, fixed.tolist(), strict=True):
        orbit = {transform(board, s) for s in rules.symmetries}
        assert size * len(orbit) == len(rules.symmetries)
