"""The build by layers on Dask, measured a layer at a time (docs/scaling.md, "Past one machine",
and docs/benchmarks.md, "The build on Dask"): per layer, its positions, the wall time of its
forward and backward steps, the CPU its tasks took, the bytes its forward tasks hand to the
shuffle (the children files ``merge_range`` reads), and each worker's peak memory.

    .venv/bin/python bench/measure_dask.py --rules 4x4:4 --workers 2
    .venv/bin/python bench/measure_dask.py --rules 4x4:4 --workers 1 --json out.json

Each task runs inside ``timed``, which returns its result with the CPU seconds it took and the
worker's peak resident memory so far (``VmHWM``). The book is written nowhere: the files are
compared with nothing, only counted (tests/test_cluster.py holds the bytes).
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from distributed import Client, LocalCluster

from tictactoe_book.game import Rules
from tictactoe_generator.cluster import DaskEngine
from tictactoe_generator.layered import build_by_layers

T = TypeVar("T")


def timed(task: Callable[..., T], *args: Any) -> tuple[T, float, int]:
    """``task(*args)``, the CPU seconds it took and this process's peak resident KiB."""
    start = time.process_time()
    result = task(*args)
    return result, time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Measured:
    """A DaskEngine whose every batch of tasks is recorded: the task, the layer, the wall time,
    the tasks' CPU, the children bytes a forward batch leaves for the shuffle."""

    def __init__(self, engine: DaskEngine, work: Path) -> None:
        self.engine, self.work = engine, work
        self.parts_a_task = engine.parts_a_task
        self.batches: list[dict[str, Any]] = []
        self.peak: dict[str, int] = {}

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        start = time.perf_counter()
        told = self.engine.map(timed, [(task, *args) for args in calls])
        wall = time.perf_counter() - start
        m = calls[0][1] if calls else None
        batch = {
            "task": task.__name__,
            "layer": m,
            "tasks": len(calls),
            "wall": wall,
            "cpu": sum(cpu for _, cpu, _ in told),
            "peak_kib": max((kib for *_, kib in told), default=0),
        }
        if task.__name__ == "reach_block":
            batch["children_bytes"] = sum(p.stat().st_size for p in self.work.glob(f"{m:02d}-children-*.npy"))
            batch["positions"] = sum(one.tally.canonical for one, _, _ in told)
        self.batches.append(batch)
        return [result for result, _, _ in told]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="4x4:4")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("--json", default=None)
    options = parser.parse_args()
    rules = Rules.parse(options.rules)
    with tempfile.TemporaryDirectory(dir=".") as folder:
        work = Path(folder)
        if options.scheduler:
            client = Client(options.scheduler)
            cluster = None
        else:
            cluster = LocalCluster(
                n_workers=options.workers, threads_per_worker=1, dashboard_address=":0", silence_logs=50
            )
            client = Client(cluster)
        engine = Measured(DaskEngine(client), work)
        start = time.perf_counter()
        files = build_by_layers(rules, work, engine=engine)
        wall = time.perf_counter() - start
        peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        client.close()
        if cluster is not None:
            cluster.close()
    result = {
        "rules": str(rules),
        "workers": options.workers,
        "wall": wall,
        "cpu": sum(b["cpu"] for b in engine.batches),
        "client_peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_peak_kib": peaks,
        "book_bytes": sum(map(len, files.values())),
        "batches": engine.batches,
    }
    worker_mib = sorted(kib // 1024 for kib in peaks.values())
    print(
        f"{rules}: {wall:.1f} s wall, {result['cpu']:.1f} s of task CPU on {options.workers} workers; "
        f"worker peaks {worker_mib} MiB; client {result['client_peak_kib'] // 1024} MiB"
    )
    layers: dict[int, dict[str, float]] = {}
    for batch in engine.batches:
        row = layers.setdefault(batch["layer"], {"positions": 0, "forward": 0.0, "backward": 0.0, "cpu": 0.0,
                                                 "children_bytes": 0})  # fmt: skip
        side = "forward" if batch["task"] in ("reach_block", "merge_range", "renumber_block") else "backward"
        row[side] += batch["wall"]
        row["cpu"] += batch["cpu"]
        row["positions"] += batch.get("positions", 0)
        row["children_bytes"] += batch.get("children_bytes", 0)
    print("layer  positions  forward s  backward s  task CPU s  children MB")
    for m in sorted(k for k in layers if k is not None):
        row = layers[m]
        print(f"{m:5d} {row['positions']:10,d} {row['forward']:10.2f} {row['backward']:11.2f} "
              f"{row['cpu']:11.2f} {row['children_bytes'] / 1e6:12.1f}")  # fmt: skip
    if options.json:
        Path(options.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
