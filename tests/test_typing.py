"""The library API is typed for its users: code calling ``player`` passes ``mypy --strict``, and
a wrong use is caught (so the names are not typed ``object`` or ``Any``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

USER_CODE = """\
import random

import tictactoe_book

book: tictactoe_book.Book = tictactoe_book.load_book()
best: tuple[int, ...] = book.best_moves("X...O....")
answer: tictactoe_book.Evaluation = book.evaluate("X...O....", first="X")
scores: dict[int, int] = answer.scores
move: int = tictactoe_book.choose_move(book, "X...O....", "hard", rng=random.Random(1))
start = tictactoe_book.Position.empty(tictactoe_book.Rules(3, 3, 3)).play(4)
codes: tuple[str, ...] = tictactoe_book.BOOK_REASONS
try:
    tictactoe_book.parse_book(b"{}", "x")
except tictactoe_book.BookError as error:
    code: str = error.code
"""

WRONG = """\
import tictactoe_book

name: str = tictactoe_book.load_book()
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
