"""Board vectors (docs/conformance.md) against a reader: the Python one in this process, the
JavaScript one through clients/js/check-vectors.mjs; the seeded vectors (the generator's
numbers, the seeded games) against Python's ``Rng`` and ``choose_move``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from tictactoe_book import BoardError, Book, Position, Rng, choose_move
from tictactoe_book.game import VALUE_WORDS

ROOT = Path(__file__).resolve().parent.parent


def failures(book: Book, vectors: dict[str, Any]) -> list[str]:
    """Every way ``book`` disagrees with ``vectors``."""
    found = []
    against = vectors.get("against", "novice")  # absent from vectors written before it was added
    if book.against != against:
        found.append(f"ranked against {book.against}, not {against}")
    for v in vectors["valid"]:
        answer = book.evaluate(v["board"], first=v["first"])
        got = {
            "turn": answer.turn,  # the game's own mark: no swapping by hand
            "key": answer.key,
            "symmetry": book.rules.symmetries.index(answer.symmetry),
            "value": VALUE_WORDS[answer.value],
            "plies": answer.plies,
            "optimal": list(answer.optimal),
            "top": list(answer.tiers[0]),
            "scores": [answer.scores.get(c) for c in range(book.rules.cells)],
        }
        found += [f"{v['board']} {name}: {got[name]} != {v[name]}" for name in got if got[name] != v[name]]
    for v in vectors["invalid"]:
        try:
            book.evaluate(v["board"], first=v["first"])
            found.append(f"{v['board']!r}: answered")
        except BoardError as error:
            if error.code != v["error"]:
                found.append(f"{v['board']!r}: {error.code} != {v['error']}")
    return found + seeded_failures(book, vectors)


def seeded_failures(book: Book, vectors: dict[str, Any]) -> list[str]:
    """Every way Python's seeded choice disagrees with the vectors' ``generator`` and ``games``."""
    found = []
    for v in vectors["generator"]:
        rng = Rng(v["seed"])
        numbers = [rng.next_u32() for _ in v["numbers"]]
        if numbers != v["numbers"]:
            found.append(f"generator from {v['seed']}: {numbers} != {v['numbers']}")
    for v in vectors["games"]:
        rng, position, moves = Rng(v["seed"]), Position.empty(book.rules, v["first"]), []
        while not position.is_over:
            moves.append(choose_move(book, position, v["level"], rng=rng))
            position = position.play(moves[-1])
        if (moves, rng.state) != (v["moves"], v["state"]):
            where = f"game {v['level']} from {v['seed']} (first {v['first']})"
            found.append(f"{where}: {moves} state {rng.state} != {v['moves']} state {v['state']}")
    return found


def js_failures(book: Path, vectors: Path) -> list[str]:
    """What the JavaScript reader answers differently from ``vectors`` (the first 20 at most)."""
    node = shutil.which("node")
    assert node, "the JavaScript reader's check needs Node.js 18+ (as make test-js does)"
    checked = subprocess.run(
        [node, str(ROOT / "clients" / "js" / "check-vectors.mjs"), str(book), str(vectors)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = checked.stdout.strip().splitlines()
    assert lines and lines[-1].endswith("failure(s)"), checked.stdout + checked.stderr
    return lines[:-1]
