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

from generator.cli import main as book_cli
from player.book import Book, load_book, parse_book
from player.checksum import content_checksum
from player.errors import BookError
from player.fastjson import loads
from player.session import run_session

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


def assert_loads_equivalently_or_refuses(raw: bytes, *, same_content: bool = True) -> Book | None:
    """Loading gives the real book's content or the loader's own error — nothing else."""
    try:
        book = parse_book(raw, "<fuzz>")
    except BookError as error:
        assert str(error).startswith("<fuzz>: ")
        assert "\n" not in str(error)
        return None
    if same_content:
        assert book.data == ORIGINAL
    for key in book.canonical_keys():  # every entry it kept answers legally
        entry = book.entry(key)
        assert entry is not None
        for tier in entry.tiers:
            for cell in tier:
                assert key[cell] == "."
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
        ["drop", "alter-field", "duplicate", "wrong-type", "huge", "rules", "top-level", "tier-cell"]
    )
    if kind == "drop":
        del entries[key]
    elif kind == "alter-field":
        entries[key][rng.choice(["turn", "value", "plies", "scores", "tiers"])] = value
    elif kind == "duplicate":
        entries[rng.choice(KEYS)] = entries[key]
    elif kind == "wrong-type":
        entries[key] = value
    elif kind == "huge":
        entries[key]["scores"][rng.randrange(len(entries[key]["scores"]))] = 10**400
    elif kind == "rules":
        data["rules"][rng.choice(["rows", "cols", "k", "cells", "lines"])] = value
    elif kind == "top-level":
        data[rng.choice(["format", "version", "symmetries", "canonical", "counts", "entries"])] = value
    else:
        entries[key]["tiers"] = [[rng.randrange(-2, 12)]]
    return kind


@given(st.randoms(use_true_random=False), json_values, st.booleans())
def test_structural_damage_even_with_a_recomputed_checksum(rng: random.Random, value: Any, fix: bool) -> None:
    data = json.loads(RAW)
    mutate(data, rng, value)
    if fix:  # a hand edit that also recomputed the checksum: the content checks must catch it
        try:
            data["checksum"] = content_checksum(data)
        except (TypeError, ValueError):
            return  # not serializable as JSON at all: nothing to write
    try:
        raw = json.dumps(data).encode()
    except (TypeError, ValueError):
        return
    book = assert_loads_equivalently_or_refuses(raw, same_content=False)
    if book is not None:
        # anything the loader accepted must answer exactly like the real book
        for key in book.canonical_keys():
            assert book.entry(key) == BOOK.entry(key)


@given(st.text(max_size=200))
def test_fast_json_agrees_with_json(text: str) -> None:
    try:
        expected: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        with pytest.raises(type(error)):
            loads(text)
        return
    got = loads(text)
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)


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
    st.integers(0, 2**32),
)
def test_keystroke_streams_never_crash_and_keep_the_game_legal(
    lines: list[str], human: str, first: str, level: str, seed: int
) -> None:
    stream = iter(lines)
    output: list[str] = []
    tally = run_session(
        BOOK,
        human=human,
        first=first,
        level=level,
        rng=random.Random(seed),
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
    data["checksum"] = content_checksum(data)
    with pytest.raises(BookError, match=r"entry '\.\.\.\.\.\.\.\.X' is not an object"):
        parse_book(json.dumps(data).encode(), "<fuzz>")
    lazy = parse_book(json.dumps(data).encode(), "<fuzz>", lazy=True)
    with pytest.raises(BookError):
        lazy.evaluate("X........")


@given(st.lists(LINES, max_size=40), st.sampled_from(["X", "O"]), st.integers(0, 2**32))
def test_keystrokes_through_the_command_line(lines: list[str], mark: str, seed: int) -> None:
    from player.cli import main as play_cli

    stdin = "".join(line + "\n" for line in lines)
    result = CliRunner().invoke(play_cli, ["--interactive", "--mark", mark, "--seed", str(seed)], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "you win" not in result.output  # perfect by default: never loses
