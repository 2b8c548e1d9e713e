"""How the computer picks a move at each level, from the book's data alone (no search).

* ``perfect``: an optimal move from the top tier of the trap order, uniformly among its ties.
  Never loses; wins as often against fallible players as the trap order allows.
* ``hard``: looks 4 plies ahead in the book's scores: takes the fastest win it can see within
  4 plies (an immediate win, or a fork), avoids any move the book says loses within 4 plies,
  and otherwise plays uniformly at random. It misses deeper wins and deeper traps.
  When every move loses within its horizon, a level plays one that loses as late as possible.
* ``medium``: looks 2 plies ahead: wins at once when it can, blocks when the other side threatens
  to win next (avoids moves that lose in 2 plies), otherwise random, much like the novice.
* ``easy``: looks 1 ply ahead: wins at once when it can, otherwise plays at random (it does not
  block).

Each level is a uniform choice among ``candidates(...)``, so its exact win rates can be computed
by enumeration (``ttt-book levels``).
"""

from __future__ import annotations

import random as _random

from player.board import EMPTY, FIRST
from player.book import Book, Evaluation
from player.rules import Cell
from player.score import decode_score

LEVELS = ("perfect", "hard", "medium", "easy")
HORIZON = {"hard": 4, "medium": 2, "easy": 1}

_default_rng = _random.Random()


class LevelError(ValueError):
    """A level name this player does not know."""


def check_level(level: str) -> str:
    """A known level name, else LevelError naming it."""
    if level not in LEVELS:
        raise LevelError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return level


def candidates(evaluation: Evaluation, level: str) -> tuple[Cell, ...]:
    """The moves ``level`` chooses among, uniformly, in increasing order."""
    if level == "perfect":
        return evaluation.tiers[0]
    horizon = HORIZON[check_level(level)]
    empties = evaluation.board.count(EMPTY)
    seen = {cell: decode_score(score, empties, evaluation.cells) for cell, score in evaluation.scores.items()}
    wins = [c for c, (value, plies) in seen.items() if value > 0 and plies <= horizon]
    if wins:
        fastest = min(seen[c][1] for c in wins)
        return tuple(sorted(c for c in wins if seen[c][1] == fastest))
    safe = [c for c, (value, plies) in seen.items() if not (value < 0 and plies <= horizon)]
    if safe:
        return tuple(sorted(safe))
    slowest = max(evaluation.scores.values())  # every move loses in sight: put it off longest
    return tuple(sorted(c for c, score in evaluation.scores.items() if score == slowest))


def choose_move(
    book: Book,
    board: str,
    level: str = "perfect",
    *,
    first: str = FIRST,
    rng: _random.Random | None = None,
) -> Cell:
    """The computer's move for the side to move on ``board`` at ``level``.

    ``rng`` makes the choice among equally good moves reproducible.
    """
    evaluation = book.evaluate(board, first=first)
    options = evaluation.tiers[0] if level == "perfect" else candidates(evaluation, level)
    if len(options) == 1:
        return options[0]
    return (rng or _default_rng).choice(options)
