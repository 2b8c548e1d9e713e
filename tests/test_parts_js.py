"""The JavaScript reader of books by parts (clients/js: openPartsBook from files, fetchPartsBook
over fetch) against the Python reader, on the folders ``ttt-book split`` writes: every answer is
the version-2 book's (Python's ``Book.evaluate``) and the first answers read as many parts as the
Python ``PartsBook`` does; past 16 cells, where no version-2 book exists, on books built by
layers (4x5 and 2x9, two in a row), every answer is the Python ``PartsBook``'s. (Damaged
folders: tests/test_parts_vectors.py runs this reader on the parts vectors, by files and by
fetch, through the same judge.) The node tests (clients/js/parts.test.js) cut their folders with
clients/js/make-parts.mjs: checked here to cut as ``ttt-book split`` does.

The JavaScript side is tests/parts_judge.mjs, one node process a test: it answers a list of
boards on a folder, by files or by fetch (the browser's way: Web Crypto and DecompressionStream).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import urllib.parse
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tictactoe_book import BoardError, load_book
from tictactoe_book.game import EMPTY, Rules
from tictactoe_book.parts import MANIFEST, PartsBook, load_parts
from tictactoe_book.reader import Book, Evaluation
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.layered import build_parts
from tictactoe_generator.parts import split_document

ROOT = Path(__file__).resolve().parent.parent
JUDGE = Path(__file__).resolve().parent / "parts_judge.mjs"
BOOKS = [
    "tictactoe.json",
    "tictactoe-misere.json",
    "tictactoe-vs-random.json",
    "tictactoe-misere-vs-random.json",
]
VIAS = ("files", "fetch")
BIN = Path(sys.executable).parent

Job = dict[str, Any]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed")
    return found


def judge(jobs: list[Job]) -> list[dict[str, Any]]:
    """tests/parts_judge.mjs's results on ``jobs`` ({folder, via, boards})."""
    done = subprocess.run(
        [node(), str(JUDGE)], input=json.dumps(jobs), capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def job(folder: Path, via: str, boards: list[tuple[str, str]]) -> Job:
    return {"folder": str(folder), "via": via, "boards": [list(board) for board in boards]}


def expected(book: Book, board: str, first: str) -> dict[str, Any]:
    """The version-2 book's answer, as the judge writes the JavaScript reader's."""
    found: Evaluation = book.evaluate(board, first=first)
    return {
        "value": found.value,
        "plies": found.plies,
        "turn": found.turn,
        "key": found.key,
        "scores": list(found.cell_scores),
        "tiers": [list(tier) for tier in found.tiers],
    }


def oriented(whole: Book, keys: list[str], seed: int) -> list[str]:
    """Each key turned by one of the book's symmetries, drawn at random (image[i] = key[perm[i]]):
    boards that are not canonical, whose answers the reader maps back."""
    rng = random.Random(seed)
    perms = [symmetry["perm"] for symmetry in whole.data["symmetries"]]
    return ["".join(key[cell] for cell in rng.choice(perms)) for key in keys]


def split_with_the_command(book: Path, folder: Path) -> Path:
    done = CliRunner().invoke(book_cli, ["split", "--book", str(book), str(folder)])
    assert done.exit_code == 0, done.output
    return folder


def assert_answers_as(whole: Book, folder: Path, boards: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The JavaScript reader, by files and by fetch, answers ``boards`` on ``folder`` as ``whole`` does."""
    wanted = [expected(whole, board, first) for board, first in boards]
    results = judge([job(folder, via, boards) for via in VIAS])
    for via, result in zip(VIAS, results, strict=True):
        assert "answers" in result, (via, result)
        for (board, first), answer, want in zip(boards, result["answers"], wanted, strict=True):
            assert answer == want, (via, board, first)
    return results


# ---------------------------------------------------------------- the same answers


@pytest.mark.parametrize("name", BOOKS)
def test_every_canonical_position_of_a_packaged_book_split_answers_as_the_version_2_book(
    name: str, tmp_path: Path
) -> None:
    whole = load_book(ROOT / "book" / name)
    folder = split_with_the_command(ROOT / "book" / name, tmp_path / "parts")
    keys = whole.canonical_keys()
    boards = [(key, "X") for key in keys] + [(board, "X") for board in oriented(whole, keys, 1)]
    if name == "tictactoe.json":  # every orientation, O-first games among them
        vectors = json.loads((ROOT / "book" / "vectors.json").read_bytes())
        boards += [(vector["board"], vector["first"]) for vector in vectors["valid"]]
    assert_answers_as(whole, folder, boards)


#: 3x4 k=3's 20,088 canonical positions: every 8th in make test's selection, all with -m big (as
#: tests/test_parts.py does).
STRIDES = [8, pytest.param(1, marks=pytest.mark.big)]


@pytest.mark.parametrize("stride", STRIDES)
def test_3x4_by_parts_answers_as_the_version_2_book(stride: int, book_3x4_path: Path, tmp_path: Path) -> None:
    whole = load_book(book_3x4_path)
    folder = split_with_the_command(book_3x4_path, tmp_path / "parts")
    keys = whole.canonical_keys()[::stride]
    # the keys, each turned by a symmetry, and some as an O-first game holds them (marks swapped)
    boards = [(key, "X") for key in keys] + [(board, "X") for board in oriented(whole, keys, 2)]
    boards += [(swap(board), "O") for board in oriented(whole, keys[::5], 3)]
    assert_answers_as(whole, folder, boards)


def swap(board: str) -> str:
    return board.translate(str.maketrans("XO", "OX"))


def test_a_first_answer_reads_the_parts_the_python_reader_reads(tmp_path: Path) -> None:
    """The parts each reader reads for the same questions, asked in the same order (by files and
    by fetch); the bytes read are those parts' lengths in the manifest."""
    folder = split_with_the_command(ROOT / "book" / "tictactoe.json", tmp_path / "parts")
    manifest = json.loads((folder / MANIFEST).read_bytes())
    for questions in ([EMPTY * 9], ["....X....", "X...O...."], ["XX..OO..."]):
        python = load_parts(folder)
        for board in questions:
            python.evaluate(board)
        read = sum(manifest["parts"][place]["bytes"] for place in python.texts.cached)
        boards = [(board, "X") for board in questions]
        for result in judge([job(folder, via, boards) for via in VIAS]):
            assert (result["reads"], result["bytesRead"]) == (python.texts.reads, read), questions


# ---------------------------------------------------------------- past 16 cells: built by layers


@pytest.fixture(scope="module")
def built_by_layers(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The folder of the book by parts of the rules spelt ``spelling`` ("4x5:2"), built by layers
    (tictactoe_generator.parts.build_parts, as ``ttt-book build --parts``) once a module."""
    folders: dict[str, Path] = {}

    def build(spelling: str) -> Path:
        if spelling not in folders:
            folder = tmp_path_factory.mktemp(spelling.replace(":", "-k"))
            for name, data in build_parts(Rules.parse(spelling)).items():
                (folder / name).write_bytes(data)
            folders[spelling] = folder
        return folders[spelling]

    return build


#: Boards past a whole-file book's 16 cells: 4x5 k=2 (20 cells, 79,872 entries: 31 parts) and 2x9
#: k=2 (18 cells, 32,813 entries), about 5 s and 3 s to build. An answer by parts costs about
#: 1.6 ms in Python and 0.5 ms in Node (each checks its entry against its successors; 2 shared
#: cores): every 24th and every 12th key in make test's selection, every key with -m big (over
#: two minutes for 4x5).
WIDE = [
    ("4x5:2", 24),
    ("2x9:2", 12),
    pytest.param("4x5:2", 1, marks=pytest.mark.big),
    pytest.param("2x9:2", 1, marks=pytest.mark.big),
]


@pytest.mark.parametrize(("spelling", "stride"), WIDE)
def test_a_book_by_parts_past_16_cells_answers_as_the_python_reader(
    spelling: str, stride: int, built_by_layers: Callable[[str], Path]
) -> None:
    """The JavaScript reader, by files and by fetch, answers as the Python ``PartsBook`` on a
    book built by layers: its keys (by layer, then key, as a game asks them), each turned by a
    symmetry, and some as an O-first game holds them; and its first answers read the parts the
    Python reader reads."""
    folder = built_by_layers(spelling)
    python = load_book(folder)
    assert isinstance(python, PartsBook) and python.rules.cells > 16
    keys = list(python.texts)[::stride]
    boards = [(key, "X") for key in keys] + [(board, "X") for board in oriented(python, keys, 4)]
    boards += [(swap(board), "O") for board in oriented(python, keys[::5], 5)]
    assert_answers_as(python, folder, boards)
    cells = python.rules.cells
    for board in (EMPTY * cells, "X" + EMPTY * (cells - 2) + "O"):
        fresh = load_parts(folder)
        fresh.evaluate(board)
        for result in judge([job(folder, via, [(board, "X")]) for via in VIAS]):
            assert result["reads"] == fresh.texts.reads, (board, result)


# ---------------------------------------------------------------- the node tests' writer


WRITER = """
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { splitBook } from './clients/js/make-parts.mjs';
const files = splitBook(JSON.parse(readFileSync(process.argv[1], 'utf8')));
const out = {};
for (const [name, bytes] of files) {
  out[name] = name === 'manifest.json' ? new TextDecoder().decode(bytes) : inflateSync(bytes).toString();
}
process.stdout.write(JSON.stringify(out));
"""


def readable(files: dict[str, bytes]) -> dict[str, Any]:
    """A book by parts' files as what they say: the manifest's members without the parts'
    bytes and hashes (those of one zlib), and each part's text."""
    manifest = json.loads(files[MANIFEST])
    for part in manifest["parts"]:
        del part["bytes"], part["sha256"]
    said: dict[str, Any] = {
        name: zlib.decompress(data).decode("latin-1") for name, data in files.items() if name != MANIFEST
    }
    return said | {MANIFEST: manifest}


@pytest.mark.parametrize("name", ["tictactoe.json", "3x4"])
def test_the_node_tests_writer_cuts_a_book_as_ttt_book_split_does(name: str, book_3x4_path: Path) -> None:
    path = book_3x4_path if name == "3x4" else ROOT / "book" / name
    done = subprocess.run(
        [node(), "--input-type=module", "-e", WRITER, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    by_node = json.loads(done.stdout)
    by_node[MANIFEST] = json.loads(by_node[MANIFEST])
    for part in by_node[MANIFEST]["parts"]:
        del part["bytes"], part["sha256"]
    assert by_node == readable(split_document(load_book(path).data))


# ---------------------------------------------------------------- 4x4 (make test-big)


@pytest.fixture(scope="module")
def split_4x4(v2_4x4: Book, parts_4x4: Path) -> tuple[Book, Path]:
    """The 4x4 k=4 book (conftest's, built once for make test-big) and its folder by parts."""
    assert v2_4x4.rules == Rules(4, 4, 4)
    return v2_4x4, parts_4x4


def played(whole: Book, rng: random.Random, first: str) -> list[tuple[str, str]]:
    """The boards of one random game of ``whole``'s rules, each as the game holds it."""
    boards, board = [], EMPTY * whole.rules.cells
    while True:
        try:
            evaluation = whole.evaluate(board, first=first)
        except BoardError:  # the game is over
            return boards
        boards.append((board, first))
        cell = rng.choice([c for c, s in enumerate(evaluation.cell_scores) if s is not None])
        mark = evaluation.turn
        board = board[:cell] + mark + board[cell + 1 :]


@pytest.mark.big
def test_4x4_by_parts_answers_a_sample_of_positions_as_the_version_2_book(
    split_4x4: tuple[Book, Path],
) -> None:
    """3,000 canonical positions drawn at random and the boards of 40 random games (half of them
    O-first), by files and by fetch; and the first answer's parts, as the Python reader reads."""
    whole, folder = split_4x4
    rng = random.Random(37)
    # asked by layer, then key, as a game asks them (parts held are used again; in the order
    # drawn, nearly every answer read its parts anew: minutes instead of seconds)
    keys = sorted(rng.sample(whole.canonical_keys(), 3000), key=lambda key: (key.count(EMPTY), key))
    boards = [(key, "X") for key in keys]
    for game in range(40):
        boards += played(whole, rng, "XO"[game % 2])
    assert_answers_as(whole, folder, boards)
    for board in (EMPTY * 16, "X....O....X....."):
        python = load_parts(folder)
        python.evaluate(board)
        (first,) = judge([job(folder, "files", [(board, "X")])])
        assert first["reads"] == python.texts.reads, board


# ---------------------------------------------------------------- served by web/serve.py


def test_a_book_by_parts_served_by_web_serve_py_is_read_over_http(tmp_path: Path) -> None:
    """``web/serve.py --book FOLDER`` serves the manifest and the parts by plain GETs; the
    browser's reader (fetchPartsBook, with Node's fetch) answers from them as the version-2 book."""
    whole = load_book(ROOT / "book" / "tictactoe-misere.json")
    folder = split_with_the_command(ROOT / "book" / "tictactoe-misere.json", tmp_path / "misère parts")
    boards = [(key, "X") for key in whole.canonical_keys()[::3]]
    serve = [sys.executable, str(ROOT / "web" / "serve.py"), "--port", "0", "--book", str(folder)]
    server = subprocess.Popen(serve, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # "Serving the page on ORIGIN/web/?book=PATH (Ctrl-C to stop)"
        page = urllib.parse.urlsplit(line.split(" on ", 1)[1].split(" ", 1)[0])
        address = f"{page.scheme}://{page.netloc}{urllib.parse.unquote(page.query.removeprefix('book='))}"
        assert address.endswith("/user/mis%C3%A8re%20parts/"), line
        (result,) = judge([{"url": address, "via": "http", "boards": [list(board) for board in boards]}])
    finally:
        server.terminate()
        server.wait(10)
        if server.stdout is not None:
            server.stdout.close()
    assert result.get("answers") == [expected(whole, board, first) for board, first in boards], result
