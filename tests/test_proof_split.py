"""The proof in two processes (player/proof_split.py) against the proof in one, and Ctrl-C
while the two run.

Broken books (the 3x3 book, small enough to prove in milliseconds, and its 9 layers), one or
two entries damaged in different layers, are proven in one process and then in two, split at
every layer boundary and inside every layer: the verdict must be the same to the letter, the
reason code, the entry named and the best scores of a book that proves. The one-process
verdict is checked against the independent judge (tests/book_oracle.py).
"""

from __future__ import annotations

import copy
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import book_oracle
import pytest

from player import bookjson, proof, proof_split
from player.board import EMPTY, transform
from player.errors import BookError
from player.rules import Rules

RULES = Rules(3, 3, 3)
RAW = (Path(__file__).resolve().parent.parent / "book" / "tictactoe.json").read_bytes()
DATA = bookjson.parse(RAW, "<3x3>")
KEYS_BY_LAYER: dict[int, list[str]] = {}
for _key in DATA["entries"]:
    KEYS_BY_LAYER.setdefault(RULES.cells - _key.count(EMPTY), []).append(_key)


def damaged(kind: str, marks: int, rng: random.Random, data: dict[str, Any]) -> None:
    """One kind of damage to an entry of the layer of ``marks`` marks, in place."""
    entries = data["entries"]
    key = rng.choice(KEYS_BY_LAYER[marks])
    if kind == "best":  # step 15
        best, _, tiers = entries[key].partition(" ")
        entries[key] = f"{int(best) + 1} {tiers}"
    elif kind == "tiers":  # step 15: the last optimal move dropped, or a non-optimal one added
        best, _, tiers = entries[key].partition(" ")
        cells = tiers.replace(" ", ",").split(",")
        others = [str(cell) for cell, mark in enumerate(key) if mark == EMPTY and str(cell) not in cells]
        entries[key] = f"{best} {tiers},{others[0]}" if others else f"{best} {tiers} 0"
    elif kind == "missing":  # step 14 (the counts follow, or step 11 would fail first)
        del entries[key]
        data["counts"]["entries"] -= 1
    elif kind == "shape":  # step 13
        entries[key] = entries[key] + " "
    elif kind == "canonical":  # step 12: the key moved to an image that is not canonical
        images = {transform(key, symmetry) for symmetry in RULES.symmetries} - {key}
        if not images:
            return
        entries[max(images)] = entries.pop(key)
    else:
        raise AssertionError(kind)


def verdict(data: dict[str, Any]) -> tuple[str, str] | dict[str, int]:
    """``(code, message)`` of the proof's refusal, or the best scores of a book that proves."""
    try:
        return proof.prove(data, "<3x3>", None).bests
    except BookError as error:
        return error.code, str(error)


def split_points() -> list[tuple[int, int]]:
    """Every layer boundary, and a point inside each layer."""
    points = []
    for layer in range(RULES.cells - 1):
        size = len(KEYS_BY_LAYER.get(layer, []))
        points += [(layer, 0), (layer, size // 2)]
    return points


CASES = [
    [(kind, marks)] for kind in ("best", "tiers", "missing", "shape", "canonical") for marks in (1, 3, 5, 7)
] + [
    [("missing", 6), ("best", 2)],
    [("best", 6), ("missing", 2)],
    [("canonical", 2), ("missing", 6)],
    [("canonical", 6), ("canonical", 2)],
    [("tiers", 5), ("tiers", 5)],
    [("shape", 6), ("best", 1)],
    [("missing", 4), ("missing", 4)],
]


@pytest.mark.parametrize("damage", [[], *CASES], ids=str)
def test_two_processes_give_the_one_process_verdict(
    damage: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(str(damage))
    data = copy.deepcopy(DATA)
    for kind, marks in damage:
        damaged(kind, marks, rng, data)
    alone = verdict(data)
    raw = json.dumps(data).encode()
    assert (alone if isinstance(alone, tuple) else ("valid",))[0] == book_oracle.judge(raw)
    monkeypatch.setattr(proof, "SPLIT_ABOVE", 0)
    for point in split_points():
        monkeypatch.setattr(proof_split, "split_point", lambda sizes, point=point: point)
        assert verdict(data) == alone, point


def test_a_child_that_dies_leaves_its_layers_to_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(DATA)
    damaged("best", 4, random.Random(4), data)
    alone = verdict(data)
    monkeypatch.setattr(proof, "SPLIT_ABOVE", 0)
    monkeypatch.setattr(proof_split, "_child", lambda send, *args: send.close())  # answers nothing
    assert verdict(data) == alone
    assert verdict(copy.deepcopy(DATA)) == proof.prove(DATA, "<3x3>", None).bests


def test_the_split_point_balances_the_work_and_splits_only_books_of_layers() -> None:
    sizes = [
        1,
        3,
        33,
        219,
        1413,
        5514,
        20122,
        49935,
        111737,
        174568,
        238920,
        225404,
        177276,
        89454,
        33900,
        6715,
    ]
    point = proof_split.split_point(sizes)
    assert point is not None
    layer, moved = point
    assert 0 <= moved <= sizes[layer]
    image, lookup = proof_split.IMAGE_COST, proof_split.LOOKUP_COST
    check = [image + lookup * (16 - marks) for marks in range(16)]  # a key's work by its marks
    child = (
        sum(n * c for n, c in zip(sizes[layer + 1 :], check[layer + 1 :], strict=True)) + moved * check[layer]
    )
    parent = (
        sum(n * c for n, c in zip(sizes[:layer], check[:layer], strict=True))
        + (sizes[layer] - moved) * check[layer]
        + image * (sizes[layer + 1] + moved)
    )
    assert abs(child - parent) <= 2 * check[layer]  # balanced to a key
    assert proof_split.split_point([1]) is None


#: ``ttt-book verify`` of the 3x3 book, its proof forced into two processes and the child's half
#: made to take a minute, so that Ctrl-C comes while both run.
SLOW_CHILD = """
import sys, time
from player import proof, proof_split
proof.SPLIT_ABOVE = 0
checked = proof_split._check_upper
def slowly(*args):
    time.sleep(60)
    return checked(*args)
proof_split._check_upper = slowly
sys.argv = ["ttt-book", "verify", sys.argv[1]]
from generator.cli import run
run()
"""


def test_ctrl_c_while_two_processes_prove_is_one_line_and_leaves_no_process(tmp_path: Path) -> None:
    book = Path(__file__).resolve().parent.parent / "book" / "tictactoe.json"
    started = subprocess.Popen(
        [sys.executable, "-c", SLOW_CHILD, str(book)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, which Ctrl-C on a terminal signals whole
        env={**os.environ, "TTT_PROVEN_RECORD": ""},
    )
    time.sleep(3)  # the child is sleeping in its half, the parent waits for its answer
    group = ["pgrep", "-g", str(started.pid)]
    children = subprocess.run(
        ["pgrep", "-P", str(started.pid)], capture_output=True, text=True
    ).stdout.split()
    assert len(children) == 1, children  # the proof's child
    child = int(children[0])
    os.kill(child, signal.SIGINT)  # what the child gets of a Ctrl-C: it must let it pass
    time.sleep(1)
    assert running(child)
    os.killpg(started.pid, signal.SIGINT)  # the whole Ctrl-C
    _, err = started.communicate(timeout=30)
    assert started.returncode == 130
    assert err.strip() == "Interrupted.", err  # one line; the child says nothing, no traceback
    time.sleep(0.5)
    assert subprocess.run(group, capture_output=True).returncode == 1  # none left


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
