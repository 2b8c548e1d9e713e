"""The board's symmetries as lookup tables on position codes (generator/position_codes.py).

A symmetry ``perm`` builds the image ``image[i] = board[perm[i]]`` (player/rules.py), so the
digit of cell ``c`` lands on image cell ``inverse[c]``. Cells move independently, so the image of
a code is the OR of the images of its chunks (whole cells, at most 16 bits): one table per chunk
and symmetry, and two look-ups per image of a board of up to 16 cells. This is the table-driven
bit permutation of chess programs' bitboard flips (Chess Programming Wiki, "Flipping Mirroring
and Rotating", by table look-up of bytes), with wider chunks so that 4x4 needs two look-ups.

Canonical form is the project's: the smallest image, and on a tie the first symmetry in
``rules.symmetries`` order (player/board.py ``canonicalizer``); since codes compare as the board
strings do, the smallest code is the smallest string.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from generator.position_codes import CODE, Codes, shift
from player.rules import Rules

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
    tables: npt.NDArray[np.uint32]

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
    values = np.arange(1 << chunk_bits, dtype=CODE)
    tables = np.zeros((len(rules.symmetries), chunks, 1 << chunk_bits), dtype=CODE)
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


def canonical_with_symmetry(symmetries: CodeSymmetries, codes: Codes) -> tuple[Codes, npt.NDArray[np.int8]]:
    """Each code's canonical code and the index of the symmetry giving it, the first on a tie
    (as ``player.board.canonicalizer``: the identity when the code is already canonical)."""
    chunks = _chunks(symmetries, codes)
    best = codes.copy()
    used = np.zeros(len(codes), dtype=np.int8)
    for s in range(1, symmetries.count):
        candidate = _image(symmetries, chunks, s)
        better = candidate < best
        best[better] = candidate[better]
        used[better] = s
    return best, used


def stabilizer_sizes(symmetries: CodeSymmetries, codes: Codes) -> npt.NDArray[np.int64]:
    """How many symmetries map each code onto itself (the identity always does); a position
    stands for ``symmetries.count // stabilizer`` distinct boards (orbit-stabilizer theorem)."""
    chunks = _chunks(symmetries, codes)
    fixed = np.ones(len(codes), dtype=np.int64)
    for s in range(1, symmetries.count):
        fixed += _image(symmetries, chunks, s) == codes
    return fixed
