"""The writer: a solve's arrays turned into the book and its bytes (docs/book-format.md,
format version 2); tictactoe_generator.build writes them, with the vectors, as ``ttt-book
build``'s files.

An entry is the string ``"<best> <tier> <tier> ..."``: the best score, then the optimal moves in
trap order, best tier first, cells increasing within a tier, single spaces between tiers and
commas within (``".........": "0 0,2,6,8 1,3,5,7 4"``); readers derive every move's score from
the successors' entries. A 4x4 book has over a million entries, so the strings are formatted
with arrays, all at once (``entry_texts``). The bytes are deterministic (keys sorted, one
trailing newline).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import orjson

from tictactoe_book.game import EMPTY, FIRST, SECOND, Rules
from tictactoe_book.opponents import DEFAULT
from tictactoe_book.reader import (
    CANONICAL_RULE,
    FORMAT_NAME,
    FORMAT_VERSION,
    Book,
    parse_book,
)
from tictactoe_generator.codes import decode
from tictactoe_generator.entry_text import entry_texts
from tictactoe_generator.solve import Counts, Progress, Retrograde, solve
from tictactoe_generator.trap import TOLERANCE_TEXT, Method, Rate, TrapArrays, trap_arrays

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
    return dict(zip(keys, entry_texts(result.best[rows], traps.tier[rows]), strict=True))


def trap_order_member(traps: TrapArrays) -> dict[str, str]:
    """The ``trap_order`` member: how the chances were computed, the tie tolerance, and (when it
    is not the default opponent) the opponent the tiers are ranked against first."""
    return order_member(traps.method, traps.against)


def order_member(method: Method, against: str) -> dict[str, str]:
    """The ``trap_order`` member of a book whose chances were computed by ``method``, ranked
    against ``against`` first."""
    member = {"method": method, "tolerance": "0" if method == "exact" else TOLERANCE_TEXT}
    if against != DEFAULT:
        member["against"] = against
    return member


def trap_rates_member(traps: TrapArrays) -> dict[str, dict[str, str]]:
    """The ``trap_rates`` member: the policy's chances of winning from the empty board."""
    return rates_member(traps.first_player_rates, traps.second_player_rates)


def rates_member(first: dict[str, Rate], second: dict[str, Rate]) -> dict[str, dict[str, str]]:
    """The ``trap_rates`` member from the chances of the book moving first and second."""
    return {
        side: {name: rate_text(rate) for name, rate in rates.items()}
        for side, rates in (("first", first), ("second", second))
    }


def rate_text(rate: Rate) -> str:
    """An exact chance as ``"n/d"``; a float one as a decimal with 12 significant digits
    (``"0.927083333333"``), never in exponent notation."""
    if isinstance(rate, Fraction):
        return f"{rate.numerator}/{rate.denominator}"
    return np.format_float_positional(rate, precision=12, unique=False, fractional=False, trim="-")


def counts_member(result: Retrograde) -> dict[str, Any]:
    """The informational ``counts`` member (docs/book-format.md, "The document")."""
    return counts_of(result.counts)


#: The largest integer strict JSON holds (RFC 7493, I-JSON; docs/book-format.md).
MAX_JSON_INTEGER = 2**53 - 1


def counts_of(counts: Counts) -> dict[str, Any]:
    """The ``counts`` member stating ``counts``; a count past MAX_JSON_INTEGER (the games and
    the game-tree nodes of 4x5) as the string of its decimal digits, which strict JSON holds."""
    stated = {
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
    return {name: count if count <= MAX_JSON_INTEGER else str(count) for name, count in stated.items()}
