"""A game in play: the board as the game holds it, whose turn, undo, hints, the computer's move;
and the tally of a session's games.

Cells here are the book's (0 to ``cells - 1``); the apps show them to people from 1. Marks are
the game's own: when O moves first, the book is asked with ``first="O"`` and swaps them itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from player.errors import IllegalMoveError, echoed
from player.game import EMPTY, FIRST, SECOND, Cell, legal_moves, other, winner
from player.play import check_level, choose_move

if TYPE_CHECKING:
    import random

    from player.rates import PlayOut
    from player.reader import Book


def check_mark(mark: str, what: str = "mark") -> str:
    """``X`` or ``O`` (any case), else ValueError naming the value."""
    if type(mark) is not str or mark.upper() not in (FIRST, SECOND):
        raise ValueError(f"{what} must be X or O, got {echoed(mark)}")
    return mark.upper()


class Game:
    """One game: moves so far, and the levels the computer plays each mark at.

    ``levels`` maps each mark the computer plays to its level; the other mark (if any) is the
    human's. The session mutates; every board it holds is an immutable string.
    """

    def __init__(
        self,
        book: Book,
        *,
        first: str = FIRST,
        levels: dict[str, str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.book = book
        self.first = check_mark(first, "first")
        self.levels = {check_mark(m): check_level(lv) for m, lv in (levels or {}).items()}
        self.rng = rng
        self.board = EMPTY * book.rules.cells
        self.moves: list[tuple[str, Cell]] = []
        #: the hint's play-outs, kept for the game's later hints (player.play.win_chances)
        self.walks: dict[tuple[str, str], PlayOut] = {}

    @property
    def turn(self) -> str:
        """The mark to move."""
        return self.first if len(self.moves) % 2 == 0 else other(self.first)

    @property
    def line_owner(self) -> str | None:
        """The mark that has completed a line, if any (under misère rules, the loser)."""
        return winner(self.book.rules, self.board)

    @property
    def winner(self) -> str | None:
        """The mark that has won, if any: the one that completed a line, or under misère rules
        the other one."""
        owner = winner(self.book.rules, self.board)
        if owner is not None and self.book.rules.misere:
            return other(owner)
        return owner

    @property
    def is_over(self) -> bool:
        """Someone has completed a line, or the board is full."""
        return EMPTY not in self.board or winner(self.book.rules, self.board) is not None

    @property
    def computer_to_move(self) -> bool:
        """True when the mark to move is played by the computer."""
        return not self.is_over and self.turn in self.levels

    def free_cells(self) -> list[Cell]:
        """Cells still free (none once the game is over)."""
        return [] if self.is_over else legal_moves(self.board)

    def play(self, cell: Cell) -> None:
        """Put the side to move's mark on ``cell``; raises IllegalMoveError and changes nothing
        if the cell is off the board or taken, or the game is over."""
        if self.is_over:
            raise IllegalMoveError(f"the game is over; cell {echoed(cell)} cannot be played")
        if type(cell) is not int or not 0 <= cell < len(self.board):
            raise IllegalMoveError(f"cell {echoed(cell)} is off the board")
        if self.board[cell] != EMPTY:
            raise IllegalMoveError(f"cell {cell + 1} is taken by {self.board[cell]}")
        mark = self.turn
        self.board = self.board[:cell] + mark + self.board[cell + 1 :]
        self.moves.append((mark, cell))

    def computer_move(self) -> Cell:
        """Choose (from the book) and play the computer's move; returns the cell."""
        level = self.levels[self.turn]
        cell = choose_move(self.book, self.board, level, first=self.first, rng=self.rng)
        self.play(cell)
        return cell

    def undo(self) -> list[tuple[str, Cell]]:
        """Take back the human's last move and every computer move after it; returns them.

        Nothing is undone (empty list) when the human has not moved yet.
        """
        humans = [i for i, (mark, _) in enumerate(self.moves) if mark not in self.levels]
        if not humans:
            return []
        undone = self.moves[humans[-1] :]
        del self.moves[humans[-1] :]
        board = EMPTY * self.book.rules.cells
        for mark, cell in self.moves:
            board = board[:cell] + mark + board[cell + 1 :]
        self.board = board
        return undone

    def result(self) -> str:
        """``X wins``, ``O wins``, ``draw``, or ``unfinished``."""
        if not self.is_over:
            return "unfinished"
        won = self.winner
        return f"{won} wins" if won else "draw"


class Tally:
    """Wins, draws and losses of the human across the games of one session."""

    def __init__(self) -> None:
        self.wins = 0
        self.draws = 0
        self.losses = 0

    def add(self, outcome: str) -> None:
        if outcome == "win":
            self.wins += 1
        elif outcome == "draw":
            self.draws += 1
        elif outcome == "loss":
            self.losses += 1

    def __str__(self) -> str:
        return f"you {self.wins} won, {self.draws} drawn, {self.losses} lost"


def outcome_for(game: Game, human: str) -> str:
    """``win``, ``draw``, ``loss`` from the human's side, or ``unfinished``."""
    if not game.is_over:
        return "unfinished"
    won = game.winner
    return "draw" if won is None else "win" if won == human else "loss"


def ending(game: Game, human: str) -> str:
    """How a finished game ended, for the person playing ``human``, said once: ``you win!``,
    ``the computer wins.``, ``draw.``; under misère rules who completed the line, which decides
    it (``you completed a line, so you lose (misère).``). Lower case: the caller begins it."""
    outcome = outcome_for(game, human)
    if outcome == "draw":
        return "draw."
    if game.book.rules.misere:
        who = "you" if game.line_owner == human else "the computer"
        return f"{who} completed a line, so you {'win' if outcome == 'win' else 'lose'} (misère)."
    return "you win!" if outcome == "win" else "the computer wins."


def result_line(game: Game, human: str) -> str:
    """One line: how the game ended (``ending``), or that the moves ran out first."""
    if outcome_for(game, human) == "unfinished":
        return "Unfinished: the moves ran out before the game ended."
    return f"Result: {ending(game, human)}"
