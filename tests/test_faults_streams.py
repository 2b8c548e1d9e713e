"""Standard streams that fail: closed, full, broken pipes, encodings that lack a character.

Every command that prints is run as a real process with its standard output (or error)
closed (``>&-``), on /dev/full, or on a pipe whose reader has gone. The promise: one line on
standard error and status 4, except a broken pipe on standard output, which is quiet (status
4, nothing printed: the reader is gone, and a message would only be noise in a pipeline).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest
from faultkit import BOOK_CLI, PLAY, ROOT, assert_one_line, run, text

# name: (program, arguments, standard input)
COMMANDS: dict[str, tuple[str, list[str], bytes]] = {
    "play-moves": (PLAY, ["--moves", "1,2,3", "--level", "easy", "--seed", "0"], b""),
    "play-watch": (PLAY, ["--watch", "--seed", "1"], b""),
    "play-watch-json": (PLAY, ["--watch", "--json", "--seed", "1"], b""),
    "play-interactive": (PLAY, ["--interactive", "--seed", "1"], b"5\nh\nq\n"),
    "play-help": (PLAY, ["--help"], b""),
    "query": (BOOK_CLI, ["query", "X........"], b""),
    "query-json": (BOOK_CLI, ["query", "--json", "X........"], b""),
    "book-version": (BOOK_CLI, ["--version"], b""),
}


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TTT_BOOK", None)
    return env


def shell(
    redirect: str, program: str, args: list[str], stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    """Run through sh so that ``>&-`` closes the descriptor before Python starts, as a user's
    shell does."""
    return subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {redirect}', sys.executable, "-c", program, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=_env(),
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_standard_output(name: str) -> None:
    program, args, stdin = COMMANDS[name]
    process = shell(">&-", program, args, stdin)
    assert_one_line(process, 4, "cannot write standard output", "closed")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_standard_output(name: str) -> None:
    program, args, stdin = COMMANDS[name]
    with open("/dev/full", "wb") as full:
        process = run(program, *args, input=stdin, stdin=None, stdout=full)
    assert_one_line(process, 4, "cannot write standard output", "No space left on device")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_broken_pipe_is_quiet(name: str) -> None:
    program, args, stdin = COMMANDS[name]
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the child's first write
    try:
        process = run(program, *args, input=stdin, stdin=None, stdout=writer)
    finally:
        os.close(writer)
    assert process.returncode == 4, text(process.stderr)
    assert process.stderr == b"", text(process.stderr)


def test_a_broken_pipe_part_way_through_a_watched_game() -> None:
    # ttt-play --watch --delay 0.05 | head -1: the first line arrives, then silence and status 4
    pipeline = (
        f'"{sys.executable}" -c "{PLAY}" --watch --delay 0.05 --seed 1 | head -1; echo "${{PIPESTATUS[0]}}"'
    )
    process = subprocess.run(
        ["bash", "-c", pipeline], capture_output=True, cwd=ROOT, env=_env(), timeout=60, check=False
    )
    first, status = text(process.stdout).splitlines()
    assert first.startswith("X plays at level perfect")
    assert status == "4"
    assert text(process.stderr) == ""


def test_levels_on_a_full_standard_output() -> None:
    with open("/dev/full", "wb") as full:
        process = run(BOOK_CLI, "levels", stdout=full)
    assert_one_line(process, 4, "cannot write standard output")


def test_a_build_report_on_a_full_standard_output_comes_after_the_files(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        process = run(BOOK_CLI, "build", "--rules", "2x3:2", "-o", "b.json", cwd=tmp_path, stdout=full)
    assert_one_line(process, 4, "cannot write standard output")
    assert (tmp_path / "b.json").is_file()  # written: only the report was lost (docs/reliability.md)


# ---------------------------------------------------------------- standard error


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_an_error_that_cannot_be_shown_is_status_4(redirect: str) -> None:
    process = shell(redirect, PLAY, ["--bogus"])
    assert process.returncode == 4
    assert process.stdout == b""


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_a_quiet_success_does_not_need_standard_error(redirect: str) -> None:
    process = shell(redirect, BOOK_CLI, ["query", "X........"])
    assert process.returncode == 0
    assert "O to move" in text(process.stdout)


# ---------------------------------------------------------------- standard input


@pytest.mark.parametrize("args", [[], ["--interactive"]], ids=["moves-from-stdin", "interactive"])
def test_a_closed_standard_input_is_status_3(args: list[str]) -> None:
    process = shell("<&-", PLAY, args)
    assert_one_line(process, 3, "standard input is closed")


def test_a_closed_standard_input_is_not_needed_with_moves() -> None:
    process = shell("<&-", PLAY, ["--moves", "5", "--seed", "1"])
    assert process.returncode == 1  # unfinished: the documented negative answer
    assert "Unfinished" in text(process.stdout)


def test_undecodable_standard_input_is_a_bad_move() -> None:
    process = run(PLAY, "--seed", "1", input=b"5 \xff\xfe\n", stdin=None)
    assert process.returncode == 2
    assert "Traceback" not in text(process.stderr)
    assert "is not a cell number" in text(process.stderr)


# ---------------------------------------------------------------- encodings


ENCODINGS = {
    "PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii"},
    "PYTHONIOENCODING=latin-1": {"PYTHONIOENCODING": "latin-1"},
    "LC_ALL=C": {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": ""},
}


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_output_degrades_to_ascii(name: str) -> None:
    process = run(PLAY, "--moves", "1,2,3", "--level", "easy", "--seed", "0", env=ENCODINGS[name])
    assert process.returncode == 0, text(process.stderr)
    assert process.stdout.isascii()
    assert "Result: you win!" in text(process.stdout)
    # misère, spelled so wherever the stream can hold it (latin-1 can), "misere" where it cannot
    process = run(PLAY, "--misere", "--moves", "5", "--seed", "0", env=ENCODINGS[name])
    assert process.returncode == 1, text(process.stderr)  # (one move: the game is unfinished)
    title = "Tic-tac-toe 3x3 k=3 misère.\n" if "latin-1" in name else "Tic-tac-toe 3x3 k=3 misere.\n"
    assert process.stdout.decode("latin-1").startswith(title)


@pytest.mark.parametrize(("name", "title"), [("LC_ALL=C", "misere"), ("C.UTF-8", "misère")])
def test_the_game_screen_spells_misere_as_its_terminal_can(name: str, title: str) -> None:
    """curses writes in the terminal's encoding: where it cannot hold "è" the screen spells it
    as the streams do, "misere" (before, curses dropped it: "misre")."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TTT_BOOK")}
    env.update(ENCODINGS.get(name, {"LC_ALL": "C.UTF-8"}), PYTHONPATH=str(ROOT), TERM="xterm", NO_COLOR="1")
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    child = pexpect.spawn(sys.executable, ["-c", PLAY, "--misere"], env=env, dimensions=(24, 80), timeout=20)
    deadline = time.monotonic() + 20
    while "Your move" not in "\n".join(screen.display):
        assert time.monotonic() < deadline, "\n".join(screen.display)
        with contextlib.suppress(pexpect.TIMEOUT):
            stream.feed(child.read_nonblocking(65536, timeout=0.05))
    assert screen.display[0].startswith(f"Tic-tac-toe 3x3 k=3 {title}: you are X")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_a_value_the_stream_cannot_encode_is_escaped_not_a_crash(name: str) -> None:
    process = run(PLAY, "--moves", "5,\u0663", "--seed", "1", env=ENCODINGS[name])
    assert process.returncode == 2
    assert "Traceback" not in text(process.stderr)
    assert "is not a cell number" in text(process.stderr)


def test_a_file_name_that_is_not_utf8_is_printed_escaped(tmp_path: Path) -> None:
    name = b"\xff.json"
    process = subprocess.run(
        [sys.executable.encode(), b"-c", BOOK_CLI.encode(), b"build", b"--rules", b"2x2:2", b"-o", name],
        capture_output=True,
        cwd=tmp_path,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert process.returncode == 0, text(process.stderr)
    assert "wrote \\udcff.json" in text(process.stdout)
    assert (tmp_path.joinpath(name.decode("utf-8", "surrogateescape"))).is_file()


def test_the_exit_skips_the_last_collection_not_the_flush_or_the_atexit_handlers() -> None:
    """``run_cli`` freezes what is alive once the command is done (docs/benchmarks.md): a handler
    registered before the game still runs at exit and finds the collector's objects frozen, and
    the game's last line still reaches a pipe."""
    probe = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen:', gc.get_freeze_count() > 0, file=sys.stderr))"
    )
    process = run(PLAY, "--moves", "1,2,3", "--level", "easy", "--seed", "0", preamble=probe)
    assert process.returncode in (0, 1), text(process.stderr)
    assert text(process.stderr).splitlines() == ["frozen: True"]
    assert text(process.stdout).splitlines()[-1].startswith("Result: ")
