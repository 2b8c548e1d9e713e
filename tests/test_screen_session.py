"""The game screen's logic and layout, in process: keys in, what is shown out.

tests/test_tui.py checks in a real terminal that curses wires these up; everything else about
the screen is proved here, fast, including streams of random keys.
"""

from __future__ import annotations

import curses
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tictactoe_book import Book, Rules, load_book
from tictactoe_book.apps.layout import MIN_COLS, MIN_ROWS, View, cell_text, layout
from tictactoe_book.apps.screen import ScreenSession
from tictactoe_book.game import DRAW, EMPTY, STANDARD, outcome

ROOT = Path(__file__).resolve().parent.parent


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
    assert "The computer wins." in texts(view) and "Play again?" in texts(view)
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
    # one-row cells, each hint's label beside its cell's number
    assert small[2].strip() == "1 D*  | 2 D   | 3 D*" and small[3].strip().startswith("-------+")
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
        assert "any key" in text.lower()  # the way back, whole or short, at every size
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
        assert (outcome(STANDARD, board) or DRAW).winner != play.human  # the perfect level never loses
        assert layout(play.view(), 24, 80) is not None
    assert play.tally.wins == 0


def test_a_terminal_failing_under_the_screen_is_one_line_and_status_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import curses

    from tictactoe_book.apps import tui
    from tictactoe_book.apps.console import CANNOT_WRITE, OutputProblem

    def fail(*args: object) -> None:
        raise curses.error("no input")

    monkeypatch.setattr(curses, "wrapper", fail)
    with pytest.raises(OutputProblem) as caught:
        tui.play(ScreenSession(load_book(), human="X", first="X", level="perfect"), colour=False)
    assert caught.value.exit_code == CANNOT_WRITE
    assert str(caught.value) == "the game screen failed (no input); ttt-play --plain plays line by line"


def test_key_names() -> None:
    from tictactoe_book.apps.tui import key_name

    assert key_name(curses.KEY_UP) == "up" and key_name(curses.KEY_RESIZE) == "resize"
    assert key_name("\n") == key_name("\r") == key_name(" ") == key_name(curses.KEY_ENTER) == "enter"
    assert key_name("H") == "h" and key_name("5") == "5" and key_name("\x04") == "ctrl-d"
    assert key_name(curses.KEY_F1) == "f1"


@pytest.mark.parametrize(
    ("sent", "named"),
    [
        ("\t", "Tab"),
        ("\x0c", "Ctrl-L"),
        ("\x01", "Ctrl-A"),
        ("\x7f", "Backspace"),
        ("\x08", "Backspace"),
        (curses.KEY_BACKSPACE, "Backspace"),
        (curses.KEY_PPAGE, "PageUp"),
        (curses.KEY_NPAGE, "PageDown"),
        (curses.KEY_DC, "Delete"),
        (curses.KEY_BTAB, "Shift-Tab"),
        (curses.KEY_F0 + 5, "F5"),
        ("\u200b", "U+200B"),
        ("Z", "'z'"),
    ],
)
def test_a_key_that_does_nothing_is_named_readably(book: Book, sent: str | int, named: str) -> None:
    """Tab and Ctrl-L were printed raw (a blank gap), Ctrl-A as ^A, and Backspace, PageUp and F5
    ignored in silence: each key is said by its name."""
    from tictactoe_book.apps.tui import key_name

    name = key_name(sent)
    assert name is not None
    play = session(book)
    assert play.press(name)
    said = texts(play.view())
    assert f"The key {named} does nothing here: 1-9 or arrows, ? for help." in said
    assert all(line.isprintable() for line in said.splitlines())


def test_no_key_is_ignored_in_silence_or_shown_unprintable(book: Book) -> None:
    """Every key curses has a constant for, and every character up to U+00FF and a few beyond,
    is named, and its message prints: no control character reaches the screen."""
    from tictactoe_book.apps.tui import key_name

    keys: list[str | int] = [
        value for name, value in vars(curses).items() if name.startswith("KEY_") and isinstance(value, int)
    ]
    keys += [chr(code) for code in (*range(0x100), 0x200B, 0x2028, 0xFEFF)]
    for key in keys:
        name = key_name(key)
        assert name is not None, key
        play = session(book)
        play.press(name)
        for line in play.view().lines:
            assert line.text.isprintable(), (key, line.text)


def test_the_pages_action_keys_are_the_terminals() -> None:
    """One table of action keys per language (screen.ACTIONS, web/keys.js's ACTION_KEYS): the
    page takes the terminal's key for every action the page has, every action but quit (a page
    is left by closing it)."""
    import json
    import shutil
    import subprocess

    from tictactoe_book.apps.screen import ACTIONS

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = "import('./web/keys.js').then((m) => console.log(JSON.stringify([...m.ACTION_KEYS])))"
    done = subprocess.run(
        [node, "-e", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    page = dict(json.loads(done.stdout))
    assert page == {action.key: action.name for action in ACTIONS if action.name != "quit"}


# ---------------------------------------------------------------- small terminals, whole parts


def check_whole_or_named(view: View, height: int, width: int) -> None:
    """Each line of ``view`` is on the screen whole (every row of it, as wrapped), or its part is
    named on the last line ("Hidden: ..."); the prompt is always there, whole or in its short
    form. The title is a run of whole parts of the full title."""
    import textwrap

    from tictactoe_book.apps.layout import COLUMN, LEFT, PROMPT

    spans = layout(view, height, width)
    assert spans is not None
    rows = shown(view, height, width)
    note = " ".join(s.text for s in spans if s.style == ("note",))
    assert not note or (note.startswith("Hidden: ") and note.endswith(".")), note
    named = note.removeprefix("Hidden: ").rstrip(".").split(", ") if note else []
    # the text's column: as on 80 columns (77 wide from column 2), centred on a wider terminal
    column = min(width - LEFT - 1, COLUMN)
    left = LEFT + (width - LEFT - 1 - column) // 2
    text_rows = [s.text for s in spans if len(s.style) == 2 and s.x == left]
    for line in view.lines:
        whole = textwrap.wrap(line.text, column)
        short = textwrap.wrap(line.short, column) if line.short else []
        present = any(whole == text_rows[i : i + len(whole)] for i in range(len(text_rows)))
        if line.part == PROMPT:
            assert present or any(short == text_rows[i : i + len(short)] for i in range(len(text_rows)))
        else:
            assert present != (line.part in named), (line, rows)
    title = spans[0].text  # the whole title, or the part after "name: ", cut only where a part ends
    fulls = (view.title, view.title.split(": ", 1)[1])
    assert any(full == title or full.startswith(title + sep) for full in fulls for sep in ("; ", ", ")), title


@given(
    st.integers(MIN_ROWS, 40),
    st.integers(MIN_COLS, 120),
    st.lists(st.integers(1, 9).map(str), max_size=3),
    st.booleans(),
)
def test_every_part_is_shown_whole_or_named_and_the_board_stays_put(
    height: int, width: int, moves: list[str], hints: bool
) -> None:
    play = ScreenSession(load_book(), human="X", first="X", level="perfect", rng=random.Random(1))
    for key in moves:
        play.press(key)
    if hints:
        play.press("h")
    off = layout(play.view(), height, width)
    check_whole_or_named(play.view(), height, width)
    play.press("h")
    on = layout(play.view(), height, width)
    check_whole_or_named(play.view(), height, width)
    assert off is not None and on is not None
    grid = [(s.y, s.x, s.text) for s in off if s.style == ("grid",)]
    assert grid == [(s.y, s.x, s.text) for s in on if s.style == ("grid",)]


def test_3x4_at_every_size_keeps_its_board_with_the_hint_on_or_off(book_3x4_path: Path) -> None:
    """Every size from the least to 30x100: the board's grid is where it was when the hint is
    turned on, and every part of the text is shown whole or named."""
    from tictactoe_book.apps.layout import min_size

    play = session(load_book(book_3x4_path))
    play.press("6")
    least_h, least_w = min_size(3, 4)
    for height in range(least_h, 31):
        for width in range(least_w, 101, 3):
            play.hints_on = False
            off = layout(play.view(), height, width)
            play.hints_on = True
            on = layout(play.view(), height, width)
            assert off is not None and on is not None
            grid = [(s.y, s.x, s.text) for s in off if s.style == ("grid",)]
            assert grid == [(s.y, s.x, s.text) for s in on if s.style == ("grid",)], (height, width)
            check_whole_or_named(play.view(), height, width)


# ---------------------------------------------------------------- watching


def test_watching_steps_one_move_at_a_time_and_leaves_on_q_or_after_the_end(book: Book) -> None:
    from tictactoe_book.apps.watch import WatchSession

    levels = {"X": "easy", "O": "perfect"}
    watch = WatchSession(book, first="X", levels=levels, delay=0.5, rng=random.Random(3))
    view = watch.view()
    assert view.title == "Tic-tac-toe: X (easy) against O (perfect); X moves first"
    assert [cell.text for cell in view.cells] == [str(n) for n in range(1, 10)]
    assert watch.waiting == 0.5 and "a move every 0.5 s; q leaves" in texts(view)
    assert watch.press("x") and watch.press("resize") and watch.game.moves == []  # keys play nothing
    for ply in range(1, 10):
        watch.step()
        if watch.game.is_over:
            break
        mark, cell = watch.game.moves[-1]
        view = watch.view()
        assert len(watch.game.moves) == ply and view.cells[cell].last  # either side's last move
        assert sum(c.last for c in view.cells) == 1 and "[" + mark + "]" in "\n".join(shown(view))
        assert f"{mark} ({'easy' if mark == 'X' else 'perfect'}) played {cell + 1}." in texts(view)
    assert watch.waiting is None and watch.game.winner == "O"  # perfect beats easy here (seed 3)
    view = watch.view()
    assert "Result: O wins." in texts(view) and "Press any key to leave." in texts(view)
    assert sum(cell.winning for cell in view.cells) == 3
    moves = list(watch.game.moves)
    watch.step()
    assert watch.game.moves == moves  # nothing after the end
    assert watch.press("resize") and not watch.press("x")
    again = WatchSession(book, first="O", levels={"X": "perfect", "O": "perfect"}, delay=0)
    assert not again.press("q") and again.view().title.endswith("O moves first")


ENDINGS = {
    False: {"win": "You win!", "loss": "The computer wins.", "draw": "Draw."},
    True: {
        "win": "The computer completed a line, so you win (misère).",
        "loss": "You completed a line, so you lose (misère).",
        "draw": "Draw.",
    },
}


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misère"])
def test_the_end_of_a_game_says_who_won_once_on_one_line(misere: bool) -> None:
    """Issue 25, 6: "O wins: the computer wins." said it twice, and the misère ending was a
    paragraph. Random moves against the easy level, until a game has ended each way."""
    book = load_book(rules=Rules(3, 3, 3, misere=True)) if misere else load_book()
    endings: dict[str, tuple[str, list[str]]] = {}
    for seed in range(500):
        play = session(book, level="easy", seed=seed)
        moves = random.Random(seed)
        while not play.game.is_over:
            play.press(str(moves.choice(play.game.free_cells()) + 1))
        (said,) = [line for line in play.view().lines if line.kind in ("win", "loss", "draw")]
        endings.setdefault(said.kind, (said.text, shown(play.view())))
        if len(endings) == 3:
            break
    assert {kind: text for kind, (text, _) in endings.items()} == ENDINGS[misere]
    for text, rows in endings.values():
        assert len(re.findall(r"\b(?:wins?|lose|draw)\b", text.lower())) == 1, text  # said once
        assert any(row.strip() == text for row in rows), rows  # one row of an 80-column screen


# ---------------------------------------------------------------- small and big terminals (issue 33, item 4)


def test_a_digit_waiting_for_a_second_is_shown_at_every_size(book_3x4_path: Path) -> None:
    """On a board of more than 9 cells a 1 waits for a second digit: the prompt says so at every
    size the game is drawn at, hints on or off (it was a message, the first part to give way:
    with the hint on a small terminal the screen did not change at all)."""
    from tictactoe_book.apps.layout import min_size

    least_h, least_w = min_size(3, 4)
    for hints in (False, True):
        play = session(load_book(book_3x4_path))
        play.press("6")
        if hints:
            play.press("h")
        play.press("1")
        for height in range(least_h, 31):
            for width in range(least_w, 101, 7):
                text = "\n".join(shown(play.view(), height, width))
                assert "Typed 1: " in text, (hints, height, width, text)
        play.press("2")
        assert play.game.board[11] == "X"


def help_rows(view: View, height: int, width: int) -> list[str]:
    return [row.strip() for row in shown(view, height, width) if row.strip()]


@pytest.mark.parametrize(("height", "width"), [(11, 30), (12, 30), (14, 40), (24, 80)])
def test_the_help_keeps_every_key_and_names_what_it_hides(book: Book, height: int, width: int) -> None:
    """The help page on any terminal the game is drawn on lists every key (in a short form when
    the page does not fit) and the way back; what it leaves out is named ("Hidden: ...")."""
    play = session(book)
    play.press("?")
    rows = help_rows(play.view(), height, width)
    for key in ("arrows", "1-9", "h", "u", "?", "q"):
        assert any(row.split()[0] == key for row in rows), (key, rows)
    assert rows[0] == "How to play" and rows[-1].startswith("Hidden: ") == (height < 24)
    assert any("any key" in row.lower() for row in rows)
    if height < 14:
        assert rows[-1] == "Hidden: markers, rules."


def test_a_big_terminal_draws_a_bigger_board_in_the_middle(book: Book) -> None:
    """At 200x60 the board's cells are 11 x 5, the board and its text centred; at 80x24 as
    before, from column 2."""
    play = session(book)
    play.press("5")
    spans = layout(play.view(), 60, 200)
    assert spans is not None
    grid = [s for s in spans if s.style == ("grid",)]
    rules = [s for s in grid if set(s.text) == {"-", "+"}]
    assert rules[0].text == "+".join(["-" * 11] * 3)
    left = rules[0].x
    assert abs(left + (11 * 3 + 2) / 2 - 100) < 100 / 2  # nearer the middle than the edge
    assert left > 40 and all(s.x >= left for s in spans[1:])
    prompt = next(s for s in spans if s.style[-1] == "prompt")
    assert prompt.x == left  # the text under the board starts where the board does
    small = layout(play.view(), 24, 80)
    assert small is not None
    assert min(s.x for s in small if s.style == ("grid",)) == 2
