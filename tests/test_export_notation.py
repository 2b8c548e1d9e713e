"""The text for people and the game with its history in the C and Rust exports (issue 40, item 4):
``ttt_grid``, ``ttt_parse_move`` and ``struct ttt_game`` in C; ``Position::grid``,
``Position::parse_move`` and ``Game`` in Rust. ``make test-exports`` runs this file.

The reference is Python's: ``tictactoe_book.notation.grid`` and ``parse_move``,
``tictactoe_book.history.Game``. tests/exports/notation_driver.c and notation_driver.rs answer the
same lines, compared with what Python says:

* the grid of every reachable 3x3 board (normal and misère), of boards along seeded games of 3x4
  (12 cells: numbers two digits wide) and 4x4 with k=2 (16 cells), and the boards no game reaches
  refused with Python's code; ``TTT_GRID_SIZE`` is the grid's length and its NUL;
* every number from 0 to N + 1 on each of those boards, and on a share of them texts that are
  numbers and texts that are not (signs, points, inner spaces, digits of other scripts, vertical
  tabs, 16 and 17 digits, seeded random strings): the same cell, or the same refusal
  (``not-a-number``, ``illegal-move`` off the board or taken, ``over``);
* seeded scripts of plays (off the board and taken cells among them) and undos from reachable
  boards: the same results, board, start and moves as Python's ``Game``;
* in C, a buffer too small (``TTT_ERR_SIZE``, ``out[0]`` emptied), under ASan and UBSan, and the
  driver compiled as C89 and C++; every header (a strategy's, a strategy's before the book's)
  declares the new names.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from c_build import DRIVERS, STRICT_C, ask, compile_c, implementing_file, tool
from test_export_game import reachable
from test_exports import SANITIZED, compile_rust, write

from tictactoe_book import BoardError, IllegalMoveError, Position, Rules, load_book
from tictactoe_book.history import Game
from tictactoe_book.notation import grid, parse_move
from tictactoe_book.reader import Book
from tictactoe_generator.export.c import c_book, c_strategy, grid_size
from tictactoe_generator.export.rust import rust_book
from tictactoe_generator.export.tables import full_table, strategy_table

pytestmark = pytest.mark.exports

ROOT = Path(__file__).resolve().parent.parent

#: Texts a player may type, beside the numbers 0 to N + 1 every board is asked: around a number,
#: spaces, tabs, CRs and LFs only; a number is 1 to 16 ASCII digits, nothing else.
TEXTS = [
    *["", " ", "\t", "\r\n", " \t\r\n "],
    *["0", "00", "1", "01", " 1", "1 ", "\t5\r\n", "\n\n7\t\t", "0000000000000001", "9999999999999999"],
    *[" 1 2 ", "1\t2", "+1", "-1", "1.", "1.0", "1e0", "0x1", "x", "X", "one", "5!", "#5"],
    *["\u0661", "\uff15", "\u00b2", "\u00a05", "\u20035", "\x0b1", "1\x0c", "é"],
    *["00000000000000001", "99999999999999999", "18446744073709551617", "9" * 40],
]

#: Python's IllegalMoveError messages for a text (tictactoe_book.notation), after the text
#: itself, and the code the exports give for each (ttt_error_name, MoveError::code).
PARSE_ERRORS = [
    (re.compile(r" is not a cell number: use 1 to \d+"), "not-a-number"),
    (re.compile(r" is off the board: use 1 to \d+"), "illegal-move"),
    (re.compile(r": the game is over"), "over"),
    (re.compile(r": cell \d+ is taken"), "illegal-move"),
]


# ---------------------------------------------------------------- the boards and the reference


def along_games(rules: Rules, games: int, seed: int) -> list[str]:
    """The boards of ``games`` random games (seeded), each once, in order."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    for _ in range(games):
        position = Position.empty(rules)
        found[str(position)] = None
        while position.legal_moves():
            position = position.play(rng.choice(position.legal_moves()))
            found[str(position)] = None
    return list(found)


def refused(rules: Rules) -> list[str]:
    """Boards no game reaches, one for each check before ``over``: too short, too long, a stray
    character, the counts, both marks owning a line (two disjoint lines, as many marks each)."""
    empty = "." * rules.cells
    first = rules.lines[0]
    other = next(line for line in rules.lines if not set(line) & set(first))
    both = ["X" if cell in first else "O" if cell in other else "." for cell in range(rules.cells)]
    return ["X", empty + ".", "Z" + empty[1:], "XX" + empty[2:], "".join(both)]


@cache
def book_of(name: str, path: str) -> Book:
    return load_book(path) if path else load_book(ROOT / "book" / name)


def python_grid(board: str, rules: Rules) -> str:
    """What a driver prints for ``g BOARD``, from Python's ``grid``."""
    try:
        return "grid=" + grid(Position(board, rules)).replace("\n", "/")
    except BoardError as error:
        return f"error={error.code}"


def python_parse(text: str, board: str, rules: Rules) -> str:
    """What a driver prints for ``m HEX BOARD``, from Python's ``parse_move``: the cell, or the
    code of the refusal its message names."""
    try:
        position = Position(board, rules)
    except BoardError as error:
        return f"error={error.code}"
    try:
        return f"cell={parse_move(text, position)}"
    except IllegalMoveError as error:
        quoted = repr(text)
        message = str(error)
        assert message.startswith(f"move {quoted}"), message
        rest = message[len(f"move {quoted}") :]
        (code,) = [code for pattern, code in PARSE_ERRORS if pattern.fullmatch(rest)]
        return f"error={code}"


def python_game(start: str, ops: list[str], rules: Rules) -> str:
    """What a driver prints for ``h START OPS``, from Python's ``Game``."""
    try:
        game = Game(Position.empty(rules) if start == "-" else Position(start, rules))
    except BoardError as error:
        return f"error={error.code}"
    results = []
    for op in ops:
        if op == "u":
            cell = game.undo()
            results.append("none" if cell is None else str(cell))
            continue
        try:
            game.play(int(op))
            results.append("ok")
        except IllegalMoveError:
            results.append("over" if game.position.is_over else "illegal-move")
    moves = ",".join(map(str, game.moves))
    return f"ops={','.join(results)} board={game.position} start={game.start} moves={moves}"


def question_m(text: str, board: str) -> str:
    return f"m {text.encode().hex() or '-'} {board}"


def questions(rules: Rules, boards: list[str], seed: int, *, negative: bool) -> Iterator[tuple[str, str]]:
    """(question, Python's answer): the grid and every number on each board, the texts on a share
    of them, seeded game scripts (with cell -1 when ``negative``: C's cells are signed)."""
    rng = random.Random(seed)
    boards = [*boards, *refused(rules)]
    alphabet = " \t\r\n0123456789+-.x\u0661\x0b"
    for i, board in enumerate(boards):
        yield f"g {board}", python_grid(board, rules)
        for number in range(rules.cells + 2):
            yield question_m(str(number), board), python_parse(str(number), board, rules)
        if i % 23 == 0 or i >= len(boards) - 5:
            randoms = ["".join(rng.choices(alphabet, k=rng.randrange(7))) for _ in range(20)]
            for text in [*TEXTS, str(rules.cells), str(rules.cells + 1), *randoms]:
                yield question_m(text, board), python_parse(text, board, rules)
    lowest = -1 if negative else 0
    for i in range(400):
        start = "-" if i % 10 == 0 else rng.choice(boards)
        ops = [
            "u" if rng.random() < 0.3 else str(rng.randrange(lowest, rules.cells + 1))
            for _ in range(rng.randrange(16))
        ]
        ops = ops or ["u"]
        yield f"h {start} {','.join(ops)}", python_game(start, ops, rules)


def check(program: Path, cases: list[tuple[str, str]]) -> None:
    asked, expected = zip(*cases, strict=True)
    got = ask(program, list(asked))
    wrong = [(q, g, e) for q, g, e in zip(asked, got, expected, strict=True) if g != e]
    assert wrong == [], f"{len(wrong)} of {len(asked)} wrong, the first: {wrong[:3]}"


# ---------------------------------------------------------------- the exports

#: (id, rules, packaged book name or "", the boards asked: every reachable one, or along games)
EXPORTS = {
    "3x3": (Rules(3, 3, 3), "tictactoe.json"),
    "3x3-misere": (Rules(3, 3, 3, misere=True), "tictactoe-misere.json"),
    "3x4": (Rules(3, 4, 3), ""),
    "4x4-k2": (Rules(4, 4, 2), ""),
}


@pytest.fixture(scope="module")
def books(book_3x4_path: Path, book_4x4_k2_path: Path) -> dict[str, Book]:
    paths = {"3x4": str(book_3x4_path), "4x4-k2": str(book_4x4_k2_path)}
    return {name: book_of(packaged, paths.get(name, "")) for name, (_, packaged) in EXPORTS.items()}


def boards_of(name: str) -> list[str]:
    rules = EXPORTS[name][0]
    if name.startswith("3x3"):
        boards = reachable(rules)
        assert len(boards) == 5478
        return boards if name == "3x3" else boards[::5]
    return along_games(rules, 150, seed=len(name))


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_the_c_grid_parser_and_game_are_pythons(name: str, books: dict[str, Book], tmp_path: Path) -> None:
    rules = EXPORTS[name][0]
    assert books[name].rules == rules
    folder = write(tmp_path, c_book(full_table(books[name])))
    flags = SANITIZED if name == "3x3" else ["-O1"]
    program = compile_c(
        folder, [folder / "tictactoe_book.c", DRIVERS / "notation_driver.c"], flags, "notation"
    )
    size = len(grid(Position.empty(rules))) + 1
    assert ask(program, ["n"]) == [f"size={size} cells={rules.cells}"] and grid_size(rules) == size
    cases = list(questions(rules, boards_of(name), seed=1, negative=True))
    assert len(cases) > (60_000 if name == "3x3" else 2_000)
    check(program, cases)


@pytest.mark.parametrize("name", ["3x3", "4x4-k2"])
def test_the_rust_grid_parser_and_game_are_pythons(name: str, books: dict[str, Book], tmp_path: Path) -> None:
    rules = EXPORTS[name][0]
    program = compile_rust(write(tmp_path, rust_book(full_table(books[name]))), "notation_driver")
    check(program, list(questions(rules, boards_of(name), seed=2, negative=False)))


# The grid's 57 bytes on 3x3: 56 characters and the NUL.
SIZES = [
    ("z 57 X...O...X", "ret=56 first=32 length=56"),  # ' ': the grid's first character
    ("z 56 X...O...X", "ret=-11 first=0 length=0"),  # one byte short: TTT_ERR_SIZE, out emptied
    ("z 1 X...O...X", "ret=-11 first=0 length=0"),
    ("z 0 X...O...X", "ret=-11 first=35 length=64"),  # nothing written: the buffer's '#'s
    ("z 57 XX.......", "ret=-3 first=0 length=0"),  # a board error first, out emptied
    ("z 0 XX.......", "ret=-3 first=35 length=64"),
    ("z 57 XXXOO....", "ret=56 first=32 length=56"),  # a finished game is a board here
]


def test_the_c_grid_refuses_a_buffer_too_small(tmp_path: Path) -> None:
    folder = write(tmp_path, c_book(full_table(load_book(ROOT / "book" / "tictactoe.json"))))
    program = compile_c(folder, [folder / "tictactoe_book.c", DRIVERS / "notation_driver.c"], SANITIZED, "n")
    asked, expected = zip(*SIZES, strict=True)
    assert ask(program, list(asked)) == list(expected)
    assert ask(program, ["m 31 XX......."]) == ["error=counts"]  # the board first, as ttt_play


@pytest.mark.parametrize(
    "compiler", [["gcc", "-std=c89"], ["g++", "-std=c++11", "-x", "c++"]], ids=["c89", "c++"]
)
def test_the_driver_compiles_as_c89_and_cpp_and_answers_alike(compiler: list[str], tmp_path: Path) -> None:
    tool(compiler[0])
    rules = Rules(3, 3, 3)
    folder = write(tmp_path, c_book(full_table(load_book(ROOT / "book" / "tictactoe.json"))))
    program = folder / "notation"
    sources = [str(folder / "tictactoe_book.c"), str(DRIVERS / "notation_driver.c")]
    strict = STRICT_C[2:]  # the warnings, not the standard
    subprocess.run([*compiler, *strict, "-I", str(folder), "-o", str(program), *sources], check=True)
    check(program, list(questions(rules, reachable(rules)[::11], seed=3, negative=True)))


PROBE = """\
#include <stdio.h>
{includes}

int main(void)
{{
    char text[TTT_GRID_SIZE];
    struct ttt_game game;
    int length = ttt_grid("X...O...X", text, sizeof text);
    int started = ttt_game_start(&game, NULL);
    int played = ttt_game_play(&game, ttt_parse_move(game.board, " 5 "));
    int count = game.count;
    int undone = ttt_game_undo(&game);
    int again = ttt_game_undo(&game);
    printf("%d %d %d %d %d %d %d %s\\n", length, started, played, count, undone, again,
           ttt_parse_move(game.board, "five"), ttt_error_name(TTT_ERR_NOT_A_NUMBER));
    return 0;
}}
"""


@pytest.mark.parametrize(
    "headers",
    [["tictactoe_x.h"], ["tictactoe_o.h", "tictactoe_book.h"], ["tictactoe_book.h", "tictactoe_x.h"]],
    ids=["x", "o-then-book", "book-then-x"],
)
def test_every_header_declares_the_grid_the_parser_and_the_game(tmp_path: Path, headers: list[str]) -> None:
    """The shared names (struct ttt_game among them) from a strategy's header alone or with the
    full book's, each export implemented in a C file of its own, as C89 and C++."""
    book = load_book(ROOT / "book" / "tictactoe.json")
    write(tmp_path, c_book(full_table(book), single_header=True))
    for side in ("X", "O"):
        write(tmp_path, c_strategy(strategy_table(book, side), single_header=True))
    probe = tmp_path / "probe.c"
    probe.write_text(PROBE.format(includes="\n".join(f'#include "{h}"' for h in headers)))
    strict = STRICT_C[2:]
    objects = []
    for header in ("tictactoe_book.h", "tictactoe_x.h", "tictactoe_o.h"):
        source = implementing_file(tmp_path, header)
        objects.append(str(tmp_path / f"{source.stem}.o"))
        subprocess.run(
            ["gcc", "-std=c89", *strict, "-I", str(tmp_path), "-c", str(source), "-o", objects[-1]],
            check=True,
        )
    for compiler in (["gcc", "-std=c89"], ["g++", "-std=c++11", "-x", "c++"]):
        subprocess.run(
            [*compiler, *strict, "-I", str(tmp_path), "-c", str(probe), "-o", str(tmp_path / "probe.o")],
            check=True,
        )
        linker = "g++" if compiler[0] == "g++" else "gcc"
        program = tmp_path / "probe"
        subprocess.run([linker, "-o", str(program), str(tmp_path / "probe.o"), *objects], check=True)
        lines = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()
        assert lines == ["56 0 0 1 4 -1 -10 not-a-number"], (compiler, lines)
