"""Computer against computer, each side at its own level: every move printed (``watch_game``,
the line mode), or shown on the game screen (``WatchSession``, a state machine that
``tictactoe_book.apps.tui`` draws with the game's own layout)."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from tictactoe_book.apps.layout import PROMPT, QUIT_KEYS, CellView, Line, View
from tictactoe_book.apps.session import Game
from tictactoe_book.apps.text import game_name
from tictactoe_book.errors import echoed
from tictactoe_book.game import EMPTY, completed_lines
from tictactoe_book.notation import grid, plain
from tictactoe_book.play import check_level

if TYPE_CHECKING:
    from tictactoe_book.apps.text import Write
    from tictactoe_book.book import Book
    from tictactoe_book.notation import Paint
    from tictactoe_book.play import RandomSource


def watch_game(
    book: Book,
    *,
    first: str,
    levels: dict[str, str],
    write: Write,
    paint: Paint = plain,
    rng: RandomSource | None = None,
    delay: float = 0.0,
    quiet: bool = False,
) -> Game:
    """Play one game between two book players; print each move unless ``quiet``.

    Raises ValueError for a ``delay`` that is not a finite number of seconds from 0 up.
    """
    if not math.isfinite(delay) or delay < 0:
        raise ValueError(f"delay must be a finite number of seconds from 0 up, got {echoed(delay)}")
    game = Game(book, first=first, levels=levels, rng=rng)
    if not quiet:
        write(f"X plays at level {levels['X']}, O at level {levels['O']}; {first} moves first.")
    while not game.is_over:
        mark = game.turn
        cell = game.computer_move()
        if not quiet:
            write("")
            write(f"{mark} ({levels[mark]}) plays {cell + 1}")
            write(grid(game.position, paint))
        if delay:
            time.sleep(delay)
    if not quiet:
        write("")
        write(result_text(game))
    return game


def result_text(game: Game) -> str:
    """A watched game's last line: ``Result: X wins.``, ``Result: draw.``, under misère rules
    who completed the line (``Result: O wins: X completed a line (misère).``), or, for a game
    left before its end, how far it went."""
    ended = game.outcome
    if ended is None:
        return f"Stopped after {len(game.moves)} moves, {game.turn} to move."
    if ended.winner is None:
        return "Result: draw."
    if ended.completed_by != ended.winner:
        return f"Result: {ended.winner} wins: {ended.completed_by} completed a line (misère)."
    return f"Result: {ended.winner} wins."


class WatchSession:
    """A game the computer plays against itself, on the screen: ``step`` plays the next move
    (``tictactoe_book.apps.tui`` calls it every ``delay`` seconds); ``q`` or Ctrl-D leaves early, and
    once the game is over any key leaves."""

    def __init__(
        self,
        book: Book,
        *,
        first: str,
        levels: dict[str, str],
        delay: float,
        rng: RandomSource | None = None,
    ) -> None:
        self.rules = book.rules
        self.levels = {mark: check_level(level) for mark, level in levels.items()}
        self.delay = delay
        self.game = Game(book, first=first, levels=self.levels, rng=rng)
        self.message = [Line(f"{first} moves first.", "message", "messages")]

    @property
    def waiting(self) -> float | None:
        """Seconds to wait before the next ``step``; None once the game is over (a key then)."""
        return None if self.game.is_over else self.delay

    def step(self) -> None:
        """Play the next move (nothing once the game is over)."""
        game = self.game
        if game.is_over:
            return
        mark = game.turn
        cell = game.computer_move()
        self.message = [Line(f"{mark} ({self.levels[mark]}) played {cell + 1}.", "message", "messages")]
        if game.is_over:
            self.message.append(Line(result_text(game), game.winner or "draw", "result"))

    def press(self, key: str) -> bool:
        """Act on one named key; False once the watcher leaves."""
        if key == "resize":
            return True
        return not (self.game.is_over or key in QUIT_KEYS)

    def view(self) -> View:
        """What the screen shows now: the board, the last move marked whoever made it."""
        game = self.game
        x, o = (f"{mark} ({self.levels[mark]})" for mark in ("X", "O"))
        title = f"{game_name(self.rules)}: {x} against {o}; {game.first} moves first"
        last = game.moves[-1][1] if game.moves else None
        on_line = {cell for line in completed_lines(self.rules, game.board) for cell in line}
        cells = tuple(
            CellView(
                text=str(cell + 1) if mark == EMPTY else mark,
                kind="free" if mark == EMPTY else mark,
                cursor=False,
                last=cell == last,
                winning=cell in on_line,
                book=False,
            )
            for cell, mark in enumerate(game.board)
        )
        if game.is_over:
            prompt = Line("Press any key to leave.", "prompt", PROMPT)
        else:
            every = f"a move every {self.delay:g} s" if self.delay else "the moves as they come"
            prompt = Line(f"Watching: {every}; q leaves (Ctrl-C too).", "prompt", PROMPT, "q leaves")
        return View(title, self.rules.rows, self.rules.cols, cells, (*self.message, prompt), ())
