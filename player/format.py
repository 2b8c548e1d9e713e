"""Constants of the book format that readers and the writer share (docs/book-format.md)."""

FORMAT_NAME = "tictactoe-book"
#: Bumped only for a change an existing reader would misread; readers refuse versions they don't know.
FORMAT_VERSION = 1
#: The only canonicalization rule: the smallest image under the symmetries.
CANONICAL_RULE = "min-image"
#: Step 2 ("limits"): readers refuse larger files before parsing them (the 3x3 book is about 68 KB).
MAX_BOOK_BYTES = 64 * 1024 * 1024
#: Step 2: at most this many of the characters ``[``, ``{`` and ``,``, counted anywhere in the text;
#: it bounds the number of values a parser builds (a 3x4 book has about 425,000).
MAX_STRUCTURE = 2_000_000
#: Step 3 ("json"): arrays and objects nest at most this deep (the book itself uses 5 levels).
MAX_DEPTH = 32
#: Step 3: integers beyond this magnitude are refused (RFC 7493: exact in every JSON reader).
MAX_INTEGER = 2**53 - 1
