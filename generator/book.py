"""Turn a solution into the book: one entry per canonical unfinished position, as JSON bytes.

Format version 2 (docs/book-format.md): an entry is the string ``"<best> <tier> <tier> ..."``,
the best score and the optimal moves in trap order; readers derive every move's score from the
successors' entries.

``ttt-book build`` solves with arrays, for every board up to 16 cells and misère rules too
(generator/solve.py, generator/trap.py, generator/book_arrays.py: numpy, imported
only when a book is built, so the other commands run without it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from generator.atomic import check_targets, write_files
from generator.vectors import VECTORS_MAX_CELLS, build_vectors, encode_vectors
from player import record
from player.board import EMPTY, FIRST, SECOND
from player.book import parse_book
from player.format import CANONICAL_RULE, FORMAT_NAME, FORMAT_VERSION
from player.rules import Rules

if TYPE_CHECKING:  # numpy modules, imported where a book is built
    from collections.abc import Callable

    from generator.solve import Progress
    from generator.trap import TrapArrays


def build_book(rules: Rules, *, progress: Progress | None = None) -> dict[str, Any]:
    """Solve ``rules`` and return the book as plain JSON-ready data: what ``ttt-book build``
    writes. ``progress`` is the solver's (generator/solve.py)."""
    return book_from_arrays(solve_arrays(rules, progress=progress))


def solve_arrays(rules: Rules, *, progress: Progress | None = None) -> TrapArrays:
    """Every position of ``rules`` (misère or not) solved and its optimal moves in trap order.

    Raises ``BuildToolMissing`` if numpy, a build-time tool, is not installed."""
    try:
        from generator import solve
        from generator.trap import trap_arrays
    except ModuleNotFoundError as error:
        if error.name != "numpy":
            raise
        raise BuildToolMissing(
            "building a book needs numpy, a build-time tool: pip install 'tictactoe-book[build]'"
        ) from None
    result = solve.solve(rules, misere=rules.misere, progress=progress)
    return trap_arrays(result, progress=progress)


class BuildToolMissing(RuntimeError):
    """A tool the build needs (numpy) is not installed."""


def book_from_arrays(traps: TrapArrays) -> dict[str, Any]:
    """Assemble the book document from a retrograde result and its trap order."""
    from generator.book_arrays import counts_member, entry_strings, trap_order_member, trap_rates_member

    result = traps.result
    base = result.rules
    rules = Rules(base.rows, base.cols, base.k, misere=result.misere)
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
            "rows": rules.rows,
            "cols": rules.cols,
            "k": rules.k,
            "misere": rules.misere,
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


def write_book(
    path: Path,
    rules: Rules,
    vectors_path: Path | None = None,
    *,
    progress: Progress | None = None,
    on_encoded: Callable[[bytes], object] | None = None,
) -> tuple[bytes, bytes | None]:
    """Solve ``rules`` once; write the book to ``path`` and, if asked, the conformance vectors to
    ``vectors_path``, as one transaction (``generator.atomic.write_files``): both or neither.
    Returns the bytes written.

    The targets are checked before the solve, so a bad one fails at once. Raises
    ``generator.atomic.OutputError`` naming the file that could not be written, ValueError if
    the two paths are the same file or vectors are asked for rules that have none (misère, or
    over VECTORS_MAX_CELLS cells: the vectors list every board), and ``BuildToolMissing``
    without numpy. A book larger than 1 MB is proven before it is written and then recorded as
    proven (``player.record``), so its first load skips the proof. ``on_encoded`` is called
    with the book's bytes as soon as they are encoded, before that proof.
    """
    targets = [Path(path)] if vectors_path is None else [Path(path), Path(vectors_path)]
    check_targets(targets)
    if vectors_path is not None and not has_vectors(rules):
        raise ValueError(f"{rules}: conformance vectors are written for normal rules of at most 12 cells")
    traps = solve_arrays(rules, progress=progress)
    data = encode(book_from_arrays(traps))
    if on_encoded is not None:
        on_encoded(data)
    sha256 = prove_for_record(data, str(path))
    vectors = None
    if vectors_path is not None:
        vectors = encode_vectors(build_vectors(traps, data))
    files = {targets[0]: data}
    if vectors is not None:
        files[targets[1]] = vectors
    write_files(files)
    if sha256 is not None:
        record.remember(sha256)
    return data, vectors


def has_vectors(rules: Rules) -> bool:
    """Whether ``write_book`` can write conformance vectors for ``rules``: they list every
    reachable board (generator/vectors.py), so normal rules of at most VECTORS_MAX_CELLS cells."""
    return not rules.misere and rules.cells <= VECTORS_MAX_CELLS


def prove_for_record(data: bytes, source: str) -> str | None:
    """For a book larger than 1 MB: prove ``data`` (BookError if it does not prove: a bug in
    the writer) and return its digest, for ``record.remember`` once the file is written."""
    if len(data) <= record.RECORD_ABOVE:
        return None
    parse_book(data, source, rules=None)
    return record.digest(data)
