"""The proof in spans and in a pool of processes against the proof in one piece, and what
becomes of the pool's workers when the proof is interrupted or its process killed.

Broken books (the 3x3 book, small enough to prove in milliseconds, and its 9 layers), one or
two entries damaged in different layers, are proven in one span and then cut into two at every
layer boundary and inside every layer: the finding must be the same to the letter, the reason
code and the entry named. The one-piece verdict's code is checked against the independent
judge (tests/oracles/book_oracle.py). A pool of two and of three workers gives the same verdicts.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from oracles import book_oracle

from tictactoe_book import BookError, Rules, reader
from tictactoe_book.game import EMPTY, transform

RULES = Rules(3, 3, 3)
ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
DATA = reader.parse_json(RAW, "<3x3>")
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


def verdict(data: dict[str, Any], workers: int = 1) -> tuple[str, str]:
    """``(code, message)`` of the proof's refusal, or ``("valid", "")``."""
    try:
        reader.prove(data, "<3x3>", None, workers=workers)
    except BookError as error:
        return error.code, str(error)
    return "valid", ""


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


def broken(damage: list[tuple[str, int]]) -> dict[str, Any]:
    rng = random.Random(str(damage))
    data = copy.deepcopy(DATA)
    for kind, marks in damage:
        damaged(kind, marks, rng, data)
    return data


@pytest.mark.parametrize("damage", [[], *CASES], ids=str)
def test_any_two_spans_give_the_one_span_finding(damage: list[tuple[str, int]]) -> None:
    data = broken(damage)
    code, _ = verdict(data)
    assert code == book_oracle.judge(json.dumps(data).encode())
    checker = reader.EntryChecker(RULES, data["entries"])
    count = len(checker.order)
    whole = checker.check((0, count))
    assert (whole[2] if whole else "valid") == code or code == "missing-entry"  # (or the empty board)
    cuts = {start + (stop - start) // 2 for start, stop in zip(checker.starts, checker.ends, strict=True)}
    for cut in sorted(cuts | set(checker.starts) | set(checker.ends)):
        fresh = reader.EntryChecker(RULES, data["entries"])  # nothing remembered from the whole
        parts = [
            fresh.check((0, cut)),
            reader.EntryChecker(RULES, data["entries"]).check((cut, len(fresh.order))),
        ]
        assert min((found for found in parts if found), default=None) == whole, cut


@pytest.mark.parametrize("damage", [[], *CASES[::5], CASES[-3]], ids=str)
def test_a_pool_of_workers_gives_the_one_process_verdict(damage: list[tuple[str, int]]) -> None:
    data = broken(damage)
    alone = verdict(data)
    for workers in (2, 3):
        assert verdict(data, workers) == alone, workers


def test_spans_cover_the_book_once_and_even_out_the_work() -> None:
    checker = reader.EntryChecker(RULES, DATA["entries"])
    count = len(checker.order)
    for workers in range(1, 6):
        spans = checker.spans(workers)
        assert 1 <= len(spans) <= workers
        assert spans[0][0] == 0 and spans[-1][1] == count
        assert all(a[1] == b[0] and a[0] < a[1] for a, b in itertools.pairwise(spans))
    # Keys laid out as 4x4's layers (k = 4): only their number of empty cells matters to the cut.
    sizes = [1, 3, 33, 219, 1413, 5514, 20122, 49935, 111737, 174568, 238920, 225404, 177276, 89454]
    sizes += [33900, 6715]
    texts = {"X" * m + "." * (16 - m) + str(n): "0 0" for m, size in enumerate(sizes) for n in range(size)}
    big = reader.EntryChecker(Rules(4, 4, 4), texts)
    (start, cut), (_, stop) = big.spans(2)

    marks_at = [m for m in range(15, -1, -1) for _ in range(sizes[m])]  # the fullest layer first

    def work(first: int, last: int) -> int:
        """Each key checked: a look-up per free cell and an entry per image (8); each key the
        span indexes only (the layer above it, its first layer's keys before it): 8."""
        marks = marks_at[first]
        indexed = (sizes[marks + 1] if marks < 15 else 0) + first - sum(sizes[marks + 1 :])
        return sum(8 + 16 - m for m in marks_at[first:last]) + 8 * indexed

    assert (start, stop) == (0, sum(sizes))
    assert abs(work(start, cut) - work(cut, stop)) <= 8 + 16  # balanced to a key


#: ``ttt-book verify`` of the 3x3 book, its proof forced into a pool of two workers, each made to
#: take a minute, so that Ctrl-C (or a kill) comes while both run; the workers' process ids are
#: written to the file named second.
SLOW_POOL = """
import os, sys, time
from tictactoe_book import reader
reader.PARALLEL_ABOVE = 0
checked = reader.EntryChecker.check
book, pids = sys.argv[1:]
def slowly(self, span):
    with open(pids, "a") as out:
        out.write(f"{os.getpid()}\\n")
    time.sleep(60)
    return checked(self, span)
reader.EntryChecker.check = slowly
sys.argv = ["ttt-book", "verify", book]
from tictactoe_book.generator.cli import run
run()
"""


def start_slow_pool(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """The slow proof started in a session of its own, once both workers are in their spans."""
    pids, book = tmp_path / "workers", tmp_path / "book.json"
    book.write_bytes(RAW)
    started = subprocess.Popen(
        [sys.executable, "-c", SLOW_POOL, str(book), str(pids)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, which Ctrl-C on a terminal signals whole
        env={**os.environ, "TTT_PROVEN_RECORD": ""},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        workers = [int(line) for line in pids.read_text().split()] if pids.exists() else []
        if len(workers) == 2:
            return started, workers
        time.sleep(0.05)
    started.kill()
    raise AssertionError("the workers did not start")


def test_ctrl_c_while_a_pool_proves_is_one_line_and_leaves_no_process(tmp_path: Path) -> None:
    started, workers = start_slow_pool(tmp_path)
    os.kill(workers[0], signal.SIGINT)  # what a worker gets of a Ctrl-C: it must let it pass
    time.sleep(0.5)
    assert running(workers[0])
    os.killpg(started.pid, signal.SIGINT)  # the whole Ctrl-C
    _, err = started.communicate(timeout=30)
    assert started.returncode == 130
    assert err.strip() == "Interrupted.", err  # one line; the workers say nothing, no traceback
    assert gone(workers, within=2.0)


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killing_the_process_that_proves_leaves_no_worker(tmp_path: Path, sent: signal.Signals) -> None:
    started, workers = start_slow_pool(tmp_path)
    started.send_signal(sent)  # the parent alone, as `kill PID` does
    started.communicate(timeout=30)
    assert started.returncode == -sent
    assert gone(workers, within=2.0)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone(pids: list[int], *, within: float) -> bool:
    """Whether every one of ``pids`` has ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while any(running(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
