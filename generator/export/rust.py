"""The book as one Rust module (``ttt-book export --lang rust``): static tables and a few functions,
no crates, the same answers as the C export (generator/export/c.py) in Rust's idiom: a
``Result`` with a ``BoardError`` instead of negative codes, a ``Vec`` of cells, ``Option``
for a taken cell's score.

``rust_book(table)`` is pure: the full table in (generator/export/tables.py), the file text out,
the Rust itself in generator/export/templates/book.rs.
Compile it as a library (``rustc --edition 2021 --crate-type lib tictactoe_book.rs``) or add it
to a crate as a module.
"""

from __future__ import annotations

from generator.export.c import ERRORS
from generator.export.tables import FullTable
from generator.export.text import (
    describe_against,
    describe_rules,
    fill,
    key_bits,
    rust_string,
    win_score,
    wrapped,
)

BOOK_MODULE = "tictactoe_book.rs"

#: The board errors of the full table (the strategy tables' two are C only).
BOARD_ERRORS = ERRORS[:5]


def rust_book(table: FullTable) -> dict[str, str]:
    """``{file name: text}`` of the Rust export."""
    rules = table.rules
    count = len(table.keys)
    bits = key_bits(rules)
    perms = "\n".join(f"    [{', '.join(map(str, s.perm))}], // {s.name}" for s in rules.symmetries)
    lines = "\n".join(f"    [{', '.join(map(str, line))}]," for line in rules.lines)
    variants = "\n".join(
        f"    /// {meaning.replace(' (or is NULL)', '')}.\n    {name.title().replace('_', '')},"
        for name, _, meaning in BOARD_ERRORS
    )
    codes = "\n".join(
        f'            BoardError::{name.title().replace("_", "")} => "{code}",'
        for name, code, _ in BOARD_ERRORS
    )
    text = fill(
        "book.rs",
        rules=describe_rules(rules),
        count=count,
        rows=rules.rows,
        cols=rules.cols,
        k=rules.k,
        cells=rules.cells,
        misere=str(rules.misere).lower(),
        bits=bits,
        symmetries=len(rules.symmetries),
        line_count=len(rules.lines),
        perms=perms,
        lines=lines,
        win_score=win_score(rules),
        keys=wrapped(table.keys),
        bests=wrapped(table.bests),
        tops=wrapped(table.tops),
        variants=variants,
        codes=codes,
        against=rust_string(table.against),
        against_words=describe_against(table.against),
    )
    return {BOOK_MODULE: text}
