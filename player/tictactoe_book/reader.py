"""The reader: a book file's bytes proven and then asked about, in the order of
docs/book-format.md ("A valid book").

1. to 11. the bytes, strict JSON within limits, the header (tictactoe_book.book_format:
   ``read_book_bytes``, ``parse_json``, ``check_header``);
12. to 15. the entries (``check_entries``): each key a board with a move to make, in canonical
   form; its string of the grammar (tictactoe_book.grammar: ``parse_entry``); every successor
   that does not finish the game an entry; and each move's score, the successor's stored best
   score one ply back, makes the entry's best score and tiers. The definition is
   tictactoe_book.proof, entry by entry as the spec writes it; tictactoe_book.proof_engine finds
   the first failing entry over whole runs of entries, and the definition writes its message.
   By induction on the number of empty cells, a book that passes is the truth, whoever wrote it.

Then ``Book.evaluate(board)`` looks the board up under its canonical key, scores every move
from the successors' entries (``proof.successors``, the rule the proof checks), and maps the
answer back onto the board's own orientation and marks. ``load_book`` reads a file (the
packaged book by default) and proves it, unless its exact bytes were proven before
(player/tictactoe_book/trust.py); ``parse_book`` proves bytes.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import tictactoe_book.proof as proof
import tictactoe_book.proof_engine as proof_engine
import tictactoe_book.trust as trust
from tictactoe_book.book_format import (
    CANONICAL_RULE,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_BOOK_BYTES,
    MAX_DEPTH,
    MAX_STRUCTURE,
    check_header,
    check_limits,
    lone_surrogate,
    parse_json,
    read_book_bytes,
)
from tictactoe_book.codes import canonical
from tictactoe_book.errors import BookError, RulesError, echoed
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Position,
    Rules,
    Symmetry,
    check_mark,
    check_playable,
    decode_score,
    other,
    side_to_move,
    swap_marks,
)
from tictactoe_book.grammar import MAX_INTEGER, Tiers, entry_text, parse_entry
from tictactoe_book.opponents import DEFAULT, OPPONENTS, opponent

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    #: How far a load has gone, for an app to show: ``progress(stage, done, total)``, the
    #: solver's shape (tictactoe_generator.solve.Progress). ``"read"`` once the file's bytes are read
    #: (done 0 of its size in bytes: parsing them follows), then, if it is proven, ``"prove"``
    #: (entries checked of the book's entries) from 0 as the proof starts to all as it ends.
    Progress = Callable[[str, int, int], None]

__all__ = [
    "BOOK_NAME",
    "CANONICAL_RULE",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_BOOK_BYTES",
    "MAX_DEPTH",
    "MAX_INTEGER",
    "MAX_STRUCTURE",
    "PACKAGED",
    "PROGRESS_ENTRIES",
    "Book",
    "Entry",
    "Evaluation",
    "Tiers",
    "book_for",
    "check_entries",
    "check_header",
    "check_limits",
    "default_book_path",
    "entry_text",
    "load_book",
    "lone_surrogate",
    "parse_book",
    "parse_entry",
    "parse_json",
    "prove",
    "read_book_bytes",
]

#: The packaged books' names: 3x3, and 3x3 misère, each ranked against each reference opponent
#: first (``PACKAGED[misere, against]``): ``tictactoe[-misere][-vs-NAME].json``, no ``-vs-`` for
#: the default opponent.
PACKAGED = {
    (misere, name): f"tictactoe{'-misere' if misere else ''}{'' if name == DEFAULT else f'-vs-{name}'}.json"
    for name in OPPONENTS
    for misere in (False, True)
}
BOOK_NAME = PACKAGED[False, DEFAULT]

#: The entries are taken a run of at most this many at a time, and the proof's progress told
#: after each: about 560 times for 4x4 (two passes), four times for 3x3 (two passes over the
#: keys with X to move and those with O to move, a run each).
PROGRESS_ENTRIES = 4096
#: The most entries a Book keeps derived, and the most answers it keeps by board, each: the
#: oldest go first. Every 3x4 entry fits (20,088); a long session on a 4x4 book (1,217,977
#: entries) holds a bounded part of it, not a few KB for every position ever asked.
CACHED = 1 << 17


# ---------------------------------------------------------------- steps 4 to 15


def prove(data: Any, source: object, expected: Rules | None, *, progress: Progress | None = None) -> Rules:
    """Steps 4 to 15 on parsed JSON ``data``: the rules the book is for, or BookError with the
    first failing step's code.

    ``expected`` is the game the caller plays (``None``: any rules the file states).
    ``progress`` is told the entries checked (stage ``"prove"``).
    """

    def fail(code: str, reason: str) -> BookError:
        return BookError(source, code, reason)

    rules = check_header(data, fail, expected)
    texts = data["entries"]
    total = len(texts)
    if progress is not None:
        progress("prove", 0, total)
    told = None if progress is None else lambda done: progress("prove", done, total)
    found = check_entries(rules, texts, told)
    if found is not None:
        raise fail(*found)
    return rules


def check_entries(
    rules: Rules, texts: dict[str, Any], progress: Callable[[int], None] | None = None
) -> tuple[str, str] | None:
    """Steps 12 to 15 on the entries of a book for ``rules``: the first failing step's reason
    code and message, naming the first entry in file order that fails it; None if every entry
    passes. ``progress`` is told how many entries are checked, now and then, up to all of them
    (the proof takes two passes over them: each counts for half).

    The finding is the definition's (``proof.first_failure``), found by its accelerator
    (``proof_engine.first_failing``); the definition writes the message of the one entry the
    accelerator names, and raises ``proof.ProofDisagreement`` if that entry passes it.
    """
    with collector_paused():
        found = proof_engine.first_failing(rules, texts, progress, run=PROGRESS_ENTRIES)
    if found is None:
        return None
    code, key = found
    return code, proof.explain(rules, texts, code, key)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused. The proof makes lists and strings by the run and no
    cycle; the collector's passes over them are time for nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# ---------------------------------------------------------------- the book's answers


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

    def outcome(self, cell: Cell) -> tuple[int, int]:
        """(+1 win / 0 draw / -1 loss, plies to the end) if the side to move plays ``cell``."""
        score = self.cell_scores[cell]
        if score is None:
            raise KeyError(cell)
        return decode_score(score, self.board.count(EMPTY), len(self.board))


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
        ``trap_order.against``; the default opponent, ``"novice"``, when it says nothing)."""
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

    def evaluate(self, board: str | Position, *, first: str = FIRST) -> Evaluation:
        """The book's answer for ``board``: a board string (X moved first unless
        ``first="O"``) or a ``Position`` (its own ``first``; RulesError if it is a position of
        other rules than the book's).

        Raises BoardError for a malformed, impossible or finished board (a proven book holds
        every other board), and ValueError for a ``first`` that is not X or O.
        """
        if isinstance(board, Position):
            return self._evaluate_position(board)
        check_mark(first, "first")
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

    def _evaluate_position(self, position: Position) -> Evaluation:
        if position.rules != self.rules:
            raise RulesError(f"a position of {position.rules} asked of a book for {self.rules}")
        return self.evaluate(position.board, first=position.first)

    def best_moves(self, board: str | Position, *, first: str = FIRST) -> tuple[Cell, ...]:
        """The top tier of the trap order for the side to move (the optimal moves that win most
        often against fallible opponents; the perfect level chooses among them), in increasing
        order, in the board's orientation."""
        return self.evaluate(board, first=first).tiers[0]

    def optimal_moves(self, board: str | Position, *, first: str = FIRST) -> tuple[Cell, ...]:
        """Every optimal move for the side to move, in increasing order, in the board's orientation."""
        return self.evaluate(board, first=first).optimal


def default_book_path(*, misere: bool = False, against: str = DEFAULT) -> str:
    """The book inside the installed package, else the repository's book/ (editable installs):
    the 3x3 book, or with ``misere`` the 3x3 misère book, its moves ranked against ``against``
    (a name of tictactoe_book.opponents.OPPONENTS) first."""
    name = PACKAGED[misere, opponent(against).name]
    here = os.path.dirname(os.path.abspath(__file__))
    packaged = os.path.join(here, name)
    if os.path.isfile(packaged):
        return packaged
    return os.path.join(os.path.dirname(os.path.dirname(here)), "book", name)  # player/tictactoe_book/


def load_book(
    path: str | os.PathLike[str] | None = None,
    *,
    rules: Rules | None = None,
    against: str | None = None,
    progress: Progress | None = None,
) -> Book:
    """Read and prove a book file; BookError naming the file if it cannot be used.

    ``path`` defaults to the packaged 3x3 book (the packaged 3x3 misère book for misère
    ``rules``) whose moves are ranked against ``against`` first: ``"novice"`` (the default), or
    ``"random"`` for the book that wins most often against a random player. A file given by
    ``path`` is read by its own ranking (``Book.against`` says whom its order targets); with
    ``against`` too, ValueError if that is not its ranking (``ttt-book build --against`` writes
    one that is). ``rules`` is the game the caller plays: a book for other rules is refused;
    None (the default) takes the rules the file states. The proof is skipped for bytes proven
    before: the packaged book's recorded bytes (only without ``path``), and a book larger than
    1 MB proven on this machine before (player/tictactoe_book/trust.py); a book larger than 1 MB that proves
    now is recorded. ``progress`` is told how far the load has gone (``Progress``).
    """
    packaged = path is None
    if against is not None:
        opponent(against)  # before the file is read: a misspelt name is the caller's error
    _caller_rules(rules)
    if path is not None:  # a book by parts (docs/book-parts.md): a folder, or its manifest.json
        import tictactoe_book.parts as parts

        if parts.is_book_by_parts(path):
            return parts.load_parts(path, rules=rules, against=against)
    misere = rules is not None and rules.misere
    where = default_book_path(misere=misere, against=against or DEFAULT) if path is None else os.fspath(path)
    raw = read_book_bytes(where)
    if progress is not None:
        progress("read", 0, len(raw))
    why = trust.proven_before(raw, where, packaged=packaged)
    book = None if why is None else _trusted(raw, where, rules, why)
    if book is None:
        book = parse_book(raw, where, rules=rules, progress=progress)
        trust.remember(raw)
    return _ranked(book, against)


def book_for(book: Book | None, against: str | None) -> Book:
    """``book``, else the packaged 3x3 book ranked against ``against`` (novice unless given):
    what a caller offering both arguments plays from. ValueError if ``book`` is ranked against
    another opponent than ``against``, or ``against`` is not a reference opponent."""
    if book is None:
        return load_book(against=against)
    if against is not None:
        opponent(against)
    return _ranked(book, against)


def _ranked(book: Book, against: str | None) -> Book:
    """``book`` if it is ranked against ``against`` (any ranking for None), else ValueError."""
    if against is not None and book.against != against:
        raise ValueError(f"{book.source} ranks its moves against {book.against}, not {against}")
    return book


def parse_book(
    raw: bytes, source: str = "<bytes>", *, rules: Rules | None = None, progress: Progress | None = None
) -> Book:
    """Prove a book from its bytes (steps 2 to 15) and load it; BookError naming ``source``.
    (No record is read or written: ``load_book`` keeps the record, for files.) ``progress`` is
    told how far the proof has gone."""
    _caller_rules(rules)
    data = parse_json(raw, source)
    return Book(prove(data, source, rules, progress=progress), data, source, trust="proven")


def _caller_rules(rules: object) -> None:
    """TypeError unless ``rules``, the game a caller plays, is a Rules or None (a text such as
    "3x3" is for ``Rules.parse``): the caller's mistake, not the book's."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a tictactoe_book.Rules or None, got {echoed(rules)}")


def _trusted(raw: bytes, source: str, expected: Rules | None, why: str) -> Book | None:
    """Bytes proven before (strict JSON included), packaged or recorded: parsed, not proven
    again. Their rules are still checked against the caller's. None if they do not even read
    as a book (a record naming bytes no proof accepted): the caller proves them instead."""
    try:
        data = json.loads(raw)
        stated = data["rules"]
        rules = Rules(stated["rows"], stated["cols"], stated["k"], stated["misere"])
        data["entries"].items()
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if expected is not None and rules != expected:
        raise BookError(source, "rules", f"is a book for {rules}, not {expected}")
    return Book(rules, data, source, trust=why)
