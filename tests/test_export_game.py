"""The game state of the C and Rust exports (issue 31): ``ttt_outcome``, ``ttt_completed_line``,
``ttt_legal_moves``, ``ttt_play``, ``ttt_candidates``, ``ttt_choose`` and ``ttt_random`` in C;
``outcome``, ``legal_moves``, ``play``, ``candidates``, ``choose`` and ``Rng`` in Rust.
``make test-exports`` runs this file.

* Every reachable position of 3x3, normal and misère, against a walk of the game by the
  independent negamax's row counting (tests/oracles/negamax.py) with the lines derived apart
  (tests/oracles/book_oracle.py): how it stands, its completed line, its moves, every move played.
* The generator is mulberry32 as published; each choice is the one a uniform draw from it makes
  among the level's cells (the vectors' ``levels``, tests/c_build.py, check the cells).
* 10,000 games against a random player at each level, each side, give the rates ``ttt-book
  levels --exact`` prints, within sampling error; none is lost at perfect.
* The Rust ``Position`` (tests/exports/position_driver.rs) on every reachable 3x3 position,
  normal and misère, and on boards no game reaches: what Python's ``Position`` says (whose turn,
  legal moves, who won, every cell played) and what the book says of it (best moves, value).
* The C compiles as C89, C99 and C++ with -Wall -Wextra -Werror (and runs under ASan and UBSan);
  a C++ program links against the C implementation; every header, full and strategy, declares
  the shared names; the Rust driver answers every question as the C one does; the crate's own
  ``cargo test --offline`` passes.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from c_build import DRIVERS, ask, compile_c, implementing_file, tool
from click.testing import CliRunner
from oracles.book_oracle import derived_lines
from oracles.mulberry32 import KEPT, MASK, REDRAWN, mulberry32, uniform_pick
from oracles.negamax import Negamax
from test_exports import SANITIZED, compile_rust, write

from tictactoe_book import BoardError, IllegalMoveError, Position, Rules, load_book
from tictactoe_book.reader import Book
from tictactoe_generator.cli import main
from tictactoe_generator.export.c import c_book, c_strategy
from tictactoe_generator.export.rust import rust_book
from tictactoe_generator.export.tables import full_table, strategy_table

pytestmark = pytest.mark.exports

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ("perfect", "hard", "medium", "easy")  # TTT_PERFECT 0, ... as the header numbers them
IN_PROGRESS, X_WINS, O_WINS, DRAW = range(4)
GAMES = 10_000
VECTORS = json.loads((ROOT / "book" / "vectors.json").read_text())


# ---------------------------------------------------------------- oracles


def walk(misere: bool) -> dict[str, tuple[int, list[int], list[int]]]:
    """Every position reachable on 3x3 from the empty board: (how it stands, its completed line,
    its moves), by the negamax oracle's run counting from the cell just played."""
    judge = Negamax(3, 3, 3, misere=misere)
    lines = derived_lines(3, 3, 3)
    found: dict[str, tuple[int, list[int], list[int]]] = {}

    def visit(board: str, last: int | None) -> None:
        if board in found:
            return
        if last is not None and judge.makes_a_row(board, last):
            owner = board[last]
            winner = ("O" if owner == "X" else "X") if misere else owner
            line = next(list(line) for line in lines if all(board[c] == owner for c in line))
            found[board] = (X_WINS if winner == "X" else O_WINS, line, [])
            return
        free = [c for c, mark in enumerate(board) if mark == "."]
        found[board] = (IN_PROGRESS, [], free) if free else (DRAW, [], [])
        mark = "X" if board.count("X") == board.count("O") else "O"
        for cell in free:
            visit(board[:cell] + mark + board[cell + 1 :], cell)

    visit("." * 9, None)
    assert len(found) == 5478
    return found


def levels_rates() -> dict[tuple[str, str], tuple[Fraction, Fraction, Fraction]]:
    """``ttt-book levels --exact`` against random: (level, first or second) -> won, drawn, lost."""
    result = CliRunner().invoke(main, ["levels", "--exact"])
    assert result.exit_code == 0, result.output
    rates = {}
    level = ""
    for line in result.output.splitlines():
        if line and not line[0].isspace():  # a heading: "perfect", "perfect --against random", ...
            level = line
        found = re.fullmatch(
            r"\s+(first|second),\s+against random:\s+won (\S+), drawn (\S+), lost (\S+)", line
        )
        if found and level in LEVELS:
            side, *shares = found.groups()
            rates[level, side] = tuple(Fraction(share) for share in shares)
    assert sorted({name for name, _ in rates}) == sorted(LEVELS)
    return rates  # type: ignore[return-value]


# ---------------------------------------------------------------- the programs


def export_c(folder: Path, *, misere: bool = False) -> Path:
    book = load_book(ROOT / "book" / ("tictactoe-misere.json" if misere else "tictactoe.json"))
    return write(folder, c_book(full_table(book)))


@pytest.fixture(scope="module")
def c_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = export_c(tmp_path_factory.mktemp("c"))
    return compile_c(folder, [folder / "tictactoe_book.c", DRIVERS / "game_driver.c"], ["-O2"], "game")


@pytest.fixture(scope="module")
def rust_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rust")
    return compile_rust(
        write(folder, rust_book(full_table(load_book(ROOT / "book" / "tictactoe.json")))), "game_driver"
    )


def state_questions(positions: dict[str, tuple[int, list[int], list[int]]]) -> Iterator[tuple[str, str]]:
    """(question, the oracle's answer) for every position and every move from it."""
    for board, (standing, line, moves) in sorted(positions.items()):
        cells = ",".join(map(str, line))
        yield f"s {board}", f"outcome={standing} line={cells} moves={','.join(map(str, moves))}"
        mark = "X" if board.count("X") == board.count("O") else "O"
        for cell in moves:
            yield f"p {cell} {board}", f"board={board[:cell]}{mark}{board[cell + 1 :]}"
        if standing != IN_PROGRESS:
            yield f"p 0 {board}", "error=over"


# Boards no game reaches, and questions about moves that cannot be played, with their codes.
REFUSED = [
    ("s X", "error=length,length,length"),
    ("s X.O.Z....", "error=character,character,character"),
    ("s XX.......", "error=counts,counts,counts"),
    # X X X
    # O O O      both own a line
    # . . .
    ("s XXXOOO...", "error=unreachable,unreachable,unreachable"),
    ("p 9 .........", "error=illegal-move"),
    ("p -1 .........", "error=illegal-move"),
    ("p 0 X........", "error=illegal-move"),
    ("p 1 XX.......", "error=counts"),
    ("c 4 1 .........", "error=level"),
    ("c -1 1 .........", "error=level"),
    ("c 0 1 XXXOO....", "error=over"),
    ("c 9 1 XXXOO....", "error=over"),  # the board first, as ttt_candidates says
]


def test_every_reachable_position_stands_moves_and_plays_as_the_rules_say(c_driver: Path) -> None:
    questions, answers = zip(*state_questions(walk(misere=False)), *REFUSED, strict=True)
    got = ask(c_driver, list(questions))
    wrong = [(q, g, a) for q, g, a in zip(questions, got, answers, strict=True) if g != a]
    assert wrong == [], f"{len(wrong)} wrong, the first: {wrong[:3]}"
    assert len(questions) > 20_000


def test_under_misere_the_side_that_completes_a_line_loses(tmp_path: Path) -> None:
    folder = export_c(tmp_path, misere=True)
    program = compile_c(folder, [folder / "tictactoe_book.c", DRIVERS / "game_driver.c"], ["-O2"], "game")
    questions, answers = zip(*state_questions(walk(misere=True)), strict=True)
    assert ask(program, list(questions)) == list(answers)
    # X X X
    # O O .      X completed the top row: under misère O wins
    # . . .
    assert ask(program, ["s XXXOO...."]) == [f"outcome={O_WINS} line=0,1,2 moves="]


def test_the_generator_is_mulberry32(c_driver: Path) -> None:
    seeds = [0, 1, 2024, MASK]
    expected = []
    for seed in seeds:
        numbers, state = [], seed
        for _ in range(5):
            state, number = mulberry32(state)
            numbers.append(str(number))
        expected.append(" ".join(numbers))
    assert ask(c_driver, [f"r {seed} 5" for seed in seeds]) == expected
    assert expected[1].startswith("2693262067 11749833 2265367787")  # the published JavaScript's


def test_choose_draws_uniformly_among_the_levels_cells(c_driver: Path) -> None:
    """Every unfinished position at every level, from a seed of its own: the cell is the one a
    uniform draw makes among the level's cells (as the vectors give them: ``top`` for perfect,
    ``levels`` for the others), and the state is left where that draw left it."""
    questions, expected = [], []
    for i, vector in enumerate(v for v in VECTORS["valid"] if v["first"] == "X"):
        for level, name in enumerate(LEVELS):
            seed = (i * 2654435761 + level) & MASK
            cells = vector["top"] if name == "perfect" else vector["levels"][name]
            index, state = uniform_pick(len(cells), seed)
            questions.append(f"c {level} {seed} {vector['board']}")
            expected.append(f"cell={cells[index]} state={state}")
    assert len(questions) >= 4 * 4520
    assert ask(c_driver, questions) == expected


@pytest.mark.parametrize("driver", ["c", "rust"])
def test_a_number_the_cells_do_not_divide_evenly_is_drawn_again(
    driver: str, c_driver: Path, rust_driver: Path
) -> None:
    program = c_driver if driver == "c" else rust_driver
    for seed in (*REDRAWN, KEPT):
        drawn = mulberry32(seed)[1]
        assert (drawn >= 2**32 - 4) == (seed in REDRAWN)
        index, state = uniform_pick(9, seed)
        assert state == (seed + (2 if seed in REDRAWN else 1) * 0x6D2B79F5) & MASK
        for level in (1, 2, 3):  # every cell of the empty board is a candidate of hard, medium, easy
            assert ask(program, [f"c {level} {seed} ........."]) == [f"cell={index} state={state}"]


def test_ten_thousand_games_against_a_random_player_give_the_levels_rates(c_driver: Path) -> None:
    """At each level, moving first and second, from one seed each: the counts of games won,
    drawn and lost are within five standard deviations of the exact rates (a test that fails
    about once in two million runs of a correct export; the seeds are fixed, so it passes or
    fails the same way every time), and no game is lost at perfect."""
    rates = levels_rates()
    questions = [
        f"g {level} {side} {1000 + 10 * level + (side == 'O')} {GAMES}" for level in range(4) for side in "XO"
    ]
    for question, answer in zip(questions, ask(c_driver, questions), strict=True):
        _, level, side, *_ = question.split()
        counts = [int(n) for n in re.fullmatch(r"won=(\d+) drawn=(\d+) lost=(\d+)", answer).groups()]  # type: ignore[union-attr]
        assert sum(counts) == GAMES
        exact = rates[LEVELS[int(level)], "first" if side == "X" else "second"]
        for count, share in zip(counts, exact, strict=True):
            spread = 5 * math.sqrt(GAMES * share * (1 - share))
            assert abs(count - GAMES * share) <= spread, (question, answer, exact)
        if level == "0":
            assert counts[2] == 0, (question, answer)


def test_the_rust_export_answers_every_question_as_the_c_one(c_driver: Path, rust_driver: Path) -> None:
    """The same questions to both drivers, the same answers: the state, every move, every
    choice from the same seed, the games (the same generator, so the same games)."""
    questions = [q for q, _ in state_questions(walk(misere=False))]
    # Rust's levels are an enum and its cells unsigned: there is no level 4 nor cell -1 to ask for
    cannot = {"p -1 .........", "c 4 1 .........", "c -1 1 .........", "c 9 1 XXXOO...."}
    questions += [q for q, _ in REFUSED if q not in cannot]
    boards = sorted(b for b, (standing, _, _) in walk(misere=False).items() if standing == IN_PROGRESS)
    questions += [f"c {level} {seed} {board}" for seed, board in enumerate(boards) for level in range(4)]
    questions += [f"r {seed} 8" for seed in (0, 7, MASK)]
    questions += [f"g {level} {side} 5 500" for level in range(4) for side in "XO"]
    assert ask(rust_driver, questions) == ask(c_driver, questions)


# ---------------------------------------------------------------- C89, C99, C++, sanitizers

STRICT = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
CPP = ["g++", "-std=c++11", *STRICT]
FLAVOURS = {
    "c89": (["gcc", "-std=c89"], ""),
    "c99": (["gcc", "-std=c99"], ""),
    "c++": (["g++", "-std=c++11", "-x", "c++"], ""),
    "asan-ubsan": (["gcc", "-std=c99", *SANITIZED], ""),
}


@pytest.mark.parametrize("flavour", sorted(FLAVOURS))
def test_the_export_and_a_game_compile_in_each_language_and_answer_alike(
    c_driver: Path, tmp_path: Path, flavour: str
) -> None:
    """The export and the game driver compiled together as C89, C99 or C++ (-Wall -Wextra
    -pedantic -Werror), or under AddressSanitizer and UBSan: the same answers as the C99 build."""
    compiler, _ = FLAVOURS[flavour]
    tool(compiler[0])
    folder = export_c(tmp_path)
    program = folder / "game"
    sources = [str(folder / "tictactoe_book.c"), str(DRIVERS / "game_driver.c")]
    subprocess.run([*compiler, *STRICT, "-I", str(folder), "-o", str(program), *sources], check=True)
    questions = [q for q, _ in state_questions(walk(misere=False))][::7] + [q for q, _ in REFUSED]
    questions += [f"g {level} X 3 200" for level in range(4)] + ["r 5 4"]
    assert ask(program, questions) == ask(c_driver, questions)


def cpp_caller(folder: Path, implementation: Path) -> list[str]:
    """tests/exports/cpp_caller.cpp compiled by g++, linked with ``implementation`` (an object
    compiled as C), and run: the lines it prints."""
    program = folder / "caller"
    sources = [str(DRIVERS / "cpp_caller.cpp"), str(implementation)]
    subprocess.run([*CPP, "-I", str(folder), "-o", str(program), *sources], check=True)
    return subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()


def test_a_cpp_program_links_against_the_c_implementation(tmp_path: Path) -> None:
    """The implementation compiled by gcc as C, the caller by g++: the header's extern "C" makes
    the names match (without it: undefined reference to ttt_choose(char const*, int, ...))."""
    tool("g++")
    folder = export_c(tmp_path)
    subprocess.run(
        ["gcc", "-std=c99", *STRICT, "-c", str(folder / "tictactoe_book.c"), "-o", str(folder / "book.o")],
        check=True,
    )
    lines = cpp_caller(folder, folder / "book.o")
    assert len(lines) == 10 and lines[-2].count(".") == 0  # nine moves: perfect play fills the board
    assert lines[-1] == f'outcome={DRAW} line=0 name="illegal-move"'


def test_a_cpp_program_uses_a_single_header_implemented_in_a_c_file(tmp_path: Path) -> None:
    tool("g++")
    book = load_book(ROOT / "book" / "tictactoe.json")
    folder = write(tmp_path, c_book(full_table(book), single_header=True))
    implementation = implementing_file(folder, "tictactoe_book.h")
    subprocess.run(
        ["gcc", "-std=c89", *STRICT, "-c", str(implementation), "-o", str(folder / "book.o")], check=True
    )
    assert cpp_caller(folder, folder / "book.o")[-1] == f'outcome={DRAW} line=0 name="illegal-move"'


# ---------------------------------------------------------------- every header


NAMES_PROBE = """\
#include <stdio.h>
{includes}

int main(void)
{{
    char next[TTT_CELLS + 1];
    int moves[TTT_CELLS];
    int line[TTT_K];
    uint32_t state = 1;
    /* X X X
     * O O .      X has won
     * . . .                  */
    printf("%d %d %d %d %s %s\\n", ttt_outcome("XXXOO...."), ttt_completed_line("XXXOO....", line),
           ttt_legal_moves("X...O....", moves, TTT_CELLS), ttt_play(".........", 4, next), next,
           ttt_error_name(TTT_ERR_LEVEL));
    printf("%d %d %lu\\n", ttt_choose("{board}", TTT_PERFECT, &state),
           ttt_choose("{board}", TTT_EASY, &state), (unsigned long)ttt_random(&state));
    return 0;
}}
"""


@pytest.mark.parametrize(
    ("headers", "board", "expected"),
    [
        # the full book: its own functions; the top tier of the empty board is the corners
        (["tictactoe_book.h"], "X........", "4 -1"),
        # a strategy alone: its own, through the shared names (O's table answers a corner with
        # the centre; no level but perfect)
        (["tictactoe_o.h"], "X........", "4 -9"),
        (["tictactoe_x.h"], ".........", "0 -9"),
        # with the full book's header, in either order, the shared names are the book's
        (["tictactoe_x.h", "tictactoe_book.h"], "X........", "4 -1"),
        (["tictactoe_book.h", "tictactoe_o.h"], "X........", "4 -1"),
        # two strategies: the first header's
        (["tictactoe_x.h", "tictactoe_o.h"], "X........", "-6 -9"),
    ],
    ids=["book", "o", "x", "x-then-book", "book-then-o", "x-then-o"],
)
def test_every_header_declares_the_shared_names(
    tmp_path: Path, headers: list[str], board: str, expected: str
) -> None:
    """ttt_error_name, ttt_play, ttt_outcome, ttt_choose (and the rest of the game state) from
    any header or mix of headers, each export implemented in a C file of its own, as C89 and
    as C++; the easy level's move is checked apart (it is random), so it shows -1 when valid."""
    book = load_book(ROOT / "book" / "tictactoe.json")
    write(tmp_path, c_book(full_table(book), single_header=True))
    for side in ("X", "O"):
        write(tmp_path, c_strategy(strategy_table(book, side), single_header=True))
    probe = tmp_path / "probe.c"
    probe.write_text(NAMES_PROBE.format(includes="\n".join(f'#include "{h}"' for h in headers), board=board))
    implementations = [
        implementing_file(tmp_path, h) for h in ("tictactoe_book.h", "tictactoe_x.h", "tictactoe_o.h")
    ]
    for compiler in (["gcc", "-std=c89"], ["g++", "-std=c++11", "-x", "c++"]):
        objects = []
        for source in implementations:
            objects.append(tmp_path / f"{source.stem}.o")
            subprocess.run(
                ["gcc", "-std=c89", *STRICT, "-I", str(tmp_path), "-c", str(source), "-o", str(objects[-1])],
                check=True,
            )
        program = tmp_path / "probe"
        subprocess.run(
            [*compiler, *STRICT, "-I", str(tmp_path), "-c", str(probe), "-o", str(tmp_path / "probe.o")],
            check=True,
        )
        linker = "g++" if compiler[0] == "g++" else "gcc"
        subprocess.run(
            [linker, "-o", str(program), str(tmp_path / "probe.o"), *map(str, objects)], check=True
        )
        first, second = subprocess.run(
            [str(program)], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert first == f"{X_WINS} 3 7 0 ....X.... level", compiler
        chosen, easy, _ = second.split()
        assert f"{chosen} {easy if easy.startswith('-') else '-1'}" == expected, (compiler, second)


# ---------------------------------------------------------------- the crate


def export_crate(folder: Path, *options: str) -> Path:
    """``ttt-book export --lang rust`` into ``folder``, as a user runs it."""
    result = CliRunner().invoke(main, ["export", "--lang", "rust", *options, "-o", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def cargo_test(crate: Path, target: Path) -> str:
    """``cargo test --offline`` in ``crate`` (its build in ``target``), warnings as errors."""
    tool("cargo")
    done = subprocess.run(
        ["cargo", "test", "--offline"],
        cwd=crate,
        env={
            **os.environ,
            "CARGO_TARGET_DIR": str(target),
            "RUSTFLAGS": "-D warnings",
            "RUSTDOCFLAGS": "-D warnings",
        },
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("book", ["tictactoe.json", "tictactoe-misere.json", "3x4"])
def test_the_rust_export_is_a_crate_whose_tests_pass_offline(
    tmp_path: Path, book: str, book_3x4_path: Path
) -> None:
    """The crate has no dependencies, so cargo needs no network: its tests (the game walked from
    the empty board against the book's scores, perfect play against every line, the generator,
    the errors, a game through ``Position``, a ``Game`` played and taken back, the grid and the
    moves read from text) and the examples in its documentation pass for 3x3, misère 3x3 and
    3x4."""
    path = book_3x4_path if book == "3x4" else ROOT / "book" / book
    crate = export_crate(tmp_path / "crate", "--book", str(path))
    manifest = (crate / "Cargo.toml").read_text()
    assert '\nname = "tictactoe-book"\n' in manifest and manifest.endswith("[dependencies]\n")
    assert sorted(str(p.relative_to(crate)) for p in crate.rglob("*") if p.is_file()) == [
        "Cargo.toml",
        "src/lib.rs",
        "tests/game.rs",
    ]
    out = cargo_test(crate, tmp_path / "target")
    # tests/ (the game, the levels, the errors, Position, Game, the grid and the move parser),
    # and the doc's examples (the crate's, Game's)
    assert "test result: ok. 8 passed" in out and "test result: ok. 2 passed" in out
    # the unit test of the redraw bound (test_the_redraw_bound_is_exact_at_every_boundary: C's)
    assert "test tests::accept_keeps_the_draws_below_the_top_2_32_mod_n_only ... ok" in out


GAME_MAIN = """\
use tictactoe_book::{best_moves, outcome, MISERE};

fn main() {
    // X X .
    // O O .    X to move: the normal game is won at cell 2; the misère one is a draw
    // . . .
    let (best, ended) = (best_moves("XX.OO....").unwrap(), outcome("XXXOO....").unwrap().unwrap());
    println!("normal {:?} {:?} {}", best, ended.winner, MISERE);
    let best = tictactoe_misere::best_moves("XX.OO....").unwrap();
    let ended = tictactoe_misere::outcome("XXXOO....").unwrap().unwrap();
    println!("misere {:?} {:?} {}", best, ended.winner, tictactoe_misere::MISERE);
}
"""


def workspace(folder: Path, misere_crate: str) -> Path:
    """A Cargo workspace: the normal book's crate, the misère book's exported with ``--crate
    misere_crate`` (none for the default name), and a program depending on both."""
    export_crate(folder / "normal", "--book", str(ROOT / "book" / "tictactoe.json"))
    options = ["--crate", misere_crate] if misere_crate != "tictactoe-book" else []
    export_crate(folder / "misere", *options, "--book", str(ROOT / "book" / "tictactoe-misere.json"))
    (folder / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["normal", "misere", "game"]\nresolver = "2"\n'
    )
    (folder / "game" / "src").mkdir(parents=True)
    (folder / "game" / "Cargo.toml").write_text(
        '[package]\nname = "game"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
        'tictactoe-book = { path = "../normal" }\n'
        f'{misere_crate} = {{ path = "../misere" }}\n'
    )
    (folder / "game" / "src" / "main.rs").write_text(GAME_MAIN)
    return folder


def cargo(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    tool("cargo")
    return subprocess.run(
        ["cargo", *args, "--offline"],
        cwd=folder,
        env={**os.environ, "CARGO_TARGET_DIR": str(folder / "target"), "RUSTFLAGS": "-D warnings"},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_two_exported_crates_are_members_of_one_workspace(tmp_path: Path) -> None:
    """--crate tictactoe-misere names the misère book's crate, so one program depends on both
    (offline: the crates have no dependencies) and each answers by its own rules; two crates
    both named tictactoe-book stop cargo."""
    root = workspace(tmp_path / "two", "tictactoe-misere")
    manifest = (root / "misere" / "Cargo.toml").read_text()
    assert '\nname = "tictactoe-misere"\n' in manifest and "--crate tictactoe-misere" in manifest
    assert "use tictactoe_misere::*;" in (root / "misere" / "tests" / "game.rs").read_text()
    done = cargo(root, "run", "-q", "-p", "game")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == ["normal [2] Some(X) false", "misere [7, 8] Some(O) true"]
    clash = workspace(tmp_path / "clash", "tictactoe-book")
    refused = cargo(clash, "run", "-q", "-p", "game")
    assert refused.returncode != 0 and "tictactoe-book" in refused.stderr, refused.stderr


def test_a_bad_crate_name_is_refused(tmp_path: Path) -> None:
    for bad in ("Book", "-book", "book-", "a--b", "9", "a b", ""):
        result = CliRunner().invoke(
            main, ["export", "--lang", "rust", "--crate", bad, "-o", str(tmp_path / "o")]
        )
        assert result.exit_code == 2 and "cannot name a crate here" in result.output, (bad, result.output)
    result = CliRunner().invoke(
        main, ["export", "--lang", "c", "--crate", "misere", "-o", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "--crate is offered for --lang rust only" in result.output
    assert not (tmp_path / "o").exists()


@pytest.fixture(scope="module")
def book_2x4_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2x4 k=3 book: eight cells, so the export's keys are 16 bits (3x3's are 32)."""
    path = tmp_path_factory.mktemp("2x4") / "2x4.json"
    result = CliRunner().invoke(main, ["build", "--rules", "2x4:3", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("book", ["tictactoe.json", "tictactoe-misere.json", "3x4", "2x4"])
def test_the_rust_export_is_clippy_clean(
    tmp_path: Path, book: str, book_3x4_path: Path, book_2x4_path: Path
) -> None:
    """``cargo clippy --all-targets -- -D warnings``, as a workspace that denies warnings runs it
    (it found nonminimal_bool in the board check and useless_conversion in the look-up of 32-bit
    keys): the library, its tests and its doc example, for 32-bit and 16-bit keys."""
    if shutil.which("cargo-clippy") is None:
        pytest.skip("clippy is not installed (rustup component add clippy)")
    paths = {"3x4": book_3x4_path, "2x4": book_2x4_path}
    crate = export_crate(tmp_path / "crate", "--book", str(paths.get(book, ROOT / "book" / book)))
    done = subprocess.run(
        ["cargo", "clippy", "--offline", "--all-targets", "--", "-D", "warnings"],
        cwd=crate,
        env={**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("driver", ["c", "rust"])
def test_whose_turn_is_the_python_positions_on_every_reachable_board(
    driver: str, c_driver: Path, rust_driver: Path
) -> None:
    """``ttt_turn`` in C, ``turn`` in Rust: on each of the 5,478 positions (the finished ones
    too: the mark that would move next) the mark tictactoe_book's ``Position.turn`` gives; a
    board no game reaches is its error, as the Python Position refuses it."""
    boards = [*sorted(walk(misere=False)), "X", "X.O.Z....", "XX.......", "XXXOOO...", "OOX......"]
    expected = []
    for board in boards:
        try:
            expected.append(f"turn={Position(board).turn}")
        except BoardError as error:
            expected.append(f"error={error.code}")
    assert expected[-5:] == [
        "error=length",
        "error=character",
        "error=counts",
        "error=unreachable",
        "error=counts",
    ]
    assert expected.count("turn=O") > 2000 and expected.count("turn=X") > 2000
    program = c_driver if driver == "c" else rust_driver
    assert ask(program, [f"t {board}" for board in boards]) == expected


#: The counts of choices whose redraw bound is tested: those of the levels' candidates (up to the
#: nine cells of 3x3), the powers of 2 among them (nothing drawn again), and 16 (4x4's cells).
ACCEPT_COUNTS = (1, 2, 3, 4, 5, 8, 9, 16)


def boundary_draws() -> list[tuple[int, int, bool]]:
    """(draw, n, kept): the draws around the bound 2^32 - 2^32 mod n, below which a draw is kept
    (uniform_pick's rule), and the highest draw, for each n of ACCEPT_COUNTS."""
    cases = []
    for n in ACCEPT_COUNTS:
        limit = 2**32 - 2**32 % n
        for draw in sorted({0, limit - 2, limit - 1, limit, limit + 1, MASK}):
            if draw <= MASK:
                cases.append((draw, n, draw < limit))
    return cases


def test_the_redraw_bound_is_exact_at_every_boundary(tmp_path: Path) -> None:
    """ttt_accept, which ttt_pick asks (tests/exports/accept_driver.c includes the source to
    reach it): a draw one below the bound is kept, the bound itself drawn again, for n = 2, 3, 4,
    5, 8, 9, 16 (and 1), so an off-by-one in the bound (>= for >, a bound one higher or lower)
    fails here; the crate's own unit test checks Rust's accept at the same draws."""
    folder = export_c(tmp_path)
    program = compile_c(folder, [DRIVERS / "accept_driver.c"], SANITIZED, "accept")
    cases = boundary_draws()
    # 2^32 mod n is 1 for 3 and 5 (the highest draw is refused), 4 for 9, 0 for the powers of 2
    assert [(draw, n) for draw, n, kept in cases if not kept] == [
        (MASK, 3),
        (MASK, 5),
        (MASK - 3, 9),
        (MASK - 2, 9),
        (MASK, 9),
    ]
    assert ask(program, [f"{draw} {n}" for draw, n, _ in cases]) == [str(int(kept)) for _, _, kept in cases]


# ---------------------------------------------------------------- the Rust Position


#: Python's IllegalMoveError messages (tictactoe_book.game), by the MoveError the Rust Position
#: gives: its code and its variant.
MOVE_ERRORS = {
    "over:Board(Over)": re.compile(r"the game '.*' is over; no move \d+"),
    "illegal-move:OffBoard": re.compile(r"cell \d+ is off the board \(0 to \d+\)"),
    "illegal-move:Taken": re.compile(r"cell \d+ of '.*' is taken by [XO]"),
}


def joined(cells: Iterable[int]) -> str:
    return ",".join(map(str, cells))


def python_position(board: str, rules: Rules, book: Book) -> str:
    """What tests/exports/position_driver.rs prints for ``board``, from Python's ``Position``
    (its turn, legal moves, outcome, every cell played) and the book's answer for it."""
    try:
        position = Position(board, rules)
    except BoardError as error:
        return f"error={error.code}"
    ended = position.outcome()
    outcome = (
        "-" if ended is None else f"{ended.winner or '-'}/{joined(ended.line)}/{ended.completed_by or '-'}"
    )
    plays = []
    for cell in range(rules.cells + 1):
        try:
            plays.append(str(position.play(cell)))
        except IllegalMoveError as error:
            (kind,) = [kind for kind, message in MOVE_ERRORS.items() if message.fullmatch(str(error))]
            plays.append(kind)
    try:
        best = joined(book.best_moves(position))
        evaluation = book.evaluate(position)
        value = f"{evaluation.value}/{evaluation.plies}"
    except BoardError as error:
        best = value = f"error:{error.code}"
    return (
        f"turn={position.turn} over={int(position.is_over)} outcome={outcome} "
        f"moves={joined(position.legal_moves())} plays={';'.join(plays)} best={best} value={value}"
    )


def reachable(rules: Rules) -> list[str]:
    """Every board reachable from the empty one, by Python's ``Position``."""
    seen = {Position.empty(rules)}
    frontier = list(seen)
    while frontier:
        position = frontier.pop()
        for cell in position.legal_moves():
            child = position.play(cell)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(str(position) for position in seen)


#: Boards no game reaches, for each error Position::new gives (and one it must take: a finished
#: game), beside the reachable ones.
REFUSED_BOARDS = ["X", "X.O.Z....", "XX.......", "XXXOOO...", "OOX......", "X..........", "XXXOO...."]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_the_rust_position_is_the_python_positions_on_every_reachable_board(
    tmp_path: Path, misere: bool
) -> None:
    """The Rust ``Position`` of the normal and the misère export, on each of the 5,478 reachable
    3x3 positions and on boards no game reaches: Python's ``Position`` refuses the same boards
    with the same code, and on the others gives the same turn, legal moves, outcome (the winner
    by the rules, the line and who completed it) and, for every cell and one off the board, the
    same new position or error (the game over, off the board, taken); the book's best moves and
    value for the position are the Python book's."""
    rules = Rules(3, 3, 3, misere=misere)
    book = load_book(rules=rules)
    program = compile_rust(write(tmp_path, rust_book(full_table(book))), "position_driver")
    boards = [*reachable(rules), *REFUSED_BOARDS]
    expected = [python_position(board, rules, book) for board in boards]
    assert len(boards) - len(REFUSED_BOARDS) == 5478
    assert sum(line.startswith("error=") for line in expected) == len(REFUSED_BOARDS) - 1
    # X X X
    # O O .      X completed the top row: X wins, or under misère O does
    # . . .
    assert f"outcome={'O' if misere else 'X'}/0,1,2/X" in expected[-1]
    answers = ask(program, boards)
    wrong = [(b, a, e) for b, a, e in zip(boards, answers, expected, strict=True) if a != e]
    assert wrong == [], f"{len(wrong)} wrong, the first: {wrong[:2]}"
