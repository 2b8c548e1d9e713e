"""The JavaScript reader's conveniences (clients/js/tictactoe-book.js) against Python's, their
definition: ``grid`` is ``tictactoe_book.notation.grid``, ``parseMove`` is
``tictactoe_book.notation.parse_move`` (the same cell, or both refuse with the same words) and
``parseRules`` is ``tictactoe_book.Rules.parse`` (the same rules, or both refuse), on every
reachable 3x3 position, positions of random games on the other boards, and many texts. Messages
name the text as each language writes a value (Python's repr, JavaScript's JSON), so they are
compared with that part written the JavaScript way."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tictactoe_book import IllegalMoveError, Position, Rules, RulesError
from tictactoe_book.errors import echoed
from tictactoe_book.notation import grid, parse_move

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: Reads {"positions", "texts", "rules"} on standard input; prints each position's grid, each
#: text's cell (or the error) on each position, and each spelling's rules (or the error).
SCRIPT = """
import { readFileSync } from 'node:fs';
import { Position, grid, parseMove, parseRules } from './clients/js/tictactoe-book.js';
const { positions, texts, rules } = JSON.parse(readFileSync(0, 'utf8'));
const answer = (f) => {
  try { return { value: f() }; } catch (e) { return { error: e.name, message: e.message }; }
};
const games = positions.map(({ board, rules, first }) => new Position(board, rules, first));
console.log(JSON.stringify({
  grids: games.map((p) => grid(p)),
  moves: games.map((p) => texts.map((text) => answer(() => parseMove(text, p)))),
  rules: rules.map((text) => answer(() => parseRules(text))),
}));
"""

MAX_ECHOED = 100  # the JavaScript reader's, as Python's errors.MAX_ECHOED


def js_echo(text: str) -> str:
    """``text`` as the JavaScript reader's messages name it: JSON, cut after 100 code points."""
    if len(text) <= MAX_ECHOED:
        return json.dumps(text, ensure_ascii=False)
    return f"{json.dumps(text[:MAX_ECHOED], ensure_ascii=False)}... ({len(text):,} characters)"


def run_js(positions: list[Position], texts: list[object], rules: list[object]) -> dict[str, Any]:
    assert NODE is not None
    given = {
        "positions": [{"board": p.board, "rules": p.rules.as_json(), "first": p.first} for p in positions],
        "texts": texts,
        "rules": rules,
    }
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT],
        input=json.dumps(given),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        check=True,
        timeout=300,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def random_positions(rules: Rules, count: int, seed: int, first: str = "X") -> list[Position]:
    """Every position of random games under ``rules`` (finished ones too), ``count`` of them."""
    rng, found = random.Random(seed), dict[str, Position]()
    while len(found) < count:
        position = Position.empty(rules, first)
        found[position.board] = position
        while not position.is_over and len(found) < count:
            position = position.play(rng.choice(position.legal_moves()))
            found[position.board] = position
    return list(found.values())


@pytest.fixture(scope="module")
def positions(reachable: tuple[set[str], set[str]]) -> list[Position]:
    """Every reachable 3x3 position, X first, finished ones included; 3x3 misère with O first;
    and random games on 1x3, 2x2, 3x4, 4x4 and 4x5 (the widest numbers: 20 cells)."""
    unfinished, finished = reachable
    found = [Position(board) for board in sorted(unfinished | finished)]
    found += random_positions(Rules(3, 3, 3, misere=True), 200, 1, first="O")
    found += random_positions(Rules(1, 3, 3), 10, 2)
    found += random_positions(Rules(2, 2, 2), 20, 3)
    found += random_positions(Rules(3, 4, 3), 300, 4)
    found += random_positions(Rules(4, 4, 4), 300, 5)
    found += random_positions(Rules(4, 5, 4, misere=True), 300, 6)
    return found


def test_the_grids_are_pythons(positions: list[Position]) -> None:
    assert len(positions) > 5478
    found = run_js(positions, [], [])["grids"]
    for position, text in zip(positions, found, strict=True):
        assert text == grid(position), repr(position)


#: Texts a player might type: every number up to past the largest board, with spaces around,
#: leading zeros, signs, other digits, other spaces, quotes and backslashes, a long one.
MOVE_TEXTS: list[str] = [
    *(str(n) for n in range(0, 23)),
    " 5",
    "5 ",
    "\t5\r\n",
    "\n\n9\n",
    "05",
    "0000000000000005",
    "00000000000000005",
    "9999999999999999",
    "99999999999999999999",
    "",
    " ",
    "\t",
    "+5",
    "-5",
    "5.0",
    "1e1",
    "0x5",
    "5 5",
    "five",
    "\u0665",  # ARABIC-INDIC DIGIT FIVE
    "\uff15",  # FULLWIDTH DIGIT FIVE
    "\u00b2",  # SUPERSCRIPT TWO: isdigit() in Python, yet no ASCII digit
    "\U0001d7d3",  # MATHEMATICAL BOLD DIGIT FIVE, past the BMP
    "\u00a05",  # NO-BREAK SPACE: not among the spaces a move may have around it
    "\v5",
    "\f5",
    "\x1c5",
    "\u20035",
    "\ufeff5",
    'say "5"',
    "5\\",
    "it's 5",
    "\x00",
    "é",
    "7" * 150,
    "x" * 101,
]


@pytest.mark.parametrize("first", [0, 1])  # two halves: one node process each
def test_each_move_text_is_read_as_python_reads_it(positions: list[Position], first: int) -> None:
    chosen = positions[first::2]
    found = run_js(chosen, [*MOVE_TEXTS], [])["moves"]
    reasons = set()
    for position, answers in zip(chosen, found, strict=True):
        for text, got in zip(MOVE_TEXTS, answers, strict=True):
            where = (position.board, position.rules.spelling, text)
            try:
                cell = parse_move(text, position)
            except IllegalMoveError as error:
                said = str(error)
                reasons.add(said.removeprefix(f"move {echoed(text)}"))
                assert said.startswith(f"move {echoed(text)}"), where
                expected = said.replace(f"move {echoed(text)}", f"move {js_echo(text)}", 1)
                assert got == {"error": "IllegalMoveError", "message": expected}, where
            else:
                assert got == {"value": cell}, where
    assert reasons >= {  # every way to refuse a move, on 3x3 and on 4x5
        " is not a cell number: use 1 to 9",
        " is off the board: use 1 to 20",
        ": cell 5 is taken",
        ": the game is over",
    }, reasons


def test_a_move_that_is_no_string_is_a_type_error_in_both() -> None:
    position = Position("X...O...X")
    values: list[object] = [5, None, ["5"], {"cell": 5}, True]
    found = run_js([position], values, [])["moves"][0]
    for value, got in zip(values, found, strict=True):
        with pytest.raises(TypeError):
            parse_move(value, position)  # type: ignore[arg-type]
        assert got["error"] == "TypeError", value


#: Spellings of rules, good and bad, as a command line or a game's settings may hold them.
RULES_TEXTS: list[str] = [
    "3x3",
    "3x4",
    "4x3",
    "3x4:3",
    "4x4:4",
    "4x4",
    "4x5",
    "4x5:4",
    "5x4:3",
    "2x2:2",
    "1x1",
    "1x20",
    "20x1:20",
    "03x04:03",
    "3x3:misere",
    "3x3:3:misere",
    "3X3:3:MISERE",
    "3x3:Misère",
    "3x3:MISÈRE",
    "3x4:3:misère",
    " 3x3 ",
    "\t3x4:3\n",
    "\u20033x3\u3000",  # spaces Python's str.strip() takes off
    "\x1c3x3\x85",  # and these, which JavaScript's trim() leaves
    "\ufeff3x3",  # and this, which trim() would take off: str.strip() does not
    "",
    " ",
    "3",
    "3x",
    "x3",
    "x",
    "3x3:",
    ":3x3",
    "3x3:3:3",
    "3x3:3:misere:misere",
    "3x3:misere:3",
    "3x3x3",
    "3 x 3",
    "3x 3",
    "3x3 :3",
    "+3x3",
    "-3x3",
    "3x-3",
    "3x3:+3",
    "3.0x3",
    "3x3:3.0",
    "\u0663x\u0663",  # ARABIC-INDIC DIGIT THREE
    "\uff13x\uff13",  # FULLWIDTH DIGIT THREE
    "\u00b2x\u00b2",  # SUPERSCRIPT TWO
    "3\u00d73",  # MULTIPLICATION SIGN
    "misere",
    ":misere",
    "misere:3x3",
    "3x3:misery",
    "3x3:mise\u0300re",  # the accent as a combining mark: not the spelling
    "0x3",
    "3x0",
    "0x0",
    "3x3:0",
    "3x3:4",
    "3x4:5",
    "5x5",
    "4x6",
    "21x1",
    "9" * 20 + "x1",  # past 2**53: refused in both, the numbers written differently
    "3x" + "9" * 400,
    "3x3:" + "9" * 5000,  # past Python's 4,300 digits for int(): its parse refuses the spelling
    "x" * 150,
]
#: Spellings whose numbers JavaScript cannot hold exactly: both refuse, in other words.
INEXACT = {text for text in RULES_TEXTS if any(len(part) > 15 for part in text.replace(":", "x").split("x"))}


def test_the_rules_are_read_as_python_reads_them() -> None:
    assert len(RULES_TEXTS) >= 30
    found = run_js([], [], [*RULES_TEXTS])["rules"]
    accepted = 0
    for text, got in zip(RULES_TEXTS, found, strict=True):
        try:
            rules = Rules.parse(text)
        except RulesError as error:
            assert isinstance(got, dict) and got.get("error") == "RulesError", (text, got)
            if text not in INEXACT:
                assert got["message"] == str(error).replace(echoed(text), js_echo(text)), text
        else:
            accepted += 1
            assert got == {"value": rules.as_json()}, text
    assert 10 < accepted < len(RULES_TEXTS) - 10


def test_rules_that_are_no_string_are_a_type_error_in_both() -> None:
    values: list[object] = [3, None, {"rows": 3, "cols": 3, "k": 3}, ["3x3"]]
    found = run_js([], [], values)["rules"]
    for value, got in zip(values, found, strict=True):
        with pytest.raises(TypeError):
            Rules.parse(value)  # type: ignore[arg-type]
        assert isinstance(got, dict) and got.get("error") == "TypeError", value
