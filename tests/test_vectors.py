"""The Python reader passes every conformance vector in book/vectors.json (as the JS reader does)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from player.errors import BoardError
from player.game import VALUE_WORDS
from player.reader import Book

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "book" / "vectors.json").read_text())


@pytest.fixture
def book(fresh_book: Book) -> Book:
    """Each test here gets the book fresh (tests/conftest.py): an invalid vector's board may be a
    valid one's in a game the other side began, and must be refused whatever was asked before."""
    return fresh_book


def test_vectors_cover_every_position_and_random_orientations(book: Book) -> None:
    book_bytes = (ROOT / "book" / "tictactoe.json").read_bytes()
    assert VECTORS["book_sha256"] == hashlib.sha256(book_bytes).hexdigest()
    valid = VECTORS["valid"]
    x_first = {v["board"] for v in valid if v["first"] == "X"}
    assert len(x_first) >= 4520
    assert sum(1 for v in valid if v["first"] == "O") >= 150
    tags = {t for v in valid for t in v["tags"]}
    assert {"empty", "can-win", "must-block", "lost"} <= tags


def test_every_valid_vector(book: Book) -> None:
    for v in VECTORS["valid"]:
        answer = book.evaluate(v["board"], first=v["first"])
        assert answer.turn == v["turn"], v  # the game's own mark: no swapping by hand
        assert answer.key == v["key"], v
        assert book.rules.symmetries.index(answer.symmetry) == v["symmetry"], v
        assert (VALUE_WORDS[answer.value], answer.plies) == (v["value"], v["plies"]), v
        assert list(answer.optimal) == v["optimal"], v
        assert list(answer.tiers[0]) == v["top"], v
        assert [answer.scores.get(c) for c in range(9)] == v["scores"], v


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: f"{v['board'] or 'empty'}-{v['first']}")
def test_every_invalid_vector(book: Book, vector: dict[str, str]) -> None:
    with pytest.raises(BoardError) as caught:
        book.evaluate(vector["board"], first=vector["first"])
    assert caught.value.code == vector["error"]


def test_an_invalid_vector_is_refused_after_its_board_was_answered_in_the_other_game(book: Book) -> None:
    """A board the book has answered in a game one side began is still refused in a game the
    other side began, where it cannot arise (``X........`` when O moved first)."""
    checked = 0
    for vector in VECTORS["invalid"]:
        other = "O" if vector["first"] == "X" else "X"
        try:
            book.evaluate(vector["board"], first=other)
        except BoardError:
            continue
        with pytest.raises(BoardError) as caught:
            book.evaluate(vector["board"], first=vector["first"])
        assert caught.value.code == vector["error"]
        checked += 1
    assert checked >= 2  # O........ when X moved first, X........ when O did
