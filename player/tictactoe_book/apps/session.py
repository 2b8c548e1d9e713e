"""A game in play: the board as the game holds it, whose turn, undo, hints, the computer's move;
and the tally of a session's games.

Cells here are the book's (0 to ``cells - 1``); the apps show them to people from 1. Marks are
the game's own: when O moves first, the book is asked with ``first="O"`` and swaps them itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tictactoe_book.game import FIRST, Cell, Outcome, Position, other
from tictactoe_book.game import check_mark as exact_mark
from tictactoe_book.history import Game as Record
from tictactoe_book.play import check_level, choose_move

if TYPE_CHECKING:
    from tictactoe_book.book import Book
    from tictactoe_book.play import RandomSource
    from tictactoe_book.rates import PlayOut


def check_mark(mark: str, what: str = "mark") -> str:
    """``X`` or ``O`` in any case, as a person may type it (``tictactoe_book.game.check_mark``)."""
    return exact_mark(mark.upper() if type(mark) is str else mark, what)


class Game:
    """One game: its position (``tictactoe_book.game.Position``, the one game state), the moves so far,
    and the levels the computer plays each mark at.

    ``levels`` maps each mark the computer plays to its level; the other mark (if any) is the
    human's. The session mutates; every position it holds is immutable.
    """

    def __init__(
        self,
        book: Book,
        *,
        first: str = FIRST,
        levels: dict[str, str] | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        self.book = book
        self.first = check_mark(first, "first")
        self.levels = {check_mark(m): check_level(lv) for m, lv in (levels or {}).items()}
        self.rng = rng
        self.record = Record(Position.empty(book.rules, self.first))
        #: the hint's play-outs, kept for the game's later hints (tictactoe_book.hints.win_chances)
        self.walks: dict[tuple[str, str], PlayOut] = {}

    @property
    def position(self) -> Position:
        """The position now (``tictactoe_book.history.Game``: the one record of the moves)."""
        return self.record.position

    @property
    def moves(self) -> list[tuple[str, Cell]]:
        """The moves so far, each with the mark that played it."""
        marks = (self.first, other(self.first))
        return [(marks[i % 2], cell) for i, cell in enumerate(self.record.moves)]

    @property
    def board(self) -> str:
        """The board as the game holds it."""
        return self.position.board

    @property
    def turn(self) -> str:
        """The mark to move."""
        return self.position.turn

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended by its rules (``Position.outcome``), None while it goes on."""
        return self.position.outcome()

    @property
    def winner(self) -> str | None:
        """The mark that won by the rules, None for a draw or a game in play."""
        ended = self.outcome
        return None if ended is None else ended.winner

    @property
    def is_over(self) -> bool:
        """Someone has completed a line, or the board is full."""
        return self.position.is_over

    @property
    def computer_to_move(self) -> bool:
        """True when the mark to move is played by the computer."""
        return not self.is_over and self.turn in self.levels

    def free_cells(self) -> tuple[Cell, ...]:
        """Cells still free (none once the game is over)."""
        return self.position.legal_moves()

    def play(self, cell: Cell) -> None:
        """Put the side to move's mark on ``cell``; raises IllegalMoveError and changes nothing
        if the cell is off the board or taken, or the game is over."""
        self.record.play(cell)

    def computer_move(self) -> Cell:
        """Choose (from the book) and play the computer's move; returns the cell."""
        cell = choose_move(self.book, self.position, self.levels[self.turn], rng=self.rng)
        self.play(cell)
        return cell

    def undo(self) -> list[tuple[str, Cell]]:
        """Take back the human's last move and every computer move after it; returns them.

        Nothing is undone (empty list) when the human has not moved yet.
        """
        moves = self.moves
        humans = [i for i, (mark, _) in enumerate(moves) if mark not in self.levels]
        if not humans:
            return []
        for _ in moves[humans[-1] :]:
            self.record.undo()
        return moves[humans[-1] :]

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
    ended = game.outcome
    if ended is None or ended.winner is None:
        return "draw."
    if ended.completed_by != ended.winner:  # misère: the one who completed the line lost
        who = "you" if ended.completed_by == human else "the computer"
        return f"{who} completed a line, so you {'win' if outcome == 'win' else 'lose'} (misère)."
    return "you win!" if outcome == "win" else "the computer wins."


def result_line(game: Game, human: str) -> str:
    """One line: how the game ended (``ending``), or that the moves ran out first."""
    if outcome_for(game, human) == "unfinished":
        return "Unfinished: the moves ran out before the game ended."
    return f"Result: {ending(game, human)}"
