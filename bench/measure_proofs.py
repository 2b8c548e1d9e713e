"""What proving a book costs: each step on the 3x3 book, the 3x4 one, the JavaScript reader, and
a 4x4 book's first load in each reader."""

from __future__ import annotations

import gzip
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools import (
    BIN,
    BOOK,
    JS_BENCH,
    PYTHON,
    ROOT,
    alternate_calls,
    child_cpu_seconds,
    clean_env,
    peak_memory_kib,
)

from tictactoe_book import BookError, reader
from tictactoe_book.game import STANDARD
from tictactoe_book.reader import parse_book

#: The optional 3x4 row is measured only if the whole bench stays within about this long.
BUDGET_S = 90.0
RULES_3X4 = "3x4:3"


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
    damaged = damaged_costs(json.loads(text))
    return {
        "rules": RULES_3X4,
        "build_s": build_s,
        "bytes": len(raw),
        "entries": len(json.loads(text)["entries"]),
        "runs": len(rounds),
        **{f"{name}_ms": statistics.median(r[name] for r in rounds) * 1e3 for name in fns},
        "damaged": damaged,
        "js": js,
    }


#: Issue 41, item 3: a refusal costs about what a proof costs, at most this many times the
#: valid book's parse_book, for any damaged book.
DAMAGED_GOAL = 3.0


def damaged_costs(data: dict[str, Any], rounds: int = 3) -> dict[str, Any]:
    """parse_book refusing each of ``damaged_books(data)`` (tests/damaged_everywhere.py, the
    damage tests/test_proof_definition.py checks the proof on), alternated with proving the
    valid book, medians of ``rounds``: each one's time over the valid one's, and the worst; the
    same for the JavaScript reader's loadBook (clients/js/bench.mjs --refusals), or why not."""
    from damaged_everywhere import damaged_books  # tests/, which tools puts on the path

    valid = json.dumps(data).encode()

    def refused(raw: bytes) -> None:
        try:
            parse_book(raw, rules=None)
        except BookError:
            return
        raise AssertionError("a damaged book was not refused")

    books = {name: json.dumps(book).encode() for name, book in damaged_books(data).items()}
    fns: dict[str, Callable[[], object]] = {"valid": lambda: parse_book(valid, rules=None)}
    fns.update({name: lambda raw=raw: refused(raw) for name, raw in books.items()})
    times = alternate_calls(fns, rounds)
    ratios = {name: times[name] / times["valid"] for name in books}
    worst = max(ratios, key=ratios.__getitem__)
    return {
        "entries": len(data["entries"]),
        "valid_ms": times["valid"] * 1e3,
        "ratios": ratios,
        "worst": worst,
        "worst_ms": times[worst] * 1e3,
        "worst_ratio": ratios[worst],
        "goal": DAMAGED_GOAL,
        "meets_goal": ratios[worst] <= DAMAGED_GOAL,
        "js": js_refusals(valid, books, rounds),
    }


def js_refusals(valid: bytes, books: dict[str, bytes], rounds: int) -> dict[str, Any]:
    """The JavaScript reader's loadBook on ``valid`` and refusing each of ``books``, alternated
    ``rounds`` times in one node process: medians, ratios and the worst, or why not measured."""
    node = shutil.which("node")
    if node is None or not JS_BENCH.is_file():
        return {"missing": "node not found" if node is None else f"{JS_BENCH.relative_to(ROOT)} missing"}
    with tempfile.TemporaryDirectory(prefix="ttt-bench-damaged-") as tmp:
        files = {"valid": Path(tmp) / "valid.json"}
        files.update({name: Path(tmp) / f"damaged-{i}.json" for i, name in enumerate(books)})
        files["valid"].write_bytes(valid)
        for name, raw in books.items():
            files[name].write_bytes(raw)
        argv = [node, str(JS_BENCH), "--refusals", str(rounds), *(str(f) for f in files.values())]
        out = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or [f"status {out.returncode}"]
        return {"missing": f"{JS_BENCH.relative_to(ROOT)} --refusals failed: {lines[-1]}"}
    found = json.loads(out.stdout.strip().splitlines()[-1])
    valid_ms = float(found["valid_ms"])
    ratios = {name: float(found["refused_ms"][str(files[name])]) / valid_ms for name in books}
    worst = max(ratios, key=ratios.__getitem__)
    return {
        "valid_ms": valid_ms,
        "ratios": ratios,
        "worst": worst,
        "worst_ratio": ratios[worst],
        "meets_goal": ratios[worst] <= DAMAGED_GOAL,
    }


#: Issue 34's goal: a 4x4 book's first load in Python (proven, no record) within this many times
#: the CPU time of the JavaScript reader's load of the same book.
FIRST_LOAD_GOAL = 3.0
#: The loads, each a process: the Python reader's ``load_book`` with no record to skip the proof
#: (``TTT_PROVEN_RECORD=``), and the JavaScript reader's ``loadBook`` on the file's bytes.
PYTHON_LOAD = "import sys; from tictactoe_book.reader import load_book; load_book(sys.argv[1])"
JS_LOAD = (
    "import {{readFileSync}} from 'node:fs'; import {{loadBook}} from '{reader}'; "
    "loadBook(readFileSync(process.argv[1]), {{rules: null, source: process.argv[1]}});"
)


def first_loads(book: Path, rounds: int = 3) -> dict[str, Any]:
    """A big book's first load as a process in each reader, alternated ``rounds`` times: the
    CPU time of each (user and system, the process and any it starts), medians, and the ratio
    of the medians; or why JavaScript was not measured."""
    node = shutil.which("node")
    if node is None:
        return {"missing": "node not found"}
    reader_url = (ROOT / "clients" / "js" / "tictactoe-book.js").as_uri()
    loads = {
        "python": [str(PYTHON), "-c", PYTHON_LOAD, str(book)],
        "js": [node, "--input-type=module", "-e", JS_LOAD.format(reader=reader_url), str(book)],
    }
    env = clean_env(TTT_PROVEN_RECORD="")
    times: dict[str, list[float]] = {name: [] for name in loads}
    for _ in range(rounds):
        for name, argv in loads.items():
            times[name].append(child_cpu_seconds(argv, env))
    python, js = statistics.median(times["python"]), statistics.median(times["js"])
    return {
        "entries": len(json.loads(book.read_bytes())["entries"]),
        "rounds": rounds,
        "python_cpu_s": python,
        "js_cpu_s": js,
        "python_runs": times["python"],
        "js_runs": times["js"],
        "ratio": python / js,
        "goal": FIRST_LOAD_GOAL,
        "meets_goal": python / js <= FIRST_LOAD_GOAL,
    }


#: Issue 13's start-up goal: a 4x4 game on a book proven before on this machine (its record
#: holds it, so the game parses it and does not prove it again) within this much CPU.
RECORDED_START_GOAL_S = 3.0
#: The game, a process: ``ttt-play --book BOOK --moves 1`` (one move each, then "unfinished",
#: status 1); and ``json.loads`` of the same bytes, what any reader of the whole file pays.
RECORDED_GAME = """import sys
sys.argv = ['ttt-play', '--book', sys.argv[-1], '--moves', '1', '--seed', '1']
from tictactoe_book.apps.cli import run
try:
    run()
except SystemExit as done:
    sys.exit(0 if done.code == 1 else f'the game ended with status {done.code}, not 1 (unfinished)')
"""
JSON_LOAD = "import json, sys; json.loads(open(sys.argv[1], 'rb').read())"


def recorded_start(book: Path, rounds: int = 3) -> dict[str, Any]:
    """A 4x4 game started on ``book`` recorded as proven, against ``json.loads`` of its bytes,
    each a process, alternated ``rounds`` times: CPU medians (user and system) and their ratio."""
    with tempfile.TemporaryDirectory(prefix="ttt-bench-record-") as folder:
        env = clean_env(TTT_PROVEN_RECORD=str(Path(folder) / "proven.txt"))
        subprocess.run([str(BIN / "ttt-book"), "verify", str(book)], env=env, check=True, capture_output=True)
        runs: dict[str, list[float]] = {"game": [], "json": []}
        for _ in range(rounds):
            runs["game"].append(child_cpu_seconds([str(PYTHON), "-c", RECORDED_GAME, str(book)], env))
            runs["json"].append(child_cpu_seconds([str(PYTHON), "-c", JSON_LOAD, str(book)], env))
    game, parse = statistics.median(runs["game"]), statistics.median(runs["json"])
    return {
        "rounds": rounds,
        "game_cpu_s": game,
        "json_cpu_s": parse,
        "ratio": game / parse,
        "goal_s": RECORDED_START_GOAL_S,
        "meets_goal": game <= RECORDED_START_GOAL_S,
    }


#: Issue 37's goal for the 4x4 book by parts: ttt-play's first answer within this wall time and
#: peak memory (VmHWM), measured beside the version-2 book's first load.
PARTS_FIRST_ANSWER_GOAL_S = 1.0
PARTS_FIRST_ANSWER_GOAL_MIB = 150


def parts_first_answer(book: Path, rounds: int = 3) -> dict[str, Any]:
    """``book`` split into a book by parts (``ttt-book split``), then a game's first answer
    (``RECORDED_GAME``, a process) from the parts and from ``book`` itself with no record (its
    first load: the proof), alternated ``rounds`` times: medians of wall time and peak memory,
    and the bytes on disk of each."""
    env = clean_env(TTT_PROVEN_RECORD="")
    with tempfile.TemporaryDirectory(prefix="ttt-bench-parts-") as folder:
        parts = Path(folder) / "parts"
        run = [str(BIN / "ttt-book"), "split", "--book", str(book), str(parts)]
        subprocess.run(run, env=env, check=True, capture_output=True)
        books = {"parts": parts, "v2": book}
        walls: dict[str, list[float]] = {name: [] for name in books}
        peaks: dict[str, list[int]] = {name: [] for name in books}
        for _ in range(rounds):
            for name, path in books.items():
                code = RECORDED_GAME.replace("sys.argv[-1]", repr(str(path)))
                started = time.perf_counter()
                peaks[name].append(peak_memory_kib(code, env, ROOT))
                walls[name].append(time.perf_counter() - started)
        parts_bytes = sum(path.stat().st_size for path in parts.iterdir())
    wall = {name: statistics.median(times) for name, times in walls.items()}
    peak_mib = {name: statistics.median(kib) / 1024 for name, kib in peaks.items()}
    return {
        "rounds": rounds,
        "parts_wall_s": wall["parts"],
        "parts_peak_mib": peak_mib["parts"],
        "v2_wall_s": wall["v2"],
        "v2_peak_mib": peak_mib["v2"],
        "parts_bytes": parts_bytes,
        "v2_bytes": book.stat().st_size,
        "goal_s": PARTS_FIRST_ANSWER_GOAL_S,
        "goal_mib": PARTS_FIRST_ANSWER_GOAL_MIB,
        "meets_goal": wall["parts"] <= PARTS_FIRST_ANSWER_GOAL_S
        and peak_mib["parts"] <= PARTS_FIRST_ANSWER_GOAL_MIB,
    }
