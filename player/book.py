"""Load a book, proving it first, and answer questions about any board from it, with no search.

``load_book()`` reads the packaged book (or a path) and proves it (``player.bookjson`` for the
JSON, ``player.proof`` for the rest: docs/book-format.md, "A valid book"), so every answer is
the truth whoever wrote the file. Two kinds of bytes skip the proof, because these exact bytes
were proven before: the packaged book whose CRC-32 was recorded beside it when the package was
built, and a book larger than 1 MB whose SHA-256 is in this machine's record of proven books
(``player.record``). ``Book.evaluate(board)`` looks the board up under its canonical key,
scores every move from the successors' entries (player/entry.py), and maps the answer back onto
the board's own orientation and marks.
"""

from __future__ import annotations

import json
import os
import stat
import zlib
from typing import NamedTuple

from player import bookjson, record
from player.board import EMPTY, FIRST, SECOND, canonicalizer, check_playable, other, swap_marks
from player.entry import Entry, derive, parse_entry
from player.errors import BookError
from player.format import MAX_BOOK_BYTES
from player.rules import STANDARD, Cell, Rules, Symmetry
from player.score import decode_score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Book", "Entry", "Evaluation", "default_book_path", "load_book", "parse_book"]

#: The packaged books' names (3x3, and 3x3 misère); each one's proven hash is recorded beside
#: it as NAME + ``.crc32`` (``packaged_digest``).
BOOK_NAME = "tictactoe.json"
MISERE_BOOK_NAME = "tictactoe-misere.json"
RECORD_SUFFIX = ".crc32"


class Evaluation(NamedTuple):
    """What the book says about a board, in that board's own orientation and marks.

    (A NamedTuple, like ``Entry``, for its cheaper creation at start-up.)

    ``cell_scores`` has one score per cell (None on occupied cells) on the book's scale
    (docs/book-format.md): higher is better; ``cells + 1 - p`` is a win in ``p`` plies, its
    negative a loss, 0 a draw. ``tiers`` are the optimal moves in trap order, best first.
    ``turn`` is the mark to move as the game holds it (``first`` moved first).
    """

    board: str
    first: str
    turn: str
    value: int
    plies: int
    cell_scores: tuple[int | None, ...]
    tiers: tuple[tuple[Cell, ...], ...]
    key: str
    symmetry: Symmetry
    cells: int

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
        return decode_score(score, self.board.count(EMPTY), self.cells)


class Book:
    """A proven book: every entry is consistent with its successors (or the bytes are ones
    proven before: the packaged book's, or a recorded one's).

    Build one with ``load_book`` or ``parse_book``. An entry's move scores are derived from its
    successors' best scores when the entry is first asked for: from the proof's table of best
    scores, or, when the proof was skipped, from the successors' entry strings.
    """

    def __init__(
        self,
        rules: Rules,
        data: dict[str, Any],
        source: str,
        *,
        trust: str,
        bests: dict[str, int] | None = None,
    ) -> None:
        self.rules = rules
        self.source = source
        #: why the answers can be trusted: ``"proven"`` (proven when it was loaded),
        #: ``"packaged"`` (the packaged book's bytes, proven when the package was built) or
        #: ``"recorded"`` (bytes proven before on this machine: ``player.record``)
        self.trust = trust
        #: the parsed document, for its informational members (``counts``, ``trap_rates``)
        self.data = data
        self._texts: dict[str, str] = data["entries"]
        self._bests = bests
        self._entries: dict[str, Entry] = {}
        self._canonical = canonicalizer(rules)
        self._cache: dict[tuple[str, str], Evaluation] = {}

    def __repr__(self) -> str:
        return f"<Book {self.rules} {len(self._texts)} entries from {self.source}>"

    def __len__(self) -> int:
        return len(self._texts)

    def canonical_keys(self) -> list[str]:
        """The canonical keys, in file order."""
        return list(self._texts)

    def entry(self, key: str) -> Entry | None:
        """The entry stored under canonical ``key``, or None if there is none."""
        found = self._entries.get(key)
        if found is None and key in self._texts:
            try:
                found = self._entries[key] = derive(self.rules, key, self._texts[key], self._best_of)
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                # only for trusted bytes (packaged, recorded) that were not a proven book after all
                raise BookError(self.source, "entry-shape", f"entry {key!r} is unusable: {error}") from None
        return found

    def _best_of(self, board: str) -> int:
        """The best score stored for ``board``'s canonical key (KeyError if there is none)."""
        key = self._canonical(board)[0]
        if self._bests is not None:
            return self._bests[key]
        return parse_entry(self._texts[key], self.rules.cells)[0]

    def evaluate(self, board: str, *, first: str = FIRST) -> Evaluation:
        """The book's answer for ``board`` (X moved first unless ``first="O"``).

        Raises BoardError for a malformed, impossible or finished board (a proven book holds
        every other board), and ValueError for a ``first`` that is not X or O.
        """
        if first != FIRST and first != SECOND:
            raise ValueError(f"first must be 'X' or 'O', got {first!r}")
        if type(board) is str:
            cached = self._cache.get((board, first))
            if cached is not None:
                return cached
        check_playable(self.rules, board, first)  # errors name the board as the game holds it
        as_book = swap_marks(board) if first == SECOND else board
        key, symmetry = self._canonical(as_book)
        entry = self.entry(key)
        assert entry is not None  # a proven book holds every playable board
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
            cells=self.rules.cells,
        )
        self._cache[(board, first)] = evaluation
        return evaluation

    def best_moves(self, board: str, *, first: str = FIRST) -> tuple[Cell, ...]:
        """Every optimal move for the side to move, in the board's orientation."""
        return self.evaluate(board, first=first).optimal


def default_book_path(*, misere: bool = False) -> str:
    """The book inside the installed package, else the repository's book/ (editable installs):
    the 3x3 book, or with ``misere`` the 3x3 misère book."""
    name = MISERE_BOOK_NAME if misere else BOOK_NAME
    here = os.path.dirname(os.path.abspath(__file__))
    packaged = os.path.join(here, name)
    if os.path.isfile(packaged):
        return packaged
    return os.path.join(os.path.dirname(here), "book", name)


def read_book_bytes(path: str) -> bytes:
    """Step 1 and the size half of step 2: the bytes of a regular file, read without blocking
    on a FIFO or a device; BookError ``unreadable`` or ``limits`` naming ``path``."""
    if not path:
        raise BookError("''", "unreadable", "an empty path names no file")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BookError(path, "unreadable", "no such file") from None
    except OSError as error:
        raise BookError(path, "unreadable", f"cannot be opened ({error.strerror or error})") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise BookError(path, "unreadable", f"is {kind}, not a book file")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            raw = handle.read(MAX_BOOK_BYTES + 1)
    except OSError as error:
        raise BookError(path, "unreadable", f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(descriptor)
    bookjson.check_limits(raw, path)
    return raw


def load_book(path: str | os.PathLike[str] | None = None, *, rules: Rules | None = STANDARD) -> Book:
    """Read and prove a book file (default: the packaged one); BookError naming the file.

    ``rules`` is what the caller plays; a book for other rules is refused. ``None`` takes the
    file's own rules. Without ``path``, misère ``rules`` read the packaged 3x3 misère book,
    any other the packaged 3x3 book. The proof is skipped for the packaged book's recorded bytes and for a
    book larger than 1 MB already proven on this machine (``player.record``); a book larger
    than 1 MB that proves now is recorded.
    """
    where = (
        os.fspath(path) if path is not None else default_book_path(misere=rules is not None and rules.misere)
    )
    raw = read_book_bytes(where)
    trusted = None
    if path is None and _matches_packaged_record(raw, where):
        trusted = _trusted(raw, where, rules, "packaged")
    sha256 = record.digest(raw) if len(raw) > record.RECORD_ABOVE else None
    if trusted is None and sha256 is not None and record.is_proven(sha256):
        trusted = _trusted(raw, where, rules, "recorded")
    if trusted is not None:
        return trusted
    book = parse_book(raw, where, rules=rules)
    if sha256 is not None:
        record.remember(sha256)
    return book


def parse_book(raw: bytes, source: str = "<bytes>", *, rules: Rules | None = STANDARD) -> Book:
    """Prove a book from its bytes (steps 2 to 15) and load it. (No record is read or written:
    ``load_book`` keeps the record, for files.)"""
    from player import proof  # not needed for the packaged book

    data = bookjson.parse(raw, source)
    proven = proof.prove(data, source, rules)
    return Book(proven.rules, data, source, trust="proven")


def _trusted(raw: bytes, source: str, expected: Rules | None, trust: str) -> Book | None:
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
    return Book(rules, data, source, trust=trust)


def record_path(book_path: str) -> str:
    """Where the packaged book's proven hash is recorded."""
    return book_path + RECORD_SUFFIX


def packaged_digest(raw: bytes) -> str:
    """The hash recorded beside a packaged book when the package is built (hatch_build.py): the
    CRC-32 of its bytes, as 8 lowercase hex digits.

    A CRC, not SHA-256 as in the machine's record (``player.record``), because of who can forge
    it. The record of a packaged book lies in the same installed folder as the book, so whoever
    can change the book can change the record too, and no hash stops them; the record is there
    to catch a changed book (a hand edit, a bad copy), and a CRC-32 catches every change of up to
    32 bits in a row and all but one in 2**32 of the others. A book in the machine's record can
    come from anyone, who could forge a CRC, so that record keeps SHA-256. Importing ``hashlib``
    (OpenSSL) costs the player's start-up more than everything else it adds to click's
    (docs/benchmarks.md); ``zlib`` costs a tenth of it.
    """
    return f"{zlib.crc32(raw):08x}"


def _matches_packaged_record(raw: bytes, book_path: str) -> bool:
    """Do ``raw`` have the hash recorded for the packaged book when it was proven?"""
    try:
        with open(record_path(book_path), "rb") as handle:
            recorded = handle.read(200).strip()
    except OSError:
        return False
    return packaged_digest(raw).encode() == recorded
