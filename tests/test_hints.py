"""Hints that teach: the chances behind them against an independent enumerator, the sentence of
why on known positions and on every position, and the line mode's hint within 80 columns."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from enumerate_games import Policy, match, novice_player, random_player

from player import Book
from player.apps.lines import hint_text
from player.apps.session import Game
from player.game import EMPTY, other
from player.hints import Chances, move_hints, percent, why, win_chances


def game_at(book: Book, board: str, first: str = "X") -> Game:
    """A game holding ``board`` (``first`` moved first), its moves played in turn."""
    mine = [c for c, m in enumerate(board) if m == first]
    theirs = [c for c, m in enumerate(board) if m == other(first)]
    game = Game(book, first=first)
    for i in range(len(mine) + len(theirs)):
        game.play((mine if i % 2 == 0 else theirs)[i // 2])
    assert game.board == board
    return game


def game_at_moves(book: Book, moves: list[int], first: str = "X") -> Game:
    """A game between two people (hints for both sides) with ``moves`` played in turn."""
    game = Game(book, first=first)
    for cell in moves:
        game.play(cell)
    return game


def forced(prefix: dict[str, int], then: Policy) -> Policy:
    """A policy playing ``prefix[board]`` on the boards it names, ``then`` elsewhere."""
    return lambda board: (prefix[board],) if board in prefix else then(board)


def enumerated(book: Book, moves: list[int]) -> dict[int, Chances]:
    """Each free cell's chances for the side to move after ``moves`` (played in turn, X first),
    counted by the tests' own enumerator and opponents (tests/enumerate_games.py): the game is
    forced along ``moves`` and then the cell, and the book's player plays its top tier after it."""
    path: dict[str, int] = {}
    board = EMPTY * 9
    for ply, cell in enumerate(moves):
        path[board] = cell
        board = board[:cell] + "XO"[ply % 2] + board[cell + 1 :]
    me = "XO"[len(moves) % 2]
    found: dict[int, Chances] = {}
    for cell in (c for c, mark in enumerate(board) if mark == EMPTY):
        book_policy = forced({**path, board: cell}, lambda b: tuple(book.evaluate(b).tiers[0]))
        novice, random = (
            match(book_policy, forced(path, them), me)[0] for them in (novice_player, random_player)
        )
        found[cell] = Chances(novice, random)
    return found


@pytest.mark.parametrize(
    "moves",
    [
        [],  # X to move on the empty board
        [0],  # O to move after a corner
        [0, 1, 4],  # O to move, lost
    ],
    ids=["empty", "after-a-corner", "o-in-trouble"],
)
def test_win_chances_agree_with_the_independent_enumerator(book: Book, moves: list[int]) -> None:
    board = game_at_moves(book, moves).board
    assert win_chances(book, board) == enumerated(book, moves)


def test_a_games_hints_are_for_the_side_to_move_in_that_game(book: Book) -> None:
    """The hint's memo (``Game.walks``) is kept for a game's later hints. Two games between two
    people, one X begins and then one O begins, ask a hint on every turn with their own memo:
    every hint's chances are the side to move's, as the independent enumerator counts them (cells
    are the same when O begins: the marks swap). A memo that forgot whose hint it kept, or that
    outlived its game, fails here on its own, whatever ran before."""
    moves = [4, 0, 8, 2]  # X takes the centre, O a corner, X the opposite corner, O blocks
    for first in ("X", "O"):
        game = Game(book, first=first)
        for ply in range(len(moves) + 1):
            hints = move_hints(game.book, game.board, first=game.first, walks=game.walks)
            expected = enumerated(book, moves[:ply])
            assert {h.cell: h.chances for h in hints} == expected, (first, game.board)
            if ply < len(moves):
                game.play(moves[ply])


def test_the_books_first_move_wins_as_often_as_its_stated_trap_rates(book: Book) -> None:
    chances = win_chances(book, EMPTY * 9)
    stated = book.data["trap_rates"]["first"]
    for cell in book.evaluate(EMPTY * 9).tiers[0]:
        assert chances[cell].novice == Fraction(stated["novice"])
        assert chances[cell].random == Fraction(stated["random"])


def test_chances_where_o_moved_first_are_those_of_the_swapped_board(book: Book) -> None:
    assert win_chances(book, "O...X....", first="O") == win_chances(book, "X...O....")


@pytest.mark.parametrize(
    ("board", "sentence"),
    [
        # . . .
        # . . .    X to move: the corners keep the draw and trap a novice most often
        # . . .
        (
            EMPTY * 9,
            "1, 3, 7 and 9 keep the draw, and win 93% of games against a novice, "
            "against at most 85% for the other draws.",
        ),
        # X X .
        # O O .    X to move wins at 3
        # . . .
        ("XX.OO....", "3 wins at once."),
        # X . O
        # . X .    O to move must block at 9
        # . . .
        ("X.O.X....", "9 is the only move that keeps the draw."),
        # . . .
        # . X .    O to move: only a corner draws
        # . . .
        (
            "....X....",
            "1, 3, 7 and 9 are the only moves that keep the draw; they win 6% of games against a novice.",
        ),
        # X O .
        # . . .    X to move: a fork in 5 plies
        # . . .
        ("XO.......", "4, 5 and 7 win in 5 plies against any defence."),
        # X O .
        # . X .    O to move has lost: blocking at 9 holds out longest
        # . . .
        ("XO..X....", "Every move loses against best play; 9 holds out longest (loss in 4)."),
    ],
    ids=["empty", "win-at-once", "must-block", "corners-only", "fork", "lost"],
)
def test_why_on_known_positions(book: Book, board: str, sentence: str) -> None:
    game = game_at(book, board)
    assert why(move_hints(book, game.board, first=game.first)) == sentence


def test_every_position_gets_a_hint_whose_starred_moves_are_the_books(
    book: Book, reachable: tuple[set[str], set[str]]
) -> None:
    unfinished, _ = reachable
    for board in unfinished:
        game = game_at(book, board)
        hints = move_hints(game.book, game.board, first=game.first, walks=game.walks)
        assert {h.cell for h in hints if h.book} == set(book.evaluate(board).tiers[0]), board
        assert {h.cell for h in hints} == {c for c, m in enumerate(board) if m == EMPTY}
        sentence = why(hints)
        assert sentence.endswith(".") and (sentence[0].isupper() or sentence[0].isdigit()), sentence
        starred = next(h for h in hints if h.book)
        assert starred.value == max(h.value for h in hints), board
        if starred.value > 0:  # a win with best play is forced: it beats everyone
            assert starred.chances == Chances(Fraction(1), Fraction(1)), board
        if starred.value == 0:  # of the draws, the book's wins most often against a novice
            assert starred.chances == max(h.chances for h in hints if h.value == 0), board


@pytest.mark.parametrize(
    "percent_case",
    [
        (Fraction(61, 100), (), "61%"),
        (Fraction(612, 1000), (Fraction(609, 1000),), "61.2%"),
        (Fraction(0), (), "0%"),
    ],
)
def test_percent_shows_enough_decimals_to_differ(
    percent_case: tuple[Fraction, tuple[Fraction, ...], str],
) -> None:
    chance, others, text = percent_case
    assert percent(chance, *others) == text


ENTRY = re.compile(r"\d: (draw|win in \d|loss in \d) \(\d+(\.\d+)?%\)( \*)?")


def test_the_line_mode_hint_fits_80_columns_and_never_splits_an_entry(
    book: Book, reachable: tuple[set[str], set[str]]
) -> None:
    unfinished, _ = reachable
    for board in sorted(unfinished)[::7]:
        text = hint_text(game_at(book, board))
        lines = text.splitlines()
        assert all(len(line) < 80 for line in lines), text
        start = next(i for i, line in enumerate(lines) if line.startswith("Move by move"))
        listing = lines[start + 1 :]
        entries = ", ".join(listing).replace(",, ", ", ").split(", ")
        assert all(ENTRY.fullmatch(entry) for entry in entries), listing
        numbers = any(re.search(r"\b[WL]\d", line) for line in lines)
        assert ("the number after W or L" in text) == numbers, text


def test_the_hint_where_every_move_draws_has_no_note_about_plies(book: Book) -> None:
    text = hint_text(game_at(book, EMPTY * 9))
    assert "plies" not in text
    assert "D*" in text and "1: draw (93%) *" in text
