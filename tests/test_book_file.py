"""The shipped file: schema-valid, canonical, legal, complete, and byte-identical to a rebuild."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from tictactoe_book import Book, BookError, Rules, load_book, parse_book
from tictactoe_book.game import canonical, legal_moves
from tictactoe_generator.build import write_book

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book" / "tictactoe.json"
SCHEMA = ROOT / "book" / "tictactoe.schema.json"
VECTORS = ROOT / "book" / "vectors.json"


def test_book_matches_its_json_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(BOOK.read_bytes()))


@pytest.mark.parametrize(
    "text",
    [
        {"turn": "O", "value": 0, "plies": 8, "scores": [-4] * 8 + [None], "tiers": [[4]]},  # version 1
        0,
        "0",
        "0  4",
        "0 4 ",
        " 0 4",
        "00 4",
        "0 04",
        "+0 4",
        "0 16",
        "0 4,",
        "0 -1",
        "0.0 4",
    ],
    ids=repr,
)
def test_schema_rejects_a_broken_entry(text: object) -> None:
    schema = json.loads(SCHEMA.read_text())
    data = json.loads(BOOK.read_bytes())
    data["entries"]["........X"] = text
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    data["entries"]["........X"] = "0 4"
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(data))


def test_schema_requires_the_misere_flag() -> None:
    schema = json.loads(SCHEMA.read_text())
    data = json.loads(BOOK.read_bytes())
    data["rules"]["misere"] = "false"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    del data["rules"]["misere"]
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    data["version"] = 1
    data["rules"]["misere"] = False
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))


def test_committed_book_and_vectors_equal_a_fresh_build(tmp_path: Path) -> None:
    out = tmp_path / "tictactoe.json"
    data, vectors = write_book(out, Rules(), tmp_path / "vectors.json")
    assert out.read_bytes() == data
    assert data == BOOK.read_bytes(), "book/tictactoe.json is stale: run `make book`"
    assert vectors == VECTORS.read_bytes(), "book/vectors.json is stale: run `make book`"
    again, _ = write_book(tmp_path / "again.json", Rules())
    assert again == data  # deterministic bytes


def test_committed_misere_book_and_vectors_equal_a_fresh_build(tmp_path: Path) -> None:
    data, vectors = write_book(tmp_path / "m.json", Rules(3, 3, 3, misere=True), tmp_path / "m.vectors.json")
    assert data == (ROOT / "book" / "tictactoe-misere.json").read_bytes(), (
        "book/tictactoe-misere.json is stale: run `make book`"
    )
    assert vectors == (ROOT / "book" / "tictactoe-misere.vectors.json").read_bytes(), (
        "book/tictactoe-misere.vectors.json is stale: run `make book`"
    )


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_committed_books_against_random_equal_a_fresh_build(tmp_path: Path, misere: bool) -> None:
    stem = "tictactoe-misere-vs-random" if misere else "tictactoe-vs-random"
    data, written = write_book(
        tmp_path / "b.json", Rules(misere=misere), tmp_path / "v.json", against="random"
    )
    assert data == (ROOT / "book" / f"{stem}.json").read_bytes(), (
        f"book/{stem}.json is stale: run `make book`"
    )
    assert written == (ROOT / "book" / f"{stem}.vectors.json").read_bytes(), (
        f"book/{stem}.vectors.json is stale: run `make book`"
    )
    assert json.loads(data)["trap_order"] == {"method": "exact", "tolerance": "0", "against": "random"}
    assert json.loads(written)["against"] == "random"


def test_load_book_against_picks_the_packaged_ranking_and_checks_a_files(tmp_path: Path) -> None:
    """``load_book(against=)``: the packaged book ranked against that opponent; with a path,
    the file's own ranking, and a file ranked otherwise refused (not played under a name it
    does not have); a name that is no reference opponent refused before any file is read."""
    assert load_book().against == "novice" and load_book(against="novice").against == "novice"
    assert load_book(against="random").source.endswith("tictactoe-vs-random.json")
    misere = load_book(rules=Rules(misere=True), against="random")
    assert misere.against == "random" and misere.rules.misere
    novice, random = ROOT / "book" / "tictactoe.json", ROOT / "book" / "tictactoe-vs-random.json"
    assert load_book(random).against == "random" and load_book(random, against="random").against == "random"
    with pytest.raises(ValueError) as refused:
        load_book(novice, against="random")
    assert str(refused.value) == (
        f"{novice} ranks its moves against novice, not random "
        "(ttt-book build --rules 3x3:3 --against random -o FILE writes one)"
    )
    with pytest.raises(ValueError, match="ranks its moves against random, not novice"):
        load_book(random, against="novice")
    for name in ("Random", "program", ""):
        with pytest.raises(ValueError, match=f"unknown opponent {name!r}"):
            load_book(tmp_path / "missing.json", against=name)  # not a BookError for the file
        with pytest.raises(ValueError, match=f"unknown opponent {name!r}"):
            load_book(against=name)


@pytest.mark.parametrize("rules", [Rules(3, 4, 3), Rules(4, 4, 4, misere=True), Rules(2, 2, 2)], ids=str)
def test_the_packaged_books_for_other_rules_are_refused_saying_how_to_build_one(rules: Rules) -> None:
    """load_book(rules=Rules(3, 4, 3)) named the packaged 3x3 file and not how to build a 3x4
    book (issue 40, item 5): it reads no file, and says which book to build and how to load it."""
    with pytest.raises(BookError) as refused:
        load_book(rules=rules)
    assert refused.value.code == "rules"
    assert str(refused.value) == (
        f"<packaged books>: none is for {rules} (they are for 3x3 k=3, normal and misère): "
        f"build one with ttt-book build --rules {rules.spelling} -o BOOK, then load_book(BOOK) [rules]"
    )
    assert "tictactoe.json" not in str(refused.value)


@pytest.mark.parametrize("rules", ["3x3", {"rows": 3, "cols": 3, "k": 3}, 3], ids=["text", "dict", "number"])
def test_rules_that_are_not_rules_are_the_callers_type_error(rules: object) -> None:
    """load_book(rules="3x3") raised AttributeError ('str' object has no attribute 'misere'),
    as the JavaScript reader took {misere: 'no'} for misère (issue 32, item 9): both now say
    what a caller's rules must be."""
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    for load in (lambda: load_book(rules=rules), lambda: parse_book(raw, rules=rules)):
        with pytest.raises(TypeError, match=r"^rules must be a tictactoe_book\.Rules or None, got "):
            load()  # type: ignore[arg-type]


def test_every_key_is_canonical_and_every_move_legal(book: Book) -> None:
    rules = book.rules
    for key in book.canonical_keys():
        assert canonical(rules, key)[0] == key
        entry = book.entry(key)
        assert entry is not None
        free = set(legal_moves(key))
        assert {c for c, s in enumerate(entry.scores) if s is not None} == free
        assert {c for tier in entry.tiers for c in tier} <= free


def test_every_reachable_position_is_found(book: Book, reachable: tuple[set[str], set[str]]) -> None:
    unfinished, _ = reachable
    keys = set(book.canonical_keys())
    assert {canonical(book.rules, b)[0] for b in unfinished} == keys
    for board in unfinished:
        evaluation = book.evaluate(board)
        assert set(evaluation.scores) == set(legal_moves(board))


def test_file_is_small_and_self_describing() -> None:
    data = orjson.loads(BOOK.read_bytes())
    assert data["format"] == "tictactoe-book" and data["version"] == 2
    assert data["rules"]["misere"] is False
    assert data["rules"]["lines"] == [list(line) for line in Rules().lines]
    assert len(data["symmetries"]) == 8
    assert data["trap_order"] == {"method": "exact", "tolerance": "0"}
    assert data["trap_rates"] == {
        "first": {"novice": "89/96", "random": "379/384"},
        "second": {"novice": "82/315", "random": "50/63"},
    }
    # . . .
    # . . .      O to move: only the centre draws
    # . . X
    assert data["entries"]["........X"] == "0 4"
    assert data["entries"]["........."] == "0 0,2,6,8 1,3,5,7 4"
    assert BOOK.stat().st_size < 20_000  # version 1 wrote 68,568 bytes


def test_a_3x4_book_loads_with_no_format_change(book_3x4_path: Path) -> None:
    rules = Rules(3, 4, 3)
    variant = load_book(book_3x4_path, rules=rules)
    assert len(variant) == len(variant.data["entries"])
    assert variant.evaluate("." * 12).value == 1  # the first player wins 3x4 with k=3


# ---------------------------------------------------------------- the schema against the book vectors

# What the schema cannot say of an entry string (docs/book-format.md, "The JSON Schema"): the
# score's range, a cell below rules.cells, cells in increasing order.
SHAPES_BEYOND_THE_SCHEMA = {
    "best-over-max",
    "best-huge",
    "cell-off-board",
    "tier-repeated-within",
    "tier-not-increasing",
}


def book_vector_documents() -> list[tuple[str, str, Any]]:
    """(name, expected verdict, parsed document) of every book vector that is JSON at all."""
    from test_book_vectors import CASES, book_bytes

    found = []
    for case in CASES:
        # not JSON (or too deep for the standard parser): nothing for a schema to read
        with contextlib.suppress(ValueError, RecursionError):
            found.append((case["name"], case["expect"], json.loads(book_bytes(case))))
    return found


@pytest.fixture(scope="module")
def schema_verdicts() -> dict[str, tuple[str, bool]]:
    """Each book vector's expected verdict, and whether the schema refuses it."""
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    return {name: (expect, not validator.is_valid(data)) for name, expect, data in book_vector_documents()}


def test_the_schema_accepts_every_valid_book_vector(schema_verdicts: dict[str, tuple[str, bool]]) -> None:
    valid = {name for name, (expect, _) in schema_verdicts.items() if expect == "valid"}
    assert {"trap-order-missing", "trap-rates-missing", "unknown-member-in-counts", "misere-book"} <= valid
    assert sorted(name for name in valid if schema_verdicts[name][1]) == []


def test_the_schema_refuses_every_format_version_and_entry_shape_vector_it_can_express(
    schema_verdicts: dict[str, tuple[str, bool]],
) -> None:
    for name, (expect, refused) in schema_verdicts.items():
        if expect in ("format", "version") or (
            expect == "entry-shape" and name not in SHAPES_BEYOND_THE_SCHEMA
        ):
            assert refused, name
        if name in SHAPES_BEYOND_THE_SCHEMA:
            assert not refused, f"{name}: the schema catches it after all; update the docs"
