"""``ttt-book``: build, query, verify and report on the book from the command line.

A thin layer over the library: each command parses its options, calls a function of
generator/ or player/, and prints what it returns. Each command imports what it needs when it
runs (imports inside each command's function; click's commands themselves are registered as
usual): the build's solver needs numpy (``tictactoe_generator.build_tools``),
which no other command does. The library's errors end the command with one line and the status
of player/tictactoe_book/apps/console.py's table.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tictactoe_book import __version__, reader
from tictactoe_book.apps.console import (
    NEGATIVE,
    FilePath,
    Group,
    InputProblem,
    echo,
    exit_statuses,
    run_cli,
)
from tictactoe_book.apps.options import OPPONENT
from tictactoe_book.apps.progress import loading, progress
from tictactoe_book.errors import BoardError, SameFileError
from tictactoe_book.game import FIRST, SECOND, Rules, parse_board
from tictactoe_book.opponents import DEFAULT, described
from tictactoe_book.reader import Book
from tictactoe_generator import build_tools, reports
from tictactoe_generator.against_program import (
    REPEAT_OPTION,
    STARTUP_OPTION,
    TIMEOUT_OPTION,
    audit_program,
    build_against_program,
)
from tictactoe_generator.atomic import finish_once_written, target, write_files
from tictactoe_generator.export_cli import export
from tictactoe_generator.options import (
    BOOK_OPTION,
    ENGINE_OPTION,
    SCHEDULER_OPTION,
    RulesParam,
    not_standard_output,
    open_book,
)
from tictactoe_generator.parts_cli import build_by_parts, checked_parts_options, engine_for, split

if TYPE_CHECKING:
    from tictactoe_book.book_format import Progress

DEFAULT_BOOK = Path("book") / "tictactoe.json"
PROGRESS_LABEL = "Enumerating every game"


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=exit_statuses())
@click.version_option(__version__, prog_name="ttt-book")
def main() -> None:
    """Build, query and verify the tic-tac-toe book."""


def run(argv: list[str] | None = None) -> None:
    """Console entry: the exit-status table of docs/reliability.md, never a traceback."""
    run_cli(main, "ttt-book", argv)


@main.command(epilog=exit_statuses())
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
    help="Board shape and line length, as ROWSxCOLS:K (up to 20 cells; over 16, a book by parts); K "
    "left out is the shorter side (4x4 is 4x4:4, 3x4 is 3x4:3); :misere after it for misère.",
)
@click.option("--misere", is_flag=True, help="Misère: completing a line loses (the same as RULES:misere).")
@click.option(
    "--vectors",
    type=FilePath(),
    default=None,
    help="Also write conformance vectors here (every board up to 12 cells, a sample beyond). "
    "Unasked, only the repository's book gets them: the 3x3 book named tictactoe.json, with "
    "vectors.json beside it.",
)
@click.option("--no-vectors", is_flag=True, help="Do not write conformance vectors.")
@click.option(
    "--parts",
    is_flag=True,
    help="Write a book by parts into the folder -o names (docs/book-parts.md), built a layer at a "
    "time with the layers not in use on disk; the only way past 16 cells. No vectors.",
)
@ENGINE_OPTION
@SCHEDULER_OPTION
@click.option(
    "--against",
    type=OPPONENT,
    default=DEFAULT,
    show_default=True,
    help=f"The reference opponent the trap order ranks the optimal moves against first: {described()}.",
)
@click.option(
    "--against-program",
    is_flag=True,
    help="Rank against the program given after -- (the audit's contract: a board per line in, "
    "a cell per line out): the book then beats it as often as a never-losing player can. "
    "Boards of up to 12 cells; -o is required; no vectors.",
)
@REPEAT_OPTION
@TIMEOUT_OPTION
@STARTUP_OPTION
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def build(
    ctx: click.Context,
    output: str,
    rules: Rules,
    misere: bool,
    vectors: str | None,
    no_vectors: bool,
    parts: bool,
    engine: str,
    scheduler: str | None,
    against: str,
    against_program: bool,
    repeat: int,
    timeout: float,
    startup: float,
    command: tuple[str, ...],
) -> None:
    """Solve the game and write the book (and its conformance vectors).

    Any board of up to 16 cells, normal or misère: 4x4 takes seconds and about a gigabyte. On a
    terminal, a bar shows each stage of a long build.

    With --parts, a book by parts in the folder -o names, up to 20 cells: 4x4 in seconds, 4x5
    k=4 in about an hour and 10 GB (docs/benchmarks.md). Prove it with ttt-book verify FOLDER.

    ttt-book build --against-program -o BOOK -- COMMAND [ARGS...] writes the book that beats
    that program as often as it can be beaten without ever losing, and says how often.

    \b
    Examples:
      $ ttt-book build -o mybook.json
      $ ttt-book build --misere -o misere.json
      $ ttt-book build --rules 2x9:2 --parts -o 2x9-parts
      $ ttt-book build --rules 3x4:3 --parts --engine dask -o 3x4-parts
    """
    from tictactoe_generator.progress import stage_bars

    rules = checked_build_options(ctx, rules, misere)
    if against_program or command:
        build_against_program(ctx, output, rules, command, repeat, timeout, startup)
        return
    build_tools()  # numpy and orjson, or one line naming what installs them
    if parts:
        build_by_parts(output, rules, against, engine, scheduler)
        return
    from tictactoe_generator.build import build_files

    with finish_once_written():  # Ctrl-C once the files are renamed into place: the report, 0
        try:
            with stage_bars() as bars:
                vectors_path = Path(vectors) if vectors else None
                written = build_files(
                    Path(output), rules, vectors_path, no_vectors=no_vectors, against=against, progress=bars
                )
        except SameFileError:
            raise click.UsageError(
                f"--output and --vectors both name {output}; give two different files"
            ) from None
        echo(written.report())


def checked_build_options(ctx: click.Context, rules: Rules, misere: bool) -> Rules:
    """The rules ``build`` was asked for; a usage error for options that cannot go together."""
    params = ctx.params
    not_standard_output("'-o' / '--output'", params["output"])
    not_standard_output("'--vectors'", params["vectors"])
    if params["no_vectors"] and params["vectors"] is not None:
        raise click.UsageError("--vectors and --no-vectors contradict each other")
    checked_parts_options(ctx, rules)
    if not (params["against_program"] or params["command"]):
        for name in ("repeat", "timeout", "startup"):
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
                raise click.UsageError(f"--{name} is for --against-program")
    return dataclasses.replace(rules, misere=True) if misere else rules


@main.command(epilog=exit_statuses())
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

    \b
    Examples:
      $ ttt-book query "X.O/.X./..."
      $ ttt-book query --json --first O "OO.X....."
    """
    from tictactoe_generator.reports.query import describe, evaluation_json

    book = open_book(book_path)
    first = first.upper()
    try:
        cells = parse_board(board, book.rules, first)
        evaluation = book.evaluate(cells, first=first)
    except BoardError as error:
        raise click.BadParameter(str(error), param_hint="BOARD") from None
    if as_json:
        echo(json.dumps(evaluation_json(evaluation, cells, first), sort_keys=True))
    else:
        echo(describe(evaluation, cells, first, book.rules))


@main.command(epilog=exit_statuses())
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
@click.option(
    "--exact",
    is_flag=True,
    help="Print each rate as the exact fraction it is (191/192), not a rounded percentage.",
)
def levels(book_path: str | None, markdown: bool, readme: str | None, exact: bool) -> None:
    """Print each level's exact win / draw / loss rates.

    The rates are percentages against the two reference opponents (random and novice),
    computed by enumerating every game (--exact: as fractions). The perfect level is shown
    twice: playing from the book ranked to beat a novice (the default) and from the one ranked
    to beat a random player (what --against random plays in ttt-play); for a --book file, the
    other ranking is built first (the build extra), and a book ranked against a program gets a
    row of its own beside both. The table is aligned for reading, under a legend; --markdown
    prints the README's form. A progress bar shows on standard error while the games are
    enumerated (a few seconds), when it is a terminal.

    \b
    Examples:
      $ ttt-book levels
    """
    from tictactoe_generator.reports import levels as report

    def rates(book: Book) -> Any:
        others = report.other_rankings(book, packaged=book_path is None)
        with progress(report.matches(book, *others), PROGRESS_LABEL) as advance:
            return report.level_rates(book, *others, advance=advance)

    def small_book() -> Book:
        return walkable(open_book(book_path), "the levels are worked out for")

    if exact and (markdown or readme is not None):
        raise click.UsageError("--exact prints the fractions for reading; --markdown and --update round them")
    if readme is None:
        book = small_book()
        table = rates(book)
        shown = report.exact_table(table, book.rules) if exact else report.plain_table(table, book.rules)
        echo(report.markdown_table(book, table) if markdown else shown)
        return
    with finish_once_written():
        if report.update_file(Path(readme), lambda: report.markdown_table(book := small_book(), rates(book))):
            echo(f"updated the levels table in {readme}")
        else:
            echo(f"the levels table in {readme} is already current")


def walkable(book: Book, what: str) -> Book:
    """``book``, if a report that walks every line of play works it out; else one line, 3."""
    if book.rules.cells > reports.MAX_CELLS:
        limit = f"boards of at most {reports.MAX_CELLS} cells"
        raise InputProblem(f"{book.source}: is a book for {book.rules}; {what} {limit}")
    return book


@main.command(
    epilog=exit_statuses(
        success="valid and exact", negative="invalid, or valid but not exact", bad_input="unreadable"
    )
)
@click.argument("path", type=FilePath(), required=False)
@click.option(
    "--max-differences",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="How many differences beyond validity to print.",
)
@ENGINE_OPTION
@SCHEDULER_OPTION
def verify(path: str | None, max_differences: int, engine: str, scheduler: str | None) -> None:
    """Prove a book, then compare it with a fresh build.

    PATH is the book (default: every packaged book: 3x3 and 3x3 misère, each ranked against
    the novice and against a random player). A packaged book is proven too: its CRC-32 record
    detects accidents, not tampering, and is never trusted here.

    First the proof every reader runs (docs/book-format.md, "A valid book"): the first failing
    step's reason code. Then, beyond validity, a fresh solve of the same rules: the trap order
    of every entry, counts, trap_rates, symmetry names, and the exact bytes `build` writes.

    A book by parts (a folder, docs/book-parts.md) is proven a layer at a time; a proof of a
    book over 1 MB that is interrupted (Ctrl-C) resumes, run again, after the last layer it
    proved. With --engine dask, its proof and its fresh build run on Dask, every layer at once.

    \b
    Examples:
      $ ttt-book verify
      $ ttt-book build --rules 3x4:3 -o 3x4.json && ttt-book verify 3x4.json
      $ ttt-book split parts && ttt-book verify parts
    """
    from tictactoe_generator.verify import render, verify_book

    packaged = [reader.default_book_path(misere=m, against=a) for m, a in reader.PACKAGED]
    paths = [path] if path is not None else packaged
    reports = []
    with engine_for(engine, scheduler, path) as on:
        for where in paths:  # (a book that cannot be read: status 3)
            with loading(where) as shown:
                reports.append(verify_book(where, progress=_saying_resumed(where, shown), engine=on))
    for report in reports:
        echo(render(report, max_differences))
    if not all(report.ok for report in reports):
        sys.exit(NEGATIVE)


def _saying_resumed(where: str, shown: Progress) -> Progress:
    """``shown``, after a line on standard error when a proof by parts resumes where an
    interrupted one stopped (``tictactoe_book.parts_proof``)."""

    def told(stage: str, done: int, total: int) -> None:
        if stage == "resume":
            echo(f"{where}: resuming from layer {done} of {total}: layers 0 to {done - 1} were proven "
                 "by an interrupted run", err=True)  # fmt: skip
        shown(stage, done, total)

    return told


@main.command(epilog=exit_statuses())
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
    """Draw the book's strategy for one side as an SVG poster.

    The poster (A3) nests boards in the style of xkcd 832: the side's move in red, and in each
    cell where the opponent can reply a smaller board with the side's answer, until every game
    ends. Replies that mirror one another on a symmetric board are drawn once; the others are
    shaded "mirror".

    With --teaching, draw instead one figure of X's three distinct first moves (corner, edge,
    centre) and O's distinct replies, each with its value and the book's move.

    Both draw the classic game only: 3x3, three in a row, not misère. A book of other rules is
    refused (status 3): on 3x4 the poster for O nests boards seven deep, too small to read on
    one page, and its words ("O never loses") would be false there and under misère.

    \b
    Examples:
      $ ttt-book poster --side X -o x.svg
      $ ttt-book poster --teaching -o teaching.svg
    """
    from tictactoe_generator.reports.poster import (
        BOARD_TAG,
        poster_tree,
        render_poster,
        render_teaching,
        teaching_rows,
    )

    if teaching == (side is not None):
        raise click.UsageError("give --side X, --side O or --teaching (one of them)")
    if teaching and no_fold:
        raise click.UsageError("--no-fold does nothing with --teaching")
    not_standard_output("'-o' / '--output'", output)
    path = target(Path(output))
    book = open_book(book_path, rules=Rules())
    if side is None:
        svg, what = render_teaching(teaching_rows(book), book.rules), "the teaching figure"
    else:
        tree = poster_tree(book, side.upper(), fold=not no_fold)
        svg, what = render_poster(tree, book.rules, side.upper()), f"the poster for {side.upper()}"
    with finish_once_written():
        write_files({path: svg.encode()})
        echo(f"wrote {what} to {output}: {len(svg.encode()):,} bytes, {svg.count(BOARD_TAG):,} boards")


@main.command(
    context_settings={"ignore_unknown_options": True},
    epilog=exit_statuses(
        success="it never loses",
        negative="it can lose (a losing line, or a failure, which forfeits)",
        usage="a usage error, or the program will not run",
        bad_input="the book cannot be used, or is for a board of more than 12 cells",
    ),
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--callable",
    "function",
    metavar="MODULE:FUNCTION",
    default=None,
    help="Audit a Python function f(board) -> cell in this process instead of a command.",
)
@REPEAT_OPTION
@TIMEOUT_OPTION
@STARTUP_OPTION
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
    startup: float,
    as_json: bool,
    max_lines: int,
    book_path: str | None,
) -> None:
    """Grade a tic-tac-toe program against the book.

    ttt-book audit -- COMMAND [ARGS...] runs the program, which reads one board per line (X, O
    and . in reading order, X moved first, the side to move given by the counts) and writes
    one line holding the cell it plays, 0-8 in reading order. The audit plays it on both sides
    against every line of opposing play and reports every loss (a line of moves from the empty
    board), missed and slower wins, draws thrown away, illegal or unreadable answers, time-outs
    and crashes, and its exact win / draw / loss rates against the random and novice opponents
    and the book's own player. Boards of up to 12 cells.

    \b
    Example, a program that plays the first free cell (it can lose, so status 1):
      $ ttt-book audit -- python3 -uc "import sys; [print(b.find('.')) for b in sys.stdin]"
    """
    if bool(command) == bool(function):
        raise click.UsageError("give a COMMAND after --, or --callable MODULE:FUNCTION (not both)")
    book = walkable(open_book(book_path), "the audit judges")  # before the program runs
    if audit_program(book, command, function, repeat, timeout, startup, as_json=as_json, max_lines=max_lines):
        click.get_current_context().exit(NEGATIVE)


main.add_command(split)  # (ttt-book split: tictactoe_generator.parts_cli)
main.add_command(export)  # (ttt-book export: tictactoe_generator.export_cli)
