"""examples/ use the public API only: ``import player`` and the names of ``tictactoe_book.__all__``, and
each adapter's documented entry point (``make_bot``, ``BookPolicy``); nothing of a module the
README calls internal (tictactoe_book.game, tictactoe_book.play, tictactoe_book.rates, ...). make test-packages runs
each example in a fresh environment with the wheel and the adapters' extras installed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tictactoe_book

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: The adapters' modules and the names the README gives a user of each.
ADAPTERS = {
    "tictactoe_book.integrations.openspiel": {"make_bot"},
    "tictactoe_book.integrations.pettingzoo": {"BookPolicy"},
}


def uses_of_player(tree: ast.Module) -> list[str]:
    """Every way a module reaches into the package: ``import x``, ``from x import y`` (as
    ``x.y``), and ``player.name`` read as an attribute."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "player"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "player":
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "player"
        ):
            found.append(f"player.{node.attr}")
    return found


def public(use: str) -> bool:
    module, _, name = use.rpartition(".")
    if use == "player":
        return True
    if module == "player":
        return name in tictactoe_book.__all__
    return name in ADAPTERS.get(module, set())


def test_there_are_examples() -> None:
    assert [p.name for p in EXAMPLES] == ["openspiel_bot.py", "pettingzoo_vs_random.py"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_an_example_uses_the_public_api_only(example: Path) -> None:
    uses = uses_of_player(ast.parse(example.read_text()))
    assert uses, "an example of this package uses it"
    assert [use for use in uses if not public(use)] == []


def test_the_check_finds_what_is_internal() -> None:
    internal = "import player\nfrom tictactoe_book.game import other\nfrom tictactoe_book.play import level_policy\nplayer.rates\n"
    found = [use for use in uses_of_player(ast.parse(internal)) if not public(use)]
    assert found == ["tictactoe_book.game.other", "tictactoe_book.play.level_policy", "tictactoe_book.rates"]
