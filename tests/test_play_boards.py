"""``ttt-play`` on boards other than 3x3 and under misère rules (issue 13, items 3 and 7).

The books are built once per session (tests/conftest.py: 3x4 k=3) or shipped (3x3 misère,
book/tictactoe-misere.json). Every move the computer makes is checked against tests/oracles/negamax.py,
a solver written apart from the generator and the player; the 4x4 k=4 games are in
tests/test_play_big.py (``big`` marker).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.negamax import Negamax, preference
from scripted import random_human_moves

from tictactoe_book import Book, Rng, Rules, load_book
from tictactoe_book import hints as teach
from tictactoe_book.apps.cli import main
from tictactoe_book.apps.layout import cell_text, layout, min_size
from tictactoe_book.apps.lines import hint_text, run_session
from tictactoe_book.apps.screen import ScreenSession
from tictactoe_book.apps.session import Game
from tictactoe_book.game import EMPTY, completed_lines
from tictactoe_book.hints import win_chances
from tictactoe_book.opponents import NOVICE

ROOT = Path(__file__).resolve().parent.parent
MISERE_BOOK = ROOT / "book" / "tictactoe-misere.json"
MISERE = Rules(3, 3, 3, misere=True)


SOLVERS = {"3x4": Negamax(3, 4, 3), "misere": Negamax(3, 3, 3, misere=True)}  # shared: memos fill once


def invoke(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env={"TTT_BOOK": "", **(env or {})})
    return result.exit_code, result.output


# Each test loads its books (a Book remembers its answers: none is shared between tests).
@pytest.fixture
def book_3x4(book_3x4_path: Path) -> Book:
    return load_book(book_3x4_path, rules=None)


@pytest.fixture
def misere_book() -> Book:
    return load_book(rules=MISERE)


def replay_checked(transcript: dict[str, object], solver: Negamax, cols: int) -> str:
    """Replay a JSON transcript (cells from 1) move by move; every computer move must be one
    the independent solver rates best. Returns the final board."""
    board = EMPTY * (solver.rows * cols)
    moves = transcript["moves"]
    assert isinstance(moves, list)
    for move in moves:
        cell = move["cell"]
        if move["by"] == "computer":
            results = solver.moves(board)
            best = max(map(preference, results.values()))
            assert preference(results[cell]) == best, (board, cell, results)
        board = board[:cell] + move["mark"] + board[cell + 1 :]
    return board


# ---------------------------------------------------------------- 3x4: scripted games


@pytest.mark.parametrize("seed", range(3))
def test_3x4_scripted_games_play_the_best_moves_by_an_independent_solver(
    book_3x4: Book, book_3x4_path: Path, seed: int
) -> None:
    solver = SOLVERS["3x4"]
    rng = random.Random(seed)
    human = "X" if seed % 2 == 0 else "O"
    # the human's moves: random free cells, typed as people number them (1 to 12), against the
    # computer's choices from the seed the command is given
    game = Game(book_3x4, levels={"O" if human == "X" else "X": "perfect"}, rng=Rng(seed))
    moves = random_human_moves(game, rng)
    args = ["--book", str(book_3x4_path), "--mark", human, "--seed", str(seed), "--json"]
    code, out = invoke([*args, "--moves", ",".join(map(str, moves))])
    assert code == 0, out
    transcript = json.loads(out)
    assert transcript["rules"] == {"rows": 3, "cols": 4, "k": 3, "misere": False}
    board = replay_checked(transcript, solver, 4)
    assert board == transcript["board"] and len(board) == 12
    assert transcript["outcome"] != "win"  # the perfect level never loses


def test_3x4_text_transcript_numbers_cells_1_to_12(book_3x4_path: Path) -> None:
    code, out = invoke(["--book", str(book_3x4_path), "--moves", "12", "--seed", "1"])
    assert code == 1  # one move: unfinished
    assert out.startswith("Tic-tac-toe 3x4 k=3.\n")
    assert "X (you) plays 12" in out
    # the board as drawn: numbers right-aligned in two columns, 4 cells a row, X on 12
    assert "\n  1 |  2 |  3 |  4\n----+----+----+----\n" in out
    assert "  9 | 10 | 11 |  X" in out


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ("13", "move 13 (move 1 of the list) is off the board: use 1 to 12"),
        ("12,12", "cell 12 is taken by"),
    ],
)
def test_3x4_bad_moves_are_usage_errors_naming_the_range(book_3x4_path: Path, moves: str, words: str) -> None:
    code, out = invoke(["--book", str(book_3x4_path), "--moves", moves, "--seed", "1"])
    assert code == 2 and words in out, out


def test_3x4_line_mode_names_the_range_and_takes_two_digits(book_3x4: Book) -> None:
    lines = iter(["13", "0", "?", "12", "q"])
    out: list[str] = []
    run_session(
        book_3x4,
        human="X",
        first="X",
        level="perfect",
        read_line=lambda _: next(lines, None),
        write=out.append,
    )
    text = "\n".join(out)
    assert "There is no cell 13; type 1 to 12." in text
    assert "There is no cell 0; type 1 to 12." in text
    assert "numbered 1 to 12 in reading order, row by row: 1 2 3 4 / 5 6 7 8 / 9 10 11 12" in " ".join(
        text.split()
    )
    assert "The computer (O) plays" in text  # 12 was played, and answered


def test_3x4_hint_counts_the_chances(book_3x4: Book) -> None:
    game = Game(book_3x4, levels={"O": "perfect"})
    found = teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)
    assert teach.counted(found) and len(found) == 12
    assert "against a novice" in hint_text(game)


def test_a_hint_too_costly_to_count_shows_the_outcomes_and_says_so(
    book_3x4: Book, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(teach, "HINT_BUDGET", 50)
    game = Game(book_3x4, levels={"O": "perfect"})
    found = teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)
    assert not teach.counted(found) and all(hint.chances is None for hint in found)
    evaluation = book_3x4.evaluate(game.board)
    assert {hint.cell: (hint.value, hint.plies) for hint in found} == {
        cell: evaluation.outcome(cell) for cell in evaluation.scores
    }
    assert teach.why(found).endswith(
        "win against any defence in 7 moves, both sides' counted; the other wins take longer."
    )
    text = hint_text(game)
    assert "Move by move:" in text and "%" not in text
    # a draw is where the chances would have said why: misère 3x3 from the start
    game = Game(load_book(rules=MISERE), levels={"O": "perfect"})
    assert teach.why(teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)) == (
        "5 is the only move that keeps the draw."  # the one draw needs no chances to be the choice
    )
    # the classic book, every first move a draw: the sentence says so, not "1, 3, 7 and 9 keep it"
    game = Game(load_book(), levels={"O": "perfect"})
    found = teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)
    assert teach.why(found) == (
        "Every move keeps the draw, and the book's moves are 1, 3, 7 and 9; how often each move wins "
        "against a novice is not counted: too many lines of play this early on this board (ask again "
        "later in the game)."
    )
    # . X .
    # . . .      O to move: four cells draw, the book's two among them
    # . . .
    game.play(1)
    found = teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)
    assert teach.why(found).startswith("1 and 3 keep the draw, as 2 other moves do; how often each move")


def test_the_player_novice_agrees_with_the_build_trap_rates_on_3x4(book_3x4: Book) -> None:
    """The hint's chances (player/tictactoe_book/hints.py) against the build's
    (generator/tictactoe_generator/trap.py):
    the first player's top tier wins trap_rates.first.novice of games from the empty board."""
    check_first_trap_rates(book_3x4)


def check_first_trap_rates(book: Book) -> None:
    board = EMPTY * book.rules.cells
    chances = win_chances(book, board)
    tier = book.evaluate(board).tiers[0]
    rates = book.data["trap_rates"]["first"]
    for opponent in ("novice", "random"):
        mean = sum((chances[c][opponent] for c in tier), Fraction(0)) / len(tier)
        assert mean == Fraction(rates[opponent]), opponent


# ---------------------------------------------------------------- 3x4 and 4x4 on the screen


def screen(book: Book, human: str = "X", seed: int = 1) -> ScreenSession:
    return ScreenSession(book, human=human, first="X", level="perfect", rng=random.Random(seed))


def said(play: ScreenSession) -> str:
    return "\n".join(line.text for line in play.view().lines)


def test_screen_two_digit_cells(book_3x4: Book) -> None:
    play = screen(book_3x4)
    play.press("1")
    assert play.game.board == EMPTY * 12 and play.cursor == 0  # waits: 1, or 10 to 12?
    assert "Typed 1: type a second digit for 10 to 12, or Enter for 1." in said(play)  # the page's words
    play.press("2")
    assert play.game.board[11] == "X"  # 1 then 2: cell 12
    play.press("u")
    play.press("1")
    play.press("enter")
    assert play.game.board[0] == "X"  # 1 then Enter: cell 1
    play.press("u")
    play.press("3")
    assert play.game.board[2] == "X"  # 3 cannot begin a cell number: played at once
    play.press("u")
    play.press("1")
    play.press("3")
    assert "There is no cell 13: use 1 to 12." in said(play) and play.game.board == EMPTY * 12
    play.press("0")
    assert "There is no cell 0: use 1 to 12." in said(play)
    play.press("1")
    play.press("h")  # any other key ends the number being typed
    play.press("1")
    play.press("1")
    assert play.game.board[10] == "X"
    assert "or 1-12" in said(play)


def test_screen_arrows_wrap_on_a_3x4_board(book_3x4: Book) -> None:
    play = screen(book_3x4)
    assert play.cursor == 1 * 4 + 2  # the middle row, right of centre
    for key, expected in (("right", 7), ("right", 4), ("down", 8), ("down", 0), ("left", 3), ("up", 11)):
        play.press(key)
        assert play.cursor == expected, key
    play.press("enter")
    assert play.game.board[11] == "X"


def test_screen_help_and_title_name_the_board(book_3x4: Book) -> None:
    play = screen(book_3x4)
    assert play.view().title.startswith("Tic-tac-toe 3x4 k=3: you are X")
    play.press("?")
    page = "\n".join(line.text for line in play.view().help)
    assert "numbered 1 to 12 in reading order" in page and "1-12" in page and "phone keypad" not in page


@pytest.mark.parametrize("size", [(3, 4), (4, 4), (2, 3)])
def test_the_minimum_size_holds_the_board_and_the_prompt(size: tuple[int, int]) -> None:
    rows, cols = size
    height, width = min_size(rows, cols)
    assert (height, width) >= (11, 30)
    from tictactoe_book.apps.layout import CellView, Line, View

    cells = tuple(CellView(str(i + 1), "free", False, False, False, False) for i in range(rows * cols))
    prompt = f"Your move (X): arrows and Enter, or 1-{rows * cols}; h hint, u undo, ? help, q quit"
    lines = (
        Line("Hints on: h again turns them off.", "message", "messages"),
        Line(prompt, "prompt", "prompt"),
    )
    view = View("Tic-tac-toe", rows, cols, cells, lines, ())
    spans = layout(view, height, width)
    assert spans is not None
    text = "\n".join(span.text for span in spans)
    assert all(cell_text(cell) in text for cell in cells) and "Your move" in text
    assert layout(view, height - 1, width) is None and layout(view, height, width - 1) is None


# ---------------------------------------------------------------- misère


def test_misere_book_is_packaged_and_played_by_misere(misere_book: Book) -> None:
    assert misere_book.rules == MISERE and misere_book.source == str(MISERE_BOOK)


def test_misere_only_the_centre_does_not_lose(misere_book: Book) -> None:
    solver = SOLVERS["misere"]
    results = solver.moves(EMPTY * 9)
    assert [cell for cell, (value, _) in results.items() if value >= 0] == [4]  # the known fact
    evaluation = misere_book.evaluate(EMPTY * 9)
    assert evaluation.optimal == (4,)
    assert {cell: evaluation.outcome(cell)[0] for cell in evaluation.scores} == {
        cell: value for cell, (value, _) in results.items()
    }


@pytest.mark.parametrize("seed", range(4))
def test_misere_perfect_against_perfect_draws(seed: int) -> None:
    code, out = invoke(["--misere", "--watch", "--json", "--seed", str(seed)])
    assert code == 0, out
    transcript = json.loads(out)
    assert transcript["result"] == "draw" and transcript["rules"]["misere"] is True
    replay_checked(transcript, SOLVERS["misere"], 3)


def completing_game(book: Book, seed: int) -> list[int]:
    """The human (X)'s moves of a misère game in which X completes a line as soon as it can."""
    rng = random.Random(seed)
    game = Game(book, levels={"O": "perfect"}, rng=Rng(seed))  # the computer, as ttt-play --seed
    moves = []
    while not game.is_over:
        if game.computer_to_move:
            game.computer_move()
            continue
        board = game.board
        completing = [
            c for c in game.free_cells() if completed_lines(book.rules, board[:c] + "X" + board[c + 1 :])
        ]
        cell = completing[0] if completing else rng.choice(game.free_cells())
        moves.append(cell + 1)
        game.play(cell)
    return moves


def test_misere_completing_a_line_loses_and_the_texts_say_so(misere_book: Book) -> None:
    seed = next(s for s in range(50) if len(completing_game(misere_book, s)) < 5)
    moves = ",".join(map(str, completing_game(misere_book, seed)))
    code, out = invoke(["--misere", "--moves", moves, "--seed", str(seed)])
    assert code == 0, out
    assert out.startswith("Tic-tac-toe 3x3 k=3 misère.\n")
    assert out.rstrip().endswith("Result: you completed a line, so you lose (misère).")
    code, out = invoke(["--misere", "--moves", moves, "--seed", str(seed), "--json"])
    transcript = json.loads(out)
    assert (transcript["winner"], transcript["outcome"], transcript["result"]) == ("O", "loss", "O wins")
    replay_checked(transcript, SOLVERS["misere"], 3)
    # the screen: the completed line marked, in the loser's colour from the human's side
    play = ScreenSession(misere_book, human="X", first="X", level="perfect", rng=Rng(seed))
    for move in moves.split(","):
        play.press(move)
    assert "You completed a line, so you lose (misère)." in said(play)
    marked = [cell for cell in play.view().cells if cell.winning]
    assert len(marked) >= 3 and all(cell.text == "X" and cell.kind == "loss" for cell in marked)


def test_misere_novice_avoids_its_own_line() -> None:
    # X X .
    # O O .      X to move: cell 2 (top right) completes X's top row, a loss under misère;
    # X O .      5 and 8 complete nothing of X's
    board = "XX.OO.XO."
    assert NOVICE.moves(MISERE, board, "X") == [5, 8]
    assert NOVICE.moves(Rules(), board, "X") == [2]  # normal rules: the win at once
    # X O X
    # X O O      X to move, its one free cell completes X's left column: played all the same
    # . X O
    assert NOVICE.moves(MISERE, "XOXXOO.XO", "X") == [6]


def test_misere_chances_count_a_completed_line_as_a_loss(misere_book: Book) -> None:
    # X O X
    # X O O      X to move must complete its left column: no chance of winning at all
    # . X O
    assert win_chances(misere_book, "XOXXOO.XO") == {6: {"novice": Fraction(0), "random": Fraction(0)}}


def test_the_player_novice_agrees_with_the_build_trap_rates_on_misere(misere_book: Book) -> None:
    check_first_trap_rates(misere_book)


def test_misere_hint_on_the_empty_board(misere_book: Book) -> None:
    game = Game(misere_book, levels={"O": "perfect"})
    text = hint_text(game)
    assert "5 is the only move that keeps the draw" in text


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--misere", "--book", "BOOK"], 2, "is a book for 3x3 k=3, not a misère game"),
        (["--misere", "--book", "MISERE"], 1, "Tic-tac-toe 3x3 k=3 misère."),  # 1: unfinished
        (["--book", "MISERE"], 1, "Tic-tac-toe 3x3 k=3 misère."),
    ],
)
def test_misere_with_a_book_must_name_a_misere_book(args: list[str], code: int, words: str) -> None:
    paths = {"BOOK": str(ROOT / "book" / "tictactoe.json"), "MISERE": str(MISERE_BOOK)}
    got, out = invoke([*(paths.get(a, a) for a in args), "--moves", "5,1,3", "--seed", "4"])
    assert (got, words in out) == (code, True), out


def test_misere_engine_says_misere() -> None:
    result = CliRunner().invoke(
        main, ["--engine", "--misere"], input='{"op":"rules"}\n', env={"TTT_BOOK": ""}
    )
    assert result.exit_code == 0 and json.loads(result.output)["misere"] is True
