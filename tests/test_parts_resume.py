"""The proof by parts resumes and tells the truth of its progress (tictactoe_book.parts_proof;
docs/book-parts.md, "The proof by parts").

* Interrupted (Ctrl-C, SIGTERM) and run again, it begins after the last layer it proved: the
  layers before are not read again, only their parts hashed; it gives the same verdict as a
  proof from the start, a part damaged in the meantime is still found, and a finding made
  before the interruption is still the one given. A changed manifest, a state that is not one,
  or no record (``TTT_PROVEN_RECORD`` empty) starts over; a proof that ends forgets its state
  and records a valid book's manifest as proven.
* Its progress tells the work from none to all (from the work of the layers proven before,
  when it resumes), and the project's bar fed by it, on a clock that runs as the proof's work
  does (the costs measured on 4x4, docs/benchmarks.md), shows a time left within twice the
  truth from its first tenth on.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parts_vectors
import pytest
from test_parts_proof import split_into

import tictactoe_book.parts_proof as parts_proof
from tictactoe_book import BookError, load_book, trust
from tictactoe_book.apps import progress as progress_bars
from tictactoe_book.game import EMPTY
from tictactoe_book.parts import load_parts
from tictactoe_book.proof_engine import EntryProof, _Images

ROOT = Path(__file__).resolve().parent.parent
BOOK_3X3 = json.loads((ROOT / "book" / "tictactoe.json").read_bytes())
Call = tuple[str, int, int]


@pytest.fixture
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A record of the test's own (conftest: none), and every book big enough to be kept."""
    path = tmp_path / "cache" / "proven-sha256.txt"
    monkeypatch.setenv(trust.RECORD_VARIABLE, str(path))
    monkeypatch.setattr(trust, "RECORD_ABOVE", 0)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return split_into(BOOK_3X3, tmp_path / "parts")


def state_path(record: Path) -> Path:
    return record.parent / trust.PROOF_STATE


def interrupt(folder: Path, after: float) -> None:
    """A proof of ``folder`` interrupted, as by Ctrl-C, once ``after`` of its work is told done."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prove" and done >= after * total:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        parts_proof.prove_parts(folder, progress=told)


def verdict(folder: Path, calls: list[Call] | None = None) -> str:
    """What the proof of ``folder`` says: "valid" or the refusal, as one line."""
    try:
        parts_proof.prove_parts(folder, progress=None if calls is None else lambda *call: calls.append(call))
    except BookError as error:
        return str(error)
    return "valid"


def layers_of(files: list[str]) -> set[int]:
    return {int(name[:2]) for name in files}


def counting(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The parts read whole (steps 12 to 14), and those only hashed again, by the proof."""
    read: list[str] = []
    hashed: list[str] = []
    texts, raw = parts_proof.part_texts, parts_proof.part_bytes
    monkeypatch.setattr(parts_proof, "part_texts", lambda *args: read.append(args[1].file) or texts(*args))
    monkeypatch.setattr(parts_proof, "part_bytes", lambda *args: hashed.append(args[1].file) or raw(*args))
    return read, hashed


# ---------------------------------------------------------------- resuming


def test_an_interrupted_proof_resumes_after_the_last_layer_it_proved(
    record: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupt(folder, 0.5)
    kept = json.loads(state_path(record).read_bytes())
    proven = kept["layers"]
    assert 0 < proven < 9 and kept["findings"] == []
    read, hashed = counting(monkeypatch)
    calls: list[Call] = []
    assert verdict(folder, calls) == "valid"
    assert calls[0] == ("resume", proven, 9)
    assert layers_of(read) == set(range(proven, 9)) and layers_of(hashed) == set(range(proven))
    told = [done for stage, done, _ in calls[1:]]
    assert told[0] > 0 and told == sorted(told) and told[-1] == calls[-1][2] == 627
    # the proof has ended: its state forgotten, the book recorded, and the next proof from the start
    assert not state_path(record).exists()
    assert trust.is_proven(load_parts(folder).manifest_sha256)
    calls.clear()
    assert verdict(folder, calls) == "valid" and calls[0] == ("prove", 0, 627)


def test_a_part_at_fault_ends_what_is_kept(record: Path, folder: Path) -> None:
    """Its file may be mended before the next run: the layers before it stay proven, no more."""
    damaged = folder / "03-00000.part"
    damaged.write_bytes(damaged.read_bytes()[:-1])
    interrupt(folder, 0.9)
    assert json.loads(state_path(record).read_bytes())["layers"] == 2
    assert verdict(folder).startswith(f"{damaged}: is ") and not state_path(record).exists()


@pytest.mark.parametrize("where", ["a layer proven before", "a layer after"])
def test_a_part_damaged_after_the_interruption_is_still_found(
    where: str, record: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupt(folder, 0.5)
    proven = json.loads(state_path(record).read_bytes())["layers"]
    damaged = folder / f"{proven - 1 if where == 'a layer proven before' else proven + 1:02d}-00000.part"
    raw = bytearray(damaged.read_bytes())
    raw[len(raw) // 2] ^= 1
    damaged.write_bytes(bytes(raw))
    calls: list[Call] = []
    refused = verdict(folder, calls)
    assert calls[0] == ("resume", proven, 9)
    assert refused.startswith(f"{damaged}: has SHA-256 ") and refused.endswith("[part-hash]")
    monkeypatch.setenv(trust.RECORD_VARIABLE, "")  # (no record: from the start)
    assert verdict(folder) == refused


def test_a_finding_made_before_the_interruption_is_the_one_given(record: Path, folder: Path) -> None:
    parts_vectors.write_case("entry-wrong-by-one", folder)  # layer 4, the manifest made to match
    fresh = verdict(folder)  # (the state forgotten: it ended)
    assert fresh.endswith("[entry-inconsistent]")
    interrupt(folder, 0.9)
    kept = json.loads(state_path(record).read_bytes())
    assert kept["layers"] > 5 and [code for code, _, _ in kept["findings"]] == ["entry-inconsistent"]
    calls: list[Call] = []
    assert verdict(folder, calls) == fresh and calls[0][0] == "resume"


def test_a_changed_manifest_starts_over(record: Path, folder: Path) -> None:
    interrupt(folder, 0.5)
    parts_vectors.write_case("entry-wrong-by-one", folder)
    calls: list[Call] = []
    assert verdict(folder, calls).endswith("[entry-inconsistent]")
    assert calls[0] == ("prove", 0, 627)


def test_without_a_record_or_under_its_size_nothing_is_kept(
    record: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trust, "RECORD_ABOVE", 1_000_000)  # (the 3x3 book's parts: 5 KB)
    interrupt(folder, 0.5)
    assert not record.parent.exists()
    monkeypatch.setattr(trust, "RECORD_ABOVE", 0)
    monkeypatch.setenv(trust.RECORD_VARIABLE, "")
    interrupt(folder, 0.5)
    assert not record.parent.exists()


def test_a_file_that_is_no_state_is_neither_used_nor_overwritten(record: Path, folder: Path) -> None:
    state_path(record).parent.mkdir(parents=True)
    for text in ("my notes\n", '{"manifest": "not a digest", "layers": 5}'):
        state_path(record).write_text(text)
        interrupt(folder, 0.5)
        calls: list[Call] = []
        assert verdict(folder, calls) == "valid" and calls[0] == ("prove", 0, 627)
        assert state_path(record).read_text() == text


def test_a_state_out_of_shape_starts_over(record: Path, folder: Path) -> None:
    interrupt(folder, 0.5)
    kept = json.loads(state_path(record).read_bytes())
    for wrong in ({"layers": 9}, {"layers": "5"}, {"findings": [["entry-key", "../x", "why"]]}):
        state_path(record).write_text(json.dumps({**kept, **wrong}))
        calls: list[Call] = []
        assert verdict(folder, calls) == "valid" and calls[0] == ("prove", 0, 627)


#: ``ttt-book verify`` with every book kept when interrupted, and each layer's second pass slowed
#: by LAYER_DELAY seconds.
SLOW_VERIFY = """
import os
import time
from tictactoe_book import proof_engine, trust
trust.RECORD_ABOVE = 0
checked = proof_engine.EntryProof.check
def slowly(self, tell, table):
    time.sleep(float(os.environ["LAYER_DELAY"]))
    return checked(self, tell, table)
proof_engine.EntryProof.check = slowly
from tictactoe_generator.cli import run
run()
"""


def test_ttt_book_verify_ended_by_sigterm_resumes_when_run_again(record: Path, folder: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), trust.RECORD_VARIABLE: str(record), "LAYER_DELAY": "0.5"}
    command = [sys.executable, "-c", SLOW_VERIFY, "verify", str(folder)]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as child:
        deadline = time.monotonic() + 60
        while not state_path(record).exists():  # (a layer proven)
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.05)
        child.terminate()
        out, err = child.communicate(timeout=60)
    assert (child.returncode, out, err) == (-signal.SIGTERM, "", "")
    proven = json.loads(state_path(record).read_bytes())["layers"]
    again = subprocess.run(
        command, env={**env, "LAYER_DELAY": "0"}, capture_output=True, text=True, timeout=120, check=False
    )
    assert again.returncode == 0, again.stderr
    said = f"resuming from layer {proven} of 9: layers 0 to {proven - 1} were proven by an interrupted run"
    assert again.stderr == f"{folder}: {said}\n"
    assert "valid — every one of 627 entries proven" in again.stdout and "bytes as built" in again.stdout


# ---------------------------------------------------------------- the progress


def test_the_progress_tells_the_work_from_none_to_all(folder: Path) -> None:
    calls: list[Call] = []
    assert verdict(folder, calls) == "valid"
    done = [count for _, count, _ in calls]
    assert {(stage, total) for stage, _, total in calls} == {("prove", 627)}
    assert done[0] == 0 and done[-1] == 627 and done == sorted(done) and len(done) > 20


#: What the proof's work costs, in microseconds (docs/benchmarks.md, "The proof by parts",
#: measured on 4x4): an entry read in its part; the first pass, an entry parsed and each
#: distinct entry string, then an entry's images; the second pass, an entry and each of its moves.
COSTS = {"read": 2.1, "parse": 0.5, "distinct": 8.0, "images": 5.3, "check": 1.2, "move": 0.13}


def at_the_pace_of_the_work(monkeypatch: pytest.MonkeyPatch) -> Callable[[], float]:
    """A clock that runs as the proof works: each piece of work moves it on by its cost, a
    second for a microsecond (the 3x4 book's proof then takes days, not a fraction of a second,
    on the bar's whole seconds)."""
    now = [0.0]

    def costs(name: str, real: Callable[..., Any], cost: Callable[..., float]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            found = real(*args)
            now[0] += cost(*args)
            return found

        return run

    texts, facts, images, moves = parts_proof.part_texts, EntryProof._facts, _Images.of, EntryProof._moves
    monkeypatch.setattr(
        parts_proof,
        "part_texts",
        costs("read", texts, lambda folder, part, rules: COSTS["read"] * part.entries),
    )

    def parsing(proof: EntryProof) -> float:
        return COSTS["parse"] * len(proof.values) + COSTS["distinct"] * len(set(proof.values))

    def checking(proof: EntryProof, mover: int, board: Any, ranks: list[int], *rest: Any) -> float:
        free = proof.keys[0].count(EMPTY)
        return (COSTS["check"] + COSTS["move"] * free) * len(ranks)

    monkeypatch.setattr(EntryProof, "_facts", costs("parse", facts, parsing))
    monkeypatch.setattr(
        _Images, "of", costs("images", images, lambda self, rows: COSTS["images"] * rows.count(b"\n"))
    )
    monkeypatch.setattr(EntryProof, "_moves", costs("check", moves, checking))
    return lambda: now[0]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_time_left_is_within_twice_the_truth_from_the_first_tenth(
    book_3x4_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = split_into(load_book(book_3x4_path).data, tmp_path / "parts")
    clock = at_the_pace_of_the_work(monkeypatch)
    stream = Terminal()
    monkeypatch.setattr(progress_bars.sys, "stderr", stream)
    shown: list[tuple[float, int, int, str]] = []
    with progress_bars.progress(
        len(load_parts(folder).texts), "Proving", after=0, counted="entries", clock=clock
    ) as advance:
        told = [0]

        def tell(stage: str, done: int, total: int) -> None:
            before = len(stream.getvalue())
            advance(done - told[0])
            told[0] = done
            shown.append((clock(), done, total, stream.getvalue()[before:]))

        parts_proof.prove_parts(folder, progress=tell)
    end = clock()
    checked = 0
    for at, done, total, text in shown:
        if done < total // 10 or done == total:
            continue
        found = re.search(r"(?:(\d+):)?(\d\d):(\d\d) left", text)
        assert found, repr(text)
        hours, minutes, seconds = (int(group or 0) for group in found.groups())
        estimate, truth = hours * 3600 + minutes * 60 + seconds, end - at
        assert truth / 2 - 1 <= estimate <= truth * 2 + 1, (done, estimate, truth)  # (whole seconds)
        checked += 1
    assert checked >= 10


# ---------------------------------------------------------------- the proof on arrays (past 16 cells)


def test_the_proof_on_arrays_resumes_too(record: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tictactoe_generator.layer_proof`` (``ttt-book verify`` past 16 cells, or on Dask)
    keeps the same state: interrupted, it goes on after the last layer it read, reading that
    one again (the next layer's moves are checked against it) and only hashing those before;
    its verdict is the proof's from the start, and a finding made before is still given."""
    import tictactoe_generator.layer_proof as layer_proof

    def told(stage: str, done: int, total: int) -> None:
        if stage == "prove" and done >= total // 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        layer_proof.prove_by_layers(folder, progress=told)
    layers = json.loads(state_path(record).read_bytes())["layers"]
    assert 0 < layers < 9
    read: list[str] = []
    hashed: list[str] = []
    texts, raw = layer_proof.part_texts, layer_proof.part_bytes
    monkeypatch.setattr(layer_proof, "part_texts", lambda *args: read.append(args[1].file) or texts(*args))
    monkeypatch.setattr(layer_proof, "part_bytes", lambda *args: hashed.append(args[1].file) or raw(*args))
    calls: list[Call] = []
    layer_proof.prove_by_layers(folder, progress=lambda *call: calls.append(call))
    assert calls[0] == ("resume", layers, 9)
    assert layers_of(read) == set(range(layers - 1, 9)) and layers_of(hashed) == set(range(layers - 1))
    assert not state_path(record).exists() and trust.is_proven(load_parts(folder).manifest_sha256)
    # a finding before the interruption is given after it: an entry's tiers wrong in layer 1
    data = json.loads(json.dumps(BOOK_3X3))
    key = next(k for k in sorted(data["entries"]) if 9 - k.count(EMPTY) == 1)
    best, *tiers = data["entries"][key].split(" ")
    data["entries"][key] = " ".join([best, *reversed(tiers)]) if len(tiers) > 1 else f"{best} 0"
    broken = split_into(data, folder.parent / "broken")
    whole = verdict_on_arrays(broken)
    state_path(record).unlink(missing_ok=True)
    with pytest.raises(KeyboardInterrupt):
        layer_proof.prove_by_layers(broken, progress=told)
    assert verdict_on_arrays(broken) == whole != "valid"


def verdict_on_arrays(folder: Path) -> str:
    import tictactoe_generator.layer_proof as layer_proof

    try:
        layer_proof.prove_by_layers(folder)
    except BookError as error:
        return str(error)
    return "valid"
