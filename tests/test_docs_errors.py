"""Every public error type is importable and listed in docs/porting.md, "Errors, in every
package" (issue 40, item 5): Python's exported errors, the JavaScript reader's exported error
classes, the Rust export's error types; and an error a public Python function raises for a
caller's mistake is one of them or a built-in.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import tictactoe_book
from tictactoe_book import errors

ROOT = Path(__file__).resolve().parent.parent
PORTING = (ROOT / "docs" / "porting.md").read_text()
SECTION = PORTING.split("## Errors, in every package", 1)[1].split("\n## ", 1)[0]


def listed(language: str) -> set[str]:
    """The error names in the first column of ``language``'s table (or its paragraph)."""
    part = SECTION.split(f"**{language}**", 1)[1].split("\n**", 1)[0]
    return set(re.findall(r"^\| `(\w+)`", part, re.MULTILINE))


def test_every_python_error_the_package_exports_is_listed_and_every_listed_one_exported() -> None:
    exported = {
        name
        for name in tictactoe_book.__all__
        if isinstance(getattr(tictactoe_book, name), type)
        and issubclass(getattr(tictactoe_book, name), Exception)
    }
    assert exported == listed("Python")
    assert {
        "BookError",
        "BoardError",
        "IllegalMoveError",
        "RulesError",
        "LevelError",
        "OpponentError",
    } == exported
    for name in exported:
        assert issubclass(getattr(tictactoe_book, name), ValueError), name


#: What the package's public functions raise for a caller's mistake, each call with its error.
MISTAKES = [
    (lambda book: tictactoe_book.choose_move(book, ".........", "hardd"), errors.LevelError, "'hardd'"),
    (lambda book: book.evaluate("XX......."), errors.BoardError, "'XX.......'"),
    (lambda book: tictactoe_book.Position("X........").play(0), errors.IllegalMoveError, "cell 0"),
    (lambda book: tictactoe_book.Rules(3, 3, 4), errors.RulesError, "k=4"),
    (lambda book: tictactoe_book.load_book(against="nobody"), errors.OpponentError, "'nobody'"),
    (lambda book: tictactoe_book.load_book(rules=tictactoe_book.Rules(3, 4, 3)), errors.BookError, "3x4"),
    (lambda book: book.evaluate(tictactoe_book.Position.empty(first="O"), first="X"), TypeError, "'X'"),
    (lambda book: tictactoe_book.Rng(-1), ValueError, "-1"),
    (lambda book: book.evaluate(".........", first="x"), ValueError, "'x'"),
]


@pytest.mark.parametrize(("call", "error", "named"), MISTAKES)
def test_a_callers_mistake_is_a_listed_error_naming_the_value(call: object, error: type, named: str) -> None:
    book = tictactoe_book.load_book()
    with pytest.raises(error) as raised:
        call(book)  # type: ignore[operator]
    assert type(raised.value).__name__ in listed("Python") | {"TypeError", "ValueError"}
    assert named in str(raised.value) and "\n" not in str(raised.value)


def test_every_javascript_error_class_the_reader_exports_is_listed() -> None:
    node = shutil.which("node")
    assert node, "the JavaScript reader's exports need Node.js 18+ (as make test-js does)"
    script = (
        "const m = await import(process.argv[1]);"
        "console.log(JSON.stringify(Object.keys(m).filter((k) => typeof m[k] === 'function'"
        " && m[k].prototype instanceof Error).sort()));"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, str(ROOT / "clients" / "js" / "index.js")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    classes = set(json.loads(done.stdout))
    assert classes == {"BookError", "BoardError", "IllegalMoveError", "RulesError"}
    assert classes | {"TypeError", "RangeError", "SyntaxError"} == listed("JavaScript")


def test_every_rust_error_type_is_listed() -> None:
    lib = (ROOT / "generator" / "tictactoe_generator" / "export" / "templates" / "lib.rs").read_text()
    types = set(re.findall(r"^impl std::error::Error for (\w+)", lib, re.MULTILINE))
    assert types == {"BoardError", "MoveError", "UnknownLevel"}
    rust = SECTION.split("**Rust**", 1)[1]
    assert all(f"`{name}`" in rust for name in types)
