"""The proof by parts (tictactoe_book.parts_proof; docs/book-parts.md, "The proof by parts"):
a layer at a time with the proof's accelerator, it gives the definition's finding
(``parts.first_failure``, entry by entry), code and message, on every damaged book by parts of
the tests (the parts vectors' damaged books, and tests/test_proof_runs.py's damage split into
parts), with runs of several sizes; a disagreement is an internal error; it holds two adjacent
layers at a time and reads each part once.

Resuming (the state beside the record, keyed by the manifest's SHA-256) and the truth of its
progress are tests/test_parts_resume.py's.
"""

from __future__ import annotations

import json
import weakref
from pathlib import Path
from typing import Any

import parts_vectors
import pytest
import test_proof_runs

import tictactoe_book.parts_proof as parts_proof
from tictactoe_book import BookError, load_book, proof, proof_engine
from tictactoe_book.game import EMPTY
from tictactoe_book.parts import first_failure, load_parts
from tictactoe_book.proof_engine import EntryProof
from tictactoe_generator.parts import split_document

Finding = tuple[str, str] | None


def split_into(data: dict[str, Any], folder: Path) -> Path:
    """The version-2 document ``data`` (damaged or not) written by parts into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in split_document(data).items():
        (folder / name).write_bytes(raw)
    return folder


def by_definition(folder: Path) -> Finding:
    """The finding of the proof by parts entry by entry: the code and the whole message."""
    try:
        found = first_failure(load_parts(folder))
    except BookError as error:  # (the manifest: no part for either to prove)
        found = error
    return None if found is None else (found.code, str(found))


def accelerated(folder: Path) -> Finding:
    """The finding of ``ttt-book verify``'s proof by parts."""
    try:
        parts_proof.prove_parts(folder)
    except BookError as error:
        return error.code, str(error)
    return None


def assert_same_finding(folder: Path, runs: tuple[int, ...] = (proof_engine.RUN,)) -> Finding:
    definition = by_definition(folder)
    for run in runs:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(parts_proof, "RUN", run)
            assert accelerated(folder) == definition, run
    return definition


# ---------------------------------------------------------------- the same findings


@pytest.mark.parametrize("damage", parts_vectors.damaged(up_to=16))
def test_the_damaged_books_by_parts_of_the_parts_vectors(damage: str, tmp_path: Path) -> None:
    """Each invalid case of book/parts-vectors.json: its code, naming its file (of 16 cells at
    most: past 16 the proof is on arrays, tests/test_layer_proof.py)."""
    case = parts_vectors.case_named(damage)
    folder = parts_vectors.write_case(damage, tmp_path / "parts")
    found = assert_same_finding(folder, runs=(1, 7, proof_engine.RUN))
    assert found is not None and found[0] == case["expect"], found
    assert parts_vectors.named_file(found[1]) == case["file"], found


#: tests/test_proof_runs.py's damage (one or two entries in different layers, each step), to
#: the 3x3 book; to the misère and 2x3 k=2 books, the cases of two damages.
SPLIT = [("3x3", damage) for damage in [[], *test_proof_runs.CASES]] + [
    (book, damage)
    for book in ("3x3 misere", "2x3 k=2")
    for damage in test_proof_runs.CASES
    if len(damage) > 1
]


@pytest.mark.parametrize(("book", "damage"), SPLIT, ids=str)
def test_damaged_version_2_books_split_into_parts(
    book: str, damage: list[tuple[str, int]], tmp_path: Path
) -> None:
    """The same finding, and the code the version-2 proof gives the book before it was split."""
    data = test_proof_runs.broken(book, damage)
    folder = split_into(data, tmp_path / "parts")
    found = assert_same_finding(
        folder, runs=(3, proof_engine.RUN) if len(damage) > 1 else (proof_engine.RUN,)
    )
    assert (found or ("valid",))[0] == test_proof_runs.verdict(data)[0]


def test_a_missing_layer_and_a_missing_empty_board(tmp_path: Path) -> None:
    """A layer with no part: its parents' successors are no entries; no layer 0: no empty board,
    whatever else is missing (the proof by parts checks the empty board first)."""
    data = json.loads(json.dumps(test_proof_runs.BOOKS["3x3"]))
    for marks in (4, 0):
        data["entries"] = {
            key: text for key, text in data["entries"].items() if 9 - key.count(EMPTY) != marks
        }
        data["counts"]["entries"] = len(data["entries"])
        found = assert_same_finding(split_into(data, tmp_path / str(marks)))
        assert found is not None and found[0] == "missing-entry"
    assert found[1].endswith("manifest.json: has no entry for the empty board [missing-entry]")


# ---------------------------------------------------------------- a disagreement


@pytest.mark.parametrize(
    ("method", "finding"),
    [
        ("enter", ("entry-key", 0)),
        ("enter", ("entry-shape", 0)),
        ("check", ("missing-entry", 0)),
        ("check", ("entry-inconsistent", 0)),
    ],
)
def test_a_disagreement_is_an_internal_error(
    method: str, finding: tuple[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accelerator made to name an entry of a valid book: ProofDisagreement, never a
    BookError with an empty reason."""
    folder = split_into(test_proof_runs.BOOKS["3x3"], tmp_path / "parts")
    monkeypatch.setattr(EntryProof, method, lambda self, tell, table: finding)
    with pytest.raises(proof.ProofDisagreement, match="internal error"):
        parts_proof.prove_parts(folder)


def test_a_finding_of_the_wrong_step_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry inconsistent with its successors, named as one with a successor missing."""
    data = json.loads(json.dumps(test_proof_runs.BOOKS["3x3"]))
    data["entries"]["........X"] = "0 3"
    folder = split_into(data, tmp_path / "parts")
    assert accelerated(folder) == by_definition(folder)
    real = EntryProof.check

    def misnamed(self: EntryProof, tell: Any, table: bytearray) -> tuple[str, int] | None:
        found = real(self, tell, table)
        return None if found is None else ("missing-entry", found[1])

    monkeypatch.setattr(EntryProof, "check", misnamed)
    with pytest.raises(proof.ProofDisagreement):
        parts_proof.prove_parts(folder)


# ---------------------------------------------------------------- what it holds and reads


def test_it_holds_two_adjacent_layers_and_reads_each_part_once(
    book_3x4_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound of docs/book-parts.md: when a layer is checked, the accelerator holds it and
    the layer after it, no other; every part is read once (steps 12 to 14 and the rest)."""
    folder = split_into(load_book(book_3x4_path).data, tmp_path / "parts")
    alive: weakref.WeakSet[EntryProof] = weakref.WeakSet()
    checked: list[int] = []
    reads: list[str] = []
    made, enter, check, texts = (
        EntryProof.__init__,
        EntryProof.enter,
        EntryProof.check,
        parts_proof.part_texts,
    )

    def layer(proof: EntryProof) -> int:
        return len(proof.keys[0]) - proof.keys[0].count(EMPTY)

    def counted(self: EntryProof, *args: Any) -> None:
        made(self, *args)
        alive.add(self)

    def entering(self: EntryProof, tell: Any, table: bytearray) -> tuple[str, int] | None:
        assert {layer(held) for held in alive} <= {layer(self) - 1, layer(self)}
        return enter(self, tell, table)

    def checking(self: EntryProof, tell: Any, table: bytearray) -> tuple[str, int] | None:
        assert {layer(held) for held in alive} == {layer(self), layer(self) + 1} - {12}
        checked.append(layer(self))
        return check(self, tell, table)

    monkeypatch.setattr(EntryProof, "__init__", counted)
    monkeypatch.setattr(EntryProof, "enter", entering)
    monkeypatch.setattr(EntryProof, "check", checking)
    monkeypatch.setattr(parts_proof, "part_texts", lambda *args: reads.append(args[1].file) or texts(*args))
    book = parts_proof.prove_parts(folder)
    assert checked == list(range(12))
    assert sorted(reads) == sorted(part.file for part in book.texts.parts)
