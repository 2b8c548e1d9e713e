"""Scripted games for the tests: a line of play with random moves for the human."""

from __future__ import annotations

import random

from tictactoe_book.apps.session import Game


def random_human_moves(game: Game, rng: random.Random) -> list[int]:
    """Play ``game`` to its end, the computer moving for its side and the human on random free
    cells drawn from ``rng``; the human's moves, numbered as people type them (1 up)."""
    moves = []
    while not game.is_over:
        if game.computer_to_move:
            game.computer_move()
            continue
        cell = rng.choice(game.free_cells())
        moves.append(cell + 1)
        game.play(cell)
    return moves
