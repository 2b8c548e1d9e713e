"""``ttt-book verify`` passes the shipped book and fails on every kind of damage."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.book import write_book
from generator.cli import main
from player.checksum import content_checksum
from player.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book" / "tictactoe.json"


def verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.output


def test_the_shipped_book_verifies() -> None:
    code, out = verify(BOOK)
    assert code == 0, out
    assert "OK — 627 entries re-proved" in out


def edit(change: Callable[[dict[str, Any]], None], *, fix_checksum: bool = True) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        data = json.loads(BOOK.read_bytes())
        change(data)
        if fix_checksum:
            data["checksum"] = content_checksum(data)
        path = tmp / "damaged.json"
        path.write_text(json.dumps(data))
        return path

    return make


def set_in(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def raw(text_change: Callable[[str], str]) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        path = tmp / "damaged.json"
        path.write_text(text_change(BOOK.read_text()))
        return path

    return make


DAMAGE = {
    "dropped entry": (edit(lambda d: d["entries"].pop("........X")), "is missing"),
    "extra unreachable entry": (
        edit(
            set_in(["entries", "XXXOO...."], {"turn": "O", "value": 0, "plies": 1, "scores": [], "tiers": []})
        ),
        "should not be there",
    ),
    "non-canonical key": (
        edit(lambda d: d["entries"].__setitem__("X........", d["entries"].pop("........X"))),
        "not in canonical form",
    ),
    "wrong value": (edit(set_in(["entries", ".........", "value"], 1)), "value"),
    "wrong plies": (edit(set_in(["entries", ".........", "plies"], 7)), "plies"),
    "wrong score": (edit(set_in(["entries", "........X", "scores", 0], 0)), "scores"),
    "illegal move in a tier": (edit(set_in(["entries", "........X", "tiers"], [[8]])), "tiers"),
    "trap order swapped": (
        edit(set_in(["entries", ".........", "tiers"], [[4], [1, 3, 5, 7], [0, 2, 6, 8]])),
        "tiers",
    ),
    "wrong version": (edit(set_in(["version"], 2)), "version"),
    "wrong counts": (edit(set_in(["counts", "games"], 1)), "counts"),
    "stale checksum": (edit(set_in(["entries", ".........", "value"], 1), fix_checksum=False), "checksum"),
    "duplicate key": (
        raw(lambda t: t.replace('"entries":{', '"entries":{"........X":{"turn":"O"},', 1)),
        "appears more than once",
    ),
    "not an object": (raw(lambda t: "[1,2]"), "not an object"),
    "other rules stated": (edit(set_in(["rules", "k"], 2)), "differ"),
    "rules too large to re-solve": (edit(set_in(["rules", "rows"], 5)), "too large to re-solve"),
}


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_verify_fails_on_damage(tmp_path: Path, kind: str) -> None:
    make, words = DAMAGE[kind]
    code, out = verify(make(tmp_path))
    assert code == 1, out
    assert "WRONG" in out
    assert words in out


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"\xff\xfe", b"[" * 100_000],
    ids=["empty", "truncated", "not-utf8", "deep-nesting"],
)
def test_verify_unreadable_is_status_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out = verify(path)
    assert code == 2
    assert str(path) in out
    assert "Traceback" not in out


def test_verify_a_3x4_book(tmp_path: Path) -> None:
    path = tmp_path / "3x4.json"
    write_book(path, Rules(3, 4, 3))
    code, out = verify(path)
    assert code == 0, out
