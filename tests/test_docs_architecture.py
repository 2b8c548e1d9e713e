"""Claims of docs/architecture.md that are not about imports (those are tests/test_layering.py's):
the misère rule decided in ``game.line_winner``, with its vectorised twins in the build tied to
it on every board they meet; every file "Adding a reference opponent" lists follows the
registry; the base-3 rank the proof and the JavaScript reader share.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tictactoe_book import game
from tictactoe_book.game import FIRST, SECOND, Rules
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.reader import PACKAGED
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import FULL, solve
from tictactoe_generator.trap import BOOK_FIRST, BOOK_SECOND, finished_chances

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()
RULES = ["3x3", "3x3:misere", "3x4:3:misere", "2x4:2"]


@pytest.mark.parametrize("spelling", RULES)
def test_the_builds_misere_rule_is_line_winners_on_every_finished_board(spelling: str) -> None:
    """The solver's score of a finished position, its count of games won, and trap.py's chance
    of each book winning agree with ``game.outcome`` (which asks ``game.line_winner``) on every
    finished board the solve meets; and ``game.after_line`` with it."""
    rules = Rules.parse(spelling)
    result = solve(rules)
    rows = np.flatnonzero(result.status != 0)
    boards = decode(result.codes[rows], rules.cells)
    ones = tuple([1] * (rules.cells + 1))
    chances = finished_chances(result.misere, result.marks, result.status, (ones, ones), np.int64)
    wins = {FIRST: 0, SECOND: 0, None: 0}
    for row, board in zip(rows, boards, strict=True):
        ended = game.outcome(rules, board)
        assert ended is not None, board
        to_move = FIRST if board.count(FIRST) == board.count(SECOND) else SECOND
        if result.status[row] == FULL:
            assert ended.winner is None and result.best[row] == 0, board
        else:
            assert ended.winner == game.line_winner(rules, ended.completed_by or "")
            sign = 1 if ended.winner == to_move else -1
            assert result.best[row] == sign * (rules.cells + 1), board
            assert game.after_line(rules) == result.best[row], board
        assert bool(chances[BOOK_FIRST][row]) == (ended.winner == FIRST), board
        assert bool(chances[BOOK_SECOND][row]) == (ended.winner == SECOND), board
        wins[ended.winner] += int(result.paths[row])
    games = result.counts.games
    assert (games.first_wins, games.second_wins, games.draws) == (wins[FIRST], wins[SECOND], wins[None])


def section(heading: str) -> str:
    return ARCHITECTURE.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


#: The files "Adding a reference opponent" lists, by what each holds: ``names`` types every
#: opponent's name, ``books`` every packaged book's file name (``reader.PACKAGED``).
OPPONENT_FILES = {
    "player/tictactoe_book/opponents.py": {"names"},
    "clients/js/tictactoe-book.js": {"names"},
    "clients/js/packaged.js": {"names", "books"},
    "clients/js/index.d.ts": {"names"},
    "clients/js/index.js": {"names"},
    "clients/js/node.js": {"names"},
    "player/tictactoe_book/integrations/openspiel.py": {"names"},
    "player/tictactoe_book/integrations/pettingzoo.py": {"names"},
    "player/tictactoe_book/reader.py": {"names"},
    "web/index.html": {"names"},
    "web/serve.py": {"books"},
    "Makefile": {"books"},
    "pyproject.toml": {"books"},
    "docs/book-format.md": {"names"},
    "book/tictactoe.schema.json": {"names"},
}
#: Files that quote an opponent's name for another reason: export/c.py's "random" is the C
#: export's generator (``ttt_random``); check-vectors.mjs names the default opponent, for
#: vectors that name none.
OTHER_MEANING = {"generator/tictactoe_generator/export/c.py", "clients/js/check-vectors.mjs"}
SCANNED = ("player", "generator", "clients/js", "web")
OPPONENT_NAMES = [name for name in OPPONENTS if name != "program"]


def mentions(text: str, names: list[str], quoted: bool) -> list[str]:
    return [n for n in names if re.search(rf"""["'`]{re.escape(n)}["'`]""" if quoted else re.escape(n), text)]


def test_adding_an_opponent_lists_every_file_that_types_the_opponents() -> None:
    """Every source file that quotes an opponent's name, or names a packaged book's file, is in
    the section's list: a file that types them again is one a new opponent must be added to."""
    listed = section("Adding a reference opponent")
    for path in OPPONENT_FILES:
        assert path in listed, f"the section does not list {path}"
    books = list(PACKAGED.values())
    found = set()
    for folder in SCANNED:
        for file in (ROOT / folder).rglob("*"):
            path = file.relative_to(ROOT).as_posix()
            if not file.is_file() or not path.endswith((".py", ".js", ".mjs", ".ts", ".html")):
                continue
            if "__pycache__" in path or "node_modules" in path or ".test." in path or "test_" in path:
                continue
            text = file.read_text(errors="replace")
            if mentions(text, OPPONENT_NAMES, quoted=True) or mentions(text, books[1:], quoted=False):
                found.add(path)
    missing = found - set(OPPONENT_FILES) - OTHER_MEANING
    assert not missing, (
        f"these files type the opponents and the section does not list them: {sorted(missing)}"
    )


@pytest.mark.parametrize(("path", "holds"), OPPONENT_FILES.items())
def test_each_listed_file_follows_the_registry(path: str, holds: set[str]) -> None:
    """A listed file names every opponent of the registry (and every packaged book) or none of
    them: a new opponent added to opponents.py and missing from any of them fails here."""
    text = (ROOT / path).read_text()
    if "names" in holds:
        named = mentions(text, OPPONENT_NAMES, quoted=False)
        assert named in ([], OPPONENT_NAMES), f"{path} names {named}, not every opponent"
    if "books" in holds:
        books = list(PACKAGED.values())[1:]  # (the default book's name is the build's default too)
        named = [b for b in books if b in text]
        assert named in ([], books), f"{path} names {named}, not every packaged book"


def test_the_rank_the_proof_and_the_javascript_reader_share_is_listed() -> None:
    row = next(line for line in ARCHITECTURE.splitlines() if line.startswith("| a board's rank"))
    assert "base 3" in row and "reader" in row and "JS" in row
