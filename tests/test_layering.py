"""player/ is the runtime every reader needs: it never imports generator/, nor numpy (a build-time
tool of the retrograde solver, installed with the ``build`` extra only)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_ONLY = ("generator", "numpy")


def test_no_player_module_mentions_generator_or_numpy() -> None:
    for path in sorted((ROOT / "player").glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in BUILD_ONLY for n in names), f"{path.name} imports {names}"


def test_importing_every_player_module_loads_no_generator_or_numpy_module() -> None:
    modules = [f"player.{p.stem}" for p in (ROOT / "player").glob("*.py") if p.stem != "__main__"]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {BUILD_ONLY!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_package_exposes_the_library_api() -> None:
    import random

    import player

    book = player.load_book()
    assert book.best_moves("XX.OO....") == (2,)
    assert set(book.evaluate("X...O....").scores) == {1, 2, 3, 5, 6, 7, 8}
    assert player.choose_move(book, ".........", "perfect", rng=random.Random(1)) in (0, 2, 6, 8)
    assert player.Position.parse("X........").turn == "O"
    assert issubclass(player.BookError, ValueError) and issubclass(player.BoardError, ValueError)
