"""``ttt-book``'s part for a program run under the audit's contract: the options ``audit`` and
``build --against-program`` share, the audit (generator/tictactoe_generator/reports/audit.py does the work)
and
``build --against-program`` (generator/tictactoe_generator/reports/target.py does it): each checks its
options and
prints what it found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tictactoe_book.apps.console import echo
from tictactoe_book.apps.options import Seconds
from tictactoe_book.errors import echoed
from tictactoe_book.game import Rules
from tictactoe_generator import build_tools
from tictactoe_generator.atomic import fingerprint, finish_once_written, target, write_files, written
from tictactoe_generator.reports import MAX_CELLS, STARTUP

if TYPE_CHECKING:
    from tictactoe_book.reader import Book

REPEAT_OPTION = click.option(
    "--repeat",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Ask the program about each position this many times, for one whose answers vary.",
)
TIMEOUT_OPTION = click.option(
    "--timeout",
    type=Seconds(0.01, 600),
    default=5.0,
    show_default=True,
    help="Seconds the program has to answer one board (more forfeits the game).",
)
STARTUP_OPTION = click.option(
    "--startup",
    type=Seconds(0, 600),
    default=STARTUP,
    show_default=True,
    help="Seconds the program may take to start, on top of --timeout for the first board after "
    "each start (its start-up is not charged to its first answer).",
)


def build_against_program(
    ctx: click.Context,
    output: str,
    rules: Rules,
    command: tuple[str, ...],
    repeat: int,
    timeout: float,
    startup: float,
) -> None:
    """``build --against-program``: the book ranked to beat ``command``, and how often it does."""
    if not ctx.params["against_program"]:
        raise click.UsageError(
            f"unexpected argument {echoed(command[0])} (a program to beat: --against-program --)"
        )
    if not command:
        raise click.UsageError("--against-program needs the program after --: -o BOOK -- COMMAND")
    for name in ("vectors", "no_vectors", "against", "output"):
        given = ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        if given != (name == "output"):
            wrong = "is required" if name == "output" else "does nothing"
            raise click.UsageError(f"--{name.replace('_', '-')} {wrong} with --against-program")
    if rules.cells > MAX_CELLS:
        raise click.UsageError(
            f"--against-program works out boards of at most {MAX_CELLS} cells, not {rules}"
        )
    target(Path(output))  # a folder in the way, no write access: before the solve and the program
    writer = build_tools()  # numpy, which the target's solve needs, or one line naming its install
    from tictactoe_generator.reports.program import ProcessProgram
    from tictactoe_generator.reports.target import render, target_program

    targeted = target_program(
        ProcessProgram(list(command), timeout=timeout, startup=startup),
        rules,
        " ".join(command),
        repeat=repeat,
    )
    data: bytes = writer.encode(targeted.document)
    with finish_once_written():
        before = fingerprint(Path(output))
        write_files({Path(output): data})
        echo(f"{written(output, before, data)}: {len(data):,} bytes, {render(targeted, repeat)}")


def audit_program(
    book: Book,
    command: tuple[str, ...],
    function: str | None,
    repeat: int,
    timeout: float,
    startup: float,
    *,
    as_json: bool,
    max_lines: int,
) -> bool:
    """``audit``: ``command`` (or the Python ``function``, MODULE:NAME) judged against ``book``,
    its report printed; whether it can lose."""
    from tictactoe_book.apps.console import book_in_use
    from tictactoe_generator.reports.audit import audit, render
    from tictactoe_generator.reports.program import CallableProgram, ProcessProgram, load_callable

    if function is not None:
        program: CallableProgram | ProcessProgram = CallableProgram(load_callable(function))
        name = function
    else:
        program = ProcessProgram(list(command), timeout=timeout, startup=startup)
        name = " ".join(command)
    with book_in_use(book):
        report = audit(program, book, repeat=repeat)
    if as_json:
        echo(json.dumps({"program": name, **report.as_json()}, sort_keys=True))
    else:
        echo(render(report, name, max_lines=max_lines))
    return report.can_lose
