"""Conformance vectors: boards as games hold them, with the answers a correct reader gives, and
the seeded choice: the generator's numbers from a few seeds, and whole games from seeds.

The boards come straight from the solve (every real position's own scores and trap tiers), not
from looking the book up, so a reader that maps canonical moves back wrongly fails them. The
games come from the Python player (``tictactoe_book.play``: ``Rng`` and ``choose_move``), which
every other language's levels must match move for move (docs/porting.md, "5. Levels").
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

import orjson

from tictactoe_book.codes import board_codes
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    VALUE_WORDS,
    Cell,
    Position,
    Rules,
    Symmetry,
    canonical,
    decode_score,
    other,
    side_to_move,
    swap_marks,
    transform,
)
from tictactoe_book.play import LEVELS, MAX_SEED, Rng, candidates, choose_move
from tictactoe_book.reader import FORMAT_VERSION, Book, parse_book

if TYPE_CHECKING:
    from tictactoe_generator.trap import TrapArrays

VECTORS_FORMAT = "tictactoe-book-vectors"
RANDOM_ORIENTATIONS = 400
#: Vectors list every reachable board up to this many cells (3x4: 111,973 boards); beyond, a
#: seeded sample of SAMPLE positions, each in a random orientation.
VECTORS_MAX_CELLS = 12
SAMPLE = 5000
SEED = 20261122
#: The seeds of the generator's vectors, and how many numbers each gives.
GENERATOR_SEEDS = (0, 1, 2024, 394144346, MAX_SEED)
GENERATOR_NUMBERS = 5
#: The seeds of the seeded games: 1 to GAME_SEEDS, and REDRAW_SEEDS, whose first number is among
#: the top four of 2^32 (found by trying every seed): a choice among every cell of an empty 3x3
#: or 3x4 board (2^32 mod 9 and mod 12 are 4) draws again, one among 16 does not.
GAME_SEEDS = 12
REDRAW_SEEDS = (394144346, 1433749601, 1749556311)

#: A board as a game holds it, from the solve: each legal move's score, and the top trap tier.
Solved = tuple[dict[Cell, int], tuple[Cell, ...]]


def build_vectors(
    traps: TrapArrays, book_bytes: bytes, *, max_cells: int = VECTORS_MAX_CELLS, book: Book | None = None
) -> dict[str, Any]:
    """Every unfinished position as an X-first game (for a board of more than ``max_cells``
    cells, a seeded sample of SAMPLE of them, each in a random orientation, and ``"every_board":
    false``), plus seeded random orientations of random positions, half of them from O-first
    games, plus invalid boards with the error to report. ``book`` is ``book_bytes`` proven, if
    the caller has it (else they are proven here)."""
    rules = traps.result.rules
    every = rules.cells <= max_cells
    found = every_position(traps) if every else sample_positions(traps, SAMPLE)
    boards = sorted(found)
    if book is None:
        book = parse_book(book_bytes, "<built book>", rules=rules)
    valid = [_vector(rules, _image(traps, *found[board])[1], book, board, FIRST) for board in boards]
    rng = random.Random(SEED)
    for _ in range(RANDOM_ORIENTATIONS):
        board, turned = rng.choice(boards), rng.choice(rules.symmetries)
        row, symmetry = found[board]
        # transform(transform(key, s), t)[i] = key[s.perm[t.perm[i]]]
        both = next(s for s in rules.symmetries if s.perm == tuple(symmetry.perm[c] for c in turned.perm))
        image, solved = _image(traps, row, both)
        valid.append(_vector(rules, solved, book, image, rng.choice((FIRST, SECOND))))
    return {
        "format": VECTORS_FORMAT,
        "version": FORMAT_VERSION,
        "book_sha256": hashlib.sha256(book_bytes).hexdigest(),
        "rules": rules.as_json(),
        "against": book.against,
        "every_board": every,
        "valid": valid,
        "invalid": _invalid(rules),
        "generator": seeded_numbers(),
        "games": seeded_games(book),
    }


def seeded_numbers() -> list[dict[str, Any]]:
    """The generator's first numbers from each of GENERATOR_SEEDS (``Rng.next_u32``)."""
    found = []
    for seed in GENERATOR_SEEDS:
        rng = Rng(seed)
        found.append({"seed": seed, "numbers": [rng.next_u32() for _ in range(GENERATOR_NUMBERS)]})
    return found


def seeded_games(book: Book) -> list[dict[str, Any]]:
    """A game from the empty board for each level, each first mark and each seed (1 to
    GAME_SEEDS, then REDRAW_SEEDS), both sides at that level drawing from one ``Rng(seed)``: its
    cells in order, and the generator's state at the end (a draw too many or too few shows there
    even when the cells agree)."""
    games = []
    for level in LEVELS:
        for first in (FIRST, SECOND):
            for seed in (*range(1, GAME_SEEDS + 1), *REDRAW_SEEDS):
                rng, position, moves = Rng(seed), Position.empty(book.rules, first), []
                while not position.is_over:
                    moves.append(choose_move(book, position, level, rng=rng))
                    position = position.play(moves[-1])
                games.append(
                    {"seed": seed, "level": level, "first": first, "moves": moves, "state": rng.state}
                )
    return games


def every_board(traps: TrapArrays) -> dict[str, Solved]:
    """Every reachable unfinished board, each in its own orientation, with its moves and top tier."""
    return dict(_image(traps, row, symmetry) for row, symmetry in every_position(traps).values())


def every_position(traps: TrapArrays) -> dict[str, tuple[int, Symmetry]]:
    """Every reachable unfinished board: the row of its canonical position, and the symmetry
    that turns the position's key into it."""
    rules = traps.result.rules
    board_of = board_codes(rules).board
    found: dict[str, tuple[int, Symmetry]] = {}
    rows = traps.result.unfinished()
    for row, code in zip(rows.tolist(), traps.result.codes[rows].tolist(), strict=True):
        key = board_of(code)
        for symmetry in rules.symmetries:
            found.setdefault(transform(key, symmetry), (row, symmetry))
    return found


def sample_positions(traps: TrapArrays, count: int) -> dict[str, tuple[int, Symmetry]]:
    """``count`` unfinished positions drawn with a fixed seed, the empty board among them, each
    in a random orientation (as ``every_position``)."""
    rng = random.Random(SEED)
    rules = traps.result.rules
    rows = traps.result.unfinished().tolist()
    chosen = [rows[0], *rng.sample(rows[1:], min(count, len(rows)) - 1)]  # row 0: the empty board
    board_of = board_codes(rules).board
    found: dict[str, tuple[int, Symmetry]] = {}
    for row in chosen:
        symmetry = rng.choice(rules.symmetries)
        found.setdefault(transform(board_of(int(traps.result.codes[row])), symmetry), (row, symmetry))
    return found


def _image(traps: TrapArrays, row: int, symmetry: Symmetry) -> tuple[str, Solved]:
    """Row ``row``'s position under ``symmetry``, with its moves and top tier: the solve keeps
    one row per canonical position, and its image ``board[i] = key[perm[i]]`` has at cell ``i``
    the canonical cell ``perm[i]``'s move, whose tier holds the cells ``inverse[c]``."""
    result = traps.result
    key = board_codes(result.rules).board(int(result.codes[row]))
    scores, top = result.scores[row].tolist(), traps.tiers(row)[0]
    board = transform(key, symmetry)
    moves = {cell: scores[source] for cell, source in enumerate(symmetry.perm) if board[cell] == EMPTY}
    return board, (moves, tuple(sorted(symmetry.inverse[cell] for cell in top)))


def _vector(rules: Rules, solved: Solved, book: Book, board: str, first: str) -> dict[str, Any]:
    """One board as a game holds it, with the answers. ``levels`` (each weaker level's choices)
    comes from ``tictactoe_book.play``: it tests other ports against the Python player."""
    scores, top = solved
    best = max(scores.values())
    value, plies = decode_score(best, board.count(EMPTY), rules.cells)
    key, symmetry = canonical(rules, board)
    evaluation = book.evaluate(board)
    levels = {level: list(candidates(evaluation, level)) for level in LEVELS if level != "perfect"}
    held = board if first == FIRST else swap_marks(board)
    turn = side_to_move(board)
    return {
        "board": held,
        "first": first,
        "turn": turn if first == FIRST else other(turn),
        "key": key,
        "symmetry": rules.symmetries.index(symmetry),
        "value": VALUE_WORDS[value],
        "plies": plies,
        "optimal": sorted(c for c, s in scores.items() if s == best),
        "top": list(top),
        "levels": levels,
        "scores": [scores.get(c) for c in range(rules.cells)],
        "tags": _tags(rules, board, scores, best),
    }


def _tags(rules: Rules, board: str, scores: dict[int, int], best: int) -> list[str]:
    """What kind of test this board is, for people reading a failure (docs/conformance.md):

    * ``empty``: the empty board;
    * ``can-win``: some move wins at once (scores ``cells``);
    * ``must-block``: no move wins at once, and some move loses at once, i.e. scores
      ``-(cells - 1)``: the opponent would win on the very next ply unless it is blocked. (Not
      "the opponent has two in a row": a two-in-a-row whose third cell is taken is no threat.)
    * ``can-lose`` (misère, instead of the two above): some move completes a line of one's own
      and so loses at once (scores ``-cells``);
    * ``lost``: every move loses (the best score is negative).
    """
    tags = []
    if board.count(EMPTY) == rules.cells:
        tags.append("empty")
    if rules.misere:
        if any(s == -rules.cells for s in scores.values()):
            tags.append("can-lose")
    elif best == rules.cells:
        tags.append("can-win")
    elif any(s == -(rules.cells - 1) for s in scores.values()):
        tags.append("must-block")
    if best < 0:
        tags.append("lost")
    return tags


def _invalid(rules: Rules) -> list[dict[str, str]]:
    """Boards a reader must refuse, with the reason code (docs/porting.md, "Errors"): on a 3x3
    board (normal or misère) a list written by hand, on others those of every size."""
    if (rules.rows, rules.cols, rules.k) != (3, 3, 3):
        return [{"board": b, "first": f, "error": e} for b, f, e in _invalid_any_size(rules.cells)]
    cases = [
        ("", FIRST, "length"),
        ("X.O", FIRST, "length"),
        ("X.O.......", FIRST, "length"),
        ("X.O.Z....", FIRST, "character"),
        ("x........", FIRST, "character"),
        ("X.O. ....", FIRST, "character"),
        # cells are code points: one outside the BMP is one cell (two UTF-16 units), and a
        # combining mark is a cell of its own
        ("X.O.....\U0001f600", FIRST, "character"),
        ("X.O....\U0001f600", FIRST, "length"),
        ("X.O.....\u00e9", FIRST, "character"),
        ("X.O.....e\u0301", FIRST, "length"),
        ("X.O....e\u0301", FIRST, "character"),
        ("\uff38........", FIRST, "character"),
        ("XX.......", FIRST, "counts"),
        ("O........", FIRST, "counts"),
        ("X........", SECOND, "counts"),
        ("XXXXO....", FIRST, "counts"),
        ("XXXOO....", FIRST, "over"),
        ("XOXXOOOXX", FIRST, "over"),
        ("OOOXX.X..", FIRST, "over"),
        ("XXX.OO.O.", FIRST, "unreachable"),
        ("XXXOOO...", FIRST, "unreachable"),
        ("OOOXX.XX.", FIRST, "unreachable"),
        ("OOOXX....", SECOND, "over"),
    ]
    return [{"board": b, "first": f, "error": e} for b, f, e in cases]


def _invalid_any_size(cells: int) -> list[tuple[str, str, str]]:
    """Boards of every size a reader must refuse: too short or long, a character that is not a
    mark, and marks in counts no game reaches. Each of ``cells`` characters but those refused
    for their length (on 1x1, "XX" is too long before its counts are looked at: no vector)."""
    empty = EMPTY * cells
    cases = [
        ("", FIRST, "length"),
        (empty[1:], FIRST, "length"),
        (empty + EMPTY, FIRST, "length"),
        ("Z" + empty[1:], FIRST, "character"),
        ("\U0001f600" + empty[1:], FIRST, "character"),
        ("XX" + empty[2:], FIRST, "counts"),
        ("O" + empty[1:], FIRST, "counts"),
        ("X" + empty[1:], SECOND, "counts"),
    ]
    kept = [case for case in cases if case[2] == "length" or len(case[0]) == cells]
    return list(dict.fromkeys(kept))  # on 1x1 the empty string is also the board one cell short


def encode_vectors(vectors: dict[str, Any]) -> bytes:
    """Deterministic bytes: sorted keys, each vector on a line of its own (readable diffs)."""
    parts = []
    for key in sorted(vectors):
        value = vectors[key]
        if isinstance(value, list):
            items = b",\n".join(orjson.dumps(item, option=orjson.OPT_SORT_KEYS) for item in value)
            parts.append(orjson.dumps(key) + b":[\n" + items + b"\n]")
        else:
            parts.append(orjson.dumps(key) + b":" + orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
    return b"{\n" + b",\n".join(parts) + b"\n}\n"
