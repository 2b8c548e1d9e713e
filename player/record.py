"""The record of proven books: prove a big book at most once per book per machine
(docs/book-format.md, "The proven-book record"; issue 13, item 6).

Proving a 4x4 book takes many seconds in Python. Once a proof has succeeded, the SHA-256 of the
book's bytes goes into a text file, one lowercase hex digest per line; a later load of exactly
those bytes skips the proof (``trust == "recorded"``). Any other bytes are proven: one changed
digit is another digest. Only books larger than ``RECORD_ABOVE`` are recorded: a smaller one
proves in well under a second, about what hashing and reading the record cost anyway.

Where: ``$TTT_PROVEN_RECORD`` if set (an empty value: no record at all, nothing read or
written), else ``$XDG_CACHE_HOME/tictactoe-book/proven-sha256.txt``, ``$XDG_CACHE_HOME`` being
``~/.cache`` when unset or not absolute (as the XDG base directory specification says).

Nothing here raises. A record that cannot be read is empty; one that cannot be written (a
read-only home, a full disk) stays as it was, and the next load proves the book again. A new
line is written by rewriting the whole file to a temporary file beside it and renaming that
over it (``os.replace``), so no reader ever sees half a record. Two processes recording at the
same moment can lose one of the two lines: that book is proven once more, nothing worse.

The record is as trustworthy as the folder it lives in: whoever can write a line there can make
this machine's readers skip the proof of a book they name, exactly as whoever can write the
installed package can replace its book.
"""

from __future__ import annotations

import contextlib
import os
import stat

#: Books larger than this many bytes (1 MB) are recorded once proven.
RECORD_ABOVE = 1_000_000
#: The environment variable that moves the record (empty: no record).
RECORD_VARIABLE = "TTT_PROVEN_RECORD"
#: The most of a record file read; the oldest lines give way when a new one would pass it.
MAX_RECORD_BYTES = 1024 * 1024
_HEX = frozenset("0123456789abcdef")


def location() -> str | None:
    """The record file's path, or None when ``TTT_PROVEN_RECORD`` is set and empty."""
    chosen = os.environ.get(RECORD_VARIABLE)
    if chosen is not None:
        return chosen or None
    cache = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(cache):
        cache = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "tictactoe-book", "proven-sha256.txt")


def digest(raw: bytes) -> str:
    """The record's name for a book: the lowercase hex SHA-256 of its bytes."""
    import hashlib  # only for books over RECORD_ABOVE: OpenSSL costs the packaged start-up ~4 ms

    return hashlib.sha256(raw).hexdigest()


def is_proven(sha256: str) -> bool:
    """Has a proof of the bytes with this digest succeeded on this machine (as recorded)?"""
    path = location()
    return path is not None and sha256 in _read(path)


def remember(sha256: str) -> None:
    """Record that the bytes with this digest proved; quietly nothing if it cannot be written."""
    path = location()
    if path is None or not _is_digest(sha256):
        return
    lines = _read(path)
    if sha256 in lines:
        return
    lines.append(sha256)
    while len(lines) * 65 > MAX_RECORD_BYTES:
        lines.pop(0)
    folder = os.path.dirname(path) or "."
    temporary = None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        import tempfile  # only when writing: the player's start-up never writes (docs/benchmarks.md)

        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".proven-sha256.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass  # not recorded: the book is proven again next time
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _read(path: str) -> list[str]:
    """The digests in the record at ``path``, oldest first; [] if it cannot be read. A FIFO or a
    device is not read (nor waited on); lines that are not digests are skipped."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return []
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            raw = handle.read(MAX_RECORD_BYTES)
    except OSError:
        return []
    finally:
        os.close(descriptor)
    text = raw.decode("ascii", errors="replace")
    return list(dict.fromkeys(line for line in text.splitlines() if _is_digest(line)))


def _is_digest(text: str) -> bool:
    return len(text) == 64 and _HEX.issuperset(text)
