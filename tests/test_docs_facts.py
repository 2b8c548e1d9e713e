"""Facts the documents state that a test can compute (issue 42, item 9: a porter found each of
these stale): names of modules and their members, the packaged books and their records, the
rules' text form, sizes and counts, the files a command runs on.
"""

from __future__ import annotations

import gzip
import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tictactoe_book import Rules
from tictactoe_book.apps.cli import main as play
from tictactoe_book.reader import PACKAGED

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]
DOTTED = re.compile(r"\b(tictactoe_(?:book|generator)(?:\.[A-Za-z_]\w*)+)")
#: the C exports' files, which share the package's name
NOT_PYTHON = re.compile(r"\.(?:h|c)$")
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}


def text(name: str) -> str:
    return (ROOT / name).read_text()


def resolves(dotted: str) -> bool:
    """``dotted`` is a module, or a module and attributes reached from it."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_dotted_name_a_document_gives_is_there(name: str) -> None:
    """porting.md named ``tictactoe_book.game.BoardCodes``, which is ``tictactoe_book.codes``'."""
    missing = sorted({n for n in DOTTED.findall(text(name)) if not NOT_PYTHON.search(n) and not resolves(n)})
    assert missing == [], f"{name} names what does not exist"


def test_the_scan_finds_a_name_that_moved() -> None:
    assert not resolves("tictactoe_book.game.BoardCodes") and resolves("tictactoe_book.codes.BoardCodes")


def test_book_format_names_every_packaged_book_and_its_record() -> None:
    """Four books, each with ``NAME.crc32`` beside it in book/, written by ``make book``."""
    doc = text("docs/book-format.md")
    trusting = doc.split("### Trusting the packaged book", 1)[1].split("\n### ", 1)[0]
    count = NUMBERS[len(PACKAGED)]
    assert f"the {count} books inside the Python package" in trusting
    assert f"default: the {count} packaged books" in doc
    for name in PACKAGED.values():
        assert f"`{name}`" in trusting, name
        assert (ROOT / "book" / f"{name}.crc32").is_file(), name
    assert "`NAME.crc32`" in trusting
    book_target = text("Makefile").split("\nbook:", 1)[1].split("\n\n", 1)[0]
    assert "tictactoe_generator.packaged book" in book_target


def test_the_rules_text_form_leaves_k_to_the_shorter_side() -> None:
    doc = text("docs/book-format.md")
    assert "a K left out is the shorter\nside, min(ROWS, COLS)" in doc
    examples = re.findall(r"`(\d+x\d+)` is `(\d+x\d+:\d+)`", doc)
    assert len(examples) == 3, examples
    for short, full in examples:
        assert Rules.parse(short) == Rules.parse(full), short
    for rows in range(1, 5):
        for cols in range(1, 5):
            assert Rules.parse(f"{rows}x{cols}").k == min(rows, cols)


def test_the_book_sizes_in_book_format_are_the_books() -> None:
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    figure = f"{len(raw):,} bytes ({len(gzip.compress(raw, 9, mtime=0)):,} with gzip -9)"
    assert figure in text("docs/book-format.md")


#: The vectors of whole books (book vectors, parts vectors), not of boards.
WHOLE_BOOK_VECTORS = {"book-vectors.json", "parts-vectors.json"}


def test_conformance_names_the_board_vector_files_node_runs() -> None:
    """``node --test clients/js/`` checks each board-vector file (it said "both files")."""
    files = sorted(p.name for p in (ROOT / "book").glob("*vectors.json") if p.name not in WHOLE_BOOK_VECTORS)
    assert len(files) == len(PACKAGED)
    sentence = text("docs/conformance.md").split("`node --test clients/js/` runs on each of the ", 1)[1]
    sentence = sentence.split(", and which", 1)[0]
    assert sentence.startswith(f"{NUMBERS[len(files)]}\nboard-vector files")
    assert sorted(re.findall(r"`([\w.-]+)`", sentence)) == files
    js_tests = text("clients/js/tictactoe-book.test.js")
    for name in files:
        assert f"'{name}'" in js_tests, name


def test_watch_json_prints_one_line_at_the_end() -> None:
    result = CliRunner().invoke(play, ["--watch", "--delay", "0", "--seed", "1", "--json"])
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 1
    assert json.loads(result.stdout)["format"] == "ttt-play-transcript"
    assert "its transcript, one line of JSON, when the game ends" in text("docs/reliability.md")


def reachable(rows: int, cols: int, k: int) -> tuple[int, int]:
    """Positions reachable from the empty board, X first, and how many of them are unfinished:
    walked a layer of marks at a time over base-3 codes (1 X, 2 O), sharing nothing with the
    product."""
    cells = rows * cols
    lines = [
        [(r + i * dr) * cols + c + i * dc for i in range(k)]
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        for r in range(rows)
        for c in range(cols)
        if 0 <= r + (k - 1) * dr < rows and 0 <= c + (k - 1) * dc < cols
    ]
    powers = 3 ** np.arange(cells, dtype=np.int64)
    layer = np.zeros(1, dtype=np.int64)
    found = unfinished = 0
    for marks in range(cells + 1):
        digits = [(layer // p) % 3 for p in powers]
        over = np.zeros(len(layer), dtype=bool) if marks < cells else np.ones(len(layer), dtype=bool)
        for line in lines:
            for mark in (1, 2):
                owned = digits[line[0]] == mark
                for cell in line[1:]:
                    owned &= digits[cell] == mark
                over |= owned
        found += len(layer)
        unfinished += int((~over).sum())
        seen = np.zeros(3**cells, dtype=bool)
        for cell in range(cells):
            seen[layer[~over & (digits[cell] == 0)] + (1 + marks % 2) * powers[cell]] = True
        layer = np.flatnonzero(seen)
        if not len(layer):
            break
    return found, unfinished


def test_the_count_knows_3x3() -> None:
    assert reachable(3, 3, 3) == (5478, 4520)  # OpenSpiel's 5,478 states


@pytest.mark.big
def test_conformance_counts_4x4_as_the_count_does() -> None:
    """ "4x4 has 9.7 million" counted finished positions too (issue 42, item 9)."""
    found, unfinished = reachable(4, 4, 4)
    assert f"4x4 has {found:,} reachable positions, of which {unfinished:,} are unfinished" in text(
        "docs/conformance.md"
    )


def test_a_parsed_book_loses_what_strict_json_refuses_as_book_format_says() -> None:
    """Issue 42, item 9: JS ``loadBook`` on a parsed object accepted ``8.0`` where the same bytes
    are refused (``json``): one definition, and the difference documented."""
    doc = " ".join(text("docs/book-format.md").split())
    assert "the object parsed from bytes that are refused with `json` may load" in doc
    node = shutil.which("node")
    assert node, "node is needed (as make test-js)"
    script = """
import { readFileSync } from 'node:fs';
import { loadBook } from './clients/js/tictactoe-book.js';
const raw = readFileSync('book/tictactoe.json', 'utf8').replace('"version":2}', '"version":2.0}');
if (raw === readFileSync('book/tictactoe.json', 'utf8')) throw new Error('no version member found');
let code = 'loaded';
try { loadBook(new TextEncoder().encode(raw)); } catch (error) { code = error.code; }
loadBook(JSON.parse(raw));
console.log(code);
"""
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "json"
