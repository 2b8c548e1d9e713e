"""Load a book file strictly and answer questions about any board from it, with no search.

``load_book()`` reads the packaged book (or a path), checks every field it will rely on and
returns a ``Book``. ``Book.evaluate(board)`` looks the board up under its canonical key and maps
the entry back onto the board's own orientation.
"""

from __future__ import annotations

import os
from operator import itemgetter

from player.board import (
    EMPTY,
    FIRST,
    SECOND,
    canonicalizer,
    check_playable,
    swap_marks,
)
from player.checksum import content_checksum, matches
from player.errors import BoardError, BookError
from player.fastjson import loads
from player.format import FORMAT_NAME, FORMAT_VERSION, MAX_BOOK_BYTES
from player.rules import STANDARD, Cell, Rules, RulesError, Symmetry
from player.score import decode_score
from player.value import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


class Entry(Frozen):
    """One canonical position as stored in the book (cells are the canonical board's)."""

    __slots__ = _fields = ("key", "turn", "value", "plies", "scores", "tiers")
    key: str
    turn: str
    value: int
    plies: int
    scores: tuple[int | None, ...]
    tiers: tuple[tuple[Cell, ...], ...]

    def __init__(
        self,
        key: str,
        turn: str,
        value: int,
        plies: int,
        scores: tuple[int | None, ...],
        tiers: tuple[tuple[Cell, ...], ...],
    ) -> None:
        self._set(key=key, turn=turn, value=value, plies=plies, scores=scores, tiers=tiers)


class Evaluation(Frozen):
    """What the book says about a board, in that board's own orientation.

    ``scores`` maps every legal move to its score on the book's scale (docs/book-format.md):
    higher is better; ``cells + 1 - p`` is a win in ``p`` plies, its negative a loss, 0 a draw.
    ``tiers`` are the optimal moves in trap order, best first; ``optimal`` is their union.
    """

    __slots__ = _fields = ("board", "turn", "value", "plies", "scores", "tiers", "key", "symmetry", "cells")
    board: str
    turn: str
    value: int
    plies: int
    scores: Mapping[Cell, int]
    tiers: tuple[tuple[Cell, ...], ...]
    key: str
    symmetry: Symmetry
    cells: int

    def __init__(
        self,
        board: str,
        turn: str,
        value: int,
        plies: int,
        scores: Mapping[Cell, int],
        tiers: tuple[tuple[Cell, ...], ...],
        key: str,
        symmetry: Symmetry,
        cells: int,
    ) -> None:
        self._set(
            board=board,
            turn=turn,
            value=value,
            plies=plies,
            scores=scores,
            tiers=tiers,
            key=key,
            symmetry=symmetry,
            cells=cells,
        )

    def __hash__(self) -> int:
        return hash((self.board, self.key))

    @property
    def optimal(self) -> tuple[Cell, ...]:
        """Every optimal move, in increasing order."""
        return tuple(sorted(c for tier in self.tiers for c in tier))

    def outcome(self, cell: Cell) -> tuple[int, int]:
        """(+1 win / 0 draw / -1 loss, plies to the end) if the side to move plays ``cell``."""
        return decode_score(self.scores[cell], self.board.count(EMPTY), self.cells)


class Book:
    """A loaded book whose header and checksum have been checked.

    Each entry is checked in full before its first use (``load_book`` checks them all at once
    unless told ``lazy=True``), so no answer ever rests on an unchecked entry.
    """

    def __init__(
        self,
        rules: Rules,
        raw_entries: dict[str, Any],
        checker: Callable[[str, Any], Entry],
        source: str,
        data: dict[str, Any],
    ) -> None:
        self.rules = rules
        self.source = source
        self.data = data
        self._raw = raw_entries
        self._checker = checker
        self._entries: dict[str, Entry] = {}
        self._canonical = canonicalizer(rules)
        self._cache: dict[str, Evaluation] = {}

    def __repr__(self) -> str:
        return f"<Book {self.rules} {len(self._raw)} entries from {self.source}>"

    def __len__(self) -> int:
        return len(self._raw)

    @classmethod
    def from_data(
        cls, data: Any, source: str = "<data>", rules: Rules | None = STANDARD, *, lazy: bool = False
    ) -> Book:
        """Check parsed JSON ``data``; ``rules=None`` accepts any rules the file states."""
        return _validate(data, source, rules, lazy)

    def canonical_keys(self) -> list[str]:
        """The canonical keys, as stored."""
        return list(self._raw)

    def entry(self, key: str) -> Entry | None:
        """The checked entry stored under canonical ``key``, or None if there is none."""
        found = self._entries.get(key)
        if found is None:
            if key not in self._raw:  # (an entry stored as null is damage, not absence)
                return None
            found = self._entries[key] = self._checker(key, self._raw[key])
        return found

    def check_all(self) -> None:
        """Check every entry now; raises BookError for the first bad one."""
        for key in self._raw:
            self.entry(key)

    def evaluate(self, board: str, *, first: str = FIRST) -> Evaluation:
        """The book's answer for ``board`` (X moved first unless ``first="O"``).

        Raises BoardError for a malformed, impossible, unreachable or finished board.
        """
        if first != FIRST and first != SECOND:
            raise ValueError(f"first must be 'X' or 'O', got {first!r}")
        as_book = swap_marks(board) if first == SECOND and type(board) is str else board
        cached = self._cache.get(as_book)
        if cached is not None:
            return cached
        check_playable(self.rules, board, first)  # errors name the board as the game holds it
        board = as_book
        key, symmetry = self._canonical(board)
        entry = self.entry(key)
        if entry is None:
            raise BoardError("unreachable", f"board {board!r} is not in the book: it cannot arise in play")
        perm = symmetry.perm
        evaluation = Evaluation(
            board=board,
            turn=entry.turn,
            value=entry.value,
            plies=entry.plies,
            scores={perm[c]: s for c, s in enumerate(entry.scores) if s is not None},
            tiers=tuple(tuple(sorted(perm[c] for c in tier)) for tier in entry.tiers),
            key=key,
            symmetry=symmetry,
            cells=self.rules.cells,
        )
        self._cache[board] = evaluation
        return evaluation

    def best_moves(self, board: str, *, first: str = FIRST) -> tuple[Cell, ...]:
        """Every optimal move for the side to move, in the board's orientation."""
        return self.evaluate(board, first=first).optimal


def default_book_path() -> str:
    """The book inside the installed package, else the repository's book/ (editable installs).

    (``os.path`` rather than ``pathlib``, whose import costs more than reading the book.)
    """
    here = os.path.dirname(os.path.abspath(__file__))
    packaged = os.path.join(here, "tictactoe.json")
    if os.path.isfile(packaged):
        return packaged
    return os.path.join(os.path.dirname(here), "book", "tictactoe.json")


def load_book(
    path: str | os.PathLike[str] | None = None, *, rules: Rules | None = STANDARD, lazy: bool = False
) -> Book:
    """Read and check a book file; every failure is a BookError naming the file.

    ``rules`` is what the caller plays; a book for other rules is refused. ``None`` takes the
    file's own rules. ``lazy=True`` defers each entry's check to its first use (the header and
    the checksum over all the content are still checked now): the terminal player starts
    this way, since it reads a handful of entries per game.
    """
    where = os.fspath(path) if path is not None else default_book_path()
    try:
        with open(where, "rb") as handle:
            raw = handle.read(MAX_BOOK_BYTES + 1)
    except FileNotFoundError:
        raise BookError(where, "no such file") from None
    except IsADirectoryError:
        raise BookError(where, "is a directory, not a book file") from None
    except OSError as error:
        raise BookError(where, f"cannot be read ({error.strerror or error})") from None
    return parse_book(raw, where, rules=rules, lazy=lazy)


def parse_book(
    raw: bytes, source: str = "<bytes>", *, rules: Rules | None = STANDARD, lazy: bool = False
) -> Book:
    """Check and load a book from its bytes."""
    if len(raw) > MAX_BOOK_BYTES:
        raise BookError(source, f"is larger than {MAX_BOOK_BYTES} bytes; not a book")
    if not raw.strip():
        raise BookError(source, "is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BookError(source, f"is not UTF-8 text (byte {error.start})") from None
    try:
        data = loads(text)
    except RecursionError:
        raise BookError(source, "is not a book: JSON nested too deeply") from None
    except ValueError as error:  # json.JSONDecodeError
        line, column = getattr(error, "lineno", None), getattr(error, "colno", None)
        where = f"line {line}, column {column}: " if line is not None else ""
        reason = getattr(error, "msg", str(error))
        raise BookError(source, f"is not valid JSON ({where}{reason})") from None
    return _validate(data, source, rules, lazy, raw)


def _is_int(value: object) -> bool:
    return type(value) is int


def _validate(data: Any, source: str, expected: Rules | None, lazy: bool, raw: bytes | None = None) -> Book:
    """Check every field a reader relies on; the first problem becomes one BookError."""

    def fail(reason: str) -> BookError:
        return BookError(source, reason)

    if not isinstance(data, dict):
        raise fail(f"is not a book: the top level is {type(data).__name__}, not an object")
    if data.get("format") != FORMAT_NAME:
        raise fail(f"is not a {FORMAT_NAME} file (format {data.get('format')!r})")
    version = data.get("version")
    if not _is_int(version) or version != FORMAT_VERSION:
        raise fail(f"has format version {version!r}; this reader reads version {FORMAT_VERSION}")
    rules = _check_rules(data.get("rules"), fail)
    if expected is not None and rules != expected:
        raise fail(f"is a book for {rules}, not {expected}")
    symmetries = data.get("symmetries")
    if not isinstance(symmetries, list) or [
        s.get("perm") if isinstance(s, dict) else s for s in symmetries
    ] != [list(s.perm) for s in rules.symmetries]:
        raise fail(f"has symmetries that are not those of {rules}")
    if data.get("canonical") != "min-image":
        raise fail(f"uses canonical rule {data.get('canonical')!r}; this reader knows 'min-image'")
    checksum = data.get("checksum")
    if not isinstance(checksum, str):
        raise fail("has no checksum")
    raw_entries = data.get("entries")
    if not isinstance(raw_entries, dict):
        raise fail("has no entries object")
    counts = data.get("counts")
    stated = counts.get("entries") if isinstance(counts, dict) else None
    if stated != len(raw_entries):
        raise fail(f"has {len(raw_entries)} entries but its counts say {stated!r}")
    if not all(type(key) is str for key in raw_entries):
        raise fail("has an entry key that is not a string")
    if not matches(data, raw):
        actual = content_checksum(data)
        raise fail(f"checksum {checksum!r} does not match its content ({actual}): the file was altered")
    book = Book(rules, raw_entries, _EntryChecker(rules, fail), source, data)
    if not lazy:
        book.check_all()
    return book


def _check_rules(raw: Any, fail: Callable[[str], BookError]) -> Rules:
    if not isinstance(raw, dict):
        raise fail("has no rules object")
    rows, cols, k = (raw.get(name) for name in ("rows", "cols", "k"))
    if not (type(rows) is int and type(cols) is int and type(k) is int):
        raise fail(f"has rules with non-integer rows/cols/k: {[rows, cols, k]!r}")
    try:
        rules = Rules(rows, cols, k)
    except RulesError as error:
        raise fail(f"has impossible rules: {error}") from None
    if raw.get("cells") != rules.cells or raw.get("lines") != [list(line) for line in rules.lines]:
        raise fail(f"has cells or winning lines that are not those of {rules}")
    if (raw.get("first"), raw.get("second"), raw.get("empty")) != (FIRST, SECOND, EMPTY):
        raise fail("uses marks other than X, O and '.'")
    return rules


class _EntryChecker:
    """Checks one raw entry: a canonical, playable key; scores on free cells only, each
    possible; value and plies those of the best score; tiers exactly the optimal moves.

    Written for speed (C-level string methods and item getters rather than per-cell loops):
    the player runs it on every entry it uses, and ``load_book`` on all of them.
    """

    def __init__(self, rules: Rules, fail: Callable[[str], BookError]) -> None:
        self.cells = rules.cells
        self.canonical = canonicalizer(rules)
        self.not_marks = str.maketrans("", "", FIRST + SECOND + EMPTY)
        self.getters = [itemgetter(*line) for line in rules.lines]
        self.full = {FIRST * rules.k, SECOND * rules.k}
        self.fail = fail

    def __call__(self, key: str, raw: Any) -> Entry:
        cells, fail = self.cells, self.fail
        if len(key) != cells or key.translate(self.not_marks):
            raise fail(f"has entry key {key!r}, not a board of {cells} cells of X, O and .")
        x, o = key.count(FIRST), key.count(SECOND)
        empties = cells - x - o
        if x - o not in (0, 1) or not empties or any("".join(get(key)) in self.full for get in self.getters):
            raise fail(f"has entry key {key!r}, which is not a position with a move to make")
        if self.canonical(key)[0] != key:
            raise fail(f"has entry {key!r} that is not in canonical form")
        if type(raw) is not dict:
            raise fail(f"entry {key!r} is not an object")
        scores, tiers = raw.get("scores"), raw.get("tiers")
        if raw.get("turn") != (FIRST if x == o else SECOND):
            raise fail(f"entry {key!r} says {raw.get('turn')!r} is to move")
        if type(scores) is not list or len(scores) != cells:
            raise fail(f"entry {key!r} needs a list of {cells} scores")
        free = [cell for cell in range(cells) if key[cell] == EMPTY]
        if [cell for cell, score in enumerate(scores) if score is not None] != free:
            raise fail(f"entry {key!r} must score exactly its free cells {free}")
        best = -cells - 1
        for cell in free:
            score = scores[cell]
            if type(score) is not int or (score and not _score_fits(score, empties, cells)):
                raise fail(f"entry {key!r} has impossible score {score!r} for cell {cell}")
            if score > best:
                best = score
        value, plies = raw.get("value"), raw.get("plies")
        if (
            type(value) is not int
            or type(plies) is not int
            or (value, plies) != decode_score(best, empties, cells)
        ):
            raise fail(
                f"entry {key!r} value {value!r} in {plies!r} plies disagrees with its best score {best}"
            )
        if type(tiers) is not list or not tiers or not all(type(t) is list and t for t in tiers):
            raise fail(f"entry {key!r} needs a non-empty list of non-empty tiers")
        flat = [c for t in tiers for c in t]
        optimal = [c for c in free if scores[c] == best]
        if not all(type(c) is int for c in flat) or sorted(flat) != optimal:
            raise fail(f"entry {key!r} tiers {tiers!r} are not exactly its optimal moves {optimal}")
        return Entry(key, raw["turn"], value, plies, tuple(scores), tuple(tuple(t) for t in tiers))


def _score_fits(score: int, empties: int, cells: int) -> bool:
    """A non-zero score must end within the free cells: a win on one of the mover's plies (odd),
    a loss on one of the opponent's (even)."""
    value, plies = decode_score(score, empties, cells)
    return 1 <= plies <= empties and plies % 2 == (1 if value > 0 else 0)
