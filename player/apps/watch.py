"""Computer against computer, each side at its own level, every move printed."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from player.apps.session import Game
from player.apps.text import grid, plain
from player.reader import Book

if TYPE_CHECKING:
    import random

    from player.apps.lines import Write
    from player.apps.text import Paint


def watch_game(
    book: Book,
    *,
    first: str,
    levels: dict[str, str],
    write: Write,
    paint: Paint = plain,
    rng: random.Random | None = None,
    delay: float = 0.0,
    quiet: bool = False,
) -> Game:
    """Play one game between two book players; print each move unless ``quiet``.

    Raises ValueError for a ``delay`` that is not a finite number of seconds from 0 up.
    """
    if not math.isfinite(delay) or delay < 0:
        raise ValueError(f"delay must be a finite number of seconds from 0 up, got {delay!r}")
    game = Game(book, first=first, levels=levels, rng=rng)
    if not quiet:
        write(f"X plays at level {levels['X']}, O at level {levels['O']}; {first} moves first.")
    while not game.is_over:
        mark = game.turn
        cell = game.computer_move()
        if not quiet:
            write("")
            write(f"{mark} ({levels[mark]}) plays {cell + 1}")
            write(grid(game.board, book.rules, paint))
        if delay:
            time.sleep(delay)
    if not quiet:
        won = game.winner
        write("")
        note = game.misere_note()
        because = f" ({note})" if note else ""
        write(f"Result: {won} wins{because}." if won else "Result: draw.")
    return game
