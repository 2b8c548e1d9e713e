"""The generator (solve, trap order, write, ``ttt-book build``) and the player in process, each
beside a baseline: the naive minimax (bench/naive.py), ``python -c pass``."""

from __future__ import annotations

import gzip
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import naive
import orjson
from tools import (
    BIN,
    BOOK,
    PYTHON,
    Process,
    alternate,
    alternate_calls,
    clean_env,
    median_time,
    per_call,
    tree_peak_kib,
)

from generator.atomic import write_atomically, write_files
from generator.solve import solve
from generator.trap import trap_arrays
from generator.vectors import every_board
from generator.writer import book_document, encode, prove_for_record
from player import reader
from player.game import STANDARD, Rules
from player.play import choose_move
from player.reader import Book

T = TypeVar("T")


def generator_costs(rules: Rules) -> dict[str, Any]:
    """The solver and the build, each beside a baseline (the rows a later scale issue reworks)."""
    solve_only_s = median_time(lambda: solve(rules), 5)
    solve_s = median_time(lambda: trap_arrays(solve(rules)), 5)
    traps = trap_arrays(solve(rules))
    book_doc = book_document(traps)
    with tempfile.TemporaryDirectory() as tmp:
        write_s = median_time(lambda: write_atomically(Path(tmp) / "book.json", encode(book_doc)), 5)
        build = Process([str(BIN / "ttt-book"), "build", "-o", str(Path(tmp) / "b.json")])
        runs = alternate({"build": build, "python": Process([PYTHON, "-c", "pass"])}, 5, Path(tmp))
        process = {name: statistics.median(values) for name, values in runs.items()}
    naive_s = median_time(lambda: naive.minimax("........."), 3)
    return {
        "solve_s": solve_only_s,
        "solve_and_trap_order_s": solve_s,
        "naive_over_solve": naive_s / solve_only_s,
        "write_book_s": write_s,
        "naive_minimax_root_s": naive_s,
        "naive_over_ours": naive_s / solve_s,
        "build_process_s": process["build"],
        "python_s": process["python"],
        "build_ratio": process["build"] / process["python"],
        "positions": sorted(every_board(traps)),
    }


#: Issue 13's goal: ``ttt-book build`` as a process, from nothing to a written book, within
#: (seconds, peak KiB).


#: Issue 13's goal: ``ttt-book build`` as a process, from nothing to a written book, within
#: (seconds, peak KiB).
BUILD_GOALS: dict[str, tuple[float, int | None]] = {"3x4:3": (2.0, None), "4x4:4": (30.0, 2 * 2**20)}


def array_costs(rules: Rules) -> dict[str, Any]:
    """Solve + trap order with arrays (the build's path), alternated with the naive minimax of
    the root."""
    times = alternate_calls(
        {
            "arrays": lambda: trap_arrays(solve(rules)),
            "naive": lambda: naive.minimax("........."),
        },
        3,  # the naive minimax takes seconds a round
    )
    return {
        "arrays_s": times["arrays"],
        "naive_s": times["naive"],
        "naive_over_arrays": times["naive"] / times["arrays"],
    }


def build_costs(spec: str, runs: int, folder: Path) -> dict[str, Any]:
    """``ttt-book build --rules spec`` as a process (no vectors), writing into ``folder``: median
    wall and CPU time of ``runs``, the largest peak memory of the build's processes together
    (``tree_peak_kib``), and the book's size and path."""
    seconds, cpu, peaks = [], [], []
    book = folder / f"{spec.replace(':', '_')}.json"
    argv = [str(BIN / "ttt-book"), "build", "--rules", spec, "-o", str(book), "--no-vectors"]
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        took, peak = tree_peak_kib(argv, clean_env(TTT_PROVEN_RECORD=""), folder)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        seconds.append(took)
        peaks.append(peak)
    raw = book.read_bytes()
    goal_s, goal_kib = BUILD_GOALS[spec]
    build_s, peak_kib = statistics.median(seconds), max(peaks)
    return {
        "rules": spec,
        "path": str(book),
        "runs": runs,
        "build_s": build_s,
        "build_cpu_s": statistics.median(cpu),
        "peak_kib": peak_kib,
        "bytes": len(raw),
        "gzip_bytes": len(gzip.compress(raw, 6)),
        "entries": len(orjson.loads(raw)["entries"]),
        "goal_s": goal_s,
        "goal_kib": goal_kib,
        "meets_goal": build_s <= goal_s and (goal_kib is None or peak_kib <= goal_kib),
    }


#: Issue 34's goal: ``ttt-book build`` of 4x4 within this many times the CPU time of its solve,
#: trap order and writing stages.
BUILD_STAGES_GOAL = 3.0


def build_stages(rules: Rules) -> dict[str, Any]:
    """The CPU time of each stage of ``ttt-book build`` for ``rules``, in this process, one
    after the other as the build runs them (generator/writer.py, ``write_book``): solve, trap
    order, writing (the document's entry strings, its bytes, the atomic write), then the proof
    the build runs on those bytes before it writes them, and the gzipped size its report gives."""
    stages: dict[str, float] = {}

    def timed(name: str, work: Callable[[], T]) -> T:
        start = time.process_time()
        done = work()
        stages[name] = stages.get(name, 0.0) + time.process_time() - start
        return done

    solved = timed("solve", lambda: solve(rules))
    traps = timed("trap_order", lambda: trap_arrays(solved))
    document = timed("writing", lambda: book_document(traps))
    data = timed("writing", lambda: encode(document))
    proven = bool(timed("prove", lambda: prove_for_record(data, "<bench>")))
    with tempfile.TemporaryDirectory() as folder:
        timed("writing", lambda: write_files({Path(folder) / "book.json": data}))
    timed("gzip", lambda: gzip.compress(data, 6))
    return {"rules": str(rules), "proven": proven, **{f"{name}_cpu_s": s for name, s in stages.items()}}


def choose_costs(book: Book, boards: list[str]) -> dict[str, Any]:
    """``choose_move`` on every position, warm and on a fresh book, against the naive minimax."""
    rng = random.Random(1)
    warm = [per_call(lambda b=b: choose_move(book, b, rng=rng), 200) for b in boards]  # type: ignore[misc]
    rules = reader.prove(book.data, BOOK, STANDARD)
    cold = []
    for b in boards:
        # an empty cache of derived entries, and no new proof
        fresh = Book(rules, book.data, str(BOOK), trust="proven")
        start = time.perf_counter()
        choose_move(fresh, b, rng=rng)
        cold.append(time.perf_counter() - start)
    sample = [*random.Random(7).sample(boards, 60), "........."]
    searched = [median_time(lambda b=b: naive.minimax(b), 1) for b in sample]  # type: ignore[misc]
    choose_us = statistics.median(warm) * 1e6
    return {
        "choose_move_median_us": choose_us,
        "choose_move_first_call_median_us": statistics.median(cold) * 1e6,
        "naive_minimax_median_us": statistics.median(searched) * 1e6,
        "naive_minimax_empty_board_ms": searched[-1] * 1e3,
        "naive_over_book": statistics.median(searched) * 1e6 / choose_us,
        "positions": len(boards),
        "naive_sample": len(sample),
    }
