"""The never-losing player that beats a given 3x3 opponent most often, worked out apart from
player/tictactoe_book/rates.py: tests/oracles/oracle.py's minimax says which moves are optimal, Fractions
carry the chances. An opponent maps a board (X moved first) to the cells it picks uniformly among; None
among them is a forfeit (a program's failure, as the audit counts it): the game is won there."""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction

from .oracle import line_owner, move_results, rank, to_move

Opponent = Callable[[str], tuple[int | None, ...]]


@functools.cache
def solved(board: str) -> tuple[int, int]:
    """tests/oracles/oracle.py's minimax, each position solved once."""
    return max(move_results(board, solved).values(), key=rank)


def optimal(board: str) -> list[int]:
    """Every move of the side to move that is best with best play (a fastest win, a draw kept,
    a slowest loss)."""
    results = move_results(board, solved)
    best = max(map(rank, results.values()))
    return [cell for cell, result in results.items() if rank(result) == best]


def best_response(opponent: Opponent, mark: str) -> Fraction:
    """The chance that ``mark``, playing only optimal moves and of them the best against
    ``opponent``, wins from the empty board."""

    @functools.cache
    def chance(board: str) -> Fraction:
        won = line_owner(board)
        if won is not None:
            return Fraction(int(won == mark))
        if "." not in board:
            return Fraction(0)
        mover = to_move(board)
        play = lambda cell: chance(board[:cell] + mover + board[cell + 1 :])  # noqa: E731
        if mover == mark:
            return max(play(cell) for cell in optimal(board))
        options = opponent(board)
        won = Fraction(1)  # the opponent forfeits
        return sum((won if cell is None else play(cell) for cell in options), Fraction(0)) / len(options)

    return chance("." * 9)
