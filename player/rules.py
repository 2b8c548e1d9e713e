"""The rules of an m,n,k-game, and the tables derived from them.

Glossary (python-chess and Norvig's sudoku solver name their primitives the same way):

* A *cell* is an ``int`` from 0 to ``rows * cols - 1``, numbered in reading order (row-major):
  on 3x3, 0 1 2 / 3 4 5 / 6 7 8.
* A *line* is a tuple of ``k`` cells in a row, column or diagonal; owning every cell of a line wins.
* A *symmetry* is a permutation ``perm`` of the cells, written as the index list that builds the
  transformed board: ``image[i] = board[perm[i]]``. A square board has 8 (the dihedral group),
  any other rectangle 4.
* *Misère* rules turn the goal around: completing a line of ``k`` loses for the player who
  completes it. The lines and symmetries are the same; only the result of a full line changes.

Every table is computed from ``(rows, cols, k)``, never typed in by hand.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Self

Cell = int
Line = tuple[Cell, ...]
Permutation = tuple[Cell, ...]

#: Boards this module accepts: the game tree must stay small enough to enumerate.
MAX_CELLS = 16


class RulesError(ValueError):
    """Rules that describe no playable board (e.g. ``k`` longer than the board)."""


class Symmetry(NamedTuple):
    """A named rotation or reflection of the board, as a permutation of cells
    (``Symmetry.of(name, perm)`` derives the inverse).

    A NamedTuple, like ``player.entry.Entry``: an immutable value that pickles and copies, and
    whose class costs a fifth of a frozen dataclass's to create at import, which the player's
    start-up goal notices (docs/benchmarks.md).
    """

    name: str
    perm: Permutation
    #: the permutation that undoes this one: ``inverse[perm[i]] == i``
    inverse: Permutation

    @classmethod
    def of(cls, name: str, perm: Sequence[Cell]) -> Symmetry:
        """The symmetry ``name`` that builds ``image[i] = board[perm[i]]``."""
        inverse = [0] * len(perm)
        for i, source in enumerate(perm):
            inverse[source] = i
        return cls(name, tuple(perm), tuple(inverse))


class _RulesFields(NamedTuple):
    rows: int
    cols: int
    k: int
    misere: bool


class Rules(_RulesFields):
    """An m,n,k-game: ``rows`` x ``cols`` board, ``k`` in a row wins (loses if ``misere``), the
    first player is X. ``misere`` is part of the value: ``Rules(3, 3, 3) != Rules(3, 3, 3, misere=True)``.

    An immutable value (a NamedTuple checked when it is made, like ``Symmetry`` and for the same
    start-up reason: no ``dataclasses`` import on the player's path). Its tables (``lines``,
    ``symmetries``, ``lines_through``) are derived from the shape, once per shape.
    """

    __slots__ = ()

    def __new__(cls, rows: int = 3, cols: int = 3, k: int = 3, misere: bool = False) -> Rules:
        for name, value in (("rows", rows), ("cols", cols), ("k", k)):
            if type(value) is not int or value < 1:
                raise RulesError(f"{name} must be a positive integer, got {value!r}")
        if type(misere) is not bool:
            raise RulesError(f"misere must be True or False, got {misere!r}")
        if rows * cols > MAX_CELLS:
            raise RulesError(f"board {rows}x{cols} has {rows * cols} cells; at most {MAX_CELLS}")
        if k > max(rows, cols):
            raise RulesError(f"k={k} does not fit on a {rows}x{cols} board")
        return super().__new__(cls, rows, cols, k, misere)

    # mypy types a NamedTuple's _make with its own type variable, which no override matches
    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]
        """As ``Rules(*iterable)``, checked: ``_replace`` makes its copy through this, so
        ``rules._replace(rows=9)`` raises RulesError like ``Rules(9, 3, 3)``."""
        return cls(*iterable)

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every winning line, derived from the shape."""
        return _tables(self.rows, self.cols, self.k)[0]

    @property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's rotations and reflections, identity first."""
        return _tables(self.rows, self.cols, self.k)[1]

    @property
    def lines_through(self) -> tuple[tuple[Line, ...], ...]:
        """For each cell, the winning lines through it."""
        return _tables(self.rows, self.cols, self.k)[2]

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols} k={self.k}" + (" misere" if self.misere else "")

    def __repr__(self) -> str:
        misere = ", misere=True" if self.misere else ""
        return f"Rules({self.rows}, {self.cols}, {self.k}{misere})"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``"RxC"``, ``"RxC:K"`` (``"3x4:3"``), and either followed by ``":misere"``
        (``"3x3:3:misere"``, ``"3x3:misere"``; ``misère`` too); ``k`` defaults to ``min(R, C)``.
        ``str(rules)`` is for people; this spelling is the one the command lines take."""
        parts = text.strip().lower().split(":")
        misere = len(parts) > 1 and parts[-1] in _MISERE_WORDS
        if misere:
            parts.pop()
        rows_text, sep, cols_text = parts[0].partition("x")
        try:
            if not sep or len(parts) > 2:
                raise ValueError
            rows, cols = _digits(rows_text), _digits(cols_text)
            k = _digits(parts[1]) if len(parts) == 2 else min(rows, cols)
        except ValueError:
            raise RulesError(f"rules must look like 3x3, 3x4:3 or 3x3:3:misere, got {text!r}") from None
        return cls(rows, cols, k, misere)


_MISERE_WORDS = ("misere", "misère")


def _digits(text: str) -> int:
    """A count written in ASCII digits (``int()`` would also take ``"+3"``, ``" 3"``, ``"٣"``)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)


@cache
def _tables(
    rows: int, cols: int, k: int
) -> tuple[tuple[Line, ...], tuple[Symmetry, ...], tuple[tuple[Line, ...], ...]]:
    """The lines, the symmetries and the lines through each cell of a shape, computed once per
    shape: they are immutable, so every equal Rules shares them (code that builds a Rules per
    move then pays a look-up, not 0.1 ms)."""
    lines = _winning_lines(rows, cols, k)
    through = tuple(tuple(line for line in lines if cell in line) for cell in range(rows * cols))
    return lines, _symmetries(rows, cols), through


def _winning_lines(rows: int, cols: int, k: int) -> tuple[Line, ...]:
    """Every run of ``k`` cells along a row, column or diagonal, in a fixed order."""
    directions = ((0, 1), (1, 0), (1, 1), (1, -1))
    lines: list[Line] = []
    for dr, dc in directions:
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append(tuple((r + dr * i) * cols + c + dc * i for i in range(k)))
    return tuple(lines)


def _symmetries(rows: int, cols: int) -> tuple[Symmetry, ...]:
    """The board's rotations and reflections as permutations, identity first.

    Each is built from three coordinate moves: transpose (square boards only), mirror the rows
    (top-bottom), mirror the columns (left-right). On a square board the 8 combinations are the
    dihedral group D4; on a rectangle the 4 without transpose (2 when one side is a single cell,
    where mirroring across it changes nothing).
    """
    named: list[Symmetry] = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                perm = []
                for r in range(rows):
                    for c in range(cols):
                        # Where does the cell shown at (r, c) of the image come from?
                        sr, sc = (c, r) if transpose else (r, c)
                        sr = rows - 1 - sr if flip_rows else sr
                        sc = cols - 1 - sc if flip_cols else sc
                        perm.append(sr * cols + sc)
                if all(tuple(perm) != s.perm for s in named):  # a 1-cell-wide board repeats some
                    named.append(Symmetry.of(_symmetry_name(transpose, flip_rows, flip_cols), perm))
    return tuple(named)


def _symmetry_name(transpose: bool, flip_rows: bool, flip_cols: bool) -> str:
    """A plain-words name for a combination of transpose and mirrors."""
    names = {
        (False, False, False): "identity",
        (False, True, False): "mirror top-bottom",
        (False, False, True): "mirror left-right",
        (False, True, True): "rotate 180",
        (True, False, False): "transpose (main diagonal)",
        (True, True, False): "rotate 90 clockwise",
        (True, False, True): "rotate 90 counter-clockwise",
        (True, True, True): "transpose (anti-diagonal)",
    }
    return names[(transpose, flip_rows, flip_cols)]


STANDARD = Rules(3, 3, 3)
