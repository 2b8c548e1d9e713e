"""``ttt-play`` through click's CliRunner, and as a process for the fast path and import checks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.mulberry32 import uniform_pick
from oracles.oracle import line_owner, to_move

from tictactoe_book import Book, Rng, Rules, load_book
from tictactoe_book.apps.cli import main
from tictactoe_book.apps.script import play_script

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book" / "tictactoe.json"
PLAY = [sys.executable, "-c", "from tictactoe_book.apps.cli import run; run()"]


def invoke(
    args: list[str], stdin: str | None = None, env: dict[str, str] | None = None, *, stdout_only: bool = False
) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=stdin, env=env, prog_name="ttt-play")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout if stdout_only else result.output


def finishing_moves(
    book: Book, seed: int, *, human: str = "X", first: str = "X", level: str = "perfect"
) -> list[int]:
    """A legal move list (numbered from 1) that finishes the game the CLI plays with ``seed``:
    the human always takes the lowest free cell."""
    moves: list[int] = []
    while True:
        game = play_script(book, moves, human=human, first=first, level=level, rng=Rng(seed))
        if game.is_over:
            return moves
        moves.append(game.free_cells()[0] + 1)


# ---------------------------------------------------------------- scripted games


@pytest.mark.parametrize(("human", "first"), [("X", "X"), ("O", "X"), ("X", "O"), ("O", "O")])
def test_scripted_game_prints_the_game_and_result(book: Book, human: str, first: str) -> None:
    moves = finishing_moves(book, 11, human=human, first=first)
    code, out = invoke(
        ["--moves", ",".join(map(str, moves)), "--seed", "11", "--mark", human, "--first", first]
    )
    assert code == 0, out
    assert f"You play {human}" in out and f"{first} moves first" in out
    assert "Result:" in out
    assert "you win" not in out  # the perfect level never loses
    assert out.count("(you) plays") == len(moves)


def test_scripted_json_transcript(book: Book) -> None:
    moves = finishing_moves(book, 5)
    code, out = invoke(["--moves", " ".join(map(str, moves)), "--seed", "5", "--json"])
    assert code == 0, out
    transcript = json.loads(out)
    assert transcript["seed"] == 5 and transcript["human"] == "X" and transcript["level"] == "perfect"
    # from 0 as every JSON output numbers cells (the moves were typed from 1), and said so
    assert transcript["cells_from"] == 0 and transcript["version"] == 2
    assert [m["cell"] + 1 for m in transcript["moves"] if m["by"] == "human"] == moves
    assert transcript["result"] in ("draw", "O wins")
    assert transcript["outcome"] in ("draw", "loss")
    assert len(transcript["board"]) == 9


def test_against_random_answers_an_edge_from_the_centre() -> None:
    # . X .
    # . . .      against a novice the book answers a corner next to the X (1 or 3);
    # . . .      against a random player the centre (5): 866/945 rather than 50/63 as O
    code, out = invoke(["--moves", "2", "--seed", "3", "--json", "--against", "random"])
    transcript = json.loads(out)
    assert code == 1 and transcript["moves"][1] == {"by": "computer", "cell": 4, "mark": "O"}
    assert transcript["against"] == "random"
    code, out = invoke(["--moves", "2", "--seed", "3", "--json"])
    transcript = json.loads(out)
    assert code == 1 and transcript["moves"][1]["cell"] in (0, 2) and transcript["against"] == "novice"


def test_the_hint_against_random_after_an_edge_opening() -> None:
    # . . .
    # X . .      the computer (easy, seed 5) opens on an edge; O asks for a hint: the book
    # . . .      ranked against random answers in the centre, and says so in its own terms
    #            (this hint ended ttt-play with an IndexError once)
    code, out = invoke(
        ["--plain", "--interactive", "--against", "random", "--level", "easy", "--mark", "O", "--seed", "5"],
        stdin="h\n",
    )
    assert code == 0, out
    assert "The computer (X) plays 4." in out
    assert "5 keeps the draw and wins 94% of games against a random player" in " ".join(out.split())
    assert "Move by move, with the games it wins against a random player (the book playing on):" in " ".join(
        out.split()
    )


def test_against_with_a_book_ranked_for_another_opponent_is_a_usage_error() -> None:
    code, out = invoke(["--book", str(BOOK), "--against", "random", "--moves", "2"])
    assert code == 2 and "ranks its moves against novice" in out
    code, out = invoke(
        [
            "--book",
            str(ROOT / "book" / "tictactoe-vs-random.json"),
            "--against",
            "random",
            "--moves",
            "2",
            "--seed",
            "3",
        ]
    )
    assert code == 1 and "O (computer) plays 5" in out


def test_against_on_a_board_the_packaged_books_do_not_cover(book_3x4_path: Path, tmp_path: Path) -> None:
    """A 3x4 book ranked against the novice, asked --against random: one usage line saying
    how to build the one wanted; built so, it plays (the perfect level from its top tier)."""
    code, out = invoke(["--book", str(book_3x4_path), "--against", "random", "--moves", "1"])
    assert code == 2
    assert "ranks its moves against novice, not random" in out
    assert "(ttt-book build --rules 3x4:3 --against random -o FILE writes one)" in out
    from tictactoe_generator.writer import build_book, encode

    ranked = tmp_path / "3x4-random.json"
    ranked.write_bytes(encode(build_book(Rules(3, 4, 3), against="random")))
    code, out = invoke(
        ["--book", str(ranked), "--against", "random", "--moves", "1", "--seed", "1", "--json"]
    )
    transcript = json.loads(out)
    assert code == 1 and transcript["against"] == "random" and len(transcript["moves"]) == 2
    reply = transcript["moves"][1]["cell"]
    assert reply in load_book(ranked).evaluate("X" + "." * 11).tiers[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_watch_against_random_plays_both_sides_from_the_book_ranked_against_random(seed: int) -> None:
    """--watch --against random: every move of both sides from the top tier of the book ranked
    against random; X's second move (after a corner and O's centre) is an edge beside its
    corner, where the book ranked against a novice plays a far edge (a different tier)."""
    code, out = invoke(["--watch", "--delay", "0", "--seed", str(seed), "--against", "random", "--json"])
    transcript = json.loads(out)
    assert code == 0 and transcript["against"] == "random" and transcript["result"] == "draw"
    ranked, novice = load_book(against="random"), load_book()
    board = "." * 9
    for ply, move in enumerate(transcript["moves"]):
        cell = move["cell"]
        assert cell in ranked.evaluate(board).tiers[0], (board, cell)
        if ply == 2:
            assert cell not in novice.evaluate(board).tiers[0], board
        board = board[:cell] + move["mark"] + board[cell + 1 :]


def test_moves_from_standard_input_when_it_is_not_a_terminal(book: Book) -> None:
    moves = finishing_moves(book, 3)
    code, out = invoke(["--seed", "3"], stdin="\n".join(map(str, moves)) + "\n")
    assert code == 0, out
    assert "Result:" in out


def test_unfinished_script_exits_1(book: Book) -> None:
    code, out = invoke(["--moves", "5", "--seed", "1"])
    assert code == 1
    assert "Unfinished" in out


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ("5,5", "move 5 (move 2 of the list) is illegal"),
        ("0", "move 0 (move 1 of the list) is off the board"),
        ("12", "move 12 (move 1 of the list) is off the board"),
        ("5,abc", "move 'abc' is not a cell number"),
        ("5,-1", "is not a cell number"),
        ("1" * 2000, "at most 1000"),
    ],
)
def test_illegal_script_is_a_usage_error_naming_the_move(moves: str, words: str) -> None:
    code, out = invoke(["--moves", moves, "--seed", "1"])
    assert code == 2, out
    assert words in out
    assert "Traceback" not in out


def test_moves_after_the_end_are_refused(book: Book) -> None:
    moves = finishing_moves(book, 4)
    code, out = invoke(["--moves", ",".join(map(str, [*moves, 1])), "--seed", "4"])
    assert code == 2
    assert "after the game ended" in out


# ---------------------------------------------------------------- book problems


def damaged_books(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each case: the file, and the reason code the message must carry."""
    data = json.loads(BOOK.read_bytes())
    cases: dict[str, tuple[Path, str]] = {}

    def write(name: str, content: bytes | str, words: str) -> None:
        path = tmp_path / f"{name}.json"
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        cases[name] = (path, words)

    cases["missing"] = (tmp_path / "nowhere.json", "no such file [unreadable]")
    cases["directory"] = (tmp_path, "is a directory, not a book file [unreadable]")
    cut = BOOK.read_text()[:5000]  # ends inside a string: the message says where it starts
    start = cut.rindex('"')
    line, column = cut.count("\n", 0, start) + 1, start - cut.rfind("\n", 0, start)
    write("malformed", cut, f"line {line}, column {column}: Unterminated string [json]")
    write("binary", b"\xff\xfe\x00garbage", "not UTF-8 text (byte 0) [json]")
    write("empty", "", "line 1, column 1: Expecting value [json]")
    write("version", json.dumps({**data, "version": 1}), "format version 1; this reader reads 2 [version]")
    write(  # --book plays the rules a book states: a 3x3 book claiming k=2 fails at its lines
        "rules",
        json.dumps({**data, "rules": {**data["rules"], "k": 2}}),
        "has winning lines that are not those of 3x3 k=2 [lines]",
    )
    inconsistent = json.loads(BOOK.read_bytes())
    inconsistent["entries"]["........X"] = "0 0,4"
    write("inconsistent", json.dumps(inconsistent), "are not exactly its best moves [4] [entry-inconsistent]")
    write("not-book", "[1, 2, 3]", "the top level is an array, not an object [format]")
    return cases


@pytest.mark.parametrize(
    "case",
    ["missing", "directory", "malformed", "binary", "empty", "version", "rules", "inconsistent", "not-book"],
)
def test_bad_book_is_one_line_naming_the_file_status_3(tmp_path: Path, case: str) -> None:
    path, words = damaged_books(tmp_path)[case]
    for args, env in (
        (["--book", str(path), "--moves", "5"], None),
        (["--moves", "5"], {"TTT_BOOK": str(path)}),
    ):
        code, out = invoke(args, env=env)
        assert code == 3, out
        assert words in out
        assert str(path) in out
        assert len(out.strip().splitlines()) == 1, out


def test_a_book_for_other_rules_is_played_by_them(tmp_path: Path) -> None:
    from tictactoe_book.game import Rules
    from tictactoe_generator.build import write_book

    other = tmp_path / "2x3.json"
    write_book(other, Rules(2, 3, 2))
    # 2x3 with k=2: X wins in 3 plies whatever it does (the computer, X, moves first)
    code, out = invoke(["--book", str(other), "--mark", "O", "--moves", "1", "--seed", "1"])
    assert out.startswith("Tic-tac-toe 2x3 k=2.\n"), out
    assert "Result: the computer wins." in out and code == 0
    code, out = invoke(["--book", str(other), "--moves", "7"])
    assert code == 2 and "off the board: use 1 to 6" in out


# ---------------------------------------------------------------- interactive


def play(stdin: str, *args: str) -> tuple[int, str]:
    return invoke(["--interactive", "--seed", "2", *args], stdin=stdin)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("abc", "'abc' is not a cell number"),
        ("12", "There is no cell 12"),
        ("0", "There is no cell 0"),
        ("", "Type a cell number from 1 to 9"),
        ("   ", "Type a cell number from 1 to 9"),
        ("7" * 500, "500 characters long"),
        ("5.5", "is not a cell number"),
        ("٣", "is not a cell number"),
    ],
)
def test_bad_lines_get_one_message_and_change_nothing(line: str, words: str) -> None:
    code, out = play(f"{line}\nq\n")
    assert code == 0
    assert words in out
    assert "plays" not in out  # nothing was played


def test_every_cell_from_1_to_9_can_be_typed() -> None:
    for cell in range(1, 10):
        code, out = play(f"{cell}\nq\n")
        assert code == 0
        assert "There is no cell" not in out
        assert "The computer (O) plays" in out  # the move was taken, so the computer answered
        grid = [line for line in out.split("plays")[-1].splitlines() if " | " in line and "move" not in line]
        shown = {int(ch) for line in grid for ch in line if ch.isdigit()}
        assert len(grid) == 3 and cell not in shown and "X" in "".join(grid), out


def test_a_drawn_game_is_tallied_as_a_draw(book: Book) -> None:
    # Perfect against perfect play of the human's moves draws: replay the book's own moves.
    moves: list[int] = []
    while True:
        game = play_script(book, moves, rng=Rng(2))
        if game.is_over:
            break
        moves.append(book.evaluate(game.board).tiers[0][0] + 1)
    assert game.winner is None
    code, out = play("\n".join(map(str, moves)) + "\nn\n")
    assert code == 0
    assert "Tally: you 0 won, 1 drawn, 0 lost." in out


def test_occupied_cell_is_refused_and_the_game_goes_on() -> None:
    code, out = play("5\n5\nq\n")
    assert code == 0
    assert "Cell 5 is taken by X" in out


def test_hint_undo_help_and_quit() -> None:
    code, out = play("h\n5\nu\nu\n?\nq\n")
    assert code == 0
    assert "Hint for X" in out and "1: draw" in out
    assert "Undone: X at 5, O at" in out
    assert "Nothing to undo yet." in out
    assert "hint: what every free cell leads to" in out
    assert "Goodbye. Tally: you 0 won, 0 drawn, 0 lost." in out


def test_end_of_input_ends_cleanly() -> None:
    code, out = play("5\n")
    assert code == 0
    assert "End of input." in out and "Goodbye." in out


def test_full_games_keep_a_tally_and_can_swap_sides(book: Book) -> None:
    moves = finishing_moves(book, 2)
    first_game = "\n".join(map(str, moves))
    code, out = play(first_game + "\ns\n" + "\n".join("123456789") + "\nn\n")
    assert code == 0
    assert out.count("New game") == 2
    assert "New game: you are O" in out
    game = play_script(book, moves, rng=Rng(2))  # the same game, replayed
    assert game.is_over
    won, drawn, lost = (game.winner == "X", game.winner is None, game.winner == "O")
    assert f"Tally: you {won:d} won, {drawn:d} drawn, {lost:d} lost." in out
    assert "Play again?" in out


def test_computer_moves_first_when_you_play_second() -> None:
    code, out = play("q\n", "--mark", "O")
    assert code == 0
    assert "The computer (X) plays" in out


@pytest.mark.parametrize("level", ["perfect", "hard", "medium", "easy"])
def test_every_level_plays(level: str) -> None:
    code, out = play("1\n2\n3\n4\n5\n6\n7\n8\n9\nn\n", "--level", level)
    assert code == 0
    assert "Result:" in out


def test_the_result_is_in_the_outcome_colour(book: Book) -> None:
    moves = finishing_moves(book, 2)  # the lowest free cell each time: the computer wins
    _, out = play("\n".join(map(str, moves)) + "\nn\n", "--color")
    assert "\x1b[31mResult: the computer wins." in out  # red, as the page shows a loss


def test_colour_only_when_asked_or_on_a_terminal() -> None:
    _, plain_out = play("q\n")
    assert "\x1b[" not in plain_out
    _, coloured = play("q\n", "--color")
    assert "\x1b[" in coloured
    _, no_color = invoke(["--interactive", "--seed", "2"], stdin="q\n", env={"NO_COLOR": "1"})
    assert "\x1b[" not in no_color


# ---------------------------------------------------------------- watch, help, version


def test_watch_plays_both_sides() -> None:
    code, out = invoke(["--watch", "--seed", "1"])
    assert code == 0
    assert "Result: draw." in out  # perfect against perfect
    assert out.count("(perfect) plays ") == 9


def test_watch_plain_is_the_line_mode() -> None:
    """--plain with --watch asks for the moves line by line (as a pipe gets them anyway)."""
    code, out = invoke(["--watch", "--plain", "--seed", "1"])
    assert code == 0 and out.count("(perfect) plays ") == 9 and "Result: draw." in out


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_watched_misere_game_says_once_who_completed_the_line(seed: int) -> None:
    """Misère, easy against easy: someone completes a line and so loses; the last line names
    the winner and who completed the line, in one sentence (issue 25, 6: it was a paragraph)."""
    code, out = invoke(["--watch", "--misere", "--x-level", "easy", "--o-level", "easy", "--seed", str(seed)])
    assert code == 0
    last = out.strip().splitlines()[-1]
    if last != "Result: draw.":
        found = re.fullmatch(r"Result: ([XO]) wins: ([XO]) completed a line \(misère\)\.", last)
        assert found and found[1] != found[2], last


def test_watch_with_a_delay() -> None:
    code, out = invoke(["--watch", "--seed", "1", "--delay", "0.01"])
    assert code == 0 and "Result:" in out


def test_no_color_wins_over_a_terminal() -> None:
    _, out = invoke(["--interactive", "--seed", "2", "--no-color"], stdin="q\n")
    assert "\x1b[" not in out


def test_watch_levels_and_json() -> None:
    code, out = invoke(["--watch", "--x-level", "easy", "--o-level", "perfect", "--seed", "3", "--json"])
    assert code == 0
    transcript = json.loads(out)
    assert transcript["human"] is None and transcript["winner"] != "X"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--mark", "Z"], "Invalid value for '--mark'"),
        (["--level", "expert"], "Invalid value for '--level'"),
        (["--seed", "x"], "Invalid value for '--seed'"),
        (["--delay", "-1", "--watch"], "Invalid value for '--delay'"),
        (["--bogus"], "No such option"),
    ],
)
def test_bad_options(args: list[str], words: str) -> None:
    code, out = invoke(args)
    assert code == 2
    assert words in out


def test_help_and_version() -> None:
    code, out = invoke(["--help"])
    assert code == 0
    for option in ("--mark", "--first", "--level", "--seed", "--book", "--moves", "--json", "--watch"):
        assert option in out
    code, out = invoke(["--version"])
    assert code == 0 and "ttt-play" in out


def test_help_stands_on_its_own() -> None:
    """A pip user has no README: the cells, the keys, the hint, the levels, scripts and watching."""
    _, out = invoke(["--help"])
    assert "1 | 2 | 3\n      4 | 5 | 6\n      7 | 8 | 9" in out  # the numbering, drawn
    for words in (
        "arrows move the highlight and Enter",
        "h shows or hides the hint",
        "u undoes your last move",
        "q quits",
        "--plain",
        "W win, D draw,",
        "* marks the book's own move",
        "--moves plays your moves",
        "$ echo 5 1 6 2 7 | ttt-play --seed 2",
        "--watch: the computer plays itself",
        "0.8 on a",
        "Exit status: 0",
        "130 Ctrl-C",
    ):
        assert words in " ".join(out.split()) or words in out, words
    for level, what in (
        ("perfect", "never loses"),
        ("hard", "4 moves ahead"),
        ("medium", "2 moves ahead"),
        ("easy", "random"),
    ):
        line = next(line for line in out.splitlines() if line.strip().startswith(level + " "))
        assert what in line, line


def test_watch_pauses_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from tictactoe_book.apps import cli, watch

    slept: list[float] = []
    monkeypatch.setattr(watch.time, "sleep", slept.append)
    code, _ = invoke(["--watch", "--seed", "1"])  # standard output is not a terminal here
    assert code == 0 and slept == []

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert cli.watch_delay(None, Terminal()) == cli.WATCH_DELAY == 0.8
    assert cli.watch_delay(None, io.StringIO()) == 0
    assert cli.watch_delay(0.25, Terminal()) == 0.25
    assert cli.watch_delay(0.0, Terminal()) == 0


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (["--plain", "--moves", "5"], None, "--plain does nothing with --moves"),
        (["--plain"], "5\n", "--plain does nothing when the moves are read from standard input"),
    ],
)
def test_plain_is_refused_where_no_game_is_prompted(args: list[str], stdin: str | None, words: str) -> None:
    code, out = invoke(args, stdin=stdin)
    assert code == 2 and words in out


def test_the_screen_needs_two_terminals_and_a_real_term(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from tictactoe_book.apps.cli import screen_possible

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm")
    assert screen_possible(Terminal(), Terminal())
    assert not screen_possible(io.StringIO(), Terminal())  # moves piped in
    assert not screen_possible(Terminal(), io.StringIO())  # output piped away
    for term in ("dumb", ""):
        monkeypatch.setenv("TERM", term)
        assert not screen_possible(Terminal(), Terminal())
    monkeypatch.delenv("TERM")
    assert not screen_possible(Terminal(), Terminal())


# ---------------------------------------------------------------- as a process


def run_process(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([*PLAY, *args], capture_output=True, text=True, env=env, cwd=ROOT, **kwargs)  # type: ignore[call-overload]


def test_a_process_prints_what_the_command_prints(book: Book) -> None:
    for seed in (1, 2, 3):
        for extra, human, first, level in (
            ([], "X", "X", "perfect"),
            (["--json"], "X", "X", "perfect"),
            (["--level", "easy"], "X", "X", "easy"),
            (["--mark", "O", "--first", "O"], "O", "O", "perfect"),
        ):
            moves = ",".join(map(str, finishing_moves(book, seed, human=human, first=first, level=level)))
            args = ["--moves", moves, "--seed", str(seed), *extra]
            process = run_process(args)
            code, in_process = invoke(args, stdout_only=True)
            assert (process.returncode, process.stdout) == (code, in_process), args
    unseeded = run_process(["--moves", "5", "--json"])
    assert unseeded.returncode == 1 and json.loads(unseeded.stdout)["result"] == "unfinished"


def test_an_illegal_script_is_one_usage_error_and_the_game_is_played_once() -> None:
    """One line naming the move and status 2; not click's usage block, which says nothing about
    a move list that is well formed but meets a taken cell (issue 25, 7)."""
    process = run_process(["--moves", "5,5", "--seed", "1"])
    assert process.returncode == 2
    assert process.stderr == "Error: --moves: move 5 (move 2 of the list) is illegal: cell 5 is taken by X\n"
    assert process.stdout == ""
    piped = run_process(["--seed", "1"], input="5 5\n")
    assert piped.returncode == 2
    assert (
        piped.stderr
        == "Error: standard input: move 5 (move 2 of the list) is illegal: cell 5 is taken by X\n"
    )


def test_a_scripted_game_never_loads_the_generator_or_curses(book: Book) -> None:
    moves = ",".join(map(str, finishing_moves(book, 9)))
    code = (
        "import sys\n"
        f"sys.argv = ['ttt-play', '--moves', '{moves}', '--seed', '9']\n"
        "from tictactoe_book.apps.cli import run\n"
        "try:\n    run(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('generator', 'curses')"
        " or m == 'tictactoe_book.apps.tui'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "Result:" in out.stdout
    assert out.stdout.strip().endswith("LOADED []")  # nor curses and the screen's terminal layer


# ---------------------------------------------------------------- the help's words (issue 33, item 10)


def option_help(option: str) -> str:
    """What ``ttt-play --help`` says of ``option``, on one line."""
    _, shown = invoke(["--help"])
    found = re.search(rf"^  {option} (.*?)^  --", shown, re.MULTILINE | re.DOTALL)
    assert found, shown
    return " ".join(found.group(1).split())


def test_the_transcripts_result_and_outcome_are_told_apart(book: Book) -> None:
    """A lost game: ``result`` is the board's ("O wins"), ``outcome`` yours ("loss"); a watched
    game has no outcome. The help of --json says what each member holds."""
    moves = finishing_moves(book, 3)
    code, out = invoke(["--moves", ",".join(map(str, moves)), "--seed", "3", "--json"], stdout_only=True)
    lost = json.loads(out)
    assert code == 0 and (lost["winner"], lost["result"], lost["outcome"]) == ("O", "O wins", "loss")
    code, out = invoke(["--watch", "--seed", "1", "--json"], stdout_only=True)
    assert code == 0 and json.loads(out)["outcome"] is None
    told = option_help("--json")
    for words in (
        "the result on the board (X wins, O wins, draw or unfinished)",
        "the outcome for you (win, loss",
    ):
        assert words in told, told


def test_against_is_whom_the_perfect_level_plays_to_beat_everywhere() -> None:
    """One wording for --against: the help, the README and the page say whom the computer
    "plays to beat" (the help said "Whom you play like")."""
    told = option_help("--against")
    assert told.startswith("[novice|random] Whom the perfect level plays to beat"), told
    root = Path(__file__).resolve().parent.parent
    readme = " ".join((root / "README.md").read_text().split())
    assert "**Whom the computer plays to beat.**" in readme and "Whom you face" not in readme
    assert "Plays to beat" in (root / "web" / "index.html").read_text()


def level_options(board: str, level: str) -> list[int]:
    """What ``level`` chooses among on a 3x3 board, worked out apart from the player
    (tests/oracles/oracle.py's lines): easy, a move that wins at once, else any free cell;
    medium, that, else the moves after which the opponent cannot win at once (a single one when
    it must block), else any."""
    mover = to_move(board)
    free = [cell for cell in range(9) if board[cell] == "."]

    def wins_at_once(board: str, mark: str) -> list[int]:
        cells = [cell for cell in range(9) if board[cell] == "."]
        return [cell for cell in cells if line_owner(board[:cell] + mark + board[cell + 1 :]) == mark]

    wins = wins_at_once(board, mover)
    if wins or level == "easy":
        return wins or free
    other = "O" if mover == "X" else "X"
    safe = [cell for cell in free if not wins_at_once(board[:cell] + mover + board[cell + 1 :], other)]
    return safe or free


def seeded_game(seed: int, levels: dict[str, str]) -> list[int]:
    """The cells (from 0) of a game between ``levels`` with ``seed``: one pick from the seed's
    generator (tests/oracles/mulberry32.py, docs/porting.md's words) per move, none for a forced
    move."""
    state, board, moves = seed, "." * 9, []
    while line_owner(board) is None and "." in board:
        options = level_options(board, levels[to_move(board)])
        index, state = uniform_pick(len(options), state)
        cell = options[index]
        board = board[:cell] + to_move(board) + board[cell + 1 :]
        moves.append(cell)
    return moves


@pytest.mark.parametrize("levels", [{"X": "easy", "O": "easy"}, {"X": "medium", "O": "medium"}], ids=str)
@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**32 - 1])
def test_a_seeded_game_plays_the_moves_its_seed_draws(seed: int, levels: dict[str, str]) -> None:
    """A --seed game is the same game wherever it is replayed: one draw per choice among two or
    more moves, none for a forced one (medium's blocks), so an extra draw changes it; before, no
    test pinned a seeded game to moves worked out apart from the player (issue 32, surviving
    mutants)."""
    options = ["--x-level", levels["X"], "--o-level", levels["O"], "--seed", str(seed), "--json"]
    code, out = invoke(["--watch", *options], stdout_only=True)
    transcript = json.loads(out)
    assert code == 0 and transcript["seed"] == seed
    assert [move["cell"] for move in transcript["moves"]] == seeded_game(seed, levels)
