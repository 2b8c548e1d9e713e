"""``Position``: immutable, hashable, and its text round-trips on every reachable position."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from player import BoardError, IllegalMoveError, Position, Rules, load_book
from player.errors import MAX_ECHOED, MAX_ECHOED_PATH, echoed


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
