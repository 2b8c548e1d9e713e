"""Where each piece of a ``View`` goes on a terminal of a given size: a pure function.

``layout(view, height, width)`` returns positioned text (``Span``), or None when the terminal is
too small for the game; ``player.apps.tui`` only paints the spans. The board takes big cells (7 x 3)
when they fit and small ones (5 x 1) otherwise; the lines below it wrap at word boundaries, and
when the terminal is too short for all of them the least needed go first (the prompt stays).
Markers are text as well as colour, so they show without colour (NO_COLOR) and in a test:
the computer's last move ``[O]``, the winning line ``*X*``, the book's move in a hint ``D*``.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

#: The keys that end a session (named as ``player.apps.tui.key_name`` names them).
QUIT_KEYS = ("q", "ctrl-d")
#: Below this the game is not drawn (the screen says so; at start the line mode is played);
#: a board larger than 3x3 needs more (``min_size``).
MIN_COLS = 30
MIN_ROWS = 11
#: Cell sizes (columns, rows), the first that fits is used.
CELL_SIZES = ((7, 3), (5, 1))
LEFT = 2  # the margin before the board and the text
PROMPT_KEEP = 5  # a line kept at any height
#: Rows the smallest layout needs beside the board: a blank row and up to five of prompt.
TEXT_ROWS = 6


class Line(NamedTuple):
    """One line of text below the board; ``kind`` says how to show it, ``keep`` how much it
    matters when the terminal is too short for every line (lower goes first)."""

    text: str
    kind: str
    keep: int


class CellView(NamedTuple):
    """One cell as it is to be drawn."""

    text: str  # X, O, the cell's number, or a hint label (W3, D*, L4)
    kind: str  # X, O, free, or win / draw / loss (a hint, or the winning line's colour)
    cursor: bool  # the highlighted cell that Enter plays
    last: bool  # the computer's last move
    winning: bool  # on the winning line, once the game is over
    book: bool  # the book's own move, in a hint


class View(NamedTuple):
    """Everything the screen shows."""

    title: str
    rows: int
    cols: int
    cells: tuple[CellView, ...]
    lines: tuple[Line, ...]
    help: tuple[str, ...]  # when not empty, the help page is shown instead of the game


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
    cell_w, cell_h = CELL_SIZES[-1]
    board_w = cols * cell_w + cols - 1
    board_h = rows * cell_h + rows - 1
    return max(MIN_ROWS, board_h + TEXT_ROWS), max(MIN_COLS, LEFT + board_w + 1)


def too_small(height: int, width: int, rows: int = 3, cols: int = 3) -> bool:
    """Whether a terminal of this size is too small for the game on a ``rows`` x ``cols`` board."""
    least_height, least_width = min_size(rows, cols)
    return height < least_height or width < least_width


def layout(view: View, height: int, width: int) -> list[Span] | None:
    """The spans that draw ``view`` on ``height`` rows of ``width`` columns, or None if the
    game cannot be drawn that small."""
    if too_small(height, width, view.rows, view.cols):
        return None
    if view.help:
        return _help_page(view.help, height, width)
    text_width = width - LEFT - 1
    wrapped = [(line, textwrap.wrap(line.text, text_width) or [""]) for line in view.lines]
    # Everything at the largest size that holds it; else the least needed lines go first.
    tries = [(size, True, False) for size in CELL_SIZES] + [
        (CELL_SIZES[-1], title, True) for title in (True, False)
    ]
    for (cell_w, cell_h), with_title, dropping in tries:
        board_w = view.cols * cell_w + view.cols - 1
        board_h = view.rows * cell_h + view.rows - 1
        if LEFT + board_w >= width:
            continue
        top = 2 if with_title else 0
        room = height - top - board_h - 1  # a blank row between the board and the text
        kept = _fit(wrapped, room) if dropping else wrapped
        if kept is None or sum(len(texts) for _, texts in kept) > room:
            continue
        spans = [Span(0, 0, _shorten(view.title, width - 1), ("title",))] if with_title else []
        spans += _board(view, top, cell_w, cell_h)
        y = top + board_h + 1
        for line, texts in kept:
            for text in texts:
                spans.append(Span(y, LEFT, text, (line.kind,)))
                y += 1
        return spans
    return None


def _shorten(text: str, width: int) -> str:
    """``text``; or as many of its ``;``-separated parts as fit, then without what comes
    before its first ``: `` (the title's name); or its start."""
    parts = text.split("; ")
    while len(parts) > 1 and len("; ".join(parts)) > width:
        parts.pop()
    kept = "; ".join(parts)
    if len(kept) > width and ": " in kept:
        kept = kept.split(": ", 1)[1]
    return kept[:width]


def _fit(wrapped: list[tuple[Line, list[str]]], room: int) -> list[tuple[Line, list[str]]] | None:
    """The lines that fit in ``room`` rows, dropping the least needed first; None if even the
    prompt does not fit."""
    kept = list(wrapped)
    by_need = sorted(kept, key=lambda item: item[0].keep)
    while sum(len(texts) for _, texts in kept) > room:
        dropped = by_need.pop(0)
        if dropped[0].keep >= PROMPT_KEEP:
            return None
        kept.remove(dropped)
    return kept


def cell_text(cell: CellView) -> str:
    """A cell's text with its markers: ``[O]`` the computer's last move, ``*X*`` the winning
    line."""
    if cell.winning:
        return f"*{cell.text}*"
    if cell.last:
        return f"[{cell.text}]"
    return cell.text


def _board(view: View, top: int, cell_w: int, cell_h: int) -> list[Span]:
    spans = []
    rule = "+".join(["-" * cell_w] * view.cols)
    for r in range(view.rows):
        y0 = top + r * (cell_h + 1)
        for c in range(view.cols):
            cell = view.cells[r * view.cols + c]
            x = LEFT + c * (cell_w + 1)
            flags = {"cursor": cell.cursor, "last": cell.last, "winning": cell.winning, "book": cell.book}
            style = (cell.kind, *(name for name, on in flags.items() if on))
            for i in range(cell_h):
                text = cell_text(cell).center(cell_w) if i == cell_h // 2 else " " * cell_w
                spans.append(Span(y0 + i, x, text, style))
                if c < view.cols - 1:
                    spans.append(Span(y0 + i, x + cell_w, "|", ("grid",)))
        if r < view.rows - 1:
            spans.append(Span(y0 + cell_h, LEFT, rule, ("grid",)))
    return spans


def _help_page(lines: tuple[str, ...], height: int, width: int) -> list[Span]:
    """The help text, wrapped; when it is too long, cut, its last line (how to go back) kept."""

    def wrap(line: str) -> list[str]:
        return textwrap.wrap(line, width - LEFT - 1) or [""]

    rows = [row for line in lines[:-1] for row in wrap(line)]
    last = wrap(lines[-1])
    rows = rows[: max(0, height - 1 - len(last))] + last
    return [Span(1 + y, LEFT, row, ("title" if y == 0 else "help",)) for y, row in enumerate(rows)]
