"""``ttt-book``: build, query and verify the book from the command line.

A thin layer: each command parses its options, calls the library, and prints.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator.atomic import (
    InputFileError,
    OutputError,
    check_targets,
    read_regular_file,
    target,
    write_files,
)
from player import __version__
from player.board import FIRST, SECOND, parse_board
from player.book import Book, Evaluation, load_book
from player.console import (
    NEGATIVE,
    FilePath,
    InputProblem,
    OutputProblem,
    book_in_use,
    echo,
    progress,
    run_cli,
)
from player.errors import BoardError, BookError
from player.rules import Rules, RulesError
from player.score import VALUE_WORDS, outcome_words
from player.screen import grid

if TYPE_CHECKING:
    from generator.levels_table import Table
    from generator.verify import Report

DEFAULT_BOOK = Path("book") / "tictactoe.json"
PROGRESS_LABEL = "Enumerating every game"
MAX_UPDATE_BYTES = 16 * 1024 * 1024  # a README to update; far above any real one
BOOK_OPTION = click.option(
    "--book",
    "book_path",
    type=FilePath(),
    default=None,
    envvar="TTT_BOOK",
    help="Book file (default: the packaged book). Env: TTT_BOOK (empty: unset).",
)


class RulesParam(click.ParamType):  # type: ignore[type-arg]
    """``3x3``, ``3x4:3``, ``3x3:3:misere``: rows x cols, optionally ``:k``, optionally misère."""

    name = "RxC[:K][:misere]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Rules:
        if isinstance(value, Rules):
            return value
        try:
            return Rules.parse(str(value))
        except RulesError as error:
            self.fail(str(error), param, ctx)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ttt-book")
def main() -> None:
    """Build, query and verify the tic-tac-toe book."""


@main.command()
@click.option(
    "-o",
    "--output",
    type=FilePath(),
    default=str(DEFAULT_BOOK),
    show_default=True,
    help="Where to write the book. The book and its vectors are written as one transaction.",
)
@click.option(
    "--rules",
    "rules",
    type=RulesParam(),
    default="3x3:3",
    show_default=True,
    help="Board shape and line length, as ROWSxCOLS:K (up to 16 cells); :misere after it for misère.",
)
@click.option("--misere", is_flag=True, help="Misère: completing a line loses (the same as RULES:misere).")
@click.option(
    "--vectors",
    type=FilePath(),
    default=None,
    help="Also write conformance vectors here (normal rules up to 12 cells; default, for 3x3 only: "
    "vectors.json beside a book named tictactoe.json, NAME.vectors.json beside any other NAME.json).",
)
@click.option("--no-vectors", is_flag=True, help="Do not write conformance vectors.")
def build(output: str, rules: Rules, misere: bool, vectors: str | None, no_vectors: bool) -> None:
    """Solve the game and write the book (and its conformance vectors).

    Any board of up to 16 cells, normal or misère: 4x4 takes seconds and about a gigabyte. On a
    terminal, a bar shows each stage of a long build.
    """
    # the solver, the trap order and the vectors: imported by this command only (the others
    # start 40 ms sooner without them)
    from concurrent.futures import Future, ThreadPoolExecutor

    from generator.book import BuildToolMissing, has_vectors, write_book
    from generator.progress import stage_bars
    from generator.vectors import VECTORS_MAX_CELLS

    for name, value in (("'-o' / '--output'", output), ("'--vectors'", vectors)):
        if value == "-":
            raise click.BadParameter("'-' (standard output) is not offered: name a file", param_hint=name)
    if no_vectors and vectors is not None:
        raise click.UsageError("--vectors and --no-vectors contradict each other")
    if misere:
        rules = Rules(rules.rows, rules.cols, rules.k, misere=True)
    if vectors is not None and not has_vectors(rules):
        raise click.BadParameter(
            f"{rules}: vectors list every board, so they are written for normal rules of at most "
            f"{VECTORS_MAX_CELLS} cells",
            param_hint="'--vectors'",
        )
    book_path = Path(output)
    vectors_path = Path(vectors) if vectors is not None else None
    try:  # every target checked before the solve, which can take seconds
        target(book_path)
        if vectors_path is None and not no_vectors and rules == Rules():
            vectors_path = default_vectors_path(book_path)
        targets = [book_path] if vectors_path is None else [book_path, vectors_path]
        check_targets(targets)
    except ValueError:
        raise click.UsageError(
            f"--output and --vectors both name {output}; give two different files"
        ) from None
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    existed = [os.path.exists(path) for path in targets]
    started = time.perf_counter()
    # the gzipped size, for the report: measured in a thread (zlib lets go of the GIL) while the
    # build proves the book, 2 s of a 4x4 build's 35 otherwise
    with ThreadPoolExecutor(max_workers=1) as pool:
        gzipped: list[Future[int]] = []
        try:
            with stage_bars() as bars:
                data, vector_data = write_book(
                    book_path,
                    rules,
                    vectors_path,
                    progress=bars,
                    on_encoded=lambda data: gzipped.append(pool.submit(gzipped_size, data)),
                )
        except OutputError as error:
            raise OutputProblem(str(error)) from None
        except BuildToolMissing as error:
            raise click.ClickException(str(error)) from None
        size = gzipped[0].result()
    elapsed = time.perf_counter() - started
    echo(
        f"{'replaced' if existed[0] else 'wrote'} {book_path}: {len(data):,} bytes "
        f"({size:,} gzipped), {rules}, in {elapsed:.2f} s"
    )
    if vector_data is not None:
        echo(f"{'replaced' if existed[1] else 'wrote'} {vectors_path}: {len(vector_data):,} bytes")


def gzipped_size(data: bytes) -> int:
    """The size of ``data`` gzipped at gzip's default level (-9 takes ten times as long on a 4x4
    book for 3 % less)."""
    return len(gzip.compress(data, 6))


def default_vectors_path(book: Path) -> Path:
    """Where the vectors go unless told: ``vectors.json`` beside a book named ``tictactoe.json``
    (the repository's layout), else ``NAME.vectors.json`` beside ``NAME.json``, so that building
    another book never replaces a vectors file that belongs to a different one."""
    if book.name == DEFAULT_BOOK.name:
        return book.with_name("vectors.json")
    stem = book.name.removesuffix(".json") or book.name
    return book.with_name(f"{stem}.vectors.json")


def _load(path: str | None, rules: Rules | None) -> Book:
    """The book, or one line naming it and status 3."""
    try:
        return load_book(path, rules=rules)
    except BookError as error:
        raise InputProblem(str(error)) from None


@main.command()
@click.argument("board")
@BOOK_OPTION
@click.option(
    "--first",
    type=click.Choice([FIRST, SECOND], case_sensitive=False),
    default=FIRST,
    show_default=True,
    help="Which mark moved first in this game.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the answer as JSON, its cells numbered from 0 as in the book file (its member "
    "cells_from says so).",
)
def query(board: str, book_path: str | None, first: str, as_json: bool) -> None:
    """Show the book's entry for BOARD, in BOARD's own orientation.

    BOARD lists the cells in reading order: X, O and . (or -) for empty, e.g. X.O.X.... or
    "X.O/.X./...".

    The readable answer numbers the cells from 1 in reading order (1-9), as ttt-play does, and draws
    the board with those numbers in its free cells. The JSON answer (--json) numbers them from
    0, as the book file and the libraries do, in every member that names a cell (optimal,
    tiers, the keys of moves, symmetry.perm), and says so in its member "cells_from": 0.
    """
    book = _load(book_path, None)
    first = first.upper()
    try:
        cells = parse_board(board, book.rules, first)
        evaluation = book.evaluate(cells, first=first)
    except BoardError as error:
        raise click.BadParameter(str(error), param_hint="BOARD") from None
    except BookError as error:  # an entry found bad only when used
        raise InputProblem(str(error)) from None
    if as_json:
        echo(json.dumps(evaluation_json(evaluation, cells, first), sort_keys=True))
    else:
        echo(describe(evaluation, cells, first, book.rules))


def evaluation_json(evaluation: Evaluation, board: str, first: str) -> dict[str, Any]:
    """The answer of ``query --json``: the board as given, marks as the game holds them."""
    return {
        "cells_from": 0,  # every cell below is numbered from 0, as in the book file
        "board": board,
        "first": first,
        "turn": evaluation.turn,
        "value": VALUE_WORDS[evaluation.value],
        "plies": evaluation.plies,
        "key": evaluation.key,
        "symmetry": {"name": evaluation.symmetry.name, "perm": list(evaluation.symmetry.perm)},
        "optimal": list(evaluation.optimal),
        "tiers": [list(t) for t in evaluation.tiers],
        "moves": {
            str(cell): {"score": score, "value": VALUE_WORDS[v], "plies": p}
            for cell, score in sorted(evaluation.scores.items())
            for v, p in [evaluation.outcome(cell)]
        },
    }


def describe(evaluation: Evaluation, board: str, first: str, rules: Rules) -> str:
    """A readable page for one board: cells numbered from 1, as people (and ttt-play) number
    them, the free ones shown by their numbers on the board."""
    turn = evaluation.turn
    lines = [
        grid(board, rules),
        "",
        f"cells are numbered 1-{rules.cells} in reading order, as on the board above",
        f"{turn} to move: {outcome_words(evaluation.value, evaluation.plies)} with best play "
        f"(plies to the end, this move included)",
        f"canonical key {evaluation.key} via {evaluation.symmetry.name}",
        "optimal moves, trap order (best first): "
        + " | ".join(" ".join(str(c + 1) for c in tier) for tier in evaluation.tiers),
        "every move (cell: outcome for the side to move):",
    ]
    for cell in sorted(evaluation.scores):
        value, plies = evaluation.outcome(cell)
        lines.append(f"  {cell + 1}: {outcome_words(value, plies)}")
    return "\n".join(lines)


def run(argv: list[str] | None = None) -> None:
    """Console entry: the exit-status table of docs/reliability.md, never a traceback."""
    run_cli(main, "ttt-book", argv)


@main.command()
@BOOK_OPTION
@click.option(
    "--markdown",
    is_flag=True,
    help="Print the table as the README publishes it (Markdown, between its markers).",
)
@click.option(
    "--update",
    "readme",
    type=FilePath(),
    default=None,
    help="Replace the Markdown table between its markers in this file (e.g. README.md), keeping its mode.",
)
def levels(book_path: str | None, markdown: bool, readme: str | None) -> None:
    """Print each play level's exact win / draw / loss percentages against the reference
    opponents (random and novice), computed by enumerating every game.

    The table is aligned for reading, under a legend; --markdown prints the README's form.
    A progress bar shows on standard error while the games are enumerated (a few seconds),
    when it is a terminal.
    """
    from generator.levels_table import MATCHES, TableMarkerError, markdown_table, plain_table, replace_table

    if readme is None:
        book = _load(book_path, Rules())
        with book_in_use(book):
            table = _rates(book)
            echo(markdown_table(book, table) if markdown else plain_table(table))
        return
    path = Path(readme)
    try:  # everything that can be refused is refused before the table is computed
        raw, read = read_regular_file(path, MAX_UPDATE_BYTES)
        text = _utf8(raw, path)
        replace_table(text, "", path)
    except (InputFileError, TableMarkerError) as error:
        raise InputProblem(str(error)) from None
    try:
        target(path)
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    book = _load(book_path, Rules())
    with book_in_use(book), progress(MATCHES, PROGRESS_LABEL) as advance:
        published = markdown_table(book, advance=advance)
    updated = replace_table(text, published, path)
    if updated == text:
        echo(f"the levels table in {readme} is already current")
        return
    if _changed(path, read):
        raise InputProblem(f"{readme}: changed while the table was computed; nothing written, run again")
    try:
        write_files({path: updated.encode()})
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    echo(f"updated the levels table in {readme}")


def _rates(book: Book) -> Table:
    """Every level's rates, with a progress bar on a terminal."""
    from generator.levels_table import MATCHES, level_rates

    with progress(MATCHES, PROGRESS_LABEL) as advance:
        return level_rates(book, advance=advance)


def _utf8(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputFileError(path, f"is not UTF-8 text (byte {error.start})") from None


def _changed(path: Path, read: os.stat_result) -> bool:
    """Whether ``path`` is no longer the file that was read (replaced, resized or rewritten)."""
    try:
        now = os.stat(path)
    except OSError:
        return True
    fields = ("st_dev", "st_ino", "st_size", "st_mtime_ns")
    return any(getattr(now, f) != getattr(read, f) for f in fields)


@main.command()
@click.argument("path", type=FilePath(), required=False)
@click.option(
    "--max-differences",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="How many differences beyond validity to print.",
)
def verify(path: str | None, max_differences: int) -> None:
    """Prove the book at PATH (default: every packaged book, the 3x3 and the 3x3 misère one),
    then compare it with a fresh build.

    First the proof every reader runs (docs/book-format.md, "A valid book"): the first failing
    step's reason code. Then, beyond validity, a fresh solve of the same rules: the trap order
    of every entry, counts, trap_rates, symmetry names, and the exact bytes `build` writes.
    Exit status: 0 valid and exact; 1 invalid, or valid but not exact; 3 unreadable.
    """
    from generator.verify import verify_book
    from player.book import default_book_path

    paths = [path] if path is not None else [default_book_path(), default_book_path(misere=True)]
    exact = True
    for where in paths:
        try:
            report = verify_book(where)
        except BookError as error:  # it cannot be read at all: status 3, as for every command
            raise InputProblem(str(error)) from None
        exact = _print_report(report, max_differences) and exact
    if not exact:
        sys.exit(NEGATIVE)


def _print_report(report: Report, max_differences: int) -> bool:
    """Print one book's verdict; whether it is valid and exact."""
    if report.invalid is not None:
        echo(f"{report.path}: INVALID [{report.invalid.code}] {report.invalid.reason}")
        return False
    proved = f"{report.path}: valid — every one of {report.entries} entries proven from its successors"
    if report.skipped is not None:
        echo(f"{proved}; beyond validity: not checked ({report.skipped})")
        return True
    if report.ok:
        echo(f"{proved}; beyond validity: trap order, counts, trap_rates and bytes as built")
        return True
    shown = report.differences[:max_differences]
    more = len(report.differences) - len(shown)
    echo(
        f"{proved}; beyond validity: {len(report.differences)} difference(s) from a fresh build"
        + (f", the first {len(shown)}:" if more else ":")
    )
    for line in shown:
        echo(f"  {line}")
    return False


@main.command()
@click.option(
    "--side",
    type=click.Choice([FIRST, SECOND], case_sensitive=False),
    default=None,
    help="Draw the book's play for this side (X moves first).",
)
@click.option(
    "--teaching",
    is_flag=True,
    help="Draw the teaching figure instead: every first move and reply, its value and the book's move.",
)
@click.option("--no-fold", is_flag=True, help="Draw every reply, mirror images too (poster only).")
@click.option("-o", "--output", type=FilePath(), required=True, help="Where to write the SVG.")
@BOOK_OPTION
def poster(side: str | None, teaching: bool, no_fold: bool, output: str, book_path: str | None) -> None:
    """Draw the book's whole strategy for one side as an SVG poster (A3), nested boards in the
    style of xkcd 832: the side's move in red, and in each cell where the opponent can reply a
    smaller board with the side's answer, until every game ends. Replies that mirror one
    another on a symmetric board are drawn once; the others are shaded "mirror".

    With --teaching, draw instead one figure of X's three distinct first moves (corner, edge,
    centre) and O's distinct replies, each with its value and the book's move.
    """
    from generator.poster import BOARD_TAG, poster_tree, render_poster, render_teaching, teaching_rows

    if teaching == (side is not None):
        raise click.UsageError("give --side X, --side O or --teaching (one of them)")
    if teaching and no_fold:
        raise click.UsageError("--no-fold does nothing with --teaching")
    if output == "-":
        raise click.BadParameter(
            "'-' (standard output) is not offered: name a file", param_hint="'-o' / '--output'"
        )
    path = Path(output)
    try:
        target(path)
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    book = _load(book_path, Rules())
    with book_in_use(book):
        if side is None:
            svg = render_teaching(teaching_rows(book), book.rules)
            what = "the teaching figure"
        else:
            side = side.upper()
            tree = poster_tree(book, side, fold=not no_fold)
            svg = render_poster(tree, book.rules, side)
            what = f"the poster for {side}"
    data = svg.encode()
    try:
        write_files({path: data})
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    echo(f"wrote {what} to {output}: {len(data):,} bytes, {svg.count(BOARD_TAG):,} boards")


class ProgramProblem(click.ClickException):
    """The audited program will not run: status 2, as for a usage error (docs/reliability.md)."""

    exit_code = 2


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--callable",
    "function",
    metavar="MODULE:FUNCTION",
    default=None,
    help="Audit a Python function f(board) -> cell in this process instead of a command.",
)
@click.option(
    "--repeat",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Ask about each position this many times, to catch a program whose answers vary.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.01, 600),
    default=5.0,
    show_default=True,
    help="Seconds the command has to answer one board.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--max-lines",
    type=click.IntRange(0),
    default=50,
    show_default=True,
    help="Items shown per section of the readable report (--json lists every one).",
)
@BOOK_OPTION
def audit(
    command: tuple[str, ...],
    function: str | None,
    repeat: int,
    timeout: float,
    as_json: bool,
    max_lines: int,
    book_path: str | None,
) -> None:
    """Grade a tic-tac-toe program against the book: ttt-book audit -- COMMAND [ARGS...].

    The program reads one board per line (X, O and . in reading order, X moved first, the side to
    move given by the counts) and writes one line holding the cell it plays, 0-8 in reading
    order. The audit plays it on both sides against every line of opposing play and reports
    every loss (a line of moves from the empty board), missed and slower wins, draws thrown
    away, illegal or unreadable answers, time-outs and crashes, and its exact win / draw / loss
    rates against the random and novice opponents and the book's own player.

    Exit status: 0 it never loses; 1 it can lose (a losing line, or a failure, which forfeits);
    2 a usage error, or the program will not run; 3 the book cannot be used.
    """
    from generator.audit import CallableProgram, ProcessProgram, ProgramWontRun, load_callable, render
    from generator.audit import audit as run_audit

    if bool(command) == bool(function):
        raise click.UsageError("give a COMMAND after --, or --callable MODULE:FUNCTION (not both)")
    book = _load(book_path, None)
    if function is not None:
        try:
            program: CallableProgram | ProcessProgram = CallableProgram(load_callable(function))
        except ValueError as error:
            raise ProgramProblem(str(error)) from None
        name = function
    else:
        program, name = ProcessProgram(list(command), timeout=timeout), " ".join(command)
    try:
        with book_in_use(book):
            report = run_audit(program, book, repeat=repeat)
    except ProgramWontRun as error:
        raise ProgramProblem(str(error)) from None
    if as_json:
        echo(json.dumps({"program": name, **report.as_json()}, sort_keys=True))
    else:
        echo(render(report, name, max_lines=max_lines))
    if report.can_lose:
        click.get_current_context().exit(NEGATIVE)


@main.command()
@click.option(
    "--lang",
    type=click.Choice(["c", "rust"], case_sensitive=False),
    required=True,
    help="c: tictactoe_book.h and .c (C99); rust: tictactoe_book.rs (no crates).",
)
@click.option(
    "--strategy",
    type=click.Choice([FIRST, SECOND], case_sensitive=False),
    default=None,
    help="C only: just the positions this side can face while it follows the book's top tier, one "
    "move each (tictactoe_x.h and .c, or _o), for a microcontroller.",
)
@click.option(
    "-o",
    "--output",
    "folder",
    type=FilePath(),
    required=True,
    help="The folder to write into (it must exist).",
)
@BOOK_OPTION
def export(lang: str, strategy: str | None, folder: str, book_path: str | None) -> None:
    """Write the book as source code: static tables and a few functions, no JSON to parse.

    The book is proven first, like every book a reader is given. The files are written to
    FOLDER all at once (or not at all), and the same book always gives the same bytes.
    Boards of any size up to 200,000 entries (3x4 is 20,088; a 4x4 book is refused).
    docs/porting.md, "Exports", describes the API.
    """
    from generator.export_c import c_book, c_strategy
    from generator.export_rust import rust_book
    from generator.export_tables import ExportTooLarge, full_table, strategy_table

    lang = lang.lower()
    if strategy is not None and lang != "c":
        raise click.UsageError("--strategy is offered for --lang c only")
    directory = Path(folder)
    if not directory.is_dir():
        raise OutputProblem(f"cannot write into {folder}: there is no such folder")
    book = _load(book_path, None)
    try:
        with book_in_use(book):
            if strategy is not None:
                files = c_strategy(strategy_table(book, strategy.upper()))
            else:
                table = full_table(book)
                files = c_book(table) if lang == "c" else rust_book(table)
    except ExportTooLarge as error:
        raise InputProblem(f"{book.source}: {error}") from None
    try:
        check_targets([directory / name for name in files])
        write_files({directory / name: text.encode() for name, text in sorted(files.items())})
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    for name, text in sorted(files.items()):
        echo(f"wrote {directory / name}: {len(text.encode()):,} bytes")
