"""Option values and options that do nothing: each a usage error (status 2) naming the option,
the same way on every command."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from faultkit import BOOK_CLI, PLAY, assert_usage_error, run

from tictactoe_book.apps.cli import main as play
from tictactoe_generator.cli import main as book_cli


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(play, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seed", "--5"], "'--5' is not a whole number"),
        (["--seed", "-5"], "'-5' is not a whole number"),
        (["--seed", "9" * 5000], "(5,000 characters)"),
        (["--seed", str(2**32)], "'4294967296' is not a whole number from 0 to 4294967295"),
        (["--seed", "1e3"], "'1e3' is not a whole number"),
        (["--seed", "\u0661"], "is not a whole number"),  # an Arabic-Indic digit: isdigit() but not ours
    ],
)
def test_bad_seeds(args: list[str], words: str) -> None:
    code, out = invoke("--moves", "5", *args)
    assert code == 2
    assert "Invalid value for '--seed'" in out and words in out
    assert len(out) < 400  # a 5,000-digit value is not echoed whole


def test_the_largest_seed_plays() -> None:
    code, out = invoke("--moves", "5", "--seed", str(2**32 - 1))
    assert code == 1 and "Unfinished" in out


@pytest.mark.parametrize("delay", ["nan", "NaN", "inf", "-0.5", "10.5", "1e400", "x"])
def test_bad_delays(delay: str) -> None:
    code, out = invoke("--watch", "--delay", delay)
    assert code == 2
    assert "Invalid value for '--delay'" in out


NOT_SECONDS = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-1", "-0.5", "0", "601", "1e400", "x", ""]
#: float() takes these; a person typing seconds means none of them (issue 41, item 13)
NOT_SECONDS += ["1_0", "\u0661\u0660", " 1", "1 ", "+1", "1e1", "0x1", "1.5.0"]


@pytest.mark.parametrize("value", NOT_SECONDS)
@pytest.mark.parametrize("option", ["--timeout", "--startup"])
@pytest.mark.parametrize(
    "command", [["audit"], ["build", "--against-program", "-o", "b.json"]], ids=["audit", "build"]
)
def test_a_time_that_is_no_number_of_seconds_is_refused_before_the_program_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], option: str, value: str
) -> None:
    """--timeout nan was taken (no comparison with nan is true, so a range check passes it):
    every board "no answer within nan s", a verdict from a usage error (issue 32, item 1)."""
    monkeypatch.chdir(tmp_path)
    started = [sys.executable, "-c", "open('started', 'w')"]
    if option == "--startup" and value == "0":
        value = "-0.01"  # no time to start is a choice: 0 is taken
    result = CliRunner().invoke(book_cli, [*command, option, value, "--", *started])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output and "number of seconds" in result.output
    assert list(tmp_path.iterdir()) == []  # neither started nor written


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--watch", "--moves", "5"], "--moves does nothing with --watch"),
        (["--watch", "--mark", "O"], "--mark does nothing with --watch"),
        (["--watch", "--level", "easy", "--interactive"], "--level, --interactive do nothing with --watch"),
        (["--moves", "5", "--x-level", "easy"], "--x-level does nothing without --watch"),
        (
            ["--moves", "5", "--o-level", "easy", "--delay", "1"],
            "--o-level, --delay do nothing without --watch",
        ),
        (["--moves", "5", "--interactive"], "--interactive does nothing with --moves"),
        (["--interactive", "--json"], "--json does nothing in an interactive game"),
    ],
)
def test_options_that_do_nothing_in_the_mode_are_refused(args: list[str], words: str) -> None:
    code, out = invoke(*args, stdin="q\n")
    assert code == 2
    assert words in out


def test_options_at_their_defaults_but_typed_are_refused_too() -> None:
    code, out = invoke("--watch", "--mark", "X")
    assert code == 2 and "--mark does nothing with --watch" in out


@pytest.mark.parametrize("moves", ["5,,1", "5,1,", ",5", "5 , , 1"])
def test_an_empty_item_in_a_move_list(moves: str) -> None:
    code, out = invoke("--moves", moves, "--seed", "1")
    assert code == 2
    assert "is empty" in out


@pytest.mark.parametrize("moves", ["5, 1", "5 ,1", "5\n1", " 5 1 ", "5,\n1"])
def test_separators_people_type_are_accepted(moves: str) -> None:
    code, out = invoke("--moves", moves, "--seed", "1")
    assert code == 1 and "Unfinished" in out


@pytest.mark.parametrize(
    ("program", "args"),
    [
        (PLAY, ["--book", "", "--moves", "5"]),
        (PLAY, ["--book", "", "--watch"]),
        (BOOK_CLI, ["query", "--book", "", "X........"]),
        (BOOK_CLI, ["levels", "--book", ""]),
        (BOOK_CLI, ["levels", "--update", ""]),
    ],
    ids=["play-moves", "play-watch", "query", "levels", "levels-update"],
)
def test_an_empty_file_name_is_the_same_usage_error_everywhere(program: str, args: list[str]) -> None:
    assert_usage_error(run(program, *args), "an empty name names no file")


LONG = "Z" * 100_000
LONG_SEED = "9" * 400


@pytest.mark.parametrize(
    ("command", "args"),
    [
        (play, ["--mark", LONG]),
        (play, ["--level", LONG]),
        (play, ["--moves", "5", "--seed", LONG_SEED]),
        (play, ["--watch", "--delay", LONG]),
        (play, ["--moves", "5", "--first", LONG]),
        (play, ["--against", LONG]),
        (play, ["--" + LONG]),
        (play, [f"--level={LONG}"]),
        (play, ["extra" + LONG]),
        (book_cli, [LONG]),
        (book_cli, ["query", "--first", LONG, "........."]),
        (book_cli, ["build", "--rules", LONG]),
        (book_cli, ["audit", "--timeout", LONG, "--", "true"]),
        (book_cli, ["audit", "--repeat", LONG_SEED, "--", "true"]),
        (book_cli, ["audit", "--callable", LONG]),
        (book_cli, ["audit", "--callable", f"{LONG}:f"]),
        (book_cli, ["audit", "--", LONG]),
        (book_cli, ["build", "--against-program", "-o", "b.json", "--", LONG]),
        (book_cli, ["build", "-o", "b.json", LONG]),
        (book_cli, ["export", "--lang", LONG, "-o", "x"]),
        (book_cli, ["poster", "--side", LONG, "-o", "x.svg"]),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 30 else None,
)
def test_a_long_value_is_cut_in_the_message_that_repeats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: Any, args: list[str]
) -> None:
    """A 100,000-character value (a 400-digit seed) is repeated cut to 100 characters and its
    length, by every message, ours and click's (issue 32, Also; issue 33, item 10)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 2, result.output
    assert len(result.output) < 1000, result.output[:2000]
    assert "Z" * 90 in result.output or "9" * 100 in result.output
    assert re.search(r"\.\.\. \((100,0\d\d|400) characters\)", result.output), result.output
