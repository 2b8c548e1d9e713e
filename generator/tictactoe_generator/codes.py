"""Positions as integers in arrays: the board codes of player/tictactoe_book/game.py, for the solver.

A board of ``N`` cells (``N <= 16``) is coded in ``2N`` bits, two per cell, cell 0 in the highest
pair::

    code = sum(digit(board[c]) << shift(N, c))      shift(N, c) = 2 * (N - 1 - c)
    digit: "." = 0, "O" = 1, "X" = 2

So the code is two bit masks, X cells on the odd bits and O cells on the even bits, interleaved;
and since the digits follow ASCII ('.' < 'O' < 'X') and cell 0 is the most significant, comparing
codes as numbers compares the boards as strings. The smallest code among a board's images is
therefore the project's canonical key (player/tictactoe_book/game.py, "min-image").

    X . O
    . X .      "X.O.X...." is 0b10_00_01_00_10_00_00_00_00 = 0x21200
    . . .

The board's symmetries act on codes through lookup tables: a symmetry ``perm`` builds the
image ``image[i] = board[perm[i]]`` (player/tictactoe_book/game.py), so the digit of cell ``c`` lands on image
cell ``inverse[c]``. Cells move independently, so the image of a code is the OR of the images
of its chunks (whole cells, at most 16 bits): one table per chunk and symmetry, and two look-ups
per image of a board of up to 16 cells. This is the table-driven bit permutation of chess
programs' bitboard flips (Chess Programming Wiki, "Flipping Mirroring and Rotating", by table
look-up of bytes), with wider chunks so that 4x4 needs two look-ups. Canonical form is the
project's: the smallest image, and on a tie the first symmetry in ``rules.symmetries`` order.

Codes of up to 16 cells fit in 32 bits and are stored as ``uint32``; up to MAX_CELLS (20),
as ``uint64`` (``code_type``). Build time only: numpy never enters player/.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tictactoe_book.codes import DIGITS, shift
from tictactoe_book.game import EMPTY, FIRST, MAX_CELLS, SECOND, Cell, Rules

#: The dtype of the codes of boards of up to 16 cells (two bits a cell); ``code_type`` for any.
CODE = np.uint32
Codes = npt.NDArray[np.unsignedinteger]
assert np.iinfo(np.uint64).bits >= 2 * MAX_CELLS


def code_type(cells: int) -> type[np.unsignedinteger]:
    """The dtype of the codes of boards of ``cells`` cells: ``uint32`` up to 16, else ``uint64``."""
    return CODE if 2 * cells <= np.iinfo(CODE).bits else np.uint64


#: Each mark's digit, the player's board codes' (player/tictactoe_book/game.py): ``.`` 0, ``O`` 1, ``X`` 2.
EMPTY_DIGIT = DIGITS[EMPTY]
SECOND_DIGIT = DIGITS[SECOND]
FIRST_DIGIT = DIGITS[FIRST]
#: The board character of each digit, indexed by digit (3 never occurs).
CHARACTERS = (EMPTY + SECOND + FIRST + "?").encode("ascii")


def mover_digit(marks: int) -> int:
    """The digit of the side to move when ``marks`` marks are down (X moves first)."""
    return FIRST_DIGIT if marks % 2 == 0 else SECOND_DIGIT


def decode(codes: Codes, cells: int) -> list[str]:
    """The board strings of ``codes``, in order."""
    codes = np.asarray(codes, dtype=code_type(cells))
    digits = np.empty((len(codes), cells), dtype=np.uint8)
    for cell in range(cells):
        digits[:, cell] = (codes >> shift(cells, cell)) & 3
    text = np.frombuffer(CHARACTERS, dtype=np.uint8)[digits]
    return [row.decode("ascii") for row in text.view(f"S{cells}").ravel()]


def digits_at(codes: Codes, cells: int, cell: Cell) -> Codes:
    """The digit each code has at ``cell``."""
    found: Codes = (codes >> codes.dtype.type(shift(cells, cell))) & codes.dtype.type(3)
    return found


def placed(codes: Codes, digit: int, cells: int, cell: Cell) -> Codes:
    """The codes with ``digit`` placed on ``cell`` (empty on every one of them)."""
    found: Codes = codes | codes.dtype.type(digit << shift(cells, cell))
    return found


def line_masks(rules: Rules, cell: Cell, digit: int) -> list[int]:
    """For each winning line through ``cell``: the code of that line filled with ``digit``."""
    return [sum(digit << shift(rules.cells, c) for c in line) for line in rules.lines_through[cell]]


def completes_line(codes: Codes, masks: list[int]) -> npt.NDArray[np.bool_]:
    """Which codes hold a whole line among ``masks`` (from ``line_masks``)."""
    found = np.zeros(len(codes), dtype=bool)
    for mask in masks:
        found |= (codes & mask) == mask
    return found


def completing_cells(rules: Rules, codes: Codes, digit: int) -> npt.NDArray[np.bool_]:
    """``found[i, c]``: cell ``c`` is free on ``codes[i]`` and ``digit`` placed there would
    complete a line (for the side to move: its wins at once; for the other side: the blocks)."""
    cells = rules.cells
    found = np.zeros((len(codes), cells), dtype=bool)
    for cell in range(cells):
        free = digits_at(codes, cells, cell) == EMPTY_DIGIT
        found[:, cell] = free & completes_line(
            placed(codes, digit, cells, cell), line_masks(rules, cell, digit)
        )
    return found


#: The widest chunk: a table of 65,536 codes (256 KB) per chunk and symmetry.
MAX_CHUNK_BITS = 16


@dataclass(frozen=True)
class CodeSymmetries:
    """A rules value's symmetries as chunk tables, identity first."""

    cells: int
    #: bits per chunk: whole cells, as few chunks as fit in MAX_CHUNK_BITS, of equal width
    chunk_bits: int
    #: ``tables[s, j][v]``: the image under symmetry ``s`` of a code whose chunk ``j`` is ``v``
    #: and whose other chunks are empty; shape (symmetries, chunks, 2 ** chunk_bits)
    tables: Codes

    @property
    def count(self) -> int:
        """How many symmetries (8 on a square board, 4 on other rectangles, 2 on a single row)."""
        return int(self.tables.shape[0])


def code_symmetries(rules: Rules) -> CodeSymmetries:
    """Build the chunk tables of every symmetry of ``rules``."""
    cells = rules.cells
    if rules.symmetries[0].perm != tuple(range(cells)):
        raise ValueError(f"{rules}: the first symmetry must be the identity")
    chunks = -(-2 * cells // MAX_CHUNK_BITS)
    chunk_bits = 2 * -(-cells // chunks)
    dtype = code_type(cells)
    values = np.arange(1 << chunk_bits, dtype=dtype)
    tables = np.zeros((len(rules.symmetries), chunks, 1 << chunk_bits), dtype=dtype)
    for s, symmetry in enumerate(rules.symmetries):
        for cell in range(cells):
            chunk, offset = divmod(shift(cells, cell), chunk_bits)
            tables[s, chunk] |= ((values >> offset) & 3) << shift(cells, symmetry.inverse[cell])
    return CodeSymmetries(cells, chunk_bits, tables)


def _chunks(symmetries: CodeSymmetries, codes: Codes) -> list[npt.NDArray[np.intp]]:
    """The codes cut into chunks, as table indices."""
    bits, mask = symmetries.chunk_bits, (1 << symmetries.chunk_bits) - 1
    return [((codes >> (bits * j)) & mask).astype(np.intp) for j in range(symmetries.tables.shape[1])]


def _image(symmetries: CodeSymmetries, chunks: list[npt.NDArray[np.intp]], s: int) -> Codes:
    tables = symmetries.tables[s]
    result: Codes = tables[0][chunks[0]]
    for j in range(1, len(chunks)):
        result |= tables[j][chunks[j]]
    return result


def image(symmetries: CodeSymmetries, codes: Codes, s: int) -> Codes:
    """The codes' images under symmetry ``s``."""
    return _image(symmetries, _chunks(symmetries, codes), s)


def canonical_codes(symmetries: CodeSymmetries, codes: Codes) -> Codes:
    """Each code's canonical code: the smallest of its images."""
    chunks = _chunks(symmetries, codes)
    best = codes.copy()
    for s in range(1, symmetries.count):
        np.minimum(best, _image(symmetries, chunks, s), out=best)
    return best


def stabilizer_sizes(symmetries: CodeSymmetries, codes: Codes) -> npt.NDArray[np.int64]:
    """How many symmetries map each code onto itself (the identity always does); a position
    stands for ``symmetries.count // stabilizer`` distinct boards (orbit-stabilizer theorem)."""
    chunks = _chunks(symmetries, codes)
    fixed = np.ones(len(codes), dtype=np.int64)
    for s in range(1, symmetries.count):
        fixed += _image(symmetries, chunks, s) == codes
    return fixed
