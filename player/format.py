"""Constants of the book format that readers and the writer share (docs/book-format.md)."""

FORMAT_NAME = "tictactoe-book"
#: Bumped only for a change an existing reader would misread; readers refuse versions they don't know.
FORMAT_VERSION = 2
#: The only canonicalization rule: the smallest image under the symmetries.
CANONICAL_RULE = "min-image"
#: Step 2 ("limits"): readers refuse larger files before parsing them (a 4x4 book is about 40 MB).
MAX_BOOK_BYTES = 64 * 1024 * 1024
#: Step 2: at most this many of the characters ``[``, ``{`` and ``,``, counted anywhere in the text;
#: it bounds the number of values a parser builds (a 4x4 book has about one per entry, 1.1 million).
MAX_STRUCTURE = 4_000_000
#: Step 3 ("json"): arrays and objects nest at most this deep (the book itself uses 3 levels).
MAX_DEPTH = 32
#: Step 3: integers beyond this magnitude are refused (RFC 7493: exact in every JSON reader).
MAX_INTEGER = 2**53 - 1
