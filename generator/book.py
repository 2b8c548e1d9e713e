"""Turn a solution into the book: one entry per canonical unfinished position, as JSON bytes."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson

from generator.atomic import check_targets, write_files
from generator.solve import Solution, solve
from generator.trap import TrapOrder, trap_order
from generator.vectors import build_vectors, encode_vectors
from player.board import EMPTY, FIRST, SECOND, canonicalizer, side_to_move
from player.format import FORMAT_NAME, FORMAT_VERSION
from player.rules import Rules
from player.score import decode_score


def build_book(rules: Rules) -> dict[str, Any]:
    """Solve ``rules`` and return the book as plain JSON-ready data."""
    solution = solve(rules)
    return book_from(solution, trap_order(solution))


def book_from(solution: Solution, traps: TrapOrder) -> dict[str, Any]:
    """Assemble the book document from a solution and its trap order."""
    rules = solution.rules
    canonical = canonicalizer(rules)
    entries: dict[str, Any] = {}
    for board, scores in solution.move_scores.items():
        key, _ = canonical(board)
        if key != board:
            continue
        value, plies = decode_score(max(scores.values()), board.count(EMPTY), rules.cells)
        entries[key] = {
            "turn": side_to_move(key),
            "value": value,
            "plies": plies,
            "scores": [scores.get(cell) for cell in range(rules.cells)],
            "tiers": [list(tier) for tier in traps.tiers[key]],
        }
    canonical_finished = {canonical(board)[0] for board in solution.finished}
    book: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rules": {
            "rows": rules.rows,
            "cols": rules.cols,
            "k": rules.k,
            "cells": rules.cells,
            "first": FIRST,
            "second": SECOND,
            "empty": EMPTY,
            "lines": [list(line) for line in rules.lines],
        },
        "symmetries": [{"name": s.name, "perm": list(s.perm)} for s in rules.symmetries],
        "canonical": "min-image",
        "counts": {
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
        },
        "trap_rates": {
            "first": _rates(traps.first_player_rates),
            "second": _rates(traps.second_player_rates),
        },
        "entries": entries,
    }
    return book


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
    the two paths are the same file.
    """
    targets = [Path(path)] if vectors_path is None else [Path(path), Path(vectors_path)]
    check_targets(targets)
    solution = solve(rules)
    traps = trap_order(solution)
    book = book_from(solution, traps)
    data = encode(book)
    vectors = None if vectors_path is None else encode_vectors(build_vectors(solution, traps, data))
    files = {targets[0]: data}
    if vectors is not None:
        files[targets[1]] = vectors
    write_files(files)
    return data, vectors
