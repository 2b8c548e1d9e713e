"""``ttt-book build --against-program``: the book ranked to beat one program wins against it
exactly as often as the best never-losing player (tests/best_response.py, written apart from
the product), and never loses; the audit reports that rate as how exploitable a program is."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from best_response import best_response
from enumerate_games import match, novice_player, random_player

from player import load_book
from player.play import candidates

HERE = Path(__file__).resolve().parent
ENGINES = HERE / "audit_engines"
TTT_BOOK = str(Path(sys.executable).parent / "ttt-book")
TTT_PLAY = str(Path(sys.executable).parent / "ttt-play")
sys.path.insert(0, str(ENGINES))


def textbook(board: str) -> tuple[int, ...]:
    choose: Any = importlib.import_module("rules_based").choose
    return (choose(board),)


def build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TTT_BOOK, "build", *args], capture_output=True, text=True, timeout=300, check=False, cwd=HERE
    )


@pytest.fixture(scope="module")
def targeted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("target") / "beats-textbook.json"
    done = build("--against-program", "-o", str(path), "--", sys.executable, str(ENGINES / "rules_based.py"))
    assert done.returncode == 0, done.stderr
    return path, done.stdout


def test_the_book_beats_the_textbook_rule_list_as_often_as_it_can_be_beaten(
    targeted: tuple[Path, str],
) -> None:
    path, _ = targeted
    book = load_book(path)
    assert book.against == "program"
    for mark in ("X", "O"):
        win, _, loss = match(lambda b: candidates(book.evaluate(b), "perfect"), textbook, mark)
        assert (win, loss) == (best_response(textbook, mark), 0), mark
    # the rule list misses a fork block as O (X 0, O 4, X 8, O 2?): beaten every time; as X it
    # takes the centre and is never beaten
    assert best_response(textbook, "X") == 1 and best_response(textbook, "O") == 0


def test_the_build_says_how_often_the_book_wins(targeted: tuple[Path, str]) -> None:
    path, out = targeted
    lines = out.splitlines()
    assert lines[0].startswith(f"wrote {path}: ") and "ranked against the program" in lines[0]
    assert "rules_based.py" in lines[0]
    most = "the most a never-losing player can"
    assert lines[1] == f"moving first, the book wins 100.00% of its games against it (1/1, {most})"
    assert lines[2] == f"moving second, the book wins 0.00% of its games against it (0/1, {most})"
    data = json.loads(path.read_text())
    assert data["trap_order"]["against"] == "program" and data["trap_order"]["program"].endswith(
        "rules_based.py"
    )
    assert (
        data["trap_rates"]["first"]["program"] == "1/1" and data["trap_rates"]["second"]["program"] == "0/1"
    )
    book = load_book(path)
    for name, player in (("novice", novice_player), ("random", random_player)):
        for side, mark in (("first", "X"), ("second", "O")):
            win = match(lambda b: candidates(book.evaluate(b), "perfect"), player, mark)[0]
            assert Fraction(data["trap_rates"][side][name]) == win, (name, side)


def test_only_the_positions_it_reaches_change(targeted: tuple[Path, str]) -> None:
    path, _ = targeted
    mine, packaged = (
        json.loads(path.read_text())["entries"],
        json.loads((HERE.parent / "book" / "tictactoe.json").read_text())["entries"],
    )
    assert mine.keys() == packaged.keys()
    changed = [key for key in mine if mine[key] != packaged[key]]
    assert 0 < len(changed) <= 9  # one line of play per side, at most 9 of its positions
    for key in changed:
        best, *tiers = mine[key].split(" ")
        old_best, *old_tiers = packaged[key].split(" ")
        assert best == old_best and len(tiers[0].split(",")) == 1
        assert sorted(c for tier in tiers for c in tier.split(",")) == sorted(
            c for tier in old_tiers for c in tier.split(",")
        )


def test_the_targeted_book_proves_and_plays(targeted: tuple[Path, str]) -> None:
    path, _ = targeted
    done = subprocess.run([TTT_BOOK, "verify", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and 'ranked against "program", which a build cannot repeat' in done.stdout
    done = subprocess.run(
        [TTT_PLAY, "--book", str(path), "--watch", "--delay", "0", "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Result: draw" in done.stdout, done.stdout  # the book against itself


def test_a_program_whose_answers_vary_is_said_to(tmp_path: Path) -> None:
    engine = tmp_path / "cycles.py"
    engine.write_text(
        "import sys\n"
        "n = 0\n"
        "for line in sys.stdin:\n"
        "    free = [i for i, c in enumerate(line.strip()) if c == '.']\n"
        "    n += 1\n"
        "    print(free[n % len(free)], flush=True)\n"
    )
    path = tmp_path / "b.json"
    done = build("--against-program", "--repeat", "3", "-o", str(path), "--", sys.executable, str(engine))
    assert done.returncode == 0, done.stderr
    assert "3 times each" in done.stdout and "its answers varied at" in done.stdout
    book = load_book(path)
    for mark in ("X", "O"):  # still never loses, whatever the other side plays
        assert match(lambda b: candidates(book.evaluate(b), "perfect"), random_player, mark)[2] == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--against-program"], "needs the program after --"),
        (["--against-program", "--", "true"], "--output is required with --against-program"),
        (
            ["--against-program", "-o", "x.json", "--vectors", "v.json", "--", "true"],
            "--vectors does nothing with --against-program",
        ),
        (
            ["--against-program", "-o", "x.json", "--against", "random", "--", "true"],
            "--against does nothing",
        ),
        (["--against-program", "-o", "x.json", "--rules", "4x4:4", "--", "true"], "at most 12 cells"),
        (["-o", "x.json", "--repeat", "2"], "--repeat is for --against-program"),
        (["-o", "x.json", "--", "true"], "unexpected argument 'true'"),
    ],
)
def test_misuse_is_a_usage_error_and_writes_nothing(tmp_path: Path, args: list[str], words: str) -> None:
    done = subprocess.run(
        [TTT_BOOK, "build", *args], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_program_that_will_not_run_is_one_line(tmp_path: Path) -> None:
    done = build("--against-program", "-o", str(tmp_path / "b.json"), "--", str(tmp_path / "missing"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "cannot start" in done.stderr
    assert list(tmp_path.iterdir()) == []
