"""The game screen on big terminals and on every size a board is drawn at (issue 42, item 8).

A big terminal has the title, the board and the text under it in the middle, top to bottom as
well as left to right, and the board holds still through a whole game as the text under it
changes; every label a hint puts in a 3x4 cell fits on its row of the cell at every size.
In process, through ``ScreenSession`` and ``layout``, as tests/test_screen_session.py does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tictactoe_book import Book, load_book
from tictactoe_book import hints as teach
from tictactoe_book.apps.layout import (
    CELL_SIZES,
    COLUMN,
    LEFT,
    Span,
    View,
    cell_size,
    cell_text,
    layout,
    min_size,
    text_reserve,
)
from tictactoe_book.apps.screen import ScreenSession

ROOT = Path(__file__).resolve().parent.parent
#: Big terminals, and small ones (where the board keeps its place at the top).
BIG = ((60, 200), (40, 120))
SIZES = (*BIG, (50, 80), (24, 80), (14, 40), (11, 34))


def the_book(board: str, book_3x4_path: Path) -> Book:
    return load_book(ROOT / "book" / "tictactoe.json") if board == "3x3" else load_book(book_3x4_path)


def press_through_games(play: ScreenSession, rng: random.Random, games: int = 3) -> Iterator[str]:
    """Press keys as a person might through ``games`` games, yielding each key once pressed: free
    cells by their digits (1 then Enter for cell 1 where 10 and up exist), now and then a key that
    does nothing, a taken cell, the hint on or off, an undo, the help and back; after a game,
    again with the same sides, then with sides swapped."""
    played = 0
    while played < games:
        if play.game.is_over:
            played += 1
            key = "y" if played % 2 else "s"
            play.press(key)
            yield key
            continue
        free = play.game.free_cells()
        taken = [cell for cell in range(len(play.game.board)) if cell not in free]
        choice = rng.random()
        if choice < 0.06:
            keys = ["z"]
        elif choice < 0.12 and taken:
            keys = list(str(rng.choice(taken) + 1))
        elif choice < 0.18:
            keys = ["h"]
        elif choice < 0.22:
            keys = ["u"]
        elif choice < 0.25:
            keys = ["?", "left"]
        else:
            keys = list(str(rng.choice(free) + 1))
        for key in keys:
            play.press(key)
            yield key
        if play.typed:  # 1 on a board of 10 cells or more waits for a second digit
            play.press("enter")
            yield "enter"


def board_box(spans: list[Span]) -> tuple[int, int, int, int]:
    """The board's box on the screen (top, left, bottom, right; inclusive): its grid's extent."""
    grid = [span for span in spans if span.style == ("grid",)]
    return (
        min(s.y for s in grid),
        min(s.x for s in grid),
        max(s.y for s in grid),
        max(s.x + len(s.text) - 1 for s in grid),
    )


def laid_out(view: View, height: int, width: int) -> list[Span]:
    spans = layout(view, height, width)
    assert spans is not None
    return spans


# ---------------------------------------------------------------- the middle, held still


@pytest.mark.parametrize("board", ["3x3", "3x4"])
@pytest.mark.parametrize("hints", [False, True], ids=["hint-off", "hint-on"])
@pytest.mark.parametrize("human", ["X", "O"])
def test_a_big_terminal_has_the_board_in_the_middle_and_it_holds_still(
    board: str, hints: bool, human: str, book_3x4_path: Path
) -> None:
    """At 200x60 and 120x40 the board's box is in the middle third of the rows, the title two rows
    above it, and the column of the board and its text as far from the left as from the right;
    at every size, big or small, the board's box is where it was after every key of two scripted
    games, the second with the same sides, and of the key that swaps them (the messages, the
    hint's lines and the prompt change under it). At 80x24 and smaller the board is where it
    always was: from row 2 (1 when the terminal is short), column 2."""
    play = ScreenSession(
        the_book(board, book_3x4_path), human=human, first="X", level="perfect", rng=random.Random(3)
    )
    if hints:
        play.press("h")
    boxes = {size: board_box(laid_out(play.view(), *size)) for size in SIZES}
    for height, width in BIG:
        spans = laid_out(play.view(), height, width)
        top, left, bottom, right = boxes[height, width]
        assert height / 3 <= (top + bottom) / 2 <= height * 2 / 3, (height, width, top, bottom)
        assert spans[0].style == ("title",) and spans[0].y == top - 2 and spans[0].x == left - LEFT
        assert abs(left - (width - left - COLUMN)) <= 1 and right < left + COLUMN
    for height, width in ((24, 80), (14, 40), (11, 34)):
        assert boxes[height, width][:2] == (2 if height >= 14 else 1, 2)
    pressed = []
    for key in press_through_games(play, random.Random(human + board + str(hints)), games=2):
        pressed.append(key)
        view = play.view()
        if view.help:  # the help page has no board
            continue
        for size in SIZES:
            assert board_box(laid_out(view, *size)) == boxes[size], (size, pressed)
    assert play.tally.wins + play.tally.draws + play.tally.losses == 2


def test_centring_leaves_the_text_all_the_room_it_takes(
    book_3x4_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows kept for the text when the board is centred (``text_reserve``) hold the text of
    every step of scripted games on 3x3 and 3x4, as X and as O, the hint on (on 3x4 also with
    its chances not counted, the longest "why", as early on 4x4): the messages, the hint's why
    and legend, the prompt and the tally, in the full column and in narrower ones. So centring
    on a tall terminal never hides a part that the top would show."""
    longest = 0
    for board, games, budget in (("3x3", 4, teach.HINT_BUDGET), ("3x4", 1, teach.HINT_BUDGET), ("3x4", 3, 0)):
        monkeypatch.setattr(teach, "HINT_BUDGET", budget)
        for human in ("X", "O"):
            play = ScreenSession(
                the_book(board, book_3x4_path), human=human, first="X", level="medium", rng=random.Random(5)
            )
            play.press("h")
            for _ in press_through_games(play, random.Random(human + board), games):
                view = play.view()
                if view.help:
                    continue
                for width in (40, 60, 80):
                    column = min(width - LEFT - 1, COLUMN)
                    spans = laid_out(view, 100, width)  # tall enough for every part
                    bottom = board_box(spans)[2]
                    rows = [span for span in spans if span.y > bottom]
                    assert all(span.style != ("note",) for span in rows)  # nothing hidden
                    assert len(rows) <= text_reserve(column), (width, [line.text for line in view.lines])
                    longest = max(longest, len(rows) if column == COLUMN else 0)
    assert longest >= text_reserve(COLUMN) - 1  # what the text takes, and a row at most to spare


# ---------------------------------------------------------------- the 3x4 hint's labels


def size_classes(rows: int, cols: int) -> list[tuple[int, int]]:
    """Terminal sizes (height, width) covering every cell size the layout picks for the board: the
    least size it is drawn at, the least that picks each cell size, and a big terminal."""
    least_h, least_w = min_size(rows, cols)
    first: dict[tuple[int, int], tuple[int, int]] = {}
    for height in range(least_h, 61):
        for width in range(least_w, 201):
            first.setdefault(cell_size(rows, cols, height, width), (height, width))
    assert set(first) == set(CELL_SIZES)
    return sorted({(least_h, least_w), *first.values(), (60, 200)})


def check_cells_fit(view: View, height: int, width: int) -> None:
    """Each cell's text (a mark, a number, or a hint's label with its cell's number) is drawn
    inside its cell, and the label, the number and the mark each whole on one row of it."""
    spans = laid_out(view, height, width)
    cell_w, cell_h = cell_size(view.rows, view.cols, height, width)
    top, left, _, _ = board_box(spans)
    grid = {(s.y, s.x + i) for s in spans if s.style == ("grid",) for i in range(len(s.text))}
    screen: dict[tuple[int, int], str] = {}
    for span in spans:
        for i, char in enumerate(span.text):
            screen[span.y, span.x + i] = char
    for index, cell in enumerate(view.cells):
        r, c = divmod(index, view.cols)
        y0, x0 = top + r * (cell_h + 1), left + c * (cell_w + 1)
        inside = [s for s in spans if y0 <= s.y < y0 + cell_h and x0 <= s.x < x0 + cell_w]
        for span in inside:
            assert span.x + len(span.text) <= x0 + cell_w, (height, width, index + 1, span)
            assert not any((span.y, span.x + i) in grid for i in range(len(span.text))), span
        rows = [
            "".join(screen.get((y, x), " ") for x in range(x0, x0 + cell_w)) for y in range(y0, y0 + cell_h)
        ]
        words = [word for row in rows for word in row.split()]
        for text in (cell_text(cell), cell.number):
            assert not text or text in words, (height, width, index + 1, text, rows)


def all_labels(free: list[int], cells: int) -> Iterator[list[teach.MoveHint]]:
    """Every label a hint on a board of ``cells`` cells can put in a free cell (a win or a loss in
    1 to ``cells`` moves, a draw; the book's move or not) on each of the ``free`` cells: each
    outcome on all of them, the book's move every one, or the first, or the last."""
    for value in (1, 0, -1):
        for plies in range(1, cells + 1) if value else (0,):
            for books in (set(free), {free[0]}, {free[-1]}):
                yield [teach.MoveHint(cell, value, plies, None, cell in books) for cell in free]


def test_every_3x4_hint_label_fits_its_cell_at_every_size(
    book_3x4_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On 3x4 (cells numbered up to 12) every label a hint can show (``W1`` to ``W12``, ``D``,
    ``L1`` to ``L12``, each starred as the book's move or not), on every cell, and the real hint
    of every step of scripted games, fit in their cells with the cell's number at each size the
    layout draws 3x4 at: one-row cells (``12 L10*``), three-row and five-row cells."""
    book = load_book(book_3x4_path)
    sizes = size_classes(3, 4)
    for human in ("X", "O"):
        play = ScreenSession(book, human=human, first="X", level="medium", rng=random.Random(7))
        play.press("h")
        for _ in press_through_games(play, random.Random(human), games=1):
            view = play.view()
            if not view.help:
                for size in sizes:
                    check_cells_fit(view, *size)
    play = ScreenSession(book, human="O", first="O", level="perfect", rng=random.Random(7))
    play.press("h")
    free = play.game.free_cells()
    assert len(free) == 12
    for hints in all_labels(free, 12):
        monkeypatch.setattr(teach, "move_hints", lambda *args, hints=hints, **kwargs: hints)
        view = play.view()
        assert [cell.text for cell in view.cells] == [hint.label for hint in hints]
        for size in sizes:
            check_cells_fit(view, *size)
