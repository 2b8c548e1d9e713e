"""The library API is typed for its users: code calling ``player`` passes ``mypy --strict``, and
a wrong use is caught (so the names are not typed ``object`` or ``Any``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

USER_CODE = """\
import random

import player

book: player.Book = player.load_book()
best: tuple[int, ...] = book.best_moves("X...O....")
answer: player.Evaluation = book.evaluate("X...O....", first="X")
scores: dict[int, int] = answer.scores
move: int = player.choose_move(book, "X...O....", "hard", rng=random.Random(1))
start = player.Position.empty(player.Rules(3, 3, 3)).play(4)
codes: tuple[str, ...] = player.BOOK_REASONS
try:
    player.parse_book(b"{}", "x")
except player.BookError as error:
    code: str = error.code
"""

WRONG = """\
import player

name: str = player.load_book()
"""


def test_user_code_is_type_checked_against_the_real_signatures(tmp_path: Path) -> None:
    (tmp_path / "right.py").write_text(USER_CODE)
    (tmp_path / "wrong.py").write_text(WRONG)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "right.py", "wrong.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert errors == [
        'wrong.py:3: error: Incompatible types in assignment (expression has type "Book", '
        'variable has type "str")  [assignment]'
    ], result.stdout
