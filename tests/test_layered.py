"""The build by layers (tictactoe_generator.layered, ``ttt-book build --parts``): the same
files as the version-2 build split into parts, on every board small enough to build both ways;
its work folder left empty; codes past 16 cells canonical as the game's own rule says; and the
command's refusals."""

from __future__ import annotations

import fcntl
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tictactoe_book import load_book
from tictactoe_book.codes import board_codes
from tictactoe_book.game import EMPTY, FIRST, SECOND, Rules, canonical
from tictactoe_book.parts import MANIFEST, PartsBook
from tictactoe_book.reader import Book
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.codes import canonical_codes, code_symmetries, code_type, decode
from tictactoe_generator.layered import WORK_PREFIX, build_by_layers, work_folder
from tictactoe_generator.parts import PART_ENTRIES, split_document
from tictactoe_generator.writer import build_book


@pytest.mark.parametrize(
    ("rules", "against"),
    [
        (Rules(3, 3, 3), "novice"),
        (Rules(3, 3, 3), "random"),
        (Rules(3, 3, 3, misere=True), "novice"),
        (Rules(3, 3, 3, misere=True), "random"),
        (Rules(2, 4, 2), "novice"),
        (Rules(3, 4, 3), "novice"),
        (Rules(4, 3, 3), "random"),
        (Rules(1, 7, 3, misere=True), "novice"),
    ],
    ids=str,
)
def test_the_layers_build_what_splitting_the_version_2_book_gives(
    rules: Rules, against: str, tmp_path: Path
) -> None:
    built = build_by_layers(rules, tmp_path, against=against)
    assert built == split_document(build_book(rules, against=against))
    assert list(tmp_path.iterdir()) == []  # every layer's arrays dropped


@pytest.mark.parametrize("rules", [Rules(3, 4, 3), Rules(2, 7, 3, misere=True)], ids=str)
def test_blocks_of_one_part_build_the_same_files(rules: Rules, tmp_path: Path) -> None:
    """Layers cut in blocks of PART_ENTRIES rows (2 a layer at most on 3x4, up to 14 on 2x7): the
    children of several blocks shuffled by ranges of codes, the moves into a position found in
    several blocks summed, parts cut across blocks; the files are those of one block a layer."""
    built = build_by_layers(rules, tmp_path, block=PART_ENTRIES)
    assert built == split_document(build_book(rules))
    assert list(tmp_path.iterdir()) == []


def test_the_layers_wait_on_disk_between_the_passes(tmp_path: Path) -> None:
    seen: set[str] = set()

    def progress(stage: str, done: int, total: int) -> None:
        seen.update(path.name for path in tmp_path.iterdir())

    build_by_layers(Rules(3, 3, 3), tmp_path, progress=progress)
    # every layer's codes, statuses and candidates, and the successors of all but the last
    assert {f"{m:02d}-codes.npy" for m in range(10)} <= seen
    assert {f"{m:02d}-table.npy" for m in range(9)} <= seen and "09-table.npy" not in seen
    assert {f"{m:02d}-candidates-random.npy" for m in range(10)} <= seen


@pytest.mark.parametrize("rules", [Rules(4, 5, 4), Rules(5, 4, 4), Rules(2, 10, 3), Rules(1, 20, 4)], ids=str)
def test_codes_past_16_cells_are_canonical_as_the_game_says(rules: Rules) -> None:
    assert code_type(rules.cells) is np.uint64
    rng = random.Random(rules.cells * 7 + rules.rows)
    boards = ["".join(rng.choice((EMPTY, FIRST, SECOND)) for _ in range(rules.cells)) for _ in range(300)]
    code = board_codes(rules).code
    codes = np.array([code(board) for board in boards], dtype=np.uint64)
    assert decode(codes, rules.cells) == boards
    got = decode(canonical_codes(code_symmetries(rules), codes), rules.cells)
    assert got == [canonical(rules, board)[0] for board in boards]


def test_ttt_book_build_parts_writes_a_folder_that_answers_as_the_version_2_book(
    tmp_path: Path, book_3x4_path: Path
) -> None:
    done = CliRunner().invoke(book_cli, ["build", "--rules", "3x4:3", "--parts", "-o", str(tmp_path / "b")])
    assert done.exit_code == 0, done.output
    assert "parts and manifest.json" in done.output and "3x4 k=3" in done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]  # no work folder left beside it
    parts = load_book(tmp_path / "b")
    assert isinstance(parts, PartsBook) and (tmp_path / "b" / MANIFEST).is_file()
    whole: Book = load_book(book_3x4_path)
    rng = random.Random(34)
    keys = rng.sample(sorted(whole.data["entries"]), 200)
    for key in keys:
        assert parts.evaluate(key) == whole.evaluate(key), key


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rules", "4x5:4", "-o", "b.json"], "4x5 k=4 has 20 cells; at most 16 in a book in one file"),
        (["--rules", "5x5:4", "--parts", "-o", "b"], "board 5x5 has 25 cells; at most 20"),
        (["--parts"], "--parts writes a folder: name it with -o FOLDER"),
        (["--parts", "-o", "b", "--vectors", "v.json"], "--vectors is for a book in one file"),
        (["--parts", "-o", "b", "--against-program", "--", "true"], "--parts and --against-program"),
    ],
)
def test_ttt_book_build_parts_refusals_are_one_line(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(book_cli, ["build", *args])
    assert done.exit_code == 2 and words in done.output, done.output
    assert list(tmp_path.iterdir()) == []


def test_a_file_where_the_folder_should_be_is_refused_before_the_build(tmp_path: Path) -> None:
    (tmp_path / "b").write_text("keep")
    done = CliRunner().invoke(book_cli, ["build", "--rules", "3x4:3", "--parts", "-o", str(tmp_path / "b")])
    assert done.exit_code != 0 and "not a folder" in done.output, done.output
    assert (tmp_path / "b").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


@pytest.mark.big
def test_4x4_by_layers_is_the_version_2_book_split(parts_4x4: Path, tmp_path: Path) -> None:
    built = build_by_layers(Rules(4, 4, 4), tmp_path)
    assert built == {path.name: path.read_bytes() for path in parts_4x4.iterdir()}


def test_a_build_removes_the_work_folders_no_build_holds(tmp_path: Path) -> None:
    """A build killed with SIGKILL leaves its layers behind; the next build beside it removes
    them, not those of a build still at work (it holds its folder's flock)."""
    stale = tmp_path / f"{WORK_PREFIX}killed"
    stale.mkdir()
    (stale / "12-table.npy").write_bytes(b"x" * 100)
    held = tmp_path / f"{WORK_PREFIX}alive"
    held.mkdir()
    fd = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        seen = []
        with work_folder(tmp_path) as work:
            seen = sorted(p.name for p in tmp_path.iterdir())
            assert work.is_dir() and work.name.startswith(WORK_PREFIX)
        assert f"{WORK_PREFIX}killed" not in seen and f"{WORK_PREFIX}alive" in seen
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"{WORK_PREFIX}alive"]  # its own removed
    finally:
        os.close(fd)


def test_counts_past_what_strict_json_holds_are_written_as_strings() -> None:
    """4x5's games and game-tree nodes pass 2^53 - 1: both readers refused its manifest as not
    strict JSON until the writer wrote them as their digits (docs/book-format.md, counts)."""
    from tictactoe_book.reader import parse_json
    from tictactoe_generator.solve import Counts, Outcomes
    from tictactoe_generator.writer import counts_of

    big = 2**53
    counts = Counts(
        reachable=10, unfinished=6, finished=4, canonical=5, canonical_unfinished=3,
        canonical_finished=2, tree_nodes=big + 1, games=Outcomes(big - 1, 1, 2),
    )  # fmt: skip
    stated = counts_of(counts)
    assert stated["tree_nodes"] == str(big + 1) and stated["games"] == str(big + 2)
    assert stated["first_wins"] == big - 1 and stated["entries"] == 3  # within: integers
    parse_json(json.dumps({"counts": stated}).encode(), "counts")  # strict JSON
