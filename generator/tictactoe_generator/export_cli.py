"""``ttt-book export``: the book as C or Rust source (docs/porting.md, "Exports"), a command of
``ttt-book``'s (tictactoe_generator.cli adds it to the group)."""

from __future__ import annotations

import os

import click

from tictactoe_book.apps.console import Command, FilePath, book_in_use, echo, exit_statuses
from tictactoe_book.apps.options import book_choice_options
from tictactoe_book.apps.options import open_book as open_play_book
from tictactoe_book.game import FIRST, SECOND
from tictactoe_book.opponents import described
from tictactoe_generator.atomic import finish_once_written
from tictactoe_generator.atomic_folder import folder_target, write_into
from tictactoe_generator.options import BOOK_OPTION, open_book


@click.command(cls=Command, epilog=exit_statuses())
@click.option(
    "--lang",
    type=click.Choice(["c", "rust"], case_sensitive=False),
    required=True,
    help="c: tictactoe_book.h and .c (C89 or later, C++ too); rust: a crate, Cargo.toml, "
    "src/lib.rs and tests/ (no dependencies).",
)
@click.option(
    "--strategy",
    type=click.Choice([FIRST, SECOND], case_sensitive=False),
    default=None,
    help="C only: just the positions this side can face while it follows the book's top tier, one "
    "move each (tictactoe_x.h and .c, or _o), for a microcontroller.",
)
@click.option(
    "--single-header",
    is_flag=True,
    help="C only: one header, the implementation inside it (stb style): the one C file that "
    "defines TICTACTOE_BOOK_IMPLEMENTATION (or TICTACTOE_X_IMPLEMENTATION) before including it "
    "compiles the tables.",
)
@click.option(
    "--prefix",
    default="ttt",
    show_default=True,
    metavar="NAME",
    help="C only: the start of every name the export defines (NAME_outcome, NAME_CELLS, "
    "NAME_TICTACTOE_BOOK_H...), so that exports with different prefixes (the normal and the "
    "misère book) link into one program, each written to a folder of its own.",
)
@click.option(
    "--crate",
    default="tictactoe-book",
    show_default=True,
    metavar="NAME",
    help="Rust only: the crate's name (used as NAME with '-' read as '_'), so that crates of "
    "different names (the normal and the misère book) are members of one Cargo workspace.",
)
@book_choice_options(
    misere_help="Export the packaged 3x3 misère book (completing a line loses), the one ttt-play "
    "plays with this option; with --book, the book must be a misère one (a usage error otherwise).",
    against_help="Export the packaged book whose top tiers are ranked against this opponent, the "
    f"one ttt-play plays with this option: {described()}. With --book, the book must be ranked so.",
)
@click.option(
    "-o",
    "--output",
    "folder",
    type=FilePath(folder=True),
    required=True,
    metavar="FOLDER",
    help="The folder to write into, created if missing.",
)
@BOOK_OPTION
def export(
    lang: str,
    strategy: str | None,
    single_header: bool,
    prefix: str,
    crate: str,
    misere: bool,
    against: str | None,
    folder: str,
    book_path: str | None,
) -> None:
    """Write the book as C or Rust source: tables and a few functions.

    Static tables, no JSON to parse. The book is proven first, like every book a reader is
    given. The files are written to FOLDER all at once (or not at all), and the same book
    always gives the same bytes.
    Boards of any size up to 200,000 entries (3x4 is 20,088; a 4x4 book is refused).
    docs/porting.md, "Exports", describes the API.

    \b
    Examples:
      $ ttt-book export --lang c -o c-book
      $ ttt-book export --lang c --strategy X --single-header -o c-x
      $ ttt-book export --lang rust -o rust-book
      $ ttt-book export --lang c --prefix mis --misere -o c-misere
    """
    from tictactoe_generator.export import export_files
    from tictactoe_generator.export.c import DEFAULT_PREFIX, check_prefix
    from tictactoe_generator.export.rust import DEFAULT_CRATE, check_crate

    lang = lang.lower()
    if strategy is not None and lang != "c":
        raise click.UsageError("--strategy is offered for --lang c only")
    if single_header and lang != "c":
        raise click.UsageError("--single-header is offered for --lang c only")
    if prefix != DEFAULT_PREFIX and lang != "c":
        raise click.UsageError("--prefix is offered for --lang c only")
    if crate != DEFAULT_CRATE and lang != "rust":
        raise click.UsageError("--crate is offered for --lang rust only")
    for check, value, option in ((check_prefix, prefix, "--prefix"), (check_crate, crate, "--crate")):
        try:
            check(value)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint=option) from None
    folder_target(folder)  # before the proof and the tables: a file in the way, no write access
    # the packaged books as ttt-play picks them: one definition of --misere and --against
    book = (
        open_play_book(book_path, misere, against and against.lower())
        if misere or against
        else open_book(book_path)
    )
    with book_in_use(book):
        files = export_files(
            book,
            lang,
            strategy=strategy and strategy.upper(),
            single_header=single_header,
            prefix=prefix,
            crate=crate,
        )
    with finish_once_written():
        write_into(folder, {name: text.encode() for name, text in sorted(files.items())})
        for name, text in sorted(files.items()):
            echo(f"wrote {os.path.join(folder, name)}: {len(text.encode()):,} bytes")
