"""A proven book's answers: ``Book``, which ``tictactoe_book.reader`` returns once a book file
is proven (``load_book``, ``parse_book``) and ``tictactoe_book.parts`` extends for a book by
parts; the ``Entry`` of one canonical position, its moves scored from its successors' entries
by the rule the proof checks (``proof.successors``); and the ``Evaluation`` of a board, in that
board's own orientation and marks.

A module of its own so that what asks a book (the apps, the hints, the adapters, the book by
parts) depends on the answers, not on the loader that proves a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import tictactoe_book.proof as proof
from tictactoe_book.errors import BookError, RulesError, echoed
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Position,
    Rules,
    Symmetry,
    canonical,
    check_mark,
    check_playable,
    decode_score,
    other,
    play,
    side_to_move,
    swap_marks,
)
from tictactoe_book.grammar import Tiers, parse_entry
from tictactoe_book.opponents import DEFAULT

#: The most entries a Book keeps derived, and the most answers it keeps by board, each: the
#: oldest go first. Every 3x4 entry fits (20,088); a long session on a 4x4 book (1,217,977
#: entries) holds a bounded part of it, not a few KB for every position ever asked.
CACHED = 1 << 17


class MoveValue(NamedTuple):
    """A move's value with best play after it: ``value`` +1 win, 0 draw, -1 loss for the side
    that plays it, in ``plies`` plies to the end (the move counted). A game's result is an
    ``Outcome`` (``tictactoe_book.game``); JS ``MoveValue`` and Rust ``MoveValue`` are the same."""

    value: int
    plies: int


@dataclass(frozen=True, slots=True)
class Entry:
    """One canonical position, as its string and its successors make it: cells are the
    canonical board's; ``scores`` has one item per cell, None where occupied."""

    key: str
    turn: str
    value: int
    plies: int
    scores: tuple[int | None, ...]
    tiers: Tiers

    @property
    def best(self) -> int:
        """The best score of any move."""
        return max(score for score in self.scores if score is not None)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the book says about a board, in that board's own orientation and marks.

    ``cell_scores`` has one score per cell (None on occupied cells) on the book's scale
    (docs/book-format.md): higher is better; ``cells + 1 - p`` is a win in ``p`` plies, its
    negative a loss, 0 a draw. ``tiers`` are the optimal moves in trap order, best first.
    ``turn`` is the mark to move as the game holds it (``first`` moved first); ``key`` and
    ``symmetry`` are where the answer was found: ``symmetry`` maps the board onto ``key``.
    """

    board: str
    first: str
    turn: str
    value: int
    plies: int
    cell_scores: tuple[int | None, ...]
    tiers: Tiers
    key: str
    symmetry: Symmetry

    @property
    def scores(self) -> dict[Cell, int]:
        """Every legal move's score (a new dict each time: the evaluation stays immutable)."""
        return {cell: score for cell, score in enumerate(self.cell_scores) if score is not None}

    @property
    def optimal(self) -> tuple[Cell, ...]:
        """Every optimal move, in increasing order."""
        return tuple(sorted(c for tier in self.tiers for c in tier))

    def outcome(self, cell: Cell) -> MoveValue:
        """The value of ``cell`` for the side to move (+1 win / 0 draw / -1 loss, plies to the end);
        IllegalMoveError, as ``Position.play`` words it, for a cell that is taken, off the
        board or no cell at all."""
        scores = self.cell_scores
        score = scores[cell] if type(cell) is int and 0 <= cell < len(scores) else None
        if score is None:  # no legal move: the move's own check says why
            play(self.board, cell, self.first)
            raise AssertionError(f"internal error: free cell {cell} of {self.board!r} has no score")
        return MoveValue(*decode_score(score, self.board.count(EMPTY), len(self.board)))


class Book:
    """A proven book: every entry is consistent with its successors (or the bytes are ones
    proven before: the packaged book's, or a recorded one's: player/tictactoe_book/trust.py).

    Build one with ``load_book`` or ``parse_book``. An entry's move scores are derived from its
    successors' best scores when the entry is first asked for.
    """

    def __init__(self, rules: Rules, data: dict[str, Any], source: str, *, trust: str) -> None:
        self.rules = rules
        self.source = source
        #: why the answers can be trusted: ``"proven"`` (proven when it was loaded),
        #: ``"packaged"`` (the packaged book's bytes, proven when the package was built) or
        #: ``"recorded"`` (bytes proven before on this machine)
        self.trust = trust
        #: the parsed document, for its informational members (``counts``, ``trap_rates``)
        self.data = data
        self._texts: dict[str, str] = data["entries"]
        self._entries: dict[str, Entry] = {}
        self._cache: dict[tuple[str, str], Evaluation] = {}

    def __repr__(self) -> str:
        return f"<Book {self.rules} {len(self._texts)} entries from {self.source}>"

    @property
    def against(self) -> str:
        """The opponent the tiers are ranked against first, as the book states it (its
        ``trap_order.against``; ``opponents.DEFAULT`` when it says nothing)."""
        order = self.data.get("trap_order")
        against = order.get("against", DEFAULT) if isinstance(order, dict) else DEFAULT
        return against if isinstance(against, str) else DEFAULT

    def __len__(self) -> int:
        return len(self._texts)

    def canonical_keys(self) -> list[str]:
        """The canonical keys, in file order."""
        return list(self._texts)

    def entry(self, key: str) -> Entry | None:
        """The entry stored under canonical ``key``, or None if there is none."""
        found = self._entries.get(key)
        if found is None and key in self._texts:
            if len(self._entries) >= CACHED:  # the oldest first: memory bounded, not by the book
                del self._entries[next(iter(self._entries))]
            try:
                found = self._entries[key] = self._derive(key)
            except BookError:  # (a book by parts: a part or an entry refused, naming it)
                raise
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                # only for trusted bytes (packaged, recorded) that were not a proven book after all
                raise BookError(self.source, "entry-shape", f"entry {key!r} is unusable: {error}") from None
        return found

    def _derive(self, key: str) -> Entry:
        """The entry under ``key``: each move scored as the game ends, or one ply back from the
        best score stored for its successor's canonical key."""
        return self._entry_of(key, proof.successors(self.rules, self._texts, key))

    def _entry_of(self, key: str, moves: list[proof.Move]) -> Entry:
        """The entry under ``key`` whose ``proof.successors`` are ``moves``."""
        rules = self.rules
        best, tiers = parse_entry(self._texts[key], rules.cells)
        scores: list[int | None] = [None] * rules.cells
        for cell, _, successor, score in moves:
            if score is None:
                raise KeyError(successor)
            scores[cell] = score
        value, plies = decode_score(best, key.count(EMPTY), rules.cells)
        return Entry(key, side_to_move(key), value, plies, tuple(scores), tiers)

    def evaluate(self, board: str | Position, *, first: str | None = None) -> Evaluation:
        """The book's answer for ``board``: a board string (X moved first unless
        ``first="O"``) or a ``Position`` (its own ``first``; RulesError if it is a position of
        other rules than the book's).

        Raises BoardError for a malformed, impossible or finished board (a proven book holds
        every other board), ValueError for a ``first`` that is not X or O, and TypeError for a
        ``first`` given with a ``Position`` that is not the position's own (as JavaScript's
        ``evaluate`` does).
        """
        if isinstance(board, Position):
            return self._evaluate_position(board, first)
        first = FIRST if first is None else check_mark(first, "first")
        if type(board) is str:
            cached = self._cache.get((board, first))
            if cached is not None:
                return cached
        check_playable(self.rules, board, first)  # errors name the board as the game holds it
        as_book = swap_marks(board) if first == SECOND else board
        key, symmetry = canonical(self.rules, as_book)
        entry = self.entry(key)
        if entry is None:  # only bytes trusted, not proven (a proven book holds every board)
            raise BookError(self.source, "missing-entry", f"has no entry {key!r} for {board!r}")
        perm = symmetry.perm
        cell_scores: list[int | None] = [None] * self.rules.cells
        for cell, score in enumerate(entry.scores):
            cell_scores[perm[cell]] = score
        evaluation = Evaluation(
            board=board,
            first=first,
            turn=entry.turn if first == FIRST else other(entry.turn),
            value=entry.value,
            plies=entry.plies,
            cell_scores=tuple(cell_scores),
            tiers=tuple(tuple(sorted(perm[c] for c in tier)) for tier in entry.tiers),
            key=key,
            symmetry=symmetry,
        )
        if len(self._cache) >= CACHED:
            del self._cache[next(iter(self._cache))]
        self._cache[(board, first)] = evaluation
        return evaluation

    def _evaluate_position(self, position: Position, first: str | None) -> Evaluation:
        if position.rules != self.rules:
            raise RulesError(f"a position of {position.rules} asked of a book for {self.rules}")
        if first is not None and first != position.first:
            raise TypeError(
                f"first {echoed(first)} is not the position's ({position.first} moved first): "
                "leave first out when you pass a Position"
            )
        return self.evaluate(position.board, first=position.first)

    def best_moves(self, board: str | Position, *, first: str | None = None) -> tuple[Cell, ...]:
        """The top tier of the trap order for the side to move (the optimal moves that win most
        often against fallible opponents; the perfect level chooses among them), in increasing
        order, in the board's orientation."""
        return self.evaluate(board, first=first).tiers[0]

    def optimal_moves(self, board: str | Position, *, first: str | None = None) -> tuple[Cell, ...]:
        """Every optimal move for the side to move, in increasing order, in the board's orientation."""
        return self.evaluate(board, first=first).optimal


def ranked(book: Book, against: str | None) -> Book:
    """``book`` if it is ranked against ``against`` (any ranking for None), else ValueError
    naming the book's ranking and the command that writes the one asked for."""
    if against is not None and book.against != against:
        raise ValueError(
            f"{book.source} ranks its moves against {book.against}, not {against} "
            f"(ttt-book build --rules {book.rules.spelling} --against {against} -o FILE writes one)"
        )
    return book
