"""Text for people: the board with free cells numbered from 1, outcomes in words.

Pure functions returning strings; colour is a ``paint(text, mark)`` callable the caller passes
(the CLI gives one that respects NO_COLOR and non-terminal output), so this module needs no
terminal library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tictactoe_book.game import EMPTY, STANDARD, Rules

if TYPE_CHECKING:
    from collections.abc import Callable

    Paint = Callable[[str, str], str]  # colours ``text`` as a ``kind`` (X, O, free, win, ...)
    Write = Callable[[str], None]  # says one line to the person


def plain(text: str, kind: str) -> str:
    """No colour."""
    return text


def numbering(rules: Rules) -> str:
    """How the cells are numbered, for people: 1 up in reading order; on 3x3 the phone keypad."""
    if rules.rows == rules.cols == 3:
        return "The cells are numbered like a phone keypad read from the top: 1 2 3 / 4 5 6 / 7 8 9."
    rows = " / ".join(
        " ".join(str(r * rules.cols + c + 1) for c in range(rules.cols)) for r in range(rules.rows)
    )
    return f"The cells are numbered 1 to {rules.cells} in reading order, row by row: {rows}."


def game_name(rules: Rules) -> str:
    """``Tic-tac-toe``, or on other rules ``Tic-tac-toe 4x4 k=4`` (the screen's title)."""
    return "Tic-tac-toe" if rules == STANDARD else f"Tic-tac-toe {rules}"


def goal(rules: Rules) -> str:
    """The aim of the game in one sentence (misère turns it around)."""
    run = "three" if rules.k == 3 else str(rules.k)
    if rules.misere:
        return f"Misère: avoid {run} in a row, across, down or diagonally; whoever completes a line loses."
    return f"Make {run} in a row, across, down or diagonally."


def grid(
    board: str,
    rules: Rules = STANDARD,
    paint: Paint = plain,
    labels: dict[int, str] | None = None,
    kinds: dict[int, str] | None = None,
) -> str:
    """The board, marks painted, free cells shown by number (1 up) or by ``labels[cell]``,
    painted as ``kinds[cell]`` (default ``free``)."""
    width = max([len(str(rules.cells)), *(len(text) for text in (labels or {}).values())])
    place = str.center if labels else str.rjust  # numbers line up on their right: 9 over 13
    rows = []
    for r in range(rules.rows):
        cells = []
        for c in range(rules.cols):
            i = r * rules.cols + c
            mark = board[i]
            if mark == EMPTY:
                text = (labels or {}).get(i, str(i + 1))
                cells.append(paint(place(text, width), (kinds or {}).get(i, "free")))
            else:
                cells.append(paint(place(mark, width), mark))
        rows.append(" " + " | ".join(cells))
    rule = "\n" + "+".join(["-" * (width + 2)] * rules.cols) + "\n"
    return rule.join(rows)


def wrap_entries(
    entries: list[str], paint: Paint = plain, kinds: list[str] | None = None, width: int = 80
) -> str:
    """``entries`` joined by ``, `` into lines of at most ``width`` columns, broken only between
    entries (an entry longer than a line gets a line of its own); each painted as its kind."""
    lines: list[str] = []
    line, used = "", 0
    for number, entry in enumerate(entries):
        shown = paint(entry, kinds[number]) if kinds else entry
        if used and used + 2 + len(entry) + 1 > width:  # the comma after it included
            lines.append(line + ",")
            line, used = "", 0
        line, used = (line + ", " + shown, used + 2 + len(entry)) if used else (shown, len(entry))
    lines.append(line)
    return "\n".join(lines)
