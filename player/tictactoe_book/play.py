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

**The seeded choice** is one definition in every language (Python here, JavaScript ``Rng``, C
``ttt_random``/``ttt_choose``, Rust ``Rng``/``choose``, the engine's ``seed``), so one seed plays
one game everywhere (docs/porting.md, "5. Levels"):

* the generator is mulberry32 (Tommy Ettinger's, public domain): a 32-bit state, the seed itself
  (0 to 2**32 - 1); each number adds 0x6D2B79F5 to the state, modulo 2**32, and mixes the sum
  into the number returned (``Rng.next_u32``);
* a choice among ``count`` candidates (in increasing order) draws nothing when ``count`` is 1;
  else it draws numbers until one lies below ``2**32 - 2**32 % count`` and takes the candidate at
  that number modulo ``count`` (``Rng.pick``: each candidate exactly as likely).

A ``random.Random`` given as ``rng`` still chooses by its own ``choice``, as before 3.0.0 (those
games are Python's alone).

The reference opponents the levels are measured against are player/tictactoe_book/opponents.py's; every
rate of a match between two policies comes from one walker, player/tictactoe_book/rates.py.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Protocol, TypeVar

from tictactoe_book.errors import LevelError, echoed
from tictactoe_book.game import EMPTY, Cell, Policy, Position, decode_score

if TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence
    from typing import TypeAlias

T = TypeVar("T")


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

    def evaluate(self, board: str | Position, *, first: str | None = None) -> Answer: ...


LEVELS = ("perfect", "hard", "medium", "easy")
HORIZON = {"hard": 4, "medium": 2, "easy": 1}
#: The largest seed (``Rng``, ttt-play --seed, the engine's ``seed``): a seed is the generator's
#: 32-bit state, a whole number from 0 to 2**32 - 1.
MAX_SEED = 2**32 - 1
#: mulberry32's increment, added to the state (modulo 2**32) before each number.
WEYL = 0x6D2B79F5


# ---------------------------------------------------------------- the seeded choice


class Rng:
    """The random numbers the levels choose with: mulberry32, from ``seed`` (0 to ``MAX_SEED``;
    TypeError for a value that is not an int, ValueError for one out of range). ``state`` is
    the generator's state, itself a seed: a generator made from it goes on where this one is.
    The same seed gives the same numbers and the same games in Python, JavaScript (``Rng``),
    C (``ttt_random``), Rust (``Rng``) and the engine (the module's docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = check_seed(seed)

    def __repr__(self) -> str:
        return f"Rng({self.state})"

    def next_u32(self) -> int:
        """The next number, 0 to 2**32 - 1 (Tommy Ettinger's mulberry32, as published in
        JavaScript: ``Math.imul`` is a product modulo 2**32)."""
        self.state = z = (self.state + WEYL) & MAX_SEED
        z = ((z ^ (z >> 15)) * (z | 1)) & MAX_SEED
        z ^= (z + (z ^ (z >> 7)) * (z | 61)) & MAX_SEED
        return z ^ (z >> 14)

    def pick(self, count: int) -> int:
        """An index from 0 to ``count - 1``, each as likely: none is drawn for one (0); else a
        number is drawn again while it lies among the top ``2**32 % count`` (which ``count``
        does not divide evenly), and the index is the number modulo ``count``."""
        if type(count) is not int or not 1 <= count <= MAX_SEED + 1:
            raise ValueError(f"a choice is among 1 to 2**32 items, not {echoed(count)}")
        if count == 1:
            return 0
        limit = MAX_SEED + 1 - (MAX_SEED + 1) % count
        while True:
            number = self.next_u32()
            if number < limit:
                return number % count

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (``pick``): ``random.Random.choice``'s shape, so either chooses."""
        return options[self.pick(len(options))]


if TYPE_CHECKING:
    #: What chooses among a level's candidates: an ``Rng`` (the games of every language), or a
    #: ``random.Random`` (its own ``choice``: Python's games alone, as before 3.0.0).
    RandomSource: TypeAlias = Rng | random.Random


def check_seed(seed: object) -> int:
    """``seed`` if it is a whole number from 0 to ``MAX_SEED``; TypeError naming it if it is no
    int (a bool neither), ValueError naming it and the range if it is out of it."""
    if type(seed) is not int:
        raise TypeError(f"a seed is an int from 0 to {MAX_SEED}, got {echoed(seed)}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {echoed(seed)} is not a whole number from 0 to {MAX_SEED}")
    return seed


def random_seed() -> int:
    """A seed from the system's randomness, for a game nobody seeded."""
    return int.from_bytes(os.urandom(4), "big")


#: The generator of every choice made without one of its own.
_default_rng = Rng(random_seed())


# ---------------------------------------------------------------- levels


def check_level(level: str) -> str:
    """A known level name, else LevelError naming it."""
    if level not in LEVELS:
        raise LevelError(f"unknown level {echoed(level)}; choose one of {', '.join(LEVELS)}")
    return level


def candidates(evaluation: Answer, level: str) -> tuple[Cell, ...]:
    """The moves ``level`` chooses among, uniformly, in increasing order (``evaluation``: a
    book's answer, ``book.evaluate(board)``)."""
    if not isinstance(getattr(evaluation, "tiers", None), tuple):
        raise TypeError(
            f"candidates takes a book's answer (book.evaluate(board)), got {type(evaluation).__name__}"
        )
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
    first: str | None = None,
    rng: RandomSource | None = None,
) -> Cell:
    """The computer's move for the side to move on ``board`` (a ``Position``, or a board string
    of a game ``first`` began, X unless given) at ``level``: one of ``candidates``, drawn with
    ``rng`` (an ``Rng``: ``Rng(seed)`` plays the same game as every other language from that
    seed; a ``random.Random`` chooses by its own ``choice``; None, a generator of the system's
    seeding). Nothing is drawn when the level has one candidate. LevelError for an unknown
    level, TypeError for an ``rng`` that chooses nothing; for the board and ``first``,
    ``Book.evaluate``'s errors."""
    if rng is not None and not callable(getattr(rng, "choice", None)):
        raise TypeError(
            f"rng must be an Rng (tictactoe_book.Rng(seed)) or a random.Random, got {echoed(rng)}"
        )
    options = candidates(book.evaluate(board, first=first), level)
    if len(options) == 1:
        return options[0]
    return (_default_rng if rng is None else rng).choice(options)


def level_policy(book: Book, level: str, *, first: str | None = None) -> Policy:
    """The moves ``level`` picks among on a board of a game ``first`` began."""
    check_level(level)
    return lambda board: candidates(book.evaluate(board, first=first), level)
