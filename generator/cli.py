"""``ttt-book``: build, query and verify the book from the command line.

A thin layer: each command parses its options, calls the library, and prints.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from generator.atomic import write_atomically
from generator.book import write_book
from generator.solve import SOLVER_MAX_CELLS
from player import __version__
from player.board import FIRST, SECOND, parse_board, render
from player.book import Book, Evaluation, load_book
from player.errors import BoardError, BookError
from player.rules import Rules, RulesError
from player.score import VALUE_WORDS, outcome_words

DEFAULT_BOOK = Path("book") / "tictactoe.json"
BOOK_OPTION = click.option(
    "--book",
    "book_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    envvar="TTT_BOOK",
    help="Book file (default: the packaged book). Env: TTT_BOOK.",
)


class RulesParam(click.ParamType):  # type: ignore[type-arg]
    """``3x3``, ``3x4:3``: rows x cols, optionally ``:k``."""

    name = "RxC[:K]"

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
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_BOOK,
    show_default=True,
    help="Where to write the book (atomically).",
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
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write conformance vectors here (default: vectors.json beside the book, for 3x3 only).",
)
@click.option("--no-vectors", is_flag=True, help="Do not write conformance vectors.")
def build(output: Path, rules: Rules, vectors: Path | None, no_vectors: bool) -> None:
    """Solve the game and write the book (and its conformance vectors)."""
    if no_vectors:
        vectors = None
    elif vectors is None and rules == Rules():
        vectors = output.with_name("vectors.json")
    if rules.cells > SOLVER_MAX_CELLS:
        raise click.BadParameter(
            f"{rules} has {rules.cells} cells; the solver stops at {SOLVER_MAX_CELLS}", param_hint="'--rules'"
        )
    started = time.perf_counter()
    try:
        data, vector_data = write_book(output, rules, vectors)
    except OSError as error:
        raise click.ClickException(
            f"cannot write {error.filename or output}: {error.strerror or error}"
        ) from None
    elapsed = time.perf_counter() - started
    click.echo(
        f"wrote {output}: {len(data):,} bytes ({len(gzip.compress(data, 9)):,} gzipped), "
        f"{rules}, in {elapsed:.2f} s"
    )
    if vector_data is not None:
        click.echo(f"wrote {vectors}: {len(vector_data):,} bytes")


def _load(path: Path | None, rules: Rules | None) -> Book:
    try:
        return load_book(path, rules=rules)
    except BookError as error:
        raise click.ClickException(str(error)) from None


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
def query(board: str, book_path: Path | None, first: str, as_json: bool) -> None:
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
    if as_json:
        click.echo(json.dumps(evaluation_json(evaluation, cells, first), sort_keys=True))
    else:
        click.echo(describe(evaluation, cells, first, book.rules))


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


def run() -> None:
    """Console entry point with a clean exit on Ctrl-C."""
    try:
        main()
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)


@main.command()
@BOOK_OPTION
@click.option(
    "--update",
    "readme",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Replace the table between its markers in this file (e.g. README.md).",
)
def levels(book_path: Path | None, readme: Path | None) -> None:
    """Print each play level's exact win / draw / loss percentages against the reference
    opponents (random and novice), computed by enumerating every game."""
    from generator.levels_table import END, START, markdown_table

    table = markdown_table(_load(book_path, Rules()))
    if readme is None:
        click.echo(table)
        return
    text = readme.read_text()
    if START not in text or END not in text:
        raise click.ClickException(f"{readme}: no {START} ... {END} markers to replace")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    write_atomically(readme, (before + table + after).encode())
    click.echo(f"updated the levels table in {readme}")


@main.command()
@click.argument("path", type=click.Path(dir_okay=True, path_type=Path), required=False)
@click.option(
    "--max-differences",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="How many differences beyond validity to print.",
)
def verify(path: Path | None, max_differences: int) -> None:
    """Prove the book at PATH (default: the packaged book), then compare it with a fresh build.

    First the proof every reader runs (docs/book-format.md, "A valid book"): the first failing
    step's reason code. Then, beyond validity, a fresh solve of the same rules: the trap order
    of every entry, counts, trap_rates, symmetry names, and the exact bytes `build` writes.
    Exit status: 0 valid and exact; 1 invalid, or valid but not exact; 3 unreadable.
    """
    from generator.verify import verify_book

    try:
        report = verify_book(path)
    except BookError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(3)
    if report.invalid is not None:
        click.echo(f"{report.path}: INVALID [{report.invalid.code}] {report.invalid.reason}")
        sys.exit(1)
    proved = f"{report.path}: valid — every one of {report.entries} entries proven from its successors"
    if report.skipped is not None:
        click.echo(f"{proved}; beyond validity: not checked ({report.skipped})")
        return
    if report.ok:
        click.echo(f"{proved}; beyond validity: trap order, counts, trap_rates and bytes as built")
        return
    shown = report.differences[:max_differences]
    more = len(report.differences) - len(shown)
    click.echo(
        f"{proved}; beyond validity: {len(report.differences)} difference(s) from a fresh build"
        + (f", the first {len(shown)}:" if more else ":")
    )
    for line in shown:
        click.echo(f"  {line}")
    sys.exit(1)
