"""``ttt-book split``: a version-2 book written as a book by parts (docs/book-parts.md), a
command of ``ttt-book``'s (tictactoe_generator.cli adds it to the group); and ``ttt-book build
--parts``'s part of the command line."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from tictactoe_book.apps.console import Command, FilePath, echo, exit_statuses
from tictactoe_book.game import Rules
from tictactoe_book.parts import is_book_by_parts
from tictactoe_book.reader import MAX_BOOK_CELLS
from tictactoe_generator import build_tools
from tictactoe_generator.atomic import finish_once_written
from tictactoe_generator.atomic_folder import folder_target
from tictactoe_generator.options import BOOK_OPTION, open_book

if TYPE_CHECKING:
    from tictactoe_generator.engines import Engine


@click.command(cls=Command, epilog=exit_statuses())
@click.argument("folder", type=FilePath(folder=True))
@BOOK_OPTION
def split(folder: str, book_path: str | None) -> None:
    """Write a book as a book by parts, in a folder.

    The book (--book, default: the packaged one) is proven, then written into FOLDER as
    manifest.json and its parts: zlib streams of the entries of one layer and range of keys
    each (docs/book-parts.md).

    Given the folder as --book, the players and queries read only the parts a position needs;
    verify proves it part by part.

    \b
    Examples:
      $ ttt-book split tictactoe-parts && ttt-book verify tictactoe-parts
    """
    from tictactoe_generator.parts import split_book

    folder_target(folder)  # before the proof: a file where the folder should be fails at once
    book = open_book(book_path)
    with finish_once_written():
        files = split_book(book, folder)
    size = sum(map(len, files.values()))
    echo(f"wrote {folder}: {len(files) - 1} parts and manifest.json, {size:,} bytes, {book.rules}")


def build_by_parts(output: str, rules: Rules, against: str, engine: str, scheduler: str | None) -> None:
    """``ttt-book build --parts``: the book by parts of ``rules`` built into the folder
    ``output`` by layers, in this process or on Dask (``engine``, its ``scheduler``), its bars
    on a terminal and its report."""
    from tictactoe_generator.engines import LOCAL
    from tictactoe_generator.layered import write_parts
    from tictactoe_generator.progress import stage_bars
    from tictactoe_generator.trap import TOLERANCE_TEXT, Margins

    margins = Margins()
    with contextlib.ExitStack() as stack:
        on = None
        if engine == "dask":
            from tictactoe_generator.cluster import dask_engine

            on = stack.enter_context(dask_engine(scheduler))
        stack.enter_context(finish_once_written())
        stack.enter_context(kept_on_interruption(output))
        with stage_bars() as bars:
            files = write_parts(
                output, rules, against=against, progress=bars, margins=margins, engine=on or LOCAL, told=note
            )
        size = sum(map(len, files.values()))
        echo(f"wrote {output}: {len(files) - 1} parts and manifest.json, {size:,} bytes, {rules}")
        if on is not None:
            echo(on.report())
        if margins.tied or margins.apart < math.inf:  # (the float method: none up to 16 cells)
            echo(
                f"trap order in float64, ties within a relative {TOLERANCE_TEXT}: the largest difference "
                f"called a tie {margins.tied:.1e}, the smallest called distinct {margins.apart:.1e}"
            )


def note(text: str) -> None:
    """A line on standard error, before a progress bar draws."""
    click.echo(text, err=True)


@contextlib.contextmanager
def kept_on_interruption(output: str) -> Iterator[None]:
    """A line on standard error when a build by parts is interrupted or fails with its work
    kept: where, and that the same command resumes it."""
    try:
        yield
    except BaseException:
        from tictactoe_generator.layer_tasks import STATE
        from tictactoe_generator.layered import resumable_path

        work = resumable_path(folder_target(output))
        if (work / STATE).is_file():
            note(f"the layers built so far are kept in {work}: the same command resumes the build")
        raise


def checked_parts_options(ctx: click.Context, rules: Rules) -> None:
    """A usage error for ``build`` options that cannot go with --parts or without it."""
    params = ctx.params
    if not params["parts"] and params["engine"] != "local":
        raise click.UsageError("--engine dask builds a book by parts: add --parts -o FOLDER")
    if params["scheduler"] is not None and params["engine"] != "dask":
        raise click.UsageError("--scheduler is for --engine dask")
    if params["parts"]:
        if params["against_program"] or params["command"]:
            raise click.UsageError(
                "--parts and --against-program do not go together (boards of up to 12 cells)"
            )
        if params["vectors"] is not None:
            raise click.UsageError("--vectors is for a book in one file; a book by parts has none")
        if ctx.get_parameter_source("output") is click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--parts writes a folder: name it with -o FOLDER")
    elif rules.cells > MAX_BOOK_CELLS:
        raise click.UsageError(
            f"{rules} has {rules.cells} cells; at most {MAX_BOOK_CELLS} in a book in one file: "
            "add --parts -o FOLDER to build a book by parts"
        )


@contextlib.contextmanager
def engine_for(engine: str, scheduler: str | None, path: str | None) -> Iterator[Engine | None]:
    """``verify``'s engine: None (this process), or Dask's, for a book by parts only; a usage
    error for --scheduler without Dask, or Dask for a book in one file."""
    if scheduler is not None and engine != "dask":
        raise click.UsageError("--scheduler is for --engine dask")
    if engine != "dask":
        yield None
        return
    if path is None or not is_book_by_parts(path):
        raise click.UsageError("--engine dask proves a book by parts: name its folder")
    build_tools()
    from tictactoe_generator.cluster import dask_engine

    with dask_engine(scheduler) as on:
        yield on
