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

A proven book is a ``Book`` (tictactoe_book.book), which answers. ``load_book`` reads a file
(the packaged book by default) and proves it, unless its exact bytes were proven before
(player/tictactoe_book/trust.py), or opens a book by parts (tictactoe_book.parts, a folder);
``parse_book`` proves bytes.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from typing import TYPE_CHECKING, Any

import tictactoe_book.proof as proof
import tictactoe_book.proof_engine as proof_engine
import tictactoe_book.trust as trust
from tictactoe_book.book import Book, Entry, Evaluation, ranked
from tictactoe_book.book_format import (
    CANONICAL_RULE,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_BOOK_BYTES,
    MAX_BOOK_CELLS,
    MAX_DEPTH,
    MAX_STRUCTURE,
    check_header,
    check_limits,
    lone_surrogate,
    parse_json,
    read_book_bytes,
)
from tictactoe_book.errors import BookError, echoed
from tictactoe_book.game import Rules
from tictactoe_book.grammar import MAX_INTEGER, Tiers, entry_text, parse_entry
from tictactoe_book.opponents import DEFAULT, OPPONENTS, opponent

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tictactoe_book.book_format import Progress

__all__ = [
    "BOOK_NAME",
    "CANONICAL_RULE",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_BOOK_BYTES",
    "MAX_BOOK_CELLS",
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
#: The game the packaged books are for (normal and misère): 3x3, three in a row.
PACKAGED_GAME = (3, 3, 3)

#: The entries are taken a run of at most this many at a time, and the proof's progress told
#: after each: about 560 times for 4x4 (two passes), four times for 3x3 (two passes over the
#: keys with X to move and those with O to move, a run each).
PROGRESS_ENTRIES = 4096


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
    ``rules``; BookError ``rules`` saying how to build one for other ``rules``) whose moves are
    ranked against ``against`` first: ``"novice"`` (the default), or
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
    if packaged and rules is not None and (rules.rows, rules.cols, rules.k) != PACKAGED_GAME:
        raise BookError(
            "<packaged books>",
            "rules",
            f"none is for {rules} (they are for 3x3 k=3, normal and misère): build one with "
            f"ttt-book build --rules {rules.spelling} -o BOOK, then load_book(BOOK)",
        )
    if path is not None:  # a book by parts (docs/book-parts.md): a folder, or its manifest.json
        import tictactoe_book.parts as parts  # (here: a book file's load imports nothing of it)

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
    return ranked(book, against)


def book_for(book: Book | None, against: str | None) -> Book:
    """``book``, else the packaged 3x3 book ranked against ``against`` (novice unless given):
    what a caller offering both arguments plays from. ValueError if ``book`` is ranked against
    another opponent than ``against``, or ``against`` is not a reference opponent."""
    if book is None:
        return load_book(against=against)
    if against is not None:
        opponent(against)
    return ranked(book, against)


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
