"""A game with its history: the position it began from, the moves since, and undo.

A ``Position`` is immutable; a ``Game`` is the one mutable thing a program keeps while people
play, as python-chess's ``Board.move_stack``/``pop`` and chess.js's ``history``/``undo``::

    >>> game = Game()
    >>> game.play(4).turn
    'O'
    >>> game.undo(), game.moves, game.undo()
    (4, (), None)

JS ``Game``, Rust ``Game`` and C ``struct ttt_game`` mirror it (docs/porting.md).
"""

from __future__ import annotations

from tictactoe_book.game import Cell, Position


class Game:
    """The positions of one game from ``start`` (the empty 3x3 board unless given): ``play``
    adds a move, ``undo`` takes the last one back."""

    def __init__(self, start: Position | None = None) -> None:
        if start is None:
            start = Position.empty()
        if not isinstance(start, Position):
            raise TypeError(f"a game starts from a tictactoe_book.Position, got {type(start).__name__}")
        self._positions = [start]
        self._moves: list[Cell] = []

    def __repr__(self) -> str:
        return f"Game({self.start!r}, moves={self.moves!r})"

    @property
    def start(self) -> Position:
        """The position the game began from."""
        return self._positions[0]

    @property
    def position(self) -> Position:
        """The position now."""
        return self._positions[-1]

    @property
    def moves(self) -> tuple[Cell, ...]:
        """The cells played since ``start``, in order."""
        return tuple(self._moves)

    def play(self, cell: Cell) -> Position:
        """Play ``cell`` for the side to move and return the new position; IllegalMoveError
        (``Position.play``) changes nothing."""
        position = self.position.play(cell)
        self._positions.append(position)
        self._moves.append(cell)
        return position

    def undo(self) -> Cell | None:
        """Take the last move back and return its cell; None when no move was played since
        ``start``."""
        if not self._moves:
            return None
        self._positions.pop()
        return self._moves.pop()
