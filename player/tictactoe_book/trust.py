"""When a book's proof may be skipped: for bytes proven before, each recognised by a hash of its
bytes, so any other bytes (one digit changed) are proven (docs/book-format.md, "Trusting the
packaged book", "The proven-book record").

* **The packaged book**: ``make book`` proves the packaged books and writes the CRC-32 of each
  one's bytes beside it as NAME + ``.crc32`` (tictactoe_generator.packaged); the wheel ships
  both, and tests/test_packaging.py checks that each record is its book's. Only a
  book loaded as the packaged one (no path given) is compared with its record: a book passed
  by path is proven whatever lies beside it. The record detects accidents (a hand edit, a bad
  copy: a CRC-32 catches every change of up to 32 bits in a row and all but one in 2**32 of the
  others), not tampering: whoever can write the installed package can write a book and a
  record that match (four bytes of padding forge a CRC-32), as they could replace the player
  itself. ``ttt-book verify`` never trusts it.
* **The machine's record**: proving a 4x4 book takes seconds in Python, so once a proof of a
  book larger than ``RECORD_ABOVE`` has succeeded, the SHA-256 of its bytes goes into a text
  file, one lowercase hex digest per line, and a later load of exactly those bytes skips the
  proof (``trust == "recorded"``). Where: ``$TTT_PROVEN_RECORD`` if set (empty: no record at
  all, nothing read or written), else ``$XDG_CACHE_HOME/tictactoe-book/proven-sha256.txt``
  (``~/.cache`` when ``XDG_CACHE_HOME`` is unset or not absolute, as the XDG base directory
  specification says). The record is as trustworthy as the folder it lives in. A book by
  parts is recorded by its manifest's SHA-256 (``remember_digest``), which names every part's.
* **An unfinished proof by parts** (tictactoe_book.parts_proof): beside the record, in
  ``PROOF_STATE``, the state of the latest proof by parts interrupted on this machine (its
  manifest's SHA-256, the layers proven, their findings), so that the proof of the same
  manifest resumes (``unfinished_proof``, ``keep_unfinished_proof``,
  ``forget_unfinished_proof``). No record, no state.

Nothing here raises. A record that cannot be read is empty; one that cannot be written (a
read-only home, a full disk) stays as it was, and the next load proves the book again. A file
at the record's path that is no record (a line that is not a digest: ``TTT_PROVEN_RECORD``
naming someone's notes by mistake) is never overwritten, and nothing is recorded or trusted
there; a record's path that is a symbolic link keeps it, the file it names is rewritten. A new
line is written by rewriting the whole file to a temporary file beside it and renaming that
over it (``os.replace``), so no reader ever sees half a record. Two processes recording at the
same moment can lose one of the two lines: that book is proven once more, nothing worse. The
state of an unfinished proof is read and written the same way: a file there that is no state
is neither used nor overwritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import zlib
from typing import Any

#: Books larger than this many bytes (1 MB) are recorded once proven; a smaller one proves in
#: well under a second, about what hashing and reading the record cost anyway.
RECORD_ABOVE = 1_000_000
#: The environment variable that moves the record (empty: no record).
RECORD_VARIABLE = "TTT_PROVEN_RECORD"
#: The most of a record file read; the oldest lines give way when a new one would pass it.
MAX_RECORD_BYTES = 1024 * 1024
#: Beside a packaged book, the file holding its CRC-32.
PACKAGED_SUFFIX = ".crc32"
#: In the record's folder, the state of an unfinished proof by parts (tictactoe_book.parts_proof).
PROOF_STATE = "proof-by-parts.json"
#: The most of a state file read (it holds a digest, a layer and a few findings).
MAX_STATE_BYTES = 64 * 1024
_HEX = frozenset("0123456789abcdef")


def proven_before(raw: bytes, path: str, *, packaged: bool) -> str | None:
    """Why the book ``raw`` read from ``path`` need not be proven again: ``"packaged"`` (the
    packaged book, when ``packaged``, matching its record), ``"recorded"`` (in this machine's
    record), or None: prove it."""
    if packaged and packaged_record_matches(raw, path):
        return "packaged"
    if len(raw) > RECORD_ABOVE and is_proven(digest(raw)):
        return "recorded"
    return None


def remember(raw: bytes) -> None:
    """Record that the book ``raw`` proved, if it is large enough to be worth it."""
    if len(raw) > RECORD_ABOVE:
        _remember(digest(raw))


def remember_digest(sha256: str) -> None:
    """Record that the bytes with this digest proved (a book by parts: its manifest's, whose
    hashes name every part's bytes)."""
    _remember(sha256)


def packaged_digest(raw: bytes) -> str:
    """The hash recorded beside a packaged book: the CRC-32 of its bytes, as 8 lowercase hex
    digits. It detects accidents (a hand edit, a bad copy), not tampering: four bytes of padding
    give a forged book any CRC-32 (see above), so ``ttt-book verify`` never trusts it."""
    return f"{zlib.crc32(raw):08x}"


def packaged_record_path(book_path: str) -> str:
    """Where a packaged book's CRC-32 is recorded."""
    return book_path + PACKAGED_SUFFIX


def packaged_record_matches(raw: bytes, book_path: str) -> bool:
    """Do ``raw`` have the hash recorded beside the packaged book at ``book_path``?"""
    try:
        with open(packaged_record_path(book_path), "rb") as handle:
            recorded = handle.read(200).strip()
    except OSError:
        return False
    return packaged_digest(raw).encode() == recorded


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
    import hashlib  # (the record's modules: only for a book over RECORD_ABOVE, see above)

    return hashlib.sha256(raw).hexdigest()


def is_proven(sha256: str) -> bool:
    """Has a proof of the bytes with this digest succeeded on this machine (as recorded)?"""
    path = location()
    return path is not None and sha256 in (_read(path) or ())


def _remember(sha256: str) -> None:
    """Record that the bytes with this digest proved; quietly nothing if it cannot be written."""
    path = location()
    if path is None or not _is_digest(sha256):
        return
    path = os.path.realpath(path)  # a link to the record stays a link: its target is rewritten
    lines = _read(path)
    if lines is None or sha256 in lines:
        return  # a file that is no record (notes.txt, say) is never overwritten
    lines.append(sha256)
    while len(lines) * 65 > MAX_RECORD_BYTES:
        lines.pop(0)
    _replace(path, "".join(line + "\n" for line in lines))  # (if not: proven again next time)


def _replace(path: str, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``, so that no
    reader sees half of it; quietly nothing if that cannot be done."""
    folder = os.path.dirname(path) or "."
    temporary = None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        import tempfile

        prefix = "." + os.path.basename(path).partition(".")[0] + "."
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _read(path: str) -> list[str] | None:
    """The digests in the record at ``path``, oldest first: [] if there is no file there yet;
    None if what is there is no record (not a regular file, larger than a record grows, a line
    that is not a digest) or cannot be read: it is neither trusted nor overwritten."""
    raw = _file_bytes(path, MAX_RECORD_BYTES)
    lines = None if raw is None else raw.decode("ascii", errors="replace").splitlines()
    if lines is None or not all(_is_digest(line) for line in lines):
        return None
    return list(dict.fromkeys(lines))


def _file_bytes(path: str, limit: int) -> bytes | None:
    """The bytes of the regular file at ``path`` (b"" if there is none), or None if it is not a
    regular file, is longer than ``limit`` or cannot be read. A FIFO or a device is not read
    (nor waited on)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return b""
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            raw = handle.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return None if len(raw) > limit else raw


def _is_digest(text: str) -> bool:
    return len(text) == 64 and _HEX.issuperset(text)


# ---------------------------------------------------------------- an unfinished proof by parts


def state_location() -> str | None:
    """Where the state of an unfinished proof by parts is kept: ``PROOF_STATE`` in the record's
    folder; None when there is no record (``TTT_PROVEN_RECORD`` set and empty)."""
    record = location()
    return None if record is None else os.path.join(os.path.dirname(record), PROOF_STATE)


def unfinished_proof(manifest: str) -> dict[str, Any] | None:
    """The state kept of an unfinished proof of the book by parts whose manifest has the SHA-256
    ``manifest`` (a JSON object, its ``"manifest"`` that digest); None if none is kept, or
    another book's, or what lies there is no state."""
    path = state_location()
    state = None if path is None else _read_state(path)
    return state if state and state["manifest"] == manifest else None


def keep_unfinished_proof(state: dict[str, Any]) -> None:
    """Keep ``state`` (a JSON object whose ``"manifest"`` is its book's manifest's SHA-256) as
    the one unfinished proof, in place of any other book's; quietly nothing if it cannot be
    written, or if what lies at its path is no state (never overwritten)."""
    path = state_location()
    if path is not None and _is_digest(state.get("manifest", "")) and _read_state(path) is not None:
        _replace(path, json.dumps(state, sort_keys=True, ensure_ascii=True) + "\n")


def forget_unfinished_proof(manifest: str) -> None:
    """The state kept of that book's proof removed (the proof has ended), if it is that book's."""
    path = state_location()
    if path is not None and unfinished_proof(manifest) is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _read_state(path: str) -> dict[str, Any] | None:
    """The state at ``path``: {} if there is none yet (no file, or an empty one); None if what
    is there is no state (not a regular file, over ``MAX_STATE_BYTES``, not a JSON object whose
    ``"manifest"`` is a digest) or cannot be read: it is neither used nor overwritten."""
    raw = _file_bytes(path, MAX_STATE_BYTES)
    if not raw:
        return None if raw is None else {}
    try:
        state = json.loads(raw)
    except ValueError:
        return None
    if type(state) is not dict or type(state.get("manifest")) is not str or not _is_digest(state["manifest"]):
        return None
    return state
