"""One definition of a valid book (docs/book-format.md, "A valid book"): each step's reason
code, from small edits of the real book; the proof catches entries that claim the wrong moves;
answers are the game's own; the trusted path is only for recorded bytes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from oracles import oracle

from tictactoe_book import (
    BOOK_REASONS,
    BoardError,
    Book,
    BookError,
    Rules,
    choose_move,
    load_book,
    parse_book,
    reader,
)
from tictactoe_book.game import STANDARD
from tictactoe_book.reader import prove

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
Edit = Callable[[dict[str, Any]], None]


def refused(edit: Edit) -> BookError:
    data = json.loads(RAW)
    edit(data)
    with pytest.raises(BookError) as caught:
        parse_book(json.dumps(data).encode(), "<edited>")
    assert str(caught.value).startswith("<edited>: ") and "\n" not in str(caught.value)
    return caught.value


def entry(key: str, text: Any) -> Edit:
    def change(data: dict[str, Any]) -> None:
        data["entries"][key] = text

    return change


def add_key(key: str, text: str | None = None) -> Edit:
    """An extra entry ``key`` holding ``text`` (default: the entry of ``........X``)."""

    def change(data: dict[str, Any]) -> None:
        data["entries"][key] = data["entries"]["........X"] if text is None else text
        data["counts"]["entries"] += 1

    return change


def drop_key(key: str) -> Edit:
    def change(data: dict[str, Any]) -> None:
        del data["entries"][key]
        data["counts"]["entries"] -= 1

    return change


def rule(**members: Any) -> Edit:
    return lambda data: data["rules"].update(members)


V1_ENTRY = {"turn": "O", "value": 0, "plies": 8, "scores": [-4] * 8 + [None], "tiers": [[4]]}

# The two entries most cases edit, as the book stores them:
#
# . . .
# . . .      "........X": "0 4"  O to move draws, only by taking the centre; every other move
# . . X                          loses in 6 plies (scores -4, derived from the successors)
#
# the empty board ".........": "0 0,2,6,8 1,3,5,7 4"  every first move draws; corners first
CASES: dict[str, tuple[Edit, str]] = {
    # step 15: the successors give it away
    "the centre made a loser: the other cells claimed as the draws": (
        entry("........X", "0 0,1,2,3,5,6,7"),
        "entry-inconsistent",
    ),
    "a tier missing an optimal move": (entry(".........", "0 0,2,6,8 1,3,5,7"), "entry-inconsistent"),
    "a tier holding a non-optimal move": (entry("........X", "0 0,4"), "entry-inconsistent"),
    "a cell in two tiers": (entry("........X", "0 4 4"), "entry-inconsistent"),
    "an occupied cell in a tier": (entry("........X", "0 4 8"), "entry-inconsistent"),
    "best score a win in 5 for a draw": (entry("........X", "5 4"), "entry-inconsistent"),
    "best score off by two, same sign": (entry(".......OX", "7 2,4,5"), "entry-inconsistent"),
    "best score -0 is 0": (entry("........X", "-0 4"), "valid"),
    "best score beyond any score, within 2^53": (
        entry("........X", "9007199254740991 4"),
        "entry-inconsistent",
    ),
    # step 13: the grammar
    "an entry an object (a version-1 entry)": (
        entry("........X", V1_ENTRY),
        "entry-shape",
    ),
    "an entry a number": (entry("........X", 0), "entry-shape"),
    "an entry null": (entry("........X", None), "entry-shape"),
    "an entry an array": (entry("........X", ["0", "4"]), "entry-shape"),
    "no tier": (entry("........X", "0"), "entry-shape"),
    "no best score": (entry("........X", "4"), "entry-shape"),  # "4" is read as a best score: no tier
    "two spaces": (entry("........X", "0  4"), "entry-shape"),
    "a trailing space": (entry("........X", "0 4 "), "entry-shape"),
    "a leading space": (entry("........X", " 0 4"), "entry-shape"),
    "a tab": (entry("........X", "0\t4"), "entry-shape"),
    "a leading zero in the best score": (entry("........X", "00 4"), "entry-shape"),
    "a leading zero in a cell": (entry("........X", "0 04"), "entry-shape"),
    "a plus sign": (entry("........X", "+0 4"), "entry-shape"),
    "a fraction": (entry("........X", "0.0 4"), "entry-shape"),
    "a tier out of order": (entry(".........", "0 8,6,2,0 1,3,5,7 4"), "entry-shape"),
    "a cell twice in one tier": (entry("........X", "0 4,4"), "entry-shape"),
    "a cell off the board": (entry("........X", "0 4 9"), "entry-shape"),
    "a negative cell": (entry("........X", "0 4 -1"), "entry-shape"),
    "an empty tier": (entry("........X", "0 4,"), "entry-shape"),
    "best score beyond 2^53 - 1": (entry("........X", "9007199254740992 4"), "entry-shape"),
    "an Arabic-Indic digit": (entry("........X", "0 \u0664"), "entry-shape"),
    # step 12
    "a key with two more X than O": (add_key("XX......."), "entry-key"),
    "a key with more O than X": (add_key("O........"), "entry-key"),
    "a non-canonical key": (add_key("X........"), "entry-key"),
    "a finished key": (add_key("XXXOO...."), "entry-key"),
    # finished keys in canonical form, each holding the entry its moves would make it, so that
    # nothing but the finished-key check refuses them (XXXOO.... above is not canonical):
    #
    # . O O                      . . O
    # X O O   X's bottom row     X X O   O's right column     O X X
    # X X X   X to move: 0       X X O   O to move: 0 or 1    X O O   full, no line
    #                                                         X O X
    "a canonical finished key, X's line": (add_key(".OOXOOXXX", "9 0"), "entry-key"),
    "a canonical finished key, O's line": (add_key("..OXXOXXO", "9 0,1"), "entry-key"),
    "a canonical full key": (add_key("OXXXOOXOX", "0 4"), "entry-key"),
    "a key of the wrong length": (add_key("........"), "entry-key"),
    "a key with a lower-case mark": (add_key("x........"), "entry-key"),
    # step 14
    "a missing entry": (drop_key("....X...."), "missing-entry"),
    "the empty board missing": (drop_key("........."), "missing-entry"),
    # steps 4 to 11
    "counts.entries off by one": (lambda d: d["counts"].update(entries=628), "counts"),
    "counts.entries missing": (lambda d: d["counts"].pop("entries"), "counts"),
    "entries a list": (lambda d: d.update(entries=[]), "entries"),
    "a fake extra symmetry": (
        lambda d: d["symmetries"].append({"name": "swap", "perm": [1, 0, 2, 3, 4, 5, 6, 7, 8]}),
        "symmetries",
    ),
    "a symmetry missing": (lambda d: d["symmetries"].pop(), "symmetries"),
    "symmetries reordered": (lambda d: d["symmetries"].reverse(), "symmetries"),
    "no diagonals": (lambda d: d["rules"].update(lines=d["rules"]["lines"][:6]), "lines"),
    # found by the differential test: in Python False == 0, so [false, 1, 2] == [0, 1, 2]
    "a line with false for cell 0": (lambda d: d["rules"]["lines"][0].__setitem__(0, False), "lines"),
    "a perm with true for cell 1": (lambda d: d["symmetries"][0]["perm"].__setitem__(1, True), "symmetries"),
    "lines reordered": (lambda d: d["rules"]["lines"].reverse(), "lines"),
    "cells wrong": (rule(cells=10), "rules"),
    "rows a string": (rule(rows="3"), "rules"),
    "marks swapped": (rule(first="O", second="X"), "rules"),
    "misere missing": (lambda d: d["rules"].pop("misere"), "rules"),
    "misere a string": (rule(misere="false"), "rules"),
    "misere 0": (rule(misere=0), "rules"),
    "misere null": (rule(misere=None), "rules"),
    "misere true, but the caller plays normal rules": (rule(misere=True), "rules"),
    "canonical rule unknown": (lambda d: d.update(canonical="max-image"), "format"),
    "version 1": (lambda d: d.update(version=1), "version"),
    "version 3": (lambda d: d.update(version=3), "version"),
    "version true": (lambda d: d.update(version=True), "version"),
    "version a string": (lambda d: d.update(version="2"), "version"),
    "format wrong": (lambda d: d.update(format="chess-book"), "format"),
}


def verdict(edit: Edit, rules: Rules | None = STANDARD) -> str:
    data = json.loads(RAW)
    edit(data)
    try:
        parse_book(json.dumps(data).encode(), "<edited>", rules=rules)
    except BookError as error:
        assert str(error).startswith("<edited>: ") and "\n" not in str(error)
        assert str(error).endswith(f" [{error.code}]")
        return error.code
    return "valid"


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_step_refuses_with_its_code(case: str) -> None:
    edit, code = CASES[case]
    assert verdict(edit) == code


@pytest.mark.parametrize(
    ("key", "text", "owner"),
    [(".OOXOOXXX", "9 0", "X"), ("..OXXOXXO", "9 0,1", "O"), ("OXXXOOXOX", "0 4", None)],
)
def test_a_canonical_finished_key_is_refused_as_finished(key: str, text: str, owner: str | None) -> None:
    """The keys are what the cases above say, by the independent oracle (no product code): in
    canonical form (the smallest of the 8 images, '.' < 'O' < 'X'), finished, with legal counts.
    So the finished-key check alone can refuse them, and the message says that it did."""
    assert key == min(oracle.orientations(key))
    assert oracle.line_owner(key) == owner and (owner is not None or "." not in key)
    assert key.count("X") - key.count("O") in (0, 1)
    error = refused(add_key(key, text))
    assert error.code == "entry-key"
    assert str(error) == f"<edited>: has entry key {key!r}, a finished board [entry-key]"


def test_misere_true_on_a_normal_book_is_inconsistent() -> None:
    """With the rules taken from the file, the normal book read as misère: a move completing a
    line now loses, so the entries where one is possible are wrong."""
    assert verdict(rule(misere=True), rules=None) == "entry-inconsistent"
    assert verdict(rule(misere=True), rules=Rules(3, 3, 3, misere=True)) == "entry-inconsistent"
    assert verdict(rule(misere=False), rules=Rules(3, 3, 3, misere=True)) == "rules"


def test_version_1_is_refused_saying_the_reader_reads_2() -> None:
    error = refused(lambda d: d.update(version=1))
    assert error.code == "version"
    assert "has format version 1; this reader reads 2 [version]" in str(error)


def test_the_codes_are_the_documented_ones_in_order() -> None:
    doc = (ROOT / "docs" / "book-format.md").read_text()
    table = doc[doc.index("## A valid book") : doc.index("### Strict JSON")]
    rows = [line.split("|")[2].strip().strip("`") for line in table.splitlines() if line.startswith("| ")][1:]
    ordered = list(dict.fromkeys(rows))  # "format" is steps 4 and 6
    assert ordered == list(BOOK_REASONS)


def test_an_earlier_step_wins_over_a_later_one() -> None:
    def both(data: dict[str, Any]) -> None:
        data["version"] = 3  # step 5
        data["entries"]["........X"] = "0 0"  # step 15

    assert refused(both).code == "version"

    def key_and_shape(data: dict[str, Any]) -> None:
        data["entries"]["........X"] = "0 4 "  # step 13, listed first in the file
        data["entries"]["X........"] = data["entries"]["........."]  # step 12, last
        data["counts"]["entries"] += 1

    assert refused(key_and_shape).code == "entry-key"

    def shape_and_missing(data: dict[str, Any]) -> None:
        data["entries"]["........X"] = "0 4,"  # step 13
        del data["entries"][".......OX"]  # step 14: a successor of ........X
        data["counts"]["entries"] -= 1

    assert refused(shape_and_missing).code == "entry-shape"

    def missing_and_inconsistent(data: dict[str, Any]) -> None:
        data["entries"]["........."] = "1 4"  # step 15, first in the file
        del data["entries"]["...OOXOXX"]  # step 14, deep in the tree
        data["counts"]["entries"] -= 1

    assert refused(missing_and_inconsistent).code == "missing-entry"

    def not_canonical_and_shape(data: dict[str, Any]) -> None:
        data["entries"]["........."] = None  # step 13
        data["entries"]["XO......."] = "0 4"  # step 12, but only canonical form is wrong
        data["counts"]["entries"] += 1

    assert refused(not_canonical_and_shape).code == "entry-key"


@pytest.mark.parametrize(
    ("first", "later"),
    [
        (".........", ".......OX"),  # the first in the file has fewer marks
        (".......OX", "....X...."),  # the first in the file has more marks
    ],
)
@pytest.mark.parametrize("run", [1, 2, 4096], ids=["runs of 1", "runs of 2", "one run"])
def test_of_two_misshapen_entries_the_message_names_the_first_in_the_file(
    first: str, later: str, run: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/architecture.md, "the finding ... names the first entry in file order that fails",
    however the proof cuts the entries into runs (``reader.PROGRESS_ENTRIES``)."""
    monkeypatch.setattr(reader, "PROGRESS_ENTRIES", run)
    data = json.loads(RAW)
    keys = list(data["entries"])
    assert keys.index(first) < keys.index(later)
    data["entries"][first] = data["entries"][later] = None
    with pytest.raises(BookError) as caught:
        prove(data, "<edited>", None)
    assert str(caught.value) == f"<edited>: entry {first!r}: is null, not a string [entry-shape]"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (RAW.replace(b'"entries":627,', b'"entries":627.0,', 1), "json"),
        (RAW.replace(b'"entries":627,', b'"entries":627e0,', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"n":9007199254740992,"canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"n":-9007199254740992,"canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"n":NaN,"canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"n":"\\udc00x","canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"\\ud800":1,"canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"n":' + b"[" * 32 + b"]" * 32 + b',"canonical"', 1), "json"),
        (RAW.replace(b'{"canonical"', b'{"format":"x","canonical"', 1), "json"),
        (b"\xef\xbb\xbf" + RAW, "json"),
        (RAW[:-200], "json"),
        (RAW.replace(b'{"canonical"', b'{"n":"' + b"," * 4_000_000 + b'","canonical"', 1), "limits"),
        (b"[" * 4_000_001, "limits"),
        (b"[]", "format"),
    ],
    ids=[
        "float",
        "exponent",
        "2^53",
        "-2^53",
        "NaN",
        "lone low surrogate",
        "lone surrogate in a name",
        "33 deep",
        "duplicate",
        "BOM",
        "truncated",
        "4,000,001 commas",
        "4,000,001 brackets",
        "an array",
    ],
)
def test_strict_json_and_limits(text: bytes, code: str) -> None:
    with pytest.raises(BookError) as caught:
        parse_book(text, "<text>")
    assert caught.value.code == code


@pytest.mark.parametrize(
    "text",
    [
        RAW.replace(b'{"canonical"', b'{"n":9007199254740991,"canonical"', 1),
        RAW.replace(b'{"canonical"', b'{"n":"\\ud83d\\ude00","canonical"', 1),
        RAW.replace(b'{"canonical"', b'{"n":' + b"[" * 31 + b"]" * 31 + b',"canonical"', 1),
        RAW.replace(b'{"canonical"', b'{"checksum":"crc32:00000000","canonical"', 1),
        RAW.replace(b'"misere":false', b'"misere":false,"note":{"a":[1,2]}', 1),
        json.dumps(json.loads(RAW), indent=2).encode(),
        json.dumps(dict(reversed(list(json.loads(RAW).items())))).encode(),
    ],
    ids=[
        "2^53-1",
        "surrogate pair",
        "32 deep",
        "old checksum member",
        "unknown member in rules",
        "re-indented",
        "reordered",
    ],
)
def test_valid_variants_load_and_answer_alike(text: str, book: Book) -> None:
    variant = parse_book(text, "<variant>")
    assert variant.trust == "proven"
    for key in book.canonical_keys():
        assert variant.entry(key) == book.entry(key)


def test_the_attacks_that_used_to_succeed_are_refused() -> None:
    """From the issue: with these books the player used to lose."""
    # X O .
    # . O .      X to move must block at 7
    # . . X
    fake = refused(lambda d: d["symmetries"].append({"name": "fake", "perm": [0, 1, 2, 5, 4, 3, 6, 7, 8]}))
    assert fake.code == "symmetries"
    good = load_book(ROOT / "book" / "tictactoe.json")
    assert good.best_moves("XO..O...X") == (7,)
    # X X .
    # . O X      X to move wins at once at 2
    # O O .
    assert 2 in good.best_moves("XX..OXOO.") and good.evaluate("XX..OXOO.").plies == 1


def test_a_book_is_read_by_its_own_rules_unless_the_caller_names_others(tmp_path: Path) -> None:
    from tictactoe_generator.build import write_book

    path = tmp_path / "2x3.json"
    write_book(path, Rules(2, 3, 2))
    assert load_book(path).rules == Rules(2, 3, 2)  # a library user who loads a 2x3 file
    assert load_book(path, rules=Rules(2, 3, 2)).trust == "proven"
    with pytest.raises(BookError) as caught:
        load_book(path, rules=Rules())  # the caller plays 3x3
    assert caught.value.code == "rules"


def test_answers_are_in_the_games_own_marks(book: Book) -> None:
    # O moved first and has the centre: X to move.
    answer = book.evaluate("....O....", first="O")
    assert answer.turn == "X" and answer.first == "O"
    assert answer.optimal == (0, 2, 6, 8)
    assert book.evaluate("....X....").turn == "O"


def test_a_board_that_is_not_a_string_is_a_board_error(book: Book) -> None:
    for board in (list("X........"), None, 7, b"X........"):
        with pytest.raises(BoardError) as caught:
            book.evaluate(board)  # type: ignore[arg-type]
        assert caught.value.code == "character"
    with pytest.raises(ValueError, match="first must be 'X' or 'O'"):
        book.evaluate(".........", first="Z")


def test_an_evaluation_cannot_be_changed_by_its_caller(book: Book) -> None:
    answer = book.evaluate("XX.OO....")
    scores = answer.scores
    scores[2] = -9
    with pytest.raises(AttributeError):
        answer.plies = 0  # type: ignore[misc]
    again = book.evaluate("XX.OO....")
    assert again.scores[2] == 9 and again is answer
    assert choose_move(book, "XX.OO....", "hard") == 2


def test_the_packaged_book_in_a_checkout_is_trusted_by_its_record_in_book(tmp_path: Path) -> None:
    """In a checkout (editable install) the packaged book is book/'s, with the record ``make book``
    wrote beside it: the bytes match it, so the proof is skipped; a book passed by path is proven."""
    assert load_book().trust == "packaged"
    assert load_book(ROOT / "book" / "tictactoe.json").trust == "proven"


def test_files_that_are_not_files_are_refused_without_blocking(tmp_path: Path) -> None:
    import os
    import threading

    fifo = tmp_path / "book.fifo"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            load_book(fifo)
        except BaseException as error:  # reported below
            outcome.append(error)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "loading a FIFO blocked"
    assert isinstance(outcome[0], BookError) and outcome[0].code == "unreadable"
    assert "not a regular file" in str(outcome[0])
    for path, words in ((tmp_path, "is a directory"), (Path("/dev/null"), "not a regular file")):
        with pytest.raises(BookError, match=words) as caught:
            load_book(path)
        assert caught.value.code == "unreadable"
    with pytest.raises(BookError, match="an empty path names no file"):
        load_book("")


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    import os

    if os.geteuid() == 0:  # root reads anything: make the read itself fail instead
        path = Path("/proc/self/mem")
    else:
        path = tmp_path / "locked.json"
        path.write_bytes(RAW)
        path.chmod(0)
    with pytest.raises(BookError) as caught:
        load_book(path)
    assert caught.value.code == "unreadable"


def test_many_values_are_refused_before_they_are_built(tmp_path: Path) -> None:
    """Issue 11: 64 MiB of [],[],... used to cost 2-3 GB to read. The count of [ { , is
    bounded before parsing, so this is refused from the bytes alone."""
    path = tmp_path / "lists.json"
    padding = b"[]," * 2_100_000
    path.write_bytes(RAW.replace(b'{"canonical"', b'{"n":[' + padding + b'[]],"canonical"', 1))
    with pytest.raises(BookError) as caught:
        load_book(path)
    assert caught.value.code == "limits"
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.write(b'{"n":"')
        handle.write(b"a" * (64 * 1024 * 1024))
        handle.write(b'"}')
    with pytest.raises(BookError, match="larger than 67,108,864 bytes") as caught:
        load_book(big)
    assert caught.value.code == "limits"


def test_hostile_json_in_unknown_members_gets_a_code_not_a_crash() -> None:
    cases = {
        b'"\\u0000duplicates":[1],': None,  # a member name verify once used internally: just unknown
        b'"n":"\\ud800",': "json",
        b'"n":' + b"[" * 990 + b"]" * 990 + b",": "json",
        b'"n":' + b"9" * 5000 + b",": "json",
        b'"n":1.5,': "json",
    }
    for member, code in cases.items():
        text = RAW.replace(b'{"canonical"', b"{" + member + b'"canonical"', 1)
        if code is None:
            parse_book(text, "<text>")
            continue
        with pytest.raises(BookError) as caught:
            parse_book(text, "<text>")
        assert caught.value.code == code, member[:20]
    for old, new, code in (
        (b'"entries":627,', b'"entries":627.0,', "json"),
        (b'"........X":"0 4"', b'"........X":false', "entry-shape"),
        (b'"........X":"0 4"', b'"........X":["0 4"]', "entry-shape"),
        (b'"........X":"0 4"', b'"........X":"0 4.0"', "entry-shape"),
        (b'"........X":"0 4"', b'"........X":0.0', "json"),
        (b'"misere":false', b'"misere":0', "rules"),
        (b'"k":3,', b'"k":3.0,', "json"),
    ):
        assert old in RAW
        with pytest.raises(BookError) as caught:
            parse_book(RAW.replace(old, new, 1), "<text>")
        assert caught.value.code == code, new
