"""``Entry``: one canonical position as the book stores it (docs/book-format.md, "An entry")."""

from __future__ import annotations

from typing import NamedTuple

from player.rules import Cell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Entry(NamedTuple):
    """Cells are the canonical board's; ``scores`` has one item per cell, None where occupied.

    A NamedTuple rather than a dataclass: both are immutable values that pickle and copy, and
    creating this class at import costs about a fifth as much, which the player's start-up
    goal notices (docs/benchmarks.md).
    """

    key: str
    turn: str
    value: int
    plies: int
    scores: tuple[int | None, ...]
    tiers: tuple[tuple[Cell, ...], ...]

    @classmethod
    def from_json(cls, key: str, raw: dict[str, Any]) -> Entry:
        """The entry stored under ``key``, from its parsed JSON (whose shape has been checked)."""
        return cls(
            key=key,
            turn=raw["turn"],
            value=raw["value"],
            plies=raw["plies"],
            scores=tuple(raw["scores"]),
            tiers=tuple(tuple(tier) for tier in raw["tiers"]),
        )

    @property
    def best(self) -> int:
        """The best score of any move."""
        return max(score for score in self.scores if score is not None)
