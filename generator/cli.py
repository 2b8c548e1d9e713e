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
from typing import Any

import click

from generator.atomic import (
    InputFileError,
    OutputError,
    check_targets,
    read_regular_file,
    target,
    write_files,
)
from generator.book import write_book
from generator.solve import SOLVER_MAX_CELLS
from player import __version__
from player.board import FIRST, SECOND, parse_board, render
from player.book import Book, Evaluation, load_book
from player.console import NEGATIVE, FilePath, InputProblem, OutputProblem, book_in_use, echo, run_cli
from player.errors import BoardError, BookError
from player.rules import Rules, RulesError
from player.score import VALUE_WORDS, outcome_words

DEFAULT_BOOK = Path("book") / "tictactoe.json"
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
    help="Board shape and line length, as ROWSxCOLS:K.",
)
@click.option(
    "--vectors",
    type=FilePath(),
    default=None,
    help="Also write conformance vectors here (default, for 3x3 only: vectors.json beside a book "
    "named tictactoe.json, NAME.vectors.json beside any other NAME.json).",
)
@click.option("--no-vectors", is_flag=True, help="Do not write conformance vectors.")
def build(output: str, rules: Rules, vectors: str | None, no_vectors: bool) -> None:
    """Solve the game and write the book (and its conformance vectors)."""
    for name, value in (("'-o' / '--output'", output), ("'--vectors'", vectors)):
        if value == "-":
            raise click.BadParameter("'-' (standard output) is not offered: name a file", param_hint=name)
    if no_vectors and vectors is not None:
        raise click.UsageError("--vectors and --no-vectors contradict each other")
    if rules.cells > SOLVER_MAX_CELLS:
        raise click.BadParameter(
            f"{rules} has {rules.cells} cells; the solver stops at {SOLVER_MAX_CELLS}", param_hint="'--rules'"
        )
    if rules.misere:
        raise click.BadParameter(
            f"{rules}: the build writes books of normal rules only", param_hint="'--rules'"
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
    try:
        data, vector_data = write_book(book_path, rules, vectors_path)
    except OutputError as error:
        raise OutputProblem(str(error)) from None
    elapsed = time.perf_counter() - started
    echo(
        f"{'replaced' if existed[0] else 'wrote'} {book_path}: {len(data):,} bytes "
        f"({len(gzip.compress(data, 9)):,} gzipped), {rules}, in {elapsed:.2f} s"
    )
    if vector_data is not None:
        echo(f"{'replaced' if existed[1] else 'wrote'} {vectors_path}: {len(vector_data):,} bytes")


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
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def query(board: str, book_path: str | None, first: str, as_json: bool) -> None:
    """Show the book's entry for BOARD, in BOARD's own orientation.

    BOARD lists the cells in reading order: X, O and . (or -) for empty, e.g. X.O.X.... or
    "X.O/.X./...". Cells are numbered from 0 in reading order, as in the book.
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
    """A readable page for one board."""
    turn = evaluation.turn
    lines = [
        render(board, rules),
        "",
        f"{turn} to move: {outcome_words(evaluation.value, evaluation.plies)} with best play "
        f"(plies to the end, this move included)",
        f"canonical key {evaluation.key} via {evaluation.symmetry.name}",
        "optimal moves, trap order (best first): "
        + " | ".join(" ".join(str(c) for c in tier) for tier in evaluation.tiers),
        "every move (cell: outcome for the side to move):",
    ]
    for cell in sorted(evaluation.scores):
        value, plies = evaluation.outcome(cell)
        lines.append(f"  {cell}: {outcome_words(value, plies)}")
    return "\n".join(lines)


def run(argv: list[str] | None = None) -> None:
    """Console entry: the exit-status table of docs/reliability.md, never a traceback."""
    run_cli(main, "ttt-book", argv)


@main.command()
@BOOK_OPTION
@click.option(
    "--update",
    "readme",
    type=FilePath(),
    default=None,
    help="Replace the table between its markers in this file (e.g. README.md), keeping its mode.",
)
def levels(book_path: str | None, readme: str | None) -> None:
    """Print each play level's exact win / draw / loss percentages against the reference
    opponents (random and novice), computed by enumerating every game."""
    from generator.levels_table import TableMarkerError, markdown_table, replace_table

    if readme is None:
        book = _load(book_path, Rules())
        with book_in_use(book):
            echo(markdown_table(book))
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
    with book_in_use(book):
        table = markdown_table(book)
    updated = replace_table(text, table, path)
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
    """Prove the book at PATH (default: the packaged book), then compare it with a fresh build.

    First the proof every reader runs (docs/book-format.md, "A valid book"): the first failing
    step's reason code. Then, beyond validity, a fresh solve of the same rules: the trap order
    of every entry, counts, trap_rates, symmetry names, and the exact bytes `build` writes.
    Exit status: 0 valid and exact; 1 invalid, or valid but not exact; 3 unreadable.
    """
    from generator.verify import verify_book

    try:
        report = verify_book(path)
    except BookError as error:  # it cannot be read at all: status 3, as for every command
        raise InputProblem(str(error)) from None
    if report.invalid is not None:
        echo(f"{report.path}: INVALID [{report.invalid.code}] {report.invalid.reason}")
        sys.exit(NEGATIVE)
    proved = f"{report.path}: valid — every one of {report.entries} entries proven from its successors"
    if report.skipped is not None:
        echo(f"{proved}; beyond validity: not checked ({report.skipped})")
        return
    if report.ok:
        echo(f"{proved}; beyond validity: trap order, counts, trap_rates and bytes as built")
        return
    shown = report.differences[:max_differences]
    more = len(report.differences) - len(shown)
    echo(
        f"{proved}; beyond validity: {len(report.differences)} difference(s) from a fresh build"
        + (f", the first {len(shown)}:" if more else ":")
    )
    for line in shown:
        echo(f"  {line}")
    sys.exit(NEGATIVE)
