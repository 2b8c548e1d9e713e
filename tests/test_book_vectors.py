"""Every case of book/book-vectors.json against every judge of validity.

Each case is rebuilt here from the base with this file's own reading of the edit rules (as a
port would, not with ``book_vectors.apply_edits``), then judged by the Python reader,
the JavaScript reader, ``ttt-book verify`` (the code of every invalid case; once per code as a
real process), and the spec oracle.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from book_vectors import build_book_vectors, encode_book_vectors
from click.testing import CliRunner
from judges import JsJudge, python_verdict
from oracles import book_oracle

from tictactoe_book import parse_book
from tictactoe_generator.cli import main as book_cli

ROOT = Path(__file__).resolve().parent.parent
VECTORS_PATH = ROOT / "book" / "book-vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_bytes())
BASE_PATH = ROOT / "book" / VECTORS["base"]
CASES = VECTORS["cases"]
INVALID = [case for case in CASES if case["expect"] != "valid"]
# docs/book-format.md, "A valid book", typed in again (tictactoe_book.errors.BOOK_REASONS is under test)
CODES = [
    "unreadable",
    "limits",
    "json",
    "format",
    "version",
    "rules",
    "lines",
    "symmetries",
    "entries",
    "counts",
    "entry-key",
    "entry-shape",
    "missing-entry",
    "entry-inconsistent",
]


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    """docs/conformance.md, "Applying the edits", written out again."""
    for edit in edits:
        if "text" in edit:
            text = edit["text"]
            continue
        parts = text.split(edit["find"])
        assert len(parts) == 2, f"{edit['find'][:60]!r} occurs {len(parts) - 1} times"
        assert text.find(edit["find"], text.find(edit["find"]) + 1) < 0, "overlapping occurrences"
        text = parts[0] + edit["replace"] * edit.get("times", 1) + parts[1]
    return text


def book_bytes(case: dict[str, Any]) -> bytes:
    return apply(BASE_PATH.read_text(encoding="utf-8"), case["edits"]).encode("utf-8")


@pytest.fixture(scope="module")
def case_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Every case written to a file, named after it; the two 64 MiB ones are deleted after."""
    folder = tmp_path_factory.mktemp("book-vectors")
    files = {}
    for case in CASES:
        files[case["name"]] = folder / f"{case['name']}.json"
        files[case["name"]].write_bytes(book_bytes(case))
    yield files
    for path in files.values():
        path.unlink()


def test_the_file_describes_the_shipped_book() -> None:
    assert VECTORS["format"] == "tictactoe-book-book-vectors"
    assert VECTORS["version"] == 1
    assert VECTORS["base_sha256"] == hashlib.sha256(BASE_PATH.read_bytes()).hexdigest(), (
        "book/book-vectors.json was built from another book: run `make book`"
    )
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))
    assert {case["expect"] for case in CASES} <= {"valid", *CODES}
    # every code a text can trigger has a case (unreadable is about files: see docs/conformance.md)
    assert {case["expect"] for case in CASES} == {"valid", *CODES} - {"unreadable"}


def test_the_file_is_up_to_date() -> None:
    rebuilt = encode_book_vectors(build_book_vectors(BASE_PATH.read_bytes(), BASE_PATH.name))
    assert rebuilt == VECTORS_PATH.read_bytes(), "book/book-vectors.json is stale: run `make book`"


def test_one_case_per_line() -> None:
    lines = VECTORS_PATH.read_bytes().splitlines()
    assert len(lines) == len(CASES) + 2
    assert all(json.loads(line.rstrip(b",")) == case for line, case in zip(lines[1:-1], CASES, strict=True))


VALID = [case for case in CASES if case["expect"] == "valid"]


def test_every_valid_case_says_whom_its_tiers_are_ranked_against() -> None:
    """docs/conformance.md: a valid case's ``against``, what a reader reports; every ranking a
    reader can meet among them (the default, random, a program's)."""
    assert all(("against" in case) == (case["expect"] == "valid") for case in CASES)
    assert {case["against"] for case in VALID} == {"novice", "random", "program"}


# docs/book-format.md: "-0 is allowed and means 0", in the fields whose values the derived tables
# fix too: a reader that compares their text, or refuses a minus sign there, fails one of these.
NEGATIVE_ZERO = {
    "a symmetry's perm": ('"perm":[-0,', "valid"),
    "a winning line": ('"lines":[[-0,', "valid"),
    "counts.entries": ('"entries":-0', "counts"),
}


@pytest.mark.parametrize("field", NEGATIVE_ZERO)
def test_negative_zero_is_covered_in_every_fixed_field(field: str) -> None:
    written, verdict = NEGATIVE_ZERO[field]
    books = [(case["expect"], apply(BASE_PATH.read_text(), case["edits"])) for case in CASES]
    assert any(expect == verdict and written in text for expect, text in books), field


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_spec_oracle(case: dict[str, Any], case_files: dict[str, Path]) -> None:
    """The independent reading of the spec agrees with every expected verdict (with the rules the
    file states, as every judge), and with whom a valid book's tiers are ranked against."""
    raw = case_files[case["name"]].read_bytes()  # book_bytes(case), applied once for every judge
    assert book_oracle.judge(raw, None) == case["expect"], case["description"]
    if case["expect"] == "valid":
        assert book_oracle.ranking(raw) == case["against"], case["description"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_python_reader(case: dict[str, Any], case_files: dict[str, Path]) -> None:
    raw = case_files[case["name"]].read_bytes()
    got = python_verdict(raw)
    assert got == case["expect"], (
        f"{case['name']}: expected {case['expect']}, got {got}: {case['description']}"
    )
    if case["expect"] == "valid":
        assert parse_book(raw, case["name"], rules=None).against == case["against"], case["description"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_js_reader(case: dict[str, Any], js_judge: JsJudge, case_files: dict[str, Path]) -> None:
    answer = js_judge.answer(case_files[case["name"]])
    got = "valid" if answer.get("valid") is True else str(answer.get("code", answer))
    assert got == case["expect"], (
        f"{case['name']}: expected {case['expect']}, got {got}: {case['description']}"
    )
    if case["expect"] == "valid":
        assert answer["against"] == case["against"], case["description"]


INVALID_MARK = re.compile(r"INVALID \[([\w-]+)\]")


@pytest.mark.parametrize("case", INVALID, ids=lambda case: case["name"])
def test_verify_command(case: dict[str, Any], case_files: dict[str, Path]) -> None:
    """``ttt-book verify`` prints ``INVALID [code]`` and exits 1 (in this process: a process per
    case costs 0.2 s of start-up). Valid cases are left out: verify goes on to compare them with a
    fresh build, which an unknown member or a reordered tier fails, and that takes a re-solve."""
    result = CliRunner().invoke(book_cli, ["verify", str(case_files[case["name"]])])
    got = (result.exit_code, INVALID_MARK.findall(result.output))
    assert got == (1, [case["expect"]]), result.output[-500:]


ONE_PER_CODE = [next(case for case in INVALID if case["expect"] == code) for code in CODES[1:]]


@pytest.fixture(scope="module")
def verify_processes(case_files: dict[str, Path]) -> dict[str, subprocess.CompletedProcess[str]]:
    """``ttt-book verify`` as a real process on one case per reason code, a few at a time."""
    script = Path(sys.executable).with_name("ttt-book")
    command = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "from tictactoe_generator.cli import run; run()"]
    )

    def run(case: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path = str(case_files[case["name"]])
        return subprocess.run(
            [*command, "verify", path], capture_output=True, text=True, timeout=60, check=False
        )

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return dict(zip([case["name"] for case in ONE_PER_CODE], pool.map(run, ONE_PER_CODE), strict=True))


@pytest.mark.parametrize("case", ONE_PER_CODE, ids=lambda case: case["name"])
def test_verify_process(
    case: dict[str, Any], verify_processes: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    """Exit status 1 and the code, through a real process, once per reason code."""
    result = verify_processes[case["name"]]
    assert result.returncode == 1, result.stdout + result.stderr
    assert INVALID_MARK.findall(result.stdout) == [case["expect"]], result.stdout
