"""Runtime for reading the tic-tac-toe book: rules, notation, symmetry, loading and playing.

Nothing here searches the game tree: every answer is a look-up in the book.
"""

__version__ = "1.0.0"
