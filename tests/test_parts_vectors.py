"""Every case of book/parts-vectors.json against every reader that checks books by parts
(docs/conformance.md, "Parts vectors"): the Python loader (``load_book``, probing), the proof by
parts (its definition ``parts.first_failure``, ``prove_parts``'s accelerator, or past 16 cells
``layer_proof.prove_by_layers``, as ``ttt-book verify`` chooses), ``ttt-book verify`` itself, and
the JavaScript reader by files (``openPartsBook``) and by fetch (``fetchPartsBook``), through
tests/parts_judge.mjs. (``node --test clients/js/`` runs them through clients/js/check-parts-vectors.mjs
too, the checker a porter reads.)

Each case's folder is rebuilt here with this file's own reading of the edit rules, as a port
would, and compared with the builder's (tests/parts_vectors.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from parts_vectors import (
    PARTS_VECTORS_FORMAT,
    build_parts_vectors,
    case_files,
    encode_parts_vectors,
    write_folder,
)

from tictactoe_book import BookError, load_book
from tictactoe_book.parts import MANIFEST, PartsBook, first_failure, load_parts
from tictactoe_book.parts_proof import prove_parts
from tictactoe_generator.cli import main as book_cli
from tictactoe_generator.layer_proof import prove_by_layers
from tictactoe_generator.parts import split_document

ROOT = Path(__file__).resolve().parent.parent
VECTORS_PATH = ROOT / "book" / "parts-vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_bytes())
BOOK_PATH = ROOT / "book" / VECTORS["book"]
CASES = VECTORS["cases"]
JUDGE = Path(__file__).resolve().parent / "parts_judge.mjs"
# docs/book-parts.md, "A valid book by parts", typed in again, in the order of its steps
CODES = [
    "unreadable",
    "limits",
    "json",
    "format",
    "version",
    "rules",
    "lines",
    "symmetries",
    "parts",
    "counts",
    "part-missing",
    "part-hash",
    "part-format",
    "entry-key",
    "entry-shape",
    "missing-entry",
    "entry-inconsistent",
]
OPENING = CODES[: CODES.index("counts") + 1]
WORDS = {1: "win", 0: "draw", -1: "loss"}
ANSWER = ("turn", "key", "value", "plies", "scores", "tiers")


def apply(files: dict[str, bytes], edits: list[dict[str, Any]]) -> dict[str, bytes]:
    """docs/conformance.md, "Parts vectors", the edits, written out again."""
    files = dict(files)
    for edit in edits:
        name = edit["file"]
        if "text" in edit:
            files[name] = edit["text"].encode()
        elif "base64" in edit:
            files[name] = base64.b64decode(edit["base64"])
        elif "find" in edit:
            text = files[name].decode()
            pieces = text.split(edit["find"])
            assert len(pieces) == 2, f"{name}: {edit['find'][:60]!r} occurs {len(pieces) - 1} times"
            assert text.find(edit["find"], text.find(edit["find"]) + 1) < 0, "overlapping occurrences"
            files[name] = (pieces[0] + edit["replace"] * edit.get("times", 1) + pieces[1]).encode()
        elif "delete" in edit:
            del files[name]
        elif "flip" in edit:
            files[name] = (
                files[name][: edit["flip"]]
                + bytes([files[name][edit["flip"]] ^ 1])
                + files[name][edit["flip"] + 1 :]
            )
        elif "keep" in edit:
            files[name] = files[name][: edit["keep"]]
        elif "append" in edit:
            files[name] = files[name] + base64.b64decode(edit["append"])
        else:
            files[name], files[edit["swap"]] = files[edit["swap"]], files[name]
    return files


BASE = apply({}, VECTORS["base"])


def named_file(message: str) -> str:
    """The file a message names: the last segment of what comes before its first ': '."""
    return message.split(": ", 1)[0].replace("\\", "/").rsplit("/", 1)[-1]


def refusal(error: BookError) -> dict[str, str]:
    """A refusal as the vectors write one; its message is one line ending in the code in brackets."""
    message = str(error)
    assert message.endswith(f" [{error.code}]") and "\n" not in message, message
    return {"refused": error.code, "file": named_file(message)}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Every case's folder, named after it (the two of 4 MB manifests deleted after)."""
    root = tmp_path_factory.mktemp("parts-vectors")
    made = {case["name"]: write_folder(apply(BASE, case["edits"]), root / case["name"]) for case in CASES}
    yield made
    shutil.rmtree(root)


# ---------------------------------------------------------------- the file


def test_the_file_describes_the_shipped_book() -> None:
    assert (VECTORS["format"], VECTORS["version"]) == (PARTS_VECTORS_FORMAT, 1)
    assert VECTORS["book_sha256"] == hashlib.sha256(BOOK_PATH.read_bytes()).hexdigest(), (
        "book/parts-vectors.json was built from another book: run `make book`"
    )
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))
    # every code has a case, and the cases come in the order of the steps, valid ones first
    assert {case["expect"] for case in CASES} == {"valid", *CODES}
    order = [-1 if case["expect"] == "valid" else CODES.index(case["expect"]) for case in CASES]
    assert order == sorted(order)


def test_every_case_says_what_a_probing_reader_meets() -> None:
    """A book a probing reader opens has probes: answers (every valid case: the same boards),
    and for a damaged one at least one board that meets the damage with its code, unless only
    the proof meets it (entry-key); a book it refuses on opening has none."""
    every_board = [probe["board"] for probe in CASES[0]["probes"]]
    for case in CASES:
        expect, probes = case["expect"], case["probes"]
        assert case["opens"] == (expect not in OPENING), case["name"]
        met = [probe for probe in probes if "refused" in probe]
        if not case["opens"] or expect == "entry-key":
            assert probes == [], case["name"]
        elif expect == "valid":
            boards = [probe["board"] for probe in probes]
            assert met == [] and boards and boards == every_board[: len(boards)], case["name"]
        else:
            assert met and all(probe["refused"] == expect for probe in met), case["name"]


def test_the_file_is_up_to_date() -> None:
    if VECTORS["zlib"] != zlib.ZLIB_RUNTIME_VERSION:
        pytest.skip(
            f"the parts were compressed by zlib {VECTORS['zlib']}; this is {zlib.ZLIB_RUNTIME_VERSION}"
        )
    rebuilt = encode_parts_vectors(
        build_parts_vectors(BOOK_PATH.read_bytes(), BOOK_PATH.with_name("tictactoe-misere.json").read_bytes())
    )
    assert rebuilt == VECTORS_PATH.read_bytes(), "book/parts-vectors.json is stale: run `make book`"


def test_one_base_file_and_one_case_per_line() -> None:
    lines = VECTORS_PATH.read_bytes().splitlines()
    assert len(lines) == 1 + len(VECTORS["base"]) + 1 + len(CASES) + 1
    items = VECTORS["base"] + CASES
    body = lines[1 : 1 + len(VECTORS["base"])] + lines[2 + len(VECTORS["base"]) : -1]
    assert [json.loads(line.rstrip(b",")) for line in body] == items


def said(files: dict[str, bytes]) -> dict[str, Any]:
    """A book by parts' files as what they say: the manifest without the parts' bytes and
    hashes (those of one zlib), and each part's text."""
    manifest = json.loads(files[MANIFEST])
    for part in manifest["parts"]:
        del part["bytes"], part["sha256"]
    return {name: zlib.decompress(data) for name, data in files.items() if name != MANIFEST} | {
        MANIFEST: manifest
    }


def test_the_base_is_the_book_as_ttt_book_split_cuts_it() -> None:
    """Whatever zlib wrote the parts: the same texts and manifest."""
    assert said(BASE) == said(split_document(json.loads(BOOK_PATH.read_bytes())))
    assert VECTORS["base"][0] == {"file": MANIFEST, "text": BASE[MANIFEST].decode()}


def test_a_parts_text_edits_say_what_its_bytes_hold() -> None:
    """A part's new bytes inflate to its text before the edit with ``text_edits`` applied."""
    checked = 0
    for case in CASES:
        files = dict(BASE)
        for edit in case["edits"]:
            if "text_edits" in edit:
                before = zlib.decompress(files[edit["file"]]).decode()
                assert (
                    zlib.decompress(base64.b64decode(edit["base64"])).decode()
                    == apply({"t": before.encode()}, [{"file": "t", **text} for text in edit["text_edits"]])[
                        "t"
                    ].decode()
                ), case["name"]
                checked += 1
            files = apply(files, [edit])
    assert checked > 10


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_the_builders_edits_are_the_docs_edits(case: dict[str, Any]) -> None:
    assert case_files(VECTORS, case) == apply(BASE, case["edits"])


# ---------------------------------------------------------------- the Python reader, probing


def probe_python(folder: Path, probe: dict[str, Any]) -> dict[str, Any]:
    """A fresh reader of ``folder`` asked ``probe``'s board: its answer as the vectors write one,
    or its refusal."""
    book = load_book(folder)
    assert isinstance(book, PartsBook)
    try:
        found = book.evaluate(probe["board"], first=probe["first"])
    except BookError as error:
        return refusal(error)
    read = [book.texts.parts[place].file for place in sorted(book.texts.cached)]
    assert book.texts.reads == len(read)
    return {
        "turn": found.turn,
        "key": found.key,
        "value": WORDS[found.value],
        "plies": found.plies,
        "scores": list(found.cell_scores),
        "tiers": [list(tier) for tier in found.tiers],
        "parts": read,
    }


def wanted(probe: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in probe.items() if k not in ("board", "first")}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_python_reader(case: dict[str, Any], folders: dict[str, Path]) -> None:
    folder = folders[case["name"]]
    if not case["opens"]:
        for given in (folder / MANIFEST, folder):
            with pytest.raises(BookError) as caught:
                load_book(given)
            assert caught.value.code == case["expect"], case["description"]
            if given.name == MANIFEST:  # (given the folder, a reader may name the folder)
                assert refusal(caught.value) == {"refused": case["expect"], "file": case["file"]}
        return
    if case["expect"] == "valid":
        assert load_book(folder).against == case["against"]
    for probe in case["probes"]:
        assert probe_python(folder, probe) == wanted(probe), (probe["board"], case["description"])


# ---------------------------------------------------------------- the proof and ttt-book verify


def proofs(folder: Path) -> list[tuple[str, str] | None]:
    """The finding of the proof's definition and of the proof ``ttt-book verify`` runs, each
    ``(code, file named)`` or None for a valid book."""
    found: list[tuple[str, str] | None] = []
    try:
        book = load_parts(folder)
    except BookError as error:
        return [(error.code, named_file(str(error)))] * 2
    definition = first_failure(book)
    found.append(None if definition is None else (definition.code, named_file(str(definition))))
    try:
        (prove_by_layers if book.rules.cells > 16 else prove_parts)(folder)
        found.append(None)
    except BookError as error:
        found.append((error.code, named_file(str(error))))
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_the_proof(case: dict[str, Any], folders: dict[str, Path]) -> None:
    expected = None if case["expect"] == "valid" else (case["expect"], case["file"])
    assert proofs(folders[case["name"]]) == [expected, expected], case["description"]


INVALID_MARK = re.compile(r"INVALID \[([\w-]+)\]")
INVALID = [case for case in CASES if case["expect"] != "valid"]


@pytest.mark.parametrize("case", INVALID, ids=lambda case: case["name"])
def test_ttt_book_verify(case: dict[str, Any], folders: dict[str, Path]) -> None:
    """``INVALID [code]`` and exit status 1; 3 when the manifest cannot be read. (The valid
    cases are left out: verify goes on to compare them with a fresh build, which an edit of the
    bytes fails.)"""
    result = CliRunner().invoke(book_cli, ["verify", str(folders[case["name"]])])
    if case["expect"] == "unreadable":
        assert result.exit_code == 3 and "[unreadable]" in result.output, result.output
    else:
        assert (result.exit_code, INVALID_MARK.findall(result.output)) == (1, [case["expect"]]), result.output


def test_ttt_book_verify_finds_the_base_valid_and_as_built(folders: dict[str, Path]) -> None:
    result = CliRunner().invoke(book_cli, ["verify", str(folders["base"])])
    assert result.exit_code == 0 and "bytes as built" in result.output, result.output


# ---------------------------------------------------------------- the JavaScript reader


VIAS = ("files", "fetch")


@pytest.fixture(scope="module")
def js_results(folders: dict[str, Path]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """tests/parts_judge.mjs on every case by files and by fetch: a fresh reader for each probe
    (or one that opens, for a case refused on opening), all in one node process."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    jobs, owners = [], []
    for case in CASES:
        for via in VIAS:
            boards = [[probe["board"], probe["first"]] for probe in case["probes"]] or [None]
            for board in boards:
                jobs.append(
                    {"folder": str(folders[case["name"]]), "via": via, "boards": [board] if board else []}
                )
                owners.append((case["name"], via))
    done = subprocess.run(
        [node, str(JUDGE)], input=json.dumps(jobs), capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for owner, result in zip(owners, json.loads(done.stdout), strict=True):
        results.setdefault(owner, []).append(result)
    return results


def js_answer(result: dict[str, Any]) -> dict[str, Any]:
    """The judge's result for one probe as the vectors write it, with ``reads``: the part files
    read and their bytes (the judge's reader cannot name them)."""
    (found,) = result["answers"]
    assert "crash" not in found, found
    if "code" in found:
        assert found["message"].endswith(f" [{found['code']}]"), found
        return {"refused": found["code"], "file": named_file(found["message"])}
    return {k: WORDS[found[k]] if k == "value" else found[k] for k in ANSWER} | {
        "reads": (result["reads"], result["bytesRead"])
    }


#: Every case, the two of 20 cells included (the JavaScript reader reads up to 20 cells, as the
#: Python one does).
JS_CASES = CASES


@pytest.mark.parametrize("via", VIAS)
@pytest.mark.parametrize("case", JS_CASES, ids=lambda case: case["name"])
def test_js_reader(
    case: dict[str, Any], via: str, js_results: dict[tuple[str, str], list[dict[str, Any]]]
) -> None:
    results = js_results[(case["name"], via)]
    if not case["opens"]:
        (result,) = results
        assert (result.get("code"), named_file(result.get("message", ""))) == (
            case["expect"],
            case["file"],
        ), result
        return
    if not case["probes"]:  # only the proof meets the damage: the reader opens the book
        assert [("answers" in result, result.get("code")) for result in results] == [(True, None)], results
        return
    manifest = json.loads(apply(BASE, case["edits"])[MANIFEST])
    size = {item["file"]: item["bytes"] for item in manifest["parts"]}
    for probe, result in zip(case["probes"], results, strict=True):
        want = wanted(probe)
        if "parts" in want:
            parts = want.pop("parts")
            want["reads"] = (len(parts), sum(size[file] for file in parts))
        assert js_answer(result) == want, (probe["board"], case["description"])
