"""Scripted games: the human's moves given up front, the computer answering from the book.

``play_script`` simulates the whole game before anything is printed, so a bad move list is
refused whole; ``transcript_text`` and ``transcript_json`` render the result.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tictactoe_book.apps.session import Game, check_mark, outcome_for, result_line
from tictactoe_book.errors import IllegalMoveError, ScriptError, echoed
from tictactoe_book.game import FIRST, STANDARD, Position, other
from tictactoe_book.notation import grid, typed_number
from tictactoe_book.play import check_level

if TYPE_CHECKING:
    from typing import Any

    from tictactoe_book.book import Book
    from tictactoe_book.play import RandomSource

MAX_SCRIPT_CHARS = 1000
_SEPARATOR = re.compile(r"\s*,\s*|\s+")

#: The JSON transcript's format version: 2 numbers cells from 0 (version 1 numbered them from 1).
TRANSCRIPT_VERSION = 2


def parse_moves(text: str) -> list[int]:
    """``"5,1,9"`` or ``"5 1 9"`` (or one per line) as people number cells: 1 up, reading order.

    Moves are separated by a comma (spaces around it allowed) or by spaces and newlines; an
    empty item (``"5,,1"``, a trailing comma) is refused rather than skipped, since it is
    usually a move left out.
    """
    if len(text) > MAX_SCRIPT_CHARS:
        raise ScriptError(f"the move list is {len(text)} characters long; at most {MAX_SCRIPT_CHARS}")
    stripped = text.strip()
    if not stripped:
        return []
    moves = []
    for number, item in enumerate(_SEPARATOR.split(stripped), 1):
        if not item:
            raise ScriptError(f"item {number} of the move list {echoed(stripped)} is empty")
        move = typed_number(item)
        if move is None:
            raise ScriptError(f"move {echoed(item)} is not a cell number")
        moves.append(move)
    return moves


def play_script(
    book: Book,
    moves: list[int],
    *,
    human: str = FIRST,
    first: str = FIRST,
    level: str = "perfect",
    rng: RandomSource | None = None,
) -> Game:
    """Play ``moves`` (numbered from 1) for ``human``; the computer plays the other mark.

    Raises ScriptError naming the first move that cannot be played. The game may end
    unfinished if the moves run out.
    """
    human = check_mark(human, "mark")
    game = Game(book, first=first, levels={other(human): check_level(level)}, rng=rng)
    cells = book.rules.cells
    for number, move in enumerate(moves, 1):
        while game.computer_to_move:
            game.computer_move()
        if game.is_over:
            raise ScriptError(f"move {move} (move {number} of the list) comes after the game ended")
        if not 1 <= move <= cells:
            raise ScriptError(f"move {move} (move {number} of the list) is off the board: use 1 to {cells}")
        try:
            game.play(move - 1)
        except IllegalMoveError:
            raise ScriptError(
                f"move {move} (move {number} of the list) is illegal: cell {move} is taken "
                f"by {game.board[move - 1]}"
            ) from None
    while game.computer_to_move:
        game.computer_move()
    return game


def transcript_json(game: Game, human: str | None, level: str, seed: int | None) -> str:
    """A machine-readable transcript (docs/engine.md, "The --json transcript"): cells numbered
    from 0, as every JSON output numbers them; ``human=None`` when the computer played both sides."""
    import json  # only for the JSON transcript

    document: dict[str, Any] = {
        "cells_from": 0,  # as the book, query --json and the engine (version 1: from 1, as typed)
        "format": "ttt-play-transcript",
        "rules": game.book.rules.as_json(),
        "version": TRANSCRIPT_VERSION,
        "human": human,
        "computer": other(human) if human else "both",
        "first": game.first,
        "level": level,
        "against": game.book.against,
        "seed": seed,
        "moves": [
            {"mark": mark, "cell": cell, "by": "human" if mark == human else "computer"}
            for mark, cell in game.moves
        ],
        "board": game.board,
        "result": game.result(),
        "winner": game.winner,
        "outcome": outcome_for(game, human) if human else None,
    }
    return json.dumps(document, sort_keys=True)


def transcript_text(game: Game, human: str, level: str) -> str:
    """The game move by move, each board drawn, then the result."""
    rules = game.book.rules
    lines = [
        f"You play {human}, the computer plays {other(human)} at level {level}; {game.first} moves first.",
    ]
    if rules != STANDARD:
        lines.insert(0, f"Tic-tac-toe {rules}.")
    position = Position.empty(rules, game.first)
    for mark, cell in game.moves:
        position = position.play(cell)
        who = "you" if mark == human else "computer"
        lines += ["", f"{mark} ({who}) plays {cell + 1}", grid(position)]
    lines.append("")
    lines.append(result_line(game, human))
    return "\n".join(lines)
