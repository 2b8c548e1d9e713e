"""The line mode in a real pseudo-terminal (``--plain``, ``TERM=dumb``, a terminal too small for
the screen): typing moves, a hint, an undo, bad input, Ctrl-D, Ctrl-C. The game screen has its
own real-terminal test, tests/test_tui.py."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parent.parent


def spawn(
    *args: str, colour: bool = False, term: str = "xterm", size: tuple[int, int] = (40, 100)
) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    env["TERM"] = term
    if not colour:
        env["NO_COLOR"] = "1"
    code = "import sys; from tictactoe_book.apps.cli import run; run()"
    child = pexpect.spawn(
        sys.executable,
        ["-c", code, "--seed", "2", *args],
        env=env,
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=20,
    )
    child.setwinsize(*size)
    return child


def test_a_game_typed_at_a_terminal() -> None:
    child = spawn("--plain")
    child.expect_exact("Your move (X)")
    child.sendline("abc")
    child.expect_exact("'abc' is not a cell number")
    child.sendline("h")
    child.expect_exact("Hint for X")
    child.expect_exact("1: draw")
    child.sendline("5")
    child.expect(r"The computer \(O\) plays (\d)")
    reply = int(child.match.group(1))
    child.expect_exact("Your move (X)")
    child.sendline("u")
    child.expect_exact(f"Undone: X at 5, O at {reply}.")
    child.expect_exact("Your move (X)")
    child.sendline("5")
    child.expect_exact("The computer (O) plays")
    child.sendline("5")
    child.expect_exact("Cell 5 is taken by X")
    child.sendline("q")
    child.expect_exact("Goodbye. Tally: you 0 won, 0 drawn, 0 lost.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_colour_on_a_terminal() -> None:
    child = spawn("--plain", colour=True)
    child.expect_exact("Your move")
    assert "\x1b[" in (child.before or "")
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("key", "message", "status"),
    [("ctrl-d", "End of input.", 0), ("ctrl-c", "Interrupted. Tally: you 0 won, 0 drawn, 0 lost.", 130)],
)
def test_ending_at_the_prompt(key: str, message: str, status: int) -> None:
    """Ctrl-D ends cleanly with status 0, Ctrl-C with status 130; never a traceback. (TERM=dumb:
    the line mode without --plain.)"""
    child = spawn(term="dumb")
    child.expect_exact("Your move (X)")
    if key == "ctrl-d":
        child.sendeof()
    else:
        child.sendintr()
    child.expect_exact(message)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    assert "Traceback" not in (child.before or "")


def test_ctrl_c_after_a_game_says_the_tally_as_quitting_does() -> None:
    """Issue 25, 6: q prints the tally, and Ctrl-C printed only "Interrupted."; a person who
    stops with Ctrl-C wants the score too. Cells are typed 1, 2, 3 ... until the game ends (a
    taken one is refused and asked again), then Ctrl-C at "Play again?"."""
    child = spawn(term="dumb")
    prompts = [r"Your move \(X\)", r"Tally: (you \d+ won, \d+ drawn, \d+ lost)\.\r\nPlay again\?"]
    cell = 0
    while child.expect(prompts) == 0:
        cell += 1
        child.sendline(str(cell))
    tally = child.match.group(1)
    assert sum(int(n) for n in re.findall(r"\d+", tally)) == 1  # one game played
    child.sendintr()
    child.expect_exact(f"Interrupted. Tally: {tally}.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_a_terminal_too_small_for_the_screen_plays_line_by_line() -> None:
    child = spawn(size=(8, 28))
    child.expect_exact("Playing line by line: the terminal is 28x8; the game screen needs at least")
    child.expect_exact("Your move (X) [")
    child.sendline("q")
    child.expect_exact("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
