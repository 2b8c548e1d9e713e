"""The book as an OpenSpiel bot: 200 games against OpenSpiel's uniform random bot, each side.

pip install 'tictactoe-book[openspiel]'
python examples/openspiel_bot.py
"""

from __future__ import annotations

import pyspiel

from player import load_book
from player.integrations.openspiel import make_bot

GAMES = 200
game = pyspiel.load_game("tic_tac_toe")
book = load_book()
for seat in (0, 1):
    tally = {"win": 0, "draw": 0, "loss": 0}
    for i in range(GAMES):
        book_bot = make_bot("perfect", book=book, seed=i)
        random_bot = pyspiel.make_uniform_random_bot(1 - seat, i)
        bots = [book_bot, random_bot] if seat == 0 else [random_bot, book_bot]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
        tally["win" if returns[seat] > 0 else "loss" if returns[seat] < 0 else "draw"] += 1
    print(f"book as {'x' if seat == 0 else 'o'}: {tally}")
    assert tally["loss"] == 0
