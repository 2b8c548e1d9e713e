"""The book's score scale, shared by every reader and the writer (docs/book-format.md, "Scores").

For the side to move, with ``cells`` cells on the board: a win ``p`` plies from now (this move
included) scores ``cells + 1 - p``, a loss ``-(cells + 1 - p)``, a draw 0. Higher is better.
"""

from __future__ import annotations

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def decode_score(score: int, empties: int, cells: int) -> tuple[int, int]:
    """A score as (+1 win / 0 draw / -1 loss, plies to the end); ``empties`` counts free cells
    before the move (a draw lasts until the board is full)."""
    if score > 0:
        return 1, cells + 1 - score
    if score < 0:
        return -1, cells + 1 + score
    return 0, empties


def outcome_words(value: int, plies: int) -> str:
    """``win in 3``, ``draw`` or ``loss in 4``: plies to the end, this move included."""
    return "draw" if value == 0 else f"{VALUE_WORDS[value]} in {plies}"
