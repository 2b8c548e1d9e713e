"""Book vectors: whole books, each the real book with a few documented edits, and the verdict every
reader must give — ``"valid"`` or the reason code of docs/book-format.md, "A valid book".

The board vectors (``book/vectors.json``, ``generator.vectors``) test what a reader answers; these
test what it accepts. A case stores edits, not the book it makes, so the file stays small and a
port in any language can rebuild each book: start from the base's text and apply the edits in
order (docs/conformance.md). Every edit's ``find`` must occur exactly once in the text at that
point, which this module checks as it builds each case, so a stale base fails here, loudly.

Each case trips one step, or is crafted so the step it names comes first when two could fire;
its description says why. ``python -m generator.book_vectors`` writes the file beside the book.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import click

from generator.atomic import write_atomically
from player.format import FORMAT_NAME, MAX_BOOK_BYTES, MAX_DEPTH, MAX_INTEGER, MAX_STRUCTURE

BOOK_VECTORS_FORMAT = "tictactoe-book-book-vectors"
BOOK_VECTORS_VERSION = 1
#: The characters the step-2 bound counts (``MAX_STRUCTURE`` of them at most).
STRUCTURAL = "[{,"
#: Where a case grows a big input with ``times``; none occurs in a book (checked).
PLACEHOLDERS = ("<open>", "<close>", "<commas>", "<spaces>")

Edit = dict[str, Any]
Path_ = tuple[str | int, ...]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """The book a case describes: ``edits`` applied in order to the base's ``text``.

    ``{"text": T}`` replaces the whole text; ``{"find": S, "replace": R}`` replaces the one
    occurrence of ``S`` (overlapping occurrences count) by ``R``, or by ``R`` repeated
    ``times`` times. ValueError if ``S`` is absent or occurs more than once.
    """
    for number, edit in enumerate(edits):
        if "text" in edit:
            text = edit["text"]
            continue
        find = edit["find"]
        at = text.find(find)
        if at < 0 or text.find(find, at + 1) >= 0:
            count = "not found" if at < 0 else "found more than once"
            raise ValueError(f"edit {number}: {find[:60]!r} {count}")
        text = text[:at] + edit["replace"] * edit.get("times", 1) + text[at + len(find) :]
    return text


def compact(value: Any) -> str:
    """JSON as the book writer lays it out: sorted keys, no white space."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _find(find: str, replace: str, times: int = 1) -> Edit:
    return {"find": find, "replace": replace} | ({"times": times} if times != 1 else {})


class _Builder:
    """The base book, parsed, and the cases made from it, in a fixed order."""

    def __init__(self, text: str) -> None:
        for placeholder in PLACEHOLDERS:
            if placeholder in text:
                raise ValueError(f"the base holds {placeholder!r}, which the vectors use as a placeholder")
        self.text = text
        self.data = json.loads(text)
        self.entry_count = len(self.data["entries"])
        self.cases: list[dict[str, Any]] = []

    def add(self, name: str, expect: str, description: str, *edits: Edit) -> None:
        if any(case["name"] == name for case in self.cases):
            raise ValueError(f"two cases named {name!r}")
        apply_edits(self.text, list(edits))  # each find occurs exactly once
        self.cases.append({"name": name, "expect": expect, "description": description, "edits": list(edits)})

    # ---- texts of parts of the base, each checked to be there exactly once

    def value(self, path: Path_) -> Any:
        value = self.data
        for step in path:
            value = value[step]
        return value

    def text_of(self, path: Path_) -> str:
        """``"name":value`` for an object member, the value alone for an array item."""
        last = path[-1]
        text = compact(self.value(path))
        if isinstance(last, str):
            text = json.dumps(last) + ":" + text
        apply_edits(self.text, [_find(text, text)])
        return text

    # ---- edits

    def change(self, path: Path_, new: Any) -> Edit:
        """The member (or array item) at ``path`` with a new value."""
        old = self.text_of(path)
        last = path[-1]
        return _find(old, (json.dumps(last) + ":" if isinstance(last, str) else "") + compact(new))

    def tweak(self, path: Path_, old: str, new: str) -> Edit:
        """The member at ``path`` with its one occurrence of ``old`` turned into ``new``."""
        whole = self.text_of(path)
        replaced = apply_edits(whole, [_find(old, new)])
        return _find(whole, replaced)

    def before(self, path: Path_, text: str) -> Edit:
        whole = self.text_of(path)
        return _find(whole, text + whole)

    def after(self, path: Path_, text: str) -> Edit:
        whole = self.text_of(path)
        return _find(whole, whole + text)

    def remove(self, path: Path_) -> Edit:
        """The member at ``path`` and the comma that separates it from the next (or previous)."""
        whole = self.text_of(path)
        for find in (whole + ",", "," + whole):
            if self.text.count(find) == 1:
                return _find(find, "")
        raise ValueError(f"cannot remove {path!r}")

    def entry(self, key: str, **changes: Any) -> Edit:
        return self.change(("entries", key), {**self.value(("entries", key)), **changes})

    def entry_count_is(self, count: Any) -> Edit:
        return self.change(("counts",), {**self.data["counts"], "entries": count})

    def top(self, text: str) -> Edit:
        """Insert ``text`` (a member and a comma) at the start of the top-level object."""
        return self.before(("canonical",), text)

    def grow(self, path: Path_, member: str, placeholder: str, unit: str, times: int) -> list[Edit]:
        """Two edits: ``member`` (holding ``placeholder``) put before the member at ``path``, then
        the placeholder replaced by ``unit`` repeated ``times`` times."""
        return [self.before(path, member), _find(placeholder, unit, times)]


def build_book_vectors(raw: bytes, base_name: str = "tictactoe.json") -> dict[str, Any]:
    """The vectors for the 3x3 book whose bytes are ``raw``."""
    b = _Builder(raw.decode("utf-8"))
    rules = b.data["rules"]
    if (rules["rows"], rules["cols"], rules["k"]) != (3, 3, 3):  # the cases name 3x3 boards
        raise ValueError(f"book vectors are for the 3x3 book (k = 3), not {rules['rows']}x{rules['cols']}")
    _valid_cases(b)
    _limits_and_json_cases(b)
    _header_cases(b)
    _entry_cases(b)
    return {
        "format": BOOK_VECTORS_FORMAT,
        "version": BOOK_VECTORS_VERSION,
        "base": base_name,
        "base_sha256": hashlib.sha256(raw).hexdigest(),
        "cases": b.cases,
    }


def encode_book_vectors(vectors: dict[str, Any]) -> bytes:
    """Header members first, then one case per line; ASCII only, so a BOM or a raw character in a
    case is visible as its escape."""
    header = {k: v for k, v in vectors.items() if k != "cases"}
    cases = ",\n".join(json.dumps(case, separators=(",", ":")) for case in vectors["cases"])
    return (json.dumps(header, separators=(",", ":"))[:-1] + ',"cases":[\n' + cases + "\n]}\n").encode()


def write_book_vectors(book_path: str | Path, out_path: str | Path) -> bytes:
    """Build the vectors from the book at ``book_path`` and write them atomically to ``out_path``."""
    book_path, out_path = Path(book_path), Path(out_path)
    data = encode_book_vectors(build_book_vectors(book_path.read_bytes(), book_path.name))
    write_atomically(out_path, data)
    return data


# ---------------------------------------------------------------- the cases


def _valid_cases(b: _Builder) -> None:
    entries = b.data["entries"]
    b.add("base", "valid", "The real book, unchanged.")
    b.add(
        "reindented",
        "valid",
        "The same content laid out with every kind of JSON white space: CR LF line ends, tabs, "
        "spaces around ':' and after ',', blank text before and after the value.",
        {"text": _reindented(b.data)},
    )
    b.add(
        "keys-reordered",
        "valid",
        "Every object's members in reverse order, entries included: readers must not depend on order.",
        {"text": compact_reversed(b.data) + "\n"},
    )
    b.add(
        "unknown-member-top-level",
        "valid",
        "An unknown top-level member holding every kind of JSON value: readers ignore it.",
        b.top('"comment":{"about":["any",1,-2,null,true,false,{}],"empty":[]},'),
    )
    b.add(
        "unknown-member-in-rules",
        "valid",
        "An unknown member inside rules: ignored.",
        b.before(("rules", "cells"), '"comment":"rules may grow",'),
    )
    b.add(
        "unknown-member-in-symmetry",
        "valid",
        "An unknown member inside a symmetries item: ignored.",
        b.change(("symmetries", 1), {**b.data["symmetries"][1], "comment": [1, 2]}),
    )
    b.add(
        "unknown-member-in-entry",
        "valid",
        "An unknown member inside an entry: ignored.",
        b.entry("........X", comment={"why": "the centre is the only draw"}),
    )
    b.add(
        "unknown-member-in-counts",
        "valid",
        "An unknown member inside counts: validity reads only counts.entries.",
        b.change(("counts",), {**b.data["counts"], "comment": "informational"}),
    )
    b.add(
        "counts-informational-wrong",
        "valid",
        "Every member of counts but entries changed: they are facts about the solve, which validity "
        "does not check (ttt-book verify does).",
        b.change(("counts",), {k: (v if k == "entries" else v + 1) for k, v in b.data["counts"].items()}),
    )
    b.add(
        "trap-rates-missing",
        "valid",
        "No trap_rates member: informational, not part of validity.",
        b.remove(("trap_rates",)),
    )
    b.add(
        "symmetry-names-changed",
        "valid",
        "Symmetry names are free text: one renamed with a non-ASCII character, one empty.",
        b.change(("symmetries", 0), {**b.data["symmetries"][0], "name": "identité"}),
        b.change(("symmetries", 7), {**b.data["symmetries"][7], "name": ""}),
    )
    b.add(
        "tiers-reordered",
        "valid",
        "The empty board's tiers in another order: trap order is not part of validity (only that the "
        "tiers together are the optimal moves), so a reader must accept it.",
        b.entry(".........", tiers=list(reversed(entries["........."]["tiers"]))),
    )
    b.add(
        "tiers-merged",
        "valid",
        "The empty board's three tiers merged into one: still exactly the optimal moves.",
        b.entry(".........", tiers=[sorted(c for t in entries["........."]["tiers"] for c in t)]),
    )
    _checksum_cases(b)
    b.add(
        "escaped-member-names",
        "valid",
        "Member names and a value written with escapes (\\u0066ormat, min\\u002dimage): names are "
        "compared after unescaping, so these are the real format and canonical members.",
        b.tweak(("format",), '"format"', '"\\u0066ormat"'),
        b.tweak(("canonical",), "min-image", "min\\u002dimage"),
    )
    b.add(
        "integer-max",
        "valid",
        f"The largest integer allowed, 2^53 - 1 = {MAX_INTEGER}, and its negative, in an unknown member.",
        b.top(f'"big":[{MAX_INTEGER},-{MAX_INTEGER}],'),
    )
    b.add(
        "negative-zero",
        "valid",
        "-0 in an unknown member: an optional '-' and digits is an integer.",
        b.top('"zero":-0,'),
    )
    b.add(
        "surrogate-pair-escape",
        "valid",
        "A symmetry name holding the escape \\ud83d\\ude00, a surrogate pair: one character, fine.",
        b.tweak(("symmetries", 0), '"identity"', '"identity \\ud83d\\ude00"'),
    )
    b.add(
        "non-ascii-raw",
        "valid",
        "A symmetry name holding raw UTF-8: a 4-byte character (U+1F600) and a 2-byte one (U+00E9).",
        b.tweak(("symmetries", 0), '"identity"', '"identity \U0001f600 \u00e9"'),
    )
    b.add(
        "string-characters-allowed",
        "valid",
        "A symmetry name holding raw U+FEFF (a byte-order mark, but not at the start: an ordinary "
        "character), raw U+2028 and U+2029 (JSON allows them in strings), raw DEL (0x7F) and the escape "
        "\\u0000.",
        b.tweak(("symmetries", 0), '"identity"', '"identity \ufeff \u2028 \u2029 \x7f \\u0000"'),
    )
    b.add(
        "entry-key-escaped",
        "valid",
        'The key of entry ........X written "\\u002e.......X": the same key once unescaped.',
        b.tweak(("entries", "........X"), '"........X"', '"\\u002e.......X"'),
    )
    open_close = '"deep":<open>0<close>,'
    b.add(
        "depth-32-arrays",
        "valid",
        "An unknown top-level member holding 31 nested arrays around a 0: the innermost array is at "
        "depth 32 (the top-level object is depth 1), the most allowed.",
        *b.grow(("canonical",), open_close, "<open>", "[", MAX_DEPTH - 1),
        _find("<close>", "]", MAX_DEPTH - 1),
    )
    b.add(
        "depth-32-objects-in-entry",
        "valid",
        'An unknown member of an entry (depth 3) holding 29 nested objects {"x": ... 0}: the innermost '
        "is at depth 32.",
        b.entry("........X", deep="<open>0<close>"),
        _find('"<open>0<close>"', "<open>0<close>"),
        _find("<open>", '{"x":', MAX_DEPTH - 3),
        _find("<close>", "}", MAX_DEPTH - 3),
    )
    _size_cases(b, MAX_STRUCTURE, MAX_BOOK_BYTES, "valid")


def _checksum_cases(b: _Builder) -> None:
    """The checksum member is gone from the format; a book that still has one is an unknown member."""
    content = {k: v for k, v in b.data.items() if k != "checksum"}
    right = f"crc32:{zlib.crc32(compact(content).encode()):08x}"
    if "checksum" in b.data:
        old = [b.change(("checksum",), right)]
        wrong = [b.change(("checksum",), "crc32:00000000")]
    else:
        old = [b.top(f'"checksum":"{right}",')]
        wrong = [b.top('"checksum":"crc32:00000000",')]
    b.add(
        "checksum-member",
        "valid",
        "A book with the checksum member of old books (the CRC-32 of its content): now an unknown "
        "member, ignored.",
        *old,
    )
    b.add(
        "checksum-member-wrong",
        "valid",
        "A checksum member that does not match the content: readers no longer check it.",
        *wrong,
    )


def _size_cases(b: _Builder, structural: int, size: int, expect: str) -> None:
    """A book with exactly ``structural`` of '[', '{', ',' (commas in an unknown string member),
    and one of exactly ``size`` bytes (spaces after a colon)."""
    inserted = b.top('"pad":"<commas>",')
    before = _structural(apply_edits(b.text, [inserted]))
    commas = structural - before
    over = "over" if expect == "limits" else "at"
    b.add(
        f"structural-{structural}",
        expect,
        f"An unknown member whose string holds {commas:,} commas, making {structural:,} of the characters "
        f"'[', '{{', ',' in the whole text: {over} the limit of {MAX_STRUCTURE:,} (they count inside "
        "strings too).",
        inserted,
        _find("<commas>", ",", commas),
    )
    inserted = b.tweak(("canonical",), ":", ":<spaces>")
    spaces = size - len(apply_edits(b.text, [inserted]).encode()) + len("<spaces>")
    b.add(
        f"size-{size}",
        expect,
        f"{spaces:,} spaces after a colon make the text exactly {size:,} bytes: {over} the limit of "
        f"{MAX_BOOK_BYTES:,}.",
        inserted,
        _find("<spaces>", " ", spaces),
    )


def _structural(text: str) -> int:
    return sum(text.count(ch) for ch in STRUCTURAL)


def _limits_and_json_cases(b: _Builder) -> None:
    _size_cases(b, MAX_STRUCTURE + 1, MAX_BOOK_BYTES + 1, "limits")
    inserted = b.top("<commas>")
    commas = MAX_STRUCTURE + 1 - _structural(apply_edits(b.text, [inserted]))
    b.add(
        "limits-before-json",
        "limits",
        f"{commas:,} bare commas at the start of the top-level object: not JSON, but the count "
        "(step 2) comes before parsing (step 3).",
        inserted,
        _find("<commas>", ",", commas),
    )
    plies = b.tweak(("entries", "........X"), '"plies":8', '"plies":8.0')
    b.add(
        "plies-float",
        "json",
        'An entry\'s "plies": 8.0: a number with a fraction is not an integer in strict JSON, even '
        "with the right value.",
        plies,
    )
    b.add(
        "plies-exponent",
        "json",
        'An entry\'s "plies": 8e0: an exponent is refused too.',
        b.tweak(("entries", "........X"), '"plies":8', '"plies":8e0'),
    )
    b.add(
        "counts-entries-float",
        "json",
        f"counts.entries written {b.entry_count}.0: refused as JSON (step 3), before counts (step 11) is "
        "looked at.",
        b.tweak(("counts",), f'"entries":{b.entry_count}', f'"entries":{b.entry_count}.0'),
    )
    b.add(
        "version-float",
        "json",
        "version written 1.0: refused as JSON (step 3), not as a version (step 5).",
        b.change(("version",), 1.0),
    )
    b.add(
        "float-in-unknown-member",
        "json",
        "A fraction in an unknown member: the JSON rules hold even where any value is allowed.",
        b.top('"ratio":0.5,'),
    )
    b.add(
        "integer-over-max",
        "json",
        f"2^53 = {MAX_INTEGER + 1} in an unknown member: over the I-JSON bound of 2^53 - 1.",
        b.top(f'"big":{MAX_INTEGER + 1},'),
    )
    b.add(
        "integer-under-min",
        "json",
        f"-2^53 = -{MAX_INTEGER + 1} in an unknown member.",
        b.top(f'"big":-{MAX_INTEGER + 1},'),
    )
    b.add(
        "integer-huge-score",
        "json",
        "A score with 400 digits: out of range as JSON, before the entry's shape (step 13) or consistency.",
        b.tweak(("entries", "........X"), '"scores":[-4,', '"scores":[-' + "9" * 400 + ","),
    )
    b.add(
        "leading-zero",
        "json",
        "An integer with a leading zero (08) in an unknown member: not a JSON number.",
        b.top('"n":08,'),
    )
    b.add(
        "plus-sign",
        "json",
        "An integer with a '+' sign in an unknown member: not a JSON number.",
        b.top('"n":+1,'),
    )
    b.add("nan", "json", "NaN in an unknown member: not JSON.", b.top('"n":NaN,'))
    b.add("infinity", "json", "Infinity in an unknown member: not JSON.", b.top('"n":Infinity,'))
    for name, escape, why in (
        ("lone-high-surrogate", "\\ud800", "a high surrogate with no low one after it"),
        ("lone-low-surrogate", "\\udc00", "a low surrogate with no high one before it"),
        ("reversed-surrogate-pair", "\\ude00\\ud83d", "a low surrogate then a high one: two lone ones"),
    ):
        b.add(
            name,
            "json",
            f"A symmetry name holding the escape {escape}, {why}: refused even in free text.",
            b.tweak(("symmetries", 0), '"identity"', f'"identity {escape}"'),
        )
    b.add(
        "lone-surrogate-in-name",
        "json",
        "An unknown member whose name is the escape \\ud800: member names are strings too.",
        b.top('"\\ud800":1,'),
    )
    b.add(
        "depth-33-arrays",
        "json",
        "An unknown top-level member holding 32 nested arrays: the innermost is at depth 33, one too deep.",
        *b.grow(("canonical",), '"deep":<open>0<close>,', "<open>", "[", MAX_DEPTH),
        _find("<close>", "]", MAX_DEPTH),
    )
    b.add(
        "depth-33-objects-in-entry",
        "json",
        "An unknown member of an entry (depth 3) holding 30 nested objects: the innermost is at depth 33.",
        b.entry("........X", deep="<open>0<close>"),
        _find('"<open>0<close>"', "<open>0<close>"),
        _find("<open>", '{"x":', MAX_DEPTH - 2),
        _find("<close>", "}", MAX_DEPTH - 2),
    )
    b.add(
        "depth-100000",
        "json",
        "100,000 nested arrays in an unknown member (within the step-2 bound on values): a reader "
        "must refuse it, not overflow its stack.",
        *b.grow(("canonical",), '"deep":<open><close>,', "<open>", "[", 100_000),
        _find("<close>", "]", 100_000),
    )
    b.add(
        "duplicate-top-level-member",
        "json",
        "The version member twice, with the same value: duplicate names are refused whatever the values.",
        b.top('"version":1,'),
    )
    b.add(
        "duplicate-member-escaped",
        "json",
        "A second version member written \\u0076ersion: names are compared after unescaping.",
        b.top('"\\u0076ersion":1,'),
    )
    b.add(
        "duplicate-entry-member",
        "json",
        "An entry with its turn member twice (the same value).",
        b.tweak(("entries", "........X"), '"turn":"O"', '"turn":"O","turn":"O"'),
    )
    whole = b.text_of(("entries", "........X"))
    b.add(
        "duplicate-entry-key",
        "json",
        "The entry ........X written twice, identical: a duplicate member of entries.",
        b.after(("entries", "........X"), "," + whole),
    )
    b.add(
        "duplicate-entry-key-escaped",
        "json",
        'A copy of entry ........X under the key "\\u002e.......X": the same name once unescaped.',
        b.after(("entries", "........X"), "," + whole.replace('"........X"', '"\\u002e.......X"')),
    )
    b.add(
        "bom",
        "json",
        "A byte-order mark (U+FEFF, bytes EF BB BF) before the top-level object.",
        _find(_start(b), "\ufeff" + _start(b)),
    )
    b.add(
        "no-break-space",
        "json",
        "U+00A0 before the top-level object: not JSON white space.",
        _find(_start(b), "\u00a0" + _start(b)),
    )
    b.add(
        "form-feed",
        "json",
        "A form feed (U+000C) between members: not JSON white space.",
        b.top("\f"),
    )
    b.add(
        "raw-tab-in-string",
        "json",
        "A raw tab character inside a symmetry name: control characters must be escaped in JSON strings.",
        b.tweak(("symmetries", 0), '"identity"', '"iden\ttity"'),
    )
    b.add(
        "bad-escape",
        "json",
        "A symmetry name holding the escape \\x41: not one of JSON's escapes.",
        b.tweak(("symmetries", 0), '"identity"', '"identity \\x41"'),
    )
    b.add(
        "trailing-comma",
        "json",
        "A comma after the last member of rules.",
        b.tweak(("rules",), "}", ",}"),
    )
    b.add(
        "trailing-text",
        "json",
        "A second value after the book: one JSON value only.",
        _find(_end(b), _end(b) + "{}\n"),
    )
    b.add(
        "truncated",
        "json",
        "The last brace removed.",
        _find(_end(b), _end(b).replace("}", "")),
    )
    b.add("empty-text", "json", "An empty file: no JSON value.", {"text": ""})
    b.add("white-space-only", "json", "Only white space: no JSON value.", {"text": " \n"})


def _header_cases(b: _Builder) -> None:
    d = b.data
    rules, n = d["rules"], b.entry_count
    b.add("top-level-array", "format", "The book inside an array: the top level is not an object.", *_wrap(b))
    b.add(
        "format-wrong",
        "format",
        'format is "tictactoe-books".',
        b.change(("format",), FORMAT_NAME + "s"),
    )
    b.add("format-missing", "format", "No format member.", b.remove(("format",)))
    b.add(
        "format-before-version",
        "format",
        "format wrong and version 2: format (step 4) comes first.",
        b.change(("format",), "chess-book"),
        b.change(("version",), 2),
    )
    b.add(
        "version-2", "version", "version 2: a version this reader does not know.", b.change(("version",), 2)
    )
    b.add(
        "version-string", "version", 'version "1": a string, not the integer 1.', b.change(("version",), "1")
    )
    b.add("version-true", "version", "version true: not a number.", b.change(("version",), True))
    b.add("version-missing", "version", "No version member.", b.remove(("version",)))
    b.add(
        "version-before-canonical",
        "version",
        "version 2 and canonical wrong: version (step 5) comes before canonical (step 6).",
        b.change(("version",), 2),
        b.change(("canonical",), "max-image"),
    )
    b.add(
        "canonical-wrong",
        "format",
        'canonical is "max-image", a rule this reader does not know: code format (step 6).',
        b.change(("canonical",), "max-image"),
    )
    b.add("canonical-missing", "format", "No canonical member.", b.remove(("canonical",)))
    b.add(
        "canonical-before-rules",
        "format",
        "canonical wrong and rules k = 4: canonical (step 6) comes first.",
        b.change(("canonical",), "max-image"),
        b.change(("rules",), {**rules, "k": 4}),
    )
    b.add(
        "rules-k-4",
        "rules",
        "k = 4 on 3x3: longer than both rows and cols (the lines, for k = 3, are not looked at: step 8 "
        "is later).",
        b.change(("rules",), {**rules, "k": 4}),
    )
    b.add(
        "rules-k-0",
        "rules",
        "k = 0: not at least 1.",
        b.change(("rules",), {**rules, "k": 0}),
    )
    b.add(
        "rules-cells-wrong",
        "rules",
        "cells = 10 with rows = cols = 3.",
        b.change(("rules",), {**rules, "cells": 10}),
    )
    b.add(
        "rules-cells-missing",
        "rules",
        "No cells member in rules.",
        b.change(("rules",), {k: v for k, v in rules.items() if k != "cells"}),
    )
    b.add(
        "rules-marks-wrong",
        "rules",
        'first is "x" (lower case), not "X".',
        b.change(("rules",), {**rules, "first": "x"}),
    )
    b.add(
        "rules-rows-true",
        "rules",
        "rows is true: not an integer (true is not 1).",
        b.change(("rules",), {**rules, "rows": True}),
    )
    b.add(
        "rules-too-many-cells",
        "rules",
        "rows = 5, cols = 4 (cells = 20, lines unchanged): over 16 cells.",
        b.change(("rules",), {**rules, "rows": 5, "cols": 4, "cells": 20}),
    )
    b.add("rules-not-object", "rules", "rules is an array.", b.change(("rules",), [3, 3, 3]))
    b.add(
        "rules-before-lines",
        "rules",
        "cells wrong and the diagonals missing from lines: rules (step 7) comes first.",
        b.change(("rules",), {**rules, "cells": 10, "lines": rules["lines"][:6]}),
    )
    b.add(
        "lines-without-diagonals",
        "lines",
        "rules.lines holds the 3 rows and 3 columns only, without the two diagonals.",
        b.change(("rules",), {**rules, "lines": rules["lines"][:6]}),
    )
    b.add(
        "lines-reordered",
        "lines",
        "The two diagonals swapped: the lines must be in the derived order.",
        b.change(("rules",), {**rules, "lines": [*rules["lines"][:6], rules["lines"][7], rules["lines"][6]]}),
    )
    b.add(
        "lines-reversed-line",
        "lines",
        "One line's cells listed backwards ([2,1,0]): each line must be exactly the derived list.",
        b.change(("rules",), {**rules, "lines": [rules["lines"][0][::-1], *rules["lines"][1:]]}),
    )
    b.add(
        "lines-extra",
        "lines",
        "A ninth line [0,4,5] (not a line of the board) appended.",
        b.change(("rules",), {**rules, "lines": [*rules["lines"], [0, 4, 5]]}),
    )
    symmetries = d["symmetries"]
    b.add(
        "lines-before-symmetries",
        "lines",
        "Lines without the diagonals and one symmetry missing: lines (step 8) comes first.",
        b.change(("rules",), {**rules, "lines": rules["lines"][:6]}),
        b.change(("symmetries",), symmetries[:-1]),
    )
    fake = {"name": "swap cells 0 and 1", "perm": [1, 0, *range(2, len(symmetries[0]["perm"]))]}
    b.add(
        "symmetries-fake-extra",
        "symmetries",
        "A ninth item, swapping cells 0 and 1: a permutation, but not a symmetry of the board.",
        b.change(("symmetries",), [*symmetries, fake]),
    )
    b.add(
        "symmetries-missing-one",
        "symmetries",
        "The last symmetry removed: 7 items where 8 are derived.",
        b.change(("symmetries",), symmetries[:-1]),
    )
    b.add(
        "symmetries-reordered",
        "symmetries",
        "Symmetries 1 and 2 swapped: the order is the derived one (it decides which symmetry a reader "
        "reports for a symmetric board).",
        b.change(("symmetries",), [symmetries[0], symmetries[2], symmetries[1], *symmetries[3:]]),
    )
    b.add(
        "symmetry-name-not-string",
        "symmetries",
        "A symmetry whose name is the number 0: a name must be a string.",
        b.change(("symmetries", 0), {**symmetries[0], "name": 0}),
    )
    b.add(
        "symmetry-perm-missing",
        "symmetries",
        "A symmetry with no perm member.",
        b.change(("symmetries", 3), {"name": symmetries[3]["name"]}),
    )
    b.add("symmetries-not-array", "symmetries", "symmetries is an object.", b.change(("symmetries",), {}))
    b.add(
        "symmetries-before-entries",
        "symmetries",
        "A fake ninth symmetry and entries as an array: symmetries (step 9) comes first.",
        b.change(("symmetries",), [*symmetries, fake]),
        *_entries_as_list(b),
    )
    b.add(
        "entries-list",
        "entries",
        "entries is an array holding the entries object: not an object (counts.entries, unchanged, is "
        "not looked at: step 11 comes later).",
        *_entries_as_list(b),
    )
    b.add(
        "entries-missing",
        "entries",
        "The entries member renamed entrees: there is no entries member (the renamed one is an unknown "
        "member, and counts is not looked at: step 11 comes later).",
        _find('"entries":{', '"entrees":{'),
    )
    b.add(
        "counts-entries-off-by-one",
        "counts",
        f"counts.entries is {n + 1}; entries holds {n}.",
        b.entry_count_is(n + 1),
    )
    b.add(
        "counts-entries-string",
        "counts",
        f'counts.entries is the string "{n}".',
        b.entry_count_is(str(n)),
    )
    b.add(
        "counts-entries-missing",
        "counts",
        "counts has no entries member.",
        b.change(("counts",), {k: v for k, v in d["counts"].items() if k != "entries"}),
    )
    b.add("counts-not-object", "counts", "counts is an array.", b.change(("counts",), [n]))
    b.add("counts-missing", "counts", "No counts member.", b.remove(("counts",)))


def _start(b: _Builder) -> str:
    """The base's text up to its first member name and colon (``{"canonical":``)."""
    return b.text[: b.text.index(":") + 1]


def _end(b: _Builder) -> str:
    """The base's text from the comma before its last member (``,"version":1}`` and the newline)."""
    return b.text[b.text.rindex(',"') :]


def _wrap(b: _Builder) -> list[Edit]:
    return [_find(_start(b), "[" + _start(b)), _find(_end(b), _end(b).replace("}", "}]"))]


def _entries_as_list(b: _Builder) -> list[Edit]:
    """'[' before the entries object, ']' after it (after its last entry and closing brace)."""
    last = b.text_of(("entries", list(b.data["entries"])[-1]))
    return [_find('"entries":{', '"entries":[{'), _find(last + "}", last + "}]")]


def _entry_cases(b: _Builder) -> None:
    n = b.entry_count
    e = b.data["entries"]
    x8 = e["........X"]  # X took the corner 8; O must take the centre
    # 12: keys
    mapped = {**x8, "scores": [None, *x8["scores"][:8]]}  # the same entry seen from X........
    b.add(
        "key-not-canonical",
        "entry-key",
        "An extra entry X........ (X in corner 0, a well-formed copy of ........X mapped onto it), with "
        f"counts.entries {n + 1}: a legal board, but its canonical form is ........X.",
        b.after(("entries", "........X"), ',"X........":' + compact(mapped)),
        b.entry_count_is(n + 1),
    )
    b.add(
        "key-not-canonical-counts-unchanged",
        "counts",
        f"The same extra entry X........ with counts.entries left at {n}: counts (step 11) comes "
        "before the keys (step 12).",
        b.after(("entries", "........X"), ',"X........":' + compact(mapped)),
    )
    shape = {
        "plies": 1,
        "scores": [None] * 5 + [9, 9, 9, 9],
        "tiers": [[5, 6, 7, 8]],
        "turn": "O",
        "value": 1,
    }
    for name, key, why in (
        ("key-finished-win", "XXXOO....", "X has completed the top row: a finished board"),
        ("key-full-board", "XOXXOOOXX", "no empty cell, no line: a finished draw"),
        ("key-wrong-length", "........", "8 characters on a 9-cell board"),
        ("key-bad-character", "........x", "lower-case x is not a mark"),
        ("key-impossible-counts", ".......XX", "two X and no O: #X - #O is 2"),
    ):
        b.add(
            name,
            "entry-key",
            f"An extra entry {key} ({why}), holding a well-shaped entry, with counts.entries {n + 1}.",
            b.after(("entries", "........X"), f",{json.dumps(key)}:" + compact(shape)),
            b.entry_count_is(n + 1),
        )
    b.add(
        "key-before-shape",
        "entry-key",
        "The extra finished entry XXXOO.... and ........X's value set to true: the keys (step 12) are "
        "checked before any entry's shape (step 13).",
        b.after(("entries", "........X"), ',"XXXOO....":' + compact(shape)),
        b.entry_count_is(n + 1),
        b.tweak(("entries", ".......OX"), '"value":1', '"value":true'),
    )
    # 13: shapes
    for name, changes, why in (
        ("value-true", {"value": True}, "value true for a draw: true is not an integer (nor 1)"),
        ("plies-string", {"plies": "8"}, 'plies "8", a string'),
        ("turn-lower-case", {"turn": "o"}, 'turn "o", not "X" or "O"'),
        ("turn-null", {"turn": None}, "turn null"),
        ("scores-with-string", {"scores": [-4, -4, -4, -4, "0", -4, -4, -4, None]}, 'a score "0", a string'),
        ("scores-too-short", {"scores": x8["scores"][:8]}, "8 scores on a 9-cell board"),
        ("scores-not-array", {"scores": {"4": 0}}, "scores an object"),
        (
            "scores-with-true",
            {"scores": [-4, -4, -4, -4, 0, -4, -4, -4, False]},
            "false for an occupied cell",
        ),
        ("tiers-empty", {"tiers": []}, "no tiers at all"),
        ("tier-empty", {"tiers": [[4], []]}, "an empty tier after the real one"),
        ("tier-with-null", {"tiers": [[4, None]]}, "null in a tier"),
        ("tiers-flat", {"tiers": [4]}, "tiers [4], a list of integers rather than of lists"),
    ):
        b.add(
            name,
            "entry-shape",
            f"Entry ........X with {why}; everything else as it was.",
            b.entry("........X", **changes),
        )
    b.add(
        "plies-missing",
        "entry-shape",
        "Entry ........X with no plies member.",
        b.change(("entries", "........X"), {k: v for k, v in x8.items() if k != "plies"}),
    )
    b.add(
        "entry-null",
        "entry-shape",
        "Entry ........X is null: present (so nothing is missing) but not an object.",
        b.change(("entries", "........X"), None),
    )
    b.add(
        "shape-before-missing",
        "entry-shape",
        f"Entry .......OX removed (counts.entries {n - 1}) and ........X's value set to true: the shapes "
        "(step 13) are checked before successors (step 14).",
        b.remove(("entries", ".......OX")),
        b.entry_count_is(n - 1),
        b.tweak(("entries", "........X"), '"value":0', '"value":true'),
    )
    # 14: missing entries
    b.add(
        "entry-missing",
        "missing-entry",
        f"Entry .......OX (reached from ........X when O takes an edge) removed, counts.entries {n - 1}: "
        "a successor of ........X has no entry.",
        b.remove(("entries", ".......OX")),
        b.entry_count_is(n - 1),
    )
    b.add(
        "empty-board-missing",
        "missing-entry",
        f"The empty board's entry removed, counts.entries {n - 1}: no entry has it as a successor, but "
        "the empty board must be there.",
        b.remove(("entries", ".........")),
        b.entry_count_is(n - 1),
    )
    b.add(
        "missing-before-inconsistent",
        "missing-entry",
        f"Entry .......OX removed (counts.entries {n - 1}) and ........X's turn made wrong: successors "
        "(step 14) come before consistency (step 15).",
        b.remove(("entries", ".......OX")),
        b.entry_count_is(n - 1),
        b.entry("........X", turn="X"),
    )
    # 15: consistency
    x8_centre_loses = [0, 0, 0, 0, -4, 0, 0, 0, None]
    b.add(
        "centre-scored-losing",
        "entry-inconsistent",
        "Entry ........X with the centre scored -4 and every other free cell 0, value 0 in 8 plies and "
        "tiers [[0,1,2,3,5,6,7]]: consistent within the entry (the best score 0 gives that value, plies "
        "and tiers), but not with its successors, which say only the centre draws.",
        b.entry("........X", scores=x8_centre_loses, tiers=[[0, 1, 2, 3, 5, 6, 7]], value=0, plies=8),
    )
    empty = e["........."]
    b.add(
        "empty-board-centre-wins",
        "entry-inconsistent",
        "The empty board with the centre scored 5 (X wins in 5 plies), value 1 in 5, tiers [[4]]: "
        "consistent within the entry, but the successor ....X.... (best score 0) says the centre draws.",
        b.entry(
            ".........",
            scores=[5 if c == 4 else s for c, s in enumerate(empty["scores"])],
            tiers=[[4]],
            value=1,
            plies=5,
        ),
    )
    ox = e[".......OX"]
    b.add(
        "win-claimed-faster",
        "entry-inconsistent",
        "Entry .......OX with cell 2 scored 7 (a win in 3 plies, not 5), value 1 in 3, tiers [[2]]: "
        "consistent within the entry, not with the successor's best score. (........X, whose O-to-7 "
        "successor this is, now disagrees with it too: the code is the same.)",
        b.entry(
            ".......OX",
            scores=[7 if c == 2 else s for c, s in enumerate(ox["scores"])],
            tiers=[[2]],
            value=1,
            plies=3,
        ),
    )
    b.add(
        "score-longer-than-game",
        "entry-inconsistent",
        "Entry ........X with every losing score -2 (a loss in 8 plies: a possible length, and the "
        "shape is fine, but the successors say -4, a loss in 6).",
        b.entry("........X", scores=[-2 if s == -4 else s for s in x8["scores"]]),
    )
    b.add(
        "value-wrong",
        "entry-inconsistent",
        "Entry ........X with value 1: its best score 0 means a draw.",
        b.entry("........X", value=1),
    )
    b.add(
        "plies-wrong",
        "entry-inconsistent",
        "Entry ........X with plies 9: a draw lasts as many plies as free cells (8).",
        b.entry("........X", plies=9),
    )
    b.add(
        "turn-wrong",
        "entry-inconsistent",
        'Entry ........X (one X on the board) with turn "X": O is to move. Well-shaped, so step 15.',
        b.entry("........X", turn="X"),
    )
    b.add(
        "score-on-occupied-cell",
        "entry-inconsistent",
        "Entry ........X with -4 on cell 8, which X holds (below the best score, so value, plies and tiers "
        "are unaffected whichever way a reader takes the best score).",
        b.entry("........X", scores=[*x8["scores"][:8], -4]),
    )
    b.add(
        "null-on-free-cell",
        "entry-inconsistent",
        "Entry ........X with null on cell 0, which is free.",
        b.entry("........X", scores=[None, *x8["scores"][1:]]),
    )
    b.add(
        "scores-all-null",
        "entry-inconsistent",
        "Entry .......OX with every score null (well-shaped: an array of 9 nulls): it has no best "
        "score, so it is inconsistent itself, and so is ........X, whose successor it is (docs/"
        "book-format.md: same code, no best score needed).",
        b.entry(".......OX", scores=[None] * 9),
    )
    b.add(
        "scores-swapped",
        "entry-inconsistent",
        "Entry ........X with the scores of cells 3 and 4 swapped (tiers still [[4]]).",
        b.entry("........X", scores=[-4, -4, -4, 0, -4, -4, -4, -4, None]),
    )
    b.add(
        "tier-non-optimal",
        "entry-inconsistent",
        "Entry ........X with a second tier [0]: cell 0 scores -4, not the best score 0.",
        b.entry("........X", tiers=[[4], [0]]),
    )
    b.add(
        "tier-occupied-cell",
        "entry-inconsistent",
        "Entry ........X with a second tier [8]: cell 8 is taken.",
        b.entry("........X", tiers=[[4], [8]]),
    )
    b.add(
        "tier-off-board",
        "entry-inconsistent",
        "Entry ........X with a second tier [9]: there is no cell 9 (an integer, so the shape is fine).",
        b.entry("........X", tiers=[[4], [9]]),
    )
    b.add(
        "tier-negative-cell",
        "entry-inconsistent",
        "Entry ........X with a second tier [-1].",
        b.entry("........X", tiers=[[4], [-1]]),
    )
    b.add(
        "tier-repeated-cell",
        "entry-inconsistent",
        "Entry ........X with tiers [[4],[4]]: the set of cells is right, but a cell appears twice.",
        b.entry("........X", tiers=[[4], [4]]),
    )
    b.add(
        "tiers-missing-optimal",
        "entry-inconsistent",
        "The empty board without its last tier [4]: the centre also draws, so the tiers are not all "
        "the optimal moves.",
        b.entry(".........", tiers=empty["tiers"][:-1]),
    )


def _reindented(data: dict[str, Any]) -> str:
    """Top-level members and entries one per line, indented with tabs, CR LF line ends, a space
    after every ',' and around every ':' (around ':' only at the top level)."""

    def loose(value: Any) -> str:
        return json.dumps(value, separators=(", ", ": "), sort_keys=True, ensure_ascii=False)

    lines = [" \r\n{"]
    for number, name in enumerate(sorted(data)):
        comma = "," if number < len(data) - 1 else ""
        if name == "entries":
            lines.append('\t"entries" :\r\n\t{')
            keys = sorted(data[name])
            for i, key in enumerate(keys):
                lines.append(
                    f"\t\t{json.dumps(key)}: {loose(data[name][key])}" + ("," if i < len(keys) - 1 else "")
                )
            lines.append("\t}" + comma)
        else:
            lines.append(f"\t{json.dumps(name)} : {loose(data[name])}{comma}")
    lines.append("}")
    return "\r\n".join(lines) + "\r\n\t \n"


def compact_reversed(value: Any) -> str:
    """Compact JSON with every object's members in reverse sorted order."""
    if isinstance(value, dict):
        members = (json.dumps(k) + ":" + compact_reversed(value[k]) for k in sorted(value, reverse=True))
        return "{" + ",".join(members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(compact_reversed(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


@click.command()
@click.argument(
    "book", type=click.Path(dir_okay=False, path_type=Path), default=Path("book") / "tictactoe.json"
)
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path), required=False)
def main(book: Path, output: Path | None) -> None:
    """Write the book vectors for BOOK (default book/tictactoe.json) to OUTPUT (default:
    book-vectors.json beside BOOK)."""
    output = output or book.with_name("book-vectors.json")
    try:
        data = write_book_vectors(book, output)
    except OSError as error:
        raise click.ClickException(f"{error.filename or output}: {error.strerror or error}") from None
    cases = data.count(b'{"name":')
    click.echo(f"wrote {output}: {len(data):,} bytes, {cases} cases")


if __name__ == "__main__":
    main()
