"""``ttt-book verify``: prove a book exactly as every reader does, then check what validity
does not decide, against a fresh solve.

Validity (docs/book-format.md, "A valid book") is the player's own proof, with the same reason
codes: this module calls it rather than re-implementing it, and records a proven book larger
than 1 MB as ``load_book`` does (``player.record``). Beyond validity it re-solves the rules and
compares what a valid book may still get wrong or leave stale: the trap order of every entry,
the informational members (``counts``, ``trap_order``, ``trap_rates``, symmetry names), and
whether the bytes are exactly what ``ttt-book build`` writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from generator.book import BuildToolMissing, build_book, encode
from player import bookjson, proof, record
from player.book import default_book_path, read_book_bytes
from player.entry import parse_entry
from player.errors import BookError


@dataclass
class Report:
    """What verification found about the book at ``path``.

    ``invalid`` is the BookError when the book fails validity (nothing else is checked then);
    ``differences`` lists what a valid book gets wrong beyond validity; ``skipped`` says why
    the checks beyond validity did not run, if they did not.
    """

    path: str
    invalid: BookError | None = None
    differences: list[str] = field(default_factory=list)
    entries: int = 0
    skipped: str | None = None

    @property
    def valid(self) -> bool:
        return self.invalid is None

    @property
    def ok(self) -> bool:
        """Valid, and exactly what a fresh build writes (as far as it was checked)."""
        return self.valid and not self.differences


def verify_book(path: str | os.PathLike[str] | None = None) -> Report:
    """Prove the book at ``path`` (default: the packaged one), then compare it with a fresh
    build. Raises BookError only when the file cannot be read at all (code ``unreadable``)."""
    where = os.fspath(path) if path is not None else default_book_path()
    report = Report(where)
    try:
        raw = read_book_bytes(where)  # BookError "unreadable" goes to the caller
        data = bookjson.parse(raw, where)
        proven = proof.prove(data, where, None)
    except BookError as error:
        if error.code == "unreadable":
            raise
        report.invalid = error
        return report
    if len(raw) > record.RECORD_ABOVE:
        record.remember(record.digest(raw))
    report.entries = len(data["entries"])
    try:
        expected = build_book(proven.rules)  # what ``ttt-book build`` writes, misère too
    except BuildToolMissing as error:
        report.skipped = f"{error}; only validity was checked"
        return report
    report.differences.extend(_beyond_validity(data, expected, raw))
    return report


def _beyond_validity(data: dict[str, Any], expected: dict[str, Any], raw: bytes) -> list[str]:
    """What a valid book can still differ in: trap order, informational members, the bytes."""
    found: list[str] = []
    cells = expected["rules"]["cells"]
    for key, text in sorted(expected["entries"].items()):
        if data["entries"][key] == text:
            continue
        tiers, wanted = (parse_entry(t, cells)[1] for t in (data["entries"][key], text))
        if tiers != wanted:  # (valid, so the same best score; "-0" for "0" is left to the bytes)
            found.append(f"entry {key!r} tiers {_short(tiers)}, in trap order {_short(wanted)}")
    for member in ("counts", "trap_order", "trap_rates"):
        if data.get(member) != expected[member]:
            found.append(f"{member} {_short(data.get(member))} should be {_short(expected[member])}")
    names = [item.get("name") for item in data["symmetries"]]
    if names != [item["name"] for item in expected["symmetries"]]:
        found.append(f"symmetry names {_short(names)} are not the usual ones")
    if not found and raw != encode(expected):
        found.append("the bytes are not exactly what `ttt-book build` writes (order, spacing, members)")
    return found


def _short(value: Any, limit: int = 80) -> str:
    import json

    text = json.dumps(value, sort_keys=True, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
