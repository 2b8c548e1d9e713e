"""The proof's definition and its accelerator (docs/architecture.md, "The reader"): the
definition, tictactoe_book.proof, runs steps 12 to 15 entry by entry as docs/book-format.md writes
them; the accelerator, tictactoe_book.proof_engine, finds the first failing step and entry over
whole runs of entries, and the definition writes that entry's message. Here the two give the
same finding, code and message, on every damaged book of the tests (tests/test_validity.py,
tests/test_proof_runs.py, the book vectors, the damage of issue 41 on a 3x4 book, and in
``make fuzz`` hypothesis's), with runs of every size; a disagreement raises an internal error;
a damaged book costs the definition a fixed number of calls, whatever its size; and each check
the mutants of issue 41 dropped fails a test of its own.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import test_fuzz
import test_proof_runs
import test_validity
from damaged_everywhere import EVERYWHERE, every_entry, far_late
from hypothesis import given
from hypothesis import strategies as st

from tictactoe_book import BookError, Rules, parse_book, proof, proof_engine, reader
from tictactoe_book.book_format import check_header, parse_json
from tictactoe_book.game import canonical, transform
from tictactoe_generator.writer import build_book

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
VECTORS = json.loads((ROOT / "book" / "book-vectors.json").read_bytes())


def header(data: dict[str, Any]) -> Rules | None:
    """The rules of ``data`` if its header passes steps 4 to 11, else None (no entries to prove)."""

    def fail(code: str, reason: str) -> BookError:
        return BookError("<book>", code, reason)

    try:
        return check_header(data, fail, None)
    except BookError:
        return None


def accelerated(
    rules: Rules, texts: dict[str, Any], run: int = reader.PROGRESS_ENTRIES
) -> tuple[str, str] | None:
    """The finding as the reader makes it: the accelerator's, in the definition's words."""
    found = proof_engine.first_failing(rules, texts, run=run)
    return None if found is None else (found[0], proof.explain(rules, texts, *found))


def assert_same_finding(data: dict[str, Any], runs: tuple[int, ...] = (reader.PROGRESS_ENTRIES,)) -> None:
    rules = header(data)
    if rules is None:
        return
    texts = data["entries"]
    definition = proof.first_failure(rules, texts)
    for run in runs:
        assert accelerated(rules, texts, run) == definition, run


@pytest.mark.parametrize("case", sorted(test_validity.CASES))
def test_the_damaged_books_of_the_validity_tests(case: str) -> None:
    edit, _ = test_validity.CASES[case]
    data = json.loads(RAW)
    edit(data)
    assert_same_finding(data, runs=(1, 5, 4096))


@pytest.mark.parametrize("book", test_proof_runs.BOOKS)
@pytest.mark.parametrize("damage", [[], *test_proof_runs.CASES], ids=str)
def test_the_damaged_books_of_the_proof_runs(book: str, damage: list[tuple[str, int]]) -> None:
    assert_same_finding(test_proof_runs.broken(book, damage), runs=(1, 3, 64, 4096))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["name"])
def test_the_book_vectors(case: dict[str, Any]) -> None:
    raw = vector_bytes(case)
    try:
        data = parse_json(raw, "<vector>")
    except BookError:
        return  # (refused before the entries: nothing for either to prove)
    assert_same_finding(data)


def vector_bytes(case: dict[str, Any] | None = None) -> bytes:
    """A book vector's bytes (docs/conformance.md, "Applying the edits")."""
    text = (ROOT / "book" / VECTORS["base"]).read_text(encoding="utf-8")
    for edit in [] if case is None else case["edits"]:
        if "text" in edit:
            text = edit["text"]
        else:
            text = text.replace(edit["find"], edit["replace"] * edit.get("times", 1), 1)
    return text.encode("utf-8")


@pytest.fixture(scope="module")
def book_3x4() -> dict[str, Any]:
    return build_book(Rules(3, 4, 3))


@pytest.mark.parametrize("damage", EVERYWHERE)
def test_damage_to_every_entry_of_a_3x4_book(damage: str, book_3x4: dict[str, Any]) -> None:
    assert_same_finding(every_entry(book_3x4, EVERYWHERE[damage]), runs=(4096, 1000))


def test_far_best_scores_listed_after_their_parents(book_3x4: dict[str, Any]) -> None:
    assert_same_finding(far_late(book_3x4), runs=(4096, 777))


def test_runs_of_every_size() -> None:
    """The 2x3 k=2 book (every run size up to past its size) and the 3x3 book, valid and with
    damage in several layers, cut into runs of each size."""
    small = test_proof_runs.BOOKS["2x3 k=2"]
    sizes = range(1, len(small["entries"]) + 2)
    for damage in ([], [("best", 3)], [("twice", 1), ("far", 2)], [("missing", 3)], [("canonical", 2)]):
        data = copy.deepcopy(small)
        for kind, marks in damage:
            test_proof_runs.damaged(kind, marks, random.Random(str(damage)), data)
        assert_same_finding(data, runs=tuple(sizes))
    for damage in ([], [("tiers", 7), ("best", 2)], [("far", 6)]):
        data = test_proof_runs.broken("3x3", damage)
        assert_same_finding(data, runs=(1, 2, 3, 5, 8, 13, 21, 34, 55, 100, 313, 626, 627, 628))


def test_a_disagreement_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The accelerator made to name an entry the definition finds nothing wrong with, at each
    step: the load raises ProofDisagreement, never a BookError with an empty reason."""
    for finding in (
        ("entry-inconsistent", "........X"),
        ("missing-entry", "........X"),
        ("entry-shape", "........X"),
        ("entry-key", "........X"),
        ("missing-entry", None),
        ("entry-inconsistent", "no such key"),
    ):
        monkeypatch.setattr(proof_engine, "first_failing", lambda *args, found=finding, **kwargs: found)
        with pytest.raises(proof.ProofDisagreement, match="internal error"):
            parse_book(RAW, "<book>")
    # and a finding of the wrong step: the entry fails step 15, not step 14
    data = json.loads(RAW)
    data["entries"]["........X"] = "0 3"
    monkeypatch.setattr(proof_engine, "first_failing", lambda *args, **kwargs: ("missing-entry", "........X"))
    with pytest.raises(proof.ProofDisagreement):
        parse_book(json.dumps(data).encode(), "<book>")


def count_calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often each part of the definition runs, by name."""
    calls: dict[str, int] = {}
    for name in ("key_problem", "successors", "missing", "inconsistency", "first_failure", "canonical"):
        real = getattr(proof, name)

        def counted(*args: Any, real: Any = real, name: str = name) -> Any:
            calls[name] = calls.get(name, 0) + 1
            return real(*args)

        monkeypatch.setattr(proof, name, counted)
    return calls


@pytest.mark.parametrize("damage", EVERYWHERE)
def test_a_damaged_book_costs_the_definition_a_fixed_number_of_calls(
    damage: str, book_3x4: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41, item 3, counted rather than timed: however many entries are damaged, the
    definition runs for the one the accelerator names (its successors, a dozen canonical keys),
    never entry by entry."""
    raw = json.dumps(every_entry(book_3x4, EVERYWHERE[damage])).encode()
    calls = count_calls(monkeypatch)
    with pytest.raises(BookError):
        parse_book(raw, "<3x4>")
    assert "first_failure" not in calls
    assert calls.get("successors", 0) <= 2 and calls.get("canonical", 0) <= 2 * 12, calls


# ---------------------------------------------------------------- each check, isolated (issue 41, item 14)


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(BookError) as caught:
        parse_book(json.dumps(data).encode(), "<edited>")
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # the accelerator's check: the tiers' bits summed (8 + 8) would say cell 4, the only
        # optimal move, and the book would play 3, a loss
        ("0 3 3", "[[3], [3]]"),
        # the definition's: as a set, the tiers' cells are exactly the optimal moves
        ("0 4 4", "[[4], [4]]"),
    ],
)
def test_a_cell_in_two_tiers_is_refused_for_that(text: str, shown: str) -> None:
    data = json.loads(RAW)
    data["entries"]["........X"] = text
    assert refusal(data) == (
        f"<edited>: entry '........X': tiers {shown} are not exactly its best moves [4] [entry-inconsistent]"
    )


def test_a_key_whose_only_smaller_image_is_its_left_right_mirror_is_not_canonical() -> None:
    """``......XO.`` (O to move after X 6, O 7): of its images under the 3x3 symmetries only
    the left-right mirror (symmetry 1), ``.......OX``, is smaller. Stored under it, the entry
    of ``.......OX`` is refused at step 12, for that."""
    rules = Rules()
    key, mirror = "......XO.", ".......OX"
    assert rules.symmetries[1].name.startswith("mirror left-right")
    smaller = [index for index, symmetry in enumerate(rules.symmetries) if transform(key, symmetry) < key]
    assert smaller == [1] and transform(key, rules.symmetries[1]) == mirror == canonical(rules, key)[0]
    data = json.loads(RAW)
    data["entries"] = {key if stored == mirror else stored: text for stored, text in data["entries"].items()}
    assert refusal(data) == f"<edited>: has entry key {key!r}, which is not in canonical form [entry-key]"


def stacked(parent_best: int, child_best: int) -> dict[str, Any]:
    """The 3x3 book with the best scores of ``.......OX`` and of one of its successors' entries
    (``....X..OX``) made ``parent_best`` and ``child_best``: both beyond every move's, or near
    the bytes' reach."""
    data = json.loads(RAW)
    entries = data["entries"]
    for key, best in ((".......OX", parent_best), ("....X..OX", child_best)):
        entries[key] = f"{best} {entries[key].partition(' ')[2]}"
    return data


FAR = (61, 62, 63, 64, 65, 100, 2**53 - 1)


@pytest.mark.parametrize("parent", [*FAR, *(-best for best in FAR)])
def test_stacked_far_scores_give_the_definitions_reason(parent: int) -> None:
    """A best score beyond every move's on an entry and on its successor, each of either sign:
    the reason is the definition's (the first inconsistent entry in the file, in its words),
    not an OverflowError or an empty reason."""
    assert ".......OX" in json.loads(RAW)["entries"]
    for child in (*FAR, *(-best for best in FAR)):
        data = stacked(parent, child)
        expected = proof.first_failure(Rules(), data["entries"])
        assert expected is not None and expected[0] == "entry-inconsistent"
        assert refusal(data) == f"<edited>: {expected[1]} [entry-inconsistent]", (parent, child)


@pytest.mark.fuzz
@given(st.randoms(use_true_random=False), test_fuzz.json_values)
def test_fuzzed_damage_gives_the_same_finding(rng: random.Random, value: Any) -> None:
    data = json.loads(RAW)
    test_fuzz.mutate(data, rng, value)
    try:
        data = json.loads(json.dumps(data))
    except (TypeError, ValueError):
        return
    assert_same_finding(data, runs=(4096, rng.randrange(1, 700)))
