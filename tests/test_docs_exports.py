"""docs/porting.md's table of export sizes, computed (issue 42, item 9: its ``.text`` and source
sizes had gone stale): the positions and the source bytes here, in ``make test``; the object
file's sections by gcc and ``size -A``, as the table says, in ``make test-exports``.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from tictactoe_book import Book, Rules, load_book, parse_book
from tictactoe_generator.export.c import c_book, c_strategy, strategy_names
from tictactoe_generator.export.tables import full_table, strategy_table
from tictactoe_generator.writer import build_book, encode

ROOT = Path(__file__).resolve().parent.parent
PORTING = (ROOT / "docs" / "porting.md").read_text()
ROW = re.compile(r"^\| (3x3|3x4 k=3) (full|strategy X|strategy O) \|(.*)\|$", re.MULTILINE)


@cache
def book(board: str) -> Book:
    if board == "3x3":
        return load_book()
    return parse_book(encode(build_book(Rules.parse("3x4:3"))), rules=None)


def documented() -> dict[tuple[str, str], list[int]]:
    """Each row's figures, in order: positions, .rodata, .text, source."""
    rows = {
        (board, what): [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", cells)]
        for board, what, cells in ROW.findall(PORTING)
    }
    assert len(rows) == 6, rows
    return rows


def export(board: str, what: str) -> tuple[int, dict[str, str], str]:
    """The export's positions, its files and the name of its ``.c`` file."""
    if what == "full":
        table = full_table(book(board))
        return len(book(board)), c_book(table), "tictactoe_book.c"
    side = what[-1]
    strategy = strategy_table(book(board), side)
    return len(strategy.keys), c_strategy(strategy), strategy_names(side)[1]


@pytest.mark.parametrize(("board", "what"), list(documented()))
def test_the_positions_and_the_source_are_as_the_table_says(board: str, what: str) -> None:
    positions, files, source = export(board, what)
    row = documented()[board, what]
    assert (row[0], row[-1]) == (positions, len(files[source].encode())), (board, what)


@pytest.mark.exports
@pytest.mark.parametrize(("board", "what"), list(documented()))
def test_the_sections_are_as_the_table_says(board: str, what: str, tmp_path: Path) -> None:
    _, files, source = export(board, what)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    subprocess.run(
        [
            "gcc",
            "-std=c99",
            "-Os",
            "-c",
            str(tmp_path / source),
            "-I",
            str(tmp_path),
            "-o",
            str(tmp_path / "o.o"),
        ],
        check=True,
    )
    sizes = {}
    for line in subprocess.run(
        ["size", "-A", str(tmp_path / "o.o")], capture_output=True, text=True, check=True
    ).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    # no string literal: the error names are an array among the tables (in flash on AVR, where a
    # literal is copied into RAM; tests/test_export_avr.py)
    assert not [name for name in sizes if name.startswith(".rodata.str")], sizes
    assert documented()[board, what][1:3] == [sizes[".rodata"], sizes[".text"]], (board, what, sizes)
