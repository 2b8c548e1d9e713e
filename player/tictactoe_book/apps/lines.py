"""The interactive game loop, with its input and output injected (so tests can drive it).

Bad input never changes the game: every line is checked before anything is played, and each
problem gets one line and a new prompt.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import tictactoe_book.hints as teach
from tictactoe_book.apps.console import Interrupted
from tictactoe_book.apps.session import Game, Tally, outcome_for, result_line
from tictactoe_book.apps.text import goal, wrap_entries
from tictactoe_book.errors import echoed
from tictactoe_book.game import STANDARD, Rules, other
from tictactoe_book.notation import grid, numbering, plain, typed_number
from tictactoe_book.opponents import DEFAULT, OPPONENTS, opponent

if TYPE_CHECKING:
    from collections.abc import Callable

    from tictactoe_book.apps.text import Write
    from tictactoe_book.book import Book
    from tictactoe_book.notation import Paint
    from tictactoe_book.play import RandomSource

    ReadLine = Callable[[str], str | None]

MAX_LINE = 100
HELP = """Type a free cell's number and press Enter. The cells are numbered like a phone keypad
read from the top: 1 2 3 / 4 5 6 / 7 8 9.
  h   hint: what every free cell leads to with best play from then on (W win, D draw,
      L loss), the move the book would play marked *, and why it is the book's choice
  u   undo your last move (and the computer's reply)
  ?   this help
  q   quit"""


def help_text(rules: Rules) -> str:
    """HELP on 3x3; on another board its numbering and goal instead of the keypad's."""
    if rules == STANDARD:
        return HELP
    opening = f"{goal(rules)} Type a free cell's number and press Enter. {numbering(rules)}"
    return "\n".join(textwrap.wrap(opening, 90)) + "\n" + HELP.split("\n", 2)[2]


def hint_text(game: Game, paint: Paint = plain, width: int = 80) -> str:
    """Each free cell by its number and labelled W<n> (a win in n moves, both sides'), D (draw)
    or L<n> (a loss in n moves), the book's move marked, one sentence of why, and every move in
    words; no line over ``width`` columns, and the list broken only between its entries."""
    found = teach.move_hints(game.book, game.board, first=game.first, walks=game.walks)
    labels = {hint.cell: f"{hint.cell + 1} {hint.label}" for hint in found}  # the number kept
    kinds = {hint.cell: hint.kind + (" book" if hint.book else "") for hint in found}
    lines = textwrap.wrap(f"Hint for {game.turn} ({teach.LEGEND}):", width - 1)
    note = teach.moves_note(found)
    if note:
        lines += textwrap.wrap(f"({note})", width - 1)
    lines.append(grid(game.position, paint, labels, kinds))
    lines += textwrap.wrap(teach.why(found, game.book.against), width - 1)
    # the chance the book ranks by first (the default opponent's, for a book ranked against a program)
    against = opponent(game.book.against if game.book.against in OPPONENTS else DEFAULT)
    if teach.counted(found):
        lines += textwrap.wrap(
            f"Move by move, with the games it wins against {against.words} (the book playing on):", width - 1
        )
    else:
        lines.append("Move by move:")
    entries = [
        f"{hint.cell + 1}: {hint.words}"
        + (f" ({teach.percent(hint.chances[against.name])})" if hint.chances is not None else "")
        + (f" {teach.BOOK_MARK}" if hint.book else "")
        for hint in found
    ]
    lines.append(wrap_entries(entries, paint, list(kinds.values()), width - 1))
    return "\n".join(lines)


def run_session(
    book: Book,
    *,
    human: str,
    first: str,
    level: str,
    read_line: ReadLine,
    write: Write,
    paint: Paint = plain,
    rng: RandomSource | None = None,
) -> Tally:
    """Play games until the human quits or input ends; returns the tally. Ctrl-C ends them
    too, and the one line that says so gives the tally (``Interrupted``)."""
    tally = Tally()
    cells = book.rules.cells
    try:
        while True:
            game = Game(book, first=first, levels={other(human): level}, rng=rng)
            write(
                f"\nNew game: you are {human}, the computer is {other(human)} ({level}); {first} moves first."
            )
            if not _play_one(game, human, cells, read_line, write, paint):
                write(f"Goodbye. Tally: {tally}.")
                return tally
            outcome = outcome_for(game, human)
            tally.add(outcome)
            write(grid(game.position, paint))
            write(paint(result_line(game, human), outcome))  # green, grey or red, as the page
            write(f"Tally: {tally}.")
            while True:
                answer = read_line("Play again? [y] same sides, [s] swap sides, [n] no: ")
                if answer is None or answer.strip().lower() in ("n", "no", "q", "quit"):
                    write(f"Goodbye. Tally: {tally}.")
                    return tally
                choice = answer.strip().lower()
                if choice in ("", "y", "yes"):
                    break
                if choice in ("s", "swap"):
                    human = other(human)
                    break
                write("Please answer y, s or n.")
    except KeyboardInterrupt:
        raise Interrupted(f"Tally: {tally}.") from None


def _play_one(game: Game, human: str, cells: int, read_line: ReadLine, write: Write, paint: Paint) -> bool:
    """Play one game to its end; False if the human quit or input ended first."""
    rules = game.book.rules
    shown = None  # the board last drawn: redraw only when it changes
    while not game.is_over:
        if game.computer_to_move:
            mark = game.turn
            cell = game.computer_move()
            write(f"The computer ({mark}) plays {cell + 1}.")
            continue
        if shown != game.board:
            write("")
            write(grid(game.position, paint))
            shown = game.board
        line = read_line(f"Your move ({game.turn}) [1-{cells}, h hint, u undo, ? help, q quit]: ")
        if line is None:
            write("")
            write("End of input.")
            return False
        command = line.strip().lower()
        if len(line) > MAX_LINE:
            write(f"That line is {len(line)} characters long; type one cell number.")
        elif not command:
            write(f"Type a cell number from 1 to {cells}, or ? for help.")
        elif command in ("q", "quit", "exit"):
            return False
        elif command in ("?", "help"):
            write(help_text(rules))
        elif command in ("h", "hint"):
            write(hint_text(game, paint))
        elif command in ("u", "undo"):
            undone = game.undo()
            if undone:
                write("Undone: " + ", ".join(f"{mark} at {cell + 1}" for mark, cell in undone) + ".")
            else:
                write("Nothing to undo yet.")
        elif (number := typed_number(command)) is None:
            write(f"{echoed(line.strip())} is not a cell number; type 1 to {cells}, or ? for help.")
        elif not 1 <= number <= cells:
            write(f"There is no cell {number}; type 1 to {cells}.")
        elif game.board[number - 1] != ".":
            free = " ".join(str(c + 1) for c in game.free_cells())
            write(f"Cell {number} is taken by {game.board[number - 1]}; free cells: {free}.")
        else:
            game.play(number - 1)
    return True
