"""Adapters for agent-training libraries (optional extras; the player never imports these).

* ``player.integrations.openspiel``: a bot for ``pyspiel.load_game("tic_tac_toe")``
  (``pip install 'tictactoe-book[openspiel]'``);
* ``player.integrations.pettingzoo``: an opponent policy for PettingZoo's ``tictactoe_v3``
  (``pip install 'tictactoe-book[pettingzoo]'``).
"""
