"""Parts vectors: a small book by parts and damaged copies of it, each with the verdict every
reader of books by parts must give and the answers a probing reader gives (docs/conformance.md,
"Parts vectors"; the format: docs/book-parts.md).

The base is the packaged 3x3 book cut by ``ttt-book split`` (``split_document``): its manifest and
its 9 parts, the parts as base64 of their bytes. A part's bytes are the output of one zlib (the
header names its version and level) and the manifest's hashes are of those bytes, so a port
takes the bytes as they are and needs no compressor of its own: only the inflater a reader has
anyway. A case stores edits of the base's files, not its files, and its expectations:
``expect`` (the proof's verdict: ``"valid"`` or the reason code of docs/book-parts.md's first
failing step) and the file its refusal names, whether a probing reader opens the book, and
``probes``: boards a probing reader answers (the version-2 reader's answers on the same entries,
and the parts read to give them) or refuses (the code and the file, when it meets the damage).

This module is the one definition of the damaged books by parts the tests use
(tests/test_parts.py, test_parts_proof.py, test_layer_proof.py, test_parts_resume.py take their
damage from here: ``write_case``). ``python tests/parts_vectors.py`` (``make book``) writes
``book/parts-vectors.json``; the builder is test data, kept out of the package.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
from book_vectors import (
    PLACEHOLDER,
    JsonText,
    compact_reversed,
    find_edit,
    reindented,
    structural_count,
)
from book_vectors import apply_edits as apply_text_edits

from tictactoe_book.book import Book
from tictactoe_book.book_format import MAX_STRUCTURE
from tictactoe_book.game import EMPTY, Rules, canonical, transform
from tictactoe_book.parts import MANIFEST
from tictactoe_book.proof import successors
from tictactoe_book.reader import parse_book
from tictactoe_generator.atomic import fingerprint, write_atomically, written
from tictactoe_generator.parts import LEVEL, compress, manifest_bytes, part_file, split_document
from tictactoe_generator.writer import document

PARTS_VECTORS_FORMAT = "tictactoe-book-parts-vectors"
PARTS_VECTORS_VERSION = 1
ROOT = Path(__file__).resolve().parent.parent
VECTORS_PATH = ROOT / "book" / "parts-vectors.json"
#: The codes of docs/book-parts.md's steps 1 to 11, which a probing reader checks on opening.
OPENING = (
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
)
#: The code a probing reader never meets (step 15, the proof's alone: a key it looks up is
#: canonical and unfinished by construction).
PROOF_ONLY = ("entry-key",)

Files = dict[str, bytes]
Edit = dict[str, Any]
Probe = dict[str, Any]
WORDS = {1: "win", 0: "draw", -1: "loss"}


# ---------------------------------------------------------------- the edits


def apply_edits(files: Files, edits: Iterable[Edit]) -> Files:
    """The folder a case describes: ``edits`` applied in order to ``files`` (name: bytes), as
    docs/conformance.md, "Parts vectors", says. ValueError when an edit does not apply (a
    ``find`` not there exactly once, a file that is not there)."""
    files = dict(files)
    for number, edit in enumerate(edits):
        name = edit["file"]
        if "text" in edit:
            files[name] = edit["text"].encode("utf-8")
            continue
        if "base64" in edit:
            files[name] = base64.b64decode(edit["base64"], validate=True)
            continue
        if name not in files:
            raise ValueError(f"edit {number}: no file {name!r}")
        if "find" in edit:
            files[name] = apply_text_edits(files[name].decode("utf-8"), [edit]).encode("utf-8")
        elif edit.get("delete") is True:
            del files[name]
        elif "flip" in edit:
            raw = bytearray(files[name])
            raw[edit["flip"]] ^= 0x01
            files[name] = bytes(raw)
        elif "keep" in edit:
            files[name] = files[name][: edit["keep"]]
        elif "append" in edit:
            files[name] += base64.b64decode(edit["append"], validate=True)
        elif "swap" in edit:
            other = edit["swap"]
            files[name], files[other] = files[other], files[name]
        else:
            raise ValueError(f"edit {number}: {sorted(edit)} is no edit")
    return files


def base_files(vectors: dict[str, Any]) -> Files:
    """The base folder of ``vectors``: its files, name to bytes."""
    return apply_edits({}, vectors["base"])


def case_files(vectors: dict[str, Any], case: dict[str, Any]) -> Files:
    return apply_edits(base_files(vectors), case["edits"])


@functools.cache
def committed() -> dict[str, Any]:
    """book/parts-vectors.json, parsed."""
    vectors: dict[str, Any] = json.loads(VECTORS_PATH.read_bytes())
    return vectors


def case_named(name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(case for case in committed()["cases"] if case["name"] == name)
    return found


def damaged(*, up_to: int = 20) -> list[str]:
    """The names of the committed vectors' invalid cases, in order, but those of a book over
    ``up_to`` cells that a reader opens (a proof of it is a proof past 16 cells, on arrays)."""
    names = []
    for case in committed()["cases"]:
        if case["expect"] == "valid":
            continue
        if case["opens"] and json.loads(case_files(committed(), case)[MANIFEST])["rules"]["cells"] > up_to:
            continue
        names.append(case["name"])
    return names


def named_file(message: str) -> str:
    """The file a reader's message names: the last segment of what comes before its first ': '."""
    return message.split(": ", 1)[0].replace("\\", "/").rsplit("/", 1)[-1]


def write_folder(files: Files, folder: Path) -> Path:
    """``folder`` made to hold exactly ``files`` (other regular files in it removed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.iterdir():
        if path.name not in files and path.is_file():
            path.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def write_case(name: str, folder: Path) -> Path:
    """The book by parts of the committed vectors' case ``name``, written into ``folder``."""
    return write_folder(case_files(committed(), case_named(name)), folder)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _manifest(edit: Edit) -> Edit:
    return {"file": MANIFEST, **edit}


# ---------------------------------------------------------------- what a reader answers


def readable_entries(files: Files) -> tuple[dict[str, Any], dict[str, str]]:
    """The manifest of ``files`` and the entries of every part it names that inflates and is laid
    out as lines ``KEY ENTRY`` (others left out): a reading of the format for the expected
    answers, apart from the readers under test."""
    manifest: dict[str, Any] = json.loads(files[MANIFEST])
    entries: dict[str, str] = {}
    for item in manifest["parts"]:
        try:
            text = zlib.decompress(files[item["file"]]).decode("ascii")
        except (KeyError, zlib.error, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            key, _, entry = line.partition(" ")
            entries[key] = entry
    return manifest, entries


def answers(files: Files, boards: Iterable[tuple[str, str]], *, proven: bool) -> list[Probe]:
    """What a probing reader answers for each (board, first) on the book by parts ``files``:
    the answers of the version-2 reader of the same entries (``parse_book``, the proof, when
    ``proven``), and the part files an answer needs, in the manifest's order: the part of the
    board's canonical key and those of its successors' keys (docs/book-parts.md, "Probing")."""
    manifest, entries = readable_entries(files)
    header = {name: manifest[name] for name in HEADER if name in manifest}
    whole = {**header, "version": 2, "entries": entries}
    if proven:
        book = parse_book(json.dumps(whole).encode(), "parts vectors")
    else:
        stated = manifest["rules"]
        rules = Rules(stated["rows"], stated["cols"], stated["k"], misere=stated["misere"])
        book = Book(rules, whole, "parts vectors", trust="entries")  # (not proven: a damaged book)
    found = []
    for board, first in boards:
        told = book.evaluate(board, first=first)
        keys = {told.key} | {
            key for _, _, key, _ in successors(book.rules, entries, told.key) if key is not None
        }
        read = [
            item["file"]
            for item in manifest["parts"]
            if any(
                len(key) - key.count(EMPTY) == item["layer"] and item["first"] <= key <= item["last"]
                for key in keys
            )
        ]
        found.append(
            {
                "board": board,
                "first": first,
                "turn": told.turn,
                "key": told.key,
                "value": WORDS[told.value],
                "plies": told.plies,
                "scores": list(told.cell_scores),
                "tiers": [list(tier) for tier in told.tiers],
                "parts": read,
            }
        )
    return found


#: The members of a version-2 book's header a manifest shares.
HEADER = ("format", "canonical", "rules", "symmetries", "counts", "trap_order", "trap_rates")


def refused(board: str, code: str, file: str, first: str = "X") -> Probe:
    """A probe that meets the damage: a probing reader refuses ``board`` with ``code``, naming ``file``."""
    return {"board": board, "first": first, "refused": code, "file": file}


#: The boards every valid case is probed with (and their answers checked):
PROBES = [
    #   . . .
    #   . . .      X to move: the empty board (its part, layer 0, and layer 1's)
    #   . . .
    (".........", "X"),
    #   . . .
    #   . X .      O to move
    #   . . .
    ("....X....", "X"),
    #   O . .
    #   . . .      an O-first game, O to move: the key is the board with its marks swapped
    #   . . X
    ("O.......X", "O"),
    #   X X .
    #   . O O      X to move: wins at 2 (layers 4 and 5)
    #   . . .
    ("XX..OO...", "X"),
    #   X O X
    #   O X O      X to move: wins at 6 or 8
    #   . . .
    ("XOXOXO...", "X"),
    #   X O X
    #   X O O      X to move, one cell left: its successor ends the game, so one part is read
    #   O X .
    ("XOXXOOOX.", "X"),
]
#   . . .
#   . . X      X to move (layer 4): X wins at once at cell 2 (best score 9); edited below
#   O O X
EDITED = ".....XOOX"
#   . . .
#   . . O      X to move (layer 3): its successor by cell 2 is EDITED
#   . X X
PARENT = ".....O.XX"
#: A board (layer 4, X to move) whose answer reads layer 5's part, where most damage is done.
#   X X .
#   . O O
#   . . .
NEEDS_LAYER_5 = "XX..OO..."
PART_5 = "05-00000.part"
#: A board of 4x5 with 19 marks, O to move, the book of 20 cells' one entry (its canonical key):
#   X X O X X
#   X O O X O
#   O O O . X      O's move at 13, the last cell, completes the row 10-13: O wins in 1 ply
#   O X X X O
TWENTY = "XXOXXXOOXOOOO.XOXXXO"


# ---------------------------------------------------------------- the builder


class _Builder:
    """The base folder, its manifest's text, and the cases made from it, in a fixed order."""

    def __init__(self, files: Files, misere: Files) -> None:
        self.files = files
        #: the misère 3x3 book's files, as split_document cuts it: a part of another book
        self.misere = misere
        self.manifest = JsonText(files[MANIFEST].decode("ascii"))
        self.items: list[dict[str, Any]] = self.manifest.data["parts"]
        self.entry_count: int = self.manifest.data["counts"]["entries"]
        self.cases: list[dict[str, Any]] = []

    def add(
        self,
        name: str,
        expect: str,
        description: str,
        *edits: Edit | list[Edit],
        file: str | None = None,
        probes: Iterable[Probe | tuple[str, str]] = (),
        against: str = "novice",
    ) -> None:
        """A case. ``file``: the file the proof's refusal names (an invalid case); ``probes``:
        refusals (``refused``), and boards (board, first) whose answers are computed here."""
        if any(case["name"] == name for case in self.cases):
            raise ValueError(f"two cases named {name!r}")
        flat = [edit for group in edits for edit in (group if isinstance(group, list) else [group])]
        files = apply_edits(self.files, flat)  # each edit applies
        opens = expect == "valid" or expect not in OPENING
        if (expect == "valid") != (file is None):
            raise ValueError(f"{name}: an invalid case names a file, a valid one none")
        if expect == "valid":
            probes = probes or PROBES
        asked = [probe for probe in probes if not isinstance(probe, dict)]
        told = iter(answers(files, asked, proven=expect == "valid") if asked else [])
        found = [probe if isinstance(probe, dict) else next(told) for probe in probes]
        if opens != bool(found) and expect not in PROOF_ONLY:
            raise ValueError(f"{name}: probes are for the books a probing reader opens")
        case: dict[str, Any] = {"name": name, "expect": expect}
        case |= {"against": against} if expect == "valid" else {"file": file}
        case |= {"opens": opens, "probes": found, "description": description, "edits": flat}
        self.cases.append(case)

    # ---- the manifest

    def place(self, file: str) -> int:
        return next(place for place, item in enumerate(self.items) if item["file"] == file)

    def item(self, file: str, /, **changes: Any) -> Edit:
        """The manifest's item of part ``file`` with members changed (or added)."""
        place = self.place(file)
        return _manifest(self.manifest.change(("parts", place), {**self.items[place], **changes}))

    def item_tweak(self, file: str, old: str, new: str) -> Edit:
        return _manifest(self.manifest.tweak(("parts", self.place(file)), old, new))

    def counts(self, entries: Any) -> Edit:
        """counts.entries made ``entries``."""
        return _manifest(
            self.manifest.change(("counts",), {**self.manifest.data["counts"], "entries": entries})
        )

    def without_item(self, file: str) -> Edit:
        """The manifest without part ``file``'s item."""
        return _manifest(self.manifest.remove(("parts", self.place(file))))

    # ---- a part

    def text(self, file: str) -> str:
        return zlib.decompress(self.files[file]).decode("ascii")

    def line(self, file: str, key: str) -> str:
        """The line of ``key`` in part ``file``, with its newline."""
        return next(line for line in self.text(file).splitlines(keepends=True) if line.startswith(key + " "))

    def bytes_of(self, file: str, data: bytes, **changes: Any) -> list[Edit]:
        """Part ``file`` holding ``data`` (not a text), its item re-hashed to match."""
        return [
            {"file": file, "base64": _b64(data)},
            self.item(file, bytes=len(data), sha256=hashlib.sha256(data).hexdigest(), **changes),
        ]

    def rewrite(self, file: str, *text_edits: Edit, **changes: Any) -> list[Edit]:
        """Part ``file``'s text with ``text_edits`` (find and replace, each once), compressed as
        the writer compresses (``parts.compress``), its item re-hashed to match (and ``changes``
        made): damage only the layout, the grammar or the proof can see."""
        data = compress(apply_text_edits(self.text(file), list(text_edits)).encode("utf-8"))
        return [
            {"file": file, "base64": _b64(data), "text_edits": list(text_edits)},
            self.item(file, bytes=len(data), sha256=hashlib.sha256(data).hexdigest(), **changes),
        ]

    def insert(self, file: str, key: str, entry: str) -> list[Edit]:
        """A line ``key entry`` inserted in key order inside part ``file`` (not first or last),
        its item and counts.entries counting it."""
        lines = self.text(file).splitlines(keepends=True)
        after = next(line for line in lines if line[: len(key)] > key)
        if after is lines[0]:
            raise ValueError(f"{key!r} would be the first key of {file}")
        place = self.place(file)
        return [
            *self.rewrite(
                file, find_edit(after, f"{key} {entry}\n{after}"), entries=self.items[place]["entries"] + 1
            ),
            self.counts(self.entry_count + 1),
        ]


# ---------------------------------------------------------------- the cases


def build_parts_vectors(raw: bytes, misere_raw: bytes, book_name: str = "tictactoe.json") -> dict[str, Any]:
    """The vectors for the 3x3 book whose bytes are ``raw`` (and the misère 3x3 book's, whose
    part of layer 5 two cases put in the base's place)."""
    data = json.loads(raw)
    if (data["rules"]["rows"], data["rules"]["cols"], data["rules"]["misere"]) != (3, 3, False):
        raise ValueError("parts vectors are for the 3x3 book")
    b = _Builder(split_document(data), split_document(json.loads(misere_raw)))
    _valid_cases(b, data)
    _manifest_cases(b, raw)
    _part_cases(b)
    _entry_cases(b)
    return {
        "format": PARTS_VECTORS_FORMAT,
        "version": PARTS_VECTORS_VERSION,
        "book": book_name,
        "book_sha256": hashlib.sha256(raw).hexdigest(),
        "zlib": zlib.ZLIB_RUNTIME_VERSION,
        "level": LEVEL,
        "base": [
            {"file": name, "text": data.decode("ascii")}
            if name == MANIFEST
            else {"file": name, "base64": _b64(data)}
            for name, data in b.files.items()
        ],
        "cases": b.cases,
    }


def _valid_cases(b: _Builder, data: dict[str, Any]) -> None:
    manifest = b.manifest.data
    b.add("base", "valid", "The packaged 3x3 book as `ttt-book split` writes it, unchanged.")
    b.add(
        "manifest-reindented",
        "valid",
        "The manifest laid out with every kind of JSON white space (CR LF, tabs, spaces around ':' and "
        "after ','): it is strict JSON, not bytes a reader compares.",
        _manifest({"text": reindented(manifest)}),
    )
    b.add(
        "manifest-members-reordered",
        "valid",
        "Every object of the manifest with its members in reverse order, the parts' items too: the "
        "order of the list of parts matters, the order of members does not.",
        _manifest({"text": compact_reversed(manifest) + "\n"}),
    )
    b.add(
        "unknown-members",
        "valid",
        "Unknown members at the top level, in a part's item and in counts: ignored, as in version 2.",
        _manifest(b.manifest.top('"comment":{"about":["any",1,null,true]},')),
        b.item("03-00000.part", comment="a part may say more"),
        _manifest(b.manifest.change(("counts",), {**manifest["counts"], "note": "informational"})),
    )
    b.add(
        "other-files",
        "valid",
        "Files the manifest does not name beside the book (a note, a part of no book, a copy of a "
        "part under another name): a reader reads the parts the manifest names, and no other.",
        {"file": "README.txt", "text": "notes about this book\n"},
        {"file": "09-00000.part", "text": "not a part\n"},
        {"file": "05-00000.part.bak", "base64": _b64(b.files[PART_5])},
    )
    renamed = "layer_5-of-3x3.zlib"
    b.add(
        "part-renamed",
        "valid",
        f"Part {PART_5} renamed {renamed}, the manifest's item saying so: a reader finds a part by the "
        "manifest, never by the writer's way of naming them.",
        {"file": renamed, "base64": _b64(b.files[PART_5])},
        {"file": PART_5, "delete": True},
        b.item(PART_5, file=renamed),
    )
    runs = split_document(data, part_entries=16)
    b.add(
        "runs-of-16",
        "valid",
        f"The same book cut into runs of at most 16 keys ({len(runs) - 1} parts, several to a layer, "
        "split_document(book, part_entries=16)): a reader finds a key's part by a search over the "
        "first keys of its layer's parts.",
        [{"file": name, "delete": True} for name in b.files if name != MANIFEST],
        [{"file": name, "base64": _b64(raw)} for name, raw in runs.items() if name != MANIFEST],
        _manifest({"text": runs[MANIFEST].decode("ascii")}),
    )
    sixth = "06-00000.part"
    b.add(
        "parts-recompressed",
        "valid",
        f"{PART_5} compressed at zlib's level 0 (stored blocks) and {sixth} at level 9, the manifest "
        "re-hashed to match: other bytes for the same text, which a reader inflates as any other "
        "zlib stream.",
        b.bytes_of(PART_5, zlib.compress(b.text(PART_5).encode(), 0)),
        b.bytes_of(sixth, zlib.compress(b.text(sixth).encode(), 9)),
    )
    b.add(
        "best-negative-zero",
        "valid",
        'The entry of ........X written "-0 4" in 01-00000.part: the grammar of version 2 (-0 is 0).',
        b.rewrite("01-00000.part", find_edit("........X 0 4\n", "........X -0 4\n")),
    )
    empty = b.line("00-00000.part", EMPTY * 9)
    b.add(
        "tiers-merged",
        "valid",
        "The empty board's three tiers merged into one: the tiers together are the optimal moves, "
        "which is all validity asks (a reader answers one tier).",
        b.rewrite("00-00000.part", find_edit(empty, f"{EMPTY * 9} 0 0,1,2,3,4,5,6,7,8\n")),
    )
    b.add(
        "counts-informational-wrong",
        "valid",
        "Every member of counts but entries changed: informational, as in version 2.",
        _manifest(
            b.manifest.change(
                ("counts",), {k: v if k == "entries" else v + 1 for k, v in manifest["counts"].items()}
            )
        ),
    )
    b.add(
        "trap-order-against-random",
        "valid",
        'trap_order.against "random": whom the tiers are ranked against, reported by the reader.',
        _manifest(b.manifest.change(("trap_order",), {**manifest["trap_order"], "against": "random"})),
        against="random",
    )
    inserted = _manifest(b.manifest.top('"pad":"<commas>",'))
    commas = MAX_STRUCTURE - structural_count(apply_text_edits(b.manifest.text, [inserted]))
    b.add(
        "manifest-at-the-structure-limit",
        "valid",
        f"An unknown member whose string holds {commas:,} commas: exactly {MAX_STRUCTURE:,} of '[', "
        "'{', ',' in the manifest, version 2's limit, which the manifest keeps.",
        inserted,
        _manifest(find_edit("<commas>", ",", commas)),
        probes=PROBES[:1],  # (each probe opens the 4 MB manifest anew)
    )


def _manifest_cases(b: _Builder, v2_raw: bytes) -> None:
    """Steps 1 to 11: a probing reader refuses these on opening, naming the manifest."""
    manifest = b.manifest.data
    b.add(
        "no-manifest",
        "unreadable",
        "The folder without manifest.json: no book by parts (step 1). A reader given the folder "
        "says it cannot be read (`ttt-book verify` exits 3).",
        _manifest({"delete": True}),
        file=MANIFEST,
    )
    inserted = _manifest(b.manifest.top("<commas>"))
    commas = MAX_STRUCTURE + 1 - structural_count(apply_text_edits(b.manifest.text, [inserted]))
    b.add(
        "manifest-over-the-structure-limit",
        "limits",
        f"{commas:,} bare commas at the start of the manifest's object: one of '[', '{{', ',' over "
        f"version 2's limit of {MAX_STRUCTURE:,} (step 2, before the JSON is parsed).",
        inserted,
        _manifest(find_edit("<commas>", ",", commas)),
        file=MANIFEST,
    )
    size = b.items[5]["bytes"]
    b.add(
        "part-bytes-a-fraction",
        "json",
        f'{PART_5}\'s "bytes" written {size}.0: strict JSON has no fractions where an integer '
        "belongs, so step 3 refuses it before step 10 looks at the parts.",
        b.item_tweak(PART_5, f'"bytes":{size}', f'"bytes":{size}.0'),
        file=MANIFEST,
    )
    b.add(
        "format-other",
        "format",
        'format "tictactoe-book-parts": a book by parts says "tictactoe-book", as version 2.',
        _manifest(b.manifest.change(("format",), "tictactoe-book-parts")),
        file=MANIFEST,
    )
    b.add(
        "version-2-with-parts",
        "version",
        "The manifest saying version 2: a book by parts is version 3.",
        _manifest(b.manifest.change(("version",), 2)),
        file=MANIFEST,
    )
    b.add(
        "version-a-string",
        "version",
        'version "3", a string: the integer 3 only.',
        _manifest(b.manifest.change(("version",), "3")),
        file=MANIFEST,
    )
    b.add(
        "version-2-book-as-manifest",
        "version",
        "The version-2 book itself (book/tictactoe.json) as manifest.json: a reader of books by parts "
        "refuses it by its version, as a version-2 reader refuses a manifest.",
        _manifest({"text": v2_raw.decode("ascii")}),
        file=MANIFEST,
    )
    rules = manifest["rules"]
    b.add(
        "rules-over-20-cells",
        "rules",
        "rules 3x7 (21 cells): a book by parts holds up to 20 cells (version 2: 16).",
        _manifest(b.manifest.change(("rules",), {**rules, "cols": 7, "cells": 21})),
        file=MANIFEST,
    )
    b.add(
        "rules-of-20-cells-lines-of-9",
        "lines",
        "rules 4x5 (20 cells, k 3) with the lines of 3x3: 20 cells pass the rules (step 7), a version-2 "
        "reader would have refused them there; the lines (step 8) do not match the rules.",
        _manifest(b.manifest.change(("rules",), {**rules, "rows": 4, "cols": 5, "cells": 20})),
        file=MANIFEST,
    )
    b.add(
        "line-changed",
        "lines",
        "The first winning line written [0,1,3]: not the derived lines.",
        _manifest(b.manifest.tweak(("rules",), '"lines":[[0,1,2]', '"lines":[[0,1,3]')),
        file=MANIFEST,
    )
    b.add(
        "symmetry-changed",
        "symmetries",
        "The identity's perm with cells 0 and 1 exchanged: not a symmetry of the board.",
        _manifest(b.manifest.tweak(("symmetries", 0), '"perm":[0,1,', '"perm":[1,0,')),
        file=MANIFEST,
    )
    five, six = (b.manifest.text_of(("parts", place)) for place in (5, 6))
    b.add(
        "parts-out-of-order",
        "parts",
        f"The items of {PART_5} and 06-00000.part exchanged in the list: the parts are listed by "
        "layer, then key.",
        _manifest(find_edit(f"{five},{six}", f"{six},{five}")),
        file=MANIFEST,
    )
    b.add(
        "parts-empty",
        "parts",
        "parts an empty array.",
        _manifest(b.manifest.change(("parts",), [])),
        file=MANIFEST,
    )
    b.add(
        "parts-missing",
        "parts",
        "No parts member (nor entries): nothing to read.",
        _manifest(b.manifest.remove(("parts",))),
        file=MANIFEST,
    )
    b.add(
        "part-not-an-object",
        "parts",
        'The first item of parts the string "00-00000.part".',
        _manifest(b.manifest.change(("parts", 0), "00-00000.part")),
        file=MANIFEST,
    )
    for name, file, why in (
        (
            "part-file-outside",
            f"../{PART_5}",
            "a path out of the folder ('/' is not a name's character): a reader never reads outside "
            "the book's folder",
        ),
        ("part-file-manifest", MANIFEST, "the manifest's own name"),
        ("part-file-hidden", f".{PART_5}", "a name starting with '.'"),
        ("part-file-too-long", "p" * 101, "101 characters (at most 100)"),
    ):
        b.add(
            name,
            "parts",
            f"{PART_5}'s item naming the file {file!r}: {why}.",
            b.item(PART_5, file=file),
            file=MANIFEST,
        )
    b.add(
        "part-file-twice",
        "parts",
        f"06-00000.part's item naming {PART_5}: two items, one file.",
        b.item("06-00000.part", file=PART_5),
        file=MANIFEST,
    )
    b.add(
        "part-layer-of-a-full-board",
        "parts",
        "08-00000.part's item saying layer 9: a key with 9 marks on 9 cells has no move; layers are 0 "
        "to cells - 1.",
        b.item("08-00000.part", layer=9),
        file=MANIFEST,
    )
    item = b.items[5]
    b.add(
        "part-first-of-another-layer",
        "parts",
        f"{PART_5}'s first key written ....XOOX. (4 marks) in a part of layer 5.",
        b.item(PART_5, first="....XOOX."),
        file=MANIFEST,
    )
    b.add(
        "part-first-after-last",
        "parts",
        f"{PART_5}'s first and last keys exchanged: first after last.",
        b.item(PART_5, first=item["last"], last=item["first"]),
        file=MANIFEST,
    )
    for member in ("entries", "bytes"):
        b.add(
            f"part-{member}-zero",
            "parts",
            f"{PART_5}'s {member} 0: a part holds 1 or more.",
            b.item(PART_5, **{member: 0}),
            file=MANIFEST,
        )
    b.add(
        "part-sha256-uppercase",
        "parts",
        f"{PART_5}'s sha256 in upper case: 64 lowercase hex digits.",
        b.item(PART_5, sha256=item["sha256"].upper()),
        file=MANIFEST,
    )
    b.add(
        "counts-wrong",
        "counts",
        f"counts.entries {b.entry_count + 1}: the parts hold {b.entry_count} entries together.",
        b.counts(b.entry_count + 1),
        file=MANIFEST,
    )
    b.add(
        "counts-a-string",
        "counts",
        f'counts.entries "{b.entry_count}", a string.',
        b.counts(str(b.entry_count)),
        file=MANIFEST,
    )
    b.add(
        "counts-missing",
        "counts",
        "No counts member.",
        _manifest(b.manifest.remove(("counts",))),
        file=MANIFEST,
    )


def _part_cases(b: _Builder) -> None:
    """Steps 12 to 14: a probing reader meets these when it reads the part (NEEDS_LAYER_5 reads
    layer 5's); a board whose answer needs no damaged part is still answered."""
    meets = refused(NEEDS_LAYER_5, "part-missing", PART_5)
    b.add(
        "missing-part",
        "part-missing",
        f"{PART_5} deleted. The empty board needs only layers 0 and 1, and is answered.",
        {"file": PART_5, "delete": True},
        file=PART_5,
        probes=[meets, (EMPTY * 9, "X")],
    )
    raw = b.files[PART_5]

    def hash_case(name: str, description: str, *edits: Edit | list[Edit], **more: Any) -> None:
        b.add(
            name,
            "part-hash",
            description,
            *edits,
            file=PART_5,
            probes=[refused(NEEDS_LAYER_5, "part-hash", PART_5), *more.get("probes", [])],
        )

    hash_case(
        "flip-a-byte",
        f"The byte at {len(raw) // 2} of {PART_5} with its lowest bit flipped. The empty board is "
        "still answered.",
        {"file": PART_5, "flip": len(raw) // 2},
        probes=[(EMPTY * 9, "X")],
    )
    hash_case("truncated", f"{PART_5} without its last 7 bytes.", {"file": PART_5, "keep": len(raw) - 7})
    hash_case(
        "parts-swapped", f"{PART_5} and 06-00000.part exchanged.", {"file": PART_5, "swap": "06-00000.part"}
    )
    hash_case(
        "byte-appended",
        f"A newline after {PART_5}'s bytes, the manifest not told.",
        {"file": PART_5, "append": _b64(b"\n")},
    )
    hash_case(
        "wrong-manifest-hash",
        f"The manifest's sha256 of {PART_5} all zeros.",
        b.item(PART_5, sha256="0" * 64),
    )
    hash_case(
        "wrong-manifest-bytes",
        f"The manifest saying {PART_5} is one byte longer than it is.",
        b.item(PART_5, bytes=len(raw) + 1),
    )
    hash_case(
        "part-of-another-book",
        f"{PART_5} replaced by the misère 3x3 book's {PART_5} (the same keys, other entries).",
        {"file": PART_5, "base64": _b64(b.misere[PART_5])},
    )

    def format_case(name: str, description: str, *edits: Edit | list[Edit]) -> None:
        b.add(
            name,
            "part-format",
            description,
            *edits,
            file=PART_5,
            probes=[refused(NEEDS_LAYER_5, "part-format", PART_5)],
        )

    text = b.text(PART_5)
    lines = text.splitlines(keepends=True)
    rehashed = "the manifest re-hashed to match"
    format_case(
        "not-zlib",
        f"{PART_5} the text 'not a zlib stream', {rehashed}.",
        b.bytes_of(PART_5, b"not a zlib stream\n"),
    )
    format_case(
        "raw-deflate",
        f"{PART_5} a raw deflate stream (RFC 1951, no zlib header or Adler-32 trailer), {rehashed}.",
        b.bytes_of(PART_5, _raw_deflate(text.encode())),
    )
    format_case(
        "gzip",
        f"{PART_5} a gzip stream (RFC 1952) of its text, {rehashed}.",
        b.bytes_of(PART_5, gzip.compress(text.encode(), mtime=0)),
    )
    format_case(
        "trailing-byte",
        f"A newline after {PART_5}'s zlib stream, {rehashed}: a part is one zlib stream and nothing "
        "after it.",
        b.bytes_of(PART_5, raw + b"\n"),
    )
    format_case(
        "two-streams", f"{PART_5}'s zlib stream twice over, {rehashed}.", b.bytes_of(PART_5, raw + raw)
    )
    format_case(
        "empty-text", f"{PART_5} a zlib stream of no text, {rehashed}.", b.bytes_of(PART_5, compress(b""))
    )
    format_case(
        "keys-out-of-order",
        f"{PART_5}'s second and third lines exchanged, {rehashed}.",
        b.rewrite(PART_5, find_edit(lines[1] + lines[2], lines[2] + lines[1])),
    )
    format_case(
        "a-line-too-many",
        f"A line XXXXXOOOO 0 0 after {PART_5}'s last, {rehashed}: it holds one more line than the "
        "manifest's entries.",
        b.rewrite(PART_5, find_edit(lines[-1], lines[-1] + "XXXXXOOOO 0 0\n")),
    )
    format_case(
        "entries-one-less-in-manifest",
        f"The manifest saying {PART_5} holds one entry less (and counts.entries one less): the "
        "part's lines do not match.",
        b.item(PART_5, entries=b.items[5]["entries"] - 1),
        b.counts(b.entry_count - 1),
    )
    format_case(
        "first-key-other-in-manifest",
        f"The manifest saying {PART_5}'s first key is its second: the part's first line is another key.",
        b.item(PART_5, first=lines[1].split(" ")[0]),
    )
    format_case(
        "no-final-newline",
        f"{PART_5}'s last line without its newline, {rehashed}.",
        b.rewrite(PART_5, find_edit(lines[-1], lines[-1][:-1])),
    )
    format_case(
        "not-ascii",
        f"An Arabic-Indic digit four (U+0664, UTF-8) in place of a digit of {PART_5}'s first entry, "
        f"{rehashed}: "
        "the text is ASCII (step 14, before the grammar's step 16).",
        b.rewrite(PART_5, find_edit(lines[0], lines[0][:-2] + "\u0664\n")),
    )
    format_case(
        "tab",
        f"A tab in place of the space after {PART_5}'s first key, {rehashed}.",
        b.rewrite(PART_5, find_edit(lines[0], lines[0].replace(" ", "\t", 1))),
    )
    format_case(
        "key-of-another-layer",
        f"{PART_5}'s second line with a key of 4 marks (....XOO.X), {rehashed}.",
        b.rewrite(PART_5, find_edit(lines[1], "....XOO.X" + lines[1][9:])),
    )


def _turned_inside(text: str, rules: Rules) -> tuple[str, str]:
    """The first key of a part's ``text`` with an image under a symmetry that is not canonical,
    is not in the part, and falls between its first and last keys: the key and the image."""
    keys = [line.split(" ")[0] for line in text.splitlines()]
    for key in keys:
        for symmetry in rules.symmetries:
            image = transform(key, symmetry)
            if keys[0] < image < keys[-1] and image not in keys:
                return key, image
    raise ValueError("no key turned falls inside the part")


def _raw_deflate(text: bytes) -> bytes:
    squeeze = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return squeeze.compress(text) + squeeze.flush()


def _entry_cases(b: _Builder) -> None:
    """Steps 15 to 18."""
    rules = Rules()
    # keys the proof refuses (step 15), which a probing reader never looks up
    for name, board, why in (
        #   X O O
        #   . X .      X has the diagonal 0-4-8: finished (as a canonical key)
        #   . . X
        ("finished-key", "XOO.X...X", "a finished board (a diagonal of X), in canonical form"),
        #   X . X
        #   . X .      four X and one O: #X - #O is 3
        #   O X .
        ("key-unbalanced", "X.X.X.OX.", "four X and one O (#X - #O is 3), in canonical form"),
    ):
        key = canonical(rules, board)[0]
        b.add(
            name,
            "entry-key",
            f"A line {key} 0 8 added inside {PART_5} (its item and counts.entries counting it, the manifest "
            f"re-hashed): {why}. Only the proof checks keys (step 15): a probing reader never looks one "
            "like it up.",
            b.insert(PART_5, key, "0 8"),
            file=PART_5,
        )
    key, turned = _turned_inside(b.text(PART_5), rules)
    b.add(
        "key-not-canonical",
        "entry-key",
        f"A line {turned} with {key}'s entry added inside {PART_5} (counted, re-hashed): {key} turned "
        "by a symmetry, not its canonical form. Only the proof checks keys.",
        b.insert(PART_5, turned, b.line(PART_5, key)[10:-1]),
        file=PART_5,
    )
    four = "04-00000.part"
    line = b.line(four, EDITED)
    b.add(
        "entry-misshapen",
        "entry-shape",
        f"{EDITED}'s entry written \"9 02\" in {four}: a leading zero (version 2's grammar).",
        b.rewrite(four, find_edit(line, f"{EDITED} 9 02\n")),
        file=four,
        probes=[refused(EDITED, "entry-shape", four)],
    )
    b.add(
        "two-spaces",
        "entry-shape",
        f"Two spaces after the key {EDITED} in {four}: the layout holds (a key, a space, the rest) and "
        'the rest, " 9 2", breaks the grammar.',
        b.rewrite(four, find_edit(line, f"{EDITED}  9 2\n")),
        file=four,
        probes=[refused(EDITED, "entry-shape", four)],
    )
    b.add(
        "cell-off-the-board",
        "entry-shape",
        f'{EDITED}\'s entry written "9 9" in {four}: 3x3 has cells 0 to 8.',
        b.rewrite(four, find_edit(line, f"{EDITED} 9 9\n")),
        file=four,
        probes=[refused(EDITED, "entry-shape", four)],
    )
    text = b.text(PART_5)
    b.add(
        "crlf",
        "entry-shape",
        f"{PART_5}'s lines ending in CR LF (the manifest re-hashed): each line still ends in a newline, "
        "and the CR before it is the last character of the entry string, which the grammar refuses "
        "(step 16). A reader that splits lines at CR LF too answers what the part does not say.",
        b.rewrite(PART_5, {"text": text.replace("\n", "\r\n")}),
        file=PART_5,
        probes=[refused(NEEDS_LAYER_5, "entry-shape", PART_5)],
    )
    three = "03-00000.part"
    place = b.place(four)
    b.add(
        "entry-missing",
        "missing-entry",
        f"{EDITED}'s line taken out of {four} (its item and counts.entries one less, the manifest "
        f"re-hashed): {PARENT}'s move at 2 makes it, so {PARENT}'s entry in {three} lacks a successor.",
        b.rewrite(four, find_edit(line, ""), entries=b.items[place]["entries"] - 1),
        b.counts(b.entry_count - 1),
        file=three,
        probes=[refused(PARENT, "missing-entry", three), (EMPTY * 9, "X")],
    )
    entries = b.items[place]["entries"]
    b.add(
        "layer-missing",
        "missing-entry",
        f"{four} deleted and its item taken out of the manifest (counts.entries {entries} less): no "
        "part holds a key of 4 marks, so the entries of layer 3 lack their successors.",
        {"file": four, "delete": True},
        b.without_item(four),
        b.counts(b.entry_count - entries),
        file=three,
        probes=[refused(PARENT, "missing-entry", three)],
    )
    zero = "00-00000.part"
    b.add(
        "no-empty-board",
        "missing-entry",
        f"{zero} deleted and its item taken out (counts.entries one less): the book has no entry for "
        "the empty board, which the proof checks first and a probing reader meets when asked it.",
        {"file": zero, "delete": True},
        b.without_item(zero),
        b.counts(b.entry_count - 1),
        file=MANIFEST,
        probes=[refused(EMPTY * 9, "missing-entry", MANIFEST), ("....X....", "X")],
    )
    _twenty_cells(b)
    b.add(
        "entry-wrong-by-one",
        "entry-inconsistent",
        f'{EDITED}\'s entry written "8 2" in {four}: X wins at 2 at once, best score 9.',
        b.rewrite(four, find_edit(line, f"{EDITED} 8 2\n")),
        file=four,
        probes=[refused(EDITED, "entry-inconsistent", four)],
    )
    misere = b.misere[PART_5]
    b.add(
        "part-of-another-book-rehashed",
        "entry-inconsistent",
        f"{PART_5} replaced by the misère 3x3 book's {PART_5}, the manifest re-hashed to match: the same "
        "keys laid out alike, so only the entries' proof finds it: first in .....OOXX, of layer 4, whose "
        "best score its successors no longer make (a probing reader asked it meets it there, and in an "
        "entry of layer 5, whose successors are the normal book's).",
        b.bytes_of(PART_5, misere),
        file=four,
        probes=[
            #   . . .
            #   . . O      X to move (layer 4): best score 7 in the normal book, its successors
            #   O X X      by the misère part's scores make it 0
            refused(".....OOXX", "entry-inconsistent", four),
            refused(zlib.decompress(misere).decode().split(" ", 1)[0], "entry-inconsistent", PART_5),
        ],
    )
    b.add(
        "tier-not-optimal",
        "entry-inconsistent",
        f'{EDITED}\'s entry written "9 0,2" in {four}: 0 does not win at once.',
        b.rewrite(four, find_edit(line, f"{EDITED} 9 0,2\n")),
        file=four,
        probes=[refused(EDITED, "entry-inconsistent", four)],
    )


def _twenty_cells(b: _Builder) -> None:
    """A book of 4x5 k=4 (20 cells) holding one entry: its manifest opens, a board whose one
    move ends the game is answered, and the empty board is missing."""
    rules = Rules(4, 5, 4)
    key = canonical(rules, TWENTY)[0]
    entry = f"20 {key.index(EMPTY)}"
    name, data, item = part_file(19, 0, [key], [entry])
    header = document(rules, {}, {"entries": 1}, PLACEHOLDER, {})
    manifest = manifest_bytes(header, [item])
    b.add(
        "twenty-cells",
        "missing-entry",
        f"A book of 4x5 k=4 (20 cells) holding one entry, {key} {entry}: the manifest is valid (a book "
        f"by parts holds up to 20 cells), {TWENTY}, whose one move ends the game, is answered from "
        "its part alone, and the proof finds no entry for the empty board (nor does a probing "
        "reader asked it).",
        [{"file": file, "delete": True} for file in b.files],
        _manifest({"text": manifest.decode("ascii")}),
        {"file": name, "base64": _b64(data)},
        file=MANIFEST,
        probes=[
            refused(EMPTY * 20, "missing-entry", MANIFEST),
            (TWENTY, "X"),
        ],
    )


# ---------------------------------------------------------------- the file


def encode_parts_vectors(vectors: dict[str, Any]) -> bytes:
    """The header's members, then one base file a line, then one case a line; ASCII only."""
    header = {k: v for k, v in vectors.items() if k not in ("base", "cases")}
    base = ",\n".join(json.dumps(file, separators=(",", ":")) for file in vectors["base"])
    cases = ",\n".join(json.dumps(case, separators=(",", ":")) for case in vectors["cases"])
    return (
        json.dumps(header, separators=(",", ":"))[:-1]
        + ',"base":[\n'
        + base
        + '\n],"cases":[\n'
        + cases
        + "\n]}\n"
    ).encode()


def write_parts_vectors(book_path: Path, misere_path: Path, out_path: Path) -> bytes:
    data = encode_parts_vectors(
        build_parts_vectors(book_path.read_bytes(), misere_path.read_bytes(), book_path.name)
    )
    write_atomically(out_path, data)
    return data


@click.command()
@click.argument(
    "book", type=click.Path(dir_okay=False, path_type=Path), default=ROOT / "book" / "tictactoe.json"
)
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path), required=False)
def main(book: Path, output: Path | None) -> None:
    """Write the parts vectors for BOOK (default book/tictactoe.json; the misère book beside it
    gives a part of another book) to OUTPUT (default: parts-vectors.json beside BOOK)."""
    output = output or book.with_name("parts-vectors.json")
    before = fingerprint(output)
    try:
        data = write_parts_vectors(book, book.with_name("tictactoe-misere.json"), output)
    except OSError as error:
        raise click.ClickException(f"{error.filename or output}: {error.strerror or error}") from None
    cases = data.count(b'{"name":')
    click.echo(f"{written(output, before, data)}: {len(data):,} bytes, {cases} cases")


if __name__ == "__main__":
    main()
