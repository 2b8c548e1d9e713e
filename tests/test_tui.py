"""The game screen in a real pseudo-terminal, read back through a terminal emulator (pyte).

What a person sees, not what the program meant to print: arrow keys and Enter, a digit, the
hint, an undo, a finished game with its winning line, colours, and Ctrl-C leaving the terminal
as it was. The game's logic is tested in process (tests/test_screen_session.py); a few runs here
prove the curses layer wires it up.
"""

from __future__ import annotations

import os
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte
import pytest

from tictactoe_book import Book
from tictactoe_book.apps.script import play_script

ROOT = Path(__file__).resolve().parent.parent
PLAY = "from tictactoe_book.apps.cli import run; run()"
ROWS, COLS = 24, 80


class Terminal:
    """A pseudo-terminal running a command, and the screen a terminal would show for it."""

    def __init__(
        self,
        command: str,
        args: list[str],
        *,
        colour: bool = False,
        rows: int = ROWS,
        cols: int = COLS,
        env: dict[str, str] | None = None,
    ) -> None:
        # pytest-xdist's workers set COLUMNS=80 and LINES=24: the screen must go by the
        # terminal's own size whatever they say (env= passes them on purpose).
        kept = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TTT_BOOK", "COLUMNS", "LINES")}
        env = {**kept, **(env or {})}
        env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        if not colour:
            env["NO_COLOR"] = "1"
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child = pexpect.spawn(command, args, env=env, cwd=str(ROOT), dimensions=(rows, cols), timeout=20)

    def pump(self, wait: float = 0.05) -> None:
        try:
            data = self.child.read_nonblocking(65536, timeout=wait)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return
        self.raw += data
        self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(
        self,
        *texts: str,
        until: Callable[[str], bool] | None = None,
        timeout: float = 15,
        settle: bool = False,
    ) -> str:
        """The screen once it shows every one of ``texts`` (and ``until(screen)`` holds): a text
        still on the screen from an earlier step is no sign that the next one was drawn. With
        ``settle``, the screen once the program has also stopped drawing: a redraw can reach the
        terminal in several reads, and the rest of the screen may still be on its way."""
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            shown = self.text()
            if all(text in shown for text in texts) and (until is None or until(shown)):
                if not settle:
                    return shown
                self.settle()
                return self.text()
            if time.monotonic() > deadline:
                raise AssertionError(f"never showed {texts!r}; the screen:\n{shown}")

    def settle(self, quiet: float = 0.3) -> None:
        """Read until the program has written nothing for ``quiet`` seconds."""
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=quiet)
            except (pexpect.TIMEOUT, pexpect.EOF):
                return
            self.raw += data
            self.stream.feed(data)

    def press(self, *keys: str) -> None:
        for key in keys:
            self.child.send(KEYS.get(key, key))
            self.pump()

    def row_of(self, text: str) -> int:
        return next(y for y, line in enumerate(self.screen.display) if text in line)

    def char_at(self, y: int, x: int) -> pyte.screens.Char:
        return self.screen.buffer[y][x]

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.raw += self.child.before or b""
        self.stream.feed(self.child.before or b"")
        self.child.close()
        assert self.child.exitstatus is not None
        return self.child.exitstatus


#: As an xterm sends them in keypad mode, which curses switches on; "left" as a terminal that
#: ignores the switch would send it.
KEYS = {"up": "\x1bOA", "down": "\x1bOB", "right": "\x1bOC", "left": "\x1b[D", "enter": "\r"}


def game(
    *args: str, colour: bool = False, rows: int = ROWS, cols: int = COLS, env: dict[str, str] | None = None
) -> Terminal:
    return Terminal(
        sys.executable, ["-c", PLAY, "--seed", "2", *args], colour=colour, rows=rows, cols=cols, env=env
    )


def cell_text(shown: str, number: int) -> str:
    """What the board shows in cell ``number`` (1-9) of a 24x80 screen's big cells."""
    lines = shown.splitlines()
    row, col = divmod(number - 1, 3)
    line = lines[2 + row * 4 + 1]
    return line[2 + col * 8 : 2 + col * 8 + 7].strip()


def test_arrows_enter_digits_hint_and_undo() -> None:
    term = game()  # NO_COLOR set
    shown = term.wait_for("Your move (X): arrows and Enter", "Tally: you 0 won")
    assert [cell_text(shown, n) for n in range(1, 10)] == [str(n) for n in range(1, 10)]
    # The highlight starts on the centre: right, then Enter, plays cell 6.
    centre = term.char_at(2 + 4 + 1, 2 + 8 + 3)
    assert centre.data == "5" and centre.reverse
    term.press("left", "right", "right", "enter")
    shown = term.wait_for("The computer (O) played")
    assert cell_text(shown, 6) == "X"
    reply = int(shown.split("The computer (O) played ")[1][0])
    assert cell_text(shown, reply) == "[O]"  # the computer's last move, marked
    # A digit plays at once; the computer answers.
    free = next(n for n in (1, 2, 3, 4, 7, 8, 9) if n != reply)
    term.press(str(free))
    shown = term.wait_for(
        "The computer (O) played",
        "Your move (X)",
        until=lambda screen: (
            cell_text(screen, free) == "X" and screen.count("[O]") == 1 and cell_text(screen, reply) == "O"
        ),
    )
    assert cell_text(shown, free) == "X"
    # Undo takes back that move and the reply.
    term.press("u")
    shown = term.wait_for(f"Undone: X at {free}, O at")
    assert cell_text(shown, free) == str(free)
    assert cell_text(shown, reply) == "[O]"
    # The hint: labels in the free cells, the book's move starred, one line of why.
    term.press("h")
    shown = term.wait_for("W win, D draw, L loss", "the book's move")
    labels = [cell_text(shown, n) for n in range(1, 10) if n not in (6, reply)]
    assert all(label.rstrip("*")[:1] in "WDL" for label in labels), labels
    assert any(label.endswith("*") for label in labels), labels
    assert "keep" in shown or "win" in shown
    colours = {char.fg for line in term.screen.buffer.values() for char in line.values()}
    assert colours <= {"default"}, colours  # NO_COLOR is set: bold, underline and reverse only
    term.press("?")
    term.wait_for("How to play", "Press any key")
    term.press("x")
    term.wait_for("Your move (X)")
    term.press("q")
    assert term.finish() == 0
    assert "Goodbye. Tally: you 0 won, 0 drawn, 0 lost." in term.text()
    assert b"Traceback" not in term.raw


@pytest.mark.parametrize(
    ("sent", "named"),
    [
        ("\t", "Tab"),
        ("\x0c", "Ctrl-L"),
        ("\x01", "Ctrl-A"),
        ("\x7f", "Backspace"),
        ("\x1b[5~", "PageUp"),
        ("\x1b[15~", "F5"),
    ],
)
def test_a_key_that_does_nothing_is_named_on_the_screen(sent: str, named: str) -> None:
    """As a terminal sends them: Tab and Ctrl-L showed as a blank gap, Ctrl-A as ^A, Backspace,
    PageUp and F5 said nothing."""
    term = game()
    term.wait_for("Your move (X): arrows and Enter")
    term.press(sent)
    shown = term.wait_for(f"The key {named} does nothing here")
    assert "^" not in shown
    term.press("q")
    assert term.finish() == 0


def losing_moves(book: Book) -> tuple[list[int], str]:
    """Moves (1-9) of a game the human loses to the perfect level with seed 2: the lowest free
    cell each time; and the final board."""
    moves: list[int] = []
    while True:
        played = play_script(book, moves, rng=random.Random(2))
        if played.is_over:
            assert played.winner == "O", played.board
            return moves, played.board
        moves.append(played.free_cells()[0] + 1)


def test_a_finished_game_marks_the_winning_line_in_colour(book: Book) -> None:
    from tictactoe_book.game import STANDARD, completed_lines

    moves, board = losing_moves(book)
    term = game(colour=True)
    term.wait_for("Your move (X)")
    for number, move in enumerate(moves):
        term.press(str(move))
        if number < len(moves) - 1:
            term.wait_for("Your move (X)")
    shown = term.wait_for("The computer wins.", "Play again?", "Tally: you 0 won, 0 drawn, 1 lost")
    line = {cell for found in completed_lines(STANDARD, board) for cell in found}
    for cell in range(9):
        expected = (
            f"*{board[cell]}*" if cell in line else board[cell] if board[cell] != "." else str(cell + 1)
        )
        assert cell_text(shown, cell + 1) == expected, (cell, shown)
    result_row = term.row_of("The computer wins.")
    assert term.char_at(result_row, 2).fg == "red"
    marked = next(iter(line))
    row, col = divmod(marked, 3)
    assert term.char_at(2 + row * 4 + 1, 2 + col * 8 + 3).fg == "red"  # the line in the result's colour
    term.press("n")
    assert term.finish() == 0
    assert "Goodbye. Tally: you 0 won, 0 drawn, 1 lost." in term.text()


def test_ctrl_c_restores_the_terminal_and_exits_130() -> None:
    script = f'"{sys.executable}" -c "{PLAY}" --seed 2; echo "status=$?"; stty -a'
    term = Terminal("bash", ["-c", script])
    term.wait_for("Your move (X)")
    term.press("5")
    term.wait_for("The computer (O) played")
    term.child.sendintr()
    assert term.finish() == 0
    shown = term.raw.decode("utf-8", "replace")
    after = shown.split("Interrupted.")[-1]
    assert after.startswith(" Tally: you 0 won, 0 drawn, 0 lost.")  # the tally, as q says it
    assert "status=130" in after
    settings = after.split()
    assert "icanon" in settings and "echo" in settings  # not -icanon, -echo: the terminal is back
    assert "Traceback" not in shown
    assert b"\x1b[?1049l" in term.raw or b"\x1b[?47l" in term.raw  # left the game's screen


def test_watch_plain_waits_between_moves_on_a_terminal() -> None:
    """--plain: the moves line by line on a terminal too, 0.8 s after each (not on the screen)."""
    code = (
        "import time, sys\n"
        "slept = []\n"
        "time.sleep = slept.append\n"
        "from tictactoe_book.apps.cli import run\n"
        "try:\n    run(['--watch', '--plain', '--seed', '1'])\n"
        "except SystemExit:\n    pass\n"
        "print('SLEPT', sorted(set(slept)), len(slept))\n"
    )
    term = Terminal(sys.executable, ["-c", code])
    shown = term.wait_for("SLEPT")
    assert "SLEPT [0.8] 9" in shown
    term.finish()


def test_a_3x4_board_on_the_screen(book_3x4_path: Path) -> None:
    """Cells 1-12 drawn four to a row; 1 then 2 plays cell 12; an arrow moves the highlight
    onto a fourth column; the hint labels every free cell."""
    term = game("--book", str(book_3x4_path))
    shown = term.wait_for("Tic-tac-toe 3x4 k=3", "Your move (X): arrows and Enter, or 1-12")
    rows = shown.splitlines()
    assert [rows[3].split("\u2502")[c].strip() for c in range(4)] == ["1", "2", "3", "4"]
    assert [rows[11].split("\u2502")[c].strip() for c in range(4)] == ["9", "10", "11", "12"]
    term.press("1")
    term.wait_for("Typed 1: type a second digit for 10 to 12, or Enter for 1.")
    term.press("2")
    shown = term.wait_for(
        "The computer (O) played", until=lambda s: s.splitlines()[11].rstrip().endswith("X")
    )
    term.press("h")
    shown = term.wait_for("W win, D draw, L loss")
    labels = [cell.strip() for row in (3, 7, 11) for cell in shown.splitlines()[row].split("\u2502")]
    assert sum(label.rstrip("*")[:1] in ("W", "D", "L") and label != "" for label in labels) == 10, labels
    term.press("q")
    assert term.finish() == 0


# ---------------------------------------------------------------- the hint as a person sees it

LABEL = re.compile(r"[WL]\d+\*?|D\*?")


def big_cell(term: Terminal, number: int) -> list[list[pyte.screens.Char]]:
    """The three rows of characters of cell ``number`` (1-9) on a 24x80 screen's big cells."""
    row, col = divmod(number - 1, 3)
    y, x = 2 + row * 4, 2 + col * 8
    return [[term.char_at(y + i, x + j) for j in range(7)] for i in range(3)]


def text_of(chars: list[pyte.screens.Char]) -> str:
    return "".join(char.data for char in chars)


def test_the_hint_shows_the_books_move_brightest_and_keeps_the_numbers() -> None:
    """You are O; X took a corner. With the hint on, every free cell still shows its number, and
    its label; the one move that keeps the draw (5) is the one bold, underlined label, in the
    terminal's own colour, while the losing cells are red but not bold. The computer's last move
    is underlined on its text alone, not on the cell's blank rows."""
    term = game("--mark", "O", colour=True)
    term.wait_for("Your move (O)")
    term.press("h")
    term.wait_for("W win, D draw, L loss", "L6: loss in 6 moves,")
    last = next(n for n in range(1, 10) if text_of(big_cell(term, n)[1]).strip() == "[X]")
    free = [n for n in range(1, 10) if n != last]
    for n in free:
        top, middle, bottom = big_cell(term, n)
        assert text_of(top).strip() == str(n), (n, text_of(top))  # the number, kept
        assert LABEL.fullmatch(text_of(middle).strip()), (n, text_of(middle))
        assert not text_of(bottom).strip()
    labels = {n: [c for c in big_cell(term, n)[1] if c.data.strip()] for n in free}
    book = [n for n in free if text_of(labels[n]).endswith("*")]
    assert book == [5] and text_of(labels[5]) == "D*"
    assert all(c.bold and c.underscore and c.fg == "default" for c in labels[5])
    for n in free:
        if n not in book:
            assert text_of(labels[n]).startswith("L") and all(c.fg == "red" for c in labels[n])
            assert not any(c.bold or c.underscore for c in labels[n]), n
    bold = {n for n in range(1, 10) for row in big_cell(term, n) for c in row if c.bold and c.data.strip()}
    assert bold == {5, last}  # the book's move, and the computer's X (a mark is bold)
    top, middle, bottom = big_cell(term, last)
    marked = [c for c in middle if c.underscore]
    assert text_of(marked) == "[X]"
    assert not any(c.underscore for c in top + bottom)
    term.press("q")
    assert term.finish() == 0


# ---------------------------------------------------------------- small terminals

TITLE = "Tic-tac-toe: you are X, the computer O (perfect); X moves first"
#: The title as a terminal too narrow for all of it shows it: whole parts, never a word cut.
TITLES = {
    TITLE,
    "Tic-tac-toe: you are X, the computer O (perfect)",
    "you are X, the computer O (perfect)",
    "you are X",
}


@pytest.mark.parametrize("hint", [False, True], ids=["no-hint", "hint"])
@pytest.mark.parametrize("size", [(12, 40), (11, 30)], ids=["40x12", "30x11"])
def test_a_small_terminal_hides_whole_parts_and_names_them(size: tuple[int, int], hint: bool) -> None:
    """At 40x12 and 30x11 the board and the prompt are always there; the title loses whole
    parts; any part of the text that does not fit is gone whole, and the last line names it."""
    rows, cols = size
    term = game(rows=rows, cols=cols, env={"COLUMNS": "80", "LINES": "24"})  # stale: ignored
    term.wait_for("Your move (X)")
    if hint:
        term.press("h")
        term.wait_for("D*")
    shown = term.wait_for("Your move (X)", settle=True)
    lines = shown.splitlines()
    assert lines[0] in TITLES, lines[0]
    assert all(str(n) in shown for n in range(1, 10))  # every cell's number
    hidden = shown.split("Hidden: ", 1)[1].replace("\n", " ") if "Hidden: " in shown else ""
    words = " ".join(line.strip() for line in lines)
    parts = {
        "tally": "Tally: you 0 won",
        "messages": "Hints on: h again turns them off." if hint else "New game: you are X; X moves first.",
    }
    if hint:
        parts["why"] = (
            "1, 3, 7 and 9 keep the draw and win 93% of games against a novice; "
            "the other draws win at most 85%."
        )
        parts["legend"] = "W win, D draw, L loss with best play; * the book's move"
    for name, text in parts.items():
        assert (text in words) != (name in hidden), (name, shown)  # shown whole, or named
    term.press("q")
    assert term.finish() == 0


def test_a_hint_toggled_keeps_the_board_where_it_was(book_3x4_path: Path) -> None:
    """3x4 at 80x20: the board's grid stays on the same rows, in the same size of cells, with
    the hint on or off (the text under it gives way instead)."""
    term = game("--book", str(book_3x4_path), rows=20)
    shown = term.wait_for("Your move (X)")

    def grid_rows(screen: str) -> list[int]:
        return [y for y, line in enumerate(screen.splitlines()) if "\u253c" in line]

    before = grid_rows(shown)
    assert len(before) == 2
    term.press("h")
    shown = term.wait_for("Hints on", "W7*")
    assert grid_rows(shown) == before
    term.press("h")
    shown = term.wait_for("Hints off.")
    assert grid_rows(shown) == before
    term.press("q")
    assert term.finish() == 0


# ---------------------------------------------------------------- --watch on the screen


def watch(*args: str) -> Terminal:
    """ttt-play --watch in a terminal, then its status and the terminal's settings (stty -a)."""
    command = " ".join(f'"{a}"' for a in (sys.executable, "-c", PLAY, "--watch", "--seed", "1", *args))
    return Terminal("bash", ["-c", f'{command}; echo "status=$?"; stty -a'])


def marks(shown: str) -> int:
    """How many cells of a 24x80 screen's board hold a mark."""
    return sum(cell_text(shown, n).strip("[]*") in ("X", "O") for n in range(1, 10))


def restored(term: Terminal) -> str:
    """What the terminal shows once the command has ended; asserts the terminal was given back
    as it was (the game's screen left, line editing and echo on) and no traceback."""
    assert term.finish() == 0
    shown = term.raw.decode("utf-8", "replace")
    assert b"\x1b[?1049l" in term.raw or b"\x1b[?47l" in term.raw  # left the game's screen
    settings = shown.split("status=")[-1].split()
    assert "icanon" in settings and "echo" in settings
    assert "Traceback" not in shown
    return shown


def test_watch_on_a_terminal_is_the_game_screen_a_move_each_delay() -> None:
    """The board drawn in place, one move at a time, --delay seconds apart (not lines scrolling
    past); q leaves mid-game, the terminal given back with the board and how far it went."""
    term = watch("--delay", "0.4")
    term.wait_for("Tic-tac-toe: X (perfect) against O (perfect); X moves first", "every 0.4 s; q leaves")
    seen: list[tuple[int, float]] = []  # each count of marks as first seen, and when
    deadline = time.monotonic() + 60
    while (not seen or seen[-1][0] < min(seen[0][0] + 3, 9)) and time.monotonic() < deadline:
        term.pump(0.02)
        count = marks(term.text())
        if count and (not seen or count != seen[-1][0]):
            seen.append((count, time.monotonic()))
    counts = [count for count, _ in seen]
    assert counts == sorted(set(counts)) and counts[-1] - counts[0] >= 2, counts  # moves on one board
    # Count c is seen before move c + 1 is drawn, so between the first count seen and the last
    # lie at least (last - first - 1) delays, however late this test reads (a loaded machine
    # shows several moves at once, never sooner than their delays allow).
    (first, start), (last, end) = seen[0], seen[-1]
    assert end - start > 0.35 * (last - first - 1), seen
    assert term.text().splitlines()[0].startswith("Tic-tac-toe: X (perfect)")  # nothing scrolled
    term.press("q")
    shown = restored(term)
    assert re.search(r"Stopped after \d moves, [XO] to move\.\r\nstatus=0", shown), shown[-300:]


def test_watch_to_the_end_then_any_key_leaves_the_result_on_the_terminal() -> None:
    term = watch("--delay", "0")
    shown = term.wait_for("Result: draw.", "Press any key to leave.")
    assert marks(shown) == 9
    term.press("x")
    shown = restored(term)
    assert "Result: draw.\r\nstatus=0" in shown


def test_ctrl_c_while_watching_restores_the_terminal_and_exits_130() -> None:
    term = watch("--delay", "5")
    term.wait_for("a move every 5 s")
    term.child.sendintr()
    term.child.expect(pexpect.EOF)
    term.raw += term.child.before or b""
    term.child.close()
    shown = term.raw.decode("utf-8", "replace")
    after = shown.split("Interrupted.")[-1]
    assert "status=130" in after
    settings = after.split()
    assert "icanon" in settings and "echo" in settings
    assert "Traceback" not in shown


def test_the_screen_plays_to_beat_a_random_player() -> None:
    # . X .
    # . . .      --against random: the computer answers the top edge in the centre (a novice's
    # . . .      ranking answers in a corner beside it), and the hint explains by random play
    term = game("--against", "random")
    term.wait_for("Your move (X)")
    term.press("2")
    shown = term.wait_for("The computer (O) played 5")
    assert cell_text(shown, 5) == "[O]"
    # . X .
    # . O .      X to move: the book ranked against random marks 1 and 3 (23/24 of games won
    # . . .      against random), the novice's ranking would mark 4 and 6
    term.press("h")
    shown = term.wait_for("the book's move", "against a random")
    assert [cell_text(shown, n) for n in (1, 3, 4, 6)] == ["D*", "D*", "D", "D"], shown
    term.press("q")
    assert term.finish() == 0
    assert b"Traceback" not in term.raw
