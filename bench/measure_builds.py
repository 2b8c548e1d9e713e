"""The generator (solve, trap order, write, ``ttt-book build``) and the player in process, each
beside a baseline: the naive minimax (bench/naive.py), ``python -c pass``."""

from __future__ import annotations

import gzip
import json
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

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

from tictactoe_book import reader
from tictactoe_book.game import STANDARD, Rules
from tictactoe_book.play import choose_move
from tictactoe_book.reader import Book
from tictactoe_generator.atomic import write_atomically
from tictactoe_generator.solve import solve
from tictactoe_generator.trap import trap_arrays
from tictactoe_generator.vectors import every_board
from tictactoe_generator.writer import book_document, encode


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


#: ``ttt-book build`` as ``tictactoe_generator.commands.ttt_book`` runs it, with a timer around each stage of
#: generator/tictactoe_generator/build.py's ``write_book`` (the functions it calls, wrapped in place where
#: it and writer.py's ``solve_arrays`` look them up): the CPU time of each, from the build's own process,
#: written as JSON to the file named first.
TIMED_BUILD = """
import json, sys, time
import tictactoe_generator.build as build
import tictactoe_generator.writer as writer
stages = {}
def timed(name, function):
    def run(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            stages[name] = stages.get(name, 0.0) + time.process_time() - start
    return run
for module, name, stage in [(writer, "solve", "solve"), (writer, "trap_arrays", "trap_order"),
                            (build, "book_document", "writing"), (build, "encode", "writing"),
                            (build, "write_files", "writing"), (build, "prove_for_record", "prove")]:
    setattr(module, name, timed(stage, getattr(module, name)))
build.gzip.compress = timed("gzip", build.gzip.compress)
out, sys.argv = sys.argv[1], ["ttt-book", *sys.argv[2:]]
import tictactoe_generator.commands
try:
    tictactoe_generator.commands.ttt_book()
finally:
    with open(out, "w") as file:
        json.dump(stages, file)
"""


def build_costs(spec: str, runs: int, folder: Path, *, stages: bool = False) -> dict[str, Any]:
    """``ttt-book build --rules spec`` as a process (no vectors), writing into ``folder``: median
    wall and CPU time of ``runs``, the largest peak memory of the build's processes together
    (``tree_peak_kib``), and the book's size and path. With ``stages``, the build is timed
    stage by stage from inside (``TIMED_BUILD``): the medians of each stage's CPU time."""
    seconds, cpu, peaks, timings = [], [], [], []
    book, timing = folder / f"{spec.replace(':', '_')}.json", folder / "stages.json"
    argv = ["build", "--rules", spec, "-o", str(book), "--no-vectors"]
    argv = [PYTHON, "-c", TIMED_BUILD, str(timing), *argv] if stages else [str(BIN / "ttt-book"), *argv]
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        took, peak = tree_peak_kib(argv, clean_env(TTT_PROVEN_RECORD=""), folder)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        seconds.append(took)
        peaks.append(peak)
        if stages:
            timings.append(json.loads(timing.read_text()))
    raw = book.read_bytes()
    goal_s, goal_kib = BUILD_GOALS[spec]
    build_s, peak_kib = statistics.median(seconds), max(peaks)
    found = {
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
    if stages:
        names = timings[0]
        found["stages_cpu_s"] = {name: statistics.median(t[name] for t in timings) for name in names}
        counted = sum(found["stages_cpu_s"][name] for name in ("solve", "trap_order", "writing"))
        found["stages_ratio"] = found["build_cpu_s"] / counted
        found["stages_goal"] = BUILD_STAGES_GOAL
    return found


#: Issue 34's goal: ``ttt-book build`` of 4x4 within this many times the CPU time of its solve,
#: trap order and writing stages.
BUILD_STAGES_GOAL = 3.0


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
