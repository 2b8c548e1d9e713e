"""Compiling a C export and asking it questions: shared by tests/test_exports.py (the export
from the repository) and tests/test_packages.py (the export ``ttt-book`` writes from the
installed wheel), so both build a single header the same way: one C file includes it as it is,
a second defines its implementation macro."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from tictactoe_generator.export.c import implementation_macro

DRIVERS = Path(__file__).resolve().parent / "exports"
STRICT_C = ["gcc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found is not None, f"{name} is not on PATH: compiling the exports needs gcc and rustc"
    return found


def compile_c(folder: Path, sources: list[Path], flags: list[str], name: str) -> Path:
    """``sources`` compiled and linked with warnings as errors, ``folder`` on the include path."""
    tool("gcc")
    program = folder / name
    subprocess.run(
        [*STRICT_C, *flags, "-I", str(folder), "-o", str(program), *map(str, sources)],
        check=True,
        capture_output=True,
        text=True,
    )
    return program


def implementing_file(folder: Path, header: str) -> Path:
    """The one C file of a program that compiles a single header's implementation, as the
    header's own comment says to write it (and including it twice, as headers that include one
    another would: the second time adds nothing)."""
    source = folder / f"implement_{header.removesuffix('.h')}.c"
    source.write_text(f'#define {implementation_macro(header)}\n#include "{header}"\n#include "{header}"\n')
    return source


def ask(program: Path, lines: list[str]) -> list[str]:
    """The program's answer to each input line (one line out per line in)."""
    done = subprocess.run(
        [str(program)],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stderr == ""
    answers = done.stdout.splitlines()
    assert len(answers) == len(lines)
    return answers


VALUES = {"win": 1, "draw": 0, "loss": -1}


def expected(vector: dict[str, Any]) -> str:
    """What a driver prints for ``vector``, from the vector alone."""
    if "error" in vector:
        return "error=" + ",".join([vector["error"]] * 6)

    def cells(items: list[int]) -> str:
        return ",".join(map(str, items))

    scores = ",".join("_" if s is None else str(s) for s in vector["scores"])
    return (
        f"key={vector['key']} sym={vector['symmetry']} "
        f"value={VALUES[vector['value']]} plies={vector['plies']} "
        f"top={cells(vector['top'])} optimal={cells(vector['optimal'])} scores={scores} "
        + " ".join(f"{level}={cells(vector['levels'][level])}" for level in ("hard", "medium", "easy"))
    )


#: The levels as the exports number them (TTT_PERFECT 0, ... TTT_EASY 3; Rust's LEVELS).
LEVEL_NUMBERS = {"perfect": 0, "hard": 1, "medium": 2, "easy": 3}


def check_vectors(program: Path, vectors: dict[str, Any]) -> int:
    """Every board vector through ``program``, the ranking the export names (the vectors'
    ``against``, novice when they do not say) and the seeded vectors (the generator's numbers,
    the games from seeds: an O-first game is the X-first one in the export's terms, the same
    cells); how many board vectors."""
    cases = vectors["valid"] + vectors["invalid"]
    seeded = [
        (f"r {v['seed']} {len(v['numbers'])}", f"numbers={','.join(map(str, v['numbers']))}")
        for v in vectors["generator"]
    ] + [
        (
            f"g {LEVEL_NUMBERS[v['level']]} {v['seed']}",
            f"moves={','.join(map(str, v['moves']))} state={v['state']}",
        )
        for v in vectors["games"]
    ]
    questions = ["against"] + [f"{v['first']}:{v['board']}" for v in cases] + [q for q, _ in seeded]
    against, *answers = ask(program, questions)
    assert against == f"against={vectors.get('against', 'novice')}"
    boards, games = answers[: len(cases)], answers[len(cases) :]
    wrong = [
        (v["first"], v["board"], a, expected(v))
        for v, a in zip(cases, boards, strict=True)
        if a != expected(v)
    ]
    assert wrong == [], f"{len(wrong)} vectors answered wrongly, the first: {wrong[:3]}"
    wrong = [(q, a, e) for (q, e), a in zip(seeded, games, strict=True) if a != e]
    assert wrong == [], f"{len(wrong)} seeded vectors answered wrongly, the first: {wrong[:3]}"
    return len(cases)
