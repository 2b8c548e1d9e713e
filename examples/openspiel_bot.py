"""The book as an OpenSpiel bot: 200 games of tic_tac_toe against OpenSpiel's uniform random bot
on each side, then 200 of its misère, all from books loaded once (every bot made shares one).

pip install 'tictactoe-book[openspiel]'
python examples/openspiel_bot.py
"""

from __future__ import annotations

import pyspiel

from tictactoe_book.integrations.openspiel import make_bot

GAMES = 200
for name in ("tic_tac_toe", "misere(game=tic_tac_toe())"):
    game = pyspiel.load_game(name)
    for seat in (0, 1):
        tally = {"win": 0, "draw": 0, "loss": 0}
        for i in range(GAMES):
            book_bot = make_bot("perfect", game=game, seed=i)  # the packaged book for the game's rules
            random_bot = pyspiel.make_uniform_random_bot(1 - seat, i)
            bots = [book_bot, random_bot] if seat == 0 else [random_bot, book_bot]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
            tally["win" if returns[seat] > 0 else "loss" if returns[seat] < 0 else "draw"] += 1
        print(f"{name}, book as {'x' if seat == 0 else 'o'}: {tally}")
        assert tally["loss"] == 0
