"""Board codes: a board as one integer, and the canonical form found through them.

A board's *code* reads its string as a number in base 4, the first cell the most significant:
``.`` is 0, ``O`` 1, ``X`` 2 (``DIGITS``). Codes compare as their boards do, so the smallest code
among a board's images is the canonical key's (player/tictactoe_book/game.py says what canonical means): the
one integer encoding every array (``tictactoe_generator.codes``) and export (the C and Rust tables)
mirrors. The image tables are a speed trick (docs/benchmarks.md): one look-up per chunk of
cells gives a code's image under every symmetry at once.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from operator import or_
from typing import TYPE_CHECKING

from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules, Symmetry

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


#: Each mark's digit in a code: the order of the marks in ASCII, ``.`` < ``O`` < ``X``.
DIGITS = {EMPTY: 0, SECOND: 1, FIRST: 2}
_TO_DIGITS = str.maketrans({mark: str(digit) for mark, digit in DIGITS.items()})
_MARKS_BY_DIGIT = "".join(sorted(DIGITS, key=DIGITS.__getitem__)) + "?"  # 3 is no mark


def shift(cells: int, cell: Cell) -> int:
    """Where ``cell``'s digit starts in a code of ``cells`` cells: cell 0 highest."""
    return 2 * (cells - 1 - cell)


class BoardCodes:
    """The codes of one game's boards: ``code(board)``, ``board(code)``, ``images(code)`` (one
    code per symmetry, in ``rules.symmetries`` order, the identity first) and ``placed(mark,
    cell)``, what playing ``mark`` on the empty ``cell`` adds to a code."""

    __slots__ = ("board", "images", "rules")

    def __init__(self, rules: Rules, images: Callable[[int], list[int]], board: Callable[[int], str]) -> None:
        self.rules, self.images, self.board = rules, images, board

    def code(self, board: str) -> int:
        """The board's code (``board`` holds ``rules.cells`` marks; not checked here)."""
        return int(board.translate(_TO_DIGITS), 4)

    def placed(self, mark: str, cell: Cell) -> int:
        """What playing ``mark`` on the empty ``cell`` adds to a code."""
        return DIGITS[mark] << shift(self.rules.cells, cell)


@cache
def board_codes(rules: Rules) -> BoardCodes:
    """The codes of ``rules``' boards, their tables built once a process. An image of a code is
    the OR of one look-up per chunk of cells (the chunk's digits where the symmetry sends them,
    every image's at once): chunks of 4 cells up to 12 cells, of 8 beyond (docs/scaling.md)."""
    cells = rules.cells
    count = -(-cells // (4 if cells <= 12 else 8))
    sizes = [cells // count + (1 if j < cells % count else 0) for j in range(count)]
    bounds = [(sum(sizes[:j]), sum(sizes[: j + 1])) for j in range(count)]
    by_symmetry = [
        [_chunk_table(cells, s.inverse, start, stop) for start, stop in bounds] for s in rules.symmetries
    ]
    parts = [list(zip(*(tables[j] for tables in by_symmetry), strict=True)) for j in range(count)]
    texts = [["".join(marks) for marks in product(_MARKS_BY_DIGIT, repeat=size)] for size in sizes]
    shifts = [2 * (cells - stop) for _, stop in bounds]  # each chunk's digits, read from a code
    masks = [(1 << 2 * (stop - start)) - 1 for start, stop in bounds]
    if count == 1:
        (only,), (only_text,) = parts, texts
        return BoardCodes(rules, lambda code: list(only[code]), only_text.__getitem__)
    if count == 2:  # (4x4: the proof's million look-ups take this path)
        (high, low), (high_text, low_text), (low_bits, _), (_, mask) = parts, texts, shifts, masks
        return BoardCodes(
            rules,
            lambda code: list(map(or_, high[code >> low_bits], low[code & mask])),
            lambda code: high_text[code >> low_bits] + low_text[code & mask],
        )
    (top, middle, end), (top_text, middle_text, end_text) = parts, texts  # 9 to 12 cells
    top_shift, middle_shift, middle_mask, end_mask = shifts[0], shifts[1], masks[1], masks[2]

    def images(code: int) -> list[int]:
        found = top[code >> top_shift], middle[code >> middle_shift & middle_mask], end[code & end_mask]
        return [x | y | z for x, y, z in zip(*found, strict=True)]

    def board(code: int) -> str:
        head = top_text[code >> top_shift] + middle_text[code >> middle_shift & middle_mask]
        return head + end_text[code & end_mask]

    return BoardCodes(rules, images, board)


def _chunk_table(cells: int, inverse: Sequence[Cell], start: int, stop: int) -> list[int]:
    """For every value of the digits of cells ``start`` to ``stop - 1``: those digits where the
    symmetry puts them."""
    table = [0]
    for cell in range(start, stop):  # the first cell the most significant digit of the index
        table = [partial | digit << shift(cells, inverse[cell]) for partial in table for digit in range(4)]
    return table


def canonical(rules: Rules, board: str) -> tuple[str, Symmetry]:
    """The canonical key of ``board`` (its smallest image) and the symmetry that maps ``board``
    onto it, the first in ``rules.symmetries`` order on a tie (the identity when ``board`` is
    canonical). ``board`` holds marks only (``check`` it first)."""
    codes = board_codes(rules)
    images = codes.images(codes.code(board))
    smallest = min(images)
    return codes.board(smallest), rules.symmetries[images.index(smallest)]
