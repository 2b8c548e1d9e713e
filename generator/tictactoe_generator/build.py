"""``ttt-book build``'s files: the book (tictactoe_generator.writer) and its conformance vectors
(tictactoe_generator.vectors) from one solve, written as one transaction, both or neither
(tictactoe_generator.atomic); a big book proven before it is written and recorded once it is
(player/tictactoe_book/trust.py).

A module of its own so that what needs only the book's document (the target report, verify)
does not import the vectors.
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass
from pathlib import Path

import tictactoe_book.trust as trust
from tictactoe_book.errors import BookTooLarge
from tictactoe_book.game import Rules
from tictactoe_book.opponents import DEFAULT
from tictactoe_book.reader import BOOK_NAME, MAX_BOOK_BYTES, Book, parse_book
from tictactoe_generator.atomic import check_targets, fingerprint, write_files, written
from tictactoe_generator.solve import Progress
from tictactoe_generator.vectors import build_vectors, encode_vectors
from tictactoe_generator.writer import book_document, encode, solve_arrays


def write_book(
    path: Path,
    rules: Rules,
    vectors_path: Path | None = None,
    *,
    against: str = DEFAULT,
    progress: Progress | None = None,
) -> tuple[bytes, bytes | None]:
    """Solve ``rules`` once; write the book to ``path`` and, if asked, the conformance vectors to
    ``vectors_path``, as one transaction (``tictactoe_generator.atomic.write_files``): both or neither.
    Returns the bytes written.

    The targets are checked before the solve, so a bad one fails at once. Raises OutputError
    naming the file that could not be written, SameFileError if the two paths are the same
    file, and BookTooLarge, writing nothing, for a book larger than every reader takes
    (``MAX_BOOK_BYTES``: 1x16 k=3, say). The vectors list every board up to 12 cells, a sample beyond
    (generator/tictactoe_generator/vectors.py).
    A book larger than 1 MB is proven before it is written and then recorded as proven
    (player/tictactoe_book/trust.py), so its first load skips the proof.
    """
    targets = [Path(path)] if vectors_path is None else [Path(path), Path(vectors_path)]
    check_targets(targets)
    traps = solve_arrays(rules, against=against, progress=progress)
    data = encode(book_document(traps))
    if len(data) > MAX_BOOK_BYTES:
        raise BookTooLarge(
            f"the book for {rules} would be {len(data):,} bytes, larger than the {MAX_BOOK_BYTES:,} every "
            'reader takes (docs/book-format.md, "A valid book"); nothing written'
        )
    proven = prove_for_record(data, str(path), progress)
    vectors = None
    if vectors_path is not None:  # (on the book just proven, if it was: one proof, not two)
        vectors = encode_vectors(build_vectors(traps, data, book=proven))
    files = {targets[0]: data}
    if vectors is not None:
        files[targets[1]] = vectors
    write_files(files)
    if proven is not None:
        trust.remember(data)
    return data, vectors


def prove_for_record(data: bytes, source: str, progress: Progress | None = None) -> Book | None:
    """For a book larger than 1 MB: prove ``data`` (BookError if it does not prove: a bug in
    the writer), for ``trust.remember`` once the file is written; the proven book, or None for
    a smaller book (not proven here). ``progress`` is told how far the proof has gone (stage
    ``"prove"``)."""
    if len(data) <= trust.RECORD_ABOVE:
        return None
    return parse_book(data, source, rules=None, progress=progress)


@dataclass(frozen=True, slots=True)
class Written:
    """What ``build_files`` wrote: each file, its size, and what the write did to each
    (``tictactoe_generator.atomic.written``: ``wrote PATH``, ``replaced PATH``,
    ``rewrote PATH (unchanged)``)."""

    book: Path
    book_bytes: int
    gzipped_bytes: int
    vectors: Path | None
    vectors_bytes: int
    written: tuple[str, ...]
    seconds: float
    rules: Rules
    against: str

    def report(self) -> str:
        """What the build says it did: each file, its size, the game, whom the order targets."""
        ranked = "" if self.against == DEFAULT else f", ranked against {self.against}"
        lines = [
            f"{self.written[0]}: {self.book_bytes:,} bytes ({self.gzipped_bytes:,} gzipped), "
            f"{self.rules}{ranked}, in {self.seconds:.2f} s"
        ]
        if self.vectors is not None:
            lines.append(f"{self.written[1]}: {self.vectors_bytes:,} bytes")
        return "\n".join(lines)


def build_files(
    book: Path,
    rules: Rules,
    vectors: Path | None = None,
    *,
    no_vectors: bool = False,
    against: str = DEFAULT,
    progress: Progress | None = None,
) -> Written:
    """``ttt-book build``: the book for ``rules`` written to ``book``, with its conformance
    vectors to ``vectors`` if given, and what was written. Unasked, only the repository's book
    gets its vectors (``default_vectors_path``: the 3x3 book ranked against the novice, named
    tictactoe.json, as ``make book`` writes it), unless ``no_vectors``: a book of any other name
    or game gets none. Raises as ``write_book`` does."""
    started = time.perf_counter()
    if vectors is None and not no_vectors:
        vectors = default_vectors_path(book, rules, against)
    targets = [book] if vectors is None else [book, vectors]
    check_targets(targets)  # before the solve, which can take seconds
    before = [fingerprint(path) for path in targets]
    data, vector_data = write_book(book, rules, vectors, against=against, progress=progress)
    contents = [data] if vector_data is None else [data, vector_data]
    return Written(
        book=book,
        book_bytes=len(data),
        gzipped_bytes=len(gzip.compress(data, 6)),  # gzip's default level: -9 is ten times slower
        vectors=vectors,
        vectors_bytes=len(vector_data or b""),
        written=tuple(
            written(path, old, new) for path, old, new in zip(targets, before, contents, strict=True)
        ),
        seconds=time.perf_counter() - started,
        rules=rules,
        against=against,
    )


def default_vectors_path(book: Path, rules: Rules, against: str = DEFAULT) -> Path | None:
    """Where the vectors go unless told: ``vectors.json`` beside the repository's book (3x3,
    ranked against the novice, named ``tictactoe.json``: ``make book``'s ``book/vectors.json``);
    None for any other (a 1.2 MB file nobody asked for beside a misère book or a copy: ``--vectors
    FILE`` asks for them)."""
    if book.name == BOOK_NAME and rules == Rules() and against == DEFAULT:
        return book.with_name("vectors.json")
    return None
