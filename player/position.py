"""``Position``: an immutable, hashable game position whose ``str`` is the book's notation."""

from __future__ import annotations

from dataclasses import dataclass

from player import board as _board
from player.errors import IllegalMoveError
from player.rules import STANDARD, Cell, Rules


@dataclass(frozen=True, slots=True)
class Position:
    """A board under some rules. ``Position.parse(str(p), p.rules) == p`` for every position."""

    board: str
    rules: Rules = STANDARD

    def __post_init__(self) -> None:
        _board.check(self.rules, self.board)

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD) -> Position:
        """Read the book's notation or a person's looser spelling (see ``board.parse_board``)."""
        return cls(_board.parse_board(text, rules), rules)

    @classmethod
    def empty(cls, rules: Rules = STANDARD) -> Position:
        """The start of the game."""
        return cls(_board.EMPTY * rules.cells, rules)

    def __str__(self) -> str:
        return self.board

    def __repr__(self) -> str:
        suffix = "" if self.rules == STANDARD else f", {self.rules!r}"
        return f"Position({self.board!r}{suffix})"

    @property
    def turn(self) -> str:
        """The mark to move next (X moves first)."""
        return _board.side_to_move(self.board)

    @property
    def winner(self) -> str | None:
        """The mark that owns a line, if any."""
        return _board.winner(self.rules, self.board)

    @property
    def is_over(self) -> bool:
        """True when someone has won or the board is full."""
        return _board.is_over(self.rules, self.board)

    def legal_moves(self) -> list[Cell]:
        """Free cells, or none once the game is over."""
        return [] if self.is_over else _board.legal_moves(self.board)

    def play(self, cell: Cell) -> Position:
        """A new position with ``cell`` taken by the side to move; raises IllegalMoveError."""
        if self.is_over:
            raise IllegalMoveError(f"the game {self.board!r} is over; no move {cell!r}")
        return Position(_board.play(self.board, cell), self.rules)
