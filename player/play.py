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

**Play-outs**: ``PlayOut`` walks every game between two players from a position, each picking
uniformly among its options, and gives the exact chance of each result. Every rate the project
states comes from it: the levels table, the audit's rates, the hint's chances; nothing is
sampled.
"""

from __future__ import annotations

import math
import random as _random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from player.errors import LevelError, TooManyLines
from player.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Rules,
    completing,
    decode_score,
    legal_moves,
    line_owners,
    other,
)

if TYPE_CHECKING:
    from player.reader import Book, Evaluation

LEVELS = ("perfect", "hard", "medium", "easy")
HORIZON = {"hard": 4, "medium": 2, "easy": 1}
OPPONENTS = ("novice", "random")

#: The moves a player picks among, uniformly, on a board (as the game holds it); None stands
#: for an answer that forfeits the game (an audited program's illegal or missing answer).
Policy = Callable[[str], Sequence["Cell | None"]]

_default_rng = _random.Random()


# ---------------------------------------------------------------- levels


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
        return lambda board: novice_moves(rules, board, _mover(board, first))
    raise ValueError(f"unknown opponent {name!r}; choose one of {', '.join(OPPONENTS)}")


def _mover(board: str, first: str) -> str:
    return first if board.count(FIRST) == board.count(SECOND) else other(first)


# ---------------------------------------------------------------- play-outs


@dataclass(frozen=True, slots=True)
class Outcome:
    """The exact chances of a game's results, from one player's side."""

    win: Fraction
    draw: Fraction
    loss: Fraction


class PlayOut:
    """Every game from a position between the players of ``players`` (a policy per mark), each
    picking uniformly among its options, in a game ``first`` began: the exact chance of each
    result. Positions walked are remembered for the next question.

    Exact in integers: a board with ``e`` empty cells keeps its results' chances times
    ``scale ** e``, ``scale`` being divisible by every count of options (1 to ``most``), so each
    average over a board's options is an integer too; one division at the end.
    """

    def __init__(
        self, rules: Rules, players: Mapping[str, Policy], *, first: str = FIRST, most: int | None = None
    ) -> None:
        self.rules = rules
        self.players = dict(players)
        self.first = first
        self.scale = math.lcm(*range(1, max(most or 0, rules.cells) + 1))
        #: per board walked: the chances that X wins, that the game is drawn, that O wins
        self.memo: dict[str, tuple[int, int, int]] = {}
        self._owners = line_owners(rules)
        self._limit: int | None = None

    def outcome(self, board: str, mark: str, *, limit: int | None = None) -> Outcome:
        """``mark``'s chances from ``board``. TooManyLines if the positions remembered would
        grow past ``limit`` (a walk cut short keeps what it finished)."""
        self._limit = limit
        x, draw, o = self._walk(board)
        whole = self.scale ** board.count(EMPTY)
        win, loss = (x, o) if mark == FIRST else (o, x)
        return Outcome(Fraction(win, whole), Fraction(draw, whole), Fraction(loss, whole))

    def _walk(self, board: str) -> tuple[int, int, int]:
        known = self.memo.get(board)
        if known is not None:
            return known
        empties = board.count(EMPTY)
        whole = self.scale**empties
        owner = self._owners(board)
        if owner:
            won = other(owner) if self.rules.misere else owner
            known = (whole, 0, 0) if won == FIRST else (0, 0, whole)
        elif not empties:
            known = (0, whole, 0)
        else:
            mover = _mover(board, self.first)
            options = self.players[mover](board)
            share = self.scale // len(options)
            forfeit = self.scale ** (empties - 1)
            x = draw = o = 0
            for cell in options:
                if cell is None:  # the mover forfeits: the other side wins
                    child = (0, 0, forfeit) if mover == FIRST else (forfeit, 0, 0)
                else:
                    child = self._walk(board[:cell] + mover + board[cell + 1 :])
                x, draw, o = x + child[0], draw + child[1], o + child[2]
            known = (x * share, draw * share, o * share)
        self.memo[board] = known
        if self._limit is not None and len(self.memo) > self._limit:
            raise TooManyLines(f"more than {self._limit} positions to walk")
        return known


@dataclass(frozen=True, slots=True, order=True)
class Chances:
    """The chance of going on to win, against each reference opponent (ordered by the novice's,
    then the random opponent's, as the trap order ranks them)."""

    novice: Fraction
    random: Fraction


def win_chances(
    book: Book,
    board: str,
    *,
    first: str = FIRST,
    budget: int | None = None,
    walks: dict[tuple[str, str], PlayOut] | None = None,
) -> dict[Cell, Chances]:
    """For each legal move of the side to move on ``board`` (``first`` moved first), its chance
    of winning if it plays that move and the book's top tier after it, against each opponent.

    Raises BoardError (from the book) for a board that is malformed or finished, and
    TooManyLines when a walk would visit more than ``budget`` positions not walked before.
    ``walks`` keeps the play-outs between calls (a game's later hints then cost little): pass
    the same dict for the same book and game.
    """
    me = book.evaluate(board, first=first).turn
    walks = {} if walks is None else walks
    limits = {}
    for name in OPPONENTS:
        walk = walks.get((name, me))
        if walk is None:
            top = level_policy(book, "perfect", first=first)
            foe = opponent_policy(book.rules, name, first=first)
            walk = walks[(name, me)] = PlayOut(book.rules, {me: top, other(me): foe}, first=first)
        limits[name] = None if budget is None else len(walk.memo) + budget

    def chance(name: str, cell: Cell) -> Fraction:
        after = board[:cell] + me + board[cell + 1 :]
        return walks[(name, me)].outcome(after, me, limit=limits[name]).win

    return {cell: Chances(chance("novice", cell), chance("random", cell)) for cell in legal_moves(board)}
