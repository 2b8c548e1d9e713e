"""Text for people: the game's name and aim, and lists in words (the board and its numbering:
``tictactoe_book.notation``).

Pure functions returning strings; colour is a ``paint(text, mark)`` callable the caller passes
(the CLI gives one that respects NO_COLOR and non-terminal output), so this module needs no
terminal library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tictactoe_book.game import STANDARD, Rules
from tictactoe_book.notation import plain

if TYPE_CHECKING:
    from collections.abc import Callable

    from tictactoe_book.notation import Paint

    Write = Callable[[str], None]  # says one line to the person


def game_name(rules: Rules) -> str:
    """``Tic-tac-toe``, or on other rules ``Tic-tac-toe 4x4 k=4`` (the screen's title)."""
    return "Tic-tac-toe" if rules == STANDARD else f"Tic-tac-toe {rules}"


def goal(rules: Rules) -> str:
    """The aim of the game in one sentence (misère turns it around)."""
    run = "three" if rules.k == 3 else str(rules.k)
    if rules.misere:
        return f"Misère: avoid {run} in a row, across, down or diagonally; whoever completes a line loses."
    return f"Make {run} in a row, across, down or diagonally."


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
