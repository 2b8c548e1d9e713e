"""The 4x4 k=4 book by parts against the version-2 book it is split from (``big``; issue 37):
every canonical position with a move to make (1,135,214 of the 1,217,977; a finished one has no
entry, and both books refuse it) holds the same entry string in the parts as in the version-2
book (the one input a book's answers are derived from, by the same code), positions of random
games answer the same, and the folder is at most 8 MB, its first answer read from the manifest
and two parts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tictactoe_book import BoardError, Book, load_book
from tictactoe_book.game import Position
from tictactoe_book.parts import PartsBook

pytestmark = pytest.mark.big
ENTRIES_4X4 = 1_135_214  # the canonical positions not over (README, docs/book-format.md)


def test_every_canonical_position_holds_the_same_entry_as_in_the_version_2_book(
    v2_4x4: Book, parts_4x4: Path
) -> None:
    book = load_book(parts_4x4)
    assert isinstance(book, PartsBook)
    by_parts = dict(book.texts.items())
    assert len(by_parts) == len(book) == ENTRIES_4X4
    assert by_parts == v2_4x4.data["entries"]


def test_positions_of_random_games_answer_as_the_version_2_book(v2_4x4: Book, parts_4x4: Path) -> None:
    book = load_book(parts_4x4)
    rng, asked = random.Random(37), 0
    for game in range(60):
        position = Position.empty(v2_4x4.rules, "X" if game % 2 == 0 else "O")
        while not position.is_over:
            assert book.evaluate(position) == v2_4x4.evaluate(position)
            position, asked = position.play(rng.choice(position.legal_moves())), asked + 1
        for either in (book, v2_4x4):
            with pytest.raises(BoardError, match="is finished"):
                either.evaluate(position)
    assert asked > 60 * 8


def test_the_folder_is_at_most_8_mb_and_the_first_answer_reads_two_parts(parts_4x4: Path) -> None:
    assert sum(path.stat().st_size for path in parts_4x4.iterdir()) <= 8_000_000
    book = load_book(parts_4x4)
    assert isinstance(book, PartsBook)
    assert book.texts.reads == 0  # the manifest alone
    book.evaluate("." * 16)
    assert book.texts.reads == 2  # the empty board's part, and layer 1's
