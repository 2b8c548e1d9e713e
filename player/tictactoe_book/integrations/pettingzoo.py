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

from typing import TYPE_CHECKING, Any

from tictactoe_book.book import Book
from tictactoe_book.errors import echoed
from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules, check_reachable
from tictactoe_book.integrations import book_for_game
from tictactoe_book.play import Rng, check_level, choose_move, random_seed

if TYPE_CHECKING:
    from tictactoe_book.play import RandomSource

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
    """The book's board for a ``tictactoe_v3`` observation (the ``"observation"`` array: 3 x 3
    squares of two planes, each 0 or 1). ValueError in one line for anything else: another
    shape, a value that is not 0 or 1, a square claimed by both planes, or marks no game of
    tictactoe_v3 reaches (BoardError)."""
    planes = _planes(observation)
    mine = sum(square[0] for square in planes)
    theirs = sum(square[1] for square in planes)
    me = FIRST if mine == theirs else SECOND  # the observer is to move
    foe = SECOND if me == FIRST else FIRST
    cells = [EMPTY] * (SIZE * SIZE)
    for action, (own, other) in enumerate(planes):
        if own and other:
            raise ValueError(f"square {action} of the observation is claimed by both players")
        cells[to_book_cell(action)] = me if own else foe if other else EMPTY
    board = "".join(cells)
    check_reachable(RULES, board, FIRST)
    return board


def _planes(observation: Any) -> list[tuple[int, int]]:
    """Each action's square as (the observer's plane, the opponent's), each 0 or 1, read from
    a 3 x 3 x 2 array (a numpy array or nested sequences); ValueError for any other."""
    shape = "a 3x3x2 array of 0s and 1s (tictactoe_v3's observation)"
    try:
        if len(observation) != SIZE or any(len(column) != SIZE for column in observation):
            raise ValueError
        squares = [observation[action // SIZE][action % SIZE] for action in range(SIZE * SIZE)]
        if any(len(square) != 2 for square in squares):
            raise ValueError
        planes = [(square[0], square[1]) for square in squares]
        if any(value not in (0, 1) or isinstance(value, str) for pair in planes for value in pair):
            raise ValueError
    except (TypeError, ValueError, KeyError, IndexError):
        array = getattr(observation, "shape", None)  # numpy's repr takes many lines: its shape
        got = f"an array of shape {tuple(array)}" if array is not None else echoed(observation)
        raise ValueError(f"the observation must be {shape}, got {got}") from None
    return [(int(own), int(other)) for own, other in planes]


class BookPolicy:
    """``policy(observation) -> action``: the book's move at ``level`` for the agent to move,
    from ``book``, else the packaged 3x3 book ranked against ``against`` (``"novice"``, the
    default, or ``"random"``: the opponent the perfect level wins most often against), loaded
    once and shared by every policy. Its choices draw from ``rng``: a
    ``tictactoe_book.play.Rng(seed)`` plays the games every language plays from that seed (a
    ``random.Random`` chooses by its own ``choice``; None, a generator of the system's seeding).
    ValueError in one line, at once, for a ``book`` for other rules than tictactoe_v3's (3x3,
    three in a row wins) or ranked against another opponent than ``against``."""

    def __init__(
        self,
        level: str = "perfect",
        *,
        book: Book | None = None,
        rng: RandomSource | None = None,
        against: str | None = None,
    ) -> None:
        self.level = check_level(level)
        self.book = book_for_game(RULES, "PettingZoo's tictactoe_v3", book=book, against=against)
        self.rng = Rng(random_seed()) if rng is None else rng

    def __call__(self, observation: dict[str, Any]) -> int:
        board = board_from_observation(observation["observation"])
        cell = choose_move(self.book, board, self.level, rng=self.rng)
        action = to_action(cell)
        mask = observation.get("action_mask")
        if mask is not None and not mask[action]:
            raise ValueError(f"the book's move {action} is masked out on {board!r}")
        return action
