"""``make bench``: the player's start-up, what proving a book costs, the generator, in one run.

These machines are shared and noisy, so every figure that matters is a ratio against a baseline
measured in the same run, and the command and its baseline alternate (processes and in-process
calls alike), taking medians. The headline is the start-up goal: a scripted full game from the
installed wheel (the packaged book, trusted by its recorded hash) within ``GOAL`` times
``python -c "import click"``. Nothing here is asserted by ``make test``, and the bench itself
never fails on a figure: it prints PASS or MISS beside the goal.

Prints the tables and writes every figure to bench/results.json (untracked). Only ``--record``
(``make bench-record``) rewrites the recorded run in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
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

from generator.atomic import write_atomically
from player.game import Rules
from player.reader import load_book

RESULTS = ROOT / "bench" / "results.json"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument(
        "--record", action="store_true", help=f"also rewrite the recorded run in {DOC.relative_to(ROOT)}"
    )
    options = parser.parse_args(argv)
    started = time.perf_counter()
    figures: dict[str, Any] = {"machine": machine()}

    book = load_book()
    if book.trust != "proven":
        sys.exit(f"bench: the dev install's book {book.source} is {book.trust!r}, not proven on load")
    figures["startup"] = measure_startup.startup(book)
    figures["proof"] = measure_proofs.proof_costs(BOOK.read_bytes())
    figures["js"] = measure_proofs.js_costs()
    generator = measure_builds.generator_costs(Rules())
    boards = generator.pop("positions")
    figures["generator"] = generator
    figures["player_in_process"] = measure_builds.choose_costs(book, boards)
    figures["proof_3x4"] = measure_proofs.proof_costs_3x4(started + measure_proofs.BUDGET_S)
    figures["engine"] = measure_engine.engine_rate(boards)
    figures["arrays"] = measure_builds.array_costs(Rules())
    with tempfile.TemporaryDirectory(prefix="ttt-bench-build-") as folder:
        builds = [
            measure_builds.build_costs("3x4:3", 3, Path(folder)),
            measure_builds.build_costs("4x4:4", 1, Path(folder), stages=True),
        ]
        figures["first_loads"] = measure_proofs.first_loads(Path(builds[-1].pop("path")))
        builds[0].pop("path")
    figures["builds"] = builds
    figures["bench_seconds"] = time.perf_counter() - started

    report = render(figures)
    write_atomically(RESULTS, (json.dumps(figures, indent=2, sort_keys=True) + "\n").encode())
    print(report)
    print(f"\nwrote {RESULTS.relative_to(ROOT)} (untracked) in {figures['bench_seconds']:.0f} s")
    if options.record:
        record(report)
        print(f"recorded the run in {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
