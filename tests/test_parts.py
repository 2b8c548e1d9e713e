"""A book by parts (docs/book-parts.md, format version 3): it answers exactly as the version-2
book it was split from, reads only the parts a position needs, refuses a damaged entry in the
version-2 proof's words, and rebuilds to the same bytes. (Damaged books by parts, refused with
the documented code naming the part by every reader: tests/test_parts_vectors.py.)"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from parts_vectors import write_case

from tictactoe_book import BookError, load_book
from tictactoe_book.game import Rules
from tictactoe_book.parts import MANIFEST, PartsBook, load_parts
from tictactoe_book.parts_proof import prove_parts
from tictactoe_book.reader import Book, parse_book
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.layered import build_parts
from tictactoe_generator.parts import split_document

ROOT = Path(__file__).resolve().parent.parent
BOOK_3X3 = ROOT / "book" / "tictactoe.json"


def split_into(book: Book, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in split_document(book.data).items():
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture(scope="module")
def v2_3x3() -> Book:
    return load_book(BOOK_3X3)


@pytest.fixture(scope="module")
def v2_3x4(book_3x4_path: Path) -> Book:
    return load_book(book_3x4_path)


@pytest.fixture
def folder(v2_3x3: Book, tmp_path: Path) -> Path:
    """The packaged 3x3 book by parts, in a folder of the test's own."""
    return split_into(v2_3x3, tmp_path / "parts")


# ---------------------------------------------------------------- the same answers


#: Every canonical position of 3x3; of 3x4's 20,088, every 8th in make test's selection (an
#: answer by parts checks its entry against its successors: about 1 ms), all with -m big.
STRIDES = [("3x3", 1), ("3x4", 8), pytest.param("3x4", 1, marks=pytest.mark.big)]


@pytest.mark.parametrize(("rules", "stride"), STRIDES)
def test_every_canonical_position_answers_as_the_version_2_book(
    rules: str, stride: int, v2_3x3: Book, v2_3x4: Book, tmp_path: Path
) -> None:
    whole = v2_3x3 if rules == "3x3" else v2_3x4
    parts = load_book(split_into(whole, tmp_path / rules))
    assert isinstance(parts, PartsBook) and parts.trust == "parts"
    assert (parts.rules, parts.against, len(parts)) == (whole.rules, whole.against, len(whole))
    for key in whole.canonical_keys()[::stride]:
        assert parts.evaluate(key) == whole.evaluate(key), key
    assert sorted(parts.canonical_keys()) == sorted(whole.canonical_keys())


def test_every_board_of_the_vectors_answers_as_the_version_2_book(v2_3x3: Book, folder: Path) -> None:
    """Boards in every orientation, O-first games among them: the same Evaluation, move for move."""
    parts = load_book(folder)
    vectors = json.loads((ROOT / "book" / "vectors.json").read_bytes())
    for vector in vectors["valid"]:
        board, first = vector["board"], vector["first"]
        assert parts.evaluate(board, first=first) == v2_3x3.evaluate(board, first=first)
        assert parts.best_moves(board, first=first) == tuple(vector["top"])
        assert parts.optimal_moves(board, first=first) == tuple(vector["optimal"])


def test_opening_reads_the_manifest_alone_and_an_answer_only_the_parts_it_needs(folder: Path) -> None:
    #   . . .
    #   . . .      X to move: the empty board's part (layer 0) and its successors' (layer 1)
    #   . . .
    book = load_parts(folder)
    assert book.texts.reads == 0
    assert book.best_moves(".........") == (0, 2, 6, 8)
    assert book.texts.reads == 2 and set(book.texts.cached) == {0, 1}
    book.evaluate("....X....")  # layer 1 is cached: layer 2 more
    assert book.texts.reads == 3


def test_load_book_takes_the_folder_or_its_manifest_and_the_callers_rules(folder: Path) -> None:
    assert isinstance(load_book(folder / MANIFEST), PartsBook)
    assert isinstance(load_book(folder, rules=Rules(3, 3, 3), against="novice"), PartsBook)
    with pytest.raises(BookError) as caught:
        load_book(folder, rules=Rules(3, 4, 3))
    assert caught.value.code == "rules"
    with pytest.raises(ValueError, match="against novice, not random"):
        load_book(folder, against="random")


# ---------------------------------------------------------------- damage


#: The damaged books by parts are the parts vectors' cases (tests/parts_vectors.py, the one
#: definition; tests/test_parts_vectors.py runs every reader on them). Three damage an entry as the
#: version-2 book's could be damaged: the proof by parts says what the version-2 proof says.
#   . . .
#   . . X      X to move (layer 4): X wins at once at cell 2 (best score 9), "9 2"
#   O O X
EDITED = ".....XOOX"
V2_EDITS: dict[str, Callable[[dict[str, str]], None]] = {
    "entry-wrong-by-one": lambda entries: entries.update({EDITED: "8 2"}),
    "entry-misshapen": lambda entries: entries.update({EDITED: "9 02"}),
    "entry-missing": lambda entries: entries.pop(EDITED) and None,
}


@pytest.mark.parametrize("damage", V2_EDITS)
def test_an_entry_damaged_is_refused_in_the_version_2_proofs_words(
    damage: str, v2_3x3: Book, tmp_path: Path
) -> None:
    """The same code and reason, word for word (the part aside), as the version-2 book damaged alike."""
    folder = write_case(damage, tmp_path / "parts")
    with pytest.raises(BookError) as proved:
        prove_parts(folder)
    data = json.loads(json.dumps(v2_3x3.data))
    V2_EDITS[damage](data["entries"])
    data["counts"]["entries"] = len(data["entries"])
    with pytest.raises(BookError) as whole:
        parse_book(json.dumps(data).encode())
    assert (whole.value.code, whole.value.reason) == (proved.value.code, proved.value.reason)
    assert EDITED in proved.value.reason


def test_the_versions_refuse_each_other(folder: Path, v2_3x3: Book) -> None:
    with pytest.raises(BookError) as caught:
        parse_book((folder / MANIFEST).read_bytes())
    assert caught.value.code == "version" and "this reader reads 2" in str(caught.value)
    shutil.copy(BOOK_3X3, folder / MANIFEST)
    with pytest.raises(BookError) as refused:
        load_book(folder)
    assert refused.value.code == "version" and "this reader reads 3" in str(refused.value)


# ---------------------------------------------------------------- the bytes


def test_the_build_writes_what_splitting_the_version_2_book_gives(v2_3x3: Book) -> None:
    built = build_parts(Rules(3, 3, 3))
    assert built == split_document(v2_3x3.data)
    assert built == build_parts(Rules(3, 3, 3))  # deterministic
    header = json.loads(built[MANIFEST])
    assert header["version"] == 3 and "entries" not in header
    assert {k: v for k, v in header.items() if k not in ("version", "parts")} == {
        k: v for k, v in v2_3x3.data.items() if k not in ("version", "entries")
    }


def test_split_writes_the_folder_and_verify_proves_it(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(book_cli, ["split", str(tmp_path / "p")])
    assert done.exit_code == 0, done.output
    assert "9 parts and manifest.json" in done.output
    first = {path.name: path.read_bytes() for path in (tmp_path / "p").iterdir()}
    again = runner.invoke(book_cli, ["split", "--book", str(BOOK_3X3), str(tmp_path / "q")])
    assert again.exit_code == 0
    assert {path.name: path.read_bytes() for path in (tmp_path / "q").iterdir()} == first
    verified = runner.invoke(book_cli, ["verify", str(tmp_path / "p")])
    assert verified.exit_code == 0, verified.output
    assert "valid — every one of 627 entries proven" in verified.output
    assert "bytes as built" in verified.output


def test_ttt_play_and_ttt_book_query_take_the_folder_as_they_take_the_book(folder: Path) -> None:
    from tictactoe_book.apps.cli import main as play_cli

    runner = CliRunner()
    for command, head, words in (
        (play_cli, [], ["--moves", "5,1,6", "--seed", "1", "--json"]),
        (book_cli, ["query"], ["--json", "--first", "O", "OO.X....."]),
    ):
        whole = runner.invoke(command, [*head, "--book", str(BOOK_3X3), *words])
        by_parts = runner.invoke(command, [*head, "--book", str(folder), *words])
        assert (by_parts.exit_code, by_parts.output) == (whole.exit_code, whole.output)
