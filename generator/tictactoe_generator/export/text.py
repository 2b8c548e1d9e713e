"""Text helpers the source exports share (generator/tictactoe_generator/export/c.py,
generator/tictactoe_generator/export/rust.py):
numbers wrapped into array lines, string literals in C and Rust, and the facts of a table that
both headers state."""

from __future__ import annotations

from collections.abc import Iterable
from importlib.resources import files
from string import Template

from tictactoe_book.codes import shift
from tictactoe_book.game import Rules, after_line, one_ply_back
from tictactoe_book.opponents import OPPONENTS

WIDTH = 100  # characters per line of an array, its indent included


def fill(name: str, **values: object) -> str:
    """The template generator/tictactoe_generator/export/templates/``name`` with its ``${...}`` placeholders
    filled
    (``string.Template``; every placeholder must be given)."""
    text = files("tictactoe_generator.export").joinpath("templates", name).read_text(encoding="utf-8")
    return Template(text).substitute({key: str(value) for key, value in values.items()})


def wrapped(numbers: Iterable[int], indent: str = "    ") -> str:
    """``numbers`` as comma-separated lines of at most WIDTH characters, each line indented,
    a comma after every number (C and Rust both accept the last one)."""
    lines: list[str] = []
    line = indent
    for number in numbers:
        item = f"{number},"
        if len(line) + len(item) + 1 > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def key_bits(rules: Rules) -> int:
    """16 when every board code fits in 16 bits (up to 8 cells, two bits a cell), else 32."""
    width = shift(rules.cells, 0) + 2  # the first cell's digit is the code's highest
    return 16 if width <= 16 else 32


def win_score(rules: Rules) -> int:
    """The score of a move that completes a line: a win in 1 ply, or under misère a loss in 1."""
    return one_ply_back(after_line(rules))


def describe_rules(rules: Rules) -> str:
    """``3x3, k = 3`` (and ``, misère``), for a generated file's first comment."""
    return f"{rules.rows}x{rules.cols}, k = {rules.k}" + (
        ", misere (completing a line loses)" if rules.misere else ""
    )


def packed_moves(moves: Iterable[int]) -> list[int]:
    """Moves (cells 0 to 15) two to a byte: move ``2i`` in the low nibble of byte ``i``."""
    items = list(moves)
    if len(items) % 2:
        items.append(0)
    return [items[i] | items[i + 1] << 4 for i in range(0, len(items), 2)]


def c_string(text: str) -> str:
    """``text`` as a C string literal of its UTF-8 bytes: printable ASCII as it is, but for
    ``"``, ``\\`` and ``?`` (which could start a trigraph), every other byte in octal (three
    digits: an octal escape ends there, unlike ``\\x``, which takes every hex digit after it)."""
    plain = {byte for byte in range(0x20, 0x7F)} - {ord('"'), ord("\\"), ord("?")}
    return '"' + "".join(chr(b) if b in plain else f"\\{b:03o}" for b in text.encode()) + '"'


def rust_string(text: str) -> str:
    """``text`` as a Rust string literal: printable ASCII as it is, but for ``"`` and ``\\``,
    every other character as ``\\u{...}``."""
    return (
        '"'
        + "".join(
            char if " " <= char <= "~" and char not in '"\\' else f"\\u{{{ord(char):x}}}" for char in text
        )
        + '"'
    )


def describe_against(against: str) -> str:
    """Whom the top tiers are ranked to beat, for a generated file's comment: a reference
    opponent in its words (``"a novice (wins if it can, else blocks, else plays at random)"``);
    anything else is named only through the literal beside the comment."""
    found = OPPONENTS.get(against)
    if found is None:
        return "another opponent, named by the book (a program's)"
    return f"{found.words} ({found.plays})"
