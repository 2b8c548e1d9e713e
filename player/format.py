"""Constants of the book format that readers and the writer share (docs/book-format.md)."""

FORMAT_NAME = "tictactoe-book"
#: Bumped only for a change an existing reader would misread; readers refuse versions they don't know.
FORMAT_VERSION = 1
#: Readers refuse larger files before parsing them (the 3x3 book is about 60 KB).
MAX_BOOK_BYTES = 64 * 1024 * 1024
