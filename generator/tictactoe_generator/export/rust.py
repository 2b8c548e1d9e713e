"""The book as a Rust crate (``ttt-book export --lang rust``): static tables and a few functions,
no dependencies, the same answers as the C export (generator/tictactoe_generator/export/c.py) in Rust's
idiom: a
``Result`` with a ``BoardError`` (or a ``MoveError``) instead of negative codes, a ``Vec`` of
cells, ``Option`` for a taken cell's score or a game that goes on, a ``Level`` enum, an ``Rng``
whose numbers are the C export's.

``rust_book(table)`` is pure: the full table in (generator/tictactoe_generator/export/tables.py), the crate's
files
out (``Cargo.toml``, ``src/lib.rs``, ``tests/game.rs``), the Rust itself in
generator/tictactoe_generator/export/templates/ (``Cargo.toml``, ``lib.rs``, ``game.rs``). Add it to a
project with
``cargo add --path DIR``; ``cargo test --offline`` in DIR runs its tests.
"""

from __future__ import annotations

import re

from tictactoe_book import __version__
from tictactoe_book.play import HORIZON, LEVELS
from tictactoe_generator.export.c import ERRORS
from tictactoe_generator.export.tables import FullTable
from tictactoe_generator.export.text import (
    describe_against,
    describe_rules,
    fill,
    key_bits,
    rust_string,
    win_score,
    wrapped,
)

CRATE_FILES = ("Cargo.toml", "src/lib.rs", "tests/game.rs")

#: The crate's name unless ``--crate`` gives another; a program imports it as ``tictactoe_book``.
DEFAULT_CRATE = "tictactoe-book"

#: A crate's name: lower-case letters and digits, a letter first, words joined by one ``-`` or
#: ``_`` (cargo takes more; these are the names that read the same in Cargo.toml and in ``use``).
CRATE = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def check_crate(name: str) -> str:
    """``name`` if a crate can be called so (``CRATE``), else ValueError saying why."""
    if not CRATE.fullmatch(name):
        raise ValueError(
            f"{name!r} cannot name a crate here: use lower-case letters, digits and single '-' or '_', "
            "a letter first (tictactoe-misere is used as tictactoe_misere)"
        )
    return name


#: The board errors of the full table (the strategy tables' two are C only).
BOARD_ERRORS = ERRORS[:5]


def rust_book(table: FullTable, *, crate: str = DEFAULT_CRATE) -> dict[str, str]:
    """``{file name: text}`` of the Rust export: a crate named ``crate``, so that crates of
    other names (the normal and the misère book) are members of one workspace."""
    rules = table.rules
    command = "ttt-book export --lang rust" + (
        "" if check_crate(crate) == DEFAULT_CRATE else f" --crate {crate}"
    )
    crate_lib = crate.replace("-", "_")
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
    levels = [level.title() for level in LEVELS]
    library = fill(
        "lib.rs",
        command=command,
        crate_lib=crate_lib,
        rules=describe_rules(rules),
        count=count,
        rows=rules.rows,
        cols=rules.cols,
        k=rules.k,
        cells=rules.cells,
        misere=str(rules.misere).lower(),
        bits=bits,
        # a key of 16 bits widened to the codes' 32 (clippy's useless_conversion: not a u32's)
        key_as_u32="u32::from(key)" if bits == 16 else "key",
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
        level_variants="\n".join(f"    {name}," for name in levels),
        level_count=len(LEVELS),
        level_list=", ".join(f"Level::{name}" for name in levels),
        level_names="\n".join(
            f'            Level::{name} => "{level}",' for name, level in zip(levels, LEVELS, strict=True)
        ),
        level_horizons="\n".join(
            f"            Level::{name} => {HORIZON.get(level, 0)},"
            for name, level in zip(levels, LEVELS, strict=True)
        ),
    )
    manifest = fill(
        "Cargo.toml",
        command=command,
        crate=crate,
        rules=describe_rules(rules),
        count=count,
        version=__version__,
    )
    tests = fill("game.rs", command=command, crate_lib=crate_lib)
    return dict(zip(CRATE_FILES, (manifest, library, tests), strict=True))
