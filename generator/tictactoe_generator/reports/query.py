"""``ttt-book query``: the book's entry for one board, in that board's own orientation, for
people (cells numbered from 1, as ``ttt-play`` numbers them) or as JSON (numbered from 0, as the
book file and the libraries number them)."""

from __future__ import annotations

from typing import Any

from tictactoe_book.game import VALUE_WORDS, Position, Rules, outcome_words
from tictactoe_book.notation import grid
from tictactoe_book.reader import Evaluation


def evaluation_json(evaluation: Evaluation, board: str, first: str) -> dict[str, Any]:
    """The answer of ``query --json``: the board as given, marks as the game holds them."""
    return {
        "cells_from": 0,  # every cell below is numbered from 0, as in the book file
        "board": board,
        "first": first,
        "turn": evaluation.turn,
        "value": VALUE_WORDS[evaluation.value],
        "plies": evaluation.plies,
        "key": evaluation.key,
        "symmetry": {"name": evaluation.symmetry.name, "perm": list(evaluation.symmetry.perm)},
        "optimal": list(evaluation.optimal),
        "tiers": [list(t) for t in evaluation.tiers],
        "moves": {
            str(cell): {"score": score, "value": VALUE_WORDS[v], "plies": p}
            for cell, score in sorted(evaluation.scores.items())
            for v, p in [evaluation.outcome(cell)]
        },
    }


def describe(evaluation: Evaluation, board: str, first: str, rules: Rules) -> str:
    """A readable page for one board: cells numbered from 1, as people (and ttt-play) number
    them, the free ones shown by their numbers on the board."""
    turn = evaluation.turn
    lines = [
        grid(Position(board, rules, first)),
        "",
        f"cells are numbered 1-{rules.cells} in reading order, as on the board above",
        f"{turn} to move: {outcome_words(evaluation.value, evaluation.plies)} with best play "
        f"({_length(evaluation.plies)})",
        f"canonical key {evaluation.key} via {evaluation.symmetry.name}",
        "optimal moves, trap order (best first): "
        + " | ".join(" ".join(str(c + 1) for c in tier) for tier in evaluation.tiers),
        "every move (cell: outcome for the side to move):",
    ]
    for cell in sorted(evaluation.scores):
        value, plies = evaluation.outcome(cell)
        lines.append(f"  {cell + 1}: {outcome_words(value, plies)}")
    return "\n".join(lines)


def _length(plies: int) -> str:
    """How long the game lasts with best play, in words: ``plies`` moves of both sides, the
    next one included."""
    moves = "1 move" if plies == 1 else f"{plies} moves"
    return f"the game ends in {moves}, both sides' counted, this one included"
