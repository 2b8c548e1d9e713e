"""The full-screen game as a pure state machine: named keys in, a ``View`` out.

No terminal library here: ``tictactoe_book.apps.tui`` reads keys with curses, names them (``up``, ``enter``,
``5``, ``h`` ...), passes each to ``ScreenSession.press`` and draws ``tictactoe_book.apps.layout`` of the
``view()``. A test drives the whole game in process with the same names.

Keys while playing: arrows move the highlighted cell, Enter (or space) plays it; ``1``-``9``
play a cell directly (on a board of more than 9 cells, a digit that could begin a two-digit
cell waits for the second digit, or for Enter to play it alone: on 4x4 ``1`` ``6`` plays 16,
``1`` Enter plays 1, ``2`` plays 2 at once); ``h`` turns the hint on or off; ``u`` undoes the
last move and the reply; ``?`` shows the help; ``q`` (or Ctrl-D) quits. When a game is over:
``y`` or Enter plays again, ``s`` swaps sides, ``n`` or ``q`` quits. Every text is ASCII, so any
terminal shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import tictactoe_book.hints as teach
from tictactoe_book.apps.layout import PROMPT, QUIT_KEYS, CellView, Line, View
from tictactoe_book.apps.session import Game, Tally, ending, outcome_for
from tictactoe_book.apps.text import game_name, goal
from tictactoe_book.game import EMPTY, Cell, Rules, completed_lines, other
from tictactoe_book.notation import numbering
from tictactoe_book.play import check_level

if TYPE_CHECKING:
    from tictactoe_book.book import Book
    from tictactoe_book.hints import MoveHint
    from tictactoe_book.play import RandomSource

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class Action(NamedTuple):
    """A key for one of the game's actions: the key (as ``tictactoe_book.apps.tui.key_name``
    names it), the action's name, and the help's words for it, whole and short."""

    key: str
    name: str
    words: str
    short: str


#: The keys of the game's actions, in the help's order. The page takes the same keys for the
#: actions it has (web/keys.js, ``ACTION_KEYS``: every one but quit); a test ties the two tables
#: (tests/test_screen_session.py).
ACTIONS = (
    Action(
        "h",
        "hint",
        "hint on/off: each free cell's outcome with best play (W win, D draw, L loss; L6 = "
        "loss in 6 moves, both sides' counted), the book's move marked *, and why it is chosen",
        "hint on/off",
    ),
    Action("u", "undo", "undo your last move and the computer's reply", "undo"),
    Action("?", "help", "this help", "help"),
    Action("q", "quit", "quit (Ctrl-C too)", "quit"),
)
#: An action's name by its key.
ACTION_KEYS = {action.key: action.name for action in ACTIONS}
#: The help page's way back, whole and short.
BACK = ("Press any key to go back to the game.", "Any key: back to the game.")


def help_page(rules: Rules) -> tuple[Line, ...]:
    """The help for a game under ``rules``, as parts a small terminal can hide (layout's
    HELP_PARTS): the rules and how cells are numbered (on 3x3 the phone keypad), each key with
    a short form, what the markers mean, and the way back."""
    last = rules.cells
    digits = (f"1-{last}", "play that cell", "play a cell")
    if last > 9:
        both = f"play that cell: both digits for 10-{last}; 1 alone: 1 then Enter"
        digits = (f"1-{last}", both, "play a cell; 1 then Enter for 1")
    keys = [
        ("arrows", "move the highlighted cell; Enter or space plays it", "move, then Enter"),
        digits,
        *((action.key, action.words, action.short) for action in ACTIONS),
    ]
    line = "losing line (the one completed)" if rules.misere else "winning line"
    gap = Line("", "help", "spacing")
    return (
        Line("How to play", "title", "title"),
        gap,
        Line(f"{goal(rules)} {numbering(rules)}", "help", "rules"),
        gap,
        *(Line(f"  {key:<9}{words}", "key", "key", f"  {key:<9}{short}") for key, words, short in keys),
        gap,
        Line(
            f"The computer's last move is shown in [brackets]; at the end the {line} is shown *like this*.",
            "help",
            "markers",
        ),
        gap,
        Line(BACK[0], "help", "back", BACK[1]),
    )


class ScreenSession:
    """Games of one session on the screen, the tally across them, and what is shown."""

    def __init__(
        self,
        book: Book,
        *,
        human: str,
        first: str,
        level: str,
        rng: RandomSource | None = None,
    ) -> None:
        self.book = book
        self.rules = book.rules
        self.human = human
        self.first = first
        self.level = check_level(level)
        self.rng = rng
        self.tally = Tally()
        self.cursor = (self.rules.rows // 2) * self.rules.cols + self.rules.cols // 2
        self.hints_on = False
        self.help_shown = False
        self.typed = ""  # the first digit of a two-digit cell, while the second is awaited
        self.message: list[Line] = []
        self.game = self._new_game()

    # ------------------------------------------------------------------ keys

    def press(self, key: str) -> bool:
        """Act on one named key; False once the player has quit."""
        if self.help_shown:  # any key closes the help
            self.help_shown = False
            return key != "ctrl-d"
        if key == "resize":
            return True
        action = ACTION_KEYS.get(key)
        if action == "help":
            self.help_shown = True
            return True
        if self.game.is_over:
            return self._after_game(key)
        self.message = []
        typed, self.typed = self.typed, ""  # any key but a digit ends a number being typed
        if key in QUIT_KEYS:
            return False
        if key in MOVES:
            self._move_cursor(*MOVES[key])
        elif key == "enter":
            self._play(int(typed) - 1 if typed else self.cursor)
        elif key.isdigit() and key.isascii() and len(key) == 1:
            self._type_digit(typed + key)
        elif action == "hint":
            self.hints_on = not self.hints_on
            self._say("Hints on: h again turns them off." if self.hints_on else "Hints off.")
        elif action == "undo":
            self._undo()
        elif key != "esc":
            self._say(f"{_shown(key)} does nothing here: 1-{self.rules.cells} or arrows, ? for help.")
        return True

    def _after_game(self, key: str) -> bool:
        if key in ("y", "enter"):
            self.message = []
            self.game = self._new_game()
        elif key == "s":
            self.message = []
            self.human = other(self.human)
            self.game = self._new_game()
        elif key in (*QUIT_KEYS, "n", "esc"):
            return False
        return True

    def _move_cursor(self, rows: int, cols: int) -> None:
        """Move the highlight, wrapping around the board's edges."""
        r, c = divmod(self.cursor, self.rules.cols)
        self.cursor = ((r + rows) % self.rules.rows) * self.rules.cols + (c + cols) % self.rules.cols

    def _type_digit(self, digits: str) -> None:
        """The digits typed so far: play the cell they name once no longer number begins with
        them, else wait for another digit (or Enter) with the cell highlighted, the prompt
        saying so."""
        number, last = int(digits), self.rules.cells
        if not 1 <= number <= last:
            self._say(f"There is no cell {digits}: use 1 to {last}.")
            return
        self.cursor = number - 1
        if number * 10 > last:
            self._play(number - 1)
            return
        self.typed = digits  # the prompt says what it waits for (``_lines``), never hidden

    def _play(self, cell: Cell) -> None:
        taken = self.game.board[cell]
        if taken != EMPTY:
            free = " ".join(str(c + 1) for c in self.game.free_cells())
            self._say(f"Cell {cell + 1} is taken by {taken}; free cells: {free}.", "warn")
            return
        self.game.play(cell)
        self._computer_moves()

    def _undo(self) -> None:
        undone = self.game.undo()
        if not undone:
            self._say("Nothing to undo yet.")
            return
        self._say("Undone: " + ", ".join(f"{mark} at {cell + 1}" for mark, cell in undone) + ".")

    # ------------------------------------------------------------------ games

    def _new_game(self) -> Game:
        game = Game(self.book, first=self.first, levels={other(self.human): self.level}, rng=self.rng)
        self.game = game
        self._say(f"New game: you are {self.human}; {self.first} moves first.")
        self._computer_moves()
        return game

    def _computer_moves(self) -> None:
        game = self.game
        while game.computer_to_move:
            mark = game.turn
            cell = game.computer_move()
            self._say(f"The computer ({mark}) played {cell + 1}.")
        if game.is_over:
            outcome = outcome_for(game, self.human)
            self.tally.add(outcome)
            said = ending(game, self.human)
            self._say(said[0].upper() + said[1:], outcome)

    def _say(self, text: str, kind: str = "message") -> None:
        self.message.append(Line(text, kind, "result" if kind in ("win", "loss", "draw") else "messages"))

    # ------------------------------------------------------------------ what is shown

    def view(self) -> View:
        """What the screen shows now."""
        game = self.game
        title = (
            f"{game_name(self.rules)}: you are {self.human}, the computer {other(self.human)} "
            f"({self.level}); {self.first} moves first"
        )
        if self.help_shown:
            return View(title, self.rules.rows, self.rules.cols, (), (), help_page(self.rules))
        hints = self._hints()
        last = game.moves[-1][1] if game.moves and game.moves[-1][0] != self.human else None
        won = game.winner  # under misère rules, not the owner of the line shown
        on_line = {cell for line in completed_lines(self.rules, game.board) for cell in line}
        result_kind = "win" if won == self.human else "loss"
        cells = []
        for cell, mark in enumerate(game.board):
            hint = hints.get(cell)
            if mark != EMPTY:
                text, kind = mark, (result_kind if cell in on_line else mark)
            elif hint is not None:
                text, kind = hint.label, hint.kind
            else:
                text, kind = str(cell + 1), "free"
            cells.append(
                CellView(
                    text=text,
                    kind=kind,
                    cursor=cell == self.cursor and not game.is_over,
                    last=cell == last,
                    winning=cell in on_line,
                    book=hint is not None and hint.book,
                    number=str(cell + 1) if hint is not None else "",
                )
            )
        return View(title, self.rules.rows, self.rules.cols, tuple(cells), tuple(self._lines(hints)), ())

    def _hints(self) -> dict[Cell, MoveHint]:
        if not self.hints_on or self.game.is_over:
            return {}
        return {
            hint.cell: hint
            for hint in teach.move_hints(
                self.game.book, self.game.board, first=self.game.first, walks=self.game.walks
            )
        }

    def _lines(self, hints: dict[Cell, MoveHint]) -> list[Line]:
        lines = list(self.message)
        if hints:
            found = list(hints.values())
            lines.append(Line(teach.why(found, self.game.book.against), "why", "why"))
            note = teach.moves_note(found)
            lines.append(Line(teach.LEGEND + (f" ({note})" if note else ""), "legend", "legend"))
        if self.game.is_over:
            prompt = Line("Play again? y (or Enter) same sides, s swap sides, n quit", "prompt", PROMPT)
            lines.append(prompt._replace(short="Again? y yes, s swap, n no"))
        elif self.typed:  # the words of the page's status (web/keys.js, pendingWords)
            low = int(self.typed) * 10
            high = min(low + 9, self.rules.cells)
            prompt = Line(
                f"Typed {self.typed}: type a second digit for {low} to {high}, or Enter for {self.typed}.",
                "prompt",
                PROMPT,
            )
            lines.append(
                prompt._replace(short=f"Typed {self.typed}: a second digit, or Enter for {self.typed}.")
            )
        else:
            turn, last = self.game.turn, self.rules.cells
            keys = ", ".join(f"{action.key} {action.name}" for action in ACTIONS)
            prompt = Line(
                f"Your move ({turn}): arrows and Enter, or 1-{last}; {keys}",
                "prompt",
                PROMPT,
            )
            lines.append(prompt._replace(short=f"Your move ({turn}): 1-{last}, ? help"))
        lines.append(Line(f"Tally: {self.tally}", "tally", "tally"))
        return lines


#: Named keys as people write them (the others: ``ctrl-l`` is Ctrl-L, ``f5`` F5).
KEY_WORDS = {
    "tab": "Tab",
    "shift-tab": "Shift-Tab",
    "backspace": "Backspace",
    "delete": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "enter": "Enter",
    "esc": "Esc",
}


def _shown(key: str) -> str:
    """A key, named as ``tictactoe_book.apps.tui.key_name`` names it, as a message shows it: a
    character quoted (``The key 'z'``), any other key by its name (``The key Tab``, ``Ctrl-L``,
    ``PageUp``, ``F5``, ``U+200B``), never a character that does not print."""
    if len(key) == 1 and key.isprintable():
        return f"The key {key!r}"
    if key in KEY_WORDS:
        return f"The key {KEY_WORDS[key]}"
    if key.startswith("ctrl-") and len(key) == len("ctrl-") + 1:
        return f"The key Ctrl-{key[-1].upper()}"
    if key.isprintable() and key.isascii():  # f5, u+200b, a name from curses (sleft)
        return f"The key {key.upper()}"
    return f"The key U+{ord(key[0]):04X}" if len(key) == 1 else "That key"
