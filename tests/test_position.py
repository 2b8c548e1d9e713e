"""``Position``: immutable, hashable, and its text round-trips on every reachable position."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from oracles import oracle

from tictactoe_book import (
    BoardError,
    IllegalMoveError,
    Position,
    Rng,
    Rules,
    RulesError,
    choose_move,
    load_book,
)
from tictactoe_book.errors import MAX_ECHOED, MAX_ECHOED_PATH, echoed
from tictactoe_book.game import Outcome


def test_round_trip_on_all_5478_positions(reachable: tuple[set[str], set[str]]) -> None:
    unfinished, finished = reachable
    boards = unfinished | finished
    assert len(boards) == 5478
    for board in boards:
        position = Position(board)
        assert Position.parse(str(position)) == position
        assert eval(repr(position)) == position
        assert hash(position) == hash(Position(board))


def test_play_returns_a_new_position_and_refuses_illegal_moves() -> None:
    start = Position.empty()
    after = start.play(4)
    assert str(start) == "........." and str(after) == "....X...."
    assert after.turn == "O"
    with pytest.raises(IllegalMoveError, match="cell 4"):
        after.play(4)
    with pytest.raises(IllegalMoveError, match="9"):
        after.play(9)
    with pytest.raises(IllegalMoveError, match="over"):
        Position("XXXOO....").play(5)


def test_people_may_type_boards_loosely() -> None:
    assert Position.parse("x.o/-x-/...") == Position("X.O.X....")
    assert Position.parse("X O . | . . . | . . .".replace(" ", "")) == Position("XO.......")
    assert Position.parse("X_O/_x_/___") == Position("X.O.X....")  # "_" is empty too
    assert Position.parse("x, -, o, -, -, -, -, -, -") == Position("X.O......")


@pytest.mark.parametrize(
    ("text", "code"),
    [("X.O", "length"), ("X.O.Z....", "character"), ("XX.......", "counts"), ("O........", "counts")],
)
def test_bad_boards_say_why(text: str, code: str) -> None:
    with pytest.raises(BoardError) as caught:
        Position.parse(text)
    assert caught.value.code == code
    assert repr(text.upper())[1:-1] in str(caught.value) or text in str(caught.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Position("X" * 100_000),
        lambda: Position.empty().play(10**5000),
        lambda: Rules.parse("3" * 100_000),
        lambda: Rules("3" * 100_000),  # type: ignore[arg-type]
        lambda: load_book(rules=Rules(), against="x" * 100_000),
    ],
    ids=["board", "cell", "rules-text", "rows", "against"],
)
def test_an_error_repeats_a_long_value_cut(make: Callable[[], object]) -> None:
    """A 100,000-character board was repeated whole (issue 32, Also): at most MAX_ECHOED
    characters of a value, then its length."""
    with pytest.raises(ValueError) as caught:
        make()
    message = str(caught.value)
    assert len(message) < 250, message[:300]
    assert re.search(r"\.\.\. \(\d{1,3}(,\d{3})* characters\)|thousands of digits", message), message


def test_a_value_is_echoed_whole_up_to_the_limit_then_cut_with_its_length() -> None:
    exactly = "a" * MAX_ECHOED
    assert echoed(exactly) == repr(exactly)
    assert echoed(exactly + "b") == f"{exactly!r}... (101 characters)"
    assert echoed("\x1b" * 200, ascii) == ascii("\x1b" * 100) + "... (200 characters)"  # no escape split
    assert echoed(list(range(100))) == repr(list(range(100)))[:MAX_ECHOED] + "... (390 characters)"
    assert echoed(10**5000) == "a number of thousands of digits"
    assert echoed("/" + "d" * 4000, str, limit=MAX_ECHOED_PATH) == "/" + "d" * 4000


def test_positions_are_immutable() -> None:
    position = Position("X........", Rules())
    with pytest.raises(AttributeError):
        position.board = "O........"  # type: ignore[misc]


def test_values_pickle_copy_and_deepcopy() -> None:
    import copy
    import pickle

    for value in (Rules(3, 4, 3), Position("X...O....", Rules()), Position("X" + "." * 11, Rules(3, 4, 3))):
        for clone in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert clone == value and hash(clone) == hash(value)
    assert copy.deepcopy(Rules(3, 4, 3)).lines == Rules(3, 4, 3).lines


# ---------------------------------------------------------------- the game model: who won, by the rules


def test_the_outcome_is_by_the_rules() -> None:
    # X X X
    # O O .      X completed the top row: X wins, and under misère O does
    # . . .
    misere = Rules(3, 3, 3, misere=True)
    assert Position("XXXOO....", misere).outcome() == Outcome("O", (0, 1, 2), "X")
    assert Position("XXXOO....").outcome() == Outcome("X", (0, 1, 2), "X")
    # X O X
    # X O O      full, no line: a draw under either rules
    # O X X
    for rules in (Rules(), misere):
        assert Position("XOXXOOOXX", rules).outcome() == Outcome(None, (), None)
        assert Position("X...O....", rules).outcome() is None


def test_every_reachable_position_agrees_with_the_oracle(reachable: tuple[set[str], set[str]]) -> None:
    """tests/oracles/oracle.py's line_owner (its own line table): the winner
    under normal rules; under misère the other mark; over when a line or the board is full."""
    unfinished, finished = reachable
    for board in unfinished | finished:
        owner = oracle.line_owner(board)
        over = owner is not None or "." not in board
        for rules, winner in (
            (Rules(), owner),
            (Rules(misere=True), owner and ("O" if owner == "X" else "X")),
        ):
            position = Position(board, rules)
            assert position.is_over == over, board
            ended = position.outcome()
            if not over:
                assert ended is None and position.legal_moves() == tuple(
                    c for c, m in enumerate(board) if m == "."
                )
                continue
            assert ended is not None and ended.winner == winner and ended.completed_by == owner, board
            assert position.legal_moves() == (), board
            if owner is not None:
                assert all(board[c] == owner for c in ended.line) and len(ended.line) == 3, board


def test_a_game_o_began_moves_o_first_and_asks_the_book_so() -> None:
    start = Position.empty(first="O")
    assert start.turn == "O" and repr(start) == "Position('.........', first='O')"
    after = start.play(4).play(0)
    assert after.board == "X...O...." and after.turn == "O"
    book = load_book()
    assert book.evaluate(after) == book.evaluate("X...O....", first="O")
    assert choose_move(book, after, "perfect", rng=random.Random(1)) in book.best_moves(
        "X...O....", first="O"
    )
    assert eval(repr(after)) == after


def test_a_first_that_is_not_the_positions_own_is_refused_by_every_question() -> None:
    """A Position knows who moved first: a ``first`` given beside it that says otherwise is a
    TypeError naming both, as JavaScript's reader refuses it (it was silently ignored); the
    position's own ``first`` given again is no conflict."""
    book = load_book()
    began = Position.empty(first="O").play(4)
    asked = (
        book.evaluate,
        book.best_moves,
        book.optimal_moves,
        lambda position, first: choose_move(book, position, "easy", first=first, rng=Rng(3)),
    )
    for ask in asked:
        with pytest.raises(TypeError) as raised:
            ask(began, first="X")
        assert str(raised.value) == (
            "first 'X' is not the position's (O moved first): leave first out when you pass a Position"
        )
        with pytest.raises(TypeError, match="first 'Z' is not the position's"):
            ask(began, first="Z")
        assert ask(began, first="O") == ask(began, first=None)
    assert book.evaluate(Position.empty().play(4), first="X") == book.evaluate("....X....")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (0, "cell 0 of 'X...O....' is taken by X"),
        (9, "cell 9 is off the board (0 to 8)"),
        (-1, "cell -1 is off the board (0 to 8)"),
        (True, "cell True is not a cell: cells are whole numbers (0 to 8)"),
        ("2", "cell '2' is not a cell: cells are whole numbers (0 to 8)"),
    ],
)
def test_the_outcome_of_a_move_that_cannot_be_played_says_why(cell: object, message: str) -> None:
    """``Evaluation.outcome`` of a taken cell raised a bare KeyError (JavaScript's answered a
    draw): both readers now say what Position.play says of that move."""
    with pytest.raises(IllegalMoveError) as refused:
        load_book().evaluate("X...O....").outcome(cell)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_a_position_of_other_rules_is_refused_by_a_book() -> None:
    with pytest.raises(RulesError, match="3x4"):
        load_book().evaluate(Position.empty(Rules(3, 4, 3)))


@pytest.mark.parametrize(
    ("board", "first"),
    [("XXXOOO...", "X"), ("XXX.OO.O.", "X"), ("OOOXX.X..", "O")],
    ids=["both-lines", "line-by-the-side-to-move", "o-began-x-line-last"],
)
def test_a_board_that_cannot_arise_is_not_a_position(board: str, first: str) -> None:
    with pytest.raises(BoardError) as caught:
        Position(board, Rules(), first)
    assert caught.value.code == "unreachable"


# Each check below isolated, so that dropping it fails a test (issue 41, item 14's mutants).


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        # True == 1 and False == 0 as numbers, but a flag is no cell
        (True, "cell True is not a cell: cells are whole numbers (0 to 8)"),
        (False, "cell False is not a cell: cells are whole numbers (0 to 8)"),
        (1.0, "cell 1.0 is not a cell: cells are whole numbers (0 to 8)"),
        (float("nan"), "cell nan is not a cell: cells are whole numbers (0 to 8)"),
        ("1", "cell '1' is not a cell: cells are whole numbers (0 to 8)"),
        (None, "cell None is not a cell: cells are whole numbers (0 to 8)"),
        (-1, "cell -1 is off the board (0 to 8)"),
        (9, "cell 9 is off the board (0 to 8)"),
    ],
)
def test_a_cell_that_is_no_whole_number_on_the_board_is_an_illegal_move(cell: object, message: str) -> None:
    """The message names the value as given and the cells there are (JavaScript's says the same)."""
    with pytest.raises(IllegalMoveError) as raised:
        Position(".........").play(cell)  # type: ignore[arg-type]
    assert str(raised.value) == message


@pytest.mark.parametrize("mark", [".", "x", "o", "", "XO", 0, None])
def test_only_x_and_o_are_marks(mark: object) -> None:
    with pytest.raises(ValueError, match="first must be 'X' or 'O'"):
        Position(".........", first=mark)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["misere", "misère", ":misere", "3x3:3:3", "3:misere", "x3", "3x", ""])
def test_rules_text_without_a_shape_is_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(RulesError, match="rules must look like 3x3"):
        Rules.parse(text)


@pytest.mark.parametrize("rules", ["3x3", None, 3, (3, 3, 3)])
def test_rules_that_are_not_a_rules_value_are_a_type_error_that_names_rules_parse(rules: object) -> None:
    with pytest.raises(TypeError, match=r"rules must be a tictactoe_book\.Rules \(Rules\.parse reads"):
        Position(".........", rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 3, b"3x3", ["3x3"]])
def test_rules_parse_takes_text_only(text: object) -> None:
    with pytest.raises(TypeError, match="rules text must be a str"):
        Rules.parse(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [["novice"], {"novice": 1}, None, 1, "Novice", "novice "])
def test_an_opponent_that_is_not_a_registered_name_is_an_opponent_error(name: object) -> None:
    from tictactoe_book import OpponentError
    from tictactoe_book.opponents import opponent

    with pytest.raises(OpponentError, match=r"unknown opponent .*; choose one of novice, random"):
        opponent(name)  # type: ignore[arg-type]
