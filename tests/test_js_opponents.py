"""The JavaScript reader's table of reference opponents (clients/js/tictactoe-book.js,
``OPPONENTS``) is player/tictactoe_book/opponents.py's registry: the same names in the same order, the same
words, and the same moves chosen on every unfinished 3x3 board under either rules, X or O to move,
and on a sample of 3x4 boards."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tictactoe_book.game import Rules
from tictactoe_book.opponents import DEFAULT, OPPONENTS

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: Reads {"rules", "boards"} on standard input; prints the table and each opponent's moves.
SCRIPT = """
import { readFileSync } from 'node:fs';
import { OPPONENTS, Position, opponentMoves, opponentPlays, ranking } from './clients/js/tictactoe-book.js';
const { rules, boards } = JSON.parse(readFileSync(0, 'utf8'));
const table = OPPONENTS.map(({ name, words, plays, playsMisere }) => ({ name, words, plays, playsMisere }));
const moves = boards.map((board) => OPPONENTS.map((o) => opponentMoves(o, new Position(board, rules))));
const rankings = OPPONENTS.map((o) => ranking(o.name).map((r) => r.name));
const described = OPPONENTS.map((o) => opponentPlays(o, rules));
console.log(JSON.stringify({ table, moves, rankings, described }));
"""


def page_opponents(rules: Rules, boards: list[str]) -> dict[str, object]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT],
        input=json.dumps({"rules": rules.as_json(), "boards": boards}),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_the_table_is_the_registry() -> None:
    answer = page_opponents(Rules(), [])
    assert answer["table"] == [
        {"name": o.name, "words": o.words, "plays": o.plays, "playsMisere": o.plays_misere}
        for o in OPPONENTS.values()
    ]
    assert [r[0] for r in answer["rankings"]] == list(OPPONENTS)  # type: ignore[index, union-attr]
    assert answer["table"][0]["name"] == DEFAULT  # type: ignore[index]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misère"])
def test_each_opponent_is_described_as_in_python(misere: bool) -> None:
    rules = Rules(misere=misere)
    assert page_opponents(rules, [])["described"] == [o.description(rules) for o in OPPONENTS.values()]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misère"])
def test_every_opponent_chooses_as_in_python_on_every_3x3_board(
    misere: bool, reachable: tuple[set[str], set[str]]
) -> None:
    unfinished, _ = reachable
    rules = Rules(misere=misere)
    boards = sorted(unfinished)
    answer = page_opponents(rules, boards)
    for board, found in zip(boards, answer["moves"], strict=True):  # type: ignore[call-overload]
        mark = "X" if board.count("X") == board.count("O") else "O"
        assert found == [o.moves(rules, board, mark) for o in OPPONENTS.values()], board


def test_every_opponent_chooses_as_in_python_on_3x4_boards() -> None:
    rules, rng = Rules(3, 4, 3), random.Random(34)
    boards = set()
    while len(boards) < 300:  # random games, every position of each until it ends
        board = "." * 12
        for ply in range(12):
            if rules.lines and any(all(board[c] == m for c in line) for line in rules.lines for m in "XO"):
                break
            boards.add(board)
            free = [c for c, m in enumerate(board) if m == "."]
            cell = rng.choice(free)
            board = board[:cell] + "XO"[ply % 2] + board[cell + 1 :]
    answer = page_opponents(rules, sorted(boards))
    for board, found in zip(sorted(boards), answer["moves"], strict=True):  # type: ignore[call-overload]
        mark = "X" if board.count("X") == board.count("O") else "O"
        assert found == [o.moves(rules, board, mark) for o in OPPONENTS.values()], board
