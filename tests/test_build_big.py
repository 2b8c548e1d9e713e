"""Builds at scale (``make test-big``): 3x4 against an independent negamax and trap order
(tests/oracles/negamax.py, tests/oracles/trap_oracle.py), and the 4x4 k=4 book as ``ttt-book
build`` writes it, proven by the player's own loader.

4x4 with k=4: 9,722,011 reachable positions, 1,217,977 up to symmetry, 1,135,214 of them
unfinished (the book's entries), a draw. Proving it in Python takes about 12 s of CPU here, in
one process (docs/scaling.md, "The proof"); the build pays it once and records the book as
proven.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import orjson
import pexpect
import pytest
from limits_doc import documented_limits
from oracles.negamax import Negamax
from oracles.trap_oracle import TrapOracle
from vector_check import failures, js_failures

from tictactoe_book import Rules, load_book
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import OCCUPIED, Retrograde, solve
from tictactoe_generator.trap import Rate, TrapArrays, trap_arrays
from tictactoe_generator.writer import counts_member, entry_strings, trap_rates_member

pytestmark = pytest.mark.big
ROOT = Path(__file__).resolve().parent.parent


def test_3x4_every_position_scores_as_an_independent_negamax(retro_3x4: Retrograde) -> None:
    negamax = Negamax(3, 4, 3)
    rows = retro_3x4.unfinished()
    boards = decode(retro_3x4.codes[rows], 12)
    for board, scores in zip(boards, retro_3x4.scores[rows].tolist(), strict=True):
        expected = {c: value * (13 - plies) for c, (value, plies) in negamax.moves(board).items()}
        assert {c: s for c, s in enumerate(scores) if s != OCCUPIED} == expected, board
    assert len(boards) == 20088


def pair(rates: dict[str, Rate]) -> tuple[Rate, Rate]:
    """Chances keyed by opponent, as the oracle gives them: (against novice, against random)."""
    assert list(rates) == ["novice", "random"]  # the registry's order
    return rates["novice"], rates["random"]


@pytest.mark.parametrize("against", ["novice", "random"])
def test_3x4_every_canonical_position_tiers_and_rates_as_an_independent_oracle(
    retro_3x4: Retrograde, against: str
) -> None:
    traps = trap_arrays(retro_3x4, against=against)
    oracle = TrapOracle(3, 4, 3, against=against)
    assert traps.method == "exact"
    rows = retro_3x4.unfinished()
    marks = retro_3x4.marks
    for board, row in zip(decode(retro_3x4.codes[rows], 12), rows.tolist(), strict=True):
        tiers, rates = oracle.book(board)
        assert traps.tiers(row) == tiers, board
        assert pair(traps.rates(int(marks[row]) % 2, row)) == rates, board
    assert (pair(traps.first_player_rates), pair(traps.second_player_rates)) == (
        oracle.book("." * 12)[1],
        oracle.reply("." * 12),
    )
    # docs/scaling.md's table of limits, its 3x4 rows
    assert (oracle.book("." * 12)[1], oracle.reply("." * 12)) == documented_limits()[("3x4 k=3", against)]


# ---------------------------------------------------------------- 4x4 with k=4


@pytest.fixture(scope="module")
def four() -> TrapArrays:
    return trap_arrays(solve(Rules(4, 4, 4)))


def test_4x4_counts_are_the_known_facts(four: TrapArrays) -> None:
    counts = counts_member(four.result)
    assert counts["positions"] == 9_722_011
    assert counts["canonical_positions"] == 1_217_977
    assert counts["entries"] == 1_135_214
    assert four.result.value[0] == 0  # the empty board: a draw


def test_4x4_entries_are_shippable(four: TrapArrays) -> None:
    entries = entry_strings(four)
    assert len(entries) == 1_135_214
    assert entries["." * 16] == "0 0,3,5,6,9,10,12,15 1,2,4,7,8,11,13,14"
    data = orjson.dumps({"entries": entries}, option=orjson.OPT_SORT_KEYS)
    assert len(data) <= 48 * 2**20
    # gzip -9 is never larger than -6 in practice, and ten times slower on this book
    assert len(gzip.compress(data, 6)) <= 8 * 2**20


def test_4x4_trap_order_is_exact_and_float_gives_the_same_tiers(four: TrapArrays) -> None:
    assert four.method == "exact"
    assert trap_rates_member(four) == {
        "first": {"novice": "14684/20475", "random": "1817932/2027025"},
        "second": {"novice": "46127/92160", "random": "1063201/1290240"},
    }
    approximate = trap_arrays(four.result, method="float")
    assert np.array_equal(approximate.tier, four.tier)
    for book in (0, 1):
        want, got = four.probabilities(book), approximate.probabilities(book)
        for name in ("novice", "random"):
            assert np.abs(want[name] - got[name]).max() <= 1e-12


def test_4x4_ranked_against_random_and_the_documented_rows(four: TrapArrays) -> None:
    """docs/scaling.md's 4x4 rows, from the build alone (no oracle walks 4x4's millions of
    lines in Python): each ranking's rates as documented, each best against its own opponent,
    and only the order of the tiers changed."""
    targeted = trap_arrays(four.result, against="random")
    documented = documented_limits()
    assert (pair(four.first_player_rates), pair(four.second_player_rates)) == documented[
        ("4x4 k=4", "novice")
    ]
    assert (pair(targeted.first_player_rates), pair(targeted.second_player_rates)) == documented[
        ("4x4 k=4", "random")
    ]
    for side in ("first_player_rates", "second_player_rates"):
        novice, random = pair(getattr(four, side)), pair(getattr(targeted, side))
        assert novice[0] > random[0] and random[1] > novice[1], side  # (vs novice, vs random)
    assert np.array_equal(four.tier >= 0, targeted.tier >= 0)  # the same optimal moves


def test_3x4_levels_exact_prints_the_documented_limits(tmp_path: Path) -> None:
    """`ttt-book build --rules 3x4:3 --against random`, then `ttt-book levels --exact --book` on it
    (both rankings' perfect level, every game enumerated): docs/scaling.md's 3x4 rows."""
    from click.testing import CliRunner

    from tictactoe_generator.cli import main as book_cli

    path = tmp_path / "3x4-random.json"
    built = CliRunner().invoke(
        book_cli, ["build", "--rules", "3x4:3", "--against", "random", "-o", str(path)]
    )
    assert built.exit_code == 0, built.output
    result = CliRunner().invoke(book_cli, ["levels", "--exact", "--book", str(path)])
    assert result.exit_code == 0, result.output
    text = result.output
    for against, row in (("novice", "perfect"), ("random", "perfect --against random")):
        block = text.split(f"\n{row}\n", 1)[1].split("\n\n", 1)[0]
        first, second = documented_limits()[("3x4 k=3", against)]
        for side, (novice, random) in (("first", first), ("second", second)):
            assert f"{side + ',':<7} against random:  won {random}," in block, (against, side, block)
            assert f"{side + ',':<7} against novice:  won {novice}," in block, (against, side, block)


def test_4x4_build_at_a_terminal_shows_its_stages_and_writes_a_proven_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, record, vectors = tmp_path / "4x4.json", tmp_path / "proven.txt", tmp_path / "4x4.vectors.json"
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm", TTT_PROVEN_RECORD=str(record))
    argv = [
        "-c",
        "from tictactoe_generator.cli import run; run()",
        "build",
        "--rules",
        "4x4:4",
        "-o",
        str(path),
    ]
    argv += ["--vectors", str(vectors)]
    child = pexpect.spawn(sys.executable, argv, env=env, cwd=str(ROOT), encoding="utf-8", timeout=600)
    # a stage's bar shows once the stage has taken half a second: ordering the traps and
    # proving the book take seconds each on 4x4 (finding and solving the positions, under a
    # second: test_progress.py shows every stage's bar, without the wait)
    child.expect_exact("Ordering the traps")
    child.expect_exact("Proving the book")
    child.expect_exact(f"wrote {path}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    raw = path.read_bytes()
    assert len(raw) <= 48 * 2**20
    # the build proved the book before writing it, and recorded its digest
    assert record.read_text().split() == [hashlib.sha256(raw).hexdigest()]
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(record))
    assert load_book(path, rules=Rules(4, 4, 4)).trust == "recorded"
    # the player's own loader, with no record: the whole proof
    monkeypatch.setenv("TTT_PROVEN_RECORD", "")
    book = load_book(path, rules=Rules(4, 4, 4))
    assert book.trust == "proven"
    assert len(book) == 1_135_214
    counts = book.data["counts"]
    assert (counts["positions"], counts["canonical_positions"]) == (9_722_011, 1_217_977)
    start = book.evaluate("." * 16)
    assert (start.value, start.plies) == (0, 16)
    assert book.data["trap_order"] == {"method": "exact", "tolerance": "0"}
    # its vectors: a sample of the positions, which both readers pass
    sample = json.loads(vectors.read_bytes())
    assert sample["every_board"] is False and len(sample["valid"]) == 5000 + 400
    assert failures(book, sample) == []
    assert js_failures(path, vectors) == []


def test_4x4_built_against_random_plays_against_random(tmp_path: Path) -> None:
    """`ttt-book build --rules 4x4:4 --against random`, then ttt-play on it: a book file of a
    board no packaged book covers, played --against random (and its engine says so); its
    trap_rates are docs/scaling.md's 4x4 row ranked against random."""
    path = tmp_path / "4x4-random.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TTT_PROVEN_RECORD": ""}
    build = [sys.executable, "-c", "from tictactoe_generator.cli import run; run()", "build"]
    done = subprocess.run(
        [*build, "--rules", "4x4:4", "--against", "random", "-o", str(path), "--no-vectors"],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and "ranked against random" in done.stdout, done.stderr
    data = orjson.loads(path.read_bytes())
    assert data["trap_order"] == {"against": "random", "method": "exact", "tolerance": "0"}
    rates = data["trap_rates"]
    first, second = documented_limits()[("4x4 k=4", "random")]
    assert (Fraction(rates["first"]["novice"]), Fraction(rates["first"]["random"])) == first
    assert (Fraction(rates["second"]["novice"]), Fraction(rates["second"]["random"])) == second
    play = [sys.executable, "-c", "from tictactoe_book.apps.cli import run; run()", "--book", str(path)]
    done = subprocess.run(
        [*play, "--against", "random", "--engine"],
        input='{"op": "rules"}\n{"op": "choose", "board": "' + "." * 16 + '", "seed": 1}\n',
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rules, choice = (json.loads(line) for line in done.stdout.splitlines())
    assert rules["against"] == "random" and rules["cells"] == 16 and choice["ok"] is True
