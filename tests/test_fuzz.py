"""Fuzzing with hypothesis: damaged books, keystroke streams, board arguments.

``make test`` runs these at a modest budget; ``make fuzz`` (HYPOTHESIS_PROFILE=fuzz) runs them
with many more examples. See docs/reliability.md.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tictactoe_book import Book, BookError, Rng, load_book, parse_book
from tictactoe_book.apps.lines import run_session
from tictactoe_book.play import MAX_SEED
from tictactoe_book.reader import parse_json
from tictactoe_generator.cli import main as book_cli

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
ORIGINAL = json.loads(RAW)
BOOK = load_book(ROOT / "book" / "tictactoe.json")
KEYS = sorted(ORIGINAL["entries"])

pytestmark = pytest.mark.fuzz

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.text(max_size=12)
    | st.floats(allow_nan=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def assert_loads_equivalently_or_refuses(raw: bytes) -> Book | None:
    """Loading gives a book that answers exactly as the real one, or the loader's own one-line
    error with a reason code. (Without a checksum, damage to the informational members such as
    ``counts.games`` loads: nothing a reader answers depends on them; verify reports them.)"""
    try:
        book = parse_book(raw, "<fuzz>")
    except BookError as error:
        assert str(error).startswith("<fuzz>: ")
        assert str(error).endswith(f"[{error.code}]")
        assert "\n" not in str(error)
        return None
    # A book that proves is the truth: the same entries, the same scores; only the order of the
    # tiers (trap order) is not decided by validity.
    assert sorted(book.canonical_keys()) == sorted(BOOK.canonical_keys())
    for key in book.canonical_keys():
        got, real = book.entry(key), BOOK.entry(key)
        assert got is not None and real is not None
        assert (got.turn, got.value, got.plies, got.scores) == (
            real.turn,
            real.value,
            real.plies,
            real.scores,
        )
        assert sorted(c for t in got.tiers for c in t) == sorted(c for t in real.tiers for c in t)
    return book


@given(st.lists(st.tuples(st.integers(0, len(RAW) - 1), st.integers(0, 255)), min_size=1, max_size=4))
def test_byte_flips(flips: list[tuple[int, int]]) -> None:
    raw = bytearray(RAW)
    for position, value in flips:
        raw[position] = value
    assert_loads_equivalently_or_refuses(bytes(raw))


@given(st.integers(0, len(RAW)))
def test_truncation(length: int) -> None:
    assert_loads_equivalently_or_refuses(RAW[:length])


@given(st.binary(max_size=300))
def test_arbitrary_bytes(raw: bytes) -> None:
    assert_loads_equivalently_or_refuses(raw)


@given(st.sampled_from(["[", '{"a":']), st.integers(1, 200_000))
def test_deep_nesting(opener: str, depth: int) -> None:
    assert_loads_equivalently_or_refuses((opener * depth).encode())


def mutate(data: dict[str, Any], rng: random.Random, value: Any) -> str:
    """One structural change to the parsed book; returns what was done."""
    entries = data["entries"]
    key = rng.choice(KEYS)
    kind = rng.choice(
        ["drop", "alter-field", "duplicate", "wrong-type", "huge", "rules", "top-level", "best", "tier-cell"]
    )
    best, _, tiers = entries[key].partition(" ")
    if kind == "drop":
        del entries[key]
    elif kind == "alter-field":  # the best score or the tiers, as another value's JSON text
        text = json.dumps(value, separators=(",", ":"))
        entries[key] = rng.choice([f"{text} {tiers}", f"{best} {text}", f"{best} {tiers} {text}"])
    elif kind == "duplicate":
        entries[rng.choice(KEYS)] = entries[key]
    elif kind == "wrong-type":
        entries[key] = value
    elif kind == "huge":
        entries[key] = f"{10**400} {tiers}"
    elif kind == "rules":
        data["rules"][rng.choice(["rows", "cols", "k", "cells", "lines", "misere"])] = value
    elif kind == "top-level":
        data[rng.choice(["format", "version", "symmetries", "canonical", "counts", "entries"])] = value
    elif kind == "best":
        entries[key] = f"{int(best) + rng.choice([-2, -1, 1, 2])} {tiers}"
    else:
        entries[key] = f"{best} {rng.randrange(-2, 12)}"
    return kind


@given(st.randoms(use_true_random=False), json_values)
def test_structural_damage_is_refused_or_changes_nothing_that_matters(rng: random.Random, value: Any) -> None:
    data = json.loads(RAW)
    mutate(data, rng, value)
    try:
        raw = json.dumps(data).encode()
    except (TypeError, ValueError):
        return
    assert_loads_equivalently_or_refuses(raw)


@given(st.text(max_size=200))
def test_strict_json_accepts_only_what_json_accepts_with_the_same_value(text: str) -> None:
    try:
        strict = parse_json(text.encode("utf-8", "surrogatepass"), "<fuzz>")
    except BookError as error:
        assert error.code in ("json", "limits")
        return
    assert json.dumps(strict, sort_keys=True) == json.dumps(json.loads(text), sort_keys=True)


LINES = st.one_of(
    st.integers(-3, 14).map(str),
    st.sampled_from(["h", "u", "?", "q", "", " ", "y", "s", "n", "hint", "undo", "5 5", "٣", "\t", "1.0"]),
    st.text(max_size=8),
    st.text(min_size=101, max_size=300),
)


@given(
    st.lists(LINES, max_size=60),
    st.sampled_from(["X", "O"]),
    st.sampled_from(["X", "O"]),
    st.sampled_from(["perfect", "hard", "medium", "easy"]),
    st.integers(0, MAX_SEED),
)
def test_keystroke_streams_never_crash_and_keep_the_game_legal(
    lines: list[str], human: str, first: str, level: str, seed: int
) -> None:
    stream = iter(lines)
    output: list[str] = []
    tally = run_session(
        load_book(ROOT / "book" / "tictactoe.json"),  # a book for each example: it remembers answers
        human=human,
        first=first,
        level=level,
        rng=Rng(seed),
        read_line=lambda prompt: next(stream, None),
        write=output.append,
    )
    text = "\n".join(output)
    assert "Goodbye." in text
    if level == "perfect":
        assert tally.wins == 0  # the perfect level never loses


@given(st.text(max_size=40))
def test_query_board_argument(board: str) -> None:
    result = CliRunner().invoke(book_cli, ["query", "--", board])
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        assert result.output.strip().splitlines()[-1].startswith("Error: ")


def test_found_by_fuzzing_an_entry_stored_as_null_is_damage_not_absence() -> None:
    data = json.loads(RAW)
    data["entries"]["........X"] = None
    with pytest.raises(BookError, match=r"entry '\.\.\.\.\.\.\.\.X': is null, not a string") as caught:
        parse_book(json.dumps(data).encode(), "<fuzz>")
    assert caught.value.code == "entry-shape"


@given(st.lists(LINES, max_size=40), st.sampled_from(["X", "O"]), st.integers(0, MAX_SEED))
def test_keystrokes_through_the_command_line(lines: list[str], mark: str, seed: int) -> None:
    from tictactoe_book.apps.cli import main as play_cli

    stdin = "".join(line + "\n" for line in lines)
    result = CliRunner().invoke(play_cli, ["--interactive", "--mark", mark, "--seed", str(seed)], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "you win" not in result.output  # perfect by default: never loses
