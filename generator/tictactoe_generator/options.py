"""The options and arguments several ``ttt-book`` commands share: the book to read (``--book``,
opened with its load's progress shown), the rules to build, and files that must be files."""

from __future__ import annotations

from typing import Any

import click

from tictactoe_book.apps.console import FilePath
from tictactoe_book.apps.progress import loading
from tictactoe_book.errors import RulesError
from tictactoe_book.game import Rules
from tictactoe_book.reader import Book, load_book

BOOK_OPTION = click.option(
    "--book",
    "book_path",
    type=FilePath(),
    default=None,
    envvar="TTT_BOOK",
    help="Book file (default: the packaged book). Env: TTT_BOOK (empty: unset).",
)


def open_book(path: str | None, *, rules: Rules | None = None) -> Book:
    """The book at ``path`` (None: the packaged one), proven unless proven before, what its load
    is doing shown on a terminal (``tictactoe_book.apps.progress.loading``)."""
    with loading(path) as shown:
        return load_book(path, rules=rules, progress=shown)


def not_standard_output(name: str, value: str | None) -> None:
    """A usage error for ``-`` as a file name: the commands write files, not standard output."""
    if value == "-":
        raise click.BadParameter("'-' (standard output) is not offered: name a file", param_hint=name)


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


#: ttt-book build and verify --engine: what runs a book by parts' build or proof.
ENGINE_OPTION = click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="What runs the build or the proof of a book by parts: this process, or Dask (the cluster "
    "extra): the workers of --scheduler, or a cluster of two worker processes on this machine. On "
    "Dask, an interrupted build resumes from its last finished layer when run again.",
)


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An address with something in it (an empty one read "no Dask scheduler answers at :")."""
    if value is not None and not value.strip():
        raise click.BadParameter("give the scheduler's address, such as tcp://HOST:8786")
    return value


#: ttt-book build and verify --scheduler: the Dask scheduler of --engine dask.
SCHEDULER_OPTION = click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    callback=_address,
    help="The Dask scheduler to build on (tcp://HOST:8786), with --engine dask; its workers "
    "share the folder -o names with this machine.",
)
