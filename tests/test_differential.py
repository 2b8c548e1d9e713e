"""Differential test: random mutations of the real book, judged by the Python and the JavaScript
readers, which must agree — both accept, or both refuse with the same reason code.

``make test`` runs a short budget (the default hypothesis profile), ``make fuzz`` a long one. The
mutations lean toward the damage one strict reader catches and another lets through: numbers
rewritten as ``8.0``, ``8e0``, ``true``, ``"8"`` or just out of range, duplicated members,
entry strings edited (the best score moved, cells moved between tiers, characters of the
grammar inserted or dropped), the misère flag changed, unknown members holding odd values;
plus blind byte flips, deletions, insertions and truncation. On a disagreement the failure
shows the mutations, both verdicts and the spec oracle's (tests/oracles/book_oracle.py), which says
which reader is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from judges import JsJudge, python_verdict
from oracles import book_oracle

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()

pytestmark = pytest.mark.fuzz

Draw = st.DrawFn
T = TypeVar("T")

# ---------------------------------------------------------------- where to mutate

STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
NUMBER = re.compile(rb"-?\d+")
ENTRY = re.compile(rb'"[XO.]{9}":"[^"\\]*"')
MEMBER = re.compile(
    rb'"(?:version|format|canonical|rows|cols|k|cells)":(?:"[^"]*"|-?\d+)|"misere":(?:true|false)'
    rb'|"perm":\[[^\[\]]*\]|"[XO.]{9}":"[^"\\]*"'
)
BOUNDARY = re.compile(rb"[\[{,:]|(?=[\]}])")


def numbers(text: bytes) -> list[tuple[int, int]]:
    """Spans of the integers outside strings."""
    spans, at = [], 0
    for string in STRING.finditer(text):
        spans += [(m.start() + at, m.end() + at) for m in NUMBER.finditer(text[at : string.start()])]
        at = string.end()
    spans += [(m.start() + at, m.end() + at) for m in NUMBER.finditer(text[at:])]
    return spans


def pick(draw: Draw, items: list[T]) -> T:
    return items[draw(st.integers(0, len(items) - 1))]


# ---------------------------------------------------------------- the mutations


def rewrite_number(draw: Draw, text: bytes) -> tuple[bytes, str]:
    spans = numbers(text)
    if not spans:
        return text, "no number to rewrite"
    start, end = pick(draw, spans)
    n = int(text[start:end])
    # half the time a form strict JSON refuses (where a lax reader reads the same number), half
    # the time a well-formed value that a later step must catch
    strict = [f"{n}.0", f"{n}e0", f"{n}E+0", f"0{abs(n)}", f"{n}.5", "9007199254740992", "1" + "0" * 400]
    lax = ["true", f'"{n}"', "null", "false", str(n + 1), str(n - 1), str(-n), "-0", "9007199254740991"]
    forms = lax if draw(st.booleans()) else strict
    new = draw(st.sampled_from(forms))
    return text[:start] + new.encode() + text[end:], f"number {text[start:end].decode()} at {start} -> {new}"


def duplicate_member(draw: Draw, text: bytes) -> tuple[bytes, str]:
    members = [m.span() for m in MEMBER.finditer(text)]
    if not members:
        return text, "no member to duplicate"
    start, end = pick(draw, members)
    member = text[start:end]
    other = draw(st.sampled_from([member, *_variants(member)]))
    return text[:start] + other + b"," + text[
        start:
    ], f"member {member[:40]!r} at {start} preceded by {other[:40]!r}"


def _variants(member: bytes) -> list[bytes]:
    """The same member with another value: duplicates must be refused whatever the values."""
    name = member.partition(b":")[0]
    return [name + b":0", name + b':"X"', name + b":[]"]


def edit_entry(draw: Draw, text: bytes) -> tuple[bytes, str]:
    """An entry string changed as a careless writer might: the best score moved, a cell moved to
    another tier or added or dropped, tiers merged or reversed, the grammar's characters."""
    entries = [m.span() for m in ENTRY.finditer(text)]
    if not entries:
        return text, "no entry to change"
    start, end = pick(draw, entries)
    key, _, quoted = text[start:end].partition(b":")
    best, _, rest = quoted[1:-1].decode().partition(" ")
    tiers = [tier.split(",") for tier in rest.split(" ")]
    how = draw(
        st.sampled_from(["best", "move-cell", "add-cell", "drop-cell", "merge", "reverse", "character"])
    )
    cell = str(draw(st.integers(-1, 10)))
    if how == "best":
        best = draw(st.sampled_from([str(_int(best) + draw(st.sampled_from([-2, -1, 1, 2]))), "-0", "00"]))
    elif how == "move-cell" and len(tiers) > 1 and len(tiers[0]) > 1:
        tiers[-1].append(tiers[0].pop())
    elif how == "add-cell":
        draw(st.sampled_from(tiers)).append(cell)
    elif how == "drop-cell":
        tiers[-1].pop()
    elif how == "merge":
        tiers = [sorted((c for tier in tiers for c in tier), key=_int)]
    elif how == "reverse":
        tiers = [tier[::-1] for tier in tiers[::-1]]
    new = best + "".join(" " + ",".join(tier) for tier in tiers)
    if how == "character":
        at = draw(st.integers(0, len(new)))
        piece = draw(st.sampled_from([" ", ",", "-", "0", "9", "", "\\t", "\\u0034", "\\u00a0", "+"]))
        new = new[:at] + piece + new[at + draw(st.integers(0, 1)) :]
    return text[:start] + key + b':"' + new.encode() + b'"' + text[
        end:
    ], f"entry {key.decode()}: {how} -> {new!r}"


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def flip_misere(draw: Draw, text: bytes) -> tuple[bytes, str]:
    value = draw(st.sampled_from([b"true", b"false", b"0", b"1", b'"false"', b"null"]))
    found = re.search(rb'"misere":(?:true|false)', text)
    if found is None:
        return text, "no misere member"
    return text[: found.start()] + b'"misere":' + value + text[found.end() :], f"misere -> {value.decode()}"


def drop_entry(draw: Draw, text: bytes) -> tuple[bytes, str]:
    entries = [m.span() for m in ENTRY.finditer(text)]
    if not entries:
        return text, "no entry to drop"
    start, end = pick(draw, entries)
    end += text[end : end + 1] == b","
    text, note = text[:start] + text[end:], f"entry at {start} dropped"
    if draw(st.booleans()):
        count = re.search(rb'"entries":(\d+)', text)
        if count:
            fixed = str(int(count.group(1)) - 1).encode()
            text = text[: count.start(1)] + fixed + text[count.end(1) :]
            note += ", counts.entries adjusted"
    return text, note


TOKENS = [
    b"1.0",
    b"true",
    b'"\\ud800"',
    b"[",
    b"}",
    b",",
    b"null",
    b'"\\ud83d\\ude00"',
    b'"x":1,',
    b"\xef\xbb\xbf",
    b"{",
    b"]",
    b'"',
    b":",
    b"-",
    b"\t",
    b"\f",
]


def insert_token(draw: Draw, text: bytes) -> tuple[bytes, str]:
    token = draw(st.sampled_from(TOKENS))
    if draw(st.booleans()):
        at = pick(draw, [m.end() for m in BOUNDARY.finditer(text)] or [0])
    else:
        at = draw(st.integers(0, len(text)))
    return text[:at] + token + text[at:], f"{token!r} inserted at {at}"


UNKNOWN_VALUES = [
    b"1.0",
    b"9007199254740992",
    b'"\\udc00"',
    b'"\\ud83d\\ude00"',
    b"-0",
    b"1e5",
    b"[" * 29 + b"]" * 29,
    b"[" * 30 + b"]" * 30,
    b"[" * 31 + b"]" * 31,
    b"[" * 32 + b"]" * 32,
    b'"\\ud800"',
    b'{"a":[1,{"b":null}]}',
    b"{}",
    b"true",
    b'{"turn":"X","turn":"O"}',
]


def unknown_member(draw: Draw, text: bytes) -> tuple[bytes, str]:
    value = draw(st.sampled_from(UNKNOWN_VALUES))
    opens = [m.end() for m in re.finditer(rb"\{(?=\")", text)]
    if not opens:
        return text, "no object for an unknown member"
    at = pick(draw, opens)
    return text[:at] + b'"zz":' + value + b"," + text[at:], f"unknown member {value[:40]!r} at {at}"


def flip_byte(draw: Draw, text: bytes) -> tuple[bytes, str]:
    if not text:
        return text, "no byte to flip"
    at = draw(st.integers(0, len(text) - 1))
    value = draw(st.integers(0, 255))
    return text[:at] + bytes([value]) + text[at + 1 :], f"byte {at} set to {value:#04x}"


def delete_bytes(draw: Draw, text: bytes) -> tuple[bytes, str]:
    if not text:
        return text, "no byte to delete"
    at = draw(st.integers(0, len(text) - 1))
    length = draw(st.integers(1, 16))
    return text[:at] + text[at + length :], f"{length} bytes deleted at {at}"


def truncate(draw: Draw, text: bytes) -> tuple[bytes, str]:
    at = draw(st.integers(0, len(text)))
    return text[:at], f"truncated to {at} bytes"


# The list order matters: hypothesis starts from (and shrinks toward) the first items, so the
# classes of damage most likely to split the readers come first and more than once.
MUTATIONS = [
    edit_entry,
    rewrite_number,
    duplicate_member,
    unknown_member,
    edit_entry,
    flip_misere,
    rewrite_number,
    drop_entry,
    edit_entry,
    insert_token,
    duplicate_member,
    flip_byte,
    delete_bytes,
    truncate,
]


class Mutated:
    """A mutated book; its repr (what hypothesis prints for a failing example) is the mutations."""

    def __init__(self, raw: bytes, notes: list[str]) -> None:
        self.raw, self.notes = raw, notes

    def __repr__(self) -> str:
        return "Mutated(" + "; ".join(self.notes) + ")"


@st.composite
def mutated_books(draw: Draw) -> Mutated:
    text, notes = RAW, []
    for _ in range(draw(st.integers(1, 2))):
        mutation = draw(st.sampled_from(MUTATIONS))
        text, note = mutation(draw, text)
        notes.append(f"{mutation.__name__}: {note}")
    return Mutated(text, notes)


@pytest.fixture(scope="module")
def book_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("differential") / "mutated.json"


@given(mutated_books())
def test_python_and_js_readers_agree(js_judge: JsJudge, book_file: Path, mutated: Mutated) -> None:
    raw, notes = mutated.raw, mutated.notes
    book_file.write_bytes(raw)
    python, js = python_verdict(raw), js_judge(book_file)
    if python != js or python.startswith("crash"):
        oracle = book_oracle.judge(raw, None)
        pytest.fail(
            f"Python says {python}, JavaScript says {js}, the spec oracle says {oracle}\n"
            + "\n".join(f"  {note}" for note in notes)
        )
