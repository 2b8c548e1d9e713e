"""The reference opponents, and how often the book's own player beats them from a position.

The two opponents of the trap order (docs/book-format.md, "Trap order"):

* *random* plays uniformly over the legal moves;
* *novice* plays a move that wins at once if it has one (uniformly among them), else a move that
  blocks an immediate win of the other side (uniformly among them), else uniformly at random.

The book's player plays a move of the top trap tier, uniformly among the tier. The build ranks the
optimal moves by these chances (``generator.trap``, which takes ``novice_moves`` from here: one
definition of the novice); the hint shows them, so a player sees *why* the book prefers a move.
The chances are exact fractions from enumerating every line of play; nothing is sampled.
"""

from __future__ import annotations

import weakref
from fractions import Fraction
from typing import NamedTuple

from player.board import EMPTY, FIRST, SECOND, legal_moves, other, winner
from player.book import Book
from player.rules import Cell, Line, Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

ZERO = Fraction(0)
ONE = Fraction(1)


class TooManyLines(RuntimeError):
    """Counting the chances would walk more new positions than the budget allows."""


class Chances(NamedTuple):
    """The chance of going on to win, against each reference opponent."""

    novice: Fraction
    random: Fraction


def novice_moves(rules: Rules, board: str, mark: str) -> list[Cell]:
    """The moves the novice chooses among (uniformly) when ``mark`` is to move on ``board``.

    Under misère rules: the free cells that do not complete a line of its own, if there are
    any, else every free cell (docs/book-format.md, "Trap order")."""
    free = [c for c, m in enumerate(board) if m == EMPTY]
    through = rules.lines_through  # (a derived table: read once, not once per cell)
    if rules.misere:
        safe = [c for c in free if not _completes(through[c], board, c, mark)]
        return safe or free
    foe = SECOND if mark == FIRST else FIRST
    wins = [c for c in free if _completes(through[c], board, c, mark)]
    if wins:
        return wins
    blocks = [c for c in free if _completes(through[c], board, c, foe)]
    return blocks or free


def _completes(lines: tuple[Line, ...], board: str, cell: Cell, mark: str) -> bool:
    """Would ``mark`` on ``cell`` complete one of ``lines`` (the lines through ``cell``)?"""
    return any(all(board[c] == mark or c == cell for c in line) for line in lines)


def win_chances(
    book: Book, board: str, *, first: str = FIRST, budget: int | None = None
) -> dict[Cell, Chances]:
    """For each legal move of the side to move on ``board`` (``first`` moved first), its chance
    of winning if it plays that move and the book's own moves after it, against each opponent.

    Raises BoardError (from the book) for a board that is malformed or finished, and
    TooManyLines when the enumeration would walk more than ``budget`` positions not walked
    before (None: no limit). Positions already walked for ``book`` are remembered, so a game's
    later hints cost little, and a walk cut short keeps what it finished.
    """
    me = book.evaluate(board, first=first).turn
    memo = _MEMOS.setdefault(book, {})
    walks = {
        name: _Walk(book, first, me, replies, memo.setdefault((first, me, name), {}), budget)
        for name, replies in (("novice", _novice_replies), ("random", _random_replies))
    }
    return {
        cell: Chances(walks["novice"].after_mine(board, cell), walks["random"].after_mine(board, cell))
        for cell in legal_moves(board)
    }


def _novice_replies(rules: Rules, position: str, mark: str) -> list[Cell]:
    return novice_moves(rules, position, mark)


def _random_replies(rules: Rules, position: str, mark: str) -> list[Cell]:
    return legal_moves(position)


#: Per book: (first, the book player's mark, opponent) -> position -> chance.
_MEMOS: weakref.WeakKeyDictionary[Book, dict[tuple[str, str, str], dict[str, Fraction]]] = (
    weakref.WeakKeyDictionary()
)


class _Walk:
    """The enumeration against one opponent: ``me`` plays the book's top tier uniformly, the
    opponent uniformly among ``replies``; ``memo`` maps a position, with either side to move
    (its marks say which), to ``me``'s chance of winning from it."""

    def __init__(
        self,
        book: Book,
        first: str,
        me: str,
        replies: Callable[[Rules, str, str], list[Cell]],
        memo: dict[str, Fraction],
        budget: int | None = None,
    ) -> None:
        self.book, self.first, self.me, self.foe = book, first, me, other(me)
        self.rules = book.rules
        self.replies = replies
        self.memo = memo
        #: the memo's size past which this walk gives up (TooManyLines)
        self.limit = None if budget is None else len(memo) + budget

    def _remember(self, position: str, chance: Fraction) -> Fraction:
        self.memo[position] = chance
        if self.limit is not None and len(self.memo) > self.limit:
            raise TooManyLines(f"more than {self.limit} positions to walk")
        return chance

    def after_mine(self, position: str, cell: Cell) -> Fraction:
        """The chance once ``me`` has played ``cell`` on ``position``."""
        board = position[:cell] + self.me + position[cell + 1 :]
        known = self.memo.get(board)
        if known is not None:
            return known
        misere = self.rules.misere
        if winner(self.rules, board) is not None:
            known = ZERO if misere else ONE  # only ``me`` can have just completed a line
        elif EMPTY not in board:
            known = ZERO
        else:
            options = self.replies(self.rules, board, self.foe)
            total = ZERO
            for reply in options:
                after = board[:reply] + self.foe + board[reply + 1 :]
                if winner(self.rules, after) is not None:
                    total += ONE if misere else ZERO  # the opponent completed a line
                elif EMPTY in after:
                    total += self.mine(after)
            known = total / len(options)
        return self._remember(board, known)

    def mine(self, position: str) -> Fraction:
        """``me`` to move on an unfinished ``position``."""
        known = self.memo.get(position)
        if known is None:
            tier = self.book.evaluate(position, first=self.first).tiers[0]
            known = sum((self.after_mine(position, cell) for cell in tier), ZERO) / len(tier)
            self._remember(position, known)
        return known
