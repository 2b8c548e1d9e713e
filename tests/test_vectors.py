"""The Python reader passes every conformance vector of both shipped books (book/vectors.json,
book/tictactoe-misere.vectors.json), as the JavaScript reader does; a board over 12 cells gets a
sample of its positions, which both readers pass too."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracles.mulberry32 import REDRAWN, mulberry32, uniform_pick
from oracles.negamax import Negamax
from vector_check import failures, js_failures

from tictactoe_book import LEVELS, BoardError, load_book, parse_book
from tictactoe_book.game import VALUE_WORDS
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.solve import Retrograde
from tictactoe_generator.trap import trap_arrays
from tictactoe_generator.vectors import RANDOM_ORIENTATIONS, SAMPLE, build_vectors
from tictactoe_generator.writer import book_document, encode

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {
    "normal": ("tictactoe.json", "vectors.json", {"empty", "can-win", "must-block", "lost"}),
    "misere": ("tictactoe-misere.json", "tictactoe-misere.vectors.json", {"empty", "can-lose", "lost"}),
    "vs-random": (
        "tictactoe-vs-random.json",
        "tictactoe-vs-random.vectors.json",
        {"empty", "can-win", "must-block", "lost"},
    ),
    "misere-vs-random": (
        "tictactoe-misere-vs-random.json",
        "tictactoe-misere-vs-random.vectors.json",
        {"empty", "can-lose", "lost"},
    ),
}


def read(name: str) -> Any:
    return json.loads((ROOT / "book" / name).read_text())


@pytest.mark.parametrize("which", SHIPPED)
def test_the_shipped_vectors_cover_every_position_and_random_orientations(which: str) -> None:
    book_name, vectors_name, tags = SHIPPED[which]
    vectors = read(vectors_name)
    assert vectors["book_sha256"] == hashlib.sha256((ROOT / "book" / book_name).read_bytes()).hexdigest()
    assert vectors["rules"] == {"rows": 3, "cols": 3, "k": 3, "misere": which.startswith("misere")}
    assert vectors["against"] == ("random" if which.endswith("vs-random") else "novice")
    assert vectors["every_board"] is True
    valid = vectors["valid"]
    assert len({v["board"] for v in valid if v["first"] == "X"}) == 4520
    assert sum(1 for v in valid if v["first"] == "O") >= 150
    assert {t for v in valid for t in v["tags"]} == tags
    assert len(vectors["invalid"]) >= 10


@pytest.mark.parametrize("which", SHIPPED)
def test_the_python_reader_passes_every_shipped_vector(which: str) -> None:
    book_name, vectors_name, _ = SHIPPED[which]
    assert failures(load_book(ROOT / "book" / book_name), read(vectors_name)) == []


def test_a_misere_vector_is_the_independent_solvers_answer() -> None:
    """The misère vectors' values against tests/oracles/negamax.py, which shares nothing with the build."""
    negamax = Negamax(3, 3, 3, misere=True)
    for v in read("tictactoe-misere.vectors.json")["valid"]:
        if v["first"] == "X":
            value, plies = negamax.solve(v["board"])
            assert (VALUE_WORDS[value], plies) == (v["value"], v["plies"]), v["board"]


@pytest.fixture(scope="module")
def sampled_3x4(retro_3x4: Retrograde, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 3x4 book and the vectors a board over the limit gets (a sample), written to files."""
    traps = trap_arrays(retro_3x4)
    data = encode(book_document(traps))
    vectors = build_vectors(traps, data, max_cells=9)
    folder = tmp_path_factory.mktemp("sampled")
    (folder / "3x4.json").write_bytes(data)
    (folder / "3x4.vectors.json").write_text(json.dumps(vectors))
    return folder / "3x4.json", folder / "3x4.vectors.json"


def test_a_big_board_gets_a_sample_both_readers_pass(sampled_3x4: tuple[Path, Path]) -> None:
    book_path, vectors_path = sampled_3x4
    vectors = json.loads(vectors_path.read_text())
    assert vectors["every_board"] is False
    assert vectors["rules"] == {"rows": 3, "cols": 4, "k": 3, "misere": False}
    # the sample (the empty board among it), then the random orientations
    assert len(vectors["valid"]) == SAMPLE + RANDOM_ORIENTATIONS
    assert "." * 12 in {v["board"] for v in vectors["valid"][:SAMPLE]}
    assert {v["error"] for v in vectors["invalid"]} == {"length", "character", "counts"}
    assert failures(parse_book(book_path.read_bytes(), book_path), vectors) == []
    assert js_failures(book_path, vectors_path) == []


def test_a_16_cell_book_is_read_and_answered_alike_by_both_readers(tmp_path: Path) -> None:
    """No test of the default suite gave the JavaScript reader a book of 16 cells, the most a
    book holds, so a reader refusing every 4x4 book went unseen (issue 32, surviving mutants).
    4x4 with k=2 is built in a second; its sampled vectors are answered by both readers."""
    book_path, vectors_path = tmp_path / "4x4k2.json", tmp_path / "4x4k2.vectors.json"
    result = CliRunner().invoke(
        book_cli, ["build", "--rules", "4x4:2", "-o", str(book_path), "--vectors", str(vectors_path)]
    )
    assert result.exit_code == 0, result.output
    vectors = json.loads(vectors_path.read_text())
    assert (
        vectors["rules"] == {"rows": 4, "cols": 4, "k": 2, "misere": False}
        and vectors["every_board"] is False
    )
    assert "." * 16 in {v["board"] for v in vectors["valid"]}
    assert failures(parse_book(book_path.read_bytes(), book_path), vectors) == []
    assert js_failures(book_path, vectors_path) == []


def test_the_python_check_finds_a_wrong_answer() -> None:
    vectors = read("vectors.json")
    vectors["valid"][0] = {**vectors["valid"][0], "top": [99]}
    vectors["invalid"][0] = {**vectors["invalid"][0], "error": "over"}
    vectors["generator"][1] = {**vectors["generator"][1], "numbers": [1, 2, 3, 4, 5]}
    vectors["games"][0] = {**vectors["games"][0], "state": 0}
    vectors["games"][1] = {**vectors["games"][1], "moves": list(reversed(vectors["games"][1]["moves"]))}
    assert len(failures(load_book(ROOT / "book" / "tictactoe.json"), vectors)) == 5


@pytest.mark.parametrize("which", SHIPPED)
def test_the_seeded_vectors_are_the_documented_draws_among_the_vectors_own_candidates(which: str) -> None:
    """Each seeded game, replayed from the board vectors alone: at every move the candidates are
    the vector's ``top`` (perfect) or ``levels`` (the others), and the cell is the one
    tests/oracles/mulberry32.py's pick names from the state the game has reached, so the games
    are docs/porting.md's rule, not only the Python player's opinion. An O-first game is the
    X-first one from the same seed; the generator's numbers are the oracle's; the redraw seeds
    draw again at the first move of the weaker levels (nine candidates)."""
    vectors = read(SHIPPED[which][1])
    boards = {v["board"]: v for v in vectors["valid"] if v["first"] == "X"}
    for v in vectors["generator"]:
        state, numbers = v["seed"], []
        for _ in v["numbers"]:
            state, number = mulberry32(state)
            numbers.append(number)
        assert numbers == v["numbers"], v["seed"]
    first = vectors["generator"][1]
    assert first["seed"] == 1 and first["numbers"][:3] == [2693262067, 11749833, 2265367787]  # published
    games = vectors["games"]
    assert {(g["level"], g["first"]) for g in games} == {(level, first) for level in LEVELS for first in "XO"}
    assert {g["seed"] for g in games} == {*range(1, 13), *REDRAWN}
    redrawn = 0
    for game in games:
        board, state = "." * 9, game["seed"]
        for cell in game["moves"]:
            vector = boards[board]
            options = vector["top"] if game["level"] == "perfect" else vector["levels"][game["level"]]
            before = state
            index, state = uniform_pick(len(options), state)
            redrawn += len(options) == 9 and state == (before + 2 * 0x6D2B79F5) % 2**32
            assert options[index] == cell, (game, board)
            board = board[:cell] + ("X" if board.count("X") == board.count("O") else "O") + board[cell + 1 :]
        assert board not in boards and state == game["state"], game  # finished, every draw counted
        twin = next(
            g
            for g in games
            if g["seed"] == game["seed"] and g["level"] == game["level"] and g["first"] == "X"
        )
        assert (game["moves"], game["state"]) == (twin["moves"], twin["state"])
    assert redrawn == 3 * 2 * len(REDRAWN)  # hard, medium, easy; X and O first


def test_an_invalid_vector_is_refused_after_its_board_was_answered_in_the_other_game() -> None:
    """A board the book has answered in a game one side began is still refused in a game the
    other side began, where it cannot arise (``X........`` when O moved first)."""
    book = load_book(ROOT / "book" / "tictactoe.json")
    checked = 0
    for vector in read("vectors.json")["invalid"]:
        other = "O" if vector["first"] == "X" else "X"
        try:
            book.evaluate(vector["board"], first=other)
        except BoardError:
            continue
        with pytest.raises(BoardError) as caught:
            book.evaluate(vector["board"], first=vector["first"])
        assert caught.value.code == vector["error"]
        checked += 1
    assert checked >= 2  # O........ when X moved first, X........ when O did


def documented_error(board: str, first: str, cells: int) -> str | None:
    """The reason code of the first of docs/porting.md's checks a board fails, for the three that
    need no game: its length in code points, then its characters, then its marks' counts (the
    first player's count is the second's or one more); None if it passes all three."""
    if len(board) != cells:
        return "length"
    if set(board) - {".", "X", "O"}:
        return "character"
    second = "O" if first == "X" else "X"
    if board.count(first) - board.count(second) not in (0, 1):
        return "counts"
    return None


# 1x1 with k = 1 is the smallest game (X wins at once): its length-2 board "XX" fails the length
# check before its counts are looked at, whatever the vectors of bigger boards say of "XX.."
@pytest.mark.parametrize("spec", ["1x1:1", "1x2:1", "1x2:2", "2x1:2", "2x2:2", "1x3:2"])
def test_tiny_boards_vectors_name_the_documented_first_failure_and_both_readers_pass(
    spec: str, tmp_path: Path
) -> None:
    from tictactoe_book import Rules
    from tictactoe_generator.build import write_book

    rules = Rules.parse(spec)
    book_path, vectors_path = tmp_path / "book.json", tmp_path / "book.vectors.json"
    write_book(book_path, rules, vectors_path)
    vectors = json.loads(vectors_path.read_text())
    for v in vectors["invalid"]:
        expected = documented_error(v["board"], v["first"], rules.cells)
        if expected is not None or v["error"] in ("length", "character", "counts"):
            assert v["error"] == expected, v
    assert failures(parse_book(book_path.read_bytes(), str(book_path)), vectors) == []
    assert js_failures(book_path, vectors_path) == []
