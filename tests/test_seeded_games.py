"""One seed plays one game in every language (issue 40, item 1): for seeds 1 to 100 and each
level, the game from the empty board where both sides play at that level, drawing from one
generator made from the seed, is move for move the same, ending in the same generator state,
from Python (``choose_move`` with ``Rng``), the JavaScript reader in Node
(tests/seeded_games.mjs), the engine (``ttt-play --engine``, each ``choose`` sending the last
answer's ``next_seed``) and, in ``make test-exports``, the C and Rust exports
(tests/exports/vectors_driver.c and .rs, ``g LEVEL SEED``), for the normal and the misère book.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from c_build import DRIVERS, LEVEL_NUMBERS, ask, compile_c

from tictactoe_book import LEVELS, Book, Position, Rng, choose_move, load_book

ROOT = Path(__file__).resolve().parent.parent
TTT_PLAY = str(Path(sys.executable).parent / "ttt-play")
SEEDS = range(1, 101)
BOOKS = {"normal": "tictactoe.json", "misere": "tictactoe-misere.json"}
TIMEOUT = 300


def python_games(book: Book) -> list[str]:
    """Each level's game from each seed, by ``choose_move``: ``LEVEL SEED moves=... state=S``."""
    games = []
    for level in LEVELS:
        for seed in SEEDS:
            rng, position, moves = Rng(seed), Position.empty(book.rules), []
            while not position.is_over:
                moves.append(choose_move(book, position, level, rng=rng))
                position = position.play(moves[-1])
            games.append(f"{level} {seed} moves={','.join(map(str, moves))} state={rng.state}")
    return games


@pytest.fixture(scope="module", params=sorted(BOOKS))
def played(request: pytest.FixtureRequest) -> tuple[Path, list[str]]:
    """A packaged book's path, and Python's games from it."""
    path = ROOT / "book" / BOOKS[request.param]
    games = python_games(load_book(path))
    assert len(games) == len(LEVELS) * len(SEEDS)
    # perfect play draws; the weaker levels lose now and then, and their games differ by seed
    assert {game.split()[0] for game in games} == set(LEVELS)
    assert len({game.split()[2] for game in games if game.startswith("easy ")}) > 50
    return path, games


def test_the_javascript_reader_plays_pythons_games(played: tuple[Path, list[str]]) -> None:
    path, games = played
    node = shutil.which("node")
    assert node, "the JavaScript games need Node.js 18+ (as make test-js does)"
    done = subprocess.run(
        [node, str(ROOT / "tests" / "seeded_games.mjs"), str(path), str(SEEDS[0]), str(SEEDS[-1])],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == games


def test_the_engine_plays_pythons_games(played: tuple[Path, list[str]]) -> None:
    """One engine process for every game: each move a ``choose`` with the seed the last answer
    gave as ``next_seed`` (the game's own seed for its first move)."""
    path, games = played
    found = []
    with subprocess.Popen(
        [TTT_PLAY, "--engine", "--book", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as engine:
        assert engine.stdin and engine.stdout
        rules = load_book(path).rules
        for level in LEVELS:
            for seed in SEEDS:
                position, sent, moves = Position.empty(rules), seed, []
                while not position.is_over:
                    request = {"op": "choose", "board": position.board, "level": level, "seed": sent}
                    engine.stdin.write(json.dumps(request) + "\n")
                    engine.stdin.flush()
                    answer = json.loads(engine.stdout.readline())
                    assert answer["ok"], answer
                    moves.append(answer["cell"])
                    sent = answer["next_seed"]
                    position = position.play(answer["cell"])
                found.append(f"{level} {seed} moves={','.join(map(str, moves))} state={sent}")
        engine.stdin.close()
        assert engine.wait(TIMEOUT) == 0
    assert found == games


@pytest.mark.exports
@pytest.mark.parametrize("language", ["c", "rust"])
def test_the_c_and_rust_exports_play_pythons_games(
    played: tuple[Path, list[str]], language: str, tmp_path: Path
) -> None:
    """The book exported as C and as a Rust crate: ``ttt_choose`` and ``ttt_play`` from one
    ``uint32_t`` state, ``choose`` and ``Position::play`` from one ``Rng`` (``make test-exports``)."""
    from test_exports import compile_rust, write

    from tictactoe_generator.export.c import c_book
    from tictactoe_generator.export.rust import rust_book
    from tictactoe_generator.export.tables import full_table

    path, games = played
    table = full_table(load_book(path))
    if language == "c":
        folder = write(tmp_path, c_book(table))
        program = compile_c(
            folder, [folder / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], ["-O2"], "games"
        )
    else:
        program = compile_rust(write(tmp_path, rust_book(table)))
    played_games = [(level, seed) for level in LEVELS for seed in SEEDS]
    answers = ask(program, [f"g {LEVEL_NUMBERS[level]} {seed}" for level, seed in played_games])
    assert [
        f"{level} {seed} {answer}" for (level, seed), answer in zip(played_games, answers, strict=True)
    ] == games
