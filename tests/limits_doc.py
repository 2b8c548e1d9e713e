"""The table of win-rate limits in docs/scaling.md ("How often the book can win"), read for the
tests that check it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
Pair = tuple[Fraction, Fraction]  # (against novice, against random)


def documented_limits() -> dict[tuple[str, str], tuple[Pair, Pair]]:
    """(game, ranked against) -> ((first vs novice, first vs random), (second vs novice, second
    vs random)), as docs/scaling.md states them."""
    text = (ROOT / "docs" / "scaling.md").read_text()
    table = text[text.index("<!-- limits:start -->") : text.index("<!-- limits:end -->")]
    found = {}
    for line in table.splitlines()[3:]:
        game, against, *rates = (cell.strip().strip("*") for cell in line.strip("|").split("|"))
        a, b, c, d = map(Fraction, rates)
        found[(game, against)] = ((a, b), (c, d))
    return found
