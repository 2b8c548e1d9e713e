"""Trap order: rank each position's optimal moves by how often they win against fallible players.

The definition is docs/book-format.md "Trap order": the optimal moves of a position fall into
tiers, best first, by the chance of winning against *novice*, then against *random*, when the
book's side keeps choosing uniformly within the top tier afterwards. This module computes it
over the canonical positions of a ``generator.solve.Retrograde`` result, one layer of marks at a
time from the full board back to the empty one, with arrays. The chances do not
change under the board's symmetries, so a move's chance is read from its successor's canonical
row.

For every row and both books (the book plays X, or the book plays O) it keeps the chance that
the book wins from there, against each opponent. Where the book is to move, the chance is the
top tier's (their mean, which in exact arithmetic is each of them); where the opponent is to
move, the average over the opponent's candidates: every free cell for random, and for novice a
winning move if it has one, else a block of the other side's immediate win, else any free cell
(``generator.codes.completing_cells``). A move into a finished position scores 1 if
the book won by it, else 0.

Misère (completing a line loses): the same definition, with a novice that still looks one ply
ahead at its own move: it plays a free cell that does not complete a line of its own if it has
one, else any free cell. The normal novice would "win at once" by completing its own line,
which in misère loses at once: a player who takes immediate losses whenever offered is no
fallible human but a suicidal one, and a trap order ranked against it would mean nothing.
Blocks have no misère counterpart: the other side completing a line is its loss.

Two kinds of arithmetic, one pass (``Method``):

* ``"exact"``: integers over a common denominator per layer and book: the random opponent
  divides by the free cells ``e``, the novice by a count between 1 and ``e``, so layer ``m``'s
  denominator is the next layer's times ``e`` (random) or the least common multiple of the
  novice counts met in the layer (novice), where the opponent is to move, and the next layer's
  where the book is. All of a position's moves lead into one layer, so comparing chances is
  comparing integers: ties are exact. Chosen whenever every
  denominator stays below ``EXACT_LIMIT`` (int64 arithmetic): every board this project solves
  does (3x3, 3x4, 4x3, 4x4 with k = 3 or 4, normal and misère: the largest, 4x4, needs
  denominators below 5e7).
* ``"float"``: float64 probabilities, for larger boards. Every chance is a mean of
  non-negative numbers, so its rounding error is relative: at most about ``(cells + 1) * 2^-53``
  per mean and ``cells`` means in a line of play, 3e-14 of the value on 16 cells (measured on
  4x4 against the exact method: 6e-16). Two chances ``a``, ``b`` are tied when
  ``|a - b| <= TOLERANCE * max(|a|, |b|)``, ``TOLERANCE = 1e-9``: far above that error, and far
  below the closest distinct chances of one position's optimal moves on 4x4 (2e-5 apart,
  relatively; docs/scaling.md). Tiers are cut on the sorted chances wherever two neighbours
  are not tied (by novice; then, within a novice tier, by random). On 3x3, 3x4 and 4x4 the
  float tiers equal the exact ones at every position.

Tiers are built for every position of a layer at once, by one ``np.lexsort`` of all their
optimal moves with the position as the first key (``tier_ranks``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from generator.codes import (
    EMPTY_DIGIT,
    FIRST_DIGIT,
    SECOND_DIGIT,
    completing_cells,
    digits_at,
)
from generator.solve import FIRST_LINE, SECOND_LINE, UNFINISHED, Progress, Retrograde
from player.game import MAX_CELLS, Cell
from player.play import novice_choice

Method = Literal["exact", "float"]
#: The reference opponent the tiers are ranked against first (the other one breaks ties).
Against = Literal["novice", "random"]
AGAINST: tuple[Against, ...] = ("novice", "random")
#: A chance: exact, or a float64 (``Method``).
Rate = Fraction | float

#: Float chances ``a``, ``b`` are tied when ``|a - b| <= TOLERANCE * max(|a|, |b|)``; the text is
#: what a book states (its ``trap_order`` member).
TOLERANCE_TEXT = "1e-9"
TOLERANCE = float(TOLERANCE_TEXT)
#: The exact method keeps every denominator below this, so no int64 sum can overflow (a chance
#: is at most 1: every numerator is at most its denominator, and so is every partial sum).
EXACT_LIMIT = 2**62

#: The book's side, as the first index of ``TrapArrays.novice`` and ``random``.
BOOK_FIRST = 0  # the book plays X
BOOK_SECOND = 1  # the book plays O

Values = npt.NDArray[np.int64] | npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class TrapArrays:
    """The trap order of every unfinished row of ``result``, and the chances behind it."""

    result: Retrograde
    method: Method
    #: the opponent the tiers are ranked against first; the other breaks ties
    against: Against
    #: the tie tolerance (relative), 0 for the exact method
    tolerance: float
    #: ``tier[i, c]``: the tier of move ``c`` of row ``i`` (0 the top), -1 for a move that is
    #: not optimal, an occupied cell, or a finished row
    tier: npt.NDArray[np.int8]
    #: ``novice[b, i]``: the chance that book ``b`` (BOOK_FIRST, BOOK_SECOND) wins from row ``i``
    #: against novice, whoever is to move: a probability (float), or a numerator over
    #: ``novice_denominators[b][marks]`` (exact)
    novice: Values
    #: as ``novice``, against random
    random: Values
    #: per book and layer; all 1 for the float method
    novice_denominators: tuple[tuple[int, ...], tuple[int, ...]]
    random_denominators: tuple[tuple[int, ...], tuple[int, ...]]

    def rates(self, book: int, row: int) -> tuple[Rate, Rate]:
        """Book ``book``'s chances (novice, random) from ``row``: Fractions when exact."""
        marks = int(self.result.marks[row])
        if self.method == "exact":
            return (
                Fraction(int(self.novice[book, row]), self.novice_denominators[book][marks]),
                Fraction(int(self.random[book, row]), self.random_denominators[book][marks]),
            )
        return float(self.novice[book, row]), float(self.random[book, row])

    def probabilities(self, book: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Book ``book``'s chances (novice, random) from every row as float64: for the exact
        method, each fraction to within a few units in the last place."""
        marks = self.result.marks
        return (
            self.novice[book] / np.array(self.novice_denominators[book], dtype=np.float64)[marks],
            self.random[book] / np.array(self.random_denominators[book], dtype=np.float64)[marks],
        )

    @property
    def first_player_rates(self) -> tuple[Rate, Rate]:
        """The book's chances as the first player, from the empty board."""
        return self.rates(BOOK_FIRST, 0)

    @property
    def second_player_rates(self) -> tuple[Rate, Rate]:
        """The book's chances when the opponent moves first from the empty board."""
        return self.rates(BOOK_SECOND, 0)

    def tiers(self, row: int) -> tuple[tuple[Cell, ...], ...]:
        """Row ``row``'s optimal moves in tiers, best first, each tier in increasing order."""
        ranks = self.tier[row].tolist()
        return tuple(tuple(c for c, r in enumerate(ranks) if r == t) for t in range(max(ranks) + 1))


def trap_arrays(
    result: Retrograde,
    *,
    method: Method | None = None,
    against: Against = "novice",
    progress: Progress | None = None,
) -> TrapArrays:
    """The trap order of every position of ``result``, ranked against ``against`` first (the
    other reference opponent breaks ties): against random, the top tier is the never-losing
    policy that wins most often against a random player.

    ``method`` defaults to ``"exact"`` when its denominators fit (``EXACT_LIMIT``), else
    ``"float"``; asking for ``"exact"`` where they do not fit raises ValueError.
    ``progress("trap", done, total)`` is called after each layer.
    """
    cells = result.rules.cells
    marks = result.marks
    novice_moves = _novice_moves(result)
    novice_den = _denominators(result, _novice_lcms(result, novice_moves))
    random_den = _denominators(result, tuple(cells - m for m in range(cells + 1)))
    fits = max(*novice_den[0], *novice_den[1], *random_den[0], *random_den[1]) <= EXACT_LIMIT
    if method is None:
        method = "exact" if fits else "float"
    elif method == "exact" and not fits:
        raise ValueError(f"{result.rules}: exact trap-order chances need denominators beyond int64")
    exact = method == "exact"
    if not exact:
        ones = (1,) * (cells + 1)
        novice_den = random_den = (ones, ones)
    dtype = np.int64 if exact else np.float64
    novice = _finished_values(result, novice_den, dtype)
    random = _finished_values(result, random_den, dtype)
    tolerance = 0.0 if exact else TOLERANCE
    tier = np.full((len(marks), cells), -1, dtype=np.int8)
    starts = result.layer_starts
    for m in range(cells - 1, -1, -1):
        start, stop = starts[m], starts[m + 1]
        rows = start + np.flatnonzero(result.status[start:stop] == UNFINISHED)
        if len(rows):
            table = result.successors[rows]
            free = table >= 0
            children = np.maximum(table, 0)
            book, other = m % 2, 1 - m % 2  # the book that is to move here, and the other one
            # the other book waits: its opponent moves, at random or as the novice
            novice[other, rows] = _mean(
                novice[other][children],
                _members(novice_moves[rows], cells),
                novice_den[other][m] // novice_den[other][m + 1],
            )
            random[other, rows] = _mean(
                random[other][children], free, random_den[other][m] // random_den[other][m + 1]
            )
            # this book moves: rank its optimal moves, one entry per (row, optimal move)
            position, cell = np.nonzero(result.scores[rows] == result.best[rows, None])
            child = table[position, cell]
            by_novice, by_random = novice[book][child], random[book][child]
            first_key, second_key = (by_random, by_novice) if against == "random" else (by_novice, by_random)
            ranks = tier_ranks(position, first_key, second_key, tolerance)
            tier[rows[position], cell] = ranks
            top = ranks == 0
            novice[book, rows] = _top(position[top], by_novice[top], len(rows), exact)
            random[book, rows] = _top(position[top], by_random[top], len(rows), exact)
        if progress is not None:
            progress("trap", cells - m, cells)
    for array in (tier, novice, random):
        array.setflags(write=False)
    return TrapArrays(result, method, against, tolerance, tier, novice, random, novice_den, random_den)


def tier_ranks(
    position: npt.NDArray[np.intp], by_novice: Values, by_random: Values, tolerance: float
) -> npt.NDArray[np.int8]:
    """The tier (0 the best) of each candidate move, for many positions at once.

    Entry ``j`` is a move of position ``position[j]`` (entries grouped by position, positions
    in increasing order) with chances ``by_novice[j]`` and ``by_random[j]`` (or, ranked against
    random first, the other way round). Tiers go by the first, then by the second, higher
    first: sort, then start a tier wherever two neighbours are not tied
    (``_same``: equal, for a tolerance of 0). Sorting all entries together, the position as the
    first key, costs far less than a sort per position (16 moves at most each).
    """
    if not len(position):
        return np.zeros(0, dtype=np.int8)
    # 1. novice tiers, numbered across all positions in order
    order = np.lexsort((-by_novice, position))
    ranked = by_novice[order]
    steps = np.ones(len(order), dtype=np.int64)
    steps[1:] = (position[order][1:] != position[order][:-1]) | ~_same(ranked[:-1], ranked[1:], tolerance)
    novice_tier = np.empty(len(order), dtype=np.int64)
    novice_tier[order] = np.cumsum(steps)
    # 2. within a novice tier, by random; a tier number restarts at 0 for each position
    order = np.lexsort((-by_random, novice_tier))
    ranked, group, where = by_random[order], novice_tier[order], position[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = where[1:] != where[:-1]
    steps[0] = 0
    steps[1:] = ~first[1:] & ((group[1:] != group[:-1]) | ~_same(ranked[:-1], ranked[1:], tolerance))
    count = np.cumsum(steps)
    ranks = np.empty(len(order), dtype=np.int8)
    ranks[order] = count - np.maximum.accumulate(np.where(first, count, 0))
    return ranks


def _same(a: Values, b: Values, tolerance: float) -> npt.NDArray[np.bool_]:
    """Tied chances: equal, or within ``tolerance`` of the larger one."""
    if tolerance == 0:
        equal: npt.NDArray[np.bool_] = a == b
        return equal
    close: npt.NDArray[np.bool_] = np.abs(a - b) <= tolerance * np.maximum(np.abs(a), np.abs(b))
    return close


def _mean(values: Values, chosen: npt.NDArray[np.bool_], scale: int) -> Values:
    """Each row's mean of ``values`` over ``chosen``: in units of a denominator ``scale`` times
    the values' (exact), or plainly (float: ``scale`` is 1)."""
    total = (values * chosen).sum(axis=1)  # faster than np.where; a taken cell's value is finite
    count = chosen.sum(axis=1)
    if values.dtype == np.float64:
        mean: Values = total / count
        return mean
    assert np.all(scale % count == 0)
    exact: Values = total * (scale // count)
    return exact


def _top(position: npt.NDArray[np.intp], values: Values, positions: int, exact: bool) -> Values:
    """Per position, the chance of the policy that picks uniformly within the top tier: the
    mean of the top tier's ``values`` (exact: they are equal, so any of them)."""
    if exact:
        found = np.zeros(positions, dtype=np.int64)
        found[position] = values
        return found
    mean: Values = np.bincount(position, values, positions) / np.bincount(position, None, positions)
    return mean


def _novice_moves(result: Retrograde) -> npt.NDArray[np.uint32]:
    """Per row, the cells the novice (to move there) chooses among, as a bit set (cell ``c`` is
    bit ``c``); 0 on finished rows: ``player.play.novice_choice``, the one definition of its
    preference, applied to the bit sets of every row's free cells and of the cells completing a
    line of each side."""
    rules = result.rules
    rows = result.unfinished()
    codes = result.codes[rows]
    free = _bit_sets([digits_at(codes, rules.cells, c) == EMPTY_DIGIT for c in range(rules.cells)])
    completes = {d: _bit_sets(list(completing_cells(rules, codes, d).T)) for d in (FIRST_DIGIT, SECOND_DIGIT)}
    first_to_move = result.first_to_move[rows]
    own = np.where(first_to_move, completes[FIRST_DIGIT], completes[SECOND_DIGIT])
    other = np.where(first_to_move, completes[SECOND_DIGIT], completes[FIRST_DIGIT])
    choose = np.frompyfunc(novice_choice, 4, 1)
    chosen = np.zeros(len(result.codes), dtype=np.uint32)
    chosen[rows] = choose(free.tolist(), own.tolist(), other.tolist(), result.misere).astype(np.uint32)
    return chosen


def _bit_sets(columns: list[npt.NDArray[np.bool_]]) -> npt.NDArray[np.uint32]:
    """Per row, the set of cells ``c`` where ``columns[c]`` holds, as bits (cell ``c`` is bit ``c``)."""
    found = np.zeros(len(columns[0]), dtype=np.uint32)
    for cell, column in enumerate(columns):
        found |= column.astype(np.uint32) << np.uint32(cell)
    return found


def _members(sets: npt.NDArray[np.uint32], cells: int) -> npt.NDArray[np.bool_]:
    """The bit sets as a (rows, cells) boolean array."""
    bits: npt.NDArray[np.bool_] = (sets[:, None] >> np.arange(cells, dtype=np.uint32)) & 1 == 1
    return bits


def _sizes(sets: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    """How many cells each bit set holds (at most MAX_CELLS = 16 bits: one table look-up)."""
    assert MAX_CELLS <= 16
    sizes: npt.NDArray[np.int64] = _POPCOUNT[sets & 0xFFFF]
    return sizes


_POPCOUNT = sum(((np.arange(1 << 16) >> bit) & 1 for bit in range(16)), np.zeros(1 << 16, dtype=np.int64))


def _novice_lcms(result: Retrograde, chosen: npt.NDArray[np.uint32]) -> tuple[int, ...]:
    """Per layer, the least common multiple of the novice's candidate counts (1 if none)."""
    counts = _sizes(chosen)
    starts = result.layer_starts
    lcms = []
    for m in range(result.rules.cells + 1):
        found = counts[starts[m] : starts[m + 1]]
        lcms.append(math.lcm(*np.unique(found[found > 0]).tolist()) if found.any() else 1)
    return tuple(lcms)


def _denominators(result: Retrograde, divisors: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per book and layer, the common denominator of the book's chances (exact method).

    Where the book's opponent is to move (layer ``m`` with ``m % 2 != book``), a chance is a
    mean with a divisor dividing ``divisors[m]``; where the book is, it is a successor's chance.
    """
    cells = result.rules.cells
    books = []
    for book in (BOOK_FIRST, BOOK_SECOND):
        den = [1] * (cells + 1)
        for m in range(cells - 1, -1, -1):
            den[m] = den[m + 1] * (divisors[m] if m % 2 != book else 1)
        books.append(tuple(den))
    return books[0], books[1]


def _finished_values(
    result: Retrograde, denominators: tuple[tuple[int, ...], tuple[int, ...]], dtype: type[np.generic]
) -> Values:
    """Both books' chances, set on the finished rows: 1 where the book won (its own line, or
    under misère its opponent's), else 0."""
    marks = result.marks
    line = (result.status == FIRST_LINE) | (result.status == SECOND_LINE)
    values = np.zeros((2, len(marks)), dtype=dtype)
    for book in (BOOK_FIRST, BOOK_SECOND):
        moved_in = (marks - 1) % 2 == book  # the book made the move that ended the game
        won = line & (moved_in != result.misere)
        one = np.array(denominators[book], dtype=dtype)[marks]
        values[book] = np.where(won, one, 0)
    return values
