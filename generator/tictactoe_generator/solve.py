"""Solve an m,n,k-game by retrograde analysis over arrays of position codes (build time, numpy).

The one solver: every book is built from its result. Glossary, after generator/tictactoe_generator/codes.py:

* a *position* is the canonical code of a class of boards equal under the board's symmetries;
  the solver keeps one position per class, and every array below has one row per position;
* *layer* ``m`` holds the positions with ``m`` marks; a move goes from layer ``m`` to ``m + 1``;
* a position is *finished* when its last mover completed a line of ``k`` or the board is full.

Moves commute with the symmetries, so the canonical images of the reachable boards are exactly
the canonical children of the reachable unfinished positions, and every board of a class has the
same value. Two passes over the layers:

1. **forward**, from the empty board: layer ``m + 1`` is the set of canonical children of layer
   ``m``'s unfinished positions (``np.unique``), so only reachable positions ever appear (none
   where both sides have a line, or the wrong side has one). Each position keeps, per free cell,
   the index of its canonical child: the ``successors`` table.
2. **backward**, from the full board to the empty one, on the book's score scale
   (player/tictactoe_book/game.py, docs/book-format.md "Scores"): with ``N`` cells a finished position scores
   for its side to move as a game over 0 plies from now: ``-(N + 1)`` when the last mover
   completed a line (``N + 1`` under misère, where completing a line loses), ``0`` for a full
   board without one. Every move then scores ``one_ply_back`` of its successor's best score,
   with no special case: a move completing a line scores ``N`` (``-N`` under misère), one filling
   the board otherwise 0.

Counts of boards (not classes) come from orbit sizes, and game-tree counts from path counts
carried forward over the successors table (see ``_paths``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tictactoe_book.game import MAX_CELLS, Rules
from tictactoe_generator.codes import (
    EMPTY_DIGIT,
    FIRST_DIGIT,
    Codes,
    CodeSymmetries,
    canonical_codes,
    code_symmetries,
    code_type,
    completes_line,
    digits_at,
    line_masks,
    mover_digit,
    placed,
    stabilizer_sizes,
)


@dataclass(frozen=True)
class Outcomes:
    """How many complete games end each way."""

    first_wins: int
    second_wins: int
    draws: int

    @property
    def total(self) -> int:
        """All complete games."""
        return self.first_wins + self.second_wins + self.draws

    def __add__(self, other: Outcomes) -> Outcomes:
        return Outcomes(
            self.first_wins + other.first_wins,
            self.second_wins + other.second_wins,
            self.draws + other.draws,
        )


#: ``progress(stage, done, total)``: called after each layer of each stage.
Progress = Callable[[str, int, int], None]

# A position's status.
UNFINISHED = 0
FIRST_LINE = 1  # X completed a line (X won, or under misère lost)
SECOND_LINE = 2  # O completed a line
FULL = 3  # the board filled with no line: a draw

#: The move score of an occupied cell (scores lie in [-(N + 1), N + 1] with N <= 16).
OCCUPIED = -128

# Path counts are int64: at most N!/(N-m)! move sequences reach layer m, so the whole tree has
# fewer than e * N! nodes, about 5.7e13 for N = 16.
assert 3 * math.factorial(MAX_CELLS) < 2**63


@dataclass(frozen=True)
class Counts:
    """Boards and games of a rules value; "canonical" counts classes under symmetry."""

    reachable: int
    unfinished: int
    finished: int
    canonical: int
    canonical_unfinished: int
    canonical_finished: int
    #: nodes of the full game tree (every move sequence, the empty one included)
    tree_nodes: int
    #: complete games by result (under misère, completing a line is a loss)
    games: Outcomes


@dataclass(frozen=True, eq=False)
class Retrograde:
    """Every canonical reachable position of ``rules``, finished ones included, solved.

    Row ``i`` of every array is the position ``codes[i]``; rows run by layer, then by code, so
    layer ``m`` is rows ``layer_starts[m]:layer_starts[m + 1]`` and is sorted (``np.searchsorted``
    finds a canonical code in it). The arrays are read-only.
    """

    rules: Rules
    symmetries: CodeSymmetries
    codes: Codes
    #: ``cells + 2`` offsets: layer ``m`` starts at ``layer_starts[m]``
    layer_starts: npt.NDArray[np.int64]
    #: UNFINISHED, FIRST_LINE, SECOND_LINE or FULL
    status: npt.NDArray[np.int8]
    #: distinct boards the position stands for (its orbit under the symmetries)
    orbit: npt.NDArray[np.int64]
    #: ``successors[i, c]``: row of the canonical position after the move at cell ``c``, or -1
    #: (cell taken, or position finished)
    successors: npt.NDArray[np.int32]
    #: ``scores[i, c]``: the score of the move at cell ``c`` for the side to move, OCCUPIED when
    #: there is no such move
    scores: npt.NDArray[np.int8]
    #: the position's score for the side to move: its best move's, or for a finished position
    #: ``-(N + 1)`` / ``N + 1`` / 0 (the game is over, 0 plies from now)
    best: npt.NDArray[np.int8]
    #: move sequences from the empty board reaching any board of the class
    paths: npt.NDArray[np.int64]
    counts: Counts

    @property
    def misere(self) -> bool:
        """Whether completing a line loses (the rules')."""
        return self.rules.misere

    @property
    def marks(self) -> npt.NDArray[np.int64]:
        """Each position's number of marks (its layer)."""
        return np.repeat(np.arange(self.rules.cells + 1), np.diff(self.layer_starts))

    @property
    def first_to_move(self) -> npt.NDArray[np.bool_]:
        """True where X is to move (an even number of marks)."""
        even: npt.NDArray[np.bool_] = self.marks % 2 == 0
        return even

    @property
    def value(self) -> npt.NDArray[np.int8]:
        """+1 win, 0 draw, -1 loss for the side to move."""
        return np.sign(self.best).astype(np.int8)

    @property
    def plies(self) -> npt.NDArray[np.int64]:
        """Plies to the end of the game under perfect play (player/tictactoe_book/game.py
        ``decode_score``)."""
        cells, best = self.rules.cells, self.best.astype(np.int64)
        empties = cells - self.marks
        return np.where(best > 0, cells + 1 - best, np.where(best < 0, cells + 1 + best, empties))

    def unfinished(self) -> npt.NDArray[np.intp]:
        """Rows of the unfinished positions (the book's entries)."""
        return np.flatnonzero(self.status == UNFINISHED)


def one_ply_back(best: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """The score of a move from the score ``best`` of the position it leads to, over arrays
    (``tictactoe_book.game.one_ply_back``): the opponent's win in ``p`` plies is our loss in ``p + 1``,
    a draw stays a draw."""
    return (np.sign(best) - best).astype(np.int8)


def solve(rules: Rules, *, progress: Progress | None = None) -> Retrograde:
    """Solve every reachable position of ``rules`` (misère ones included: completing a line
    loses)."""
    misere = rules.misere
    symmetries = code_symmetries(rules)
    codes, layer_starts, status, successors = _reach(rules, symmetries, progress)
    best, scores = _back(rules, misere, layer_starts, status, successors, progress)
    orbit = symmetries.count // stabilizer_sizes(symmetries, codes)
    paths = _paths(layer_starts, status, successors)
    counts = _count(misere, status, orbit, paths)
    arrays = (codes, layer_starts, status, orbit, successors, scores, best, paths)
    for array in arrays:
        array.setflags(write=False)
    return Retrograde(rules, symmetries, *arrays, counts)


def _reach(
    rules: Rules, symmetries: CodeSymmetries, progress: Progress | None
) -> tuple[Codes, npt.NDArray[np.int64], npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """The forward pass: every canonical reachable position by layer, its status and successors."""
    cells = rules.cells
    layers = [np.zeros(1, dtype=code_type(cells))]
    statuses = [np.full(1, UNFINISHED, dtype=np.int8)]
    successors: list[npt.NDArray[np.int32]] = []
    next_start = 1  # the row where layer m + 1 will start
    for m in range(cells):
        next_codes, next_status, table = forward_layer(rules, symmetries, m, layers[m], statuses[m])
        successors.append(np.where(table >= 0, table + np.int32(next_start), table))
        next_start += len(next_codes)
        layers.append(next_codes)
        statuses.append(next_status)
        if progress is not None:
            progress("reach", m + 1, cells)
    successors.append(np.full((len(layers[cells]), cells), -1, dtype=np.int32))
    layer_starts = np.concatenate([[0], np.cumsum([len(layer) for layer in layers])]).astype(np.int64)
    return np.concatenate(layers), layer_starts, np.concatenate(statuses), np.concatenate(successors)


def forward_layer(
    rules: Rules, symmetries: CodeSymmetries, m: int, codes: Codes, status: npt.NDArray[np.int8]
) -> tuple[Codes, npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """One step of the forward pass: layer ``m + 1`` from layer ``m`` (``codes``, sorted, and
    their ``status``): its codes (the distinct canonical children of layer ``m``'s unfinished
    positions, sorted), their status, and layer ``m``'s successors table, ``table[i, c]`` the
    row in layer ``m + 1`` of the position after the move at cell ``c``, or -1."""
    cells = rules.cells
    open_rows = np.flatnonzero(status == UNFINISHED)
    parents = codes[open_rows]
    digit = mover_digit(m)

    def free(cell: int) -> npt.NDArray[np.intp]:
        return np.flatnonzero(digits_at(parents, cells, cell) == EMPTY_DIGIT)

    children, won = [], []
    for cell in range(cells):
        child = placed(parents[free(cell)], digit, cells, cell)
        won.append(completes_line(child, line_masks(rules, cell, digit)))
        children.append(canonical_codes(symmetries, child))
    next_codes, inverse = np.unique(np.concatenate(children), return_inverse=True)
    del children
    next_status = np.full(len(next_codes), FULL if m + 1 == cells else UNFINISHED, dtype=np.int8)
    next_status[inverse[np.concatenate(won)]] = FIRST_LINE if digit == FIRST_DIGIT else SECOND_LINE
    table = np.full((len(codes), cells), -1, dtype=np.int32)
    done = 0
    for cell in range(cells):
        rows = free(cell)
        table[open_rows[rows], cell] = inverse[done : done + len(rows)]
        done += len(rows)
    return next_codes, next_status, table


def _back(
    rules: Rules,
    misere: bool,
    layer_starts: npt.NDArray[np.int64],
    status: npt.NDArray[np.int8],
    successors: npt.NDArray[np.int32],
    progress: Progress | None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The backward pass: every position's best score and every move's score."""
    cells = rules.cells
    best = finished_best(misere, cells, status)
    scores = np.full((len(status), cells), OCCUPIED, dtype=np.int8)
    arrival = np.zeros(len(status), dtype=np.int8)  # the score of the move into each position
    for m in range(cells, -1, -1):
        start, stop = layer_starts[m], layer_starts[m + 1]
        rows = start + np.flatnonzero(status[start:stop] == UNFINISHED)
        if len(rows):
            scores[rows], best[rows] = score_moves(successors[rows], arrival)
        arrival[start:stop] = one_ply_back(best[start:stop])
        if progress is not None:
            progress("solve", cells + 1 - m, cells + 1)
    return best, scores


def score_moves(
    table: npt.NDArray[np.int32], arrival: npt.NDArray[np.int8]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """One step of the backward pass, for some unfinished positions: the score of every move
    (OCCUPIED where there is none) and each position's best, from their successors ``table``
    and ``arrival``, the score of the move into each row it names (``one_ply_back`` of that
    row's best)."""
    scores = np.where(table >= 0, arrival[table], np.int8(OCCUPIED))
    best: npt.NDArray[np.int8] = scores.max(axis=1)
    return scores, best


def finished_best(misere: bool, cells: int, status: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Each position's best score as if it were finished: ``-(N + 1)`` (``N + 1`` under misère)
    where a line was completed, else 0 (the backward pass sets the unfinished ones')."""
    over = cells + 1  # the game ended 0 plies ago
    line = (status == FIRST_LINE) | (status == SECOND_LINE)
    best: npt.NDArray[np.int8] = np.where(line, np.int8(over if misere else -over), np.int8(0))
    return best


def _paths(
    layer_starts: npt.NDArray[np.int64], status: npt.NDArray[np.int8], successors: npt.NDArray[np.int32]
) -> npt.NDArray[np.int64]:
    """Move sequences from the empty board reaching each class, layer by layer.

    If ``M(K)`` counts the sequences reaching any board of class ``K``, then
    ``M(K) = sum over classes Q of M(Q) * (moves of Q's canonical board landing in K)``: the
    boards of ``Q`` all have the same number of moves into ``K``, by symmetry.
    """
    paths = np.zeros(len(status), dtype=np.int64)
    paths[0] = 1
    for m in range(len(layer_starts) - 2):
        start, stop = layer_starts[m], layer_starts[m + 1]
        rows = start + np.flatnonzero(status[start:stop] == UNFINISHED)
        table = successors[rows]
        moves = table >= 0
        np.add.at(paths, table[moves], np.broadcast_to(paths[rows, None], table.shape)[moves])
    return paths


def _count(
    misere: bool, status: npt.NDArray[np.int8], orbit: npt.NDArray[np.int64], paths: npt.NDArray[np.int64]
) -> Counts:
    """Boards from the orbits, games from the paths into finished positions."""
    unfinished = status == UNFINISHED
    first_lines = int(paths[status == FIRST_LINE].sum())
    second_lines = int(paths[status == SECOND_LINE].sum())
    draws = int(paths[status == FULL].sum())
    games = (
        Outcomes(second_lines, first_lines, draws) if misere else Outcomes(first_lines, second_lines, draws)
    )
    return Counts(
        reachable=int(orbit.sum()),
        unfinished=int(orbit[unfinished].sum()),
        finished=int(orbit[~unfinished].sum()),
        canonical=len(status),
        canonical_unfinished=int(unfinished.sum()),
        canonical_finished=int((~unfinished).sum()),
        tree_nodes=int(paths.sum()),
        games=games,
    )
