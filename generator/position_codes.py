"""Positions as integers: the code the retrograde solver (generator/retrograde.py) works on.

A board of ``N`` cells (``N <= 16``) is coded in ``2N`` bits, two per cell, cell 0 in the highest
pair::

    code = sum(digit(board[c]) << shift(N, c))      shift(N, c) = 2 * (N - 1 - c)
    digit: "." = 0, "O" = 1, "X" = 2

So the code is two bit masks, X cells on the odd bits and O cells on the even bits, interleaved;
and since the digits follow ASCII ('.' < 'O' < 'X') and cell 0 is the most significant, comparing
codes as numbers compares the boards as strings. The smallest code among a board's images is
therefore the project's canonical key (player/board.py, "min-image").

    X . O
    . X .      "X.O.X...." is 0b10_00_01_00_10_00_00_00_00 = 0x21200
    . . .

Codes fit in 32 bits and are stored as ``uint32``. Build time only: numpy never enters player/.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from player.board import EMPTY, FIRST, SECOND
from player.board_codes import DIGITS
from player.rules import MAX_CELLS, Cell, Rules

#: The dtype of a position code: two bits for each of at most MAX_CELLS cells.
CODE = np.uint32
assert np.iinfo(CODE).bits >= 2 * MAX_CELLS
Codes = npt.NDArray[np.uint32]

#: Each mark's digit, the player's board codes' (player/board_codes.py): ``.`` 0, ``O`` 1, ``X`` 2.
EMPTY_DIGIT = DIGITS[EMPTY]
SECOND_DIGIT = DIGITS[SECOND]
FIRST_DIGIT = DIGITS[FIRST]
#: The board character of each digit, indexed by digit (3 never occurs).
CHARACTERS = (EMPTY + SECOND + FIRST + "?").encode("ascii")


def shift(cells: int, cell: Cell) -> int:
    """Where ``cell``'s two bits start: cell 0 highest, so numeric order is string order."""
    return 2 * (cells - 1 - cell)


def mover_digit(marks: int) -> int:
    """The digit of the side to move when ``marks`` marks are down (X moves first)."""
    return FIRST_DIGIT if marks % 2 == 0 else SECOND_DIGIT


def encode(board: str) -> int:
    """The code of a board string (any length up to 16; ``X``, ``O`` and ``.`` only)."""
    code = 0
    for mark in board:
        code = code << 2 | DIGITS[mark]
    return code


def decode(codes: Codes, cells: int) -> list[str]:
    """The board strings of ``codes``, in order."""
    codes = np.asarray(codes, dtype=CODE)
    digits = np.empty((len(codes), cells), dtype=np.uint8)
    for cell in range(cells):
        digits[:, cell] = (codes >> shift(cells, cell)) & 3
    text = np.frombuffer(CHARACTERS, dtype=np.uint8)[digits]
    return [row.decode("ascii") for row in text.view(f"S{cells}").ravel()]


def digits_at(codes: Codes, cells: int, cell: Cell) -> Codes:
    """The digit each code has at ``cell``."""
    return (codes >> CODE(shift(cells, cell))) & CODE(3)


def line_masks(rules: Rules, cell: Cell, digit: int) -> list[int]:
    """For each winning line through ``cell``: the code of that line filled with ``digit``."""
    return [sum(digit << shift(rules.cells, c) for c in line) for line in rules.lines_through[cell]]


def completes_line(codes: Codes, masks: list[int]) -> npt.NDArray[np.bool_]:
    """Which codes hold a whole line among ``masks`` (from ``line_masks``)."""
    found = np.zeros(len(codes), dtype=bool)
    for mask in masks:
        found |= (codes & mask) == mask
    return found


def marks_of(codes: Codes, cells: int) -> npt.NDArray[np.int64]:
    """How many marks each code holds."""
    count = np.zeros(len(codes), dtype=np.int64)
    for cell in range(cells):
        count += digits_at(codes, cells, cell) != EMPTY_DIGIT
    return count


def completing_cells(rules: Rules, codes: Codes, digit: int) -> npt.NDArray[np.bool_]:
    """``found[i, c]``: cell ``c`` is free on ``codes[i]`` and ``digit`` placed there would
    complete a line (for the side to move: its wins at once; for the other side: the blocks)."""
    cells = rules.cells
    found = np.zeros((len(codes), cells), dtype=bool)
    for cell in range(cells):
        placed = codes | CODE(digit << shift(cells, cell))
        free = digits_at(codes, cells, cell) == EMPTY_DIGIT
        found[:, cell] = free & completes_line(placed, line_masks(rules, cell, digit))
    return found
