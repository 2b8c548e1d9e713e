"""Board codes (player/tictactoe_book/codes.py), the integers the arrays and exports use for boards,
against the boards' strings: the same order, read back, and the canonical image the smallest code."""

from __future__ import annotations

import random

import pytest

from tictactoe_book import Rules
from tictactoe_book.codes import board_codes
from tictactoe_book.game import EMPTY, FIRST, SECOND, canonical, transform


@pytest.mark.parametrize(
    "rules", [Rules(3, 3, 3), Rules(3, 4, 3), Rules(4, 3, 3), Rules(4, 4, 4), Rules(1, 5, 2)], ids=str
)
def test_board_codes_sort_as_boards_read_back_and_find_the_canonical_image(rules: Rules) -> None:
    codes = board_codes(rules)
    rng = random.Random(str(rules))
    boards = ["".join(rng.choice(EMPTY + FIRST + SECOND) for _ in range(rules.cells)) for _ in range(300)]
    for board in boards:
        code = codes.code(board)
        assert codes.board(code) == board
        images = [codes.code(transform(board, symmetry)) for symmetry in rules.symmetries]
        assert min(images) == codes.code(canonical(rules, board)[0])  # the smallest code, the smallest image
        for cell, mark in enumerate(board):
            if mark == EMPTY:
                played = board[:cell] + SECOND + board[cell + 1 :]
                assert code + codes.placed(SECOND, cell) == codes.code(played)
    ordered = sorted(boards)
    assert sorted(boards, key=codes.code) == ordered
