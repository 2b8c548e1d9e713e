"""The book's content checksum: CRC-32 of its canonical JSON, without the checksum member.

Canonical JSON here is RFC 8785 (JCS) restricted to what the book holds — integers, ASCII
strings, null, arrays and objects: object keys sorted, no white space. Any language can
rebuild it from the parsed file with a sorted-key serializer, so the checksum survives
re-indenting or converting the file but not a change of content. It detects damage; it is not
a signature.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

PREFIX = "crc32:"


def canonical_json(book: dict[str, Any]) -> bytes:
    """The bytes the checksum covers: ``book`` minus ``checksum``, keys sorted, compact."""
    content = {key: value for key, value in book.items() if key != "checksum"}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_checksum(book: dict[str, Any]) -> str:
    """``"crc32:"`` and eight lowercase hex digits."""
    return f"{PREFIX}{zlib.crc32(canonical_json(book)):08x}"
