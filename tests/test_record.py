"""The record of proven books (player/tictactoe_book/trust.py): a book larger than 1 MB is proven at most once
per machine; only its exact bytes skip the proof; the record never breaks a load."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tictactoe_book import BookError, Rules, load_book, parse_book, reader, trust
from tictactoe_generator.build import prove_for_record, write_book
from tictactoe_generator.cli import main as book_cli

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
# The real book with an unknown member of a million spaces: valid, and over the 1 MB line.
BIG = RAW.replace(b'{"canonical"', b'{"pad":"' + b" " * 1_000_000 + b'","canonical"', 1)


@pytest.fixture
def record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A record of this test's own (conftest.py turns the record off for every other test)."""
    path = tmp_path / "cache" / "proven-sha256.txt"
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(path))
    return path


@pytest.fixture
def big_book(tmp_path: Path) -> Path:
    path = tmp_path / "big.json"
    path.write_bytes(BIG)
    return path


def count_proofs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time ``reader.prove`` runs."""
    calls: list[int] = []
    real = reader.prove

    def counted(*args: object, **options: object) -> Rules:
        calls.append(1)
        return real(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "prove", counted)
    return calls


def forge(record_file: Path, raw: bytes) -> None:
    """A line naming ``raw`` written into the record by hand, as anyone who can write it can."""
    record_file.parent.mkdir(parents=True, exist_ok=True)
    with record_file.open("a") as out:
        out.write(hashlib.sha256(raw).hexdigest() + "\n")


def crc_beside(book: Path) -> None:
    """A record of ``book``'s CRC-32 beside it, as ``make book`` writes one (tictactoe_generator.packaged):
    8 lowercase hex digits and a newline."""
    Path(f"{book}.crc32").write_text(f"{zlib.crc32(book.read_bytes()):08x}\n")


def test_a_crc_record_beside_a_book_given_by_path_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the packaged book (no path given) is compared with the CRC-32 recorded beside it: a
    book passed by path is proven, whatever lies beside it."""
    # . . .
    # . . .      "........X": O's centre (the only draw) made a loser, every other cell claimed
    # . . X      as the draws: valid JSON, a false book
    damaged = tmp_path / "tictactoe.json"
    damaged.write_bytes(RAW.replace(b'"........X":"0 4"', b'"........X":"0 0,1,2,3,5,6,7"', 1))
    crc_beside(damaged)
    with pytest.raises(BookError) as caught:
        load_book(damaged)
    assert caught.value.code == "entry-inconsistent"
    good = tmp_path / "good.json"
    good.write_bytes(RAW)
    crc_beside(good)
    assert load_book(good).trust == "proven"
    assert load_book(str(good)).trust == "proven"
    # The same files as the packaged book: their record matches (so the refusals above are the
    # path's doing), and it is what skips the proof there (it detects accidents, not tampering).
    monkeypatch.setattr(reader, "default_book_path", lambda *, misere=False, against="novice": str(damaged))
    assert load_book().trust == "packaged"


def test_the_padded_book_is_over_the_line() -> None:
    assert len(BIG) > trust.RECORD_ABOVE >= len(RAW)
    assert parse_book(BIG).trust == "proven"


def test_a_big_book_is_proven_once_then_recorded(
    record_file: Path, big_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proofs = count_proofs(monkeypatch)
    first = load_book(big_book)
    assert first.trust == "proven" and len(proofs) == 1
    assert record_file.read_text() == hashlib.sha256(BIG).hexdigest() + "\n"
    second = load_book(big_book)
    assert second.trust == "recorded" and len(proofs) == 1  # no second proof
    # The recorded book answers exactly as the proven one.
    for key in first.canonical_keys():
        assert second.entry(key) == first.entry(key)
    assert second.evaluate("XO..O...X").optimal == (7,)
    load_book(big_book)
    assert record_file.read_text().count("\n") == 1  # recorded once


def test_other_bytes_are_proven_and_refused(
    record_file: Path, big_book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_book(big_book)
    # . . .
    # . . .      O to move: "0 4" says only the centre draws; "0 5" claims cell 5 does
    # . . X
    changed = tmp_path / "changed.json"
    changed.write_bytes(BIG.replace(b'"........X":"0 4"', b'"........X":"0 5"', 1))
    proofs = count_proofs(monkeypatch)
    with pytest.raises(BookError) as caught:
        load_book(changed)
    assert caught.value.code == "entry-inconsistent" and len(proofs) == 1
    assert record_file.read_text().count("\n") == 1  # the refused book is not recorded


def test_a_recorded_book_still_meets_the_callers_rules(record_file: Path, big_book: Path) -> None:
    load_book(big_book)
    with pytest.raises(BookError) as caught:
        load_book(big_book, rules=Rules(3, 3, 3, misere=True))
    assert caught.value.code == "rules"
    assert load_book(big_book, rules=None).trust == "recorded"


def test_small_books_and_parse_book_leave_the_record_alone(record_file: Path, tmp_path: Path) -> None:
    small = tmp_path / "small.json"
    small.write_bytes(RAW)
    assert load_book(small).trust == "proven"
    assert load_book(small).trust == "proven"
    assert parse_book(BIG).trust == "proven" and parse_book(BIG).trust == "proven"
    assert not record_file.exists()


def test_an_empty_variable_turns_the_record_off(big_book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTT_PROVEN_RECORD", "")
    assert trust.location() is None
    assert load_book(big_book).trust == "proven"
    assert load_book(big_book).trust == "proven"


def test_where_the_record_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TTT_PROVEN_RECORD")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert trust.location() == str(tmp_path / "xdg" / "tictactoe-book" / "proven-sha256.txt")
    for unset in ("", "relative/path"):  # the XDG specification ignores a relative path
        monkeypatch.setenv("XDG_CACHE_HOME", unset)
        assert trust.location() == str(tmp_path / ".cache" / "tictactoe-book" / "proven-sha256.txt")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert trust.location() == str(tmp_path / ".cache" / "tictactoe-book" / "proven-sha256.txt")


def test_an_unwritable_record_is_no_error(
    tmp_path: Path, big_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(blocker / "proven-sha256.txt"))  # (even root fails)
    assert load_book(big_book).trust == "proven"
    assert load_book(big_book).trust == "proven"  # nothing recorded, nothing raised
    folder = tmp_path / "folder"
    folder.mkdir()
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(folder))  # the record path is a directory
    assert load_book(big_book).trust == "proven"
    assert sorted(os.listdir(folder)) == []  # and no temporary file left behind
    assert sorted(os.listdir(tmp_path)) == ["a-file", "big.json", "folder"]


def test_a_fifo_record_is_not_waited_on(
    tmp_path: Path, big_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(fifo))
    outcome: list[str] = []
    reader = threading.Thread(target=lambda: outcome.append(load_book(big_book).trust), daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "a FIFO as the record blocked the load"
    assert outcome == ["proven"]


def test_a_file_that_is_no_record_is_neither_trusted_nor_overwritten(
    record_file: Path, big_book: Path
) -> None:
    """TTT_PROVEN_RECORD naming someone's notes (or a damaged record): a line that is not a
    digest makes the file no record; its digests are not trusted and it is never rewritten."""
    digest = hashlib.sha256(BIG).hexdigest()
    record_file.parent.mkdir(parents=True)
    notes = b"\xff\xfe my notes\n" + digest.encode() + b"\n" + b"0" * 64
    record_file.write_bytes(notes)
    assert not trust.is_proven(digest)
    assert load_book(big_book).trust == "proven"
    assert load_book(big_book).trust == "proven"
    assert record_file.read_bytes() == notes
    record_file.write_bytes(digest.upper().encode() + b"\n")  # upper case is not the record's spelling
    assert load_book(big_book).trust == "proven"
    assert record_file.read_bytes() == digest.upper().encode() + b"\n"


def test_a_record_larger_than_a_record_grows_is_no_record(record_file: Path, big_book: Path) -> None:
    digest = hashlib.sha256(BIG).hexdigest()
    record_file.parent.mkdir(parents=True)
    lines = (digest + "\n") * (trust.MAX_RECORD_BYTES // 65 + 1)
    record_file.write_text(lines)
    assert load_book(big_book).trust == "proven"
    assert record_file.read_text() == lines


def test_a_record_reached_through_a_link_stays_a_link(
    tmp_path: Path, big_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "shared" / "proven-sha256.txt"
    target.parent.mkdir()
    target.write_text("")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    monkeypatch.setenv("TTT_PROVEN_RECORD", str(link))
    assert load_book(big_book).trust == "proven"
    assert link.is_symlink() and target.read_text() == hashlib.sha256(BIG).hexdigest() + "\n"
    assert load_book(big_book).trust == "recorded"


def test_the_record_keeps_its_newest_lines_within_its_size(record_file: Path) -> None:
    old = [f"{n:064x}" for n in range(trust.MAX_RECORD_BYTES // 65)]
    record_file.parent.mkdir(parents=True)
    record_file.write_text("".join(line + "\n" for line in old))
    raw = b" " * (trust.RECORD_ABOVE + 1)
    new = hashlib.sha256(raw).hexdigest()
    trust.remember(raw)
    lines = record_file.read_text().splitlines()
    assert lines[-1] == new and lines[0] == old[1] and len(lines) == len(old)
    assert trust.is_proven(new) and not trust.is_proven(old[0])


def test_a_record_that_names_bytes_no_proof_accepts_is_ignored(record_file: Path, tmp_path: Path) -> None:
    """A hand-written line cannot turn bytes that are not even a book into one."""
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"[" + b" " * 1_000_001 + b"]")
    forge(record_file, junk.read_bytes())
    with pytest.raises(BookError) as caught:
        load_book(junk)
    assert caught.value.code == "format"


def test_verify_records_a_big_book_it_proves(record_file: Path, big_book: Path) -> None:
    result = CliRunner().invoke(book_cli, ["verify", str(big_book)])
    assert "valid — every one of 627 entries proven" in result.output
    assert record_file.read_text() == hashlib.sha256(BIG).hexdigest() + "\n"
    assert load_book(big_book).trust == "recorded"


def test_the_build_proves_what_it_will_record() -> None:
    assert not prove_for_record(RAW, "<small>")  # nothing to record: no proof needed
    assert prove_for_record(BIG, "<big>")
    with pytest.raises(BookError) as caught:
        prove_for_record(BIG.replace(b'"........X":"0 4"', b'"........X":"0 5"'), "<big>")
    assert caught.value.code == "entry-inconsistent"


def test_a_forged_record_gives_book_errors_not_tracebacks(record_file: Path, tmp_path: Path) -> None:
    """Bytes that read as a book but never proved, named by a hand-written line: the loader
    trusts the record (that is what a record is for), and an unusable entry is a BookError when
    it is first used, which the command lines print as one line."""
    forged = tmp_path / "forged.json"
    forged.write_bytes(BIG.replace(b'"........X":"0 4"', b'"........X":7', 1))
    forge(record_file, forged.read_bytes())
    book = load_book(forged)
    assert book.trust == "recorded"
    with pytest.raises(BookError) as caught:
        book.evaluate("........X")
    assert caught.value.code == "entry-shape"


def test_a_big_build_with_vectors_proves_its_bytes_once(
    record_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build proves a big book before it writes it, and its vectors answer from that proven
    book: the entries are checked once, not twice (the 3x3 book counted as big here)."""
    monkeypatch.setattr(trust, "RECORD_ABOVE", 0)
    proofs: list[int] = []
    checked = reader.check_entries

    def counted(*args: Any, **kwargs: Any) -> Any:
        proofs.append(1)
        return checked(*args, **kwargs)

    monkeypatch.setattr(reader, "check_entries", counted)
    data, vectors = write_book(tmp_path / "book.json", Rules(), tmp_path / "vectors.json")
    assert len(proofs) == 1 and vectors is not None
    assert json.loads(vectors)["book_sha256"] == hashlib.sha256(data).hexdigest()
    assert record_file.read_text() == hashlib.sha256(data).hexdigest() + "\n"  # recorded as proven
