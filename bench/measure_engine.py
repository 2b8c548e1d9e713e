"""``ttt-play --engine``: requests answered per second, one at a time through a pipe."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from tools import BIN

SEED = 3


#: The engine's goal: requests answered per second, one at a time through a pipe.
ENGINE_GOAL = 10_000
ENGINE_REQUESTS = 5000


def engine_requests(count: int, boards: list[str]) -> list[bytes]:
    """A fixed mix of request lines: evaluate and seeded choose, on positions of every depth."""
    rng = random.Random(SEED)
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


def engine_rate(boards: list[str], rounds: int = 3) -> dict[str, Any]:
    """``ttt-play --engine`` from a Python client, one request at a time, beside ``cat`` echoing
    the same lines (the pipe's own round trip); medians over alternated rounds."""
    lines = engine_requests(ENGINE_REQUESTS, boards)
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
