"""The proof by parts on arrays (tictactoe_generator.layer_proof, ``ttt-book verify`` past 16
cells): the definition's finding (``parts.first_failure``), code and message, on every damaged
book by parts of the proof-by-parts tests; a valid book proven and recorded; a finding the
definition does not share is an internal error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import parts_vectors
import pytest
import test_proof_runs
from test_parts_proof import SPLIT, Finding, by_definition, split_into

import tictactoe_generator.layer_proof as layer_proof
from tictactoe_book import BookError, load_book
from tictactoe_book.game import EMPTY
from tictactoe_book.parts import PartsBook
from tictactoe_book.proof import ProofDisagreement
from tictactoe_generator.engines import LOCAL
from tictactoe_generator.layered import work_folder

#: How the proof is run: two adjacent layers at a time in this process, or as an engine runs it
#: (``--engine dask``: every layer read at once, then every layer checked against the next),
#: here on the engine of this process; and with the moves checked in blocks of 7 entries.
SCHEDULES = ["two-layers", "on-an-engine", "moves-in-blocks-of-7"]


def on_arrays(folder: Path, schedule: str = "two-layers") -> Finding:
    try:
        if schedule == "two-layers":
            book = layer_proof.prove_by_layers(folder)
        elif schedule == "moves-in-blocks-of-7":  # (a block of a million entries on 4x5)
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(layer_proof, "MOVES_BLOCK", 7)
                book = layer_proof.prove_by_layers(folder)
        else:
            with work_folder(folder.parent) as work:
                book = layer_proof.prove_by_layers(folder, engine=(LOCAL, work))
    except BookError as error:
        return error.code, str(error)
    assert isinstance(book, PartsBook)
    return None


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("damage", parts_vectors.damaged())
def test_the_damaged_books_by_parts_of_the_parts_vectors(damage: str, schedule: str, tmp_path: Path) -> None:
    """Each invalid case of book/parts-vectors.json (the book of 20 cells among them)."""
    case = parts_vectors.case_named(damage)
    folder = parts_vectors.write_case(damage, tmp_path / "parts")
    found = on_arrays(folder, schedule)
    assert found == by_definition(folder)
    assert found is not None and found[0] == case["expect"], found
    assert parts_vectors.named_file(found[1]) == case["file"], found


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize(("book", "damage"), SPLIT, ids=str)
def test_damaged_version_2_books_split_into_parts(
    book: str, damage: list[tuple[str, int]], schedule: str, tmp_path: Path
) -> None:
    data = test_proof_runs.broken(book, damage)
    folder = split_into(data, tmp_path / "parts")
    found = on_arrays(folder, schedule)
    assert found == by_definition(folder)
    assert (found or ("valid",))[0] == test_proof_runs.verdict(data)[0]


def test_a_missing_layer_and_a_missing_empty_board(tmp_path: Path) -> None:
    data = json.loads(json.dumps(test_proof_runs.BOOKS["3x3"]))
    for marks in (4, 0):
        data["entries"] = {
            key: text for key, text in data["entries"].items() if 9 - key.count(EMPTY) != marks
        }
        data["counts"]["entries"] = len(data["entries"])
        folder = split_into(data, tmp_path / str(marks))
        found = on_arrays(folder)
        assert found == by_definition(folder) and found is not None and found[0] == "missing-entry"


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_valid_3x4_book_is_proven(schedule: str, book_3x4_path: Path, tmp_path: Path) -> None:
    data: dict[str, Any] = load_book(book_3x4_path).data
    assert on_arrays(split_into(data, tmp_path / "parts"), schedule) is None


@pytest.mark.parametrize(
    ("kind", "step"),
    [("canonical", "entry-key"), ("missing", "missing-entry"), ("best", "entry-inconsistent")],
)
def test_a_finding_the_definition_does_not_share_is_an_internal_error(
    kind: str, step: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = split_into(test_proof_runs.broken("3x3", [(kind, 3)]), tmp_path / "parts")
    assert on_arrays(folder) is not None
    monkeypatch.setattr(layer_proof, "key_problem", lambda rules, key: None)
    monkeypatch.setattr(layer_proof, "entry_problem", lambda rules, texts, key: None)
    with pytest.raises(ProofDisagreement, match=step):
        layer_proof.prove_by_layers(folder)
