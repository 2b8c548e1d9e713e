"""The OpenSpiel and PettingZoo adapters (make test-integrations installs both extras), and that
the player never imports them on its own."""

from __future__ import annotations

import inspect
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tictactoe_book import Book, Rules, load_book
from tictactoe_book.game import outcome
from tictactoe_book.integrations.pettingzoo import board_from_observation, to_action, to_book_cell

ROOT = Path(__file__).resolve().parent.parent
integrations = pytest.mark.integrations


def test_the_player_never_imports_the_adapters() -> None:
    code = (
        "import sys\n"
        "from tictactoe_book.apps.cli import run\n"
        "try:\n"
        "    run(['--watch', '--delay', '0', '--seed', '1'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('tictactoe_book.integrations', 'pyspiel',"
        " 'open_spiel',"
        " 'pettingzoo', 'gymnasium', 'numpy')))\n"
        "sys.stderr.write(repr(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert "X" in done.stdout and done.stderr == "[]"  # a whole game played, nothing imported


def test_cell_numbering_round_trips() -> None:
    assert [to_book_cell(a) for a in range(9)] == [0, 3, 6, 1, 4, 7, 2, 5, 8]
    assert all(to_action(to_book_cell(a)) == a for a in range(9))


@integrations
def test_pettingzoo_numbers_cells_column_by_column_as_its_source_says() -> None:
    from pettingzoo.classic.tictactoe import board

    # board.py draws the flat indices on the grid in a comment: "# 0 3 6", "# 1 4 7", "# 2 5 8"
    rows = re.findall(r"#\s+(\d) (\d) (\d)\s*$", inspect.getsource(board), re.MULTILINE)
    assert rows == [("0", "3", "6"), ("1", "4", "7"), ("2", "5", "8")]
    for row, squares in enumerate(rows):
        for col, square in enumerate(squares):
            assert to_book_cell(int(square)) == row * 3 + col


@integrations
def test_pettingzoo_observations_map_to_the_book_in_every_game_prefix(book: Book) -> None:
    from pettingzoo.classic.tictactoe import tictactoe as tictactoe_v3  # without the deprecation warning

    from tictactoe_book.integrations.pettingzoo import BookPolicy

    env = tictactoe_v3.env()
    # every line of 4 moves (3,024), then play on with the book; compare boards at each step
    seen = 0
    for line in __import__("itertools").permutations(range(9), 4):
        env.reset()
        board = "........."
        for action in line:
            agent = env.agent_selection
            observation = env.observe(agent)
            assert board_from_observation(observation["observation"]) == board
            assert [a for a in range(9) if observation["action_mask"][a]] == sorted(
                to_action(c) for c in range(9) if board[c] == "."
            )
            env.step(action)
            mark = "X" if board.count("X") == board.count("O") else "O"
            cell = to_book_cell(action)
            board = board[:cell] + mark + board[cell + 1 :]
            seen += 1
            if env.terminations[agent]:
                break
        done = any(env.terminations.values())
        assert done == (outcome(book.rules, board) is not None)
        if not done:
            action = BookPolicy("perfect", book=book)(env.observe(env.agent_selection))
            assert to_book_cell(action) in book.evaluate(board).tiers[0]
    assert seen > 10_000


@integrations
def test_openspiel_agrees_on_all_5478_states(book: Book) -> None:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    from tictactoe_book.integrations.openspiel import board_from_state

    game = pyspiel.load_game("tic_tac_toe")
    states = {}
    frontier = [game.new_initial_state()]
    while frontier:
        state = frontier.pop()
        key = str(state)
        if key in states:
            continue
        states[key] = state
        if not state.is_terminal():
            for action in state.legal_actions():
                frontier.append(state.child(action))
    assert len(states) == 5478
    solved: dict[str, float] = {}
    for key, state in states.items():
        board = board_from_state(state)
        ended = outcome(book.rules, board)
        finished = ended is not None
        assert state.is_terminal() == finished, board
        if finished:
            won = ended.winner if ended is not None else None
            assert state.returns() == (
                [1.0, -1.0] if won == "X" else [-1.0, 1.0] if won == "O" else [0.0, 0.0]
            )
            continue
        evaluation = book.evaluate(board)
        assert sorted(evaluation.scores) == state.legal_actions(), board
        assert {"X": 0, "O": 1}[evaluation.turn] == state.current_player()
        value, _ = minimax.alpha_beta_search(
            game, state=state.clone(), maximizing_player_id=state.current_player()
        )
        solved[key] = value
        assert value == evaluation.value, board
    assert len(solved) == 4520


@integrations
def test_the_openspiel_bot_never_loses_to_random(book: Book) -> None:
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    game = pyspiel.load_game("tic_tac_toe")
    for seat in (0, 1):
        for seed in range(100):
            random_bot = pyspiel.make_uniform_random_bot(1 - seat, seed)
            bots = [make_bot("perfect", book=book, seed=seed), random_bot]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots if seat == 0 else bots[::-1], seed)
            assert returns[seat] >= 0


@integrations
@pytest.mark.parametrize("example", ["openspiel_bot.py", "pettingzoo_vs_random.py"])
def test_the_examples_run_as_written(example: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / example)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "loss    0  expected     0.0" in done.stdout or "'loss': 0" in done.stdout


# . X .
# . . .      O to move: ranked against a novice the book answers a corner beside the X (cell 0
# . . .      or 2), ranked against a random player the centre (4)


@integrations
def test_the_pettingzoo_policy_plays_against_whom_it_is_told(book: Book) -> None:
    from pettingzoo.classic.tictactoe import tictactoe as tictactoe_v3

    from tictactoe_book.integrations.pettingzoo import BookPolicy

    env = tictactoe_v3.env()
    env.reset()
    env.step(to_action(1))  # X on the top edge
    observation = env.observe(env.agent_selection)
    for seed in range(10):
        rng = random.Random(seed)
        assert to_book_cell(BookPolicy(rng=rng)(observation)) in (0, 2)
        assert to_book_cell(BookPolicy(rng=rng, against="random")(observation)) == 4
        assert to_book_cell(BookPolicy(book=book, rng=rng, against="novice")(observation)) in (0, 2)
    with pytest.raises(ValueError, match="ranks its moves against novice, not random"):
        BookPolicy(book=book, against="random")
    with pytest.raises(ValueError, match="unknown opponent 'Random'"):
        BookPolicy(against="Random")


@integrations
def test_the_openspiel_bot_plays_against_whom_it_is_told(book: Book) -> None:
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(1)  # X on the top edge (OpenSpiel numbers cells row by row, as the book)
    for seed in range(10):
        assert make_bot(seed=seed).step(state) in (0, 2)
        assert make_bot(seed=seed, against="random").step(state) == 4
    with pytest.raises(ValueError, match="ranks its moves against novice, not random"):
        make_bot(book=book, against="random")
    with pytest.raises(ValueError, match="unknown opponent 'program'"):
        make_bot(book=book, against="program")


@integrations
@pytest.mark.parametrize(
    ("against", "limits"),
    [
        ("random", (Fraction(191, 192), Fraction(866, 945))),  # the limits against random (issue 24)
        (None, (Fraction(379, 384), Fraction(50, 63))),  # ranked against the novice: below them
    ],
    ids=["random", "default"],
)
def test_the_openspiel_bot_wins_at_the_limit_against_a_random_player(
    against: str | None, limits: tuple[Fraction, Fraction]
) -> None:
    """Every game of OpenSpiel's tic_tac_toe between the bot and a player choosing uniformly among
    the legal actions, walked through pyspiel's own states and returns: every move the bot makes
    is one of its top tier, whose moves all win equally often, so its one choice per state gives
    the exact rate."""
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    game = pyspiel.load_game("tic_tac_toe")

    def chance_of_a_win(state: Any, bot: Any, seat: int) -> Fraction:
        if state.is_terminal():
            return Fraction(int(state.returns()[seat] > 0))
        if state.current_player() == seat:
            return chance_of_a_win(state.child(bot.step(state)), bot, seat)
        actions = state.legal_actions()
        return sum((chance_of_a_win(state.child(a), bot, seat) for a in actions), Fraction(0)) / len(actions)

    for seat, limit in enumerate(limits):
        bot = make_bot(seed=seat, against=against)
        assert chance_of_a_win(game.new_initial_state(), bot, seat) == limit, (against, seat)


# ---------------------------------------------------------------- a game's rules, and one load


@integrations
def test_openspiels_mnk_counts_m_columns_and_n_rows() -> None:
    """What the adapter's docstring says of mnk, as OpenSpiel plays it: mnk(m=4,n=3,k=3) prints
    3 rows of 4 cells, and action 5 is row 1, column 1 (row * m + column), as the book's cell 5
    on a 3x4 board."""
    import pyspiel

    from tictactoe_book.integrations.openspiel import board_from_state, game_rules

    game = pyspiel.load_game("mnk", {"m": 4, "n": 3, "k": 3})
    state = game.new_initial_state()
    assert str(state).splitlines() == ["....", "....", "...."]
    state.apply_action(5)
    assert str(state).splitlines() == ["....", ".x..", "...."]
    assert board_from_state(state) == ".....X......"
    assert game_rules(game) == Rules(3, 4, 3)
    assert game_rules(pyspiel.load_game("misere(game=mnk(m=3,n=4,k=3))")) == Rules(4, 3, 3, misere=True)
    assert game_rules(pyspiel.load_game("tic_tac_toe")) == Rules()


@integrations
def test_an_openspiel_bot_for_a_transposed_mnk_game_is_refused_at_once(book_3x4_path: Path) -> None:
    """A 3x4 book (3 rows of 4) for OpenSpiel's mnk(m=3,n=4) (4 rows of 3): refused when the bot
    is made, in one line, instead of BoardErrors mid-game and games of the wrong shape."""
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    book = load_book(book_3x4_path)
    transposed = pyspiel.load_game("mnk", {"m": 3, "n": 4, "k": 3})
    with pytest.raises(ValueError) as refused:
        make_bot(game=transposed, book=book)
    message = str(refused.value)
    assert message == f"{book_3x4_path} is a book for 3x4 k=3, but OpenSpiel's mnk(k=3,m=3,n=4) is 4x3 k=3"
    with pytest.raises(ValueError, match=r"^<packaged books>: none is for 3x4 k=3 .*: build one with"):
        make_bot(game=pyspiel.load_game("mnk", {"m": 4, "n": 3, "k": 3}))
    with pytest.raises(ValueError, match=r"^the book plays tic_tac_toe, mnk and the misere of either, not"):
        make_bot(game=pyspiel.load_game("connect_four"))
    with pytest.raises(ValueError, match="is a book for 3x3 k=3, but OpenSpiel's misere"):
        make_bot(game=pyspiel.load_game("misere(game=tic_tac_toe())"), book=load_book())


@integrations
def test_an_openspiel_bot_for_mnk_plays_the_books_shape(book_3x4_path: Path) -> None:
    """3x4 with three in a row is a win for the first player: the bot as x wins every game
    against OpenSpiel's random bot, whose moves it reads on the right cells."""
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    game = pyspiel.load_game("mnk", {"m": 4, "n": 3, "k": 3})
    book = load_book(book_3x4_path)
    assert book.evaluate("." * 12).value == 1
    for seed in range(100):
        bots = [make_bot(game=game, book=book, seed=seed), pyspiel.make_uniform_random_bot(1, seed)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed) == [1.0, -1.0], seed


@integrations
def test_an_openspiel_bot_plays_misere_from_the_packaged_misere_book() -> None:
    import pyspiel

    from tictactoe_book.integrations.openspiel import make_bot

    game = pyspiel.load_game("misere(game=tic_tac_toe())")
    for seat in (0, 1):
        for seed in range(100):
            bot = make_bot(game=game, seed=seed)
            assert bot.book.rules == Rules(misere=True)
            bots = [bot, pyspiel.make_uniform_random_bot(1 - seat, seed)]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots if seat == 0 else bots[::-1], seed)
            assert returns[seat] >= 0, (seat, seed)


@integrations
def test_a_thousand_bots_and_policies_share_one_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The packaged book is read once however many bots are made (it was read for each: 3.23 ms
    a game against 0.29 ms, issue 31), and each bot holds that one book."""
    import pyspiel

    import tictactoe_book.reader
    from tictactoe_book.integrations import packaged_book
    from tictactoe_book.integrations.openspiel import make_bot
    from tictactoe_book.integrations.pettingzoo import BookPolicy

    reads: list[str] = []
    read = tictactoe_book.reader.read_book_bytes

    def counted(path: str) -> bytes:
        reads.append(path)
        return read(path)

    monkeypatch.setattr(tictactoe_book.reader, "read_book_bytes", counted)
    packaged_book.cache_clear()
    game = pyspiel.load_game("tic_tac_toe")
    bots = [make_bot(game=game, seed=seed) for seed in range(1000)]
    policies = [BookPolicy(rng=random.Random(seed)) for seed in range(1000)]
    assert len(reads) == 1 and reads[0].endswith("tictactoe.json")
    assert all(bot.book is bots[0].book for bot in bots)
    assert all(policy.book is bots[0].book for policy in policies)
    make_bot(game=game, against="random")
    assert len(reads) == 2 and reads[1].endswith("tictactoe-vs-random.json")  # another book: one more


@integrations
def test_the_pettingzoo_policy_refuses_a_book_of_another_game(book_3x4_path: Path) -> None:
    from tictactoe_book.integrations.pettingzoo import BookPolicy

    with pytest.raises(ValueError) as refused:
        BookPolicy(book=load_book(book_3x4_path))
    assert (
        str(refused.value)
        == f"{book_3x4_path} is a book for 3x4 k=3, but PettingZoo's tictactoe_v3 is 3x3 k=3"
    )
    with pytest.raises(
        ValueError, match=r"is a book for 3x3 k=3 misère, but PettingZoo's tictactoe_v3 is 3x3 k=3$"
    ):
        BookPolicy(book=load_book(rules=Rules(misere=True)))


def observation(squares: dict[int, tuple[int, int]]) -> list[list[list[int]]]:
    """A tictactoe_v3 observation as nested lists: action -> (observer's plane, opponent's)."""
    return [[list(squares.get(col * 3 + row, (0, 0))) for row in range(3)] for col in range(3)]


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ([[[0, 0]] * 4] * 4, "3x3x2 array"),  # a 4x4x2 array played cell 0
        ([[0, 0, 0]] * 3, "3x3x2 array"),
        ([[[0, 0, 0]] * 3] * 3, "3x3x2 array"),
        ([[[2, 0]] * 3] * 3, "3x3x2 array"),
        ([[["1", "0"]] * 3] * 3, "3x3x2 array"),
        (None, "got None"),
        ({"observation": 1}, "3x3x2 array"),
        (observation({4: (1, 1)}), "square 4 of the observation is claimed by both players"),
        (observation({0: (1, 0), 1: (1, 0), 2: (1, 0)}), "marks"),  # three X and no O: no game's
    ],
    ids=["4x4x2", "3x3", "3x3x3", "value-2", "strings", "none", "dict", "both-planes", "unreachable"],
)
def test_an_observation_that_is_not_tictactoe_v3s_is_one_value_error(given: object, words: str) -> None:
    """The adapter checked no observation: a 4x4x2 array played 0, a square claimed by both
    planes played 4, bad shapes raised IndexError or KeyError (issue 41, item 12)."""
    with pytest.raises(ValueError, match=re.escape(words)) as caught:
        board_from_observation(given)
    assert "\n" not in str(caught.value)


def test_a_numpy_observation_of_another_shape_is_named_by_its_shape() -> None:
    numpy = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"got an array of shape \(4, 4, 2\)$"):
        board_from_observation(numpy.zeros((4, 4, 2), dtype=numpy.int8))
    square = numpy.zeros((3, 3, 2), dtype=numpy.int8)
    square[0][1][1] = 1  # the opponent (X) on action 1, the book's cell 3
    assert board_from_observation(square) == "...X....."
