"""The game screen's logic and layout, in process: keys in, what is shown out.

tests/test_tui.py checks in a real terminal that curses wires these up; everything else about
the screen is proved here, fast, including streams of random keys.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from player import Book, load_book
from player.apps.layout import MIN_COLS, MIN_ROWS, View, cell_text, layout
from player.apps.screen import ScreenSession
from player.game import EMPTY, STANDARD, winner


def session(
    book: Book, human: str = "X", first: str = "X", level: str = "perfect", seed: int = 2
) -> ScreenSession:
    return ScreenSession(book, human=human, first=first, level=level, rng=random.Random(seed))


def texts(view: View) -> str:
    return "\n".join(line.text for line in view.lines)


def shown(view: View, height: int = 24, width: int = 80) -> list[str]:
    """The screen as text rows."""
    spans = layout(view, height, width)
    assert spans is not None
    rows = [[" "] * width for _ in range(height)]
    for span in spans:
        assert 0 <= span.y < height and span.x >= 0 and span.x + len(span.text) <= width, span
        rows[span.y][span.x : span.x + len(span.text)] = list(span.text)
    return ["".join(row).rstrip() for row in rows]


def test_the_highlight_moves_with_the_arrows_and_enter_plays_it(book: Book) -> None:
    play = session(book)
    assert play.view().cells[4].cursor  # the centre first
    for key in ("right", "right"):  # wraps round the edge
        assert play.press(key)
    assert play.view().cells[3].cursor
    play.press("up")
    play.press("enter")
    assert play.game.moves[0] == ("X", 0)
    assert play.game.moves[1][0] == "O"  # the computer answered at once
    view = play.view()
    reply = play.game.moves[1][1]
    assert view.cells[reply].last and not view.cells[0].last
    assert f"The computer (O) played {reply + 1}." in texts(view)
    assert "[O]" in "\n".join(shown(view))


def test_digits_play_and_bad_ones_say_why(book: Book) -> None:
    play = session(book)
    play.press("0")
    assert "There is no cell 0" in texts(play.view()) and not play.game.moves
    play.press("5")
    assert play.game.moves[0] == ("X", 4)
    play.press("5")
    assert "Cell 5 is taken by X; free cells:" in texts(play.view())
    assert len(play.game.moves) == 2
    play.press("z")
    assert "The key 'z' does nothing here" in texts(play.view())


def test_hint_on_and_off_and_undo(book: Book) -> None:
    play = session(book)
    play.press("h")
    view = play.view()
    assert [cell.text for cell in view.cells] == ["D*", "D", "D*", "D", "D", "D", "D*", "D", "D*"]
    assert {cell.kind for cell in view.cells} == {"draw"}
    assert [cell.book for cell in view.cells] == [c in (0, 2, 6, 8) for c in range(9)]
    assert "1, 3, 7 and 9 keep the draw" in texts(view)
    assert "plies" not in texts(view)  # every move draws: no numbers, no note
    play.press("5")
    labels = [cell.text for cell in play.view().cells if cell.kind not in ("X", "O")]
    assert len(labels) == 7 and all(label[0] in "WDL" for label in labels), labels
    play.press("u")
    assert play.game.moves == [] and "Undone: X at 5, O at" in texts(play.view())
    play.press("u")
    assert "Nothing to undo yet." in texts(play.view())
    play.press("h")
    assert [cell.text for cell in play.view().cells] == [str(n) for n in range(1, 10)]


def test_help_shows_and_any_key_goes_back(book: Book) -> None:
    play = session(book)
    play.press("?")
    view = play.view()
    assert view.help and "How to play" in view.help[0]
    assert play.press("5") and not play.game.moves  # closing the help plays nothing
    assert not play.view().help


def lose(play: ScreenSession) -> None:
    """Play the lowest free cell until the game ends."""
    while not play.game.is_over:
        play.press(str(play.game.free_cells()[0] + 1))


def test_a_finished_game_marks_the_line_counts_it_and_offers_another(book: Book) -> None:
    play = session(book)
    lose(play)
    view = play.view()
    assert play.game.winner == "O"
    on_line = [cell for cell in view.cells if cell.winning]
    assert len(on_line) == 3 and all(cell.text == "O" and cell.kind == "loss" for cell in on_line)
    assert sum("*O*" in row for row in shown(view)) == 3
    assert not any(cell.cursor for cell in view.cells)
    assert "O wins: the computer wins." in texts(view) and "Play again?" in texts(view)
    assert "Tally: you 0 won, 0 drawn, 1 lost" in texts(view)
    play.press("5")  # ignored until the question is answered
    assert play.game.is_over
    play.press("s")
    assert play.human == "O" and play.game.moves and play.game.moves[0][0] == "X"
    assert "New game: you are O; X moves first." in texts(play.view())
    assert not play.press("q")


@pytest.mark.parametrize("key", ["q", "ctrl-d"])
def test_quit_keys_end_the_session(book: Book, key: str) -> None:
    assert not session(book).press(key)


def test_the_layout_uses_big_cells_small_cells_or_nothing(book: Book) -> None:
    play = session(book)
    play.press("h")
    big = shown(play.view(), 24, 80)
    assert big[0].startswith("Tic-tac-toe: you are X")
    assert "D*" in big[3] and big[5].strip().startswith("-------+")
    small = shown(play.view(), 14, 40)
    assert small[0] == "you are X, the computer O (perfect)"  # the title shortened by parts
    assert small[2].strip().startswith("D*") and small[3].strip().startswith("-----+")
    assert any("Your move (X)" in row for row in small)
    assert all(len(row) <= 40 for row in small)
    assert layout(play.view(), MIN_ROWS - 1, 80) is None
    assert layout(play.view(), 24, MIN_COLS - 1) is None
    tight = shown(play.view(), MIN_ROWS, MIN_COLS)
    assert any("Your move" in row for row in tight)  # the prompt survives any size it draws at


@given(st.integers(MIN_ROWS, 60), st.integers(MIN_COLS, 200), st.booleans(), st.booleans())
def test_every_size_from_the_minimum_draws_the_board_and_the_prompt(
    height: int, width: int, hints: bool, helping: bool
) -> None:
    # a book for each example (the hypothesis tests take no fixtures): none shared between tests
    play = ScreenSession(load_book(), human="X", first="X", level="perfect", rng=random.Random(1))
    play.press("5")
    if hints:
        play.press("h")
    if helping:
        play.press("?")
    rows = shown(play.view(), height, width)
    text = "\n".join(rows)
    if helping:
        assert "Press any key" in text
    else:
        assert "Your move" in text
        assert sum(cell_text(cell) in text for cell in play.view().cells) == 9


KEYS = st.sampled_from(
    ["up", "down", "left", "right", "enter", "h", "u", "?", "y", "s", "n", "esc", "resize", "x"]
)
DIGITS = st.integers(0, 9).map(str)


@given(
    st.lists(st.one_of(KEYS, DIGITS), max_size=80),
    st.sampled_from(["X", "O"]),
    st.sampled_from(["X", "O"]),
    st.integers(0, 2**32),
)
def test_random_keys_never_crash_and_keep_the_game_legal(
    keys: list[str], human: str, first: str, seed: int
) -> None:
    play = ScreenSession(load_book(), human=human, first=first, level="perfect", rng=random.Random(seed))
    for key in keys:
        if not play.press(key):
            break
        board = play.game.board
        assert len(board) == 9 and set(board) <= {EMPTY, "X", "O"}
        assert winner(STANDARD, board) != play.human  # the perfect level never loses
        assert layout(play.view(), 24, 80) is not None
    assert play.tally.wins == 0


def test_a_terminal_failing_under_the_screen_is_one_line_and_status_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import curses

    from player.apps import tui
    from player.apps.console import CANNOT_WRITE, OutputProblem

    def fail(*args: object) -> None:
        raise curses.error("no input")

    monkeypatch.setattr(curses, "wrapper", fail)
    with pytest.raises(OutputProblem) as caught:
        tui.play(ScreenSession(load_book(), human="X", first="X", level="perfect"), colour=False)
    assert caught.value.exit_code == CANNOT_WRITE
    assert str(caught.value) == "the game screen failed (no input); ttt-play --plain plays line by line"


def test_key_names() -> None:
    import curses

    from player.apps.tui import key_name

    assert key_name(curses.KEY_UP) == "up" and key_name(curses.KEY_RESIZE) == "resize"
    assert key_name("\n") == key_name("\r") == key_name(" ") == key_name(curses.KEY_ENTER) == "enter"
    assert key_name("H") == "h" and key_name("5") == "5" and key_name("\x04") == "ctrl-d"
    assert key_name(curses.KEY_F1) is None
