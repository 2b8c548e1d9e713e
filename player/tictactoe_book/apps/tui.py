"""The full-screen game on a terminal, drawn with the standard library's ``curses``.

A thin layer: keys are named for ``tictactoe_book.apps.screen`` (the game and what is shown) and
``tictactoe_book.apps.layout`` (where) decides every span; this module only reads keys, paints spans and
restores the terminal, whatever happens (``curses.wrapper``: on Ctrl-C the terminal is put back
before ``tictactoe_book.apps.console`` reports status 130).

Why curses: start-up cost. Cumulative import time (``python -X importtime -c "import NAME"``,
CPython 3.11, median of 7, two runs on this project's 2-core machine under load): curses
1-2 ms; asciimatics 62-110 ms; blessed 160-250 ms; urwid 200-510 ms; prompt_toolkit 220-350
ms; textual 300-890 ms (click, which every run imports anyway, 50 ms). Nothing here needs
more than curses offers. It is imported only by this module, and this module only when a game
is played on a terminal, so a scripted game (``--moves``, piped moves) or ``--plain`` never
loads it.
"""

from __future__ import annotations

import contextlib
import curses
import os
import sys
import textwrap
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tictactoe_book.apps.console import OutputProblem, spelled
from tictactoe_book.apps.layout import QUIT_KEYS, Span, layout, min_size, too_small
from tictactoe_book.errors import echoed

if TYPE_CHECKING:
    from tictactoe_book.apps.layout import View
    from tictactoe_book.game import Rules


class Shown(Protocol):
    """What the screen draws and sends keys to (tictactoe_book.apps.screen's ScreenSession, a game):
    ``press`` says whether to go on."""

    rules: Rules

    def view(self) -> View: ...

    def press(self, key: str) -> bool: ...


class Stepped(Shown, Protocol):
    """A game that also moves by itself (tictactoe_book.apps.watch's WatchSession): ``step`` plays the
    next move once ``waiting`` seconds have passed (None: nothing left to play)."""

    @property
    def waiting(self) -> float | None: ...

    def step(self) -> None: ...


#: Keys curses reads as numbers, by the session's names for them; the rest go by curses' own
#: names (``CURSES_NAMES``), so that no key is ignored in silence.
SPECIAL_KEYS = {
    curses.KEY_UP: "up",
    curses.KEY_DOWN: "down",
    curses.KEY_LEFT: "left",
    curses.KEY_RIGHT: "right",
    curses.KEY_ENTER: "enter",
    curses.KEY_RESIZE: "resize",
    curses.KEY_BACKSPACE: "backspace",
    curses.KEY_DC: "delete",
    curses.KEY_IC: "insert",
    curses.KEY_HOME: "home",
    curses.KEY_END: "end",
    curses.KEY_PPAGE: "pageup",
    curses.KEY_NPAGE: "pagedown",
    curses.KEY_BTAB: "shift-tab",
} | {curses.KEY_F0 + n: f"f{n}" for n in range(1, 64)}
#: Every other key curses has a constant for, by that name (``KEY_SLEFT``: ``sleft``).
CURSES_NAMES = {
    value: name.removeprefix("KEY_").lower()
    for name, value in sorted(vars(curses).items())
    if name.startswith("KEY_") and isinstance(value, int)
}
#: Characters with a name: Enter, Tab, Backspace (^H or DEL, as terminals send it), Esc; the
#: other control characters are Ctrl and a letter or sign (``\x0c``: ``ctrl-l``), any other
#: character that does not print its code point (``u+200b``).
CHARACTER_KEYS = {
    "\n": "enter",
    "\r": "enter",
    " ": "enter",
    "\t": "tab",
    "\x08": "backspace",
    "\x7f": "backspace",
    "\x1b": "esc",
}
#: Arrow keys as terminals send them outside keypad mode (curses knows only the terminfo ones:
#: a terminal that ignores the switch to keypad mode sends these).
ESCAPED_KEYS = {"[A": "up", "[B": "down", "[C": "right", "[D": "left", "OA": "up", "OB": "down"}
ESCAPED_KEYS |= {"OC": "right", "OD": "left", "OM": "enter"}
#: Box-drawing characters for the board's grid, where the terminal's encoding has them (the
#: layout writes ASCII). Not curses' ACS characters: a terminal that mistakes its TERM shows
#: those as letters (``x``, ``q``, ``n``).
BOX = str.maketrans({"|": "\u2502", "-": "\u2500", "+": "\u253c"})


def unusable(rows: int = 3, cols: int = 3) -> str | None:
    """Why the game screen for a ``rows`` x ``cols`` board cannot be used on this terminal, or
    None if it can."""
    fd = sys.stdout.fileno()
    try:
        size = os.get_terminal_size(fd)
    except OSError:
        return "the terminal's size is unknown"
    if too_small(size.lines, size.columns, rows, cols):
        height, width = min_size(rows, cols)
        return f"the terminal is {size.columns}x{size.lines}; the game screen needs at least {width}x{height}"
    # The terminal's own size, not a LINES or COLUMNS left in the environment (pytest-xdist sets
    # both; a shell may export them and then be resized): curses prefers them to the terminal's
    # size, and Python has no use_tioctl to say otherwise (use_env(False) takes terminfo's 80x24).
    for name in ("LINES", "COLUMNS"):
        os.environ.pop(name, None)
    try:
        curses.setupterm(None, fd)
    except curses.error:
        return f"curses does not know this terminal (TERM={echoed(os.environ.get('TERM', ''))})"
    return None


def play(session: Shown, *, colour: bool) -> None:
    """Play ``session``'s games on the screen until the player quits (its tally then says how
    they went). Call ``unusable`` first."""
    _run(_loop, session, colour)


def watch(session: Stepped, *, colour: bool) -> None:
    """Show ``session``'s game on the screen, a move every ``session.delay`` seconds, until the
    watcher leaves (q, or any key once the game is over). Call ``unusable`` first."""
    _run(_watch_loop, session, colour)


def _run(loop: Callable[[curses.window, Any, bool], None], session: Shown, colour: bool) -> None:
    """``loop(screen, session, colour)`` under ``curses.wrapper``: the terminal restored however
    it ends; curses failing is one line and status 4."""
    os.environ.setdefault("ESCDELAY", "25")  # Esc alone answers at once, not after a second
    sys.stdout.flush()
    try:
        curses.wrapper(loop, session, colour)
    except curses.error as error:  # the terminal failed under the game: one line, status 4
        raise OutputProblem(
            f"the game screen failed ({error or 'curses error'}); ttt-play --plain plays line by line"
        ) from None


def key_name(key: str | int) -> str | None:
    """The session's name for a key from ``get_wch``: a printable character in lower case
    (``h``, ``5``, ``?``), else a word (``up``, ``enter``, ``tab``, ``ctrl-l``, ``pageup``,
    ``f5``, ``u+200b``); None only for a number curses has no name for."""
    if isinstance(key, int):
        return SPECIAL_KEYS.get(key) or CURSES_NAMES.get(key)
    if key in CHARACTER_KEYS:
        return CHARACTER_KEYS[key]
    if len(key) == 1 and ord(key) < 0x20:
        return f"ctrl-{chr(ord(key) + 0x40).lower()}"
    if len(key) == 1 and not key.isprintable():
        return f"u+{ord(key):04x}"
    return key.lower()


def _loop(screen: curses.window, session: Shown, colour: bool) -> None:
    styles, box = _start(screen, colour)
    while True:
        drawn = _draw(screen, session, styles, box)
        name = _read_key(screen)
        if name is None or (not drawn and name not in (*QUIT_KEYS, "resize")):
            continue  # nothing is played on a board the player cannot see
        if not session.press(name):
            return


def _watch_loop(screen: curses.window, session: Stepped, colour: bool) -> None:
    """Draw, wait for a key until the next move is due, play it when it is; the delay counts
    from the last move, whatever keys come in between."""
    styles, box = _start(screen, colour)
    due = time.monotonic() + (session.waiting or 0)
    while True:
        drawn = _draw(screen, session, styles, box)
        waiting = session.waiting
        screen.timeout(-1 if waiting is None or not drawn else max(0, round((due - time.monotonic()) * 1000)))
        try:
            name = _read_key(screen)
        except curses.error:  # no key before the next move is due
            session.step()
            due = time.monotonic() + (session.waiting or 0)
            continue
        if name is not None and not session.press(name):
            return


def _start(screen: curses.window, colour: bool) -> tuple[dict[str, int], bool]:
    """Set the screen up for a game: no cursor, named keys; the styles and whether the grid
    may be drawn with box-drawing characters."""
    styles = _styles(colour)
    box = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "") == "utf8"
    with contextlib.suppress(curses.error):
        curses.curs_set(0)
    screen.keypad(True)
    return styles, box


def _read_key(screen: curses.window) -> str | None:
    """The next key's name (an arrow sent as an escape sequence read whole); curses.error when
    the screen's timeout passes first."""
    name = key_name(screen.get_wch())
    return _escaped(screen) if name == "esc" else name


def _escaped(screen: curses.window) -> str:
    """After Esc: the arrow key whose sequence follows at once, else ``esc``."""
    sequence = ""
    screen.nodelay(True)
    try:
        while len(sequence) < 2:
            try:
                key = screen.get_wch()
            except curses.error:  # nothing more waiting: Esc alone
                break
            if not isinstance(key, str):
                break
            sequence += key
    finally:
        screen.nodelay(False)
    return ESCAPED_KEYS.get(sequence, "esc")


def _draw(screen: curses.window, session: Shown, styles: dict[str, int], box: bool) -> bool:
    """Draw the session; False if the terminal is too small to show the game."""
    screen.erase()
    height, width = screen.getmaxyx()
    spans = layout(session.view(), height, width)
    if spans is None:
        least_height, least_width = min_size(session.rules.rows, session.rules.cols)
        message = (
            f"The terminal is {width}x{height}: too small for the game. Make it at least "
            f"{least_width}x{least_height}, or press q to quit."
        )
        for y, row in enumerate(textwrap.wrap(message, max(width - 1, 1))[:height]):
            _put(screen, Span(y, 0, row, ("warn",)), styles)
    else:
        for span in spans:
            if box and span.style == ("grid",):
                span = span._replace(text=span.text.translate(BOX))
            _put(screen, span, styles)
    screen.refresh()
    return spans is not None


def _put(screen: curses.window, span: Span, styles: dict[str, int]) -> None:
    attr = 0
    for name in span.style:
        if name == "draw" and "book" in span.style:
            continue  # the book's draw in the terminal's own colour, brighter than the others' grey
        attr |= styles.get(name, 0)
    # curses refuses a write that ends in the bottom-right corner, after drawing it
    with contextlib.suppress(curses.error):
        screen.addstr(span.y, span.x, spelled(span.text, screen.encoding), attr)


def _styles(colour: bool) -> dict[str, int]:
    """Attributes by style name: bold, reverse and so on always; colours only if ``colour``
    and the terminal has them (the page's green, grey and red for win, draw, loss). In a hint
    the book's move is the one bold label, the others dim, so that the eye goes to it first,
    with colour or without."""
    bold = curses.A_BOLD
    styles = {
        "title": bold,
        "X": bold,
        "O": bold,
        "free": curses.A_DIM,
        "cursor": curses.A_REVERSE,
        "last": bold | curses.A_UNDERLINE,
        "winning": bold,
        "book": bold | curses.A_UNDERLINE,
        "hint": curses.A_DIM,
        "result": bold,
        "warn": bold,
        "prompt": bold,
        "legend": curses.A_DIM,
    }
    if not curses.has_colors():
        return styles
    background = -1  # the terminal's own colours, not curses' white on black
    try:
        curses.use_default_colors()
    except curses.error:
        background = curses.COLOR_BLACK
    if not colour:
        return styles
    grey = 8 if curses.COLORS >= 16 else curses.COLOR_WHITE
    foregrounds = {
        "X": curses.COLOR_CYAN,
        "O": curses.COLOR_YELLOW,
        "win": curses.COLOR_GREEN,
        "draw": grey,
        "loss": curses.COLOR_RED,
        "warn": curses.COLOR_YELLOW,
    }
    for number, (name, foreground) in enumerate(foregrounds.items(), 1):
        curses.init_pair(number, foreground, background)
        styles[name] = styles.get(name, 0) | curses.color_pair(number)
    return styles
