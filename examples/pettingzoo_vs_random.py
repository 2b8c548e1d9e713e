"""The book as a PettingZoo opponent: 1,000 games of tictactoe_v3 against a random agent, the
results beside the exact expected rates, counted by walking every line of play with the book.
The book is the one ranked against a random player (``against="random"``): at the perfect level
it wins 191/192 of its games moving first and 866/945 moving second, the most a player that
never loses can win against random.

    pip install 'tictactoe-book[pettingzoo]'
    python examples/pettingzoo_vs_random.py
"""

from __future__ import annotations

import functools
from fractions import Fraction

from pettingzoo.classic.tictactoe import (
    tictactoe as tictactoe_v3,
)  # tictactoe_v3 without its deprecation warning

import tictactoe_book
from tictactoe_book.integrations.pettingzoo import BookPolicy

GAMES = 1000
book = tictactoe_book.load_book(against="random")


@functools.cache
def chances(board: str, mark: str) -> tuple[Fraction, Fraction, Fraction]:
    """The exact chances (win, draw, loss) of ``mark`` from ``board``, when ``mark`` plays the
    book's best moves (the perfect level, uniformly among them) and the other side any free cell."""
    evaluation = book.evaluate(board)
    moves = evaluation.tiers[0] if evaluation.turn == mark else tuple(evaluation.scores)
    total = [Fraction(0)] * 3
    for cell in moves:
        after = tictactoe_book.Position(board).play(cell)
        if after.is_over:  # the move ends the game; the book's value of it says how, for the mover
            value, _ = evaluation.outcome(cell)
            result = value if evaluation.turn == mark else -value
            total[1 - result] += 1
        else:
            for i, chance in enumerate(chances(after.board, mark)):
                total[i] += chance
    win, draw, loss = (share / len(moves) for share in total)
    return win, draw, loss


rng = tictactoe_book.Rng(2024)  # the book's choices and the random agent's, from one seed
env = tictactoe_v3.env()
for book_agent, mark in (("player_1", "X"), ("player_2", "O")):
    policy = BookPolicy("perfect", book=book, rng=rng, against="random")
    tally = {"win": 0, "draw": 0, "loss": 0}
    for game in range(GAMES):
        env.reset(seed=game)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                if agent == book_agent:
                    tally["win" if reward > 0 else "loss" if reward < 0 else "draw"] += 1
                action = None
            elif agent == book_agent:
                action = policy(observation)
            else:  # the random agent: uniformly among the legal actions
                action = rng.choice([a for a, ok in enumerate(observation["action_mask"]) if ok])
            env.step(action)
    expected = dict(zip(("win", "draw", "loss"), chances("." * 9, mark), strict=True))
    print(f"book (perfect) as {mark} against random, {GAMES} games:")
    for name, exact in expected.items():
        print(f"  {name:<4} {tally[name]:>4}  expected {float(exact) * GAMES:7.1f}  ({exact})")
    assert tally["loss"] == 0 and expected["loss"] == 0
    assert expected["win"] == {"X": Fraction(191, 192), "O": Fraction(866, 945)}[mark]
env.close()
