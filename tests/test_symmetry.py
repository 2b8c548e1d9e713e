"""The rules' derived tables: lines and symmetries are right, and canonical form is invariant."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from tictactoe_book import Rules, RulesError
from tictactoe_book.game import canonical, transform

SHAPES = [Rules(3, 3, 3), Rules(3, 4, 3), Rules(4, 4, 4), Rules(2, 3, 2), Rules(1, 4, 3)]


def test_3x3_has_the_8_familiar_lines() -> None:
    lines = {frozenset(line) for line in Rules().lines}
    assert lines == {
        frozenset(x)
        for x in [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    }


def test_line_counts_of_other_shapes() -> None:
    # 3x4, k=3: rows 3*2, columns 4*1, diagonals 2*2 each way -> 6 + 4 + 4 = 14
    assert len(Rules(3, 4, 3).lines) == 14
    # 4x4, k=4: 4 rows, 4 columns, 2 diagonals
    assert len(Rules(4, 4, 4).lines) == 10


@pytest.mark.parametrize("rules", SHAPES, ids=str)
def test_symmetries_are_permutations_forming_a_group(rules: Rules) -> None:
    perms = [s.perm for s in rules.symmetries]
    expected = 8 if rules.rows == rules.cols else 4 if min(rules.rows, rules.cols) > 1 else 2
    assert len(perms) == expected
    assert len(set(perms)) == len(perms)
    assert perms[0] == tuple(range(rules.cells))  # identity first
    for p in perms:
        assert sorted(p) == list(range(rules.cells))
    as_set = set(perms)
    for p, q in itertools.product(perms, perms):
        assert tuple(p[q[i]] for i in range(rules.cells)) in as_set  # closed under composition
    for s in rules.symmetries:
        assert tuple(s.perm[s.inverse[i]] for i in range(rules.cells)) == perms[0]


@pytest.mark.parametrize("rules", SHAPES, ids=str)
def test_symmetries_map_lines_onto_lines(rules: Rules) -> None:
    lines = {frozenset(line) for line in rules.lines}
    for s in rules.symmetries:
        assert {frozenset(s.perm[c] for c in line) for line in lines} == lines


def test_rotation_names_match_the_picture() -> None:
    # X . .      . . X
    # . . .  ->  . . .   a quarter turn clockwise moves the top-left corner to the top right
    # . . .      . . .
    by_name = {s.name: s for s in Rules().symmetries}
    assert transform("X........", by_name["rotate 90 clockwise"]) == "..X......"
    assert transform("X........", by_name["rotate 90 counter-clockwise"]) == "......X.."
    assert transform("X........", by_name["rotate 180"]) == "........X"


def test_canonical_form_is_invariant(reachable: tuple[set[str], set[str]]) -> None:
    rules = Rules()
    unfinished, finished = reachable
    for board in unfinished | finished:
        key, used = canonical(rules, board)
        assert transform(board, used) == key
        assert key == min(transform(board, s) for s in rules.symmetries)
        for s in rules.symmetries:
            assert canonical(rules, transform(board, s))[0] == key


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("3x3:4", "k=4 does not fit on a 3x3 board"),
        ("0x3", "rows must be a positive integer, got 0"),
        ("5x5:3", "board 5x5 has 25 cells; at most 20"),
        ("axb", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got 'axb'"),
        ("3x", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x'"),
        ("3", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3'"),
        ("3x3:3:3", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x3:3:3'"),
        ("3x3:misere:3", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x3:misere:3'"),
        ("3x3:normal", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x3:normal'"),
        ("3x+3", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x+3'"),
        ("3x\u0663", "rules must look like 3x3, 3x4:3 or 3x3:3:misere, got '3x\u0663'"),
    ],
)
def test_bad_rules_are_refused_with_the_value(text: str, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.parse(text)
    assert str(caught.value) == words


def test_k_defaults_to_the_shorter_side() -> None:
    assert Rules.parse("3x4") == Rules(3, 4, 3)
    assert Rules.parse("4x3") == Rules(4, 3, 3)
    assert Rules.parse("4x4") == Rules(4, 4, 4)


@pytest.mark.parametrize(
    ("rules", "spelled"),
    [(Rules(), "3x3:3"), (Rules(3, 4, 3), "3x4:3"), (Rules(4, 4, 3, misere=True), "4x4:3:misere")],
)
def test_the_rules_spelling_is_what_parse_reads(rules: Rules, spelled: str) -> None:
    assert rules.spelling == spelled and Rules.parse(spelled) == rules


def test_rules_are_immutable_values() -> None:
    rules = Rules(3, 4, 3)
    assert rules == Rules.parse("3x4:3")
    assert hash(rules) == hash(Rules(3, 4, 3))
    assert eval(repr(rules)) == rules
    assert repr(rules) == "Rules(3, 4, 3)"
    with pytest.raises(AttributeError):
        rules.k = 4  # type: ignore[misc]
    assert rules != (3, 4, 3, False)  # a value of its own, not a tuple
    # every way of making one is checked: a copy with a field replaced, and unpickling
    assert dataclasses.replace(rules, k=2) == Rules(3, 4, 2)
    with pytest.raises(RulesError, match="board 9x4 has 36 cells"):
        dataclasses.replace(rules, rows=9)
    import pickle

    tampered = pickle.dumps(rules).replace(pickle.dumps(3)[2:-1], pickle.dumps(9)[2:-1], 1)
    with pytest.raises(RulesError, match="board 9x4"):
        pickle.loads(tampered)


def test_symmetries_are_immutable_values() -> None:
    import copy
    import pickle

    rotate = Rules().symmetries[6]
    assert rotate.name == "rotate 90 clockwise" and rotate.perm == (6, 3, 0, 7, 4, 1, 8, 5, 2)
    assert rotate.inverse == (2, 5, 8, 1, 4, 7, 0, 3, 6)  # rotate 90 counter-clockwise
    for clone in (pickle.loads(pickle.dumps(rotate)), copy.copy(rotate), copy.deepcopy(rotate)):
        assert clone == rotate and hash(clone) == hash(rotate)
    with pytest.raises(AttributeError):
        rotate.perm = tuple(range(9))  # type: ignore[misc]


def test_misere_is_part_of_the_rules_value() -> None:
    misere = Rules(3, 3, 3, misere=True)
    assert misere != Rules(3, 3, 3) and hash(misere) != hash(Rules(3, 3, 3))
    assert repr(misere) == "Rules(3, 3, 3, misere=True)" and eval(repr(misere)) == misere
    assert str(misere) == "3x3 k=3 misère" and str(Rules()) == "3x3 k=3"
    for text in ("3x3:3:misere", "3x3:misere", "3X3:3:MISERE", "3x3:3:misère", " 3x3:3:misere "):
        assert Rules.parse(text) == misere, text
    assert Rules.parse("3x4:misere") == Rules(3, 4, 3, misere=True)
    assert misere.lines == Rules().lines and misere.symmetries == Rules().symmetries
    with pytest.raises(RulesError, match="misere must be True or False, got 1"):
        Rules(3, 3, 3, misere=1)  # type: ignore[arg-type]
