"""The packaged books' records: each packaged 3x3 book in a folder (the repository's book/) is
proven with the runtime's own reader, and the CRC-32 of its bytes written beside it as NAME +
``.crc32`` (tictactoe_book.trust.packaged_digest), the record a packaged book is trusted by
(docs/book-format.md, "Trusting the packaged book"). ``make book`` runs it after writing the
books; the wheel takes the books and their records from book/ as they are (pyproject.toml), and
tests/test_packaging.py checks that each record is the CRC-32 of its book and that the book proves.

    python -m tictactoe_generator.packaged [FOLDER]
"""

from __future__ import annotations

import sys
from pathlib import Path

from tictactoe_book.errors import BookError
from tictactoe_book.game import Rules
from tictactoe_book.reader import PACKAGED, parse_book
from tictactoe_book.trust import packaged_digest, packaged_record_path
from tictactoe_generator.atomic import write_atomically

#: Where ``make book`` writes the packaged books, from the repository's root.
BOOK_FOLDER = "book"


def record_packaged(folder: str | Path = BOOK_FOLDER) -> list[Path]:
    """Prove each packaged book in ``folder`` for its rules (BookError, naming the file, if one
    does not) and write its record where it differs; the records written, in PACKAGED's order."""
    changed = []
    for (misere, _), name in PACKAGED.items():
        path = Path(folder, name)
        raw = path.read_bytes()
        parse_book(raw, str(path), rules=Rules(3, 3, 3, misere))
        record = Path(packaged_record_path(str(path)))
        data = (packaged_digest(raw) + "\n").encode("ascii")
        if not record.is_file() or record.read_bytes() != data:
            write_atomically(record, data)
            changed.append(record)
    return changed


def main(argv: list[str]) -> int:
    """Record the books in ``argv[0]`` (default book/): one line for each record written, status
    0; a book that cannot be read or does not prove, one line naming it and its reason, status 1,
    and no record written for it or after it."""
    try:
        records = record_packaged(argv[0] if argv else BOOK_FOLDER)
    except (BookError, OSError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    for record in records:
        print(f"recorded {record}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
