"""Hypothesis fuzzers for the command lines: option values, and standard output failing at
any point. Property: only statuses from the exit table, never a traceback.

``make test`` runs them briefly; ``make fuzz`` (HYPOTHESIS_PROFILE=fuzz) at length. The
process-based fuzzer runs a twentieth as many examples as the others: each is a process.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
from unittest import mock

import click
import pytest
from click.testing import CliRunner
from faultkit import BOOK_CLI, PLAY, ROOT, text
from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe_book.apps.cli import main as play_cli
from tictactoe_book.apps.options import DELAY, SeedParam
from tictactoe_book.apps.script import parse_moves
from tictactoe_book.errors import ScriptError
from tictactoe_generator.cli import main as book_cli

pytestmark = pytest.mark.fuzz

PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
PROCESS_EXAMPLES = max(4, PROFILE.max_examples // 20)

NUMBERISH = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="0123456789-+.eE_ nafiNAFI", max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.sampled_from(["--5", "-0", "0", "nan", "inf", "-inf", "1e400", "\u0661", "\uff11", " 7 "]),
)


@given(NUMBERISH)
def test_seed_values_are_a_number_or_a_usage_error(value: str) -> None:
    try:
        seed = SeedParam().convert(value, None, None)
    except click.BadParameter as error:
        assert len(str(error)) < 200
    else:
        assert 0 <= seed < 2**32


@given(NUMBERISH)
def test_delay_values_are_finite_or_a_usage_error(value: str) -> None:
    try:
        delay = DELAY.convert(value, None, None)
    except click.BadParameter:
        pass
    else:
        assert math.isfinite(delay) and 0 <= delay <= 10


@given(st.one_of(st.text(max_size=40), st.text(alphabet="0123456789, \n\t", max_size=40)))
def test_move_lists_parse_or_are_refused_naming_the_problem(moves: str) -> None:
    try:
        parsed = parse_moves(moves)
    except ScriptError as error:
        assert str(error)
    else:
        assert all(isinstance(move, int) and move >= 0 for move in parsed)


PLAY_OPTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("--seed"), NUMBERISH),
        st.tuples(st.just("--delay"), NUMBERISH),
        st.tuples(st.just("--moves"), st.text(alphabet="0123456789, x", max_size=12)),
        st.tuples(st.sampled_from(["--mark", "--first"]), st.sampled_from(["X", "o", "Z", ""])),
        st.tuples(
            st.sampled_from(["--level", "--x-level", "--o-level"]),
            st.sampled_from(["perfect", "easy", "EASY", "expert", ""]),
        ),
        st.tuples(
            st.just("--book"),
            st.sampled_from(["", "/nonexistent.json", "/", str(ROOT / "book/tictactoe.json")]),
        ),
        st.tuples(st.sampled_from(["--watch", "--json", "--interactive", "--color", "--no-color"])),
    ),
    max_size=6,
)


@given(PLAY_OPTIONS, st.text(alphabet="0123456789hquy? \n", max_size=20))
def test_ttt_play_option_values_never_crash(options: list[tuple[str, ...]], stdin: str) -> None:
    args = [part for option in options for part in option]
    slept: list[float] = []
    with mock.patch("tictactoe_book.apps.watch.time.sleep", slept.append):
        result = CliRunner().invoke(play_cli, args, input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert result.exit_code in (0, 1, 2, 3), (args, result.output)
    assert "Traceback" not in result.output
    if result.exit_code in (2, 3):
        assert "Error: " in result.output
    assert all(math.isfinite(s) and 0 <= s <= 10 for s in slept)


SAFE_NAME = st.text(
    alphabet="abc.-_ \u00e9", min_size=0, max_size=8
)  # never a slash: stays in the temp folder


@given(
    SAFE_NAME,
    st.one_of(st.none(), SAFE_NAME),
    st.booleans(),
    # 4x4 builds now (in a minute): 5x4 is too large for one file, 5x5 for any book, 2x3:2:misere
    # the misère one
    st.sampled_from(["2x2:2", "2x3:2", "x", "3x3:9", "", "5x4:4", "5x5:4", "0x0", "2x2:2:2", "2x3:2:misere"]),
)
def test_ttt_book_build_option_values_never_crash(
    output: str, vectors: str | None, no: bool, rules: str
) -> None:
    args = ["build", "--rules", rules, "-o", output]
    args += ["--vectors", vectors] if vectors is not None else []
    args += ["--no-vectors"] if no else []
    with tempfile.TemporaryDirectory() as folder:
        old = os.getcwd()
        os.chdir(folder)
        try:
            result = CliRunner().invoke(book_cli, args)
            left = [name for name in os.listdir(folder) if ".ttt-tmp-" in name]
        finally:
            os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert result.exit_code in (0, 2, 4), (args, result.output)
    assert left == []


# name: (program, arguments, standard input)
PRINTERS = {
    "play-moves": (PLAY, ["--moves", "1,2,3", "--level", "easy", "--seed", "0"], b""),
    "play-watch": (PLAY, ["--watch", "--seed", "1"], b""),
    "play-interactive": (PLAY, ["--interactive", "--seed", "1"], b"5\nh\n?\nu\nq\n"),
    "query": (BOOK_CLI, ["query", "X........"], b""),
    "book-help": (BOOK_CLI, ["build", "--help"], b""),
}


@settings(max_examples=PROCESS_EXAMPLES)
@given(st.sampled_from(sorted(PRINTERS)), st.integers(0, 3000))
def test_standard_output_closing_at_any_point(name: str, budget: int) -> None:
    """The reader takes ``budget`` bytes, then goes: the command finishes (0) or stops
    quietly (4), never with a traceback or a message."""
    program, args, stdin = PRINTERS[name]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TTT_BOOK", None)
    child = subprocess.Popen(
        [sys.executable, "-c", program, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.write(stdin)
    child.stdin.close()
    child.stdout.read(budget)
    child.stdout.close()
    err = child.stderr.read()
    child.stderr.close()
    status = child.wait(timeout=60)
    assert status in (0, 4), (name, budget, status, text(err))
    assert err == b"", text(err)
