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
import contextlib
import gzip
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import oracle  # noqa: E402  (the tests' independent, naive minimax: the baseline)

from generator.atomic import write_atomically  # noqa: E402
from generator.solve import solve  # noqa: E402
from generator.trap import trap_arrays  # noqa: E402
from generator.vectors import every_board  # noqa: E402
from generator.writer import book_document, encode  # noqa: E402
from player import reader  # noqa: E402
from player.apps.script import play_script  # noqa: E402
from player.game import STANDARD, Rules  # noqa: E402
from player.play import choose_move  # noqa: E402
from player.reader import Book, load_book, parse_book  # noqa: E402

BIN = Path(sys.executable).parent
PYTHON = sys.executable
BOOK = ROOT / "book" / "tictactoe.json"
RESULTS = ROOT / "bench" / "results.json"
DOC = ROOT / "docs" / "benchmarks.md"
JS_BENCH = ROOT / "clients" / "js" / "bench.mjs"
#: docs/benchmarks.md from this heading to its end is the recorded run (``--record``).
RECORD_HEADING = "## Latest recorded run"

#: The start-up goal: the packaged game within this many times ``python -c "import click"``.
GOAL = 1.3
#: Rounds of the alternated start-up processes (the goal asks for at least 21).
ROUNDS = 41
SEED = 3
#: The optional 3x4 row is measured only if the whole bench stays within about this long.
BUDGET_S = 90.0
RULES_3X4 = "3x4:3"

# ---------------------------------------------------------------- timing


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


# ---------------------------------------------------------------- the packaged player


@contextmanager
def installed_wheel() -> Iterator[Path]:
    """A temporary directory holding this checkout built as a wheel and installed in ``site/``.

    With ``PYTHONPATH=<dir>/site`` the player and its book come from the wheel, as for a user.
    """
    with tempfile.TemporaryDirectory(prefix="ttt-bench-") as tmp:
        work = Path(tmp)
        pip = [PYTHON, "-m", "pip", "--disable-pip-version-check"]
        run_checked([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", tmp, str(ROOT)])
        (wheel,) = work.glob("tictactoe_book-*.whl")
        run_checked([*pip, "install", "--quiet", "--no-deps", "--target", str(work / "site"), str(wheel)])
        yield work


# Run inside the installed wheel: checks that the book is the packaged one, trusted, and times
# load_book() against json.loads of the same bytes, alternated (argv[1] rounds), in that one process.
PACKAGED_PROBE = """\
import json, statistics, sys, time
import player
from player.reader import load_book
book = load_book()
with open(book.source, 'rb') as handle:
    text = handle.read().decode()
fns = {'load_book_ms': load_book, 'json_loads_ms': lambda: json.loads(text)}
times = {name: [] for name in fns}
for _ in range(int(sys.argv[1])):
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        times[name].append(time.perf_counter() - start)
medians = {name: statistics.median(values) * 1e3 for name, values in times.items()}
print(json.dumps({'trust': book.trust, 'player': player.__file__, 'book': book.source, **medians}))
"""


def packaged_load(site: Path, env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """The packaged path's figures; stops the bench unless the wheel's book is trusted as packaged."""
    out = run_checked([PYTHON, "-c", PACKAGED_PROBE, "51"], env=env, cwd=cwd)
    found: dict[str, Any] = json.loads(out.stdout)
    if found["trust"] != "packaged" or not found["player"].startswith(str(site)):
        sys.exit(
            "bench: the installed wheel does not run on its packaged, trusted book "
            f"(trust {found['trust']!r}, player from {found['player']}, book {found['book']}); "
            "the start-up goal is measured on the packaged path only"
        )
    return found


def finishing_moves(book: Book, seed: int) -> str:
    """Moves (cells 1-9) that finish the scripted game the player plays with ``seed``."""
    moves: list[int] = []
    while True:
        game = play_script(book, moves, rng=random.Random(seed))
        if game.is_over:
            return ",".join(map(str, moves))
        moves.append(game.free_cells()[0] + 1)


def startup(book: Book) -> dict[str, Any]:
    """The start-up goal and what the packaged path costs, measured on the installed wheel."""
    moves = finishing_moves(book, SEED)
    args = ["--moves", moves, "--seed", str(SEED)]
    with installed_wheel() as work:
        site = work / "site"
        packaged_env = clean_env(PYTHONPATH=str(site))
        packaged = packaged_load(site, packaged_env, work)
        games = {
            "packaged": run_checked([str(site / "bin" / "ttt-play"), *args], env=packaged_env, cwd=work),
            "dev": run_checked([str(BIN / "ttt-play"), *args], env=clean_env(), cwd=work),
        }
        if games["packaged"].stdout != games["dev"].stdout:
            shown = "\n".join(f"{name}:\n{done.stdout}" for name, done in games.items())
            sys.exit(f"bench: the packaged and the dev player print different games:\n{shown}")
        samples = alternate(
            {
                "click": Process([PYTHON, "-c", "import click"], packaged_env),
                "packaged": Process([str(site / "bin" / "ttt-play"), *args], packaged_env),
                "dev": Process([str(BIN / "ttt-play"), *args]),
                "python": Process([PYTHON, "-c", "pass"], packaged_env),
            },
            ROUNDS,
            work,
        )
        times = {name: statistics.median(values) for name, values in samples.items()}
        ratio = paired_ratio(samples["packaged"], samples["click"])
        game_code = f"sys.argv = ['ttt-play', *{args!r}]\nfrom player.apps.cli import run\nrun()"
        memory = {
            "packaged_kib": peak_memory_kib(game_code, packaged_env, work),
            "dev_kib": peak_memory_kib(game_code, clean_env(), work),
            "click_kib": peak_memory_kib("import click", packaged_env, work),
        }
        imports = import_breakdown([str(site / "bin" / "ttt-play"), *args], packaged_env, work)
    return {
        "moves": moves,
        "rounds": ROUNDS,
        "goal": GOAL,
        "packaged_game_s": times["packaged"],
        "dev_game_s": times["dev"],
        "import_click_s": times["click"],
        "python_s": times["python"],
        # the goal's ratio, round by round (``paired_ratio``); the ratio of the medians beside it
        "ratio": ratio,
        "ratio_of_medians": times["packaged"] / times["click"],
        "dev_ratio": paired_ratio(samples["dev"], samples["click"]),
        "meets_goal": ratio <= GOAL,
        "packaged_load": {k: packaged[k] for k in ("trust", "load_book_ms", "json_loads_ms")},
        "peak_memory": memory,
        "imports": imports,
    }


# ---------------------------------------------------------------- what the proof costs


def proof_costs(raw: bytes) -> dict[str, Any]:
    """Each step from the book's bytes to a proven book, against ``json.loads`` on the same text."""
    text = raw.decode()
    data = reader.parse_json(raw, BOOK)
    times = alternate_calls(
        {
            "json_loads": lambda: json.loads(text),
            "strict_json": lambda: reader.parse_json(raw, BOOK),
            "prove": lambda: reader.prove(data, BOOK, STANDARD),
            "parse_book": lambda: parse_book(raw, str(BOOK)),
        },
        21,
    )
    return {
        "bytes": len(raw),
        "gzip_bytes": len(gzip.compress(raw, 9)),
        "entries": len(data["entries"]),
        **{f"{name}_ms": seconds * 1e3 for name, seconds in times.items()},
    }


def js_costs(book: Path | None = None, runs: int | None = None) -> dict[str, Any]:
    """The JavaScript reader's own figures (clients/js/bench.mjs) on ``book`` (default: the
    shipped one), or why there are none."""
    if not JS_BENCH.is_file():
        return {"missing": f"{JS_BENCH.relative_to(ROOT)} missing"}
    node = shutil.which("node")
    if node is None:
        return {"missing": "node not found"}
    argv = [node, str(JS_BENCH), *([str(book), str(runs or 10)] if book else [])]
    out = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    lines = out.stdout.strip().splitlines()
    try:
        found: dict[str, Any] = json.loads(lines[-1])
        return {name: float(found[name]) for name in ("load_ms", "parse_ms", "json_parse_ms")}
    except (IndexError, ValueError, KeyError, TypeError):
        errors = [line for line in out.stderr.splitlines() if "Error" in line]
        reason = errors[0].strip() if errors else f"status {out.returncode}, no JSON line printed"
        return {"missing": f"{JS_BENCH.relative_to(ROOT)} failed: {reason}"}


def proof_costs_3x4(deadline: float) -> dict[str, Any]:
    """The proof's cost on a 3x4 k=3 book built once for the purpose, if it fits before ``deadline``.

    The build gets what is left of the budget less a reserve for the proof; a build that cannot
    finish in time is skipped with a note instead.
    """
    left = deadline - time.perf_counter()
    reserve = 10.0
    if left < reserve + 5:
        return {"skipped": f"no time left within the bench's {BUDGET_S:.0f} s budget"}
    with tempfile.TemporaryDirectory(prefix="ttt-bench-3x4-") as tmp:
        book = Path(tmp) / "book.json"
        argv = [str(BIN / "ttt-book"), "build", "--rules", RULES_3X4, "-o", str(book)]
        start = time.perf_counter()
        try:
            subprocess.run(argv, capture_output=True, check=True, timeout=left - reserve)
        except subprocess.TimeoutExpired:
            return {"skipped": f"building it takes longer than the {left - reserve:.0f} s left in the budget"}
        build_s = time.perf_counter() - start
        raw = book.read_bytes()
        js = js_costs(book, runs=10)
    text = raw.decode()
    fns = {"json_loads": lambda: json.loads(text), "parse_book": lambda: parse_book(raw, rules=None)}
    rounds: list[dict[str, float]] = []
    while not rounds or (len(rounds) < 3 and time.perf_counter() < deadline):
        rounds.append(alternate_calls(fns, 1))
    return {
        "rules": RULES_3X4,
        "build_s": build_s,
        "bytes": len(raw),
        "entries": len(json.loads(text)["entries"]),
        "runs": len(rounds),
        **{f"{name}_ms": statistics.median(r[name] for r in rounds) * 1e3 for name in fns},
        "js": js,
    }


# ---------------------------------------------------------------- generator and player in process


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
    naive_s = median_time(lambda: oracle.minimax("........."), 3)
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
BUILD_GOALS: dict[str, tuple[float, int | None]] = {"3x4:3": (2.0, None), "4x4:4": (30.0, 2 * 2**20)}


def array_costs(rules: Rules) -> dict[str, Any]:
    """Solve + trap order with arrays (the build's path), alternated with the naive minimax of
    the root."""
    times = alternate_calls(
        {
            "arrays": lambda: trap_arrays(solve(rules)),
            "naive": lambda: oracle.minimax("........."),
        },
        3,  # the naive minimax takes seconds a round
    )
    return {
        "arrays_s": times["arrays"],
        "naive_s": times["naive"],
        "naive_over_arrays": times["naive"] / times["arrays"],
    }


def build_costs(spec: str, runs: int) -> dict[str, Any]:
    """``ttt-book build --rules spec`` as a process (no vectors): median wall time of ``runs``,
    the largest peak memory of the build's processes together (``tree_peak_kib``: a big book
    is proven in two), and the book's size."""
    seconds, peaks = [], []
    with tempfile.TemporaryDirectory(prefix="ttt-bench-build-") as tmp:
        book = Path(tmp) / "book.json"
        argv = [str(BIN / "ttt-book"), "build", "--rules", spec, "-o", str(book), "--no-vectors"]
        for _ in range(runs):
            took, peak = tree_peak_kib(argv, clean_env(TTT_PROVEN_RECORD=""), Path(tmp))
            seconds.append(took)
            peaks.append(peak)
        raw = book.read_bytes()
    goal_s, goal_kib = BUILD_GOALS[spec]
    build_s, peak_kib = statistics.median(seconds), max(peaks)
    return {
        "rules": spec,
        "runs": runs,
        "build_s": build_s,
        "peak_kib": peak_kib,
        "bytes": len(raw),
        "gzip_bytes": len(gzip.compress(raw, 6)),
        "entries": len(orjson.loads(raw)["entries"]),
        "goal_s": goal_s,
        "goal_kib": goal_kib,
        "meets_goal": build_s <= goal_s and (goal_kib is None or peak_kib <= goal_kib),
    }


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
    naive = [median_time(lambda b=b: oracle.minimax(b), 1) for b in sample]  # type: ignore[misc]
    choose_us = statistics.median(warm) * 1e6
    return {
        "choose_move_median_us": choose_us,
        "choose_move_first_call_median_us": statistics.median(cold) * 1e6,
        "naive_minimax_median_us": statistics.median(naive) * 1e6,
        "naive_minimax_empty_board_ms": naive[-1] * 1e3,
        "naive_over_book": statistics.median(naive) * 1e6 / choose_us,
        "positions": len(boards),
        "naive_sample": len(sample),
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


# ---------------------------------------------------------------- main


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
    figures["startup"] = startup(book)
    figures["proof"] = proof_costs(BOOK.read_bytes())
    figures["js"] = js_costs()
    generator = generator_costs(Rules())
    boards = generator.pop("positions")
    figures["generator"] = generator
    figures["player_in_process"] = choose_costs(book, boards)
    figures["proof_3x4"] = proof_costs_3x4(started + BUDGET_S)
    figures["engine"] = engine_rate()
    figures["arrays"] = array_costs(Rules())
    figures["builds"] = [build_costs("3x4:3", 3), build_costs("4x4:4", 1)]
    figures["bench_seconds"] = time.perf_counter() - started

    report = render(figures)
    write_atomically(RESULTS, (json.dumps(figures, indent=2, sort_keys=True) + "\n").encode())
    print(report)
    print(f"\nwrote {RESULTS.relative_to(ROOT)} (untracked) in {figures['bench_seconds']:.0f} s")
    if options.record:
        record(report)
        print(f"recorded the run in {DOC.relative_to(ROOT)}")


def record(report: str) -> None:
    """Replace the recorded run at the end of docs/benchmarks.md with ``report``."""
    text = DOC.read_text(encoding="utf-8")
    head, found, _ = text.partition("\n" + RECORD_HEADING + "\n")
    if not found:
        sys.exit(f"bench: {DOC.relative_to(ROOT)} has no line {RECORD_HEADING!r} to record the run under")
    body = f"{head}\n{RECORD_HEADING}\n\n```\n{report}\n```\n"
    write_atomically(DOC, body.encode("utf-8"))


# ---------------------------------------------------------------- the report


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def times_over(value: float, baseline: float) -> str:
    return f"{value / baseline:.2f}x"


def render(f: dict[str, Any]) -> str:
    s, p, js, g, pi, p34, m = (
        f["startup"],
        f["proof"],
        f["js"],
        f["generator"],
        f["player_in_process"],
        f["proof_3x4"],
        f["machine"],
    )
    verdict = "PASS" if s["meets_goal"] else "MISS"
    click_s = s["import_click_s"]
    click = f"import click {ms(click_s)}"
    json_ms = p["json_loads_ms"]
    pl = s["packaged_load"]
    sections: list[tuple[str, list[tuple[str, str, str, str]]]] = [
        (
            f"start-up: processes alternated, {s['rounds']} rounds, from outside the checkout; times are"
            " medians, ratios the median of each round's ratio",
            [
                (
                    "GOAL scripted game, installed wheel (packaged book)",
                    ms(s["packaged_game_s"]),
                    click,
                    f"{s['ratio']:.2f}x {verdict} (goal {GOAL}x; of the medians"
                    f" {s['ratio_of_medians']:.2f}x)",
                ),
                (
                    "same game, dev install (book proven on load)",
                    ms(s["dev_game_s"]),
                    click,
                    f"{s['dev_ratio']:.2f}x ({(s['dev_game_s'] - s['packaged_game_s']) * 1e3:+.1f} ms)",
                ),
                ("for scale: python -c pass", ms(s["python_s"]), click, times_over(s["python_s"], click_s)),
                (
                    "peak memory, installed-wheel game",
                    f"{s['peak_memory']['packaged_kib']:,} KiB",
                    f"import click {s['peak_memory']['click_kib']:,} KiB",
                    times_over(s["peak_memory"]["packaged_kib"], s["peak_memory"]["click_kib"]),
                ),
                (
                    "peak memory, dev-install game",
                    f"{s['peak_memory']['dev_kib']:,} KiB",
                    f"import click {s['peak_memory']['click_kib']:,} KiB",
                    times_over(s["peak_memory"]["dev_kib"], s["peak_memory"]["click_kib"]),
                ),
            ],
        ),
        (
            "what the proof costs: in process, alternated, medians",
            [
                (
                    "book size",
                    f"{p['bytes']:,} B, {p['entries']} entries",
                    f"gzip -9 {p['gzip_bytes']:,} B",
                    f"{p['bytes'] / p['gzip_bytes']:.1f}x",
                ),
                (
                    "strict JSON: reader.parse_json",
                    f"{p['strict_json_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["strict_json_ms"], json_ms),
                ),
                (
                    "the proof alone: reader.prove",
                    f"{p['prove_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["prove_ms"], json_ms),
                ),
                (
                    "parse_book: bytes to proven book",
                    f"{p['parse_book_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["parse_book_ms"], json_ms),
                ),
                (
                    f"load_book(), installed wheel ({pl['trust']})",
                    f"{pl['load_book_ms']:.2f} ms",
                    f"json.loads {pl['json_loads_ms']:.2f} ms",
                    times_over(pl["load_book_ms"], pl["json_loads_ms"]),
                ),
                *js_rows(js),
                *rows_3x4(p34),
            ],
        ),
        (
            "generator and player, in process",
            [
                (
                    "solve 3x3 (all 4,520 positions)",
                    ms(g["solve_s"]),
                    f"naive minimax (root only) {ms(g['naive_minimax_root_s'])}",
                    f"{g['naive_over_solve']:.1f}x faster",
                ),
                (
                    "solve 3x3 + exact trap order",
                    ms(g["solve_and_trap_order_s"]),
                    f"naive minimax (root only) {ms(g['naive_minimax_root_s'])}",
                    f"{g['naive_over_ours']:.1f}x faster",
                ),
                ("write the book (encode + atomic write)", ms(g["write_book_s"]), "", ""),
                (
                    "ttt-book build, as a process",
                    ms(g["build_process_s"]),
                    f"python -c pass {ms(g['python_s'])}",
                    f"{g['build_ratio']:.1f}x",
                ),
                (
                    "choose a move, median of 4,520 positions",
                    f"{pi['choose_move_median_us']:.2f} µs",
                    f"naive minimax at play time {pi['naive_minimax_median_us']:.0f} µs",
                    f"{pi['naive_over_book']:,.0f}x faster",
                ),
                (
                    "  first call per position (fresh book)",
                    f"{pi['choose_move_first_call_median_us']:.1f} µs",
                    f"empty board, naive: {pi['naive_minimax_empty_board_ms']:.0f} ms",
                    "",
                ),
            ],
        ),
        engine_section(f["engine"]),
    ]
    sections.append(("scale: the array solver, its trap order, and ttt-book build", scale_rows(f)))
    header = ("what", "measured", "baseline", "ratio")
    every = [header, *(row for _, rows in sections for row in rows)]
    widths = [max(len(row[i]) for row in every) for i in range(4)]

    def line(row: tuple[str, str, str, str]) -> str:
        return " | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()

    lines = [
        f"start-up goal: scripted game from the installed wheel / python -c 'import click' = "
        f"{s['ratio']:.2f}x: {verdict} (goal <= {GOAL}x)",
        "",
        line(header),
        "-+-".join("-" * width for width in widths),
    ]
    for title, rows in sections:
        lines.append(f"[{title}]")
        lines.extend(line(row) for row in rows)
    imports = s["imports"]
    lines.append("")
    lines.append(
        "installed-wheel game start-up imports (python -X importtime, which inflates each figure), "
        "largest cumulative first:"
    )
    lines.extend(import_line(row) for row in imports["largest"])
    lines.append(
        f"imports that python -c 'import click' does not make: {imports['beyond_click_modules']} modules, "
        f"{imports['beyond_click_self_us'] / 1e3:.1f} ms of their own time; the largest by their own time:"
    )
    lines.extend(import_line(row) for row in imports["beyond_click"])
    if "skipped" in p34:
        lines.append(f"\n3x4: not measured ({p34['skipped']})")
    if "missing" in js:
        lines.append(f"\nJS: not measured ({js['missing']})")
    lines.append("")
    lines.append(
        f"game: ttt-play --moves {s['moves']} --seed {SEED}; bench took {f['bench_seconds']:.0f} s\n"
        f"machine: {m['cores']} cores, {m['cpu']}, {m['memory']}, Python {m['python']}, "
        f"load average {m['load_average']:.1f} at the start"
    )
    return "\n".join(lines)


def passed(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def scale_rows(f: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    a = f["arrays"]
    rows = [
        (
            "solve 3x3 + trap order, arrays (the build's path)",
            ms(a["arrays_s"]),
            f"naive minimax (root only) {ms(a['naive_s'])}",
            f"{a['naive_over_arrays']:.1f}x faster",
        ),
    ]
    for b in f["builds"]:
        runs = f", median of {b['runs']}" if b["runs"] > 1 else ""
        goal = f"goal {b['goal_s']:.0f} s" + (f", {b['goal_kib'] / 2**20:.0f} GiB" if b["goal_kib"] else "")
        rows.append(
            (
                f"ttt-book build --rules {b['rules']}, a process{runs}",
                f"{b['build_s']:.2f} s, peak {b['peak_kib'] / 1024:,.0f} MiB",
                goal,
                passed(b["meets_goal"]),
            )
        )
        rows.append(
            (
                f"  its book ({b['entries']:,} entries)",
                f"{b['bytes']:,} B",
                f"gzip -6 {b['gzip_bytes']:,} B",
                f"{b['bytes'] / b['gzip_bytes']:.1f}x",
            )
        )
    return rows


def import_line(row: dict[str, Any]) -> str:
    return f"  {row['module']:<28} self {row['self_us']:>6} µs   cumulative {row['cumulative_us']:>6} µs"


def js_rows(js: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    if "missing" in js:
        return [("JS reader", "not measured", "", "")]
    baseline = f"JSON.parse {js['json_parse_ms']:.2f} ms"
    return [
        (
            "JS strict JSON: parseStrictJSON",
            f"{js['parse_ms']:.2f} ms",
            baseline,
            times_over(js["parse_ms"], js["json_parse_ms"]),
        ),
        (
            "JS loadBook: bytes to proven book",
            f"{js['load_ms']:.2f} ms",
            baseline,
            times_over(js["load_ms"], js["json_parse_ms"]),
        ),
    ]


def rows_3x4(p34: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    if "skipped" in p34:
        return [("3x4 k=3 book: parse_book", "not measured", "", "")]
    return [
        ("3x4 k=3 book: ttt-book build (once)", f"{p34['build_s']:.1f} s", "", ""),
        (
            f"3x4 k=3 book: parse_book ({p34['entries']:,} entries, {p34['bytes'] / 2**20:.1f} MiB)",
            f"{p34['parse_book_ms']:.0f} ms",
            f"json.loads {p34['json_loads_ms']:.0f} ms",
            times_over(p34["parse_book_ms"], p34["json_loads_ms"]),
        ),
        js_row_3x4(p34.get("js", {"missing": "not measured"})),
    ]


def js_row_3x4(js: dict[str, Any]) -> tuple[str, str, str, str]:
    if "missing" in js:
        return ("3x4 k=3 book: JS loadBook", "not measured", js["missing"], "")
    return (
        "3x4 k=3 book: JS loadBook",
        f"{js['load_ms']:.0f} ms",
        f"JSON.parse {js['json_parse_ms']:.0f} ms",
        times_over(js["load_ms"], js["json_parse_ms"]),
    )


# ---------------------------------------------------------------- the engine (ttt-play --engine)

#: The engine's goal: requests answered per second, one at a time through a pipe.
ENGINE_GOAL = 10_000
ENGINE_REQUESTS = 5000


def engine_requests(count: int) -> list[bytes]:
    """A fixed mix of request lines: evaluate and seeded choose, on positions of every depth."""
    rng = random.Random(SEED)
    boards = sorted(oracle.all_positions()[0])
    levels = ("perfect", "hard", "medium", "easy")
    lines = []
    for i in range(count):
        board = rng.choice(boards)
        if i % 2:
            request: dict[str, Any] = {"op": "evaluate", "board": board, "id": i}
        else:
            request = {"op": "choose", "board": board, "level": levels[i // 2 % 4], "seed": i, "id": i}
        lines.append(json.dumps(request).encode() + b"\n")
    return lines


def lockstep(argv: list[str], lines: list[bytes]) -> float:
    """Requests per second through a pipe, each answer read before the next request is sent."""
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) as process:
        assert process.stdin is not None and process.stdout is not None
        send, answers = process.stdin, process.stdout
        reader = os.fdopen(answers.fileno(), "rb", closefd=False)
        for line in lines[:200]:  # warm up: imports, book, caches
            send.write(line)
            reader.readline()
        start = time.perf_counter()
        for line in lines:
            send.write(line)
            if not reader.readline():
                sys.exit(f"bench: {' '.join(argv)} stopped answering")
        rate = len(lines) / (time.perf_counter() - start)
        send.close()
        process.wait()
    return rate


def engine_rate(rounds: int = 3) -> dict[str, Any]:
    """``ttt-play --engine`` from a Python client, one request at a time, beside ``cat`` echoing
    the same lines (the pipe's own round trip); medians over alternated rounds."""
    lines = engine_requests(ENGINE_REQUESTS)
    engine_argv, cat_argv = [str(BIN / "ttt-play"), "--engine"], ["cat"]
    engine, cat = [], []
    for _ in range(rounds):
        engine.append(lockstep(engine_argv, lines))
        cat.append(lockstep(cat_argv, lines))
    rate = statistics.median(engine)
    return {
        "requests": ENGINE_REQUESTS,
        "requests_per_s": rate,
        "cat_requests_per_s": statistics.median(cat),
        "meets_goal": rate >= ENGINE_GOAL,
    }


def engine_section(e: dict[str, Any]) -> tuple[str, list[tuple[str, str, str, str]]]:
    verdict = "PASS" if e["meets_goal"] else "MISS"
    return (
        f"ttt-play --engine: {e['requests']:,} requests one at a time through a pipe from Python",
        [
            (
                "requests per second (evaluate and seeded choose)",
                f"{e['requests_per_s']:,.0f}/s {verdict} (goal {ENGINE_GOAL:,}/s)",
                f"cat echoing them {e['cat_requests_per_s']:,.0f}/s",
                f"{e['cat_requests_per_s'] / e['requests_per_s']:.1f}x slower",
            )
        ],
    )


if __name__ == "__main__":
    main()
