"""Books damaged in every entry (issue 41, item 3): each way once cost the Python reader 20 to 165
proofs of the valid book. One list for the two that read it: tests/test_proof_definition.py (the
proof's definition and its accelerator agree on each, and the definition runs for one entry) and
bench/measure_proofs.py (what refusing each costs, against proving the valid book).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tictactoe_book.game import EMPTY

#: A new entry string from an entry's key, best score and tiers (the text after the best score).
Change = Callable[[str, int, str], str]


def free_cells(key: str) -> str:
    """The free cells of ``key`` as one tier: ``0,1,5``."""
    return ",".join(str(cell) for cell, mark in enumerate(key) if mark == EMPTY)


#: The damage done to every entry, by name.
EVERYWHERE: dict[str, Change] = {
    "every entry's tiers every free cell": lambda key, best, tiers: f"{best} {free_cells(key)}",
    "every best score negated": lambda key, best, tiers: f"{-best} {tiers}",
    "every best score one more": lambda key, best, tiers: f"{best + 1} {tiers}",
    "every best score 100": lambda key, best, tiers: f"100 {tiers}",
    "every best score -100": lambda key, best, tiers: f"-100 {tiers}",
    "every best score 2^53 - 1": lambda key, best, tiers: f"{2**53 - 1} {tiers}",
    "every best score 63": lambda key, best, tiers: f"63 {tiers}",
    "every entry's tiers repeated": lambda key, best, tiers: f"{best} {tiers} {tiers}",
}
#: The damage of ``far_late``, by its name.
FAR_LATE = "bests of 100 from 5 marks on, listed last"


def every_entry(data: dict[str, Any], change: Change) -> dict[str, Any]:
    """A copy of the book ``data`` with each entry's string ``change(key, best, tiers)``."""
    damaged = copy.deepcopy(data)
    for key, text in data["entries"].items():
        best, _, tiers = text.partition(" ")
        damaged["entries"][key] = change(key, int(best), tiers)
    return damaged


def far_late(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of the book ``data`` with best scores beyond every move's on every entry of 5 marks
    or more, listed last in the file: their parents, listed first, all move onto them."""
    damaged = copy.deepcopy(data)
    entries = data["entries"]
    marks = {key: len(key) - key.count(EMPTY) for key in entries}
    damaged["entries"] = {
        key: f"100 {entries[key].partition(' ')[2]}" if marks[key] >= 5 else entries[key]
        for key in sorted(entries, key=marks.__getitem__)
    }
    return damaged


def damaged_books(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The book ``data`` damaged each way of ``EVERYWHERE``, then as ``far_late``, by name."""
    books = {name: every_entry(data, change) for name, change in EVERYWHERE.items()}
    return {**books, FAR_LATE: far_late(data)}
