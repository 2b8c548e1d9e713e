"""``ttt-book split``: a version-2 book written as a book by parts (docs/book-parts.md), a
command of ``ttt-book``'s (tictactoe_generator.cli adds it to the group)."""

from __future__ import annotations

import click

from tictactoe_book.apps.console import Command, FilePath, echo, exit_statuses
from tictactoe_generator.atomic import finish_once_written, folder_target
from tictactoe_generator.options import BOOK_OPTION, open_book


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
