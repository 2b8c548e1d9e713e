"""The files of a book by parts (docs/book-parts.md, format version 3).

A book by parts is version 2's book cut up: the same header members in a manifest
(``manifest.json``, version 3, with the list of parts), and the same entry strings in parts,
each the zlib stream of the lines ``KEY ENTRY`` of one layer (number of marks) and one run of at
most ``PART_ENTRIES`` keys, in key order (``part_file``, ``manifest_bytes``). ``split_document``
cuts a version-2 document; the build by layers (tictactoe_generator.layered) writes exactly what
splitting the version-2 book the in-memory build writes gives, up to 16 cells. The
bytes are deterministic (the zlib stream at ``LEVEL`` of this zlib: ``zlib.ZLIB_RUNTIME_VERSION``),
and written atomically into the folder (``tictactoe_generator.atomic.write_into``).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from tictactoe_book.game import EMPTY
from tictactoe_book.parts import MANIFEST, PARTS_VERSION
from tictactoe_book.reader import Book
from tictactoe_generator.atomic_folder import write_into

if TYPE_CHECKING:
    pass

#: Entries in a part, at most: on 4x4 k=4, 288 parts of about 19 KB (5.35 MB in all; 1,024 a
#: part: 5.49 MB, 16,384: 5.30 MB; docs/benchmarks.md, "A book by parts").
PART_ENTRIES = 4096
#: zlib's level: the default, 6. Level 9 makes 4x4's parts 1.3% smaller and takes 4.4 times as
#: long (3.8 MB/s against 16.5 MB/s of text here): most of a 4x5 build (docs/benchmarks.md).
LEVEL = 6


def split_document(book: dict[str, Any], *, part_entries: int = PART_ENTRIES) -> dict[str, bytes]:
    """The files of the book by parts holding version-2 ``book`` (a document as the writer
    makes it, or as a proven book's ``data``): the manifest's name and each part's, to bytes."""
    cells: int = book["rules"]["cells"]
    entries: dict[str, str] = book["entries"]

    def layer(key: str) -> int:
        return cells - key.count(EMPTY)

    files: dict[str, bytes] = {}
    parts = []
    for marks, keys in groupby(sorted(entries, key=lambda key: (layer(key), key)), key=layer):
        ordered = list(keys)
        for index, start in enumerate(range(0, len(ordered), part_entries)):
            run = ordered[start : start + part_entries]
            name, data, item = part_file(marks, index, run, [entries[key] for key in run])
            files[name] = data
            parts.append(item)
    return {MANIFEST: manifest_bytes(book, parts), **files}


def part_file(
    marks: int, index: int, keys: Sequence[str], texts: Sequence[str]
) -> tuple[str, bytes, dict[str, Any]]:
    """Run ``index`` of layer ``marks``, the entries ``keys`` (in increasing order) with their
    entry strings ``texts``: the part's file name, its bytes and its item in the manifest."""
    data = compress("".join(f"{key} {text}\n" for key, text in zip(keys, texts, strict=True)).encode("ascii"))
    name = f"{marks:02d}-{index:05d}.part"
    item = {
        "file": name,
        "layer": marks,
        "first": keys[0],
        "last": keys[-1],
        "entries": len(keys),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    return name, data, item


def compress(text: bytes) -> bytes:
    """A part's bytes: its text (the lines ``KEY ENTRY``) as one zlib stream at ``LEVEL``."""
    return zlib.compress(text, LEVEL)


def manifest_bytes(book: dict[str, Any], parts: list[dict[str, Any]]) -> bytes:
    """The manifest of the version-2 document ``book`` (its entries, if any, left out) cut into
    ``parts`` (their items, in order)."""
    manifest = {name: value for name, value in book.items() if name != "entries"}
    manifest.update(version=PARTS_VERSION, parts=parts)
    return encode(manifest)


def encode(manifest: dict[str, Any]) -> bytes:
    """The manifest's bytes as the writer's are for a version-2 book: keys sorted, compact, one
    trailing newline."""
    return orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


def split_book(book: Book, folder: str | Path) -> dict[str, bytes]:
    """``ttt-book split``: the proven version-2 ``book`` written by parts into ``folder``, all
    files or none; the files written (name: bytes)."""
    files = split_document(book.data)
    write_into(folder, files)
    return files
