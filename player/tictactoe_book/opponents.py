"""The reference opponents: the fallible players a book's trap order is ranked against, that the
levels table and the audit measure against, and whose chances the hint counts.

``OPPONENTS`` is the one registry, name -> ``Opponent``, in the order the trap order breaks
ties (docs/book-format.md, "Trap order"): adding an opponent is a row here, and every command,
report and reader that names opponents reads them from it (docs/architecture.md, "Adding an
opponent"). Each opponent picks uniformly among the cells its *preference* leaves, a pure
function of three sets of cells (bit ``c`` for cell ``c``): the free cells, those completing a
line of its own, and those completing one of the other side's. The build applies the same
function to arrays of such sets (``tictactoe_generator.trap``), so the Python player and the build cannot
disagree on who an opponent is.

* *novice* plays a move that completes a line of its own if it has one, else one that blocks an
  immediate line of the other side, else any free cell. Under misère (completing a line loses)
  it plays a free cell that does not complete a line of its own if it has one, else any: the
  normal novice would "win at once" by losing at once, a suicidal player, not a fallible one.
* *random* plays any free cell, under either rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tictactoe_book.errors import OpponentError, echoed
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    Cell,
    Policy,
    Rules,
    legal_moves,
    other,
    read_lines,
    side_to_move,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    #: A preference: (free, wins, blocks) -> the cells it picks among, each a set of cells.
    Preference = Callable[[int, int, int], int]


@dataclass(frozen=True, slots=True)
class Opponent:
    """A reference opponent: its ``name`` (as commands and books spell it), how people are told
    of it, and its preference under each kind of rules."""

    name: str
    #: how a sentence names it: ``"a novice"``
    words: str
    #: who it is, in a few words, under normal rules and under misère
    plays: str
    plays_misere: str
    #: the cells it picks among, under normal rules and under misère (``Preference``)
    prefers: Preference
    prefers_misere: Preference

    def preference(self, rules: Rules) -> Preference:
        """Its preference under ``rules``."""
        return self.prefers_misere if rules.misere else self.prefers

    def description(self, rules: Rules) -> str:
        """Who it is under ``rules``, in a few words."""
        return self.plays_misere if rules.misere else self.plays

    def moves(self, rules: Rules, board: str, mark: str) -> list[Cell]:
        """The cells it picks among (uniformly) when ``mark`` is to move on ``board``."""
        free = legal_moves(board)
        chosen = self.preference(rules)(
            cell_set(free), completing(rules, board, mark), completing(rules, board, other(mark))
        )
        return [cell for cell in free if chosen >> cell & 1]

    def policy(self, rules: Rules, *, first: str = FIRST) -> Policy:
        """It, as a player of a game ``first`` began (``tictactoe_book.game.Policy``)."""
        return lambda board: self.moves(rules, board, side_to_move(board, first))


def completing(rules: Rules, board: str, mark: str) -> int:
    """The free cells where ``mark`` would complete a line, as a set of bits (bit ``c`` for
    cell ``c``): the lines holding ``k - 1`` of ``mark`` and one empty cell (``read_lines``)."""
    lines, k, found = read_lines(rules)(board), rules.k, 0
    for at, line in enumerate(rules.lines):
        seen = lines[at * (k + 1) : at * (k + 1) + k]
        if seen.count(mark) == k - 1 and EMPTY in seen:
            found |= 1 << line[seen.index(EMPTY)]
    return found


def cell_set(cells: list[Cell]) -> int:
    """Cells as a set of bits: bit ``c`` for cell ``c``."""
    return sum(1 << cell for cell in cells)


NOVICE = Opponent(
    name="novice",
    words="a novice",
    plays="wins if it can, else blocks, else plays at random",
    plays_misere="plays at random, never completing a line of its own if it can avoid it",
    prefers=lambda free, wins, blocks: wins or blocks or free,
    prefers_misere=lambda free, wins, blocks: (free & ~wins) or free,
)
RANDOM = Opponent(
    name="random",
    words="a random player",
    plays="plays any free cell",
    plays_misere="plays any free cell",
    prefers=lambda free, wins, blocks: free,
    prefers_misere=lambda free, wins, blocks: free,
)

#: Every reference opponent by name, in the order the trap order breaks ties (the first is
#: the one a book is ranked against unless it says otherwise).
OPPONENTS: dict[str, Opponent] = {opponent.name: opponent for opponent in (NOVICE, RANDOM)}
#: The opponent a book is ranked against first unless it says otherwise.
DEFAULT = NOVICE.name


def opponent(name: str) -> Opponent:
    """The reference opponent called ``name``, else OpponentError naming it and the choices."""
    found = OPPONENTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise OpponentError(f"unknown opponent {echoed(name)}; choose one of {', '.join(OPPONENTS)}")
    return found


def ranking(against: str) -> tuple[Opponent, ...]:
    """The opponents a trap order ranked against ``against`` compares by: ``against`` first,
    then the others in the registry's order, each breaking the ties left by those before it."""
    first = opponent(against)
    return (first, *(o for o in OPPONENTS.values() if o is not first))


def described() -> str:
    """Every reference opponent for a command's help, in the registry's order: ``a novice (the
    default: wins if it can, ...; under misère it ...) or a random player (plays any free cell)``."""
    told = []
    for o in OPPONENTS.values():
        misere = "" if o.plays_misere == o.plays else f"; under misère it {o.plays_misere}"
        told.append(f"{o.words} ({'the default: ' if o.name == DEFAULT else ''}{o.plays}{misere})")
    return ", ".join(told[:-1]) + " or " + told[-1] if len(told) > 1 else told[0]
