"""``ttt-play --book`` on the 4x4 k=4 book (``big``: make test-big builds it, about 25 s and 1.5
GiB; ``TTT_BOOK_4X4=FILE`` names one already built instead, proven once on first load).

The computer's moves are checked by tests/oracles/negamax.py where a search is affordable: from 8
free cells on (8! lines at most). The start-up goal of issue 13, a game within 3 s of CPU and 1 GB
on a book already proven on this machine: its memory here, its CPU in ``make bench`` (a time
depends on the machine's load; bench/measure_proofs.py ``recorded_start``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from oracles.negamax import Negamax, preference
from scripted import random_human_moves

from tictactoe_book import Book, Rng, load_book
from tictactoe_book import hints as teach
from tictactoe_book.apps.layout import layout, min_size
from tictactoe_book.apps.screen import ScreenSession
from tictactoe_book.apps.session import Game

pytestmark = pytest.mark.big
ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SEARCHED_FROM = 8  # free cells: the independent search checks every computer move from here on


@pytest.fixture(scope="module")
def book_4x4(proven_4x4: tuple[Path, dict[str, str]], monkeypatch_module: pytest.MonkeyPatch) -> Book:
    path, env = proven_4x4
    monkeypatch_module.setenv("TTT_PROVEN_RECORD", env["TTT_PROVEN_RECORD"])
    book = load_book(path, rules=None)
    assert book.trust == "recorded"
    return book


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def play_cli(proven: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess[str]:
    path, env = proven
    return subprocess.run(
        [str(BIN / "ttt-play"), "--book", str(path), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


#: Prints the process's own peak memory (VmHWM) at exit. Not ``ru_maxrss``: Linux carries it
#: across exec, so a player started by this (large) test process would report at least its size.
PEAK_PROBE = """import atexit, sys
def _peak():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM:'):
            sys.stderr.write('VmHWM %s\\n' % line.split()[1])
atexit.register(_peak)
"""


def test_a_4x4_game_starts_within_1_gb(proven_4x4: tuple[Path, dict[str, str]]) -> None:
    path, env = proven_4x4
    argv = ["ttt-play", "--book", str(path), "--moves", "1", "--seed", "1"]
    game = f"sys.argv = {argv!r}\nfrom tictactoe_book.apps.cli import run\nrun()\n"
    with subprocess.Popen(
        [sys.executable, "-c", PEAK_PROBE + game],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as player:
        assert player.stdout is not None and player.stderr is not None
        out, err = player.stdout.read(), player.stderr.read()  # a few lines each
    assert player.returncode == 1, err  # one move: unfinished
    assert "Tic-tac-toe 4x4 k=4." in out and " 13 | 14 | 15 | 16" in out
    peak_kib = int(next(line for line in err.splitlines() if line.startswith("VmHWM ")).split()[1])
    assert peak_kib <= 1024 * 1024, f"{peak_kib} KiB"


@pytest.mark.parametrize("seed", range(3))
def test_4x4_scripted_games_near_the_end_play_the_best_moves_by_an_independent_solver(
    proven_4x4: tuple[Path, dict[str, str]], book_4x4: Book, seed: int
) -> None:
    rng = random.Random(seed)
    human = "X" if seed % 2 == 0 else "O"
    game = Game(book_4x4, levels={"O" if human == "X" else "X": "perfect"}, rng=Rng(seed))
    moves = random_human_moves(game, rng)
    done = play_cli(
        proven_4x4, "--mark", human, "--seed", str(seed), "--json", "--moves", ",".join(map(str, moves))
    )
    assert done.returncode == 0, done.stderr
    transcript = json.loads(done.stdout)
    assert transcript["rules"] == {"rows": 4, "cols": 4, "k": 4, "misere": False}
    solver = Negamax(4, 4, 4)
    board, checked = "." * 16, 0
    for move in transcript["moves"]:
        cell = move["cell"]
        if move["by"] == "computer" and board.count(".") <= SEARCHED_FROM:
            results = solver.moves(board)
            assert preference(results[cell]) == max(map(preference, results.values())), (board, cell)
            checked += 1
        board = board[:cell] + move["mark"] + board[cell + 1 :]
    assert board == transcript["board"] and transcript["outcome"] != "win"
    assert checked >= 1 or transcript["board"].count(".") > SEARCHED_FROM


def test_4x4_screen_two_digits_hint_and_minimum_size(book_4x4: Book) -> None:
    play = ScreenSession(book_4x4, human="X", first="X", level="perfect", rng=random.Random(1))
    play.press("1")
    play.press("6")
    assert play.game.board[15] == "X"
    height, width = min_size(4, 4)
    assert layout(play.view(), height, width) is not None and layout(play.view(), height - 1, width) is None
    off = layout(play.view(), 24, 80)
    play.press("h")  # early on 4x4: the outcomes, and a sentence that says the chances are not counted
    on = layout(play.view(), 24, 80)
    assert off is not None and on is not None  # big cells at 80x24 either way (issue 25, 4)
    assert [s for s in off if s.style == ("grid",)] == [s for s in on if s.style == ("grid",)]
    assert sum(s.text == "-------+-------+-------+-------" for s in on) == 3
    assert any(s.style == ("note",) and s.text.startswith("Hidden: ") for s in on)
    found = teach.move_hints(play.game.book, play.game.board, first=play.game.first, walks=play.game.walks)
    assert not teach.counted(found)  # HINT_BUDGET's lines, not a search of 14 free cells' tree
    evaluation = book_4x4.evaluate(play.game.board)
    assert {h.cell: (h.value, h.plies) for h in found} == {
        c: evaluation.outcome(c) for c in evaluation.scores
    }
    assert "is not counted" in teach.why(found)


def test_4x4_at_80x24_a_first_digit_shows_on_the_screen(book_4x4: Book) -> None:
    """issue 33, item 4's Done when: at 80x24 on the 4x4 book, with the hint on, typing 1 (the
    first digit of 10 to 16) changes the screen to say what it waits for."""
    play = ScreenSession(book_4x4, human="X", first="X", level="perfect", rng=random.Random(1))
    play.press("6")
    play.press("h")

    def screen() -> str:
        spans = layout(play.view(), 24, 80)
        assert spans is not None
        return "\n".join(f"{s.y} {s.x} {s.text}" for s in spans)

    before = screen()
    play.press("1")
    after = screen()
    assert after != before and "Typed 1: type a second digit for 10 to 16, or Enter for 1." in after
