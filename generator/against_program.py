"""``ttt-book``'s part for a program run under the audit's contract: the options ``audit`` and
``build --against-program`` share, and ``build --against-program`` (generator/reports/target.py
does the work; this checks the options and prints what it found).
"""

from __future__ import annotations

from pathlib import Path

import click

from tictactoe_book.generator import build_tools
from tictactoe_book.generator.atomic import fingerprint, finish_once_written, target, write_files, written
from tictactoe_book.generator.reports import MAX_CELLS, STARTUP
from tictactoe_book.apps.console import echo
from tictactoe_book.apps.options import Seconds
from tictactoe_book.errors import echoed
from tictactoe_book.game import Rules

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
    from tictactoe_book.generator.reports.program import ProcessProgram
    from tictactoe_book.generator.reports.target import render, target_program

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
