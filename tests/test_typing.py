"""The library API is typed for its users: code calling ``tictactoe_book`` passes ``mypy
--strict``, and a wrong use is caught (so the names are not typed ``object`` or ``Any``). mypy
finds the package as installed (an editable install: the checkout's folders on the path), and
``make lint``'s mypy reports an error in the package at its real path in the checkout."""

from __future__ import annotations

import os
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
        env={k: v for k, v in os.environ.items() if k != "MYPYPATH"},
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert errors == [
        'wrong.py:3: error: Incompatible types in assignment (expression has type "Book", '
        'variable has type "str")  [assignment]'
    ], result.stdout


def test_make_lint_reports_an_error_in_the_package_at_its_real_path(tmp_path: Path) -> None:
    """A type error put in player/tictactoe_book/play.py (through mypy's --shadow-file, so the
    checkout is untouched) is reported at that path, as ``make lint`` runs mypy (pyproject.toml)."""
    real = ROOT / "player" / "tictactoe_book" / "play.py"
    shadow = tmp_path / "play.py"
    shadow.write_text(real.read_text() + "\nWRONG: int = 'not a number'\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--shadow-file",
            "player/tictactoe_book/play.py",
            str(shadow),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("player/tictactoe_book/play.py:"), result.stdout
