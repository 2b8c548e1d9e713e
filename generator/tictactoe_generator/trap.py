"""Trap order: rank each position's optimal moves by how often they win against fallible players.

The definition is docs/book-format.md "Trap order": the optimal moves of a position fall into
tiers, best first, by the chance of winning against each reference opponent in turn
(``tictactoe_book.opponents``: *novice*, then *random*, unless the book is ranked against
another one first), when the book's side keeps choosing uniformly within the top tier
afterwards. This module computes it over the canonical positions of a
``tictactoe_generator.solve.Retrograde`` result, one layer of marks at a time from the
full board back to the empty one, with arrays. The chances do not change under the board's
symmetries, so a move's chance is read from its successor's canonical row.

For every row and both books (the book plays X, or the book plays O) it keeps the chance that
the book wins from there, against each opponent. Where the book is to move, the chance is the
top tier's (their mean, which in exact arithmetic is each of them); where the opponent is to
move, the average over the opponent's candidates: the cells its preference
(``tictactoe_book.opponents.Opponent.preference``, under the book's rules) leaves of the row's free
cells, its own completing cells and the other side's (``tictactoe_generator.codes.completing_cells``).
A move into a finished position scores 1 if the book won by it, else 0.

Two kinds of arithmetic, one pass (``Method``):

* ``"exact"``: integers over a common denominator per opponent, layer and book: an opponent
  divides by its count of candidates, between 1 and the free cells ``e``, so layer ``m``'s
  denominator is the next layer's times the least common multiple of the counts met in the
  layer where the opponent is to move, and the next layer's where the book is. All of a
  position's moves lead into one layer, so comparing chances is comparing integers: ties are
  exact. Chosen whenever every denominator stays below ``EXACT_LIMIT`` (int64 arithmetic):
  every board this project solves does (3x3, 3x4, 4x3, 4x4 with k = 3 or 4, normal and misère:
  the largest, 4x4, needs denominators below 5e7).
* ``"float"``: float64 probabilities, for larger boards. Every chance is a mean of
  non-negative numbers, so its rounding error is relative: at most about ``(cells + 1) * 2^-53``
  per mean and ``cells`` means in a line of play, 3e-14 of the value on 16 cells (measured on
  4x4 against the exact method: 6e-16). Two chances ``a``, ``b`` are tied when
  ``|a - b| <= TOLERANCE * max(|a|, |b|)``, ``TOLERANCE = 1e-9``: far above that error, and far
  below the closest distinct chances of one position's optimal moves on 4x4 (2e-5 apart,
  relatively; docs/scaling.md). Tiers are cut on the sorted chances wherever two neighbours
  are not tied (by the first opponent; then, within its tier, by the next, and so on). On 3x3, 3x4 and 4x4 the
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

from tictactoe_book.game import Cell, Rules
from tictactoe_book.opponents import DEFAULT, OPPONENTS, Opponent, ranking
from tictactoe_generator.codes import (
    EMPTY_DIGIT,
    FIRST_DIGIT,
    SECOND_DIGIT,
    Codes,
    completing_cells,
    digits_at,
)
from tictactoe_generator.solve import FIRST_LINE, SECOND_LINE, UNFINISHED, Progress, Retrograde

Method = Literal["exact", "float"]
#: A chance: exact, or a float64 (``Method``).
Rate = Fraction | float

#: Float chances ``a``, ``b`` are tied when ``|a - b| <= TOLERANCE * max(|a|, |b|)``; the text is
#: what a book states (its ``trap_order`` member).
TOLERANCE_TEXT = "1e-9"
TOLERANCE = float(TOLERANCE_TEXT)
#: The exact method keeps every denominator below this, so no int64 sum can overflow (a chance
#: is at most 1: every numerator is at most its denominator, and so is every partial sum).
EXACT_LIMIT = 2**62

#: The book's side, as the first index of each of ``TrapArrays.chances``.
BOOK_FIRST = 0  # the book plays X
BOOK_SECOND = 1  # the book plays O

Values = npt.NDArray[np.int64] | npt.NDArray[np.float64]
#: Per opponent's name, book and layer: the common denominator of the book's chances.
Denominators = dict[str, tuple[tuple[int, ...], tuple[int, ...]]]


@dataclass(frozen=True, eq=False)
class TrapArrays:
    """The trap order of every unfinished row of ``result``, and the chances behind it."""

    result: Retrograde
    method: Method
    #: the opponent the tiers are ranked against first; the others break ties, in order
    against: str
    #: the tie tolerance (relative), 0 for the exact method
    tolerance: float
    #: ``tier[i, c]``: the tier of move ``c`` of row ``i`` (0 the top), -1 for a move that is
    #: not optimal, an occupied cell, or a finished row
    tier: npt.NDArray[np.int8]
    #: per opponent's name, in the registry's order: ``chances[name][b, i]``, the chance that
    #: book ``b`` (BOOK_FIRST, BOOK_SECOND) wins from row ``i`` against it, whoever is to move:
    #: a probability (float), or a numerator over ``denominators[name][b][marks]`` (exact)
    chances: dict[str, Values]
    #: per opponent's name, book and layer; all 1 for the float method
    denominators: Denominators

    def rates(self, book: int, row: int) -> dict[str, Rate]:
        """Book ``book``'s chance from ``row`` against each opponent: Fractions when exact."""
        return rates_of(self.chances, self.denominators, self.method, book, row, int(self.result.marks[row]))

    def probabilities(self, book: int) -> dict[str, npt.NDArray[np.float64]]:
        """Book ``book``'s chances from every row against each opponent, as float64: for the
        exact method, each fraction to within a few units in the last place."""
        marks = self.result.marks
        return {
            name: values[book] / np.array(self.denominators[name][book], dtype=np.float64)[marks]
            for name, values in self.chances.items()
        }

    @property
    def first_player_rates(self) -> dict[str, Rate]:
        """The book's chances as the first player, from the empty board."""
        return self.rates(BOOK_FIRST, 0)

    @property
    def second_player_rates(self) -> dict[str, Rate]:
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
    against: str = DEFAULT,
    progress: Progress | None = None,
) -> TrapArrays:
    """The trap order of every position of ``result``, ranked against the reference opponent
    ``against`` first (the others break ties, in the registry's order: ``ranking``): against
    random, the top tier is the never-losing policy that wins most often against a random
    player.

    ``method`` defaults to ``"exact"`` when its denominators fit (``EXACT_LIMIT``), else
    ``"float"``; asking for ``"exact"`` where they do not fit raises ValueError.
    ``progress("trap", done, total)`` is called after each layer.
    """
    cells = result.rules.cells
    marks = result.marks
    opponents = ranking(against)
    candidates = {foe.name: _candidates(result, foe) for foe in opponents}
    divisors = {name: _lcms(result, chosen) for name, chosen in candidates.items()}
    method, denominators = choose_method(cells, divisors, method)
    exact = method == "exact"
    dtype = np.int64 if exact else np.float64
    chances = {
        name: finished_chances(result.misere, marks, result.status, den, dtype)
        for name, den in denominators.items()
    }
    tolerance = 0.0 if exact else TOLERANCE
    tier = np.full((len(marks), cells), -1, dtype=np.int8)
    starts = result.layer_starts
    for m in range(cells - 1, -1, -1):
        start, stop = starts[m], starts[m + 1]
        rows = start + np.flatnonzero(result.status[start:stop] == UNFINISHED)
        if len(rows):
            tier[rows], found = trap_layer(
                m,
                result.successors[rows],
                result.scores[rows],
                result.best[rows],
                {name: chosen[rows] for name, chosen in candidates.items()},
                chances,
                scales(denominators, m),
                tolerance,
            )
            for name, values in chances.items():
                values[:, rows] = found[name]
        if progress is not None:
            progress("trap", cells - m, cells)
    tier.setflags(write=False)
    for values in chances.values():
        values.setflags(write=False)
    in_order = {name: chances[name] for name in OPPONENTS if name in chances}  # the registry's order
    return TrapArrays(result, method, opponents[0].name, tolerance, tier, in_order, denominators)


def choose_method(
    cells: int, divisors: dict[str, tuple[int, ...]], method: Method | None
) -> tuple[Method, Denominators]:
    """The method (``method``, or ``"exact"`` when every denominator fits ``EXACT_LIMIT``, else
    ``"float"``) and each opponent's denominators per book and layer (all 1 for the float
    method), from each opponent's per-layer ``divisors`` (``lcm_of_counts``); ValueError when
    ``"exact"`` is asked for and does not fit."""
    denominators = {name: _denominators(cells, layers) for name, layers in divisors.items()}
    fits = max(d for books in denominators.values() for den in books for d in den) <= EXACT_LIMIT
    if method is None:
        method = "exact" if fits else "float"
    elif method == "exact" and not fits:
        raise ValueError(f"exact trap-order chances of {cells} cells need denominators beyond int64")
    if method == "float":
        ones = (1,) * (cells + 1)
        denominators = dict.fromkeys(denominators, (ones, ones))
    return method, denominators


def scales(denominators: Denominators, m: int) -> dict[str, int]:
    """Per opponent, what layer ``m``'s denominator of the book that waits (its opponent moves
    there) is to layer ``m + 1``'s: the factor ``_mean`` scales a mean by."""
    other = 1 - m % 2
    return {name: den[other][m] // den[other][m + 1] for name, den in denominators.items()}


def trap_layer(
    m: int,
    table: npt.NDArray[np.int32],
    scores: npt.NDArray[np.int8],
    best: npt.NDArray[np.int8],
    candidates: dict[str, npt.NDArray[np.uint32]],
    following: dict[str, Values],
    scale: dict[str, int],
    tolerance: float,
    margins: Margins | None = None,
) -> tuple[npt.NDArray[np.int8], dict[str, Values]]:
    """One layer of the trap order, for some unfinished positions with ``m`` marks: the tier of
    each move (-1 off the optimal moves) and, per opponent, both books' chances from each
    position (``(2, rows)``).

    ``table``, ``scores`` and ``best`` are the positions' successors, move scores and best
    scores (tictactoe_generator.solve); ``candidates`` each opponent's candidate cells there
    (``candidate_sets``); ``following`` each opponent's chances ``(2, n)`` of the rows ``table``
    names, in ranking order; ``scale`` from ``scales``; ``margins`` as for ``tier_ranks``."""
    cells = table.shape[1]
    children = np.maximum(table, 0)
    book, other = m % 2, 1 - m % 2  # the book that is to move here, and the other one
    found: dict[str, Values] = {
        name: np.empty_like(values, shape=(2, len(table))) for name, values in following.items()
    }
    # the other book waits: its opponent moves, among its candidates
    for name, values in following.items():
        found[name][other] = _mean(values[other][children], _members(candidates[name], cells), scale[name])
    # this book moves: rank its optimal moves, one entry per (position, optimal move)
    position, cell = np.nonzero(scores == best[:, None])
    child = table[position, cell]
    by = {name: values[book][child] for name, values in following.items()}
    ranks = tier_ranks(position, list(by.values()), tolerance, margins)
    tier: npt.NDArray[np.int8] = np.full(table.shape, -1, dtype=np.int8)
    tier[position, cell] = ranks
    top = ranks == 0
    exact = tolerance == 0
    for name in following:
        found[name][book] = _top(position[top], by[name][top], len(table), exact)
    return tier, found


def rates_of(
    chances: dict[str, Values], denominators: Denominators, method: Method, book: int, row: int, marks: int
) -> dict[str, Rate]:
    """Book ``book``'s chance from row ``row`` (with ``marks`` marks) of ``chances`` against each
    opponent: Fractions when exact."""
    if method == "exact":
        return {
            name: Fraction(int(values[book, row]), denominators[name][book][marks])
            for name, values in chances.items()
        }
    return {name: float(values[book, row]) for name, values in chances.items()}


@dataclass
class Margins:
    """How close the float method's ties came to the tolerance: over every two neighbouring
    chances of one position's optimal moves, the largest relative difference called a tie, and
    the smallest called distinct (``tier_ranks`` updates it)."""

    tied: float = 0.0
    apart: float = math.inf

    def observe(self, a: Values, b: Values, same: npt.NDArray[np.bool_]) -> None:
        """Neighbours ``a[i]``, ``b[i]``, tied where ``same``."""
        larger = np.maximum(np.abs(a), np.abs(b))
        shown = larger > 0
        gap = np.abs(a - b)[shown] / larger[shown]
        tied, apart = gap[same[shown]], gap[~same[shown]]
        if len(tied):
            self.tied = max(self.tied, float(tied.max()))
        if len(apart):
            self.apart = min(self.apart, float(apart.min()))

    def merge(self, other: Margins) -> None:
        """What ``other`` observed, as if this one had."""
        self.tied = max(self.tied, other.tied)
        self.apart = min(self.apart, other.apart)


def tier_ranks(
    position: npt.NDArray[np.intp], keys: list[Values], tolerance: float, margins: Margins | None = None
) -> npt.NDArray[np.int8]:
    """The tier (0 the best) of each candidate move, for many positions at once.

    Entry ``j`` is a move of position ``position[j]`` (entries grouped by position, positions
    in increasing order) with chances ``keys[0][j]``, ``keys[1][j]``, ... against the opponents
    in ranking order. Tiers go by the first chance, then within a tier by the second, and so
    on, higher first: sort, then start a tier wherever two neighbours are not tied (``_same``:
    equal, for a tolerance of 0). Sorting all entries together, the group as the first key,
    costs far less than a sort per position (20 moves at most each). ``margins``, if given,
    observes every two neighbours of one group.
    """
    if not len(position):
        return np.zeros(0, dtype=np.int8)
    # the groups so far, numbered across all positions in order: at first, one per position
    group = position.astype(np.int64)
    order = np.arange(len(position))
    for key in keys:
        order = np.lexsort((-key, group))
        ranked, before = key[order], group[order]
        steps = np.ones(len(order), dtype=np.int64)
        same = _same(ranked[:-1], ranked[1:], tolerance)
        steps[1:] = (before[1:] != before[:-1]) | ~same
        if margins is not None:
            within = before[1:] == before[:-1]
            margins.observe(ranked[:-1][within], ranked[1:][within], same[within])
        group = np.empty(len(order), dtype=np.int64)
        group[order] = np.cumsum(steps)
    # a tier number restarts at 0 for each position: less the first group of its position, in
    # the last sort's order (where a position's groups ascend)
    where = position[order]
    firsts = np.flatnonzero(np.concatenate(([True], where[1:] != where[:-1])))
    start = np.zeros(int(position.max()) + 1, dtype=np.int64)
    start[where[firsts]] = group[order][firsts]
    ranks: npt.NDArray[np.int8] = (group - start[position]).astype(np.int8)
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


def _candidates(result: Retrograde, foe: Opponent) -> npt.NDArray[np.uint32]:
    """Per row, the cells ``foe`` (to move there) chooses among (``candidate_sets``); 0 on
    finished rows."""
    rows = result.unfinished()
    chosen = np.zeros(len(result.codes), dtype=np.uint32)
    chosen[rows] = candidate_sets(result.rules, result.codes[rows], result.first_to_move[rows], foe)
    return chosen


def candidate_sets(
    rules: Rules, codes: Codes, first_to_move: npt.NDArray[np.bool_] | bool, foe: Opponent
) -> npt.NDArray[np.uint32]:
    """For unfinished positions, the cells ``foe`` (to move there) chooses among, as a bit set
    (cell ``c`` is bit ``c``): its preference under the rules
    (``tictactoe_book.opponents.Opponent.preference``, the one definition of it), applied to the
    bit sets of each position's free cells and of the cells completing a line of each side,
    once per distinct triple of sets."""
    cells = rules.cells
    free = _bit_sets([digits_at(codes, cells, c) == EMPTY_DIGIT for c in range(cells)])
    completes = {d: _bit_sets(list(completing_cells(rules, codes, d).T)) for d in (FIRST_DIGIT, SECOND_DIGIT)}
    own = np.where(first_to_move, completes[FIRST_DIGIT], completes[SECOND_DIGIT])
    other = np.where(first_to_move, completes[SECOND_DIGIT], completes[FIRST_DIGIT])
    wide = np.uint64
    triples = free.astype(wide) | own.astype(wide) << wide(cells) | other.astype(wide) << wide(2 * cells)
    distinct, inverse = np.unique(triples, return_inverse=True)
    mask = wide((1 << cells) - 1)
    sets = [((distinct >> wide(cells * j)) & mask).tolist() for j in range(3)]
    choose = np.frompyfunc(foe.preference(rules), 3, 1)
    chosen: npt.NDArray[np.uint32] = choose(*sets).astype(np.uint32)[inverse.ravel()]
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


def lcm_of_counts(sets: npt.NDArray[np.uint32]) -> int:
    """The least common multiple of the sizes of the non-empty bit sets ``sets`` (1 if none)."""
    counts = np.bitwise_count(sets)
    return math.lcm(*np.unique(counts[counts > 0]).tolist()) if counts.any() else 1


def _lcms(result: Retrograde, chosen: npt.NDArray[np.uint32]) -> tuple[int, ...]:
    """Per layer, the least common multiple of an opponent's candidate counts (1 if none)."""
    starts = result.layer_starts
    return tuple(lcm_of_counts(chosen[starts[m] : starts[m + 1]]) for m in range(result.rules.cells + 1))


def _denominators(cells: int, divisors: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per book and layer, the common denominator of the book's chances (exact method).

    Where the book's opponent is to move (layer ``m`` with ``m % 2 != book``), a chance is a
    mean with a divisor dividing ``divisors[m]``; where the book is, it is a successor's chance.
    """
    books = []
    for book in (BOOK_FIRST, BOOK_SECOND):
        den = [1] * (cells + 1)
        for m in range(cells - 1, -1, -1):
            den[m] = den[m + 1] * (divisors[m] if m % 2 != book else 1)
        books.append(tuple(den))
    return books[0], books[1]


def finished_chances(
    misere: bool,
    marks: npt.NDArray[np.int64] | int,
    status: npt.NDArray[np.int8],
    denominators: tuple[tuple[int, ...], tuple[int, ...]],
    dtype: type[np.generic],
) -> Values:
    """Both books' chances ``(2, rows)`` as if every position were finished: 1 (its
    denominator) where the book won (its own line, or under misère its opponent's), else 0;
    ``marks`` is each position's layer (or all of theirs)."""
    line = (status == FIRST_LINE) | (status == SECOND_LINE)
    values = np.zeros((2, len(status)), dtype=dtype)
    for book in (BOOK_FIRST, BOOK_SECOND):
        moved_in = (np.asarray(marks) - 1) % 2 == book  # the book made the move that ended the game
        won = line & (moved_in != misere)
        one = np.array(denominators[book], dtype=dtype)[marks]
        values[book] = np.where(won, one, 0)
    return values
