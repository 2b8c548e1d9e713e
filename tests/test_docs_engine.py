"""docs/engine.md's promises to a porter, checked on the engine (issue 42, item 9): how a seed
becomes a choice, written here from the document's own words and without Python's ``random``;
that a level with one candidate draws nothing; the reason a missing board gets; which seeds are
whole numbers.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tictactoe_book
from tictactoe_book.apps.engine import Engine
from tictactoe_book.play import candidates

ROOT = Path(__file__).resolve().parent.parent
ENGINE_MD = (ROOT / "docs" / "engine.md").read_text()
BOOK = tictactoe_book.load_book()


class MersenneTwister:
    """MT19937 as Matsumoto and Nishimura published it (mt19937ar.c), seeded by ``init_by_array``
    with the seed's 32-bit words, least significant first: what docs/engine.md says
    ``random.Random(seed)`` is."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:
            key.append(seed & 0xFFFFFFFF)
            seed >>= 32
            if not seed:
                break
        mt = [19650218]
        for i in range(1, 624):
            mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        if self.index >= 624:
            mt = self.mt
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        """docs/engine.md, step 3: ``k`` bits of the next output, drawn again while ``>= n``."""
        k = n.bit_length()
        r = self.next32() >> (32 - k)
        while r >= n:
            r = self.next32() >> (32 - k)
        return r


def documented_choice(options: tuple[int, ...], seed: int) -> int:
    if len(options) == 1:
        return options[0]
    return options[MersenneTwister(seed).below(len(options))]


def test_the_generator_written_from_the_words_is_pythons() -> None:
    for seed in (0, 1, 7, 2**32 - 1, 2**32, 2**64 - 1):
        ours, pythons = MersenneTwister(seed), random.Random(seed)
        assert [ours.next32() for _ in range(700)] == [pythons.getrandbits(32) for _ in range(700)], seed


#: boards from one candidate to nine, at every level
BOARDS = [".........", "X...O....", "X........", "XO.......", "X.O.O.X..", "XX.OO...."]


@pytest.mark.parametrize("level", tictactoe_book.LEVELS)
@pytest.mark.parametrize("board", BOARDS)
def test_a_seed_becomes_the_cell_the_document_computes(board: str, level: str) -> None:
    engine = Engine(BOOK)
    options = candidates(BOOK.evaluate(board), level)
    for seed in (*range(40), 2**32 + 5, 2**64 - 1):
        answer = engine.handle({"op": "choose", "board": board, "level": level, "seed": seed})
        assert answer == {"ok": True, "cell": documented_choice(options, seed)}, (board, level, seed)


def test_a_level_with_one_candidate_draws_nothing() -> None:
    assert "nothing is drawn" in ENGINE_MD
    # X X .
    # O O .      X to move: perfect has one candidate, cell 2
    # . . .
    assert candidates(BOOK.evaluate("XX.OO...."), "perfect") == (2,)
    rng = random.Random(5)
    engine = Engine(BOOK, rng=rng)
    before = rng.getstate()
    assert engine.handle({"op": "choose", "board": "XX.OO...."}) == {"ok": True, "cell": 2}
    assert rng.getstate() == before


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
