"""Misère books: completing a line of k loses. The 3x3 misère book ``ttt-book build`` writes
proves; its answers are those of an independent negamax on every board; and the game's facts
hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracles.negamax import Negamax

from tictactoe_book import BoardError, Book, BookError, Rules, choose_move, load_book, parse_book
from tictactoe_book.game import STANDARD
from tictactoe_generator.writer import build_book, encode

Reachable = tuple[set[str], set[str]]
MISERE = Rules(3, 3, 3, misere=True)


@pytest.fixture(scope="module")
def misere_raw() -> bytes:
    return encode(build_book(MISERE))


@pytest.fixture
def misere_book(misere_raw: bytes) -> Book:
    """The misère book proven for one test (a Book remembers its answers: none shared)."""
    return parse_book(misere_raw, "<misère>", rules=MISERE)


def test_the_misere_book_proves_under_its_own_rules(misere_raw: bytes, tmp_path: Path) -> None:
    path = tmp_path / "misere.json"
    path.write_bytes(misere_raw)
    book = load_book(path, rules=MISERE)
    assert book.trust == "proven" and book.rules == MISERE and len(book) == 627
    assert load_book(path).rules == MISERE  # by its own rules
    with pytest.raises(BookError) as caught:
        load_book(path, rules=STANDARD)  # the caller plays normal rules
    assert caught.value.code == "rules"
    assert "is a book for 3x3 k=3 misère, not 3x3 k=3 [rules]" in str(caught.value)


def test_misere_3x3_is_a_draw_and_only_the_centre_does_not_lose(misere_book: Book) -> None:
    # . . .
    # . X .      the one first move that keeps the draw: every other loses
    # . . .
    start = misere_book.evaluate(".........")
    assert (start.value, start.plies) == (0, 9)
    assert start.optimal == (4,)
    assert [cell for cell, score in start.scores.items() if score >= 0] == [4]
    assert all(start.outcome(cell)[0] == -1 for cell in start.scores if cell != 4)
    assert choose_move(misere_book, ".........") == 4


def test_completing_a_line_loses(misere_book: Book) -> None:
    # . . .
    # . O O      X to move: 7 completes X's bottom row, which loses at once (score -9); in
    # X . X      normal play it would win at once (score 9)
    answer = misere_book.evaluate("....OOX.X")
    assert answer.scores[7] == -9 and answer.outcome(7) == (-1, 1)
    assert 7 not in answer.optimal
    normal = parse_book((Path(__file__).parent.parent / "book" / "tictactoe.json").read_bytes())
    assert normal.evaluate("....OOX.X").scores[7] == 9


def test_every_answer_is_an_independent_negamax(
    misere_book: Book, reachable: tuple[set[str], set[str]]
) -> None:
    """Every reachable unfinished board (the same 4,520 as in normal play: the games end on the
    same boards), in its own orientation, against a solver that shares nothing with the book."""
    negamax = Negamax(3, 3, 3, misere=True)
    for board in reachable[0]:
        answer = misere_book.evaluate(board)
        expected = {cell: negamax.moves(board)[cell] for cell in answer.scores}
        assert {cell: answer.outcome(cell) for cell in answer.scores} == expected, board
        best = max(answer.scores.values())
        assert answer.optimal == tuple(c for c, s in sorted(answer.scores.items()) if s == best), board


def test_a_normal_book_read_as_misere_is_refused(misere_raw: bytes) -> None:
    normal = (Path(__file__).parent.parent / "book" / "tictactoe.json").read_bytes()
    flipped = normal.replace(b'"misere":false', b'"misere":true', 1)
    with pytest.raises(BookError) as caught:
        parse_book(flipped, rules=MISERE)
    assert caught.value.code == "entry-inconsistent"
    back = misere_raw.replace(b'"misere":true', b'"misere":false', 1)
    with pytest.raises(BookError) as caught:
        parse_book(back, rules=STANDARD)
    assert caught.value.code == "entry-inconsistent"


def test_a_finished_misere_board_is_lost_by_the_line_maker(misere_book: Book) -> None:
    with pytest.raises(BoardError, match="X has lost") as caught:
        misere_book.evaluate("XXXOO....")
    assert caught.value.code == "over"


def test_a_misere_3x4_book_proves(tmp_path: Path) -> None:
    """3x4 with k = 3, misère: 20,088 entries, proven; its first moves agree with a negamax."""
    raw = encode(build_book(Rules(3, 4, 3, misere=True)))
    book = parse_book(raw, rules=Rules(3, 4, 3, misere=True))
    assert len(book) == 20088
    negamax = Negamax(3, 4, 3, misere=True)
    start = book.evaluate("." * 12)
    assert {cell: start.outcome(cell) for cell in start.scores} == negamax.moves("." * 12)
