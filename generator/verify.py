"""Re-prove a book file from its rules alone and list every way it differs from the truth.

Unlike the player's loader, which stops at the first problem, this walks the whole file: it
solves the game again (``generator.solve``, ``generator.trap``), builds the book that should be
there, and compares field by field — including JSON keys that appear twice, which a plain JSON
parser would silently merge.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from generator.book import book_from
from generator.solve import SOLVER_MAX_CELLS, solve
from generator.trap import trap_order
from player.board import canonical, check_playable
from player.checksum import content_checksum
from player.errors import BoardError
from player.format import FORMAT_NAME, FORMAT_VERSION, MAX_BOOK_BYTES
from player.rules import Rules, RulesError


class UnreadableBook(OSError):
    """The file cannot be read or parsed as JSON at all."""


@dataclass
class Report:
    """What verification found: ``ok`` when the book is exactly right."""

    path: str
    differences: list[str] = field(default_factory=list)
    checked_entries: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences


def _pairs_keeping_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            duplicates = result.setdefault("\0duplicates", [])
            duplicates.append(key)
        result[key] = value
    return result


def read_json(path: str | os.PathLike[str]) -> Any:
    """Parse ``path``, recording duplicate keys under ``"\\0duplicates"``; UnreadableBook if not JSON."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BOOK_BYTES + 1)
    except OSError as error:
        raise UnreadableBook(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(raw) > MAX_BOOK_BYTES:
        raise UnreadableBook(f"{path}: larger than {MAX_BOOK_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=_pairs_keeping_duplicates)
    except UnicodeDecodeError as error:
        raise UnreadableBook(f"{path}: not UTF-8 text (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise UnreadableBook(
            f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise UnreadableBook(f"{path}: JSON nested too deeply") from None


def verify_book(path: str | os.PathLike[str]) -> Report:
    """Re-solve the game the file's rules describe and compare everything."""
    data = read_json(path)
    report = Report(str(path))
    diff = report.differences.append
    if not isinstance(data, dict):
        diff(f"the top level is {type(data).__name__}, not an object")
        return report
    for key in data.get("\0duplicates", []):
        diff(f"top-level member {key!r} appears more than once")
    if data.get("format") != FORMAT_NAME:
        diff(f"format is {data.get('format')!r}, not {FORMAT_NAME!r}")
    if data.get("version") != FORMAT_VERSION or type(data.get("version")) is not int:
        diff(f"version is {data.get('version')!r}; this verifier knows version {FORMAT_VERSION}")
    rules_data = data.get("rules")
    try:
        if not isinstance(rules_data, dict):
            raise RulesError("there is no rules object")
        rows, cols, k = (rules_data.get(n) for n in ("rows", "cols", "k"))
        if not (type(rows) is int and type(cols) is int and type(k) is int):
            raise RulesError(f"rows, cols and k must be integers, got {[rows, cols, k]!r}")
        rules = Rules(rows, cols, k)
        if rules.cells > SOLVER_MAX_CELLS:
            raise RulesError(f"{rules} is too large to re-solve here (at most {SOLVER_MAX_CELLS} cells)")
    except RulesError as error:
        diff(f"rules cannot be used: {error}; nothing more can be checked")
        return report
    content = {k: v for k, v in data.items() if k != "\0duplicates"}
    stated = content.get("checksum")
    actual = content_checksum(_without_duplicate_markers(content))
    if stated != actual:
        diff(f"checksum is {stated!r} but the content's is {actual!r}")

    solution = solve(rules)
    expected = book_from(solution, trap_order(solution))
    for member in ("rules", "symmetries", "canonical", "counts", "trap_rates"):
        if _without_duplicate_markers(content.get(member)) != expected[member]:
            diff(
                f"{member} differ from the re-solved book's: "
                f"{_short(content.get(member))} != {_short(expected[member])}"
            )

    entries = content.get("entries")
    if not isinstance(entries, dict):
        diff("there is no entries object")
        return report
    for key in entries.get("\0duplicates", []):
        diff(f"entry {key!r} appears more than once")
    want = expected["entries"]
    for key in sorted(set(want) - set(entries)):
        diff(f"entry {key!r} is missing (a reachable position)")
    for key in sorted(k for k in entries if k != "\0duplicates" and k not in want):
        diff(f"entry {key!r} should not be there: {_why_extra(rules, key)}")
    for key in sorted(set(want) & set(entries)):
        report.checked_entries += 1
        got, right = entries[key], want[key]
        if not isinstance(got, dict):
            diff(f"entry {key!r} is {type(got).__name__}, not an object")
            continue
        for name in ("turn", "value", "plies", "scores", "tiers"):
            if got.get(name) != right[name]:
                diff(f"entry {key!r} {name}: {_short(got.get(name))}, should be {_short(right[name])}")
        extra = set(got) - set(right)
        if extra:
            diff(f"entry {key!r} has unknown members {sorted(extra)}")
    return report


def _without_duplicate_markers(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_duplicate_markers(v) for k, v in value.items() if k != "\0duplicates"}
    if isinstance(value, list):
        return [_without_duplicate_markers(v) for v in value]
    return value


def _why_extra(rules: Rules, key: str) -> str:
    try:
        check_playable(rules, key)
    except BoardError as error:
        return str(error)
    if canonical(rules, key)[0] != key:
        return f"not in canonical form (that is {canonical(rules, key)[0]!r})"
    return "not a reachable position"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(_without_duplicate_markers(value), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
