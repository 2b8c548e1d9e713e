"""The page's hint (web/hints.js) says what ttt-play's says (player/tictactoe_book/hints.py): the same book's
moves and the same sentence of why, on every unfinished 3x3 position (normal and misère, X or O
moving first) and on a sample of 3x4 positions. The page's float and number formatting,
which the sentence's percentages go through, against Python's own ``float(Fraction)`` and
``format``. Runs the page's module in node (tests/web_hints.mjs), one process per book.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from oracles import oracle

from tictactoe_book import hints
from tictactoe_book.game import swap_marks
from tictactoe_book.reader import Book, load_book

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


class PageHints:
    """tests/web_hints.mjs on one book: a question per JSON line, an answer per line."""

    def __init__(self, book: Path) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(ROOT / "tests" / "web_hints.mjs"), str(book)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask_all(self, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers, in order (written all at once, read after: one round trip)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("".join(json.dumps(q) + "\n" for q in questions))
        self.process.stdin.flush()
        return [json.loads(self.process.stdout.readline()) for _ in questions]

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(30)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def page_classic() -> Iterator[PageHints]:
    judge = PageHints(ROOT / "book" / "tictactoe.json")
    yield judge
    judge.close()


def terminal(book: Book, boards: list[str], first: str) -> list[dict[str, Any]]:
    """What ttt-play's hint says on each board, sharing the play-outs as a game does."""
    walks: dict[Any, Any] = {}
    answers = []
    for board in boards:
        found = hints.move_hints(book, board, first=first, walks=walks)
        answers.append(
            {
                "why": hints.why(found, book.against),
                "book": [h.cell for h in found if h.book],
                "words": [h.words for h in found],
            }
        )
    return answers


def compare(page: PageHints, book: Book, boards: list[str], first: str) -> None:
    shown = page.ask_all([{"board": b, "first": first} for b in boards])
    said = terminal(book, boards, first)
    wrong = [(b, s, t) for b, s, t in zip(boards, shown, said, strict=True) if s != t]
    assert not wrong, f"{len(wrong)} of {len(boards)} differ; first: {wrong[0]}"


UNFINISHED = sorted(oracle.all_positions()[0])  # the oracle's 4,520 boards, X moving first


#: The packaged 3x3 books, each ranked against the novice and against a random player (the
#: sentence compares by the book's ranking first), and one ranked against a program.
BOOKS_3X3 = [
    "tictactoe.json",
    "tictactoe-misere.json",
    "tictactoe-vs-random.json",
    "tictactoe-misere-vs-random.json",
    "program",
]


@pytest.fixture(scope="module")
def ranked_against_a_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packaged book with ``trap_order.against`` "program" (its tiers the novice's)."""
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    old = b'"trap_order":{"method":"exact","tolerance":"0"}'
    path = tmp_path_factory.mktemp("program") / "program.json"
    path.write_bytes(raw.replace(old, b'"trap_order":{"against":"program","method":"exact","tolerance":"0"}'))
    return path


@pytest.mark.parametrize("first", ["X", "O"])
@pytest.mark.parametrize("name", BOOKS_3X3)
def test_every_3x3_hint_is_the_terminals(name: str, first: str, ranked_against_a_program: Path) -> None:
    assert len(UNFINISHED) == 4520
    boards = UNFINISHED if first == "X" else [swap_marks(b) for b in UNFINISHED]
    path = ranked_against_a_program if name == "program" else ROOT / "book" / name
    if name == "program":  # its tiers are the novice book's, compared above: a sample for its sentences
        boards = sorted(random.Random(24).sample(boards, 600))
    page = PageHints(path)
    try:
        compare(page, load_book(path, rules=None), boards, first)
    finally:
        page.close()


def test_3x4_hints_are_the_terminals(book_3x4_path: Path, boards_3x4: list[str]) -> None:
    boards = sorted(random.Random(25).sample(boards_3x4, 300))
    page = PageHints(book_3x4_path)
    try:
        compare(page, load_book(book_3x4_path, rules=None), boards, "X")
    finally:
        page.close()


def test_known_sentences(page_classic: PageHints) -> None:
    """Written by hand: the empty board's corners win 89/96 of games against a novice (issue
    24's figure for the book moving first; 92.7%, so 93%), and a known forced block."""
    answers = page_classic.ask_all([{"board": "." * 9, "first": "X"}, {"board": "XX..O....", "first": "X"}])
    assert answers[0]["book"] == [0, 2, 6, 8]
    assert answers[0]["why"] == (
        "1, 3, 7 and 9 keep the draw and win 93% of games against a novice; the other draws win at most 85%."
    )
    # X X .
    # . O .      O to move: only 3 (top right) keeps the draw
    # . . .
    assert answers[1] == {
        "why": "3 is the only move that keeps the draw.",
        "book": [2],
        "words": ["draw", "loss in 2", "loss in 2", "loss in 2", "loss in 2", "loss in 2"],
    }


RATIOS = [
    (1, 3),
    (89, 96),
    (2**60 + 1, 3 * 2**60),  # reduces to a small fraction
    (1, 3**40),  # a denominator beyond 2**53: the long division
    (3**40 - 1, 3**40),
    (2**53 + 1, 2**54),  # halfway between two doubles: to the even one (0.5)
    (2**53 + 3, 2**54),  # halfway: to the even one, up this time
    (12 * (2**53 + 1) + 1, 3 * 2**56),  # a hair past halfway, seen only in the remainder: up
    (2**54 + 3, 2**55),
    (7**30, 11**29),
    (0, 5**30),
]


def test_the_pages_floats_are_pythons(page_classic: PageHints) -> None:
    answers = page_classic.ask_all([{"ratio": [str(n), str(d)]} for n, d in RATIOS])
    assert [a["float"] for a in answers] == [float(Fraction(n, d)) for n, d in RATIOS]


NUMBERS = [12.5, 0.125, 2.5, 0.5, 1.5, 0.25, 0.375, 99.5, 100.0, 92.70833333333334, 0.0, 8.125, 1e-3]


@pytest.mark.parametrize("places", [0, 1, 2])
def test_the_pages_rounding_is_pythons(page_classic: PageHints, places: int) -> None:
    """Python rounds a tie to the even digit (12.5 -> 12), JavaScript's toFixed up (13)."""
    answers = page_classic.ask_all([{"fixed": x, "places": places} for x in NUMBERS])
    assert [a["text"] for a in answers] == [f"{x:.{places}f}" for x in NUMBERS]
