"""A book by parts (docs/book-parts.md, format version 3): it answers exactly as the version-2
book it was split from, reads only the parts a position needs, refuses a damaged part with the
documented code naming the part in the loader and in ``ttt-book verify``, and rebuilds to the
same bytes."""

from __future__ import annotations

import hashlib
import json
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from tictactoe_book import BookError, load_book
from tictactoe_book.game import Rules
from tictactoe_book.parts import MANIFEST, PartsBook, load_parts
from tictactoe_book.parts_proof import prove_parts
from tictactoe_book.reader import Book, parse_book
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.layered import build_parts
from tictactoe_generator.parts import split_document
from tictactoe_generator.verify import verify_book

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


def manifest(folder: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((folder / MANIFEST).read_bytes())
    return data


def part_named(folder: Path, layer: int) -> Path:
    return folder / f"{layer:02d}-00000.part"


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


def rehash(folder: Path, name: str) -> None:
    """The manifest made to name ``name``'s present bytes: damage only the proof can see."""
    data = manifest(folder)
    parts = data["parts"]
    assert isinstance(parts, list)
    for part in parts:
        if part["file"] == name:
            raw = (folder / name).read_bytes()
            part["bytes"], part["sha256"] = len(raw), hashlib.sha256(raw).hexdigest()
    (folder / MANIFEST).write_bytes(json.dumps(data).encode())


def edit_part(folder: Path, layer: int, edit: Callable[[str], str]) -> None:
    path = part_named(folder, layer)
    path.write_bytes(zlib.compress(edit(zlib.decompress(path.read_bytes()).decode()).encode()))
    rehash(folder, path.name)


def flip_a_byte(folder: Path) -> None:
    path = part_named(folder, 5)
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))


def truncate(folder: Path) -> None:
    path = part_named(folder, 5)
    path.write_bytes(path.read_bytes()[:-7])


def swap_parts(folder: Path) -> None:
    one, two = part_named(folder, 5), part_named(folder, 6)
    first = one.read_bytes()
    one.write_bytes(two.read_bytes())
    two.write_bytes(first)


def wrong_manifest_hash(folder: Path) -> None:
    text = (folder / MANIFEST).read_text()
    digest = hashlib.sha256(part_named(folder, 5).read_bytes()).hexdigest()
    (folder / MANIFEST).write_text(text.replace(digest, "0" * 64))


def missing_part(folder: Path) -> None:
    part_named(folder, 5).unlink()


def not_zlib(folder: Path) -> None:
    part_named(folder, 5).write_bytes(b"not a zlib stream\n")
    rehash(folder, part_named(folder, 5).name)


def keys_out_of_order(folder: Path) -> None:
    def reverse_middle(text: str) -> str:
        lines = text.splitlines(keepends=True)
        lines[1], lines[2] = lines[2], lines[1]
        return "".join(lines)

    edit_part(folder, 5, reverse_middle)


#   . . .
#   . . X      X to move (layer 4): X wins at once at cell 2 (best score 9); edited below
#   O O X
EDITED = ".....XOOX"


def entry_wrong_by_one(folder: Path) -> None:
    edit_part(folder, 4, lambda text: text.replace(f"{EDITED} 9 2\n", f"{EDITED} 8 2\n"))


def entry_misshapen(folder: Path) -> None:
    edit_part(folder, 4, lambda text: text.replace(f"{EDITED} 9 2\n", f"{EDITED} 9 02\n"))


def entry_missing(folder: Path) -> None:
    edit_part(folder, 4, lambda text: text.replace(f"{EDITED} 9 2\n", ""))
    data = manifest(folder)
    parts, counts = data["parts"], data["counts"]
    assert isinstance(parts, list) and isinstance(counts, dict)
    parts[4]["entries"] -= 1
    counts["entries"] -= 1
    (folder / MANIFEST).write_bytes(json.dumps(data).encode())


#: The same damage to the version-2 book's entries: the same code and words (the part aside)
V2_EDITS: dict[str, Callable[[dict[str, str]], None]] = {
    "entry-wrong-by-one": lambda entries: entries.update({EDITED: "8 2"}),
    "entry-misshapen": lambda entries: entries.update({EDITED: "9 02"}),
    "entry-missing": lambda entries: entries.pop(EDITED) and None,
}


def parts_overlap(folder: Path) -> None:
    data = manifest(folder)
    parts = data["parts"]
    assert isinstance(parts, list)
    parts[5], parts[6] = parts[6], parts[5]
    (folder / MANIFEST).write_bytes(json.dumps(data).encode())


DAMAGE = {
    "flip-a-byte": (flip_a_byte, "part-hash", "05-00000.part"),
    "truncated": (truncate, "part-hash", "05-00000.part"),
    "parts-swapped": (swap_parts, "part-hash", "05-00000.part"),
    "wrong-manifest-hash": (wrong_manifest_hash, "part-hash", "05-00000.part"),
    "missing-part": (missing_part, "part-missing", "05-00000.part"),
    "not-zlib": (not_zlib, "part-format", "05-00000.part"),
    "keys-out-of-order": (keys_out_of_order, "part-format", "05-00000.part"),
    "entry-misshapen": (entry_misshapen, "entry-shape", f"04-00000.part: entry {EDITED!r}"),
    "entry-missing": (entry_missing, "missing-entry", f"03-00000.part: has no entry {EDITED!r}"),
    "entry-wrong-by-one": (entry_wrong_by_one, "entry-inconsistent", "-00000.part: entry '"),
    "parts-out-of-order": (parts_overlap, "parts", "manifest.json: has part"),
}
#: A board that needs each damaged part: its successors lie in layer 5 (or it is the edited entry)
ASKED = {"entry-missing": ".....O.XX", "entry-wrong-by-one": EDITED, "entry-misshapen": EDITED}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_book_by_parts_is_refused_with_its_code_naming_the_part(
    damage: str, folder: Path, v2_3x3: Book
) -> None:
    edit, code, named = DAMAGE[damage]
    edit(folder)
    # the loader: when the damaged part is first needed
    with pytest.raises(BookError) as caught:
        load_book(folder).evaluate(ASKED.get(damage, "XX..OO..."))
    assert caught.value.code == code and named in str(caught.value), str(caught.value)
    # the proof by parts, and ttt-book verify
    with pytest.raises(BookError) as proved:
        prove_parts(folder)
    assert proved.value.code == code and named in str(proved.value), str(proved.value)
    if damage in V2_EDITS:  # the version-2 book damaged alike: the same finding, word for word
        data = json.loads(json.dumps(v2_3x3.data))
        V2_EDITS[damage](data["entries"])
        data["counts"]["entries"] = len(data["entries"])
        with pytest.raises(BookError) as whole:
            parse_book(json.dumps(data).encode())
        assert (whole.value.code, whole.value.reason) == (code, proved.value.reason)
    report = verify_book(folder)
    assert report.invalid is not None and report.invalid.code == code
    result = CliRunner().invoke(book_cli, ["verify", str(folder)])
    assert result.exit_code == 1 and f"INVALID [{code}]" in result.output


def test_undamaged_parts_still_answer_beside_a_damaged_one(folder: Path) -> None:
    flip_a_byte(folder)
    book = load_book(folder)
    assert book.best_moves(".........") == (0, 2, 6, 8)  # layers 0 and 1 only


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
