"""The tests' oracles: each works a question out from the rules or docs/book-format.md alone,
sharing nothing with ``player`` or ``generator`` (tests/test_layering.py checks that they import
neither), so a test that compares the product with one is not the product's opinion of itself.

* ``oracle``: plain minimax for 3x3, its winning lines typed in (the textbook way);
* ``negamax``: a solver for any m,n,k-game, normal or misère, that never lists lines (it walks
  the four directions from the last move): a second solver written differently, for every
  board the generator supports;
* ``trap_oracle``: the trap order, every line of play, exactly (docs/book-format.md);
* ``enumerate_games``: exact match-up rates of two policies by enumerating every game;
* ``best_response``: the never-losing player that beats a given opponent most often;
* ``book_oracle``: the validity of a book file, step by step as docs/book-format.md writes it.
"""
