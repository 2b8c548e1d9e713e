"""``Position``: immutable, hashable, and its text round-trips on every reachable position."""

from __future__ import annotations

import pytest

from player import BoardError, IllegalMoveError, Position, Rules


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
