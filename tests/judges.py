"""The judges of a book file, each giving a verdict as one string: ``"valid"``, a reason code, or
``"crash: ..."`` (a reader raised something other than its BookError, which it must never do).

* ``python_verdict``: ``tictactoe_book.reader.parse_book`` in this process;

Every judge takes the rules the file states (the book vectors hold misère books too; the
differential test needs both readers to judge alike).
* ``JsJudge``: the JavaScript reader, in one long-lived ``node tests/js_judge.mjs`` process that
  reads a book path per line and answers a JSON line per book (starting node per book would cost
  more than judging it);
* ``book_oracle.judge``: the independent reading of the spec (tests/oracles/book_oracle.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tictactoe_book import BookError, parse_book

ROOT = Path(__file__).resolve().parent.parent
JS_JUDGE = Path(__file__).resolve().parent / "js_judge.mjs"


def python_verdict(raw: bytes) -> str:
    """``parse_book(raw, rules=None)``'s verdict: any rules the file states."""
    try:
        parse_book(raw, "<judged>", rules=None)
    except BookError as error:
        return str(getattr(error, "code", None))
    except Exception as error:  # a reader must refuse with BookError, never crash
        return f"crash: {type(error).__name__}: {str(error)[:200]}"
    return "valid"


class JsJudge:
    """One node process judging book files with clients/js/tictactoe-book.js."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise FileNotFoundError("node is not installed")
        self._command = [node, str(JS_JUDGE)]
        self._process = self._start()

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT
        )

    def __call__(self, path: Path) -> str:
        """The verdict on the book at ``path`` (an absolute path without a newline)."""
        answer = self.answer(path)
        if answer.get("valid") is True:
            return "valid"
        if "crash" in answer:
            return f"crash: {answer['crash']}"
        return str(answer.get("code"))

    def answer(self, path: Path) -> dict[str, Any]:
        """The judge's answer on the book at ``path``: for a valid one, ``against`` too."""
        assert self._process.stdin is not None and self._process.stdout is not None
        try:
            self._process.stdin.write(f"{path}\n")
            self._process.stdin.flush()
            line = self._process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:  # the judge died: say so, and start another for the next book
            self.close()
            self._process = self._start()
            return {"crash": "the node process died"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.close()
        self._process.wait(timeout=10)
        self._process.stdout.close()
