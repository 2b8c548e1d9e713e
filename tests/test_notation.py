"""The board as people see it and a move as they type it (tictactoe_book.notation), and the game
with its history (tictactoe_book.history): expected values written out by hand."""

from __future__ import annotations

import pytest

from tictactoe_book import Game, IllegalMoveError, Position, Rules, grid, parse_move

GRIDS = [
    (
        Position("X...O...X"),
        " X | 2 | 3\n---+---+---\n 4 | O | 6\n---+---+---\n 7 | 8 | X",
    ),
    (
        Position.empty(Rules(3, 4, 3)),
        "  1 |  2 |  3 |  4\n----+----+----+----\n"
        "  5 |  6 |  7 |  8\n----+----+----+----\n"
        "  9 | 10 | 11 | 12",
    ),
    (Position("X.O.", Rules(2, 2, 2)), " X | 2\n---+---\n O | 4"),
    (
        Position("X" + "." * 15, Rules(4, 4, 4)).play(15),
        "  X |  2 |  3 |  4\n" + "----+" * 3 + "----\n"
        "  5 |  6 |  7 |  8\n" + "----+" * 3 + "----\n  9 | 10 | 11 | 12\n" + "----+" * 3 + "----\n"
        " 13 | 14 | 15 |  O",
    ),
    (Position.empty(Rules(1, 3, 3)), " 1 | 2 | 3"),
]


@pytest.mark.parametrize(("position", "expected"), GRIDS, ids=lambda v: str(v)[:12])
def test_grid_numbers_free_cells_from_one(position: Position, expected: str) -> None:
    assert grid(position) == expected


def test_grid_of_twenty_cells_is_two_wide() -> None:
    text = grid(Position.empty(Rules(4, 5, 4)))
    assert text.splitlines()[0] == "  1 |  2 |  3 |  4 |  5"
    assert text.splitlines()[-1] == " 16 | 17 | 18 | 19 | 20"
    assert text.splitlines()[1] == "----+----+----+----+----"


@pytest.mark.parametrize(
    ("text", "cell"), [("4", 3), ("2", 1), (" 6 ", 5), ("\t8\n", 7), ("03", 2), ("7\r\n", 6)]
)
def test_parse_move_reads_the_players_numbering(text: str, cell: int) -> None:
    assert parse_move(text, Position("X...O...X")) == cell


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "is not a cell number: use 1 to 9"),
        ("   ", "is not a cell number"),
        ("abc", "is not a cell number"),
        ("-1", "is not a cell number"),
        ("+2", "is not a cell number"),
        ("2.0", "is not a cell number"),
        ("٣", "is not a cell number"),
        ("1 2", "is not a cell number"),
        ("0", "is off the board: use 1 to 9"),
        ("10", "is off the board"),
        ("9" * 17, "is not a cell number"),
        ("9" * 16, "is off the board"),
        ("1", "cell 1 is taken"),
        ("5", "cell 5 is taken"),
    ],
)
def test_parse_move_refuses_with_the_text_as_given(text: str, words: str) -> None:
    with pytest.raises(IllegalMoveError) as raised:
        parse_move(text, Position("X...O...X"))
    assert words in str(raised.value)
    assert repr(text[:10]).rstrip("'") in str(raised.value)


def test_parse_move_after_the_game_is_over() -> None:
    with pytest.raises(IllegalMoveError, match="the game is over"):
        parse_move("4", Position("XXXOO...."))
    with pytest.raises(TypeError, match="got int"):
        parse_move(5, Position.empty())  # type: ignore[arg-type]


def test_parse_move_on_a_bigger_board() -> None:
    assert parse_move("12", Position.empty(Rules(3, 4, 3))) == 11
    with pytest.raises(IllegalMoveError, match="use 1 to 12"):
        parse_move("13", Position.empty(Rules(3, 4, 3)))


def test_a_game_keeps_its_moves_and_takes_them_back() -> None:
    game = Game()
    assert game.start == game.position == Position.empty()
    assert game.undo() is None
    assert game.play(4) == Position("....X....")
    game.play(0)
    assert game.moves == (4, 0)
    assert game.position == Position("O...X....")
    assert game.undo() == 0
    assert game.moves == (4,) and game.position == Position("....X....")
    assert game.undo() == 4
    assert game.undo() is None
    assert game.position == game.start


def test_a_game_refusing_a_move_changes_nothing() -> None:
    game = Game(Position("XX.OO....", Rules(3, 3, 3)))
    game.play(2)
    assert game.position.outcome() is not None
    for cell in (5, 2, 9, -1):
        with pytest.raises(IllegalMoveError):
            game.play(cell)
    assert game.moves == (2,)
    assert game.undo() == 2 and game.position == Position("XX.OO....")
    with pytest.raises(IllegalMoveError):
        game.play(0)  # taken
    assert game.moves == ()


def test_a_game_starts_from_a_position_only() -> None:
    with pytest.raises(TypeError, match="got str"):
        Game("X........")  # type: ignore[arg-type]
    game = Game(Position.empty(Rules(3, 4, 3), first="O"))
    assert game.play(0).board[0] == "O"


def test_the_wrong_kind_of_argument_is_a_type_error_that_says_what_to_pass() -> None:
    from tictactoe_book import candidates, load_book

    with pytest.raises(
        TypeError, match=r"parse_move takes a tictactoe_book.Position \(Position\(board\)\), got str"
    ):
        parse_move("5", ".........")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"grid takes a tictactoe_book.Position"):
        grid(".........")  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match=r"candidates takes a book's answer \(book.evaluate\(board\)\), got str"
    ):
        candidates("X...O...X", "perfect")  # type: ignore[arg-type]
    assert candidates(load_book().evaluate("X...O...X"), "hard") == (1, 3, 5, 7)
