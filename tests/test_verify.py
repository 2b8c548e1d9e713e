"""``ttt-book verify`` passes the shipped book and fails on every kind of damage."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tictactoe_book import BookError, load_book
from tictactoe_generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book" / "tictactoe.json"


def verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.output


def test_the_shipped_book_verifies() -> None:
    code, out = verify(BOOK)
    assert code == 0, out
    assert "valid — every one of 627 entries proven" in out
    assert "trap order, counts, trap_rates and bytes as built" in out


def test_verify_with_no_path_checks_every_packaged_book() -> None:
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in lines] == [
        "tictactoe.json",
        "tictactoe-misere.json",
        "tictactoe-vs-random.json",
        "tictactoe-misere-vs-random.json",
    ]
    assert all("627 entries proven" in line and line.endswith("bytes as built") for line in lines)


def packaged_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The packaged books copied into ``folder``, and ``default_book_path`` pointing there."""
    import tictactoe_book.reader

    for name in tictactoe_book.reader.PACKAGED.values():
        (folder / name).write_bytes((ROOT / "book" / name).read_bytes())
    monkeypatch.setattr(
        tictactoe_book.reader,
        "default_book_path",
        lambda *, misere=False, against="novice": str(
            folder / tictactoe_book.reader.PACKAGED[misere, against]
        ),
    )


def test_verify_with_no_path_fails_when_one_packaged_book_is_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The misère book damaged (its first tier's move moved to a non-optimal cell): status 1,
    the 3x3 book still reported valid."""

    packaged_in(tmp_path, monkeypatch)
    damaged = json.loads((ROOT / "book" / "tictactoe-misere.json").read_bytes())
    damaged["entries"]["." * 9] = "0 0"  # the centre is the only first move that does not lose
    (tmp_path / "tictactoe-misere.json").write_text(json.dumps(damaged))
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 1, result.output
    first, second, *others = result.output.splitlines()
    assert first.endswith("bytes as built") and all(line.endswith("bytes as built") for line in others)
    assert "INVALID [entry-inconsistent]" in second


def test_verify_with_no_path_proves_a_packaged_book_whose_record_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, 2.10: the packaged book replaced by a forged one, with a CRC-32 record that
    matches it (whoever can write the package can write both; four bytes of padding would match
    the old record as well). ``load_book()`` trusts the record; ``ttt-book verify`` proves the
    packaged books and refuses it."""
    import tictactoe_book.reader

    # . . .
    # . . .      "........X": O's centre (the only draw) made a loser, every other cell claimed
    # . . X      as the draws
    forged = BOOK.read_bytes().replace(b'"........X":"0 4"', b'"........X":"0 0,1,2,3,5,6,7"', 1)
    packaged_in(tmp_path, monkeypatch)
    (tmp_path / "tictactoe.json").write_bytes(forged)
    for name in tictactoe_book.reader.PACKAGED.values():
        raw = (tmp_path / name).read_bytes()
        (tmp_path / f"{name}.crc32").write_text(f"{zlib.crc32(raw):08x}\n")  # as make book writes it
    assert load_book().trust == "packaged"  # the record matches: the player would play it unproven
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{tmp_path / 'tictactoe.json'}: INVALID [entry-inconsistent] " + (
        "entry '........X': tiers [[0, 1, 2, 3, 5, 6, 7]] are not exactly its best moves [4]"
    ), result.output
    assert len(lines) == 4 and all(line.endswith("bytes as built") for line in lines[1:]), result.output


def edit(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        data = json.loads(BOOK.read_bytes())
        change(data)
        path = tmp / "damaged.json"
        path.write_text(json.dumps(data))
        return path

    return make


def set_in(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def raw(text_change: Callable[[str], str]) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        path = tmp / "damaged.json"
        path.write_text(text_change(BOOK.read_text()))
        return path

    return make


def drop_entry(data: dict[str, Any]) -> None:
    data["entries"].pop("........X")
    data["counts"]["entries"] -= 1


def add_entry(key: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["entries"][key] = data["entries"]["........X"]
        data["counts"]["entries"] += 1

    return change


#: Invalid books: verify gives the same reason code as every reader (status 1).
INVALID = {
    "dropped entry": (edit(drop_entry), "missing-entry"),
    "extra finished entry": (edit(add_entry("XXXOO....")), "entry-key"),
    "extra non-canonical entry": (edit(add_entry("X........")), "entry-key"),
    "wrong best score": (edit(set_in(["entries", "........."], "1 0,2,6,8 1,3,5,7 4")), "entry-inconsistent"),
    "a losing move in a tier": (edit(set_in(["entries", "........X"], "0 0,4")), "entry-inconsistent"),
    "illegal move in a tier": (edit(set_in(["entries", "........X"], "0 8")), "entry-inconsistent"),
    "an entry off the grammar": (edit(set_in(["entries", "........X"], "0 4,")), "entry-shape"),
    "a version-1 entry": (edit(set_in(["entries", "........X"], {"tiers": [[4]]})), "entry-shape"),
    "wrong version": (edit(set_in(["version"], 3)), "version"),
    "version 1": (edit(set_in(["version"], 1)), "version"),
    "misere not a boolean": (edit(set_in(["rules", "misere"], "no")), "rules"),
    "counts.entries off": (edit(set_in(["counts", "entries"], 626)), "counts"),
    "duplicate key": (
        raw(lambda t: t.replace('"entries":{', '"entries":{"........X":"0 4",', 1)),
        "json",
    ),
    "not an object": (raw(lambda t: "[1,2]"), "format"),
    "other rules stated": (edit(set_in(["rules", "k"], 2)), "lines"),
    "float": (raw(lambda t: t.replace('"entries":627', '"entries":627.0', 1)), "json"),
    "empty": (raw(lambda t: ""), "json"),
    "deep nesting": (raw(lambda t: "[" * 100_000), "json"),
}


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_verify_refuses_an_invalid_book_with_the_readers_code(tmp_path: Path, kind: str) -> None:
    make, code_word = INVALID[kind]
    path = make(tmp_path)
    code, out = verify(path)
    assert code == 1, out
    assert out.startswith(f"{path}: INVALID [{code_word}] "), out
    assert len(out.strip().splitlines()) == 1
    with pytest.raises(BookError) as caught:
        load_book(path, rules=None)
    assert caught.value.code == code_word  # the player's loader says the same


#: Valid books that differ from a fresh build: only verify sees these (status 1).
BEYOND = {
    "trap order swapped": (
        edit(set_in(["entries", "........."], "0 4 1,3,5,7 0,2,6,8")),
        "entry '.........' tiers [[4], [1, 3, 5, 7], [0, 2, 6, 8]], in trap order",
    ),
    "trap order member": (edit(set_in(["trap_order", "method"], "float")), "trap_order"),
    "counts": (edit(set_in(["counts", "games"], 1)), 'counts {"canonical_finished"'),
    "trap rates": (edit(set_in(["trap_rates", "first", "novice"], "1/1")), "trap_rates"),
    "re-indented": (raw(lambda t: json.dumps(json.loads(t), indent=1)), "the bytes are not exactly"),
}


@pytest.mark.parametrize("kind", sorted(BEYOND))
def test_verify_finds_what_validity_does_not_decide(tmp_path: Path, kind: str) -> None:
    make, words = BEYOND[kind]
    path = make(tmp_path)
    code, out = verify(path)
    assert code == 1, out
    assert "valid — every one of 627 entries proven" in out
    assert "1 difference(s) from a fresh build:" in out
    assert words in out
    load_book(path)  # valid: every reader accepts it


def test_verify_counts_and_limits_the_differences_it_prints(tmp_path: Path) -> None:
    def reorder_every_tier(data: dict[str, Any]) -> None:
        for key, text in data["entries"].items():
            best, *tiers = text.split(" ")
            data["entries"][key] = " ".join([best, *tiers[::-1]])

    path = edit(reorder_every_tier)(tmp_path)
    result = CliRunner().invoke(main, ["verify", "--max-differences", "3", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert "difference(s) from a fresh build, the first 3:" in lines[0]
    assert len(lines) == 4


def test_verify_a_file_that_cannot_be_read_is_status_3(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        result = CliRunner().invoke(main, ["verify", str(path)])
        assert result.exit_code == 3, result.output
        assert str(path) in result.output and "[unreadable]" in result.output
        assert "Traceback" not in result.output


def test_verify_a_3x4_book(book_3x4_path: Path) -> None:
    code, out = verify(book_3x4_path)
    assert code == 0, out
    assert "valid — every one of" in out and "bytes as built" in out


def test_verify_rebuilds_the_ranking_a_book_names(tmp_path: Path) -> None:
    """A book's trap_order.against says which ranking verify rebuilds: the novice's tiers under
    the name "random" are not the random ranking's (on the empty board the random ranking puts
    the centre before the edges), and the random book under the novice's name is not the
    novice's."""
    novice = json.loads(BOOK.read_bytes())
    novice["trap_order"]["against"] = "random"
    renamed = tmp_path / "novice-named-random.json"
    renamed.write_text(json.dumps(novice))
    code, out = verify(renamed)
    assert code == 1 and "difference(s) from a fresh build" in out, out
    assert (
        "entry '.........' tiers [[0, 2, 6, 8], [1, 3, 5, 7], [4]], in trap order [[0, 2, 6, 8], [4]" in out
    )
    ranked = json.loads((ROOT / "book" / "tictactoe-vs-random.json").read_bytes())
    del ranked["trap_order"]["against"]
    renamed.write_text(json.dumps(ranked))
    code, out = verify(renamed)
    assert code == 1 and "entry" in out and "in trap order" in out, out


def test_verify_a_3x4_book_ranked_against_random(tmp_path: Path) -> None:
    from tictactoe_book import Rules
    from tictactoe_generator.writer import build_book, encode

    path = tmp_path / "3x4-random.json"
    path.write_bytes(encode(build_book(Rules(3, 4, 3), against="random")))
    code, out = verify(path)
    assert (
        code == 0
        and "20088 entries proven" in out
        and "trap order, counts, trap_rates and bytes as built" in out
    )
