"""Ctrl-C while a command is still starting: one line, status 130 (docs/reliability.md).

The commands installed in the environment running the tests are run as they are started from a
shell, through the console scripts pip wrote. A module named on PYTHONPATH is imported in place
of the one the command imports, and interrupts its own process there, as a Ctrl-C would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
TIMEOUT = 60
# SIGINT to its own process, then a wait: Python's handler raises KeyboardInterrupt in the sleep
# (PEP 475 resumes a sleep only when the handler returns), while the import is running.
INTERRUPTS_ITS_IMPORT = "import os, signal, time\nos.kill(os.getpid(), signal.SIGINT)\ntime.sleep(30)\n"


@pytest.mark.parametrize(
    "module",
    [
        "dataclasses",  # early: player/tictactoe_book/__init__ imports tictactoe_book.game, which imports it
        "click",  # late: the command line, after the library
    ],
)
@pytest.mark.parametrize("command", ["ttt-play", "ttt-book"])
def test_ctrl_c_while_the_command_is_imported_is_one_line_and_130(
    tmp_path: Path, command: str, module: str
) -> None:
    (tmp_path / f"{module}.py").write_text(INTERRUPTS_ITS_IMPORT)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [str(BIN / command), "--help"], env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    # not -2 (ended by the signal, after Python printed its traceback)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "Interrupted.\n" and done.stdout == ""


def test_on_a_terminal_a_newline_first_ends_the_line_its_ctrl_c_is_on(tmp_path: Path) -> None:
    (tmp_path / "click.py").write_text(INTERRUPTS_ITS_IMPORT)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    leader, follower = os.openpty()
    with open(leader, "rb", buffering=0) as terminal:
        try:
            done = subprocess.run(
                [str(BIN / "ttt-play"), "--help"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=follower,
                timeout=TIMEOUT,
                check=False,
            )
        finally:
            os.close(follower)
        shown = b""
        while True:
            try:
                chunk = terminal.read(1024)
            except OSError:  # EIO: the terminal's other end is closed and everything was read
                break
            if not chunk:
                break
            shown += chunk
    assert done.returncode == 130 and done.stdout == b""
    assert shown == b"\r\nInterrupted.\r\n"  # the terminal writes each newline as CR LF


def test_the_entry_points_report_an_interrupt_with_the_tables_status() -> None:
    """tictactoe_book.commands imports nothing of ours before it can report Ctrl-C, so it keeps its own
    copy of the status: the same as the exit-status table's."""
    import tictactoe_book.commands
    from tictactoe_book.apps import console

    assert tictactoe_book.commands.INTERRUPTED == console.INTERRUPTED == 130


@pytest.mark.parametrize(
    "signum",
    [signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGQUIT],
    ids=["SIGHUP", "SIGTERM", "SIGINT", "SIGQUIT"],
)
def test_a_signal_ignored_at_start_stays_ignored(signum: int) -> None:
    """``nohup ttt-play --engine`` starts the engine with SIGHUP ignored, so that it outlives the
    terminal: a signal ignored when a command starts is left ignored (POSIX's convention, which
    nohup relies on), never caught, however the command handles it otherwise (issue 41, item
    14: catching it anyway went unseen). The shell's ``trap ''`` ignores it before the exec, as
    nohup does; the engine answers a request, gets the signal, and answers the next one."""
    ignoring = f"trap '' {signal.Signals(signum).name.removeprefix('SIG')}; exec \"$@\""
    with subprocess.Popen(
        ["sh", "-c", ignoring, "sh", str(BIN / "ttt-play"), "--engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    ) as engine:
        assert engine.stdin and engine.stdout and engine.stderr
        answers = []
        for request in ('{"op": "rules", "id": 1}', '{"op": "rules", "id": 2}'):
            engine.stdin.write(request + "\n")
            engine.stdin.flush()
            answers.append(json.loads(engine.stdout.readline() or "null"))
            if len(answers) == 1:  # the engine runs its command, and waits for the next line
                engine.send_signal(signum)
        engine.stdin.close()
        assert engine.wait(TIMEOUT) == 0, engine.stderr.read()
        assert engine.stderr.read() == ""
    assert [answer and answer["id"] for answer in answers] == [1, 2]
