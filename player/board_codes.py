"""Boards as integers that sort as their strings do: how the proof of a big book makes images.

The *code* of a board (player/board.py) reads its string as a number in base 4, one digit a
cell, the first cell the most significant: ``.`` is 0, ``O`` 1, ``X`` 2, the order of the three
characters in ASCII. Two boards of one size compare as their codes compare, so the smallest code
of a board's images is its canonical key's code. Playing ``mark`` on an empty ``cell`` adds
``placed(mark, cell)`` to the code.

The image of a code under a symmetry (``image[i] = board[perm[i]]``) is the OR of one table
look-up per *chunk* of at most ``CHUNK_CELLS`` consecutive cells: a chunk's digits, wherever the
symmetry sends them. On 4x4, two look-ups give a code's 8 images (each a tuple of the chunk's
part of every image) instead of joining 16 characters per image; the tables, 2 * 4**8 tuples
(about 50 MiB for 4x4), take a quarter of a second to build.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from operator import or_

from player.board import EMPTY, FIRST, SECOND
from player.rules import Cell, Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: The most cells one table covers (4**8 = 65,536 entries).
CHUNK_CELLS = 8
#: Each mark's digit: the order of the marks in ASCII, ``.`` < ``O`` < ``X``.
DIGITS = {EMPTY: 0, SECOND: 1, FIRST: 2}
_TO_DIGITS = str.maketrans({mark: str(digit) for mark, digit in DIGITS.items()})
#: The character of each digit, by digit (3 is no mark: ``?``).
_MARKS_BY_DIGIT = "".join(sorted(DIGITS, key=DIGITS.__getitem__)) + "?"


@dataclass(frozen=True, slots=True)
class BoardCodes:
    """The codes of one game's boards: ``code(board)``, ``images(code)`` (one code per symmetry,
    in ``rules.symmetries`` order, the identity first) and ``placed(mark, cell)``."""

    rules: Rules
    images: Callable[[int], list[int]]
    #: ``board(code)``: the board string of a code (the inverse of ``code``)
    board: Callable[[int], str]

    def code(self, board: str) -> int:
        """The board's code (``board`` holds ``rules.cells`` marks; not checked here)."""
        return int(board.translate(_TO_DIGITS), 4)

    def placed(self, mark: str, cell: Cell) -> int:
        """What playing ``mark`` on the empty ``cell`` adds to a code."""
        return DIGITS[mark] << 2 * (self.rules.cells - 1 - cell)


@cache
def board_codes(rules: Rules) -> BoardCodes:
    """The codes of ``rules``' boards, with the image tables built for its symmetries (once a
    process)."""
    cells = rules.cells
    count = -(-cells // CHUNK_CELLS)
    if count > 2:
        raise ValueError(f"{rules}: board codes are written out for {2 * CHUNK_CELLS} cells at most")
    sizes = [cells // count + (1 if j < cells % count else 0) for j in range(count)]
    bounds = [(sum(sizes[:j]), sum(sizes[: j + 1])) for j in range(count)]
    # (shift, mask) reading each chunk's digits out of a code
    readers = [(2 * (cells - stop), 4 ** (stop - start) - 1) for start, stop in bounds]
    tables = [
        tuple(_chunk_table(cells, symmetry.inverse, start, stop) for start, stop in bounds)
        for symmetry in rules.symmetries
    ]
    return BoardCodes(
        rules, _imager(readers, tables), _decoder(readers, [stop - start for start, stop in bounds])
    )


def _decoder(readers: list[tuple[int, int]], sizes: list[int]) -> Callable[[int], str]:
    """``code -> its board``: each chunk's digits read as its text from a table of every
    text of that many cells (``itertools.product`` lists them in the order of their codes)."""
    texts = [["".join(marks) for marks in product(_MARKS_BY_DIGIT, repeat=size)] for size in sizes]
    if len(readers) == 1:
        (single,) = texts
        return single.__getitem__
    (shift, _), (_, mask) = readers
    high, low = texts
    return lambda code: high[code >> shift] + low[code & mask]


def _chunk_table(cells: int, inverse: tuple[Cell, ...], start: int, stop: int) -> list[int]:
    """For every value of the digits of cells ``start`` to ``stop - 1``: those digits where the
    symmetry puts them (the board's cell ``c`` is the image's cell ``inverse[c]``)."""
    table = [0]
    for cell in range(start, stop):  # the first cell the most significant digit of the index
        shift = 2 * (cells - 1 - inverse[cell])
        table = [partial | digit << shift for partial in table for digit in range(4)]
    return table


def _imager(
    readers: list[tuple[int, int]], tables: list[tuple[list[int], ...]]
) -> Callable[[int], list[int]]:
    """``code -> its images``, written out for one chunk and for two (16 cells at most). The
    tables are regrouped by chunk value, so one look-up per chunk gives that chunk's part of every
    image, and the parts are joined in one ``map`` (a third faster on 4x4 than a look-up per
    image and chunk)."""
    if len(readers) == 1:
        singles = list(zip(*(table for (table,) in tables), strict=True))
        return lambda code: list(singles[code])
    (shift, _), (_, mask) = readers
    highs = list(zip(*(high for high, _ in tables), strict=True))
    lows = list(zip(*(low for _, low in tables), strict=True))
    return lambda code: list(map(or_, highs[code >> shift], lows[code & mask]))
