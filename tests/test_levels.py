"""The player's levels, proved by enumeration: perfect never loses and takes every immediate win;
its exact rates equal the book's trap-order rates; the README's table is what the project computes.
Each level's choice is checked on boards drawn here with their answers worked out by hand, and on
every 3x3 board (normal and misère) against tests/oracles/negamax.py and tests/oracles/trap_oracle.py."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from limits_doc import documented_limits
from oracles.best_response import best_response
from oracles.enumerate_games import match, novice_player, random_player
from oracles.negamax import Negamax, preference
from oracles.trap_oracle import TrapOracle

from tictactoe_book import LEVELS, Book, Rules, choose_move, load_book
from tictactoe_book.errors import LevelError
from tictactoe_book.game import DRAW, EMPTY, legal_moves, other, outcome, swap_marks
from tictactoe_book.play import candidates
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.reports.levels import END, START, level_rates, markdown_table

ROOT = Path(__file__).resolve().parent.parent
Rates = dict[tuple[str, str, str], tuple[Fraction, Fraction, Fraction]]


@pytest.fixture(scope="module")
def rates() -> Rates:
    """tictactoe_generator.reports.levels's exact rates, computed once for the tests that read them, on a
    book of their own."""
    return level_rates(load_book(ROOT / "book" / "tictactoe.json"), load_book(against="random"))


@pytest.mark.parametrize("first", ["X", "O"])
@pytest.mark.parametrize("computer", ["X", "O"])
def test_perfect_never_loses_against_any_line_of_play(book: Book, computer: str, first: str) -> None:
    """Every opponent move, and every move the perfect level may choose among ties."""
    rules = Rules()
    seen: set[str] = set()
    games = 0

    def walk(board: str, turn: str) -> None:
        nonlocal games
        if board in seen:
            return
        seen.add(board)
        ended = outcome(rules, board)
        assert ended is None or ended.winner != other(computer), f"the computer ({computer}) lost: {board}"
        if ended is not None:
            games += 1
            return
        if turn == computer:
            moves = candidates(book.evaluate(board, first=first), "perfect")
        else:
            moves = tuple(legal_moves(board))
        for cell in moves:
            walk(board[:cell] + turn + board[cell + 1 :], other(turn))

    walk(EMPTY * 9, first)
    assert games > 100


def test_perfect_takes_every_immediate_win(book: Book, reachable: tuple[set[str], set[str]]) -> None:
    unfinished, _ = reachable
    checked = 0
    for board in unfinished:
        turn = "X" if board.count("X") == board.count("O") else "O"
        wins = {
            c
            for c in legal_moves(board)
            if (outcome(Rules(), board[:c] + turn + board[c + 1 :]) or DRAW).winner == turn
        }
        if wins:
            assert set(candidates(book.evaluate(board), "perfect")) <= wins, board
            # the same position in a game where O moved first
            assert set(book.evaluate(swap_marks(board), first="O").tiers[0]) <= wins
            checked += 1
    assert checked > 1000


def test_perfect_rates_equal_the_trap_order_rates(book: Book, rates: Rates) -> None:
    stated = book.data["trap_rates"]
    for side, mark in (("first", "X"), ("second", "O")):
        for opponent, player in (("novice", novice_player), ("random", random_player)):
            win, draw, loss = rates[("perfect", opponent, side)]
            assert loss == 0
            assert win == Fraction(stated[side][opponent])
            # and the tests' own enumerator agrees
            assert match(lambda b: candidates(book.evaluate(b), "perfect"), player, mark) == (win, draw, loss)


#: Published rates of the book's top-tier policy (docs/book-format.md, "Trap order"; first round).
KNOWN_TRAP_RATES = {
    ("first", "novice"): Fraction(89, 96),
    ("second", "novice"): Fraction(82, 315),
    ("first", "random"): Fraction(379, 384),
    ("second", "random"): Fraction(50, 63),
}


def test_the_books_trap_rates_are_the_known_ones(book: Book) -> None:
    for (side, opponent), rate in KNOWN_TRAP_RATES.items():
        assert Fraction(book.data["trap_rates"][side][opponent]) == rate


#: The best win rate a never-losing player can reach against each opponent (issue 24): the
#: maximum over every policy that plays only optimal moves, which backward induction finds (at
#: each position the optimal move whose games the opponent's uniform choice loses most often);
#: tests/oracles/trap_oracle.py (on negamax.py) and tests/oracles/best_response.py (on
#: oracle.py) each walk it their own way (test_the_limits_are_two_independent_walks_best_replies).
LIMITS = {
    ("novice", "X"): Fraction(89, 96),
    ("novice", "O"): Fraction(82, 315),
    ("random", "X"): Fraction(191, 192),
    ("random", "O"): Fraction(866, 945),
}


def test_the_limits_are_two_independent_walks_best_replies() -> None:
    """LIMITS, from the empty board, by tests/oracles/best_response.py and tests/oracles/trap_oracle.py: two
    walks written apart from the product and from each other (different solvers: oracle.py's
    minimax, negamax.py), neither importing player/ or generator/."""
    oracles = {against: TrapOracle(3, 3, 3, against=against) for against in ("novice", "random")}
    for (against, mark), limit in LIMITS.items():
        player = {"novice": novice_player, "random": random_player}[against]
        assert best_response(player, mark) == limit, (against, mark)
        oracle = oracles[against]
        rates = oracle.book(EMPTY * 9)[1] if mark == "X" else oracle.reply(EMPTY * 9)
        assert rates[{"novice": 0, "random": 1}[against]] == limit, (against, mark)


def best_against_random_among_best_against_novice(mark: str) -> Fraction:
    """The most a player of ``mark`` wins against random among the players that win 89/96 (or
    82/315) against the novice, by the tests' own walk: where the novice's games can reach, it
    must play a move that keeps the novice's limit; where only a random player's can, any
    optimal move (tests/oracles/best_response.py's optimal moves, tests/oracles/enumerate_games.py's
    players)."""
    from oracles.best_response import optimal
    from oracles.oracle import line_owner, to_move

    def play(board: str, cell: int) -> str:
        return board[:cell] + to_move(board) + board[cell + 1 :]

    @functools.cache
    def novice(board: str) -> Fraction:  # the best chance against the novice from ``board``
        won = line_owner(board)
        if won or "." not in board:
            return Fraction(int(won == mark))
        if to_move(board) == mark:
            return max(novice(play(board, c)) for c in optimal(board))
        cells = novice_player(board)
        return sum((novice(play(board, c)) for c in cells), Fraction(0)) / len(cells)

    @functools.cache
    def against_random(board: str, bound: bool) -> Fraction:  # bound: the novice can be here
        won = line_owner(board)
        if won or "." not in board:
            return Fraction(int(won == mark))
        if to_move(board) == mark:
            moves = optimal(board)
            if bound:
                most = max(novice(play(board, c)) for c in moves)
                moves = [c for c in moves if novice(play(board, c)) == most]
            return max(against_random(play(board, c), bound) for c in moves)
        reached = set(novice_player(board)) if bound else set()
        cells = random_player(board)
        return sum((against_random(play(board, c), c in reached) for c in cells), Fraction(0)) / len(cells)

    assert novice(EMPTY * 9) == LIMITS[("novice", mark)]
    return against_random(EMPTY * 9, True)


@pytest.mark.parametrize("mark", ["X", "O"])
def test_no_player_reaches_both_limits(mark: str) -> None:
    """Issue 24's "no single order reaches both": of the never-losing players that win as often as
    possible against the novice, the best against random wins 379/384 moving first and 50/63
    moving second (what the book ranked against the novice wins), short of 191/192 and 866/945."""
    best = best_against_random_among_best_against_novice(mark)
    assert best == {"X": Fraction(379, 384), "O": Fraction(50, 63)}[mark]
    assert best < LIMITS[("random", mark)]


def exact_lines(*args: str) -> dict[tuple[str, str, str], tuple[Fraction, Fraction, Fraction]]:
    """``ttt-book levels --exact``'s rates, read back: (row, opponent, side) -> (won, drawn, lost)."""
    result = CliRunner().invoke(book_cli, ["levels", "--exact", *args])
    assert result.exit_code == 0, result.output
    found = {}
    row = ""
    for line in result.output.splitlines():
        parsed = re.fullmatch(
            r"  (first|second), +against (random|novice): +won (\S+), drawn (\S+), lost (\S+)", line
        )
        if parsed:
            side, opponent, *rates = parsed.groups()
            found[(row, opponent, side)] = tuple(Fraction(r) for r in rates)
        elif line and not line.startswith(" "):
            row = line
    return found  # type: ignore[return-value]


def test_levels_exact_prints_the_limits_and_every_rate_of_the_enumerator(rates: Rates) -> None:
    """`ttt-book levels --exact`: 191/192 and 866/945 against random for `perfect --against
    random`, 89/96 and 82/315 against the novice for `perfect`, and every other rate as the
    tests' own enumerator counts it."""
    shown = exact_lines()
    assert shown.keys() == rates.keys()
    for (against, mark), limit in LIMITS.items():
        row = "perfect" if against == "novice" else "perfect --against random"
        side = "first" if mark == "X" else "second"
        assert shown[(row, against, side)][0] == limit and shown[(row, against, side)][2] == 0
    books = {"perfect": load_book(), "perfect --against random": load_book(against="random")}
    for (row, opponent, side), got in shown.items():
        book = books.get(row, books["perfect"])
        level = "perfect" if row in books else row
        player = {"novice": novice_player, "random": random_player}[opponent]
        mark = "X" if side == "first" else "O"
        tested = lambda b, book=book, level=level: candidates(book.evaluate(b), level)  # noqa: E731
        assert got == match(tested, player, mark), (
            row,
            opponent,
            side,
        )


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_levels_exact_prints_the_documented_limits(misere: bool) -> None:
    """docs/scaling.md's rows for 3x3 (normal and misère), as `ttt-book levels --exact --book`
    prints them for either packaged ranking (the other ranking built beside it)."""
    game = "3x3 k=3 misère" if misere else "3x3 k=3"
    name = "tictactoe-misere-vs-random.json" if misere else "tictactoe-vs-random.json"
    shown = exact_lines("--book", str(ROOT / "book" / name))
    for against in ("novice", "random"):
        row = "perfect" if against == "novice" else "perfect --against random"
        first, second = documented_limits()[(game, against)]  # (vs novice, vs random) each
        for side, pair in (("first", first), ("second", second)):
            assert (shown[(row, "novice", side)][0], shown[(row, "random", side)][0]) == pair, (against, side)


def test_levels_exact_is_for_reading_only() -> None:
    for rounded in (["--markdown"], ["--update", "README.md"]):
        result = CliRunner().invoke(book_cli, ["levels", "--exact", *rounded])
        assert result.exit_code == 2 and "--exact" in result.output


@pytest.mark.parametrize("against", ["novice", "random"])
def test_perfect_wins_at_the_limit_against_the_opponent_it_is_told_of(against: str) -> None:
    """The perfect level of the packaged book ranked against ``against`` (load_book(against=)),
    played against the tests' own opponent by the tests' own enumerator: never a loss, wins at
    the limit."""
    targeted = load_book(against=against)
    assert targeted.against == against
    player = {"novice": novice_player, "random": random_player}[against]
    for mark in ("X", "O"):
        win, _, loss = match(lambda b: candidates(targeted.evaluate(b), "perfect"), player, mark)
        assert (win, loss) == (LIMITS[(against, mark)], 0), (against, mark)


def test_the_tables_against_random_row_is_the_independent_enumerators(rates: Rates) -> None:
    """`ttt-book levels`'s "perfect --against random" row: the limits against random, and what
    that ranking wins against a novice (7/8 and 22/315, below the novice's ranking)."""
    targeted = load_book(against="random")
    for side, mark in (("first", "X"), ("second", "O")):
        for opponent, player in (("novice", novice_player), ("random", random_player)):
            independent = match(lambda b: candidates(targeted.evaluate(b), "perfect"), player, mark)
            assert rates[("perfect --against random", opponent, side)] == independent, (opponent, side)
    assert rates[("perfect --against random", "random", "first")][0] == Fraction(191, 192)
    assert rates[("perfect --against random", "random", "second")][0] == Fraction(866, 945)
    assert rates[("perfect --against random", "novice", "first")][0] == Fraction(7, 8)
    assert rates[("perfect --against random", "novice", "second")][0] == Fraction(22, 315)


@pytest.mark.parametrize("level", LEVELS)
def test_every_levels_rates_agree_with_the_independent_enumerator(
    book: Book, rates: Rates, level: str
) -> None:
    """tictactoe_generator.reports.levels (and, through the trap order,
    tictactoe_generator.trap's novice) against the tests' own enumerator and novice,
    written apart from them."""
    for side, mark in (("first", "X"), ("second", "O")):
        for opponent, player in (("novice", novice_player), ("random", random_player)):
            independent = match(lambda b: candidates(book.evaluate(b), level), player, mark)
            assert rates[(level, opponent, side)] == independent, (level, opponent, side)


def test_weaker_levels_are_weaker_and_do_lose(rates: Rates) -> None:
    for opponent in ("random", "novice"):
        for side in ("first", "second"):
            wins = [rates[(level, opponent, side)][0] for level in LEVELS]
            assert wins == sorted(wins, reverse=True), (opponent, side, wins)
            assert rates[("easy", opponent, side)][2] > 0


def test_readme_table_is_current(book: Book, rates: Rates) -> None:
    readme = (ROOT / "README.md").read_text()
    assert START in readme and END in readme
    published = readme[readme.index(START) : readme.index(END) + len(END)]
    assert published == markdown_table(book, rates), (
        "README levels table is stale: ttt-book levels --update README.md"
    )


def test_level_semantics_on_small_positions(book: Book) -> None:
    # X X .
    # O O .      X to move: every level takes the win at 2
    # . . .
    for level in LEVELS:
        assert candidates(book.evaluate("XX.OO...."), level) == (2,)
    # X X .
    # O . .      O to move must block at 2: medium and hard do, easy may not
    # . . .
    board = "XX.O....."
    assert candidates(book.evaluate(board), "medium") == (2,)
    assert candidates(book.evaluate(board), "hard") == (2,)
    assert len(candidates(book.evaluate(board), "easy")) == 6
    with pytest.raises(LevelError, match="'expert'"):
        candidates(book.evaluate(board), "expert")


def test_choices_are_reproducible_with_a_seeded_rng(book: Book) -> None:
    picks = [choose_move(book, ".........", rng=random.Random(7)) for _ in range(5)]
    assert len(set(picks)) == 1
    assert picks[0] in (0, 2, 6, 8)
    spread = {choose_move(book, ".........", rng=random.Random(s)) for s in range(40)}
    assert spread == {0, 2, 6, 8}  # exact ties stay ties: the player varies among them


# ---------------------------------------------------------------- each level's choice, by hand

#: The plies each level looks ahead, as player/tictactoe_book/play.py's docstring states them: typed in here,
#: so that a changed horizon fails a test.
SIGHT = {"hard": 4, "medium": 2, "easy": 1}
ALL = ("perfect", "hard", "medium", "easy")  # typed in too: a level dropped from LEVELS still fails


@pytest.fixture
def books(book_3x4_path: Path) -> Callable[[str], Book]:
    """The book of a game the cases below are played on, loaded for the test (as ``book``)."""
    paths = {
        "3x3": ROOT / "book" / "tictactoe.json",
        "3x4": book_3x4_path,
        "misere": ROOT / "book" / "tictactoe-misere.json",
    }
    return lambda game: load_book(paths[game], rules=None)


def case(game: str, first: str, board: str, expected: dict[str, tuple[int, ...]], id: str) -> object:
    """One drawn board: the moves each level named in ``expected`` chooses among there."""
    return pytest.param(game, first, board, expected, id=id)


def every(*cells: int) -> dict[str, tuple[int, ...]]:
    """Every level chooses among ``cells``."""
    return dict.fromkeys(ALL, cells)


LEVEL_CASES = [
    # . . .
    # . . .      X to move: every move draws; perfect plays the trap order's top tier, the corners
    # . . .      (docs/book-format.md: "the corners first, then the edges"); the others any cell
    case("3x3", "X", EMPTY * 9, {"perfect": (0, 2, 6, 8), **dict.fromkeys(SIGHT, tuple(range(9)))}, "empty"),
    # . . .
    # . X .      O to move: only a corner draws; an edge loses in 6 plies, past every horizon
    # . . .
    case(
        "3x3",
        "X",
        "....X....",
        {"perfect": (0, 2, 6, 8), **dict.fromkeys(SIGHT, (0, 1, 2, 3, 5, 6, 7, 8))},
        "o-after-the-centre",
    ),
    # X X .
    # O O .      X to move: every level wins at once at 2 (5 only blocks)
    # . . .
    case("3x3", "X", "XX.OO....", every(2), "x-wins-at-once"),
    # O O .
    # X X .      O to move: every level wins at once at 2 (though X threatens 5 and 2)
    # X . .
    case("3x3", "X", "OO.XX.X..", every(2), "o-wins-at-once"),
    # X X .
    # . O .      X to move: 2 wins at once; 3 and 6 fork (win in 3 plies): every level takes
    # . . O      the fastest win, and hard sees both
    case("3x3", "X", "XX..O...O", every(2), "x-wins-at-once-not-by-a-fork"),
    # X O .
    # . X .      X to move: 3 and 6 fork (win in 3 plies); hard and perfect see it, medium and
    # . . O      easy (no win, no threat in their sight) play any free cell
    case(
        "3x3",
        "X",
        "XO..X...O",
        {"perfect": (3, 6), "hard": (3, 6), "medium": (2, 3, 5, 6, 7), "easy": (2, 3, 5, 6, 7)},
        "x-forks",
    ),
    # X O X
    # O . .      X to move, three cells left: 8 forks (4 and 5), a win in 3 plies; 4 and 5 draw,
    # O X .      also in 3. Perfect and hard take the win; medium and easy see none
    case(
        "3x3",
        "X",
        "XOXO..OX.",
        {"perfect": (8,), "hard": (8,), "medium": (4, 5, 8), "easy": (4, 5, 8)},
        "x-forks-late",
    ),
    # X O .
    # . . .      X to move: 3, 4 and 6 win, in 5 plies: perfect plays them; hard, medium and
    # . . .      easy see no win and no loss within their horizon, and play any free cell
    case(
        "3x3",
        "X",
        "XO.......",
        {"perfect": (3, 4, 6), **dict.fromkeys(SIGHT, (2, 3, 4, 5, 6, 7, 8))},
        "x-wins-beyond-sight",
    ),
    # X X .
    # . O .      O to move: must block at 2 (a draw); every other move loses in 2 plies.
    # . . .      Perfect, hard and medium block; easy sees 1 ply only and plays any free cell
    case("3x3", "X", "XX..O....", {**every(2), "easy": (2, 3, 5, 6, 7, 8)}, "o-must-block"),
    # X . .
    # . O .      O to move: a corner (2 or 6) loses in 4 plies (X blocks it with a fork at the
    # . . X      other corner); perfect and hard play an edge, medium and easy see no threat
    case(
        "3x3",
        "X",
        "X...O...X",
        {
            "perfect": (1, 3, 5, 7),
            "hard": (1, 3, 5, 7),
            "medium": (1, 2, 3, 5, 6, 7),
            "easy": (1, 2, 3, 5, 6, 7),
        },
        "o-avoids-a-fork",
    ),
    # X X .
    # O . .      O to move: every move loses. Blocking at 2 loses latest (in 4 plies: X forks at
    # . . .      4); the rest in 2. Hard sees every loss and plays the latest; medium sees 2 as
    #            safe; easy sees no loss
    case("3x3", "X", "XX.O.....", {**every(2), "easy": (2, 4, 5, 6, 7, 8)}, "o-loses-latest"),
    # The same positions in games O began (the book swaps the marks; cells are unchanged):
    # O O .
    # . X .      X to move: must block at 2
    # . . .
    case("3x3", "O", "OO..X....", {**every(2), "easy": (2, 3, 5, 6, 7, 8)}, "o-first-x-must-block"),
    # O . .
    # . X .      X to move: a corner loses in 4 plies
    # . . O
    case(
        "3x3",
        "O",
        "O...X...O",
        {
            "perfect": (1, 3, 5, 7),
            "hard": (1, 3, 5, 7),
            "medium": (1, 2, 3, 5, 6, 7),
            "easy": (1, 2, 3, 5, 6, 7),
        },
        "o-first-x-avoids-a-fork",
    ),
    # O X .
    # . O .      O to move: 3 and 6 fork
    # . . X
    case(
        "3x3",
        "O",
        "OX..O...X",
        {"perfect": (3, 6), "hard": (3, 6), "medium": (2, 3, 5, 6, 7), "easy": (2, 3, 5, 6, 7)},
        "o-first-o-forks",
    ),
    # X X . .
    # O O . .    3x4, k = 3. X to move: 2 wins at once; 6 blocks O and forks (2 and 11), a win
    # . . . .    in 3 plies; anything else lets O win at 6. Every level wins at 2
    case("3x4", "X", "XX..OO......", every(2), "3x4-x-wins-at-once-not-by-a-fork"),
    # . . . .
    # . O . .    3x4, k = 3. O to move: must block at 10; easy plays any free cell
    # X X . .
    case(
        "3x4", "X", ".....O..XX..", {**every(10), "easy": (0, 1, 2, 3, 4, 6, 7, 10, 11)}, "3x4-o-must-block"
    ),
    # X O .
    # . X .      misère, X to move: 8 completes X's diagonal and loses at once; after 3 or 6 O
    # . O .      plays the one cell left that completes no line of X's (2 or 5), and X loses in
    #            3 plies; 2 and 5 hold out for 5. Easy and medium avoid only 8
    case(
        "misere",
        "X",
        "XO..X..O.",
        {"perfect": (2, 5), "hard": (2, 5), "medium": (2, 3, 5, 6), "easy": (2, 3, 5, 6)},
        "misere-x-avoids-losing-in-3",
    ),
    # X X O
    # . O .      misère, O to move: 6 completes O's diagonal at once; every other move loses in
    # . X .      3 plies, and every level plays one of those
    case("misere", "X", "XXO.O..X.", every(3, 5, 8), "misere-o-loses-latest"),
]


@pytest.mark.parametrize(("game", "first", "board", "expected"), LEVEL_CASES)
def test_each_level_on_drawn_boards(
    books: Callable[[str], Book], game: str, first: str, board: str, expected: dict[str, tuple[int, ...]]
) -> None:
    evaluation = books(game).evaluate(board, first=first)
    chosen = {level: candidates(evaluation, level) for level in expected}
    assert chosen == expected


@pytest.mark.parametrize("firsts", [("X", "O"), ("O", "X")], ids=["x-game-asked-first", "o-game-asked-first"])
def test_one_board_in_a_game_x_began_and_in_one_o_began(book: Book, firsts: tuple[str, str]) -> None:
    """The same board is a different position when the other side moved first: one book asked
    for both, in either order, answers each for the side to move there."""
    # X X .
    # O O .      whoever is to move wins at once: X at 2 in a game X began, O at 5 in one O began
    # . . .
    wins = {"X": (2,), "O": (5,)}
    for first in firsts:
        evaluation = book.evaluate("XX.OO....", first=first)
        assert {level: candidates(evaluation, level) for level in ALL} == every(*wins[first]), first


def sighted(moves: dict[int, tuple[int, int]], sight: int) -> tuple[int, ...]:
    """The moves a level that looks ``sight`` plies ahead chooses among, from each move's
    (value, plies) as tests/oracles/negamax.py finds them (player/tictactoe_book/play.py's docstring): the
    fastest win it sees, else every move it does not see lose, else the moves that lose latest."""
    wins = [cell for cell, (value, plies) in moves.items() if value > 0 and plies <= sight]
    if wins:
        fastest = min(moves[cell][1] for cell in wins)
        return tuple(sorted(cell for cell in wins if moves[cell][1] == fastest))
    unseen = [cell for cell, (value, plies) in moves.items() if not (value < 0 and plies <= sight)]
    if unseen:
        return tuple(sorted(unseen))
    latest = max(map(preference, moves.values()))
    return tuple(sorted(cell for cell, result in moves.items() if preference(result) == latest))


@pytest.mark.parametrize("first", ["X", "O"])
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_every_level_agrees_with_the_oracles_on_every_board(
    books: Callable[[str], Book], misere: bool, first: str
) -> None:
    """On every reachable unfinished 3x3 board: hard, medium and easy against ``sighted`` over
    tests/oracles/negamax.py's values; perfect against tests/oracles/trap_oracle.py's top tier."""
    book = books("misere" if misere else "3x3")
    trap = TrapOracle(3, 3, 3, misere=misere)
    negamax: Negamax = trap.game
    negamax.solve(EMPTY * 9)
    for board in sorted(negamax.memo):  # X moved first on these; where O did, the marks swap
        evaluation = book.evaluate(board if first == "X" else swap_marks(board), first=first)
        moves = negamax.moves(board)
        expected = {level: sighted(moves, sight) for level, sight in SIGHT.items()}
        expected["perfect"] = tuple(sorted(trap.book(board)[0][0]))
        assert {level: candidates(evaluation, level) for level in ALL} == expected, board
