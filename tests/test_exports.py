"""``ttt-book export``: the generated C and Rust compile without a warning and give every board
vector's answer; the strategy tables never lose against any opposing line, played through the
compiled C; a single header compiles from two C files, one of them defining its implementation
macro; the exports are deterministic. ``make test-exports`` runs this file.

The oracles are the conformance vectors (book/vectors.json, and a 3x4 book's vectors written by
``ttt-book build``) and tests/oracles/negamax.py, which knows nothing of the generator.
"""

from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from c_build import DRIVERS, STRICT_C, ask, check_vectors, compile_c, implementing_file, tool
from click.testing import CliRunner
from oracles.negamax import Negamax

from tictactoe_book import Book, load_book, parse_book
from tictactoe_book.errors import BoardError
from tictactoe_book.reader import default_book_path
from tictactoe_generator.cli import main
from tictactoe_generator.export import tables as export_tables
from tictactoe_generator.export.c import c_book, c_strategy, strategy_names
from tictactoe_generator.export.rust import rust_book
from tictactoe_generator.export.tables import full_table, strategy_table

pytestmark = pytest.mark.exports

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "book" / "vectors.json").read_text())
SANITIZED = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
RUSTC = ["rustc", "--edition", "2021", "-D", "warnings", "-O"]
SIDES = ("X", "O")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def compile_rust(folder: Path, driver: str = "vectors_driver") -> Path:
    """The crate's library compiled by rustc (no warning allowed), and a driver of
    tests/exports/ linked with it."""
    tool("rustc")
    library = folder / "libtictactoe_book.rlib"
    if not library.exists():
        source = folder / "src" / "lib.rs"
        subprocess.run(
            [
                *RUSTC,
                "--crate-type",
                "lib",
                "--crate-name",
                "tictactoe_book",
                "--out-dir",
                str(folder),
                str(source),
            ],
            check=True,
        )
    program = folder / f"{driver}_rs"
    subprocess.run(
        [*RUSTC, "--extern", f"tictactoe_book={library}", "-o", str(program), str(DRIVERS / f"{driver}.rs")],
        check=True,
    )
    return program


@pytest.fixture(scope="module")
def c_3x3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = load_book(ROOT / "book" / "tictactoe.json")  # its own (conftest's book is per test)
    return write(tmp_path_factory.mktemp("c"), c_book(full_table(book)))


@pytest.mark.parametrize("flags", [["-O2"], SANITIZED], ids=["O2", "asan-ubsan"])
def test_c_export_passes_every_vector(c_3x3: Path, flags: list[str]) -> None:
    program = compile_c(
        c_3x3, [c_3x3 / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], flags, f"vectors_{flags[0][1:]}"
    )
    assert check_vectors(program, VECTORS) == 4920 + 23


#: Boards as bytes, nine cells with bytes that are not UTF-8 among or around them, and some that
#: are UTF-8 beyond ASCII. The C export read ".........\x80" as the empty board and a run of 0x80
#: before nine cells as `character` (issue 32, item 10): it counted a byte 10xxxxxx as part of a
#: character, whatever came before it.
BYTES_BOARDS = [
    b".........\x80",  # a stray continuation byte after nine cells
    b"\x80\x80\x80.........",  # and before them
    b"....\x80....",  # eight cells and a stray byte: nine "characters" counted by lead bytes
    b"........\xc3",  # a sequence cut short by the end
    b"....\xc3X....",  # and by a cell
    b"....\xc0\xaf....",  # "/" in an overlong form
    b"....\xe0\x80\xaf....",  # again, in three bytes
    b"....\xed\xa0\x80....",  # a surrogate, U+D800
    b"....\xf4\x90\x80\x80....",  # beyond U+10FFFF
    b"....\xf8\x88\x80\x80\x80....",  # a five-byte form
    b"\xff........",
    b"\xfe\xff.........",
    "........é".encode(),  # UTF-8: nine characters, one of them not a cell
    "....😀....".encode(),
    ".........é".encode(),  # ten characters
    b"X...O....",
]


#: The API calls tests/exports/vectors_driver.c names the error of, in turn, for a refused board:
#: best, optimal, scores, value, canonical, candidates.
DRIVER_CALLS = 6


def bytes_answer(board: bytes) -> str:
    """What a driver prints for ``board``: `length` for bytes that are not UTF-8 (Python refuses
    to decode them), else the Python reader's answer to the text (its code, for a bad board)."""
    try:
        text = board.decode("utf-8")
    except UnicodeDecodeError:
        return "error=" + ",".join(["length"] * DRIVER_CALLS)
    try:
        load_book(ROOT / "book" / "tictactoe.json").evaluate(text)
    except BoardError as error:
        return "error=" + ",".join([error.code] * DRIVER_CALLS)
    return "valid"


def test_c_export_reads_bytes_that_are_not_utf8_as_length(c_3x3: Path) -> None:
    program = compile_c(c_3x3, [c_3x3 / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], SANITIZED, "bytes")
    done = subprocess.run(
        [str(program)],
        input=b"".join(b"X:" + board + b"\n" for board in BYTES_BOARDS),
        capture_output=True,
        check=True,
    )
    answers = [line if line.startswith(b"error=") else b"valid" for line in done.stdout.split(b"\n")[:-1]]
    assert [a.decode() for a in answers] == [bytes_answer(board) for board in BYTES_BOARDS]
    assert answers[0] == answers[1] == b"error=" + b",".join([b"length"] * DRIVER_CALLS)


def test_rust_export_passes_every_vector(book: Book, tmp_path: Path) -> None:
    program = compile_rust(write(tmp_path, rust_book(full_table(book))))
    assert check_vectors(program, VECTORS) == 4920 + 23


# ------------------------------------------------------------------ the books ranked against random


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_c_and_rust_exports_of_a_book_ranked_against_random_pass_its_vectors(
    tmp_path: Path, misere: bool
) -> None:
    """The packaged books ranked against a random player, exported: their own vectors (whose
    top tiers differ from the novice books'), and TTT_AGAINST / AGAINST "random"."""
    stem = "tictactoe-misere-vs-random" if misere else "tictactoe-vs-random"
    book = load_book(ROOT / "book" / f"{stem}.json")
    vectors = json.loads((ROOT / "book" / f"{stem}.vectors.json").read_text())
    assert vectors["against"] == "random"
    table = full_table(book)
    folder = write(tmp_path / "c", c_book(table))
    program = compile_c(folder, [folder / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], SANITIZED, "v")
    assert check_vectors(program, vectors) == 4920 + 23
    assert check_vectors(compile_rust(write(tmp_path / "rust", rust_book(table))), vectors) == 4920 + 23
    with pytest.raises(AssertionError):  # the novice book's vectors: another ranking, other tiers
        check_vectors(program, VECTORS)


def chance_against_random(program: Path, side: str) -> Fraction:
    """The exact chance that the compiled 3x3 strategy for ``side`` wins against a player who
    picks uniformly among the free cells (judged by tests/oracles/negamax.py)."""
    judge = Negamax(3, 3, 3)
    won = Fraction(0)
    ply = {"." * 9: Fraction(1)}
    while ply:
        ours = sorted(b for b in ply if (b.count("X") == b.count("O")) == (side == "X"))
        answers = dict(zip(ours, ask(program, ours), strict=True)) if ours else {}
        following: dict[str, Fraction] = {}
        for board, chance in ply.items():
            mover = "X" if board.count("X") == board.count("O") else "O"
            cells = (
                [int(answers[board])] if board in answers else [c for c, m in enumerate(board) if m == "."]
            )
            for cell in cells:
                child = board[:cell] + mover + board[cell + 1 :]
                share = chance / len(cells)
                if judge.makes_a_row(child, cell):
                    won += share if mover == side else 0
                elif "." in child:
                    following[child] = following.get(child, Fraction(0)) + share
        ply = following
    return won


#: The most a never-losing player wins against a random player (issue 24).
RANDOM_LIMITS = {"X": Fraction(191, 192), "O": Fraction(866, 945)}


@pytest.mark.parametrize("side", SIDES)
def test_a_strategy_from_the_book_ranked_against_random_wins_at_the_limit(tmp_path: Path, side: str) -> None:
    """A microcontroller's table of one move per position, exported from the book ranked against
    a random player: against random it wins 191/192 moving first, 866/945 moving second."""
    book = load_book(ROOT / "book" / "tictactoe-vs-random.json")
    table = strategy_table(book, side)
    assert table.against == "random"
    files = c_strategy(table)
    assert '#define TTT_AGAINST "random"' in files[strategy_names(side)[0]]
    program = compile_strategy(write(tmp_path, files), side, SANITIZED)
    assert chance_against_random(program, side) == RANDOM_LIMITS[side]


def test_a_ranking_is_written_as_a_literal_whatever_it_holds(tmp_path: Path) -> None:
    """A book names its ranking as it likes (a program's, any string): the C and Rust exports
    hold it as a literal that reads back the same, never as code or a comment's end."""
    odd = 'x" */ ??/ \\ \x1b\t é ${against}'
    raw = (ROOT / "book" / "tictactoe.json").read_bytes()
    old = b'"trap_order":{"method":"exact","tolerance":"0"}'
    order = json.dumps({"against": odd, "method": "exact", "tolerance": "0"}).encode()
    book = parse_book(raw.replace(old, b'"trap_order":' + order), "odd")
    assert book.against == odd
    table = full_table(book)
    folder = write(tmp_path / "c", c_book(table))
    c_program = compile_c(folder, [folder / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], ["-O0"], "v")
    rust_program = compile_rust(write(tmp_path / "rust", rust_book(table)))
    for program in (c_program, rust_program):
        done = subprocess.run([str(program)], input=b"against\n", capture_output=True, check=True, timeout=60)
        assert done.stdout == f"against={odd}\n".encode(), program


# ------------------------------------------------------------------ a 3x4 book


@pytest.fixture(scope="module")
def built_3x4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A 3x4 k=3 book file and its vectors, as ``ttt-book build`` writes them (each test loads
    the book: a Book remembers its answers, and none is shared between tests)."""
    folder = tmp_path_factory.mktemp("3x4")
    book_path, vectors_path = folder / "3x4.json", folder / "3x4.vectors.json"
    code, out = run("build", "--rules", "3x4:3", "-o", str(book_path), "--vectors", str(vectors_path))
    assert code == 0, out
    return book_path, json.loads(vectors_path.read_bytes())


def test_c_and_rust_exports_of_a_3x4_book_pass_its_vectors(
    built_3x4: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    book_path, vectors = built_3x4
    book = load_book(book_path, rules=None)
    assert len(book) == 20088
    table = full_table(book)
    folder = write(tmp_path / "c", c_book(table))
    program = compile_c(
        folder, [folder / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], SANITIZED, "vectors"
    )
    count = check_vectors(program, vectors)
    assert count > 20088
    assert check_vectors(compile_rust(write(tmp_path / "rust", rust_book(table))), vectors) == count


# ------------------------------------------------------------------ strategy tables


def compile_strategy(folder: Path, side: str, flags: list[str]) -> Path:
    header, source = strategy_names(side)
    return compile_c(
        folder,
        [folder / source, DRIVERS / "strategy_driver.c"],
        [*flags, f'-DSTRATEGY_HEADER="{header}"', f"-DSTRATEGY_MOVE=ttt_{side.lower()}_move"],
        f"strategy_{side}",
    )


def play_every_line(program: Path, rows: int, cols: int, k: int, side: str) -> dict[int, int]:
    """Play the compiled strategy for ``side`` against every opposing line, a ply at a time (one
    batch of questions per ply); returns how many games ended with each result for ``side``
    (1 win, 0 draw, -1 loss). Wins are judged by tests/oracles/negamax.py's own row counting."""
    judge = Negamax(rows, cols, k)
    results = {1: 0, 0: 0, -1: 0}
    boards = {"." * (rows * cols)}
    while boards:
        ours = sorted(b for b in boards if (b.count("X") == b.count("O")) == (side == "X"))
        answers = dict(zip(ours, ask(program, ours), strict=True)) if ours else {}
        following: set[str] = set()
        for board in sorted(boards):
            mover = "X" if board.count("X") == board.count("O") else "O"
            if board in answers:
                assert answers[board].isdigit(), f"{side} gave {answers[board]!r} on {board}"
                cell = int(answers[board])
                assert board[cell] == ".", f"{side} played taken cell {cell} on {board}"
                cells = [cell]
            else:
                cells = [c for c, mark in enumerate(board) if mark == "."]
            for cell in cells:
                child = board[:cell] + mover + board[cell + 1 :]
                if judge.makes_a_row(child, cell):
                    results[1 if mover == side else -1] += 1
                elif "." not in child:
                    results[0] += 1
                else:
                    following.add(child)
        boards = following
    return results


@pytest.mark.parametrize("side", SIDES)
def test_the_3x3_strategy_never_loses_and_draws_at_worst(book: Book, tmp_path: Path, side: str) -> None:
    folder = write(tmp_path, c_strategy(strategy_table(book, side)))
    results = play_every_line(compile_strategy(folder, side, SANITIZED), 3, 3, 3, side)
    assert results[-1] == 0, results
    assert results[1] > 0 and results[0] > 0  # the game is a draw: O can hold X to one, and X to it


@pytest.mark.parametrize("side", SIDES)
def test_a_3x4_strategy_gets_the_game_value_on_every_line(
    built_3x4: tuple[Path, dict[str, Any]], tmp_path: Path, side: str
) -> None:
    book = load_book(built_3x4[0], rules=None)
    folder = write(tmp_path, c_strategy(strategy_table(book, side)))
    results = play_every_line(compile_strategy(folder, side, ["-O2"]), 3, 4, 3, side)
    value = Negamax(3, 4, 3).solve("." * 12)[0]  # for X, who moves first
    worst = min(result for result, count in results.items() if count)
    assert worst >= (value if side == "X" else -value), results


@pytest.mark.parametrize("side", SIDES)
def test_a_3x3_strategy_fits_in_a_kilobyte(book: Book, tmp_path: Path, side: str) -> None:
    """The const data of the object file (``size -A``: .rodata), the rules' tables included."""
    tool("size")
    folder = write(tmp_path, c_strategy(strategy_table(book, side)))
    source = folder / strategy_names(side)[1]
    subprocess.run([*STRICT_C, "-Os", "-c", str(source), "-o", str(folder / "s.o")], check=True)
    sections = subprocess.run(
        ["size", "-A", str(folder / "s.o")], check=True, capture_output=True, text=True
    ).stdout
    rodata = sum(int(line.split()[1]) for line in sections.splitlines() if line.startswith(".rodata"))
    assert 0 < rodata < 1024, sections


@pytest.mark.parametrize("side", SIDES)
def test_a_strategy_refuses_what_it_cannot_answer(book: Book, tmp_path: Path, side: str) -> None:
    folder = write(tmp_path, c_strategy(strategy_table(book, side)))
    program = compile_strategy(folder, side, SANITIZED)
    # X . .
    # . . .    O to move: X's table says it is not X's turn; O's answers the centre
    # . . .
    boards = [v["board"] for v in VECTORS["invalid"] if v["first"] == "X"] + ["X........"]
    errors = [v["error"] for v in VECTORS["invalid"] if v["first"] == "X"]
    answers = ask(program, boards)
    assert answers[: len(errors)] == errors
    if side == "X":
        assert answers[-1] == "turn"
        # O . .
        # . X .    X to move, but X's table opens in a corner, never in the centre
        # . . .
        assert ask(program, ["O...X....", "........."]) == ["not-in-table", "0"]
    else:
        assert answers[-1] == "4"
        # X O .
        # . . .    O to move, but O's table answers a corner with the centre, never with cell 1
        # . . X
        assert ask(program, ["XO......X"]) == ["not-in-table"]
        assert ask(program, ["........."]) == ["turn"]


def decode(code: int, cells: int) -> str:
    """The board of a table's key: base 4, first cell most significant, ``.`` 0, ``O`` 1, ``X`` 2
    (docs/porting.md, "Exports")."""
    return "".join(".OX"[code >> 2 * i & 3] for i in reversed(range(cells)))


def test_the_keys_are_the_canonical_boards_in_base_4_in_order(book: Book) -> None:
    table = full_table(book)
    assert [decode(code, 9) for code in table.keys] == sorted(book.canonical_keys())
    assert table.keys[:2] == (0, 2)  # "........." and "........X" (X in a corner, canonically)
    for side in SIDES:
        keys = strategy_table(book, side).keys
        assert list(keys) == sorted(keys) and {decode(code, 9) for code in keys} <= set(book.canonical_keys())


def test_every_strategy_move_is_optimal(book: Book) -> None:
    judge = Negamax(3, 3, 3)
    for side in SIDES:
        table = strategy_table(book, side)
        for code, move in zip(table.keys, table.moves, strict=True):
            board = decode(code, 9)
            results = judge.moves(board)
            best = max(results.values(), key=lambda r: (r[0], -r[1] if r[0] > 0 else r[1]))
            assert results[move] == best, (side, board, move)


# ------------------------------------------------------------------ single headers


def test_a_single_header_compiles_into_two_files_and_passes_every_vector(book: Book, tmp_path: Path) -> None:
    """The vectors driver includes the header as it is; a second file defines the macro."""
    files = c_book(full_table(book), single_header=True)
    assert list(files) == ["tictactoe_book.h"]
    folder = write(tmp_path, files)
    sources = [DRIVERS / "vectors_driver.c", implementing_file(folder, "tictactoe_book.h")]
    program = compile_c(folder, sources, SANITIZED, "vectors_single")
    assert check_vectors(program, VECTORS) == 4920 + 23


@pytest.mark.parametrize("side", SIDES)
def test_a_single_header_strategy_never_loses(book: Book, tmp_path: Path, side: str) -> None:
    files = c_strategy(strategy_table(book, side), single_header=True)
    header = strategy_names(side)[0]
    assert list(files) == [header]
    folder = write(tmp_path, files)
    program = compile_c(
        folder,
        [DRIVERS / "strategy_driver.c", implementing_file(folder, header)],
        ["-O2", f'-DSTRATEGY_HEADER="{header}"', f"-DSTRATEGY_MOVE=ttt_{side.lower()}_move"],
        f"strategy_single_{side}",
    )
    results = play_every_line(program, 3, 3, 3, side)
    assert results[-1] == 0 and results[1] > 0, results


def test_single_headers_take_a_c_file_each(book: Book, tmp_path: Path) -> None:
    """The full book and both strategies in one program, each implemented in a file of its own;
    two implementations in one file stop the compiler with a sentence saying so."""
    folder = write(tmp_path, c_book(full_table(book), single_header=True))
    for side in SIDES:
        write(folder, c_strategy(strategy_table(book, side), single_header=True))
    headers = ["tictactoe_book.h", "tictactoe_x.h", "tictactoe_o.h"]
    sources = [DRIVERS / "three_headers.c", *(implementing_file(folder, h) for h in headers)]
    program = compile_c(folder, sources, ["-O2"], "three_headers")
    assert ask(program, [""]) == ["best=1:4 o=4 x=-6"]  # -6: TTT_ERR_TURN
    both = folder / "both.c"
    both.write_text("".join(implementing_file(folder, h).read_text() for h in headers[:2]))
    with pytest.raises(subprocess.CalledProcessError) as refused:
        compile_c(folder, [both], ["-c"], "both.o")
    assert "only one TICTACTOE_*_IMPLEMENTATION per C file" in refused.value.stderr


# ------------------------------------------------------------------ the command


def test_export_is_deterministic(tmp_path: Path) -> None:
    """Two runs, and a book parsed afresh from the same bytes, give the same bytes."""
    for folder in ("a", "b"):
        (tmp_path / folder / "single").mkdir(parents=True)
        for args in (
            ["--lang", "c"],
            ["--lang", "rust"],
            ["--lang", "c", "--strategy", "X"],
            ["--lang", "c", "--strategy", "O"],
        ):
            code, out = run("export", *args, "-o", str(tmp_path / folder))
            assert code == 0, out
            if args[1] == "c":
                code, out = run("export", *args, "--single-header", "-o", str(tmp_path / folder / "single"))
                assert code == 0, out
    names = sorted(str(p.relative_to(tmp_path / "a")) for p in (tmp_path / "a").rglob("*.*"))
    assert names == sorted(
        [
            "single/tictactoe_book.h",
            "single/tictactoe_o.h",
            "single/tictactoe_x.h",
            "Cargo.toml",
            "src/lib.rs",
            "tests/game.rs",
            "tictactoe_book.c",
            "tictactoe_book.h",
            "tictactoe_o.c",
            "tictactoe_o.h",
            "tictactoe_x.c",
            "tictactoe_x.h",
        ]
    )
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    fresh = parse_book((ROOT / "book" / "tictactoe.json").read_bytes())
    assert (
        c_book(full_table(fresh))["tictactoe_book.c"].encode()
        == (tmp_path / "a" / "tictactoe_book.c").read_bytes()
    )
    assert str(tmp_path) not in (tmp_path / "a" / "tictactoe_book.h").read_text()


def test_export_refuses_bad_options_with_one_line(tmp_path: Path) -> None:
    code, out = run("export", "--lang", "rust", "--strategy", "X", "-o", str(tmp_path))
    assert code == 2 and "--strategy is offered for --lang c only" in out
    code, out = run("export", "--lang", "rust", "--single-header", "-o", str(tmp_path))
    assert code == 2 and "--single-header is offered for --lang c only" in out
    (tmp_path / "a-file").write_text("kept")
    code, out = run("export", "--lang", "c", "-o", str(tmp_path / "a-file"))
    assert code == 4 and "is a file, not a folder" in out
    assert (tmp_path / "a-file").read_text() == "kept"
    code, out = run("export", "--lang", "java", "-o", str(tmp_path))
    assert code == 2
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


def test_a_book_above_the_limit_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export_tables, "MAX_EXPORT_ENTRIES", 626)
    code, out = run("export", "--lang", "c", "-o", str(tmp_path))
    assert code == 3 and "has 627 entries; an export holds at most 626" in out
    assert list(tmp_path.iterdir()) == []
    code, out = run("export", "--lang", "c", "--strategy", "O", "-o", str(tmp_path))
    assert code == 0, out  # O's table (105 positions) is within it


def test_an_unproven_book_is_refused(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(
        (ROOT / "book" / "tictactoe.json").read_bytes().replace(b'".........":"0 ', b'".........":"1 ')
    )
    code, out = run("export", "--lang", "c", "-o", str(tmp_path), "--book", str(damaged))
    assert code == 3 and "[entry-inconsistent]" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.json"]


# ------------------------------------------------------------------ two books in one program


def defined_names(folder: Path, source: Path) -> tuple[list[str], list[str]]:
    """The external symbols an object compiled from ``source`` defines (``nm``), and the macros
    its header defines."""
    tool("nm")
    subprocess.run([*STRICT_C, "-c", str(source), "-o", str(folder / "book.o")], check=True)
    symbols = subprocess.run(
        ["nm", "--defined-only", "--extern-only", str(folder / "book.o")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[2::3]
    header = (folder / "tictactoe_book.h").read_text()
    return symbols, re.findall(r"^#\s*define\s+(\w+)", header, flags=re.MULTILINE)


def test_the_normal_and_the_misere_export_link_into_one_program(tmp_path: Path) -> None:
    """Each export's names start with its --prefix (mis_outcome, MIS_CELLS, ...), so a program
    includes both headers, links both sources and asks each; without a prefix the linker
    refuses the second book ("multiple definition of `ttt_outcome'")."""
    for folder, args in (("normal", []), ("misere", ["--prefix", "mis"])):
        book = ROOT / "book" / ("tictactoe-misere.json" if folder == "misere" else "tictactoe.json")
        code, out = run("export", "--lang", "c", *args, "--book", str(book), "-o", str(tmp_path / folder))
        assert code == 0, out
    symbols, macros = defined_names(tmp_path / "misere", tmp_path / "misere" / "tictactoe_book.c")
    assert "mis_outcome" in symbols and "MIS_CELLS" in macros and "MIS_TICTACTOE_BOOK_H" in macros
    assert [name for name in symbols + macros if not name.lower().startswith("mis_")] == []
    sources = [tmp_path / "normal" / "tictactoe_book.c", tmp_path / "misere" / "tictactoe_book.c"]
    program = compile_c(tmp_path, [*sources, DRIVERS / "two_books.c"], SANITIZED, "two_books")
    # X X .
    # O O .    X to move: the normal game is won at cell 2; the misère one is a draw, the
    # . . .    best moves those the Python reader gives (7 and 8)
    lines = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()
    misere = load_book(ROOT / "book" / "tictactoe-misere.json")
    assert misere.evaluate("XX.OO....").value == 0 and misere.best_moves("XX.OO....") == (7, 8)
    assert lines == ["ttt best=2 value=1 outcome=1 misere=0", "mis best=7,8 value=0 outcome=2 misere=1"]
    clash = tmp_path / "clash"
    code, out = run(
        "export", "--lang", "c", "--book", str(ROOT / "book" / "tictactoe-misere.json"), "-o", str(clash)
    )
    assert code == 0, out
    with pytest.raises(subprocess.CalledProcessError) as refused:
        compile_c(clash, [sources[0], clash / "tictactoe_book.c", DRIVERS / "vectors_driver.c"], [], "clash")
    assert "multiple definition of `ttt_outcome'" in refused.value.stderr


def test_the_default_prefix_changes_nothing_and_a_bad_one_is_refused(book: Book, tmp_path: Path) -> None:
    table = full_table(book)
    assert c_book(table, prefix="ttt") == c_book(table)
    strategy = strategy_table(book, "X")
    single = c_strategy(strategy, single_header=True, prefix="mis")["tictactoe_x.h"]
    assert "int mis_x_move(const char *board);" in single and "MIS_TICTACTOE_X_IMPLEMENTATION" in single
    assert re.search(r"\b(ttt_|TTT_|TICTACTOE_)", single) is None
    for bad in ("Mis", "_mis", "mis_", "m__s", "9lives", "a-b", ""):
        code, out = run("export", "--lang", "c", "--prefix", bad, "-o", str(tmp_path / "out"))
        assert code == 2 and "cannot start C names" in out, (bad, out)
    code, out = run("export", "--lang", "rust", "--prefix", "mis", "-o", str(tmp_path / "out"))
    assert code == 2 and "--prefix is offered for --lang c only" in out
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ the packaged books by name


def exported(folder: Path, *args: str) -> dict[str, bytes]:
    """The files ``ttt-book export ARGS -o folder`` writes, by path."""
    code, out = run("export", *args, "-o", str(folder))
    assert code == 0, out
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("options", "misere", "against"),
    [
        (["--misere"], True, "novice"),
        (["--against", "random"], False, "random"),
        (["--misere", "--against", "random"], True, "random"),
        (["--against", "novice"], False, "novice"),
    ],
    ids=["misere", "random", "misere-random", "novice"],
)
def test_misere_and_against_export_the_packaged_books_without_a_rebuild(
    tmp_path: Path, options: list[str], misere: bool, against: str
) -> None:
    """--misere and --against pick the packaged book as ttt-play does: the same bytes as the
    packaged file exported by --book, in C (both ways) and Rust."""
    packaged = default_book_path(misere=misere, against=against)
    for lang in (["--lang", "c"], ["--lang", "c", "--strategy", "O"], ["--lang", "rust"]):
        by_name = exported(tmp_path / "name" / lang[-1], *lang, *options)
        by_file = exported(tmp_path / "file" / lang[-1], *lang, "--book", packaged)
        assert by_name == by_file, lang
    header = (tmp_path / "name" / "c" / "tictactoe_book.h").read_text()
    assert f"#define TTT_MISERE {int(misere)}" in header and f'#define TTT_AGAINST "{against}"' in header


def test_misere_with_a_book_that_is_not_misere_is_a_usage_error(tmp_path: Path) -> None:
    normal = str(ROOT / "book" / "tictactoe.json")
    code, out = run("export", "--lang", "c", "--misere", "--book", normal, "-o", str(tmp_path / "out"))
    assert code == 2 and "not a misère game" in out
    code, out = run(
        "export", "--lang", "c", "--against", "random", "--book", normal, "-o", str(tmp_path / "out")
    )
    assert code == 2 and "ranks its moves against novice, not random" in out
    assert not (tmp_path / "out").exists()
