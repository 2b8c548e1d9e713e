"""Trap order: rank each position's optimal moves by how often they win against fallible players.

The two reference opponents (defined in issue 2 and docs/book-format.md):

* *random* plays uniformly over the legal moves;
* *novice* plays a move that wins at once if it has one (uniformly among them), else a move that
  blocks an immediate win of the other side (uniformly among them), else uniformly at random
  (``player.novice.novice_moves``: the hint shows the same chances at play time).

The book's side plays an optimal move from the top tier of this same order, uniformly among the
tier, at every later turn. Probabilities are exact ``Fraction``s computed by enumerating every
line of play; nothing is sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from generator.solve import Solution
from player.board import EMPTY, FIRST, SECOND
from player.novice import novice_moves as novice_moves  # re-exported for generator.trap's callers
from player.rules import Cell

Rates = tuple[Fraction, Fraction]  # (against novice, against random)
ZERO: Rates = (Fraction(0), Fraction(0))
ONE: Rates = (Fraction(1), Fraction(1))


@dataclass(frozen=True)
class TrapOrder:
    """Each unfinished board's optimal moves in tiers, best first, with the policy's win rates."""

    #: board -> tiers of optimal moves; moves in one tier have exactly equal rates
    tiers: dict[str, tuple[tuple[Cell, ...], ...]]
    #: board (book to move) -> the policy's chance of winning (novice, random) from here
    win_rates: dict[str, Rates]
    #: chance of winning as the first player, from the empty board
    first_player_rates: Rates
    #: chance of winning when the opponent moves first from the empty board
    second_player_rates: Rates


def trap_order(solution: Solution) -> TrapOrder:
    """Compute the tiers for every unfinished position of ``solution``."""
    rules = solution.rules
    move_scores = solution.move_scores
    finished = solution.finished
    tiers: dict[str, tuple[tuple[Cell, ...], ...]] = {}
    win_rates: dict[str, Rates] = {}
    reply_rates: dict[str, Rates] = {}

    def after(board: str, cell: Cell) -> str:
        mark = FIRST if board.count(FIRST) == board.count(SECOND) else SECOND
        return board[:cell] + mark + board[cell + 1 :]

    def book_to_move(board: str) -> Rates:
        """The policy's win chances when the book's side is to move on ``board``."""
        known = win_rates.get(board)
        if known is not None:
            return known
        scores = move_scores[board]
        best = max(scores.values())
        rated: dict[Cell, Rates] = {}
        for cell, score in scores.items():
            if score != best:
                continue
            child = after(board, cell)
            if child in finished:
                rated[cell] = ONE if finished[child] is not None else ZERO
            else:
                rated[cell] = opponent_to_move(child)
        ranks = sorted(set(rated.values()), reverse=True)
        tiers[board] = tuple(tuple(sorted(c for c, r in rated.items() if r == rank)) for rank in ranks)
        win_rates[board] = ranks[0]
        return ranks[0]

    def opponent_to_move(board: str) -> Rates:
        """Win chances of the book's side when its opponent is to move on ``board``."""
        known = reply_rates.get(board)
        if known is not None:
            return known
        mark = FIRST if board.count(FIRST) == board.count(SECOND) else SECOND
        free = list(move_scores[board])
        novice = novice_moves(rules, board, mark)
        outcome = {c: _book_result(after(board, c)) for c in free}
        novice_rate = sum((outcome[c][0] for c in novice), Fraction(0)) / len(novice)
        random_rate = sum((outcome[c][1] for c in free), Fraction(0)) / len(free)
        reply_rates[board] = (novice_rate, random_rate)
        return reply_rates[board]

    def _book_result(board: str) -> Rates:
        if board in finished:
            return ZERO  # the opponent just moved: it won or drew; the book did not win
        return book_to_move(board)

    empty = EMPTY * rules.cells
    first = book_to_move(empty)
    second = opponent_to_move(empty)
    for board in move_scores:  # positions the policy never reaches from the start get tiers too
        book_to_move(board)
    return TrapOrder(tiers, win_rates, first, second)
