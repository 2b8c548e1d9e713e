"""An opponent for PettingZoo's ``tictactoe_v3`` that plays from the book, at any level.

PettingZoo numbers the cells column by column (pettingzoo/classic/tictactoe/board.py draws
``0 3 6 / 1 4 7 / 2 5 8``, and its renderer puts square ``s`` in column ``s // 3``, row
``s % 3``); the book numbers them row by row. Its observation is ``squares.reshape(3, 3)`` in two
planes, so ``observation[a // 3][a % 3]`` is action ``a``'s square (the array is indexed
[column, row] of the picture): plane 0 holds the marks of the agent observing, plane 1 its
opponent's; ``player_1`` moves first (X). Nothing here imports PettingZoo: the policy works on
the observation dict the environment returns.
"""

from __future__ import annotations

import random
from typing import Any

from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules
from tictactoe_book.integrations import book_for_game
from tictactoe_book.play import check_level, choose_move
from tictactoe_book.reader import Book

SIZE = 3
#: tictactoe_v3's game: 3x3, three in a row wins.
RULES = Rules(SIZE, SIZE, SIZE)


def to_book_cell(action: int) -> Cell:
    """PettingZoo's action (column-major) as the book's cell (row-major)."""
    col, row = divmod(action, SIZE)
    return row * SIZE + col


def to_action(cell: Cell) -> int:
    """The book's cell (row-major) as PettingZoo's action (column-major)."""
    row, col = divmod(cell, SIZE)
    return col * SIZE + row


def board_from_observation(observation: Any) -> str:
    """The book's board for a ``tictactoe_v3`` observation (the ``"observation"`` array)."""
    mine = sum(int(observation[i][j][0]) for i in range(SIZE) for j in range(SIZE))
    theirs = sum(int(observation[i][j][1]) for i in range(SIZE) for j in range(SIZE))
    me = FIRST if mine == theirs else SECOND  # the observer is to move
    foe = SECOND if me == FIRST else FIRST
    cells = [EMPTY] * (SIZE * SIZE)
    for action in range(SIZE * SIZE):
        square = observation[action // SIZE][action % SIZE]
        cells[to_book_cell(action)] = me if square[0] else foe if square[1] else EMPTY
    return "".join(cells)


class BookPolicy:
    """``policy(observation) -> action``: the book's move at ``level`` for the agent to move,
    from ``book``, else the packaged 3x3 book ranked against ``against`` (``"novice"``, the
    default, or ``"random"``: the opponent the perfect level wins most often against), loaded
    once and shared by every policy. ValueError in one line, at once, for a ``book`` for other
    rules than tictactoe_v3's (3x3, three in a row wins) or ranked against another opponent
    than ``against``."""

    def __init__(
        self,
        level: str = "perfect",
        *,
        book: Book | None = None,
        rng: random.Random | None = None,
        against: str | None = None,
    ) -> None:
        self.level = check_level(level)
        self.book = book_for_game(RULES, "PettingZoo's tictactoe_v3", book=book, against=against)
        self.rng = rng or random.Random()

    def __call__(self, observation: dict[str, Any]) -> int:
        board = board_from_observation(observation["observation"])
        cell = choose_move(self.book, board, self.level, rng=self.rng)
        action = to_action(cell)
        mask = observation.get("action_mask")
        if mask is not None and not mask[action]:
            raise ValueError(f"the book's move {action} is masked out on {board!r}")
        return action
