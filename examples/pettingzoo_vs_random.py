"""The book as a PettingZoo opponent: 1,000 games of tictactoe_v3 against a random agent,
the results beside the exact expected rates (by enumerating every line of play). The book is
the one ranked against a random player (``against="random"``): at the perfect level it wins
191/192 of its games moving first and 866/945 moving second, the most a player that never
loses can win against random.

    pip install 'tictactoe-book[pettingzoo]'
    python examples/pettingzoo_vs_random.py [LEVEL]
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction

from pettingzoo.classic.tictactoe import (
    tictactoe as tictactoe_v3,
)  # tictactoe_v3 without its deprecation warning

from player import load_book
from player.game import other
from player.integrations.pettingzoo import BookPolicy
from player.opponents import RANDOM
from player.play import level_policy
from player.rates import PlayOut

GAMES = 1000
level = sys.argv[1] if len(sys.argv) > 1 else "perfect"
book = load_book(against="random")
rng = random.Random(2024)
env = tictactoe_v3.env()
for book_agent, mark in (("player_1", "X"), ("player_2", "O")):
    policy = BookPolicy(level, book=book, rng=rng, against="random")
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
    players = {mark: level_policy(book, level), other(mark): RANDOM.policy(book.rules)}
    expected = PlayOut(book.rules, players).results("." * 9, mark)
    print(f"book ({level}) as {mark} against random, {GAMES} games:")
    for name in ("win", "draw", "loss"):
        exact = getattr(expected, name)
        print(f"  {name:<4} {tally[name]:>4}  expected {float(exact) * GAMES:7.1f}  ({exact})")
    if level == "perfect":
        assert tally["loss"] == 0 and expected.loss == Fraction(0)
        assert expected.win == {"X": Fraction(191, 192), "O": Fraction(866, 945)}[mark]
env.close()
