"""The game: an m,n,k-game's rules and derived tables, its boards, their canonical form, and the
book's score scale.

* A *cell* is an ``int`` from 0 to ``rows * cols - 1`` in reading order: on 3x3, 0 1 2 / 3 4 5 /
  6 7 8. A *line* is a tuple of ``k`` cells in a row, column or diagonal; owning a whole line
  wins (under *misère* rules, completing one loses).
* A *board* is a string of ``rules.cells`` characters in reading order: ``X`` for the first
  player's mark, ``O`` for the second's, ``.`` for an empty cell (``"X.O.X...."``). The first
  player is always ``X``: a game where O moves first swaps the marks to ask the book.
* A *symmetry* is a permutation ``perm`` of the cells that builds the image
  ``image[i] = board[perm[i]]``: 8 on a square board (the dihedral group), 4 on a rectangle.
* The *canonical* form of a board is its smallest image (``.`` < ``O`` < ``X``), reached first
  by the symmetries in order; a move ``c`` on the canonical board is cell ``perm[c]`` on the board
  (``canonical``).
* A *position* (``Position``) is a board under its rules, with the mark that moved first: the
  one game state every walker goes through. Its ``outcome()`` says who won *by the rules*
  (``Outcome``): the owner of a completed line, or under misère the other mark
  (``line_winner``, the one place the misère rule is decided).
* A *score*, for the side to move on ``N`` cells: a win ``p`` plies from now (this move
  included) scores ``N + 1 - p``, a loss ``-(N + 1 - p)``, a draw 0. Higher is better.

Every table is computed from ``(rows, cols, k)``, never typed in by hand; every function is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter

from tictactoe_book.errors import BoardError, IllegalMoveError, RulesError, echoed

Cell = int
Line = tuple[Cell, ...]
Permutation = tuple[Cell, ...]
#: A player: the moves it picks among, uniformly, on a board (as the game holds it); None
#: stands for an answer that forfeits the game (an audited program's illegal or missing answer).
Policy = Callable[[str], Sequence["Cell | None"]]

#: Boards this package takes (past 16 cells, in a book by parts: docs/book-parts.md).
MAX_CELLS = 20
EMPTY = "."
FIRST = "X"
SECOND = "O"
MARKS = frozenset((EMPTY, FIRST, SECOND))


# ---------------------------------------------------------------- rules and their tables


@dataclass(frozen=True, slots=True)
class Symmetry:
    """A named rotation or reflection of the board: ``image[i] = board[perm[i]]``."""

    name: str
    perm: Permutation
    #: the permutation that undoes this one: ``inverse[perm[i]] == i``
    inverse: Permutation = field(init=False, repr=False, compare=False)
    take: Callable[[str], Sequence[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "perm", tuple(self.perm))  # the inverse: the perm's argsort
        object.__setattr__(self, "inverse", tuple(sorted(range(len(self.perm)), key=self.perm.__getitem__)))
        object.__setattr__(self, "take", itemgetter(*self.perm))  # board[perm[0]], board[perm[1]], ...


@dataclass(frozen=True, slots=True, repr=False)
class Rules:
    """An m,n,k-game: a ``rows`` x ``cols`` board, ``k`` in a row wins (loses if ``misere``), X
    first. Its tables are derived from the shape, once per shape; ``Rules.parse("3x4:3")``
    reads the spelling the command lines take."""

    rows: int = 3
    cols: int = 3
    k: int = 3
    misere: bool = False

    def __post_init__(self) -> None:
        for name, value in (("rows", self.rows), ("cols", self.cols), ("k", self.k)):
            if type(value) is not int or value < 1:
                raise RulesError(f"{name} must be a positive integer, got {echoed(value)}")
        if type(self.misere) is not bool:
            raise RulesError(f"misere must be True or False, got {echoed(self.misere)}")
        if self.cells > MAX_CELLS:
            raise RulesError(f"board {self.rows}x{self.cols} has {self.cells} cells; at most {MAX_CELLS}")
        if self.k > max(self.rows, self.cols):
            raise RulesError(f"k={self.k} does not fit on a {self.rows}x{self.cols} board")

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every winning line, in a fixed order."""
        return _tables(self.rows, self.cols, self.k)[0]

    @property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's rotations and reflections, identity first."""
        return _tables(self.rows, self.cols, self.k)[1]

    @property
    def lines_through(self) -> tuple[tuple[Line, ...], ...]:
        """For each cell, the winning lines through it."""
        return _tables(self.rows, self.cols, self.k)[2]

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols} k={self.k}" + (" misère" if self.misere else "")

    @property
    def spelling(self) -> str:
        """The rules as ``--rules`` and :meth:`parse` read them: ``"3x4:3"``, ``"3x3:3:misere"``."""
        return f"{self.rows}x{self.cols}:{self.k}" + (":misere" if self.misere else "")

    def as_json(self) -> dict[str, int | bool]:
        """The rules as the JSON documents state them: ``rows``, ``cols``, ``k``, ``misere``."""
        return {"rows": self.rows, "cols": self.cols, "k": self.k, "misere": self.misere}

    def __repr__(self) -> str:
        return f"Rules({self.rows}, {self.cols}, {self.k}" + (", misere=True)" if self.misere else ")")

    def __reduce__(self) -> tuple[type[Rules], tuple[int, int, int, bool]]:
        """Unpickled through the constructor, so a tampered pickle is checked like any call."""
        return Rules, (self.rows, self.cols, self.k, self.misere)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``"RxC"``, ``"RxC:K"`` (``"3x4:3"``), and either followed by ``":misere"``
        (``"3x3:3:misere"``, ``"3x3:misere"``; ``misère`` too); ``k`` defaults to ``min(R, C)``."""
        if not isinstance(text, str):
            raise TypeError(f"rules text must be a str such as '3x4:3', got {echoed(text)}")
        parts = text.strip().lower().split(":")
        if misere := len(parts) > 1 and parts[-1] in ("misere", "misère"):
            parts.pop()
        rows_text, sep, cols_text = parts[0].partition("x")
        try:
            if not sep or len(parts) > 2:
                raise ValueError
            rows, cols = _digits(rows_text), _digits(cols_text)
            k = _digits(parts[1]) if len(parts) == 2 else min(rows, cols)
        except ValueError:
            raise RulesError(f"rules must look like 3x3, 3x4:3 or 3x3:3:misere, got {echoed(text)}") from None
        return cls(rows, cols, k, misere)


STANDARD = Rules()


def check_rules(rules: object) -> Rules:
    """``rules`` if it is a Rules, else TypeError: a text such as ``"3x3"`` is for
    ``Rules.parse``, so the message says so."""
    if not isinstance(rules, Rules):
        raise TypeError(
            f"rules must be a tictactoe_book.Rules (Rules.parse reads '3x3'), got {echoed(rules)}"
        )
    return rules


def _digits(text: str) -> int:
    """A count written in ASCII digits (``int()`` would also take ``"+3"``, ``" 3"``, ``"٣"``)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)


@cache
def _tables(
    rows: int, cols: int, k: int
) -> tuple[tuple[Line, ...], tuple[Symmetry, ...], tuple[tuple[Line, ...], ...]]:
    """The lines, the symmetries and the lines through each cell of a shape, once per shape."""
    lines = _winning_lines(rows, cols, k)
    through = tuple(tuple(line for line in lines if cell in line) for cell in range(rows * cols))
    return lines, _symmetries(rows, cols), through


def _winning_lines(rows: int, cols: int, k: int) -> tuple[Line, ...]:
    """Every run of ``k`` cells along a row, column or diagonal, in a fixed order."""
    lines: list[Line] = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append(tuple((r + dr * i) * cols + c + dc * i for i in range(k)))
    return tuple(lines)


def _symmetries(rows: int, cols: int) -> tuple[Symmetry, ...]:
    """The board's rotations and reflections, identity first: every combination of transpose
    (square boards only), mirror top-bottom and mirror left-right (the dihedral group D4 on a
    square; a mirror across a single cell changes nothing and is dropped)."""
    names = {
        (False, False, False): "identity",
        (False, True, False): "mirror top-bottom",
        (False, False, True): "mirror left-right",
        (False, True, True): "rotate 180",
        (True, False, False): "transpose (main diagonal)",
        (True, True, False): "rotate 90 clockwise",
        (True, False, True): "rotate 90 counter-clockwise",
        (True, True, True): "transpose (anti-diagonal)",
    }
    found: list[Symmetry] = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                perm = []
                for r in range(rows):
                    for c in range(cols):
                        # Where does the cell shown at (r, c) of the image come from?
                        sr, sc = (c, r) if transpose else (r, c)
                        sr = rows - 1 - sr if flip_rows else sr
                        sc = cols - 1 - sc if flip_cols else sc
                        perm.append(sr * cols + sc)
                if all(tuple(perm) != s.perm for s in found):  # a 1-cell-wide board repeats some
                    found.append(Symmetry(names[(transpose, flip_rows, flip_cols)], tuple(perm)))
    return tuple(found)


# ---------------------------------------------------------------- boards


def side_to_move(board: str, first: str = FIRST) -> str:
    """The mark to move on ``board`` in a game ``first`` began: ``first`` when the marks are
    level, else the other (the book's convention: X moves first)."""
    return first if board.count(FIRST) == board.count(SECOND) else other(first)


def check_mark(mark: object, what: str = "mark") -> str:
    """``mark`` if it is ``X`` or ``O``, else ValueError naming ``what`` and the value."""
    if mark != FIRST and mark != SECOND:
        raise ValueError(f"{what} must be {FIRST!r} or {SECOND!r}, got {echoed(mark)}")
    return FIRST if mark == FIRST else SECOND


def other(mark: str) -> str:
    """The opponent of ``mark``."""
    return SECOND if mark == FIRST else FIRST


def swap_marks(board: str) -> str:
    """Exchange X and O: how a game where O moved first is put into the book's convention."""
    return board.translate(_SWAP)


_SWAP = str.maketrans({FIRST: SECOND, SECOND: FIRST})


def legal_moves(board: str) -> list[Cell]:
    """The free cells, in increasing order (whether or not the game is over: ``Position``
    knows that)."""
    return [i for i, mark in enumerate(board) if mark == EMPTY]


def put(board: str, cell: Cell, mark: str) -> str:
    """``board`` with ``mark`` on ``cell``: a move, unchecked (``play`` checks it first)."""
    return board[:cell] + mark + board[cell + 1 :]


def play(board: str, cell: Cell, first: str = FIRST) -> str:
    """The board after the side to move (``first`` moved first) takes ``cell``, else IllegalMoveError."""
    whole = isinstance(cell, int) and not isinstance(cell, bool)  # a flag is no cell, though True == 1
    if not whole or not 0 <= cell < len(board):
        told = "is off the board" if whole else "is not a cell: cells are whole numbers"
        raise IllegalMoveError(f"cell {echoed(cell)} {told} (0 to {len(board) - 1})")
    if board[cell] != EMPTY:
        raise IllegalMoveError(f"cell {cell} of {board!r} is taken by {board[cell]}")
    return put(board, cell, side_to_move(board, first))


@cache
def read_lines(rules: Rules) -> Callable[[str], str]:
    """A fast ``board -> every line's marks``: one item getter reads every line at once, each
    followed by a separator (the character after the board), so a mark owns a line when ``k``
    of it stand in a row in what it reads, the line numbered ``at // (k + 1)`` where they start."""
    read = itemgetter(*[cell for line in rules.lines for cell in (*line, rules.cells)])
    return lambda board: "".join(read(board + "|"))


@cache
def line_owners(rules: Rules) -> Callable[[str], str]:
    """A fast ``board -> the marks owning a complete line``: ``""``, ``"X"``, ``"O"`` or ``"XO"``
    (``read_lines``)."""
    read = read_lines(rules)
    first_full, second_full = FIRST * rules.k, SECOND * rules.k

    def owners(board: str) -> str:
        lines = read(board)
        return (FIRST if first_full in lines else "") + (SECOND if second_full in lines else "")

    return owners


def completed_lines(rules: Rules, board: str) -> list[Line]:
    """Every line owned whole by one mark (a last move can complete two at once)."""
    return [line for line in rules.lines if board[line[0]] != EMPTY and len({board[c] for c in line}) == 1]


def line_winner(rules: Rules, owner: str) -> str:
    """Who wins when ``owner`` completes a line: ``owner``, or under misère rules the other
    mark (completing a line loses). The one place the misère rule is decided."""
    return other(owner) if rules.misere else owner


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, by its rules: ``winner`` is ``"X"``, ``"O"`` or None (a
    draw); ``line`` the completed line's cells (the first of two a last move completed; empty
    for a draw), and ``completed_by`` the mark that completed it (under misère, the loser)."""

    winner: str | None
    line: Line = ()
    completed_by: str | None = None


#: A full board with no line.
DRAW = Outcome(None)


def outcome(rules: Rules, board: str) -> Outcome | None:
    """``board``'s ``Outcome`` under ``rules``, or None while the game goes on. ``board`` holds
    marks only, with at most one mark owning lines (``check_reachable``)."""
    lines = read_lines(rules)(board)
    for owner in (FIRST, SECOND):
        at = lines.find(owner * rules.k)
        if at >= 0:
            return Outcome(line_winner(rules, owner), rules.lines[at // (rules.k + 1)], owner)
    return None if EMPTY in board else DRAW


def is_over(rules: Rules, board: str) -> bool:
    """True when a mark owns a line or no cell is free."""
    return EMPTY not in board or bool(line_owners(rules)(board))


def transform(board: str, symmetry: Symmetry) -> str:
    """The image of ``board`` under ``symmetry``: ``image[i] = board[perm[i]]``."""
    return "".join(symmetry.take(board))


def canonical(rules: Rules, board: str) -> tuple[str, Symmetry]:
    """The canonical key of ``board`` (its smallest image, ``.`` < ``O`` < ``X`` as in ASCII)
    and the symmetry that maps ``board`` onto it, the first in ``rules.symmetries`` order on a
    tie (the identity when ``board`` is canonical). ``board`` holds marks only (``check`` it
    first)."""
    images = [transform(board, symmetry) for symmetry in rules.symmetries]
    smallest = min(images)
    return smallest, rules.symmetries[images.index(smallest)]


def check(rules: Rules, board: str, first: str = FIRST) -> str:
    """``board`` if it is well-formed with possible mark counts (``first`` moved first), else
    BoardError; ``check_playable`` also decides whether it is reachable and not finished."""
    if not isinstance(board, str):
        raise BoardError("character", f"a board must be a string, got {type(board).__name__}")
    if len(board) != rules.cells:
        raise BoardError(
            "length", f"board {echoed(board)} has {len(board):,} cells; {rules} needs {rules.cells}"
        )
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


def check_reachable(rules: Rules, board: str, first: str = FIRST) -> str:
    """``board`` if it can arise in a game ``first`` began (finished or not), else BoardError:
    well-formed (``check``), at most one mark owning lines, and that mark the last to move."""
    check(rules, board, first)
    won = line_owners(rules)(board)
    if len(won) > 1:
        raise BoardError("unreachable", f"board {board!r} is unreachable: both X and O have a line")
    if won:
        last_mover = first if board.count(first) > board.count(other(first)) else other(first)
        if won != last_mover:
            raise BoardError(
                "unreachable", f"board {board!r} is unreachable: {won} has a line but did not move last"
            )
    return board


def check_playable(rules: Rules, board: str, first: str = FIRST) -> str:
    """``board`` if it is a reachable position with a move to make (``first`` moved first),
    else BoardError."""
    ended = outcome(rules, check_reachable(rules, board, first))
    if ended is None:
        return board
    if ended.completed_by is None:
        raise BoardError("over", f"board {board!r} is finished: a draw")
    result = "won" if ended.winner == ended.completed_by else "lost"
    raise BoardError("over", f"board {board!r} is finished: {ended.completed_by} has {result}")


def parse_board(text: str, rules: Rules, first: str = FIRST) -> str:
    """Read a board typed by a person: ``X``/``x``, ``O``/``o``, ``.``/``-``/``_`` for empty;
    ``/``, ``|``, spaces and commas between cells are ignored. Checks the form, not the play."""
    if not isinstance(text, str):
        raise BoardError("character", f"a board must be a string, got {type(text).__name__}")
    if len(text) > 4 * rules.cells + 16:
        raise BoardError("length", f"board text of {len(text)} characters is far too long")
    return check(rules, text.translate(_READ), first)


_READ = str.maketrans("xo-_", "XO..", "/| ,\n")


@dataclass(frozen=True, slots=True)
class Position:
    """A game in progress, or finished: a board under its rules, ``first`` the mark that moved
    first. Immutable and hashable; ``str`` is the book's notation and
    ``Position.parse(str(p), p.rules, p.first) == p``. BoardError for a board that cannot
    arise (``check_reachable``)::

        >>> Position("XXXOO....", Rules(3, 3, 3, misere=True)).outcome().winner
        'O'
    """

    board: str
    rules: Rules = STANDARD
    first: str = FIRST

    def __post_init__(self) -> None:
        check_rules(self.rules)
        check_mark(self.first, "first")
        check_reachable(self.rules, self.board, self.first)

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD, first: str = FIRST) -> Position:
        """Read the book's notation or a person's looser spelling (see ``parse_board``)."""
        return cls(parse_board(text, rules, first), rules, first)

    @classmethod
    def empty(cls, rules: Rules = STANDARD, first: str = FIRST) -> Position:
        """The start of the game."""
        return cls(EMPTY * rules.cells, rules, first)

    def __str__(self) -> str:
        return self.board

    def __repr__(self) -> str:
        rules = "" if self.rules == STANDARD else f", {self.rules!r}"
        first = "" if self.first == FIRST else f", first={self.first!r}"
        return f"Position({self.board!r}{rules}{first})"

    @property
    def turn(self) -> str:
        """The mark to move next (the game's ``first`` when the marks are level)."""
        return side_to_move(self.board, self.first)

    @property
    def is_over(self) -> bool:
        """True when a line is complete or the board is full."""
        return is_over(self.rules, self.board)

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else who won by the rules (``Outcome``)."""
        return outcome(self.rules, self.board)

    def legal_moves(self) -> tuple[Cell, ...]:
        """The free cells in increasing order; none once the game is over."""
        return () if self.is_over else tuple(legal_moves(self.board))

    def play(self, cell: Cell) -> Position:
        """A new position with ``cell`` taken by the side to move; IllegalMoveError if the game
        is over, or the cell is off the board or taken."""
        if self.is_over:
            raise IllegalMoveError(f"the game {self.board!r} is over; no move {echoed(cell)}")
        return Position(play(self.board, cell, self.first), self.rules, self.first)


# ---------------------------------------------------------------- scores


VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def decode_score(score: int, empties: int, cells: int) -> tuple[int, int]:
    """A score as (+1 win / 0 draw / -1 loss, plies to the end); ``empties`` counts free cells
    before the move (a draw lasts until the board is full)."""
    if score > 0:
        return 1, cells + 1 - score
    if score < 0:
        return -1, cells + 1 + score
    return 0, empties


def outcome_words(value: int, plies: int) -> str:
    """``win in 3``, ``draw`` or ``loss in 4``: plies to the end, this move included."""
    return "draw" if value == 0 else f"{VALUE_WORDS[value]} in {plies}"


def one_ply_back(best: int) -> int:
    """The score of a move whose successor's best score is ``best`` (the other side's view):
    the same result for the other side, one ply later: ``sign(best) - best``."""
    return (best > 0) - (best < 0) - best


def after_line(rules: Rules) -> int:
    """The score, for the side to move, of a board whose last move completed a line: the game
    ended 0 plies ago, lost (won under misère, where completing a line loses)."""
    return rules.cells + 1 if rules.misere else -(rules.cells + 1)


def end_score(rules: Rules, board: str) -> int | None:
    """The score of the move that made ``board`` (from a board with no full line) if the game
    is over there, else None (the score then follows from the board's entry): one ply back from
    ``after_line`` after a line (``cells``, or ``-cells`` under misère), 0 for a full board."""
    if line_owners(rules)(board):
        return one_ply_back(after_line(rules))
    return None if EMPTY in board else 0
