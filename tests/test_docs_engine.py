"""docs/engine.md's promises to a porter, checked on the engine (issue 42, item 9): how a seed
becomes a choice, from the oracle written from docs/porting.md's words (tests/oracles/mulberry32.py,
which shares nothing with the package); that a level with one candidate draws nothing; that
``next_seed`` goes on with the same generator; the reason a missing board gets; which seeds are
whole numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from oracles.mulberry32 import REDRAWN, mulberry32, uniform_pick

import tictactoe_book
from tictactoe_book.apps.engine import Engine
from tictactoe_book.play import MAX_SEED, candidates

ROOT = Path(__file__).resolve().parent.parent
ENGINE_MD = (ROOT / "docs" / "engine.md").read_text()
PORTING_MD = (ROOT / "docs" / "porting.md").read_text()
BOOK = tictactoe_book.load_book()


def documented_choice(options: tuple[int, ...], seed: int) -> tuple[int, int]:
    """(the cell, the state after) of the choice among ``options`` from ``seed``."""
    index, state = uniform_pick(len(options), seed)
    return options[index], state


def test_the_documented_generator_is_mulberry32_as_published() -> None:
    """porting.md's first numbers from seed 1 are the published JavaScript's, which the oracle is."""
    numbers, state = [], 1
    for _ in range(3):
        state, number = mulberry32(state)
        numbers.append(f"{number:,}".replace(",", ""))
    assert f"the first numbers are {', '.join(numbers)}" in re.sub(r"\s+", " ", PORTING_MD)
    assert numbers == ["2693262067", "11749833", "2265367787"]


#: boards from one candidate to nine, at every level
BOARDS = [".........", "X...O....", "X........", "XO.......", "X.O.O.X..", "XX.OO...."]


@pytest.mark.parametrize("level", tictactoe_book.LEVELS)
@pytest.mark.parametrize("board", BOARDS)
def test_a_seed_becomes_the_cell_the_document_computes(board: str, level: str) -> None:
    engine = Engine(BOOK)
    options = candidates(BOOK.evaluate(board), level)
    for seed in (*range(40), *REDRAWN, MAX_SEED):
        cell, state = documented_choice(options, seed)
        answer = engine.handle({"op": "choose", "board": board, "level": level, "seed": seed})
        assert answer == {"ok": True, "cell": cell, "next_seed": state}, (board, level, seed)


def test_next_seed_goes_on_with_the_same_generator() -> None:
    """A game whose every choose sends the last answer's next_seed draws as one generator does:
    the oracle's, carried from move to move (docs/engine.md)."""
    engine = Engine(BOOK)
    for seed in (3, REDRAWN[0]):
        position, sent, state = tictactoe_book.Position.empty(), seed, seed
        while not position.is_over:
            options = candidates(BOOK.evaluate(position), "easy")
            cell, state = documented_choice(options, state)
            answer = engine.handle({"op": "choose", "board": position.board, "level": "easy", "seed": sent})
            assert answer == {"ok": True, "cell": cell, "next_seed": state}, position
            position, sent = position.play(cell), answer["next_seed"]


def test_a_level_with_one_candidate_draws_nothing() -> None:
    assert "nothing is drawn" in ENGINE_MD
    # X X .
    # O O .      X to move: perfect has one candidate, cell 2
    # . . .
    assert candidates(BOOK.evaluate("XX.OO...."), "perfect") == (2,)
    rng = tictactoe_book.Rng(5)
    engine = Engine(BOOK, rng=rng)
    assert engine.handle({"op": "choose", "board": "XX.OO...."}) == {"ok": True, "cell": 2}
    assert rng.state == 5
    answer = engine.handle({"op": "choose", "board": "XX.OO....", "seed": 77})
    assert answer == {"ok": True, "cell": 2, "next_seed": 77}


def test_a_missing_board_is_reason_character() -> None:
    engine = Engine(BOOK)
    for request in ({"op": "evaluate"}, {"op": "evaluate", "board": None}, {"op": "choose", "board": 5}):
        error = engine.handle(request)["error"]
        assert (error["code"], error["reason"]) == ("board", "character"), request
    assert "missing or not a string (`null`, a number, an array) is `character`" in ENGINE_MD


@pytest.mark.parametrize(("text", "accepted"), [("-0", True), ("0", True), ("1.0", False), ("1e0", False)])
def test_a_seed_is_a_json_integer(text: str, accepted: bool) -> None:
    """docs/engine.md: ``-0`` is the integer 0; ``1.0`` and ``1e0`` are refused."""
    line = f'{{"op": "choose", "board": "X........", "level": "easy", "seed": {text}}}'
    answer = json.loads(Engine(BOOK).handle_line(line))
    if accepted:
        zero = {"op": "choose", "board": "X........", "level": "easy", "seed": 0}
        assert answer == Engine(BOOK).handle(zero)
    else:
        assert answer["error"]["code"] == "seed"
    assert f"`{text}`" in ENGINE_MD or text == "0"
