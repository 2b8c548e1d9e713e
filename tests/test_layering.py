"""The layout docs/architecture.md describes, checked on the code: which package may import what,
how deep the player's imports stack, and how long a module may grow.

* player/ is the runtime every reader needs: it never imports generator/, nor numpy (a build-time
  tool, installed with the ``build`` extra only);
* the library (player/, outside player/apps/) never imports the applications, click or curses;
  only player/apps/ imports click or curses;
* no chain of imports between player modules is longer than ``MAX_DEPTH`` modules;
* no module is longer than ``MAX_LINES`` lines, but the reader, kept whole beside the JavaScript
  reader it mirrors.

Imports are read from the source (module heads and function bodies alike); imports made for
type checkers alone (``if TYPE_CHECKING:``) do not count.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_ONLY = ("generator", "numpy")
APPS_ONLY = ("click", "curses", "tictactoe_book.apps")
MAX_DEPTH = 6
MAX_LINES = 520  # "about 500" (docs/architecture.md)
WHOLE = {"player/reader.py"}


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package``, by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(path: Path) -> set[str]:
    """The modules ``path`` imports at run time (not those under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    skipped = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for statement in node.body
        for child in ast.walk(statement)
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


PLAYER = modules("player")


def test_no_player_module_imports_the_generator_or_numpy() -> None:
    for name, path in PLAYER.items():
        found = [n for n in imported(path) if n.split(".")[0] in BUILD_ONLY]
        assert not found, f"{name} imports {found}"


def test_only_the_applications_import_click_curses_or_each_other() -> None:
    for name, path in PLAYER.items():
        if name.startswith("tictactoe_book.apps"):
            continue
        found = [
            n for n in imported(path) if n.split(".")[0] in APPS_ONLY or n.startswith("tictactoe_book.apps")
        ]
        assert not found, f"{name} imports {found}"


def test_no_chain_of_player_imports_is_deeper_than_the_architecture_says() -> None:
    edges = {
        name: {n for n in imported(path) if n in PLAYER and n != name and n != "player"}
        for name, path in PLAYER.items()
    }

    @functools.cache
    def chain(name: str) -> tuple[str, ...]:
        """The longest chain of imports from ``name``, ``name`` first."""
        return (name, *max((chain(n) for n in edges[name]), key=len, default=()))

    deepest = max((chain(name) for name in PLAYER if name != "player"), key=len)
    assert len(deepest) <= MAX_DEPTH, " -> ".join(deepest)


@pytest.mark.parametrize("package", ["player", "generator"])
def test_no_module_grows_past_the_limit(package: str) -> None:
    for path in modules(package).values():
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        assert relative in WHOLE or lines <= MAX_LINES, f"{relative}: {lines} lines"


def test_the_oracles_share_nothing_with_the_product() -> None:
    """tests/oracles/ work everything out from the rules and the docs: none imports player,
    generator or numpy, nor a test module (only the standard library and each other)."""
    oracles = modules("tests/oracles")
    assert len(oracles) >= 6
    for name, path in oracles.items():
        found = [
            n
            for n in imported(path)
            if n.split(".")[0] in ("player", "generator", "numpy", "tictactoe_book.commands")
        ]
        assert not found, f"{name} imports {found}"
        local = [n for n in imported(path) if n.startswith("test") or n in ("conftest", "judges")]
        assert not local, f"{name} imports {local}"


def test_no_module_hides_its_type_checking_imports() -> None:
    for package in ("player", "generator"):
        for path in modules(package).values():
            assert "TYPE_CHECKING = False" not in path.read_text(), path


def test_importing_every_player_module_loads_no_generator_or_numpy_module() -> None:
    names = [name for name in PLAYER if not name.startswith("tictactoe_book.integrations.")]
    code = (
        "import importlib, sys\n"
        f"for m in {names!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {BUILD_ONLY!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_package_exposes_the_library_api() -> None:
    import random

    import tictactoe_book

    book = tictactoe_book.load_book()
    assert book.best_moves("XX.OO....") == (2,)
    # the empty board: every move draws; the corners are the top tier of the trap order
    assert book.optimal_moves(".........") == tuple(range(9))
    assert book.best_moves(".........") == (0, 2, 6, 8)
    assert set(book.evaluate("X...O....").scores) == {1, 2, 3, 5, 6, 7, 8}
    assert tictactoe_book.choose_move(book, ".........", "perfect", rng=random.Random(1)) in (0, 2, 6, 8)
    assert tictactoe_book.Position.parse("X........").turn == "O"
    for error in (
        tictactoe_book.BookError,
        tictactoe_book.BoardError,
        tictactoe_book.IllegalMoveError,
        tictactoe_book.RulesError,
    ):
        assert issubclass(error, ValueError)
    names = {name for name, value in vars(player).items() if not isinstance(value, type(random))}
    assert set(tictactoe_book.__all__) == {name for name in names if not name.startswith("_")} | {
        "__version__"
    }
