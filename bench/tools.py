"""The bench's tools: paths (tests/ importable), timing alternated calls and processes, memory,
import times."""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PYTHON = sys.executable
BOOK = ROOT / "book" / "tictactoe.json"
JS_BENCH = ROOT / "clients" / "js" / "bench.mjs"
#: The tests' folder, importable: the bench times what some of the tests' helpers build
#: (tests/damaged_everywhere.py), so each is defined once.
TESTS = ROOT / "tests"
if str(TESTS) not in sys.path:
    sys.path.append(str(TESTS))


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Seconds per call of ``fn`` over a tight loop of ``calls`` (for calls of a microsecond)."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def alternate_calls(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Median wall time of each function, called in alternation ``rounds`` times, in seconds."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that would change which player or book runs."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TTT_BOOK", "PYTHONSTARTUP")}
    return {**env, **extra}


@dataclass(frozen=True)
class Process:
    """A command to time: its argv and environment (run from a directory outside the checkout)."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=clean_env)


def run_checked(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run ``argv``; on failure stop the bench with its output (never time a failing command)."""
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed (status {done.returncode}):\n{done.stdout}{done.stderr}")
    return done


def alternate(commands: dict[str, Process], rounds: int, cwd: Path) -> dict[str, list[float]]:
    """Wall times of each command, run in alternation ``rounds`` times, in seconds: round ``i``
    of every command is item ``i`` of its list, so two commands can be compared round by round.

    One unmeasured round first (it must succeed), so no command pays for a cold disk cache.
    """
    for process in commands.values():
        run_checked(process.argv, env=process.env, cwd=cwd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, process in commands.items():
            start = time.perf_counter()
            subprocess.run(
                process.argv, env=process.env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            times[name].append(time.perf_counter() - start)
    return times


def paired_ratio(measured: list[float], baseline: list[float]) -> float:
    """The median over rounds of ``measured / baseline`` within each round.

    The two commands of a round run back to back, so a change in the machine's load that lasts
    longer than a round (this host is shared) slows both and cancels out of their ratio; a ratio
    of the two medians takes them from different moments and moves with the load.
    """
    return statistics.median(m / b for m, b in zip(measured, baseline, strict=True))


def child_cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """Run ``argv`` (it must succeed): the CPU time it took, user and system, with any process it
    started and waited for (the kernel's account of the children this process has waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_checked(argv, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def tree_peak_kib(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """Run ``argv``: its wall time, and the largest sum of the proportional set sizes (PSS) of
    it and its child processes, sampled every 50 ms for the first second and every 0.5 s after.

    PSS shares each page among the processes that map it, so the sum is the memory they hold
    together (a forked child's pages shared with its parent are counted once, not twice as a
    sum of resident sizes would). Sampling a big process is not free: the kernel takes about
    15 ms to sum a 1 GiB process's pages, time taken from the build on a 2-core machine, hence
    the longer interval once a build has run a second. A peak shorter than that can be missed.
    """
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while process.poll() is None:
        tree = [process.pid]
        for pid in tree:  # grows as the children are found
            tree.extend(_children(pid))
        peak = max(peak, sum(_pss_kib(pid) for pid in tree))
        time.sleep(0.05 if time.perf_counter() - start < 1 else 0.5)
    took = time.perf_counter() - start
    assert process.stderr is not None
    if process.wait() != 0:
        sys.exit(f"bench: {' '.join(argv)} failed (status {process.returncode}):\n{process.stderr.read()}")
    return took, peak


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux's /proc/PID/task/TID/children), [] once it is gone."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.extend(int(child) for child in listing.read().split())
    return found


def _pss_kib(pid: int) -> int:
    """The proportional set size of ``pid`` in KiB, 0 once it is gone."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def peak_memory_kib(code: str, env: dict[str, str], cwd: Path) -> int:
    """Peak resident memory (VmHWM) of ``python -c code``, read by the process itself at exit.

    Not ``ru_maxrss``: Linux carries it across exec, so a child started by a large parent
    reports at least the parent's size at fork. VmHWM belongs to the new program alone.
    """
    probe = (
        "import atexit, sys\n"
        "def _peak():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            sys.stderr.write('MAXRSS %s\\n' % line.split()[1])\n"
        "atexit.register(_peak)\n"
    )
    out = subprocess.run(
        [PYTHON, "-c", probe + code], capture_output=True, text=True, check=False, env=env, cwd=cwd
    )
    line = next(x for x in out.stderr.splitlines() if x.startswith("MAXRSS "))
    return int(line.split()[1])


def import_times(argv: list[str], env: dict[str, str], cwd: Path) -> list[dict[str, Any]]:
    """Every import of ``python -X importtime argv``: module, self and cumulative µs, in order."""
    out = run_checked([PYTHON, "-X", "importtime", *argv], env=env, cwd=cwd)
    rows: list[dict[str, Any]] = []
    for line in out.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            rows.append(
                {"module": parts[2].strip(), "self_us": int(parts[0]), "cumulative_us": int(parts[1])}
            )
    return rows


def import_breakdown(argv: list[str], env: dict[str, str], cwd: Path, top: int = 10) -> dict[str, Any]:
    """Where the start-up of ``python argv`` goes, by ``-X importtime``.

    ``largest``: the ``top`` imports by cumulative time. ``beyond_click``: the imports that
    ``python -c "import click"`` (the goal's baseline) does not make, by their own time; a
    module shared with click is charged to whoever imports it first, so this list is what the
    player adds.
    """
    rows = import_times(argv, env, cwd)
    clicks = {row["module"] for row in import_times(["-c", "import click"], env, cwd)}
    beyond = [row for row in rows if row["module"] not in clicks]
    return {
        "largest": sorted(rows, key=lambda row: row["cumulative_us"], reverse=True)[:top],
        "beyond_click": sorted(beyond, key=lambda row: row["self_us"], reverse=True)[:top],
        "beyond_click_modules": len(beyond),
        "beyond_click_self_us": sum(row["self_us"] for row in beyond),
    }


def machine() -> dict[str, Any]:
    cpu = platform.processor() or "unknown"
    memory = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory": memory,
        "load_average": os.getloadavg()[0],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
