"""The book as source code (``ttt-book export``): static tables and a few functions in C or Rust,
no JSON to parse.

``tables`` computes the tables from a proven book (every entry, or one side's strategy);
``c`` and ``rust`` fill the sources in ``templates/`` with them (in C, a header and a source,
or a single header). The functions in the templates are one mirror each of ``tictactoe_book.game``'s:
the board checks, the board codes (the tables' keys), the canonical form (through the rules'
symmetries, which the tables carry as ``Rules.symmetries`` derives them), the score scale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe_book.reader import Book


def export_files(
    book: Book,
    lang: str,
    *,
    strategy: str | None = None,
    single_header: bool = False,
    prefix: str = "ttt",
    crate: str = "tictactoe-book",
) -> dict[str, str]:
    """The files ``ttt-book export`` writes for a proven ``book``, by name: in ``lang`` (``c`` or
    ``rust``), the whole book or (C) one side's ``strategy``, a ``single_header`` or not, its C
    names starting with ``prefix`` (``ttt_outcome``), its Rust crate named ``crate``."""
    from tictactoe_generator.export.c import c_book, c_strategy
    from tictactoe_generator.export.rust import rust_book
    from tictactoe_generator.export.tables import full_table, strategy_table

    if strategy is not None:
        return c_strategy(strategy_table(book, strategy), single_header=single_header, prefix=prefix)
    table = full_table(book)
    if lang == "c":
        return c_book(table, single_header=single_header, prefix=prefix)
    return rust_book(table, crate=crate)
