"""The proof over whole runs of entries, against an independent judge: damaged books (one or
two entries damaged in different layers, best scores beyond every move's, tiers repeating or
holding occupied cells) give the reason code of tests/oracles/book_oracle.py and name the first
entry in file order that fails that step, as the judge finds it; and the proof cut into runs of
every size (``reader.PROGRESS_ENTRIES``) gives the same finding to the letter.

The 3x3 book has 9 layers; the 3x3 misère book and a 2x3 book with k = 2 are damaged the same
way, and the 3x4 book (20,088 entries, 5 runs of 4,096) a few ways.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from oracles import book_oracle

from tictactoe_book import BookError, Rules, reader
from tictactoe_book.game import EMPTY, transform
from tictactoe_generator.writer import build_book, encode

ROOT = Path(__file__).resolve().parent.parent
BOOKS = {
    "3x3": json.loads((ROOT / "book" / "tictactoe.json").read_bytes()),
    "3x3 misere": json.loads((ROOT / "book" / "tictactoe-misere.json").read_bytes()),
    "2x3 k=2": build_book(Rules(2, 3, 2)),
}


def layers(data: dict[str, Any]) -> dict[int, list[str]]:
    """The keys by their number of marks."""
    found: dict[int, list[str]] = {}
    for key in data["entries"]:
        found.setdefault(len(key) - key.count(EMPTY), []).append(key)
    return found


def rules_of(data: dict[str, Any]) -> Rules:
    stated = data["rules"]
    return Rules(stated["rows"], stated["cols"], stated["k"], stated["misere"])


def damaged(kind: str, marks: int, rng: random.Random, data: dict[str, Any]) -> None:
    """One kind of damage to an entry of the layer of ``marks`` marks (or the nearest), in place."""
    entries = data["entries"]
    by_marks = layers(data)
    key = rng.choice(by_marks[min(by_marks, key=lambda m: abs(m - marks))])
    best, _, tiers = entries[key].partition(" ")
    cells = tiers.replace(" ", ",").split(",")
    if kind == "best":  # step 15
        entries[key] = f"{int(best) + 1} {tiers}"
    elif kind == "far":  # step 15: a best score beyond every move's, and so its parents' moves
        entries[key] = f"{rng.choice([63, 64, -63, -64, 100, -(2**53 - 1), 2**53 - 1])} {tiers}"
    elif kind == "near":  # within a move of the bytes' reach
        entries[key] = f"{rng.choice([61, 62, -61, -62])} {tiers}"
    elif kind == "tiers":  # step 15: a non-optimal move added (or a cell off the board)
        others = [str(cell) for cell, mark in enumerate(key) if mark == EMPTY and str(cell) not in cells]
        entries[key] = f"{best} {tiers},{others[0]}" if others else f"{best} {tiers} 0"
    elif kind == "twice":  # step 15: a cell in two tiers
        entries[key] = f"{best} {tiers} {cells[0]}"
    elif kind == "occupied":  # step 15: a tier on an occupied cell
        taken = [cell for cell, mark in enumerate(key) if mark != EMPTY]
        entries[key] = f"{best} {tiers} {taken[0]}" if taken else f"{best} {tiers}"
    elif kind == "missing":  # step 14 (the counts follow, or step 11 would fail first)
        del entries[key]
        data["counts"]["entries"] -= 1
    elif kind == "shape":  # step 13
        entries[key] = entries[key] + " "
    elif kind == "canonical":  # step 12: the key moved to an image that is not canonical
        images = {transform(key, symmetry) for symmetry in rules_of(data).symmetries} - {key}
        if images:
            entries[max(images)] = entries.pop(key)
    elif kind == "counts":  # step 12: X and O swapped
        entries[key.translate(str.maketrans("XO", "OX"))] = entries.pop(key)
    else:
        raise AssertionError(kind)


KINDS = ("best", "far", "near", "tiers", "twice", "occupied", "missing", "shape", "canonical", "counts")
CASES = [[(kind, marks)] for kind in KINDS for marks in (0, 1, 3, 5, 7)] + [
    [("missing", 6), ("best", 2)],
    [("best", 6), ("missing", 2)],
    [("canonical", 2), ("missing", 6)],
    [("canonical", 6), ("canonical", 2)],
    [("tiers", 5), ("tiers", 5)],
    [("shape", 6), ("best", 1)],
    [("missing", 4), ("missing", 4)],
    [("far", 6), ("far", 2)],
    [("far", 2), ("best", 6)],
    [("near", 4), ("far", 5)],
    [("twice", 3), ("occupied", 1)],
]


def broken(book: str, damage: list[tuple[str, int]]) -> dict[str, Any]:
    rng = random.Random(f"{book} {damage}")
    data = copy.deepcopy(BOOKS[book])
    for kind, marks in damage:
        damaged(kind, marks, rng, data)
    return data


def verdict(data: dict[str, Any]) -> tuple[str, str]:
    """``(code, message)`` of the proof's refusal, or ``("valid", "")``."""
    try:
        reader.prove(data, "<book>", None)
    except BookError as error:
        return error.code, str(error)
    return "valid", ""


def named(code: str, key: str | None) -> str:
    """What the message of ``code`` says when it names the entry ``key``."""
    if key is None:
        return "has no entry for the empty board" if code == "missing-entry" else ""
    return {
        "entry-key": f"has entry key {key!r}",
        "entry-shape": f": entry {key!r}: ",
        "missing-entry": f", the successor of {key!r} by cell ",
        "entry-inconsistent": f": entry {key!r}: ",
    }[code]


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("damage", [[], *CASES], ids=str)
def test_the_finding_is_the_judges_and_names_the_first_failing_entry(
    book: str, damage: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = broken(book, damage)
    code, key = book_oracle.first_failing(json.dumps(data).encode())
    found = verdict(data)
    assert found[0] == code
    assert named(code, key) in found[1], found[1]
    for run in (1, 7, 100):
        monkeypatch.setattr(reader, "PROGRESS_ENTRIES", run)
        assert verdict(data) == found, run


def test_a_big_book_in_runs_names_the_first_failing_entry() -> None:
    """The 3x4 book, 20,088 entries: five runs of 4,096, each run's X-to-move and O-to-move
    entries taken apart; damaged in its first and last runs and in its deepest layer."""
    rules = Rules(3, 4, 3)
    base = build_book(rules)
    rng = random.Random(34)
    keys = list(base["entries"])
    for damage in [[("far", 11)], [("best", 1), ("best", 10)], [("missing", 10)], [("twice", 9)]]:
        data = copy.deepcopy(base)
        for kind, marks in damage:
            damaged(kind, marks, rng, data)
        code, key = book_oracle.first_failing(encode(data))
        found = verdict(data)
        assert found[0] == code and named(code, key) in found[1], (damage, found)
    data = copy.deepcopy(base)
    for key in (keys[0], keys[-1], keys[5000]):  # each made a best score too high
        best, _, tiers = data["entries"][key].partition(" ")
        data["entries"][key] = f"{int(best) + 2} {tiers}"
    assert verdict(data) == ("entry-inconsistent", verdict(data)[1])
    assert f": entry {keys[0]!r}: " in verdict(data)[1]
