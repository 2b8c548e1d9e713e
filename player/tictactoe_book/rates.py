"""Exact play-outs: every game between two players from a position, each picking uniformly among
its options, and the exact chance of each result. Every rate the project states comes from
``PlayOut``: the levels table, the audit's rates, the hint's chances; nothing is sampled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from tictactoe_book.errors import TooManyLines
from tictactoe_book.game import EMPTY, FIRST, Cell, Policy, Rules, outcome, put, side_to_move


class Results(NamedTuple):
    """The exact chances of a game's results, from one player's side (a distribution over the
    three results: a tuple by nature)."""

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
        self._limit: int | None = None

    def results(self, board: str, mark: str, *, limit: int | None = None) -> Results:
        """``mark``'s chances from ``board``. TooManyLines if the positions remembered would
        grow past ``limit`` (a walk cut short keeps what it finished)."""
        self._limit = limit
        x, draw, o = self._walk(board)
        whole = self.scale ** board.count(EMPTY)
        win, loss = (x, o) if mark == FIRST else (o, x)
        return Results(Fraction(win, whole), Fraction(draw, whole), Fraction(loss, whole))

    def _walk(self, board: str) -> tuple[int, int, int]:
        known = self.memo.get(board)
        if known is not None:
            return known
        empties = board.count(EMPTY)
        whole = self.scale**empties
        ended = outcome(self.rules, board)
        if ended is not None:
            won = ended.winner
            known = (0, whole, 0) if won is None else (whole, 0, 0) if won == FIRST else (0, 0, whole)
        else:
            turn = side_to_move(board, self.first)
            options = self.players[turn](board)
            share = self.scale // len(options)
            forfeit = self.scale ** (empties - 1)
            x = draw = o = 0
            for cell in options:
                if cell is None:  # the mover forfeits: the other side wins
                    child = (0, 0, forfeit) if turn == FIRST else (forfeit, 0, 0)
                else:
                    child = self._walk(put(board, cell, turn))
                x, draw, o = x + child[0], draw + child[1], o + child[2]
            known = (x * share, draw * share, o * share)
        self.memo[board] = known
        if self._limit is not None and len(self.memo) > self._limit:
            raise TooManyLines(f"more than {self._limit} positions to walk")
        return known


class BestResponse:
    """The player of ``mark`` that wins most often against ``opponent`` while playing only moves
    from ``options`` (for a player that never loses: the book's optimal moves), in a game
    ``first`` began: on each of its turns it takes a move whose games ``opponent`` loses most
    often, ``opponent`` picking uniformly among its options (None: a forfeit, which it loses).

    Exact in integers, as ``PlayOut``. ``win(board)`` is the chance from ``board``;
    ``choices[board]`` the moves that reach it, on every board of ``mark``'s walked.
    """

    def __init__(
        self,
        rules: Rules,
        options: Callable[[str], Sequence[Cell]],
        opponent: Policy,
        mark: str,
        *,
        first: str = FIRST,
        most: int | None = None,
    ) -> None:
        self.rules = rules
        self.options = options
        self.opponent = opponent
        self.mark = mark
        self.first = first
        self.scale = math.lcm(*range(1, max(most or 0, rules.cells) + 1))
        #: per board of ``mark`` walked: the moves whose chance of a win is the highest
        self.choices: dict[str, tuple[Cell, ...]] = {}
        self._wins: dict[str, int] = {}  # per board walked: the chance of a win, times scale ** empties

    def win(self, board: str) -> Fraction:
        """The chance that ``mark`` wins from ``board`` with the best of its options."""
        return Fraction(self._walk(board), self.scale ** board.count(EMPTY))

    def _walk(self, board: str) -> int:
        known = self._wins.get(board)
        if known is not None:
            return known
        empties = board.count(EMPTY)
        ended = outcome(self.rules, board)
        if ended is not None:
            known = self.scale**empties if ended.winner == self.mark else 0
        else:
            turn = side_to_move(board, self.first)
            if turn == self.mark:
                chances = {cell: self._walk(put(board, cell, turn)) for cell in self.options(board)}
                known = max(chances.values())
                self.choices[board] = tuple(cell for cell, chance in chances.items() if chance == known)
                known *= self.scale
            else:
                options = self.opponent(board)
                forfeit = self.scale ** (empties - 1)
                total = sum(
                    forfeit if cell is None else self._walk(put(board, cell, turn)) for cell in options
                )
                known = total * (self.scale // len(options))
        self._wins[board] = known
        return known
