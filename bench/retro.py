"""Time the retrograde solver (tictactoe_generator.solve) on one rules value and print its counts.

    .venv/bin/python bench/retro.py --rules 4x4:4
    /usr/bin/time -v .venv/bin/python bench/retro.py --rules 4x4:4     # and the peak memory

``--repeat`` times the solve that many times and prints the best. The peak is this process's
VmHWM (bench/run.py reads it the same way); timings are indicative, the machines are shared.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import click

from tictactoe_book.errors import RulesError
from tictactoe_book.game import Rules
from tictactoe_generator.solve import solve


def peak_mib() -> float:
    """This process's peak resident memory so far, in MiB (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def best_time(run: Callable[[], object], repeat: int) -> float:
    """Shortest wall time of ``run()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


@click.command()
@click.option("--rules", "spec", default="4x4:4", show_default=True, help="ROWSxCOLS:K")
@click.option("--misere", is_flag=True, help="Completing a line loses.")
@click.option("--repeat", default=1, show_default=True, help="Runs to take the best time of.")
def main(spec: str, misere: bool, repeat: int) -> None:
    """Solve RULES by retrograde analysis; print stage times, counts and the peak memory."""
    try:
        rules = Rules.parse(spec)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="'--rules'") from None
    marks: dict[str, float] = {}
    started = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        if done == total:
            marks[stage] = time.perf_counter() - started

    rules = dataclasses.replace(rules, misere=misere or rules.misere)
    result = solve(rules, progress=progress)
    total = time.perf_counter() - started
    counts = result.counts
    click.echo(f"{rules}{' misère' if misere else ''}: solved in {total:.3f} s")
    click.echo(
        f"  forward {marks['reach']:.3f} s, backward {marks['solve'] - marks['reach']:.3f} s, "
        f"orbits and paths {total - marks['solve']:.3f} s"
    )
    click.echo(
        f"  reachable {counts.reachable:,} ({counts.unfinished:,} unfinished, {counts.finished:,} finished)"
    )
    click.echo(
        f"  canonical {counts.canonical:,} ({counts.canonical_unfinished:,} unfinished, "
        f"{counts.canonical_finished:,} finished)"
    )
    games = counts.games
    click.echo(
        f"  tree nodes {counts.tree_nodes:,}; games {games.total:,} "
        f"(first {games.first_wins:,} / second {games.second_wins:,} / draws {games.draws:,})"
    )
    click.echo(f"  empty board: value {int(result.value[0])}, plies {int(result.plies[0])}")
    arrays = (
        result.codes,
        result.status,
        result.orbit,
        result.successors,
        result.scores,
        result.best,
        result.paths,
    )
    held = sum(array.nbytes for array in arrays)
    moves = int((result.successors >= 0).sum())
    click.echo(
        f"  moves of canonical positions {moves:,}; result arrays {held / 2**20:.1f} MiB "
        f"({held / counts.canonical:.0f} bytes a position)"
    )
    if repeat > 1:
        retro_s = best_time(lambda: solve(rules), repeat)
        click.echo(f"  best of {repeat}: {retro_s * 1000:.1f} ms")
    click.echo(f"  peak memory (VmHWM) {peak_mib():.0f} MiB")


if __name__ == "__main__":
    main()
