"""Boards in the book's notation, the moves on them, and their canonical form.

A *board* is a string of ``rules.cells`` characters in reading order (row-major), one per cell:
``X`` for the first player's mark, ``O`` for the second player's, ``.`` for an empty cell. On 3x3::

    X . O
    . X .      is  "X.O.X...."
    . . .

The first player is always written ``X``: a game where O moves first swaps the marks before it
asks the book (see docs/book-format.md).

The *canonical* form of a board is the lexicographically smallest string among its images
under the rules' symmetries (``image[i] = board[perm[i]]``); ``.`` sorts before ``O`` before ``X``
in ASCII. A move ``c`` found on the canonical board is cell ``perm[c]`` on the real board.

These are pure functions over strings: the solver calls them on every position, so they take no
value objects.
"""

from __future__ import annotations

from operator import itemgetter

from player.errors import BoardError, IllegalMoveError
from player.rules import Cell, Line, Rules, Symmetry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

EMPTY = "."
FIRST = "X"
SECOND = "O"
MARKS = frozenset((EMPTY, FIRST, SECOND))


def side_to_move(board: str) -> str:
    """``X`` when the marks are level (X moves first by the book's convention), else ``O``."""
    return FIRST if board.count(FIRST) == board.count(SECOND) else SECOND


def other(mark: str) -> str:
    """The opponent of ``mark``."""
    return SECOND if mark == FIRST else FIRST


def line_owners(rules: Rules) -> Callable[[str], str]:
    """A fast ``board -> the marks owning a complete line`` for ``rules``, as a string: ``""``,
    ``"X"``, ``"O"`` or ``"XO"`` (made once per rules, like ``canonicalizer``)."""
    owners = _LINE_OWNERS.get(rules)
    if owners is None:
        # One C-level item getter reads every line at once, each followed by a separator (the
        # character after the board), so a mark owns a line exactly when k of it stand in a row
        # in what it reads (python-chess builds its attack tables once per board shape in the
        # same spirit).
        read = itemgetter(*[cell for line in rules.lines for cell in (*line, rules.cells)])
        first_full, second_full = FIRST * rules.k, SECOND * rules.k

        def owners(board: str) -> str:
            lines = "".join(read(board + "|"))
            return (FIRST if first_full in lines else "") + (SECOND if second_full in lines else "")

        _LINE_OWNERS[rules] = owners
    return owners


_LINE_OWNERS: dict[Rules, Callable[[str], str]] = {}


def winner(rules: Rules, board: str) -> str | None:
    """The mark that owns a whole line, or None. Callers have checked both cannot."""
    return line_owners(rules)(board)[:1] or None


def winners(rules: Rules, board: str) -> set[str]:
    """Every mark that owns a whole line (two of them means an impossible board)."""
    return set(line_owners(rules)(board))


def winning_lines(rules: Rules, board: str) -> list[Line]:
    """Every line owned whole by one mark (a last move can complete two at once)."""
    return [line for line in rules.lines if board[line[0]] != EMPTY and len({board[c] for c in line}) == 1]


def is_over(rules: Rules, board: str) -> bool:
    """True when a mark owns a line or no cell is free."""
    return EMPTY not in board or winner(rules, board) is not None


def legal_moves(board: str) -> list[Cell]:
    """The free cells, in increasing order."""
    return [i for i, mark in enumerate(board) if mark == EMPTY]


def play(board: str, cell: Cell) -> str:
    """The board after the side to move takes ``cell``; raises IllegalMoveError if it can't."""
    if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < len(board):
        raise IllegalMoveError(f"cell {cell!r} is off the board (0 to {len(board) - 1})")
    if board[cell] != EMPTY:
        raise IllegalMoveError(f"cell {cell} of {board!r} is taken by {board[cell]}")
    return board[:cell] + side_to_move(board) + board[cell + 1 :]


def swap_marks(board: str) -> str:
    """Exchange X and O: how a game where O moved first is put into the book's convention."""
    return board.translate(_SWAP)


_SWAP = str.maketrans({FIRST: SECOND, SECOND: FIRST})


def transform(board: str, symmetry: Symmetry) -> str:
    """The image of ``board`` under ``symmetry``: ``image[i] = board[perm[i]]``."""
    return "".join(board[i] for i in symmetry.perm)


def canonicalizer(rules: Rules) -> Callable[[str], tuple[str, Symmetry]]:
    """A fast ``board -> (canonical key, symmetry used)`` for ``rules``.

    Ties (a board symmetric to itself) go to the first symmetry in ``rules.symmetries`` order,
    so the identity wins whenever the board is already canonical.
    """
    getters = [(itemgetter(*s.perm), s) for s in rules.symmetries]
    identity = getters[0][1]

    def canonical(board: str) -> tuple[str, Symmetry]:
        best, used = board, identity
        for get, symmetry in getters[1:]:
            image = "".join(get(board))
            if image < best:
                best, used = image, symmetry
        return best, used

    return canonical


def canonical(rules: Rules, board: str) -> tuple[str, Symmetry]:
    """The canonical key of ``board`` and the symmetry that maps ``board`` onto it."""
    return canonicalizer(rules)(board)


def check(rules: Rules, board: str, first: str = FIRST) -> str:
    """Return ``board`` if it is well-formed with possible mark counts, else raise BoardError.

    ``first`` is the mark that moved first in the game holding ``board``. This does not decide
    reachability of finished boards; see ``check_playable``.
    """
    if not isinstance(board, str):
        raise BoardError("character", f"a board must be a string, got {type(board).__name__}")
    if len(board) != rules.cells:
        raise BoardError("length", f"board {board!r} has {len(board)} cells; {rules} needs {rules.cells}")
    bad = next((ch for ch in board if ch not in MARKS), None)
    if bad is not None:
        raise BoardError("character", f"board {board!r} has {bad!r}; use X, O and . only")
    second = other(first)
    a, b = board.count(first), board.count(second)
    if a - b not in (0, 1):
        raise BoardError(
            "counts",
            f"board {board!r} has {a} {first} and {b} {second}; {first} moved first, "
            f"so it must have as many marks as {second} or one more",
        )
    return board


def check_playable(rules: Rules, board: str, first: str = FIRST) -> str:
    """Return ``board`` if it is a reachable position with a move to make, else raise BoardError.

    ``first`` is the mark that moved first in the game holding ``board``.
    """
    check(rules, board, first)
    won = winners(rules, board)
    if len(won) > 1:
        raise BoardError("unreachable", f"board {board!r} is unreachable: both X and O have a line")
    if won:
        mark = won.pop()
        last_mover = first if board.count(first) > board.count(other(first)) else other(first)
        if mark != last_mover:
            raise BoardError(
                "unreachable", f"board {board!r} is unreachable: {mark} has a line but did not move last"
            )
        result = "lost" if rules.misere else "won"  # misère: completing a line loses
        raise BoardError("over", f"board {board!r} is finished: {mark} has {result}")
    if EMPTY not in board:
        raise BoardError("over", f"board {board!r} is finished: a draw")
    return board


def parse_board(text: str, rules: Rules, first: str = FIRST) -> str:
    """Read a board typed by a person: ``X``/``x``, ``O``/``o``, ``.``/``-``/``_`` for empty;
    ``/``, ``|``, spaces and commas between cells are ignored. Checks the form, not the play."""
    if not isinstance(text, str):
        raise BoardError("character", f"a board must be a string, got {type(text).__name__}")
    if len(text) > 4 * rules.cells + 16:
        raise BoardError("length", f"board text of {len(text)} characters is far too long")
    cleaned = text.translate(_READ)
    return check(rules, cleaned, first)


_READ = str.maketrans(
    {"x": "X", "o": "O", "-": ".", "_": ".", "/": None, "|": None, " ": None, ",": None, "\n": None}
)


def render(board: str, rules: Rules) -> str:
    """The board as rows of ``X``, ``O`` and ``.`` separated by spaces (OpenSpiel's style)."""
    rows = [board[r * rules.cols : (r + 1) * rules.cols] for r in range(rules.rows)]
    return "\n".join(" ".join(row) for row in rows)
