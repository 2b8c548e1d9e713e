"""Text for people: a board as a grid with its free cells numbered 1 to N, and a move read in
that numbering (the README tells players to number cells so).

The cells of the library are 0 to ``N - 1``; people see and type them from 1. These two
functions are the definition every language mirrors (JS ``grid``/``parseMove``, C
``ttt_grid``/``ttt_parse_move``, Rust ``Position::grid``/``Position::parse_move``), compared by
tests on the same boards and texts::

    >>> print(grid(Position("X...O...X")))
     X | 2 | 3
    ---+---+---
     4 | O | 6
    ---+---+---
     7 | 8 | X
    >>> parse_move(" 2 ", Position("X...O...X"))
    1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tictactoe_book.errors import IllegalMoveError, echoed
from tictactoe_book.game import EMPTY, Position

if TYPE_CHECKING:
    from collections.abc import Callable

    from tictactoe_book.game import Cell, Rules

    Paint = Callable[[str, str], str]  # colours ``text`` as a ``kind`` (X, O, free, win, ...)

#: Longest move text read as a number (a longer one is no cell of any board).
MAX_MOVE_DIGITS = 16
_SPACE = " \t\r\n"


def plain(text: str, kind: str) -> str:
    """No colour."""
    return text


def grid(
    position: Position,
    paint: Paint = plain,
    labels: dict[Cell, str] | None = None,
    kinds: dict[Cell, str] | None = None,
) -> str:
    """The board as rows of cells between ``|``, rows between ``+`` rules, no final newline: a
    mark as itself, a free cell as its number from 1 (right-aligned to the widest number), or
    as ``labels[cell]`` (centred) when given. The apps colour it: each cell's text is passed to
    ``paint`` with its mark, or ``kinds[cell]`` (default ``free``) for a free cell."""
    board, rules = _position(position, "grid").board, position.rules
    width = max([len(str(rules.cells)), *(len(text) for text in (labels or {}).values())])
    place = str.center if labels else str.rjust  # numbers line up on their right: 9 over 13
    rows = []
    for r in range(rules.rows):
        cells = []
        for i in range(r * rules.cols, (r + 1) * rules.cols):
            if board[i] == EMPTY:
                text = (labels or {}).get(i, str(i + 1))
                cells.append(paint(place(text, width), (kinds or {}).get(i, "free")))
            else:
                cells.append(paint(place(board[i], width), board[i]))
        rows.append(" " + " | ".join(cells))
    rule = "\n" + "+".join(["-" * (width + 2)] * rules.cols) + "\n"
    return rule.join(rows)


def parse_move(text: str, position: Position) -> Cell:
    """The cell (0 up) a player means by ``text``, a number from 1 to N with spaces around it
    allowed: IllegalMoveError, naming the text as given, unless it is a free cell of a game that
    goes on (``"5"`` on ``X...O...X``: cell 5 is taken)."""
    if not isinstance(text, str):
        raise TypeError(f"a move must be a str such as '5', got {type(text).__name__}")
    cells = _position(position, "parse_move").rules.cells
    number = typed_number(text)
    if number is None:
        raise IllegalMoveError(f"move {echoed(text)} is not a cell number: use 1 to {cells}")
    if not 1 <= number <= cells:
        raise IllegalMoveError(f"move {echoed(text)} is off the board: use 1 to {cells}")
    if position.is_over:
        raise IllegalMoveError(f"move {echoed(text)}: the game is over")
    if position.board[number - 1] != EMPTY:
        raise IllegalMoveError(f"move {echoed(text)}: cell {number} is taken")
    return number - 1


def _position(position: object, what: str) -> Position:
    """``position`` if it is a Position, else TypeError: a board string is for ``Position(board)``."""
    if not isinstance(position, Position):
        raise TypeError(
            f"{what} takes a tictactoe_book.Position (Position(board)), got {type(position).__name__}"
        )
    return position


def typed_number(text: str) -> int | None:
    """The number a person typed: ASCII digits (at most ``MAX_MOVE_DIGITS``), with spaces, tabs
    and line ends around them; else None (``"+5"``, ``"٥"``, ``"5 6"``, ``""``)."""
    digits = text.strip(_SPACE)
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_MOVE_DIGITS:
        return None
    return int(digits)


def numbering(rules: Rules) -> str:
    """How the cells are numbered, for people: 1 up in reading order; on 3x3 the phone keypad."""
    if rules.rows == rules.cols == 3:
        return "The cells are numbered like a phone keypad read from the top: 1 2 3 / 4 5 6 / 7 8 9."
    rows = " / ".join(
        " ".join(str(r * rules.cols + c + 1) for c in range(rules.cols)) for r in range(rules.rows)
    )
    return f"The cells are numbered 1 to {rules.cells} in reading order, row by row: {rows}."
