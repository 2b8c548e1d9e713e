"""Book vectors: whole books, each the real book with a few documented edits, and the verdict every
reader must give — ``"valid"`` or the reason code of docs/book-format.md, "A valid book".

The board vectors (``book/vectors.json``, ``tictactoe_generator.vectors``) test what a
reader answers; these test what it accepts. A case stores edits, not the book it makes, so the
file stays small and a port in any language can rebuild each book: start from the base's text
and apply the edits in order (docs/conformance.md). Every edit's ``find`` must occur exactly once
in the text at that point, which this module checks as it builds each case, so a stale base
fails here, loudly.

Each case trips one step, or is crafted so the step it names comes first when two could fire;
its description says why. ``python tests/book_vectors.py`` (``make book``) writes the file beside
the book. The builder is test data, kept out of the package: no reader needs it.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import click
import numpy as np

from tictactoe_book import Rules
from tictactoe_book.reader import (
    FORMAT_NAME,
    MAX_BOOK_BYTES,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_STRUCTURE,
    entry_text,
)
from tictactoe_generator.atomic import fingerprint, write_atomically, written
from tictactoe_generator.codes import decode
from tictactoe_generator.solve import Retrograde, solve
from tictactoe_generator.writer import counts_member, document, encode

BOOK_VECTORS_FORMAT = "tictactoe-book-book-vectors"
BOOK_VECTORS_VERSION = 1
#: The characters the step-2 bound counts (``MAX_STRUCTURE`` of them at most).
STRUCTURAL = "[{,"
#: Where a case grows a big input with ``times``; none occurs in a book (checked).
PLACEHOLDERS = ("<open>", "<close>", "<commas>", "<spaces>")

Edit = dict[str, Any]
Path_ = tuple[str | int, ...]


#: The ``trap_order`` member of a book whose tiers are not a trap order.
PLACEHOLDER = {"method": "placeholder", "tolerance": "0"}


def placeholder_book(result: Retrograde) -> dict[str, Any]:
    """A book of ``result`` whose entries hold all their optimal moves in one tier: valid
    (validity does not decide the order of the tiers) but not what ``ttt-book build`` writes (its
    ``trap_order.method`` says ``"placeholder"``, and it has no ``trap_rates``)."""
    base = result.rules
    rules = Rules(base.rows, base.cols, base.k, misere=result.misere)
    rows = result.unfinished()
    keys = decode(result.codes[rows], rules.cells)
    bests = result.best[rows].tolist()
    scores = result.scores[rows]
    optimal = scores == result.best[rows][:, None]
    entries = {}
    for key, best, row in zip(keys, bests, optimal, strict=True):
        entries[key] = entry_text(best, [np.flatnonzero(row).tolist()])
    return document(rules, entries, counts_member(result), PLACEHOLDER, {})


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


def find_edit(find: str, replace: str, times: int = 1) -> Edit:
    return {"find": find, "replace": replace} | ({"times": times} if times != 1 else {})


class JsonText:
    """A JSON text as the writer lays it out (``compact``), parsed, and edits of it made from its
    members' texts, each checked to occur exactly once (tests/parts_vectors.py edits a manifest
    with it)."""

    def __init__(self, text: str) -> None:
        for placeholder in PLACEHOLDERS:
            if placeholder in text:
                raise ValueError(f"the base holds {placeholder!r}, which the vectors use as a placeholder")
        self.text = text
        self.data = json.loads(text)

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
        apply_edits(self.text, [find_edit(text, text)])
        return text

    # ---- edits

    def change(self, path: Path_, new: Any) -> Edit:
        """The member (or array item) at ``path`` with a new value."""
        old = self.text_of(path)
        last = path[-1]
        return find_edit(old, (json.dumps(last) + ":" if isinstance(last, str) else "") + compact(new))

    def tweak(self, path: Path_, old: str, new: str) -> Edit:
        """The member at ``path`` with its one occurrence of ``old`` turned into ``new``."""
        whole = self.text_of(path)
        replaced = apply_edits(whole, [find_edit(old, new)])
        return find_edit(whole, replaced)

    def before(self, path: Path_, text: str) -> Edit:
        whole = self.text_of(path)
        return find_edit(whole, text + whole)

    def after(self, path: Path_, text: str) -> Edit:
        whole = self.text_of(path)
        return find_edit(whole, whole + text)

    def remove(self, path: Path_) -> Edit:
        """The member at ``path`` and the comma that separates it from the next (or previous)."""
        whole = self.text_of(path)
        for find in (whole + ",", "," + whole):
            if self.text.count(find) == 1:
                return find_edit(find, "")
        raise ValueError(f"cannot remove {path!r}")

    def top(self, text: str) -> Edit:
        """Insert ``text`` (a member and a comma) at the start of the top-level object."""
        return self.before(("canonical",), text)


class _Builder(JsonText):
    """The base book, parsed, and the cases made from it, in a fixed order."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.entry_count = len(self.data["entries"])
        self.cases: list[dict[str, Any]] = []

    def add(self, name: str, expect: str, description: str, *edits: Edit, against: str = "novice") -> None:
        """A case; a valid one says whom a reader reports its tiers ranked against (``against``:
        the book's ``trap_order.against`` when that is a string, else ``"novice"``)."""
        if any(case["name"] == name for case in self.cases):
            raise ValueError(f"two cases named {name!r}")
        apply_edits(self.text, list(edits))  # each find occurs exactly once
        ranked = {"against": against} if expect == "valid" else {}
        self.cases.append(
            {"name": name, "expect": expect, **ranked, "description": description, "edits": list(edits)}
        )

    def entry(self, key: str, text: Any) -> Edit:
        """Entry ``key`` holding ``text`` (an entry string, or any JSON value) instead."""
        return self.change(("entries", key), text)

    def entry_count_is(self, count: Any) -> Edit:
        return self.change(("counts",), {**self.data["counts"], "entries": count})

    def entry_count_is_text(self, text: str) -> Edit:
        """counts.entries written as ``text`` (JSON that ``compact`` would not write, as ``-0``)."""
        return self.tweak(("counts",), f'"entries":{self.entry_count}', f'"entries":{text}')

    def grow(self, path: Path_, member: str, placeholder: str, unit: str, times: int) -> list[Edit]:
        """Two edits: ``member`` (holding ``placeholder``) put before the member at ``path``, then
        the placeholder replaced by ``unit`` repeated ``times`` times."""
        return [self.before(path, member), find_edit(placeholder, unit, times)]


def build_book_vectors(raw: bytes, base_name: str = "tictactoe.json") -> dict[str, Any]:
    """The vectors for the 3x3 book whose bytes are ``raw`` (and the misère 3x3 book, which the
    misère cases hold whole: ``misere_base``)."""
    b = _Builder(raw.decode("utf-8"))
    rules = b.data["rules"]
    if (rules["rows"], rules["cols"], rules["k"], rules["misere"]) != (3, 3, 3, False):  # 3x3 boards
        raise ValueError(f"book vectors are for the 3x3 book (k = 3), not {rules['rows']}x{rules['cols']}")
    _valid_cases(b)
    _limits_and_json_cases(b)
    _header_cases(b)
    _entry_cases(b)
    _misere_cases(b, misere_base())
    return {
        "format": BOOK_VECTORS_FORMAT,
        "version": BOOK_VECTORS_VERSION,
        "base": base_name,
        "base_sha256": hashlib.sha256(raw).hexdigest(),
        "cases": b.cases,
    }


def misere_base() -> str:
    """The misère 3x3 book's text: solved by tictactoe_generator.solve, written with a placeholder trap
    order (one tier of all optimal moves: validity does not decide the order of the tiers)."""
    return encode(placeholder_book(solve(Rules(misere=True)))).decode("ascii")


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
        {"text": reindented(b.data)},
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
        "unknown-member-in-trap-order",
        "valid",
        "An unknown member inside trap_order: ignored (an entry, a string, has no members).",
        b.change(("trap_order",), {**b.data["trap_order"], "comment": {"why": "informational"}}),
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
        "trap-order-missing",
        "valid",
        "No trap_order member: informational, not part of validity; the tiers are ranked against "
        "the novice (the default).",
        b.remove(("trap_order",)),
    )
    order = b.data["trap_order"]
    b.add(
        "trap-order-against-random",
        "valid",
        'trap_order.against "random": the tiers are ranked to beat a random player first (ttt-book '
        "build --against random). Not part of validity (this book's tiers are the novice's: a reader "
        "cannot tell); a reader reports it (Python Book.against, JavaScript reader.against).",
        b.change(("trap_order",), {**order, "against": "random"}),
        against="random",
    )
    b.add(
        "trap-order-against-program",
        "valid",
        'trap_order.against "program", with the command it was ranked against (ttt-book build '
        "--against-program): reported as it is; a player offers it only as this book's own ranking.",
        b.change(("trap_order",), {**order, "against": "program", "program": "./engine --strict"}),
        against="program",
    )
    b.add(
        "trap-order-against-not-a-string",
        "valid",
        "trap_order.against 7: not a string, so no ranking is named: reported as the novice, the "
        "default. Not part of validity.",
        b.change(("trap_order",), {**order, "against": 7}),
    )
    b.add(
        "trap-order-not-an-object",
        "valid",
        "trap_order a string: informational, not part of validity; no ranking is named, so the novice.",
        b.change(("trap_order",), "exact"),
    )
    b.add(
        "symmetry-names-changed",
        "valid",
        "Symmetry names are free text: one renamed with a non-ASCII character, one empty.",
        b.change(("symmetries", 0), {**b.data["symmetries"][0], "name": "identité"}),
        b.change(("symmetries", 7), {**b.data["symmetries"][7], "name": ""}),
    )
    empty = entries["........."]
    best, *tiers = empty.split(" ")
    b.add(
        "tiers-reordered",
        "valid",
        f"The empty board's tiers in another order ({empty!r} written {' '.join([best, *tiers[::-1]])!r}): "
        "trap order is not part of validity (only that the tiers together are the optimal moves), so a "
        "reader must accept it.",
        b.entry(".........", " ".join([best, *tiers[::-1]])),
    )
    merged = ",".join(str(c) for c in sorted(int(c) for tier in tiers for c in tier.split(",")))
    b.add(
        "tiers-merged",
        "valid",
        f"The empty board's three tiers merged into one, {best} {merged}: still exactly the optimal moves.",
        b.entry(".........", f"{best} {merged}"),
    )
    b.add(
        "tiers-split",
        "valid",
        "The empty board's first tier split in two (0,2 then 6,8): ties need not share a tier.",
        b.entry(".........", empty.replace(" 0,2,6,8 ", " 0,2 6,8 ")),
    )
    b.add(
        "best-negative-zero",
        "valid",
        'Entry ........X written "-0 4": -0 is an integer as RFC 8259 writes one, and means 0.',
        b.entry("........X", "-0 4"),
    )
    b.add(
        "perm-negative-zero",
        "valid",
        "The identity's perm written [-0,1,2,...]: -0 is an integer, and means 0, in a fixed field too.",
        b.tweak(("symmetries", 0), '"perm":[0,1,', '"perm":[-0,1,'),
    )
    b.add(
        "lines-negative-zero",
        "valid",
        "The first winning line written [-0,1,2]: -0 means 0, so the lines are the derived ones.",
        b.tweak(("rules",), '"lines":[[0,1,2]', '"lines":[[-0,1,2]'),
    )
    b.add(
        "entry-string-escaped",
        "valid",
        'Entry ........X written "0\\u00204" and .......OX with its first digit as \\u0035: the grammar '
        "applies to the string once unescaped, which is the real entry.",
        b.tweak(("entries", "........X"), '"0 4"', '"0\\u00204"'),
        b.tweak(("entries", ".......OX"), '":"5 ', '":"\\u0035 '),
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
        find_edit("<close>", "]", MAX_DEPTH - 1),
    )
    b.add(
        "depth-32-objects-in-rules",
        "valid",
        'An unknown member of rules (depth 2) holding 30 nested objects {"x": ... 0}: the innermost '
        "is at depth 32.",
        b.before(("rules", "cells"), '"deep":<open>0<close>,'),
        find_edit("<open>", '{"x":', MAX_DEPTH - 2),
        find_edit("<close>", "}", MAX_DEPTH - 2),
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
    before = structural_count(apply_edits(b.text, [inserted]))
    commas = structural - before
    over = "over" if expect == "limits" else "at"
    b.add(
        f"structural-{structural}",
        expect,
        f"An unknown member whose string holds {commas:,} commas, making {structural:,} of the characters "
        f"'[', '{{', ',' in the whole text: {over} the limit of {MAX_STRUCTURE:,} (they count inside "
        "strings too).",
        inserted,
        find_edit("<commas>", ",", commas),
    )
    inserted = b.tweak(("canonical",), ":", ":<spaces>")
    spaces = size - len(apply_edits(b.text, [inserted]).encode()) + len("<spaces>")
    b.add(
        f"size-{size}",
        expect,
        f"{spaces:,} spaces after a colon make the text exactly {size:,} bytes: {over} the limit of "
        f"{MAX_BOOK_BYTES:,}.",
        inserted,
        find_edit("<spaces>", " ", spaces),
    )


def structural_count(text: str) -> int:
    return sum(text.count(ch) for ch in STRUCTURAL)


def _limits_and_json_cases(b: _Builder) -> None:
    _size_cases(b, MAX_STRUCTURE + 1, MAX_BOOK_BYTES + 1, "limits")
    inserted = b.top("<commas>")
    commas = MAX_STRUCTURE + 1 - structural_count(apply_edits(b.text, [inserted]))
    b.add(
        "limits-before-json",
        "limits",
        f"{commas:,} bare commas at the start of the top-level object: not JSON, but the count "
        "(step 2) comes before parsing (step 3).",
        inserted,
        find_edit("<commas>", ",", commas),
    )
    b.add(
        "k-float",
        "json",
        '"k": 3.0 in rules: a number with a fraction is not an integer in strict JSON, even with the '
        "right value.",
        b.tweak(("rules",), '"k":3', '"k":3.0'),
    )
    b.add(
        "k-exponent",
        "json",
        '"k": 3e0 in rules: an exponent is refused too.',
        b.tweak(("rules",), '"k":3', '"k":3e0'),
    )
    b.add(
        "entry-a-float",
        "json",
        "Entry ........X is the number 0.5: refused as JSON (step 3) before its shape (step 13).",
        b.entry("........X", 0.5),
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
        "version written 2.0: refused as JSON (step 3), not as a version (step 5).",
        b.change(("version",), 2.0),
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
        "integer-huge-cell",
        "json",
        "A cell of the first line with 400 digits: out of range as JSON, before the rules (step 7) or "
        "lines (step 8). (Inside an entry string, the same digits are an entry-shape case.)",
        b.tweak(("rules",), '"lines":[[0,', '"lines":[[-' + "9" * 400 + ","),
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
        ("two-low-surrogates", "\\udc00\\ude00", "a low surrogate then another: no pair begins low"),
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
        find_edit("<close>", "]", MAX_DEPTH),
    )
    b.add(
        "depth-33-objects-in-rules",
        "json",
        "An unknown member of rules (depth 2) holding 31 nested objects: the innermost is at depth 33.",
        b.before(("rules", "cells"), '"deep":<open>0<close>,'),
        find_edit("<open>", '{"x":', MAX_DEPTH - 1),
        find_edit("<close>", "}", MAX_DEPTH - 1),
    )
    b.add(
        "depth-100000",
        "json",
        "100,000 nested arrays in an unknown member (within the step-2 bound on values): a reader "
        "must refuse it, not overflow its stack.",
        *b.grow(("canonical",), '"deep":<open><close>,', "<open>", "[", 100_000),
        find_edit("<close>", "]", 100_000),
    )
    b.add(
        "duplicate-top-level-member",
        "json",
        "The version member twice, with the same value: duplicate names are refused whatever the values.",
        b.top('"version":2,'),
    )
    b.add(
        "duplicate-member-escaped",
        "json",
        "A second version member written \\u0076ersion: names are compared after unescaping.",
        b.top('"\\u0076ersion":2,'),
    )
    b.add(
        "duplicate-rules-member",
        "json",
        "rules with its misere member twice (the same value).",
        b.tweak(("rules",), '"misere":false', '"misere":false,"misere":false'),
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
        find_edit(_start(b), "\ufeff" + _start(b)),
    )
    b.add(
        "no-break-space",
        "json",
        "U+00A0 before the top-level object: not JSON white space.",
        find_edit(_start(b), "\u00a0" + _start(b)),
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
        "raw-unit-separator-in-string",
        "json",
        "A raw U+001F, the last control character, inside a symmetry name: it must be escaped too.",
        b.tweak(("symmetries", 0), '"identity"', '"iden\x1ftity"'),
    )
    b.add(
        "raw-tab-in-entry",
        "json",
        "Entry ........X with a raw tab for its space (0, tab, 4): not JSON, before the entry's grammar "
        "(step 13). (Escaped as \\t it is JSON, and an entry-shape case.)",
        b.tweak(("entries", "........X"), '"0 4"', '"0\t4"'),
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
        find_edit(_end(b), _end(b) + "{}\n"),
    )
    b.add(
        "truncated",
        "json",
        "The last brace removed.",
        find_edit(_end(b), _end(b).replace("}", "")),
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
        "format wrong and version 1: format (step 4) comes first.",
        b.change(("format",), "chess-book"),
        b.change(("version",), 1),
    )
    b.add(
        "version-1",
        "version",
        "version 1: the entries are version-2 strings, but a reader of version 2 refuses version 1 "
        "whatever the file holds (a version-1 book's entries are objects).",
        b.change(("version",), 1),
    )
    b.add(
        "version-3", "version", "version 3: a version this reader does not know.", b.change(("version",), 3)
    )
    b.add(
        "version-string", "version", 'version "2": a string, not the integer 2.', b.change(("version",), "2")
    )
    b.add("version-true", "version", "version true: not a number.", b.change(("version",), True))
    b.add("version-missing", "version", "No version member.", b.remove(("version",)))
    b.add(
        "version-before-canonical",
        "version",
        "version 1 and canonical wrong: version (step 5) comes before canonical (step 6).",
        b.change(("version",), 1),
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
        "rules-empty-mark-wrong",
        "rules",
        'empty is "-", not ".": the entries\' keys still use ".", but a reader must not take another mark.',
        b.change(("rules",), {**rules, "empty": "-"}),
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
    for name, value, why in (
        ("rules-misere-missing", None, "no misere member: it is required"),
        ("rules-misere-string", "false", 'misere is the string "false"'),
        ("rules-misere-zero", 0, "misere is 0: not a boolean (0 is not false)"),
        ("rules-misere-null", "null", "misere is null"),
    ):
        misere = {k: v for k, v in rules.items() if k != "misere"}
        if value is not None:
            misere["misere"] = None if value == "null" else value
        b.add(
            name, "rules", f"{why.capitalize()}; the rest of rules as it was.", b.change(("rules",), misere)
        )
    b.add(
        "rules-misere-before-lines",
        "rules",
        'misere is "no" and the diagonals are missing from lines: rules (step 7) comes first.',
        b.change(("rules",), {**rules, "misere": "no", "lines": rules["lines"][:6]}),
    )
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
    b.add(
        "lines-false-for-0",
        "lines",
        "The first line written [false,1,2]: false is not the number 0 (found by the differential test: "
        "Python's == takes False for 0).",
        b.tweak(("rules",), '"lines":[[0,', '"lines":[[false,'),
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
    b.add(
        "symmetry-perm-true-for-1",
        "symmetries",
        "The identity's perm written [0,true,2,...]: true is not the number 1.",
        b.tweak(("symmetries", 0), '"perm":[0,1,', '"perm":[0,true,'),
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
        find_edit('"entries":{', '"entrees":{'),
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
        "counts-entries-negative-zero",
        "counts",
        f"counts.entries written -0: an integer, read as 0, not as JSON refused or a shape wrong; entries "
        f"holds {n}.",
        b.entry_count_is_text("-0"),
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
    return [find_edit(_start(b), "[" + _start(b)), find_edit(_end(b), _end(b).replace("}", "}]"))]


def _entries_as_list(b: _Builder) -> list[Edit]:
    """'[' before the entries object, ']' after it (after its last entry and closing brace)."""
    last = b.text_of(("entries", list(b.data["entries"])[-1]))
    return [find_edit('"entries":{', '"entries":[{'), find_edit(last + "}", last + "}]")]


def _entry_cases(b: _Builder) -> None:
    n = b.entry_count
    e = b.data["entries"]
    # . . .
    # . . .      "........X": "0 4": O to move draws, only by taking the centre; the other
    # . . X      moves lose in 6 plies (derived scores -4)
    x8 = e["........X"]
    # 12: keys
    b.add(
        "key-not-canonical",
        "entry-key",
        f"An extra entry X........ (X in corner 0) holding {x8!r}, the entry of ........X, which it "
        f"mirrors, with counts.entries {n + 1}: a legal board, but its canonical form is ........X.",
        b.after(("entries", "........X"), ',"X........":' + compact(x8)),
        b.entry_count_is(n + 1),
    )
    b.add(
        "key-not-canonical-counts-unchanged",
        "counts",
        f"The same extra entry X........ with counts.entries left at {n}: counts (step 11) comes "
        "before the keys (step 12).",
        b.after(("entries", "........X"), ',"X........":' + compact(x8)),
    )
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
            f'An extra entry {key} ({why}), holding the well-formed string "9 5", with counts.entries '
            f"{n + 1}.",
            b.after(("entries", "........X"), f",{json.dumps(key)}:" + compact("9 5")),
            b.entry_count_is(n + 1),
        )
    # The finished keys above are not in canonical form, which refuses them too; these are, and
    # each holds the entry its moves make, so only the finished-key check refuses the book. No
    # entry leads to them: a line or a full board stays when the last mover's mark is taken off.
    #
    # . O O                      . . O
    # X O O   X's bottom row     X X O   O's right column     O X X
    # X X X   X to move: 0       X X O   O to move: 0 or 1    X O O   full, no line
    #                                                         X O X
    for name, key, text, why in (
        ("key-finished-x-line-canonical", ".OOXOOXXX", "9 0", "X owns the bottom row; X to move"),
        ("key-finished-o-line-canonical", "..OXXOXXO", "9 0,1", "O owns the right column; O to move"),
        ("key-full-board-canonical", "OXXXOOXOX", "0 4", "no empty cell, no line: a finished draw"),
    ):
        b.add(
            name,
            "entry-key",
            f"An extra entry {key} ({why}), in canonical form, holding {text!r} (what its moves, each "
            f"finishing the game, would make it), with counts.entries {n + 1}: a finished board.",
            b.after(("entries", "........X"), f",{json.dumps(key)}:" + compact(text)),
            b.entry_count_is(n + 1),
        )
    b.add(
        "key-before-shape",
        "entry-key",
        "The extra finished entry XXXOO.... and .......OX written with a trailing space: the keys (step "
        "12) are checked before any entry's shape (step 13), wherever they are in the file.",
        b.after(("entries", "........X"), ',"XXXOO....":' + compact("9 5")),
        b.entry_count_is(n + 1),
        b.tweak(("entries", ".......OX"), '5 2,4,5"', '5 2,4,5 "'),
    )
    b.add(
        "key-not-canonical-before-shape",
        "entry-key",
        'The extra non-canonical entry X........ and ........X written "0 4 " (a trailing space): a '
        "reader that finds non-canonical keys late (while looking up successors) must still give "
        "entry-key.",
        b.after(("entries", "........X"), ',"X........":' + compact(x8)),
        b.entry_count_is(n + 1),
        b.tweak(("entries", "........X"), '"0 4"', '"0 4 "'),
    )
    # 13: shapes
    version_1 = {"plies": 8, "scores": [-4, -4, -4, -4, 0, -4, -4, -4, None], "tiers": [[4]], "turn": "O"}
    for name, value, why in (
        ("entry-version-1-object", {**version_1, "value": 0}, "the object a version-1 book stores"),
        ("entry-null", None, "null: present (so nothing is missing) but not a string"),
        ("entry-number", 0, "the number 0"),
        ("entry-true", True, "true"),
        ("entry-array", ["0", "4"], 'the array ["0", "4"]'),
        ("entry-empty-string", "", "the empty string"),
        ("no-tier", "0", '"0": a best score and no tier'),
        ("no-best", "4", '"4": read as a best score, so no tier'),
        ("leading-space", " 0 4", '" 0 4": a space before the best score'),
        ("trailing-space", "0 4 ", '"0 4 ": a space after the last tier'),
        ("two-spaces", "0  4", '"0  4": two spaces (an empty tier)'),
        ("tab-escaped", "0\t4", "a tab (written \\t) instead of the space"),
        ("best-leading-zero", "00 4", '"00 4": a leading zero'),
        ("best-plus", "+0 4", '"+0 4": a plus sign'),
        ("best-fraction", "0.0 4", '"0.0 4": a fraction'),
        ("best-exponent", "0e0 4", '"0e0 4": an exponent'),
        ("best-over-max", "9007199254740992 4", "best score 2^53, beyond 2^53 - 1"),
        ("best-huge", "-" + "9" * 400 + " 4", "a best score of 400 digits"),
        ("best-word", "draw 4", '"draw 4": no integer'),
        ("cell-leading-zero", "0 04", '"0 04": a cell with a leading zero'),
        ("cell-off-board", "0 4 9", '"0 4 9": cell 9, on a board of cells 0 to 8'),
        ("cell-negative", "0 4 -1", '"0 4 -1": a negative cell'),
        ("cell-huge", "0 4 " + "9" * 400, "a cell of 400 digits"),
        ("cell-letter", "0 a", '"0 a": a letter for a cell'),
        ("cell-non-ascii-digit", "0 \u0664", '"0 \u0664": ARABIC-INDIC DIGIT FOUR (U+0664) for the 4'),
        ("tier-trailing-comma", "0 4,", '"0 4,": an empty cell after a comma'),
        ("tier-leading-comma", "0 ,4", '"0 ,4": an empty cell before a comma'),
        ("tier-repeated-within", "0 4,4", '"0 4,4": a cell twice in one tier (not increasing)'),
    ):
        b.add(
            name,
            "entry-shape",
            f"Entry ........X is {why}; everything else as it was.",
            b.entry("........X", value),
        )
    empty = e["........."]
    b.add(
        "tier-not-increasing",
        "entry-shape",
        f"The empty board's entry {empty!r} with its first tier written 8,6,2,0: cells within a tier "
        "are written in increasing order (the same cells in order would be valid).",
        b.entry(".........", empty.replace("0,2,6,8", "8,6,2,0")),
    )
    b.add(
        "shape-before-missing",
        "entry-shape",
        f'Entry .......OX removed (counts.entries {n - 1}) and ........X written "0 4 ": the shapes '
        "(step 13) are checked before successors (step 14).",
        b.remove(("entries", ".......OX")),
        b.entry_count_is(n - 1),
        b.entry("........X", "0 4 "),
    )
    b.add(
        "shape-before-inconsistent",
        "entry-shape",
        'The empty board claimed won ("5 4") and ........X written "0 4,": the shapes (step 13) come '
        "before consistency (step 15), wherever the entries are.",
        b.entry(".........", "5 4"),
        b.entry("........X", "0 4,"),
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
        f'Entry .......OX removed (counts.entries {n - 1}) and the empty board claimed won ("5 4"): '
        "successors (step 14) come before consistency (step 15).",
        b.remove(("entries", ".......OX")),
        b.entry_count_is(n - 1),
        b.entry(".........", "5 4"),
    )
    # 15: consistency
    b.add(
        "centre-claimed-losing",
        "entry-inconsistent",
        'Entry ........X written "0 0,1,2,3,5,6,7": the best score right (a draw), but the draws '
        "claimed at every cell but the centre; the successors say only the centre draws.",
        b.entry("........X", "0 0,1,2,3,5,6,7"),
    )
    b.add(
        "empty-board-centre-wins",
        "entry-inconsistent",
        'The empty board written "5 4": X wins in 5 by the centre; the successor ....X.... (best score '
        "0) says the centre draws.",
        b.entry(".........", "5 4"),
    )
    ox = e[".......OX"]
    b.add(
        "win-claimed-faster",
        "entry-inconsistent",
        f'Entry .......OX ({ox!r}: X wins in 5) written "7 2": a win in 3 plies. (........X, whose '
        "O-to-7 successor this is, now disagrees with it too: the code is the same.)",
        b.entry(".......OX", "7 2"),
    )
    lost = next(key for key in sorted(e) if e[key].startswith("-"))
    best, _, tiers = e[lost].partition(" ")
    b.add(
        "loss-claimed-slower",
        "entry-inconsistent",
        f"Entry {lost} ({e[lost]!r}: every move loses) written with best score {int(best) + 2}: a "
        "loss two plies later than the successors allow (a possible score, the right sign).",
        b.entry(lost, f"{int(best) + 2} {tiers}"),
    )
    b.add(
        "best-claims-win",
        "entry-inconsistent",
        'Entry ........X written "1 4": a win (in 9 plies) for a draw.',
        b.entry("........X", "1 4"),
    )
    b.add(
        "best-below-the-truth",
        "entry-inconsistent",
        'Entry ........X written "-4 4": the best score a loss, but cell 4 draws (the best must be the '
        "maximum of the move scores, not one of them).",
        b.entry("........X", "-4 4"),
    )
    b.add(
        "best-max-integer",
        "entry-inconsistent",
        f'Entry ........X written "{MAX_INTEGER} 4": an integer in range (the grammar holds), far from '
        "any score.",
        b.entry("........X", f"{MAX_INTEGER} 4"),
    )
    b.add(
        "losing-move-for-the-draw",
        "entry-inconsistent",
        'Entry ........X written "0 3": cell 3 loses; the centre is the draw.',
        b.entry("........X", "0 3"),
    )
    b.add(
        "tier-non-optimal",
        "entry-inconsistent",
        'Entry ........X written "0 4 0": a second tier [0]; cell 0 scores -4, not the best score 0.',
        b.entry("........X", "0 4 0"),
    )
    b.add(
        "tier-occupied-cell",
        "entry-inconsistent",
        'Entry ........X written "0 4 8": a second tier [8], a cell X holds (a cell number of the board, '
        "so the grammar holds).",
        b.entry("........X", "0 4 8"),
    )
    b.add(
        "tier-repeated-cell",
        "entry-inconsistent",
        'Entry ........X written "0 4 4": the set of cells is right, but a cell appears in two tiers.',
        b.entry("........X", "0 4 4"),
    )
    b.add(
        "tiers-missing-optimal",
        "entry-inconsistent",
        f"The empty board ({empty!r}) without its last tier 4: the centre also draws, so the tiers are "
        "not all the optimal moves.",
        b.entry(".........", empty.rpartition(" ")[0]),
    )
    b.add(
        "misere-claimed-by-normal-book",
        "entry-inconsistent",
        "rules.misere true on the normal book: with completing a line a loss, every entry where a move "
        "completes a line is wrong (read with the rules the file states: docs/conformance.md).",
        b.tweak(("rules",), '"misere":false', '"misere":true'),
    )


def _misere_cases(b: _Builder, misere: str) -> None:
    """A misère 3x3 book as a whole text, and edits of it (on the text of the previous edit)."""
    data = json.loads(misere)
    entries = data["entries"]
    n = len(entries)
    if not data["rules"]["misere"] or len(entries) != b.entry_count:
        raise ValueError("the misère base must be the 3x3 book under misère rules")

    def member(key: str) -> str:
        text = f"{json.dumps(key)}:{json.dumps(entries[key])}"
        apply_edits(misere, [find_edit(text, text)])  # there exactly once
        return text

    def entry(key: str, text: str) -> Edit:
        return find_edit(member(key), f"{json.dumps(key)}:{json.dumps(text)}")

    whole = {"text": misere}
    method = data["trap_order"]["method"]
    b.add(
        "misere-book",
        "valid",
        f"The 3x3 book under misère rules (completing a line loses), whole (trap_order method "
        f"{method!r}): a draw, and the centre is the only first move that does not lose "
        f"(the empty board {entries['.........']!r}).",
        whole,
    )
    b.add(
        "misere-book-read-as-normal",
        "entry-inconsistent",
        "The misère book with rules.misere false: its entries, true under misère, are wrong where a move "
        "completes a line.",
        whole,
        find_edit('"misere":true', '"misere":false'),
    )
    b.add(
        "misere-corner-claimed",
        "entry-inconsistent",
        'The misère book with the empty board written "0 0": under misère a corner loses; only the '
        "centre keeps the draw.",
        whole,
        entry(".........", "0 0"),
    )
    #  . . .
    #  . O O      X to move: cell 7 completes X's bottom row, which under misère loses at once
    #  X . X
    b.add(
        "misere-completing-move-claimed-won",
        "entry-inconsistent",
        f'The misère book with ....OOX.X ({entries["....OOX.X"]!r}) written "9 7": completing the '
        "bottom row at 7 would win at once in normal play; under misère it loses at once (score -9).",
        whole,
        entry("....OOX.X", "9 7"),
    )
    b.add(
        "misere-entry-missing",
        "missing-entry",
        f"The misère book without its entry ........X, counts.entries {n - 1}.",
        whole,
        find_edit(member("........X") + ",", ""),
        find_edit(f'"entries":{n},', f'"entries":{n - 1},'),
    )


def reindented(data: dict[str, Any]) -> str:
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
    before = fingerprint(output)
    try:
        data = write_book_vectors(book, output)
    except OSError as error:
        raise click.ClickException(f"{error.filename or output}: {error.strerror or error}") from None
    cases = data.count(b'{"name":')
    click.echo(f"{written(output, before, data)}: {len(data):,} bytes, {cases} cases")


if __name__ == "__main__":
    main()
