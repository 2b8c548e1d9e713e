"""``make bench``: the player's start-up, what proving a book costs, the generator, in one run.

These machines are shared and noisy, so every figure that matters is a ratio against a baseline
measured in the same run, and the command and its baseline alternate (processes and in-process
calls alike), taking medians. The headline is the start-up goal: a scripted full game from the
installed wheel (the packaged book, trusted by its recorded hash) within ``GOAL`` times
``python -c "import click"``. Nothing here is asserted by ``make test``, and the bench itself
never fails on a figure: it prints PASS or MISS beside the goal.

Says each measurement as it starts (flushed, so ``make bench | tee`` shows it too), then prints
the tables and writes every figure to bench/results.json (untracked). Only ``--record``
(``make bench-record``) rewrites the recorded run in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import measure_builds
import measure_engine
import measure_proofs
import measure_startup
from report import DOC, record, render
from tools import BOOK, ROOT, machine

from tictactoe_book.game import Rules
from tictactoe_book.reader import parse_book
from tictactoe_generator.atomic import write_atomically

RESULTS = ROOT / "bench" / "results.json"


def step(started: float, label: str) -> None:
    """Say which measurement starts, and when in the run: printed at once, even through a pipe
    (``make bench | tee``), so a run of minutes shows how far it has gone."""
    print(f"bench, {time.perf_counter() - started:3.0f} s: {label}", flush=True)


def measure(started: float) -> dict[str, Any]:
    """Every figure of the report, each measurement announced as it starts (``step``)."""
    figures: dict[str, Any] = {"machine": machine()}
    book = parse_book(BOOK.read_bytes(), str(BOOK))  # the checkout's book, proven here
    step(started, "start-up: the installed wheel's game against python -c 'import click'")
    figures["startup"] = measure_startup.startup(book)
    step(started, "what the proof costs (3x3, Python and JavaScript)")
    figures["proof"] = measure_proofs.proof_costs(BOOK.read_bytes())
    figures["js"] = measure_proofs.js_costs()
    step(started, "the generator and the player, in process")
    generator = measure_builds.generator_costs(Rules())
    boards = generator.pop("positions")
    figures["generator"] = generator
    figures["player_in_process"] = measure_builds.choose_costs(book, boards)
    step(started, "the 3x4 book's proof, if time allows")
    figures["proof_3x4"] = measure_proofs.proof_costs_3x4(started + measure_proofs.BUDGET_S)
    step(started, "ttt-play --engine, 5,000 requests")
    figures["engine"] = measure_engine.engine_rate(boards)
    figures["arrays"] = measure_builds.array_costs(Rules())
    with tempfile.TemporaryDirectory(prefix="ttt-bench-build-") as folder:
        step(started, "ttt-book build --rules 3x4:3, 3 runs")
        builds = [measure_builds.build_costs("3x4:3", 3, Path(folder))]
        step(started, "ttt-book build --rules 4x4:4, 1 run, its stages timed")
        builds.append(measure_builds.build_costs("4x4:4", 1, Path(folder), stages=True))
        step(started, "the 4x4 book's first load, Python against JavaScript, three alternated pairs")
        big = Path(builds[-1].pop("path"))
        figures["first_loads"] = measure_proofs.first_loads(big)
        step(
            started,
            "a 4x4 game on the book recorded as proven, against json.loads of it, three alternated pairs",
        )
        figures["recorded_start"] = measure_proofs.recorded_start(big)
        step(started, "the 4x4 book by parts: a game's first answer against the version-2 book's first load")
        figures["parts_first_answer"] = measure_proofs.parts_first_answer(big)
        step(started, "the 4x4 book damaged each way, refused in Python and JS, against its proof, one round")
        figures["damaged_4x4"] = measure_proofs.damaged_costs(json.loads(big.read_bytes()), rounds=1)
        builds[0].pop("path")
    figures["builds"] = builds
    figures["bench_seconds"] = time.perf_counter() - started
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument(
        "--record", action="store_true", help=f"also rewrite the recorded run in {DOC.relative_to(ROOT)}"
    )
    options = parser.parse_args(argv)
    started = time.perf_counter()
    figures = measure(started)
    report = render(figures)
    write_atomically(RESULTS, (json.dumps(figures, indent=2, sort_keys=True) + "\n").encode())
    print(report)
    print(f"\nwrote {RESULTS.relative_to(ROOT)} (untracked) in {figures['bench_seconds']:.0f} s")
    if options.record:
        record(report)
        print(f"recorded the run in {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
