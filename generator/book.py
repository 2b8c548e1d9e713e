"""Turn a solution into the book: one entry per canonical unfinished position, as JSON bytes.

Format version 2 (docs/book-format.md): an entry is the string ``"<best> <tier> <tier> ..."``,
the best score and the optimal moves in trap order; readers derive every move's score from the
successors' entries.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson

from generator.atomic import check_targets, write_files
from generator.solve import Solution, solve
from generator.trap import TrapOrder, trap_order
from generator.vectors import build_vectors, encode_vectors
from player import record
from player.board import EMPTY, FIRST, SECOND, canonicalizer
from player.book import parse_book
from player.entry import entry_text
from player.format import CANONICAL_RULE, FORMAT_NAME, FORMAT_VERSION
from player.rules import Rules


def build_book(rules: Rules) -> dict[str, Any]:
    """Solve ``rules`` and return the book as plain JSON-ready data."""
    solution = solve(rules)
    return book_from(solution, trap_order(solution))


def book_from(solution: Solution, traps: TrapOrder) -> dict[str, Any]:
    """Assemble the book document from a solution and its (exact) trap order."""
    rules = solution.rules
    canonical = canonicalizer(rules)
    entries: dict[str, str] = {}
    for board, scores in solution.move_scores.items():
        key, _ = canonical(board)
        if key == board:
            entries[key] = entry_text(max(scores.values()), traps.tiers[key])
    canonical_finished = {canonical(board)[0] for board in solution.finished}
    counts = {
        "entries": len(entries),
        "positions": solution.reachable,
        "unfinished": len(solution.move_scores),
        "finished": len(solution.finished),
        "canonical_positions": len(entries) + len(canonical_finished),
        "canonical_finished": len(canonical_finished),
        "tree_nodes": solution.tree_nodes,
        "games": solution.games.total,
        "first_wins": solution.games.first_wins,
        "second_wins": solution.games.second_wins,
        "draws": solution.games.draws,
    }
    rates = {"first": _rates(traps.first_player_rates), "second": _rates(traps.second_player_rates)}
    return document(rules, entries, counts, {"method": "exact", "tolerance": "0"}, rates)


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


def _rates(rates: tuple[Fraction, Fraction]) -> dict[str, str]:
    """Exact win chances as ``"numerator/denominator"`` strings (no float formatting to drift)."""
    novice, random = rates
    return {
        "novice": f"{novice.numerator}/{novice.denominator}",
        "random": f"{random.numerator}/{random.denominator}",
    }


def encode(book: dict[str, Any]) -> bytes:
    """Deterministic bytes: keys sorted, compact, one trailing newline."""
    return orjson.dumps(book, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


def write_book(path: Path, rules: Rules, vectors_path: Path | None = None) -> tuple[bytes, bytes | None]:
    """Solve ``rules`` once; write the book to ``path`` and, if asked, the conformance vectors to
    ``vectors_path``, as one transaction (``generator.atomic.write_files``): both or neither.
    Returns the bytes written.

    The targets are checked before the solve, so a bad one fails at once. Raises
    ``generator.atomic.OutputError`` naming the file that could not be written, or ValueError if
    the two paths are the same file. A book larger than 1 MB is proven before it is written and
    then recorded as proven (``player.record``), so its first load skips the proof.
    """
    targets = [Path(path)] if vectors_path is None else [Path(path), Path(vectors_path)]
    check_targets(targets)
    solution = solve(rules)
    traps = trap_order(solution)
    book = book_from(solution, traps)
    data = encode(book)
    sha256 = prove_for_record(data, str(path))
    vectors = None if vectors_path is None else encode_vectors(build_vectors(solution, traps, data))
    files = {targets[0]: data}
    if vectors is not None:
        files[targets[1]] = vectors
    write_files(files)
    if sha256 is not None:
        record.remember(sha256)
    return data, vectors


def prove_for_record(data: bytes, source: str) -> str | None:
    """For a book larger than 1 MB: prove ``data`` (BookError if it does not prove: a bug in
    the writer) and return its digest, for ``record.remember`` once the file is written."""
    if len(data) <= record.RECORD_ABOVE:
        return None
    parse_book(data, source, rules=None)
    return record.digest(data)
