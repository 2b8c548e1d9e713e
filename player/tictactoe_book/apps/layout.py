"""Where each piece of a ``View`` goes on a terminal of a given size: a pure function.

``layout(view, height, width)`` returns positioned text (``Span``), or None when the terminal is
too small for the game; ``tictactoe_book.apps.tui`` only paints the spans. The board's cell size is
chosen by the terminal's size and the board's alone (the largest of ``CELL_SIZES`` that leaves
room for the text: 11 x 5 on a big terminal, 7 x 3, else 7 x 1), so it stays put whatever the
text below it says (a hint turned on or off). On a terminal wider than 80 columns the board and
its text, a column as wide as they are on 80, are centred; on one taller than the title, the
board and TEXT_RESERVE rows of text need, they are centred between the top and the bottom, as a
block of that height, so the board holds still while the text under it grows and shrinks. The
parts around the board are named
(``PARTS``): when the terminal is too short for all of them, whole parts go, the least needed
first (the prompt stays), and a last line names what is hidden; the help page does the same
with its own parts (``HELP_PARTS``). Nothing is cut mid-word: the title loses whole parts, the
lines wrap at word boundaries. Markers are text as well as colour, so they show without colour
(NO_COLOR) and in a test: the computer's last move ``[O]``, the winning line ``*X*``, the book's
move in a hint ``D*``; a hint's cell keeps its number beside the label (``5 D*``).
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

#: The keys that end a session (named as ``tictactoe_book.apps.tui.key_name`` names them).
QUIT_KEYS = ("q", "ctrl-d")
#: Below this the game is not drawn (the screen says so; at start the line mode is played);
#: a board larger than 3x3 needs more (``min_size``).
MIN_COLS = 30
MIN_ROWS = 11
#: Cell sizes (columns, rows), largest first. 7 columns hold a cell's number beside a hint's
#: label on any board up to 99 cells (``16 L12*``).
CELL_SIZES = ((11, 5), (7, 3), (7, 1))
LEFT = 2  # the margin before the board and the text
#: The widest the text under the board is set: its width on an 80-column terminal. A wider
#: terminal centres the board and the text in a column this wide (or the board's width).
COLUMN = 77
#: Rows the smallest layout needs beside the board: a blank row and up to five of prompt.
TEXT_ROWS = 6
#: Rows kept for the text under the board when the title, the board and the text are centred
#: between the top and the bottom of a tall terminal, in the full COLUMN (a narrower column
#: keeps as much text, in more rows: ``text_reserve``): the most a game's text takes there, 9
#: rows (as O, a new game's hint whose chances are not counted: two messages, three rows of why,
#: two of legend, the prompt and the tally; a test plays games against it), and one to spare.
#: Centring never leaves the text less room than this.
TEXT_RESERVE = 10
#: Rows a cell size must leave beside the board to be chosen (the last size always may): the
#: title and a blank row, a blank row under the board, and six of text. 4x4 in big cells at
#: 80x24 leaves just that. With less, the title sits right above the board.
ROOM_ROWS = 9
#: The parts of the screen under the board, the first hidden first when the terminal is too
#: short for all of them. "keys" is the list of keys in the prompt: hiding it leaves the prompt's
#: short form (``Line.short``, which ends "? help"; the only part hidden without a word). The
#: prompt itself is never hidden.
PARTS = ("tally", "legend", "keys", "messages", "why", "result")
PROMPT = "prompt"
#: The help page's parts, the first hidden first when the terminal is too short for the whole
#: page: the blank lines between paragraphs ("spacing"), what the markers mean, the rules and
#: the numbering, then "keys": each key's line (part "key", never hidden) in its short form
#: (``Line.short``). The title and the way back are never hidden; the note names what is
#: ("Hidden: markers, rules.").
HELP_PARTS = ("spacing", "markers", "rules", "keys")
#: Parts whose hiding is not named: blank lines, and the keys, whose short form is still there.
UNNAMED = ("keys", "spacing")


class Line(NamedTuple):
    """One line of text below the board: ``kind`` says how to show it, ``part`` which part of the
    screen it belongs to (``PARTS``, or ``PROMPT``), ``short`` a shorter wording for a small
    terminal (the prompt's, without its list of keys; empty if none)."""

    text: str
    kind: str
    part: str
    short: str = ""


class CellView(NamedTuple):
    """One cell as it is to be drawn."""

    text: str  # X, O, the cell's number, or a hint label (W3, D*, L4)
    kind: str  # X, O, free, or win / draw / loss (a hint, or the winning line's colour)
    cursor: bool  # the highlighted cell that Enter plays
    last: bool  # the last move (the computer's, or either side's when watching)
    winning: bool  # on the winning line, once the game is over
    book: bool  # the book's own move, in a hint
    number: str = ""  # the cell's number shown beside a hint's label; empty otherwise


class View(NamedTuple):
    """Everything the screen shows."""

    title: str
    rows: int
    cols: int
    cells: tuple[CellView, ...]
    lines: tuple[Line, ...]
    help: tuple[Line, ...]  # when not empty, the help page is shown instead of the game


class Span(NamedTuple):
    """Text at row ``y``, column ``x``, shown in the styles named (``X``, ``cursor``, ...)."""

    y: int
    x: int
    text: str
    style: tuple[str, ...]


def min_size(rows: int = 3, cols: int = 3) -> tuple[int, int]:
    """The smallest terminal (height, width) the game on a ``rows`` x ``cols`` board is drawn
    on: the board in small cells, a blank row and the prompt; never less than MIN_ROWS x
    MIN_COLS (3x3's own)."""
    board_h, board_w = board_size(rows, cols, CELL_SIZES[-1])
    return max(MIN_ROWS, board_h + TEXT_ROWS), max(MIN_COLS, LEFT + board_w + 1)


def too_small(height: int, width: int, rows: int = 3, cols: int = 3) -> bool:
    """Whether a terminal of this size is too small for the game on a ``rows`` x ``cols`` board."""
    least_height, least_width = min_size(rows, cols)
    return height < least_height or width < least_width


def board_size(rows: int, cols: int, cell: tuple[int, int]) -> tuple[int, int]:
    """The board's (height, width) in cells of ``cell`` (columns, rows), with the grid lines."""
    cell_w, cell_h = cell
    return rows * cell_h + rows - 1, cols * cell_w + cols - 1


def cell_size(rows: int, cols: int, height: int, width: int) -> tuple[int, int]:
    """The cell size for a ``rows`` x ``cols`` board on ``height`` x ``width``: the largest that
    fits and leaves ROOM_ROWS for the rest, else the smallest. The text shown plays no part, so
    the board keeps its size when a hint is turned on or off."""
    for cell in CELL_SIZES:
        board_h, board_w = board_size(rows, cols, cell)
        if LEFT + board_w < width and height - board_h >= ROOM_ROWS:
            return cell
    return CELL_SIZES[-1]


def layout(view: View, height: int, width: int) -> list[Span] | None:
    """The spans that draw ``view`` on ``height`` rows of ``width`` columns, or None if the
    game cannot be drawn that small."""
    if too_small(height, width, view.rows, view.cols):
        return None
    if view.help:
        return _help_page(view.help, height, width)
    cell = cell_size(view.rows, view.cols, height, width)
    board_h, board_w = board_size(view.rows, view.cols, cell)
    column, left = _column(width, board_w)
    title = _block_top(height, board_h, column)
    top = title + (2 if height - board_h >= ROOM_ROWS else 1)  # the terminal's size says, not the text
    spans = [Span(title, left - LEFT, _shorten(view.title, width - 1 - (left - LEFT)), ("title",))]
    spans += _board(view, top, left, *cell)
    y = top + board_h + 1  # a blank row between the board and the text
    for text, style in _fit(view.lines, height - y, column):
        spans.append(Span(y, left, text, style))
        y += 1
    return spans


def _column(width: int, board_w: int) -> tuple[int, int]:
    """The width the text is set in (COLUMN, the board's if wider, the terminal's if narrower)
    and the column it and the board start at: LEFT up to 80 columns, centred beyond."""
    column = max(board_w, min(width - LEFT - 1, COLUMN))
    return column, LEFT + max(0, (width - LEFT - 1 - column) // 2)


def text_reserve(column: int) -> int:
    """The rows kept for the text under the board in a ``column`` columns wide: TEXT_RESERVE in
    the full COLUMN, more in proportion in a narrower one (as much text, wrapped shorter)."""
    return -(-TEXT_RESERVE * COLUMN // column)


def _block_top(height: int, board_h: int, column: int) -> int:
    """The row the title is on: the one that centres the title, a blank row, the board, a blank
    row and ``text_reserve(column)`` rows of text between the terminal's top and bottom, 0 when
    they do not fit. The terminal's size and the board's say, never the text shown: the board
    stays put as the text under it changes."""
    return max(0, (height - (3 + board_h + text_reserve(column))) // 2)


def _shorten(text: str, width: int) -> str:
    """``text``, or as much of it as fits in whole parts: its ``;``-separated parts dropped from
    the end, then what comes before its first ``: `` (the title's name), then its ``,``-separated
    parts (``you are X``); empty if not even the first part fits. Never a word cut."""
    parts = text.split("; ")
    while len(parts) > 1 and len("; ".join(parts)) > width:
        parts.pop()
    kept = "; ".join(parts)
    if len(kept) > width and ": " in kept:
        kept = kept.split(": ", 1)[1]
    pieces = kept.split(", ")
    while len(pieces) > 1 and len(", ".join(pieces)) > width:
        pieces.pop()
    kept = ", ".join(pieces)
    return kept if len(kept) <= width else ""


def _fit(
    lines: tuple[Line, ...], room: int, width: int, parts: tuple[str, ...] = PARTS
) -> list[tuple[str, tuple[str, ...]]]:
    """The rows of text under the board (or of the help page, with its ``parts``), each with its
    style, that fit in ``room`` rows. Parts are hidden whole, the least needed first, until the
    rest fits; then any hidden part that fits in the room left comes back. Once any is hidden, a
    last row names them (unless not even that fits beside the prompt)."""
    present = {line.part for line in lines}
    present |= {"keys"} if any(line.short for line in lines) else set()
    hidden: list[str] = []

    def rows(note: bool) -> list[tuple[str, tuple[str, ...]]]:
        shown: list[tuple[str, tuple[str, ...]]] = []
        for line in lines:
            if line.part in hidden:
                continue
            text = line.short if line.short and "keys" in hidden else line.text
            shown += [(row, (line.kind, line.part)) for row in _wrap(text, line.kind, width)]
        named = [part for part in hidden if part not in UNNAMED]  # the short prompt says "? help"
        if note and named:
            shown += [(row, ("note",)) for row in textwrap.wrap(f"Hidden: {', '.join(named)}.", width)]
        return shown

    def used(note: bool) -> int:
        return len(rows(note))

    for part in parts:
        if used(note=True) <= room:
            break
        if part in present:
            hidden.append(part)
    for part in reversed(hidden[:-1]):  # a part hidden early may fit in the room left after
        hidden.remove(part)
        if used(note=True) > room:
            hidden.append(part)
            hidden.sort(key=parts.index)
    return rows(note=used(note=True) <= room)


#: Where a key's words start on a line of the help page ("  arrows   move ..."): its wrapped
#: rows start there too.
KEY_INDENT = 11


def _wrap(text: str, kind: str, width: int) -> list[str]:
    """``text`` in rows of ``width`` at most, broken between words; a key of the help page
    (``kind`` "key") keeps its words in their column."""
    indent = " " * KEY_INDENT if kind == "key" else ""
    return textwrap.wrap(text, width, subsequent_indent=indent) or [""]


def cell_text(cell: CellView) -> str:
    """A cell's text with its markers: ``[O]`` the last move, ``*X*`` the winning line."""
    if cell.winning:
        return f"*{cell.text}*"
    if cell.last:
        return f"[{cell.text}]"
    return cell.text


def _board(view: View, top: int, left: int, cell_w: int, cell_h: int) -> list[Span]:
    """The grid and the cells. A cell's markers (last move, winning line, the book's move) are
    drawn on its text alone, not on the cell's padding; the highlight fills the cell."""
    spans = []
    rule = "+".join(["-" * cell_w] * view.cols)
    for r in range(view.rows):
        y0 = top + r * (cell_h + 1)
        for c in range(view.cols):
            cell = view.cells[r * view.cols + c]
            x = left + c * (cell_w + 1)
            for i, row in enumerate(_cell_rows(cell, cell_w, cell_h)):
                for segment_x, text, style in row:
                    spans.append(Span(y0 + i, x + segment_x, text, style))
                if c < view.cols - 1:
                    spans.append(Span(y0 + i, x + cell_w, "|", ("grid",)))
        if r < view.rows - 1:
            spans.append(Span(y0 + cell_h, left, rule, ("grid",)))
    return spans


def _cell_rows(cell: CellView, cell_w: int, cell_h: int) -> list[list[tuple[int, str, tuple[str, ...]]]]:
    """A cell's rows as (x, text, style) segments covering ``cell_w`` columns each. The text in
    the middle row, the number beside a hint's label: above it in a big cell, before it in a
    one-row cell (``5 D*``)."""
    plain = (cell.kind, "cursor") if cell.cursor else (cell.kind,)
    markers = {"last": cell.last, "winning": cell.winning, "book": cell.book}
    hint = ("hint",) if cell.number and not cell.book else ()
    marked = (*plain, *hint, *(name for name, on in markers.items() if on))
    numbered = ("free", "cursor") if cell.cursor else ("free",)
    text = cell_text(cell)
    rows = [_row([], cell_w, plain) for _ in range(cell_h)]
    if cell.number and cell_h == 1:
        rows[0] = _row([(cell.number, numbered), (" ", plain), (text, marked)], cell_w, plain, centre=False)
    else:
        rows[cell_h // 2] = _row([(text, marked)], cell_w, plain)
    if cell.number and cell_h > 1:
        rows[0] = _row([(cell.number, numbered)], cell_w, plain, centre=False)
    return rows


def _row(
    segments: list[tuple[str, tuple[str, ...]]],
    width: int,
    padding: tuple[str, ...] = (),
    *,
    centre: bool = True,
) -> list[tuple[int, str, tuple[str, ...]]]:
    """``segments`` placed in a row of ``width`` columns (centred, or one column in from the
    left where there is room), the rest filled with spaces in the ``padding`` style."""
    used = sum(len(text) for text, _ in segments)
    before = (width - used) // 2 if centre else min(1, width - used)
    placed = [(0, " " * before, padding)] if before else []
    x = before
    for text, style in segments:
        placed.append((x, text, style))
        x += len(text)
    if x < width:
        placed.append((x, " " * (width - x), padding))
    return placed


def _help_page(lines: tuple[Line, ...], height: int, width: int) -> list[Span]:
    """The help page from its second row: whole when it fits; else its parts hidden in the order
    of HELP_PARTS, the keys in their short form last, and a row naming what is hidden. Set in
    the game's column (centred beyond 80 columns)."""
    column, left = _column(width, 0)
    rows = _fit(lines, height - 1, column, HELP_PARTS)
    return [Span(1 + y, left, row, style[:1]) for y, (row, style) in enumerate(rows)]
