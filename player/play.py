"""How the computer plays, who it is measured against, and the exact chances of any match.

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

**The reference opponents** (docs/book-format.md, "Trap order"): *random* plays uniformly over
the free cells; *novice* plays a move that wins at once if it has one, else one that blocks an
immediate win of the other side, else any free cell, uniformly among them (under misère, a free
cell that does not complete its own line if it has one, else any). ``novice_choice`` is the one
definition of its preference, over sets of cells; the build applies it to arrays of them.

Every rate of a match between two policies comes from one walker, player/rates.py.
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING

from player.errors import LevelError, echoed
from player.game import (
    EMPTY,
    FIRST,
    Cell,
    Rules,
    completing,
    decode_score,
    legal_moves,
    other,
    side_to_move,
)

if TYPE_CHECKING:
    from player.rates import Policy
    from player.reader import Book, Evaluation

LEVELS = ("perfect", "hard", "medium", "easy")
HORIZON = {"hard": 4, "medium": 2, "easy": 1}
OPPONENTS = ("novice", "random")
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


def candidates(evaluation: Evaluation, level: str) -> tuple[Cell, ...]:
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
    board: str,
    level: str = "perfect",
    *,
    first: str = FIRST,
    rng: _random.Random | None = None,
) -> Cell:
    """The computer's move for the side to move on ``board`` at ``level`` (``first`` moved
    first); ``rng`` makes the choice among equally good moves reproducible."""
    options = candidates(book.evaluate(board, first=first), level)
    if len(options) == 1:
        return options[0]
    return (rng or _default_rng).choice(options)


def level_policy(book: Book, level: str, *, first: str = FIRST) -> Policy:
    """The moves ``level`` picks among on a board of a game ``first`` began."""
    check_level(level)
    return lambda board: candidates(book.evaluate(board, first=first), level)


# ---------------------------------------------------------------- the reference opponents


def novice_choice(free: int, wins: int, blocks: int, misere: bool) -> int:
    """The cells the novice picks among, as a set of cells (bit ``c`` for cell ``c``): those
    that complete a line of its own (``wins``), else those that complete one of the other
    side's (``blocks``), else every free cell; under misère, the free cells that do not
    complete its own line, else every free cell."""
    if misere:
        return (free & ~wins) or free
    return wins or blocks or free


def novice_moves(rules: Rules, board: str, mark: str) -> list[Cell]:
    """The moves the novice chooses among (uniformly) when ``mark`` is to move on ``board``."""
    chosen = novice_choice(
        _bits(legal_moves(board)),
        _bits(completing(rules, board, mark)),
        _bits(completing(rules, board, other(mark))),
        rules.misere,
    )
    return [cell for cell in range(rules.cells) if chosen >> cell & 1]


def _bits(cells: list[Cell]) -> int:
    return sum(1 << cell for cell in cells)


def opponent_policy(rules: Rules, name: str, *, first: str = FIRST) -> Policy:
    """The reference opponent ``novice`` or ``random``, in a game ``first`` began."""
    if name == "random":
        return legal_moves
    if name == "novice":
        return lambda board: novice_moves(rules, board, side_to_move(board, first))
    raise ValueError(f"unknown opponent {echoed(name)}; choose one of {', '.join(OPPONENTS)}")
