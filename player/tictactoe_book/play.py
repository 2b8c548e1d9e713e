"""How the computer plays: its levels, each chosen from the book alone.

**Levels**, each a uniform choice among ``candidates(evaluation, level)``, from the book's data
alone (no search):

* ``perfect``: an optimal move from the top tier of the trap order. Never loses; wins as often
  against fallible players as the trap order allows.
* ``hard``: looks 4 plies ahead in the book's scores: takes the fastest win it can see within
  4 plies (an immediate win, or a fork), avoids any move the book says loses within 4 plies,
  and otherwise plays at random.
* ``medium``: looks 2 plies ahead: wins at once when it can, blocks when the other side threatens
  to win next (avoids moves that lose in 2 plies), otherwise random, much like the novice.
* ``easy``: looks 1 ply ahead: wins at once when it can, otherwise plays at random.

When every move loses within its horizon, a level plays one that loses as late as possible.

The reference opponents the levels are measured against are player/tictactoe_book/opponents.py's; every
rate of a match between two policies comes from one walker, player/tictactoe_book/rates.py.
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING, Protocol

from tictactoe_book.errors import LevelError, echoed
from tictactoe_book.game import EMPTY, FIRST, Cell, Policy, Position, decode_score

if TYPE_CHECKING:
    from collections.abc import Mapping


class Answer(Protocol):
    """What a level reads of a book's answer for a board (``tictactoe_book.book.Evaluation``)."""

    @property
    def board(self) -> str: ...
    @property
    def scores(self) -> Mapping[Cell, int]: ...
    @property
    def tiers(self) -> tuple[tuple[Cell, ...], ...]: ...


class Book(Protocol):
    """What a level asks of a book (``tictactoe_book.book.Book``): its answer for a board."""

    def evaluate(self, board: str | Position, *, first: str = FIRST) -> Answer: ...


LEVELS = ("perfect", "hard", "medium", "easy")
HORIZON = {"hard": 4, "medium": 2, "easy": 1}
#: The largest seed people may give for the choices' random numbers (ttt-play --seed, the
#: engine's ``seed``): seeds are whole numbers from 0 to 2**64 - 1.
MAX_SEED = 2**64 - 1


_default_rng = _random.Random()


# ---------------------------------------------------------------- levels


def check_level(level: str) -> str:
    """A known level name, else LevelError naming it."""
    if level not in LEVELS:
        raise LevelError(f"unknown level {echoed(level)}; choose one of {', '.join(LEVELS)}")
    return level


def candidates(evaluation: Answer, level: str) -> tuple[Cell, ...]:
    """The moves ``level`` chooses among, uniformly, in increasing order."""
    if level == "perfect":
        return evaluation.tiers[0]
    horizon = HORIZON[check_level(level)]
    empties, cells = evaluation.board.count(EMPTY), len(evaluation.board)
    seen = {cell: decode_score(score, empties, cells) for cell, score in evaluation.scores.items()}
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
    board: str | Position,
    level: str = "perfect",
    *,
    first: str = FIRST,
    rng: _random.Random | None = None,
) -> Cell:
    """The computer's move for the side to move on ``board`` (a ``Position``, or a board string
    of a game ``first`` began) at ``level``; ``rng`` makes the choice among equally good moves
    reproducible."""
    options = candidates(book.evaluate(board, first=first), level)
    if len(options) == 1:
        return options[0]
    return (rng or _default_rng).choice(options)


def level_policy(book: Book, level: str, *, first: str = FIRST) -> Policy:
    """The moves ``level`` picks among on a board of a game ``first`` began."""
    check_level(level)
    return lambda board: candidates(book.evaluate(board, first=first), level)
