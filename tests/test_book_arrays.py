"""The version-2 entry strings and members written from the arrays (generator/tictactoe_generator/writer.py),
against the format's examples, the shipped 3x3 book, and the format's own writer
(tictactoe_book.reader.entry_text, one entry at a time) on every 3x4 entry."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from tictactoe_book import Rules
from tictactoe_book.game import canonical
from tictactoe_book.reader import entry_text
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import Retrograde, solve
from tictactoe_generator.trap import TrapArrays, trap_arrays
from tictactoe_generator.writer import (
    counts_member,
    entry_strings,
    rate_text,
    trap_order_member,
    trap_rates_member,
)

ROOT = Path(__file__).resolve().parent.parent


def keyed(traps: TrapArrays) -> dict[str, int]:
    """Each canonical unfinished board and its row."""
    rows = traps.result.unfinished()
    return dict(zip(decode(traps.result.codes[rows], traps.result.rules.cells), rows.tolist(), strict=True))


def test_entry_strings_match_the_version_2_examples(exact: TrapArrays) -> None:
    entries = entry_strings(exact)
    assert entries["........."] == "0 0,2,6,8 1,3,5,7 4"
    assert entries["........X"] == "0 4"
    assert entries[".......OX"] == "5 2,4,5"


def test_entry_strings_and_members_are_the_shipped_books(exact: TrapArrays) -> None:
    shipped = orjson.loads((ROOT / "book" / "tictactoe.json").read_bytes())
    assert entry_strings(exact) == shipped["entries"]
    assert counts_member(exact.result) == shipped["counts"]
    assert trap_rates_member(exact) == shipped["trap_rates"]
    assert trap_order_member(exact) == shipped["trap_order"] == {"method": "exact", "tolerance": "0"}


def test_3x4_entry_strings_as_the_format_writes_them() -> None:
    retro_3x4 = solve(Rules(3, 4, 3))
    traps = trap_arrays(retro_3x4)
    entries = entry_strings(traps)
    rows = keyed(traps)
    assert len(entries) == len(rows) == retro_3x4.counts.canonical_unfinished
    for key, row in rows.items():
        assert entries[key] == entry_text(int(retro_3x4.best[row]), traps.tiers(row)), key
        assert canonical(retro_3x4.rules, key)[0] == key


def test_float_books_say_so(retro: Retrograde) -> None:
    traps = trap_arrays(retro, method="float")
    assert trap_order_member(traps) == {"method": "float", "tolerance": "1e-9"}
    assert trap_rates_member(traps) == {
        "first": {"novice": "0.927083333333", "random": "0.986979166667"},
        "second": {"novice": "0.260317460317", "random": "0.793650793651"},
    }


@pytest.mark.parametrize(
    ("rate", "text"),
    [
        (Fraction(89, 96), "89/96"),
        (Fraction(1), "1/1"),
        (Fraction(0), "0/1"),
        (0.9270833333333334, "0.927083333333"),
        (1.0, "1"),
        (0.0, "0"),
        (1 / 3 * 1e-7, "0.0000000333333333333"),
    ],
    ids=str,
)
def test_rate_text(rate: Fraction | float, text: str) -> None:
    assert rate_text(rate) == text
