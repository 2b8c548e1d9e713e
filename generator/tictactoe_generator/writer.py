"""The writer: a solve's arrays turned into the book, its bytes, and the files ``ttt-book build``
writes (docs/book-format.md, format version 2).

An entry is the string ``"<best> <tier> <tier> ..."``: the best score, then the optimal moves in
trap order, best tier first, cells increasing within a tier, single spaces between tiers and
commas within (``".........": "0 0,2,6,8 1,3,5,7 4"``); readers derive every move's score from
the successors' entries. A 4x4 book has over a million entries, so the strings are formatted
with arrays, all at once (``_entry_texts``). The bytes are deterministic (keys sorted, one
trailing newline) and written atomically with the conformance vectors, both or neither.
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson

import tictactoe_book.trust as trust
from tictactoe_book.errors import BookTooLarge
from tictactoe_book.game import EMPTY, FIRST, MAX_CELLS, SECOND, Rules
from tictactoe_book.opponents import DEFAULT
from tictactoe_book.reader import (
    BOOK_NAME,
    CANONICAL_RULE,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_BOOK_BYTES,
    Book,
    parse_book,
)
from tictactoe_generator.atomic import check_targets, fingerprint, write_files, written
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import Progress, Retrograde, solve
from tictactoe_generator.trap import TOLERANCE_TEXT, Rate, TrapArrays, trap_arrays
from tictactoe_generator.vectors import build_vectors, encode_vectors

# ---------------------------------------------------------------- the document


def build_book(rules: Rules, *, against: str = DEFAULT, progress: Progress | None = None) -> dict[str, Any]:
    """Solve ``rules`` and return the book as plain JSON-ready data: what ``ttt-book build``
    writes. ``progress`` is the solver's (generator/tictactoe_generator/solve.py)."""
    return book_document(solve_arrays(rules, against=against, progress=progress))


def solve_arrays(rules: Rules, *, against: str = DEFAULT, progress: Progress | None = None) -> TrapArrays:
    """Every position of ``rules`` (misère or not) solved, and its optimal moves in trap order
    ranked against ``against`` first."""
    return trap_arrays(solve(rules, progress=progress), against=against, progress=progress)


def ranked_against(rules: Rules, against: str) -> Book:
    """The book of ``rules`` ranked against ``against``, built and proven in memory."""
    return parse_book(
        encode(build_book(rules, against=against)), f"the {rules} book ranked against {against}"
    )


def book_document(traps: TrapArrays) -> dict[str, Any]:
    """The book document of a solve and its trap order."""
    result = traps.result
    rules = result.rules
    return document(
        rules,
        entry_strings(traps),
        counts_member(result),
        trap_order_member(traps),
        trap_rates_member(traps),
    )


def document(
    rules: Rules,
    entries: dict[str, str],
    counts: dict[str, int],
    trap_order: dict[str, str],
    trap_rates: dict[str, dict[str, str]],
) -> dict[str, Any]:
    """The book document around its entry strings: the members every book has, the derived
    tables written out (readers compare them with their own), and the informational members
    as given (``counts`` must hold ``entries``)."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rules": {
            **rules.as_json(),
            "cells": rules.cells,
            "first": FIRST,
            "second": SECOND,
            "empty": EMPTY,
            "lines": [list(line) for line in rules.lines],
        },
        "symmetries": [{"name": s.name, "perm": list(s.perm)} for s in rules.symmetries],
        "canonical": CANONICAL_RULE,
        "counts": counts,
        "trap_order": trap_order,
        "trap_rates": trap_rates,
        "entries": entries,
    }


def encode(book: dict[str, Any]) -> bytes:
    """Deterministic bytes: keys sorted, compact, one trailing newline."""
    return orjson.dumps(book, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


def entry_strings(traps: TrapArrays) -> dict[str, str]:
    """Every canonical unfinished position's key and entry string, in row order."""
    result = traps.result
    cells = result.rules.cells
    rows = result.unfinished()
    keys = decode(result.codes[rows], cells)
    return dict(zip(keys, _entry_texts(result.best[rows], traps.tier[rows]), strict=True))


def _entry_texts(best: npt.NDArray[np.int8], tier: npt.NDArray[np.int8]) -> list[str]:
    """The entry string of each row of scores and tiers (``TrapArrays.tier``: -1 off the tiers).

    Formatted for all rows at once: each row's characters are laid out in a fixed-width byte
    matrix (the score in 4 places, then 3 per cell: two digits and the separator after it), the
    unused places left 0; dropping the zeros joins the rows with the newline that ends each
    one, and a single decode and split gives the strings.
    """
    rows, cells = tier.shape
    # each row's optimal moves by tier, then cell, the other cells last: sorting the values
    # ``tier * cells + cell`` (a sort of values is several times faster than an argsort)
    key = tier.astype(np.int16) * cells + np.arange(cells, dtype=np.int16)
    key[tier < 0] = cells * cells
    key.sort(axis=1)
    order = (key % cells).astype(np.uint8)
    ranked = np.where(key < cells * cells, key // cells, -1)
    following = np.full_like(ranked, -1)
    following[:, :-1] = ranked[:, 1:]
    separator = np.where(following == ranked, np.uint8(_COMMA), np.uint8(_SPACE))
    separator[following < 0] = _NEWLINE
    used = ranked >= 0
    layout = np.zeros((rows, _SCORE_WIDTH + 3 * cells), dtype=np.uint8)
    layout[:, :_SCORE_WIDTH] = _SCORE_TEXTS[best.astype(np.int64) - _SCORE_MIN]
    layout[:, _SCORE_WIDTH::3] = _TENS[order] * used
    layout[:, _SCORE_WIDTH + 1 :: 3] = _ONES[order] * used
    layout[:, _SCORE_WIDTH + 2 :: 3] = separator * used
    flat = layout.ravel()
    text: str = flat[flat != 0].tobytes().decode("ascii")
    return text.split("\n")[:-1]


_COMMA, _SPACE, _NEWLINE = (ord(c) for c in ", \n")
#: A cell's two digits as bytes (a leading 0 byte for cells 0 to 9: dropped with the padding).
_TENS = np.array([ord(f"{c:2d}"[0]) if c >= 10 else 0 for c in range(MAX_CELLS)], dtype=np.uint8)
_ONES = np.array([ord(f"{c:2d}"[1]) for c in range(MAX_CELLS)], dtype=np.uint8)
assert MAX_CELLS <= 100
#: Every score a position can have (|score| <= MAX_CELLS + 1), as up to three characters and a
#: space, padded with zeros to _SCORE_WIDTH bytes: row ``score - _SCORE_MIN``.
_SCORE_MIN = -(MAX_CELLS + 1)
_SCORE_WIDTH = 4
_SCORE_TEXTS = np.array(
    [list(f"{score} ".encode().ljust(_SCORE_WIDTH, b"\0")) for score in range(_SCORE_MIN, MAX_CELLS + 2)],
    dtype=np.uint8,
)


def trap_order_member(traps: TrapArrays) -> dict[str, str]:
    """The ``trap_order`` member: how the chances were computed, the tie tolerance, and (when it
    is not the default opponent) the opponent the tiers are ranked against first."""
    member = {"method": traps.method, "tolerance": "0" if traps.method == "exact" else TOLERANCE_TEXT}
    if traps.against != DEFAULT:
        member["against"] = traps.against
    return member


def trap_rates_member(traps: TrapArrays) -> dict[str, dict[str, str]]:
    """The ``trap_rates`` member: the policy's chances of winning from the empty board."""
    return {
        side: {name: rate_text(rate) for name, rate in rates.items()}
        for side, rates in (("first", traps.first_player_rates), ("second", traps.second_player_rates))
    }


def rate_text(rate: Rate) -> str:
    """An exact chance as ``"n/d"``; a float one as a decimal with 12 significant digits
    (``"0.927083333333"``), never in exponent notation."""
    if isinstance(rate, Fraction):
        return f"{rate.numerator}/{rate.denominator}"
    return np.format_float_positional(rate, precision=12, unique=False, fractional=False, trim="-")


def counts_member(result: Retrograde) -> dict[str, Any]:
    """The informational ``counts`` member (docs/book-format.md, "The document")."""
    counts = result.counts
    return {
        "entries": counts.canonical_unfinished,
        "positions": counts.reachable,
        "unfinished": counts.unfinished,
        "finished": counts.finished,
        "canonical_positions": counts.canonical,
        "canonical_finished": counts.canonical_finished,
        "tree_nodes": counts.tree_nodes,
        "games": counts.games.total,
        "first_wins": counts.games.first_wins,
        "second_wins": counts.games.second_wins,
        "draws": counts.games.draws,
    }


# ---------------------------------------------------------------- the files


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
    vectors to ``vectors`` (unless ``no_vectors``; by default, for a 3x3 board only, normal or
    misère and either ranking, to ``default_vectors_path``), and what was written. Raises as
    ``write_book`` does."""
    started = time.perf_counter()
    if vectors is None and not no_vectors and rules.rows == rules.cols == 3:
        vectors = default_vectors_path(book)
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


def default_vectors_path(book: Path) -> Path:
    """Where the vectors go unless told: ``vectors.json`` beside a book named ``tictactoe.json``
    (the repository's layout), else ``NAME.vectors.json`` beside ``NAME.json``, so that building
    another book never replaces a vectors file that belongs to a different one."""
    if book.name == BOOK_NAME:
        return book.with_name("vectors.json")
    stem = book.name.removesuffix(".json") or book.name
    return book.with_name(f"{stem}.vectors.json")
