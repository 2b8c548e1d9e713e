"""Board codes: a board as one integer.

A board's *code* reads its string as a number in base 4, the first cell the most significant:
``.`` is 0, ``O`` 1, ``X`` 2 (``DIGITS``). Codes compare as their boards do, so the smallest code
among a board's images is the canonical key's (``tictactoe_book.game.canonical``): the one
integer encoding every array (``tictactoe_generator.codes``) and export (the C and Rust tables)
mirrors.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import TYPE_CHECKING

from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules

if TYPE_CHECKING:
    from collections.abc import Callable


#: Each mark's digit in a code: the order of the marks in ASCII, ``.`` < ``O`` < ``X``.
DIGITS = {EMPTY: 0, SECOND: 1, FIRST: 2}
_TO_DIGITS = str.maketrans({mark: str(digit) for mark, digit in DIGITS.items()})
_MARKS_BY_DIGIT = "".join(sorted(DIGITS, key=DIGITS.__getitem__)) + "?"  # 3 is no mark


def shift(cells: int, cell: Cell) -> int:
    """Where ``cell``'s digit starts in a code of ``cells`` cells: cell 0 highest."""
    return 2 * (cells - 1 - cell)


class BoardCodes:
    """The codes of one game's boards: ``code(board)``, ``board(code)`` and ``placed(mark,
    cell)``, what playing ``mark`` on the empty ``cell`` adds to a code."""

    __slots__ = ("board", "rules")

    def __init__(self, rules: Rules, board: Callable[[int], str]) -> None:
        self.rules, self.board = rules, board

    def code(self, board: str) -> int:
        """The board's code (``board`` holds ``rules.cells`` marks; not checked here)."""
        return int(board.translate(_TO_DIGITS), 4)

    def placed(self, mark: str, cell: Cell) -> int:
        """What playing ``mark`` on the empty ``cell`` adds to a code."""
        return DIGITS[mark] << shift(self.rules.cells, cell)


@cache
def board_codes(rules: Rules) -> BoardCodes:
    """The codes of ``rules``' boards. ``board(code)`` reads a code as two halves of cells, each
    one look-up in a table of every half's text (4^8 texts at 16 cells), built once a process
    (the build reads millions of codes back as boards)."""
    cells = rules.cells
    low_cells = cells // 2
    low_bits, mask = 2 * low_cells, (1 << 2 * low_cells) - 1
    high_text = ["".join(marks) for marks in product(_MARKS_BY_DIGIT, repeat=cells - low_cells)]
    low_text = ["".join(marks) for marks in product(_MARKS_BY_DIGIT, repeat=low_cells)]
    return BoardCodes(rules, lambda code: high_text[code >> low_bits] + low_text[code & mask])
