"""Build hook: ship the books inside the wheel (3x3, and 3x3 misère for ``ttt-play --misere``),
each proven, with the CRC-32 of its bytes beside it (``tictactoe_book.trust.packaged_digest``).

The player proves every book it loads, except the packaged one whose bytes have exactly the
hash recorded here (docs/book-format.md, "Trusting the packaged book"). So the hash is
recorded only after this build has proven the book with the player's own loader: a book that
does not prove fails the build.

An editable install (``pip install -e``) reads the repository's book/ directly and records
nothing, so that book is proven on every load; a checkout without a book still installs, so
``make book`` can write the first one.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Each book in the repository, the rules it must be for, and where the wheel holds it.
BOOKS = (
    (Path("book") / "tictactoe.json", "3x3:3", "player/tictactoe.json"),
    (Path("book") / "tictactoe-misere.json", "3x3:3:misere", "player/tictactoe-misere.json"),
    (Path("book") / "tictactoe-vs-random.json", "3x3:3", "player/tictactoe-vs-random.json"),
    (
        Path("book") / "tictactoe-misere-vs-random.json",
        "3x3:3:misere",
        "player/tictactoe-misere-vs-random.json",
    ),
)


class ProvenBookHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._record_folder = tempfile.mkdtemp(prefix="ttt-book-record-")
        try:
            self._record_books(build_data)
        except BaseException:  # the build fails, finalize will not run: leave no folder behind
            shutil.rmtree(self._record_folder, ignore_errors=True)
            raise

    def _record_books(self, build_data: dict[str, Any]) -> None:
        for relative, rules_text, packaged in BOOKS:
            book = Path(self.root) / relative
            raw = book.read_bytes()  # a wheel without its books would not play: fail loudly
            sys.path.insert(0, self.root)
            try:
                from tictactoe_book.game import Rules
                from tictactoe_book.reader import parse_book
                from tictactoe_book.trust import PACKAGED_SUFFIX, packaged_digest

                # raises BookError, with its reason code, if it does not prove for these rules
                parse_book(raw, str(book), rules=Rules.parse(rules_text))
                digest = packaged_digest(raw)
            finally:
                sys.path.remove(self.root)
            record = Path(self._record_folder) / (book.name + PACKAGED_SUFFIX)
            record.write_text(digest + "\n", encoding="ascii")
            build_data["force_include"][str(book)] = packaged
            build_data["force_include"][str(record)] = packaged + PACKAGED_SUFFIX

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_record_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
