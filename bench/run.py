"""``make bench``: the generator, the book and the player, each beside a baseline, in one run.

These machines are shared and noisy, so every figure that matters is a ratio against a baseline
measured in the same run, and process timings alternate the command and its baseline. Prints
one table and writes the figures to bench/results.json (atomically). No timing is asserted in
``make test``.
"""

from __future__ import annotations

import gzip
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import oracle  # noqa: E402  (the tests' independent, naive minimax: the baseline)
import orjson  # noqa: E402

from generator.atomic import write_atomically  # noqa: E402
from generator.book import book_from, encode  # noqa: E402
from generator.solve import solve  # noqa: E402
from generator.trap import trap_order  # noqa: E402
from player.book import load_book, parse_book  # noqa: E402
from player.fastjson import loads as fast_loads  # noqa: E402
from player.levels import choose_move  # noqa: E402
from player.rules import Rules  # noqa: E402
from player.script import play_script  # noqa: E402

BIN = Path(sys.executable).parent
PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results.json"


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Seconds per call of ``fn`` over a tight loop of ``calls``."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def alternate(commands: dict[str, list[str]], rounds: int) -> dict[str, float]:
    """Median wall time of each command, run in alternation ``rounds`` times."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def peak_memory_kib(code: str) -> int:
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
    out = subprocess.run([PYTHON, "-c", probe + code], capture_output=True, text=True, check=False)
    line = next(x for x in out.stderr.splitlines() if x.startswith("MAXRSS "))
    return int(line.split()[1])


def finishing_moves(seed: int) -> str:
    """Moves (cells 1-9) that finish the scripted game the player plays with ``seed``."""
    book = load_book()
    moves: list[int] = []
    while True:
        game = play_script(book, moves, rng=random.Random(seed))
        if game.is_over:
            return ",".join(map(str, moves))
        moves.append(game.free_cells()[0] + 1)


def import_breakdown(argv: list[str], top: int = 8) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) from ``python -X importtime``, largest cumulative first."""
    out = subprocess.run([PYTHON, "-X", "importtime", *argv], capture_output=True, text=True, check=False)
    rows = []
    for line in out.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            rows.append((parts[2].strip(), int(parts[0]), int(parts[1])))
    rows.sort(key=lambda row: row[2], reverse=True)
    return rows[:top]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    started = time.perf_counter()
    rules = Rules()
    figures: dict[str, Any] = {
        "machine": {
            "cores": os.cpu_count(),
            "cpu": cpu_model(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        }
    }

    # ---- generator
    solve_only_s = median_time(lambda: solve(rules), 5)
    solve_s = median_time(lambda: trap_order(solve(rules)), 5)
    solution = solve(rules)
    book_doc = book_from(solution, trap_order(solution))
    with tempfile.TemporaryDirectory() as tmp:
        write_s = median_time(lambda: write_atomically(Path(tmp) / "book.json", encode(book_doc)), 5)
    naive_s = median_time(lambda: oracle.minimax("........."), 3)
    figures["generator"] = {
        "solve_s": solve_only_s,
        "solve_and_trap_order_s": solve_s,
        "naive_over_solve": naive_s / solve_only_s,
        "write_book_s": write_s,
        "naive_minimax_root_s": naive_s,
        "naive_over_ours": naive_s / solve_s,
    }

    # ---- ttt-book build as a process
    with tempfile.TemporaryDirectory() as tmp:
        build = [str(BIN / "ttt-book"), "build", "-o", str(Path(tmp) / "b.json")]
        times = alternate({"build": build, "python": [PYTHON, "-c", "pass"]}, 5)
    figures["build_process"] = {
        "build_s": times["build"],
        "python_s": times["python"],
        "ratio": times["build"] / times["python"],
    }

    # ---- book
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    text = raw.decode()
    figures["book"] = {
        "bytes": len(raw),
        "gzip_bytes": len(gzip.compress(raw, 9)),
        "orjson_loads_ms": per_call(lambda: orjson.loads(raw), 200) * 1e3,
        "json_loads_ms": per_call(lambda: json.loads(text), 200) * 1e3,
        "fastjson_loads_ms": per_call(lambda: fast_loads(text), 200) * 1e3,
        "load_book_lazy_ms": per_call(lambda: parse_book(raw, lazy=True), 50) * 1e3,
        "load_book_full_ms": per_call(lambda: parse_book(raw), 20) * 1e3,
    }

    imports = alternate(
        {
            "python": [PYTHON, "-c", "pass"],
            "json": [PYTHON, "-c", "import json"],
            "orjson": [PYTHON, "-c", "import orjson"],
            "fastjson": [PYTHON, "-c", "import player.fastjson"],
            "click": [PYTHON, "-c", "import click"],
        },
        11,
    )
    figures["book"]["import_process_ms"] = {name: t * 1e3 for name, t in imports.items()}

    # ---- player: in process
    book = load_book()
    boards = sorted(solution.move_scores)
    rng = random.Random(1)
    warm = [per_call(lambda b=b: choose_move(book, b, rng=rng), 200) for b in boards]  # type: ignore[misc]
    cold = []
    for b in boards:
        fresh = parse_book(raw, lazy=True)
        start = time.perf_counter()
        choose_move(fresh, b, rng=rng)
        cold.append(time.perf_counter() - start)
    sample = [*random.Random(7).sample(boards, 60), "........."]
    naive = [median_time(lambda b=b: oracle.minimax(b), 1) for b in sample]  # type: ignore[misc]
    choose_us = statistics.median(warm) * 1e6
    figures["player_in_process"] = {
        "choose_move_median_us": choose_us,
        "choose_move_first_call_median_us": statistics.median(cold) * 1e6,
        "naive_minimax_median_us": statistics.median(naive) * 1e6,
        "naive_minimax_empty_board_ms": naive[-1] * 1e3,
        "naive_over_book": statistics.median(naive) * 1e6 / choose_us,
        "positions": len(boards),
        "naive_sample": len(sample),
    }

    # ---- player: a scripted game as a process
    moves = finishing_moves(3)
    game = [str(BIN / "ttt-play"), "--moves", moves, "--seed", "3"]
    times = alternate({"game": game, "python": [PYTHON, "-c", "pass"]}, 21)
    figures["player_process"] = {
        "moves": moves,
        "game_s": times["game"],
        "python_s": times["python"],
        "ratio": times["game"] / times["python"],
        "peak_rss_kib": peak_memory_kib(
            f"sys.argv = ['ttt-play', '--moves', '{moves}', '--seed', '3']\nfrom player.cli import run\nrun()"
        ),
        "python_peak_rss_kib": peak_memory_kib("pass"),
    }

    # ---- start-up breakdown
    code = (
        f"import sys; sys.argv=['ttt-play','--moves','{moves}','--seed','3']; "
        "from player.cli import run; run()"
    )
    figures["startup_imports"] = [
        {"module": name, "self_us": s, "cumulative_us": c} for name, s, c in import_breakdown(["-c", code])
    ]
    figures["bench_seconds"] = time.perf_counter() - started

    write_atomically(RESULTS, (json.dumps(figures, indent=2, sort_keys=True) + "\n").encode())
    print(render(figures))
    print(f"\nwrote {RESULTS.relative_to(ROOT)} in {figures['bench_seconds']:.0f} s")


def render(f: dict[str, Any]) -> str:
    g, bp, bk, pi, pp = (
        f["generator"],
        f["build_process"],
        f["book"],
        f["player_in_process"],
        f["player_process"],
    )
    m = f["machine"]
    rows = [
        ("what", "measured", "baseline", "ratio"),
        (
            "solve 3x3 (all 4,520 positions), in process",
            f"{g['solve_s'] * 1e3:.0f} ms",
            f"naive minimax (root only) {g['naive_minimax_root_s'] * 1e3:.0f} ms",
            f"{g['naive_over_solve']:.1f}x faster",
        ),
        (
            "solve 3x3 + exact trap order, in process",
            f"{g['solve_and_trap_order_s'] * 1e3:.0f} ms",
            f"naive minimax (root only) {g['naive_minimax_root_s'] * 1e3:.0f} ms",
            f"{g['naive_over_ours']:.1f}x faster",
        ),
        ("write the book (encode + atomic write)", f"{g['write_book_s'] * 1e3:.1f} ms", "", ""),
        (
            "ttt-book build, as a process",
            f"{bp['build_s'] * 1e3:.0f} ms",
            f"python -c pass {bp['python_s'] * 1e3:.0f} ms",
            f"{bp['ratio']:.1f}x",
        ),
        (
            "book size",
            f"{bk['bytes']:,} B",
            f"gzip -9: {bk['gzip_bytes']:,} B",
            f"{bk['bytes'] / bk['gzip_bytes']:.1f}x",
        ),
        (
            "parse the book: orjson",
            f"{bk['orjson_loads_ms']:.2f} ms",
            f"json {bk['json_loads_ms']:.2f} ms",
            f"{bk['json_loads_ms'] / bk['orjson_loads_ms']:.1f}x",
        ),
        (
            "parse the book: player.fastjson (C scanner)",
            f"{bk['fastjson_loads_ms']:.2f} ms",
            f"json {bk['json_loads_ms']:.2f} ms",
            f"{bk['json_loads_ms'] / bk['fastjson_loads_ms']:.1f}x",
        ),
        (
            "python -c 'import json' (process)",
            f"{bk['import_process_ms']['json']:.1f} ms",
            f"python -c pass {bk['import_process_ms']['python']:.1f} ms",
            f"+{bk['import_process_ms']['json'] - bk['import_process_ms']['python']:.1f} ms",
        ),
        (
            "python -c 'import orjson' (process)",
            f"{bk['import_process_ms']['orjson']:.1f} ms",
            "",
            f"+{bk['import_process_ms']['orjson'] - bk['import_process_ms']['python']:.1f} ms",
        ),
        (
            "python -c 'import player.fastjson'",
            f"{bk['import_process_ms']['fastjson']:.1f} ms",
            "",
            f"+{bk['import_process_ms']['fastjson'] - bk['import_process_ms']['python']:.1f} ms",
        ),
        (
            "python -c 'import click' (process)",
            f"{bk['import_process_ms']['click']:.1f} ms",
            "",
            f"+{bk['import_process_ms']['click'] - bk['import_process_ms']['python']:.1f} ms",
        ),
        (
            "load_book (lazy / every entry checked)",
            f"{bk['load_book_lazy_ms']:.2f} ms",
            f"{bk['load_book_full_ms']:.2f} ms",
            "",
        ),
        (
            "choose a move, median of 4,520 positions",
            f"{pi['choose_move_median_us']:.2f} µs",
            f"naive minimax at play time {pi['naive_minimax_median_us']:.0f} µs",
            f"{pi['naive_over_book']:,.0f}x",
        ),
        (
            "  first call per position (fresh book)",
            f"{pi['choose_move_first_call_median_us']:.1f} µs",
            f"empty board, naive: {pi['naive_minimax_empty_board_ms']:.0f} ms",
            "",
        ),
        (
            "scripted full game (ttt-play --moves)",
            f"{pp['game_s'] * 1e3:.1f} ms",
            f"python -c pass {pp['python_s'] * 1e3:.1f} ms",
            f"{pp['ratio']:.2f}x",
        ),
        (
            "peak memory of that game",
            f"{pp['peak_rss_kib']:,} KiB",
            f"python -c pass {pp['python_peak_rss_kib']:,} KiB",
            f"{pp['peak_rss_kib'] / pp['python_peak_rss_kib']:.2f}x",
        ),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    lines.append("")
    lines.append("player start-up imports (python -X importtime, largest cumulative first):")
    for row in f["startup_imports"]:
        lines.append(
            f"  {row['module']:<28} self {row['self_us']:>6} µs   cumulative {row['cumulative_us']:>6} µs"
        )
    lines.append("")
    lines.append(f"machine: {m['cores']} cores, {m['cpu']}, Python {m['python']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
