"""The book's content checksum: CRC-32 of its canonical JSON, without the checksum member.

Canonical JSON here is RFC 8785 (JCS) restricted to what the book holds — integers, ASCII
strings, null, arrays and objects: object keys sorted, no white space. Any language can
rebuild it from the parsed file with a sorted-key serializer, so the checksum survives
re-indenting or converting the file but not a change of content. It detects damage; it is not
a signature.
"""

from __future__ import annotations

import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PREFIX = "crc32:"


def canonical_json(book: dict[str, Any]) -> bytes:
    """The bytes the checksum covers: ``book`` minus ``checksum``, keys sorted, compact."""
    import json  # only here: the player's fast path never needs it (see ``matches``)

    content = {key: value for key, value in book.items() if key != "checksum"}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_checksum(book: dict[str, Any]) -> str:
    """``"crc32:"`` and eight lowercase hex digits."""
    return f"{PREFIX}{zlib.crc32(canonical_json(book)):08x}"


def matches(book: dict[str, Any], raw: bytes | None = None) -> bool:
    """Does ``book`` (parsed from ``raw``) carry the right checksum?

    Fast path: a file as the writer makes it *is* canonical JSON plus the checksum member and
    a newline, so the CRC of ``raw`` without that member equals the stored one. If it does not
    (a re-indented copy, or damage), the canonical bytes are rebuilt from the parsed content,
    which decides either way.
    """
    stated = book.get("checksum")
    if not isinstance(stated, str):
        return False
    if raw is not None:
        member = b'"checksum":"' + stated.encode("ascii", "replace") + b'",'
        if raw.count(member) == 1 and zlib.crc32(raw.replace(member, b"").rstrip(b"\n")) == _as_int(stated):
            return True
    return content_checksum(book) == stated


def _as_int(stated: str) -> int:
    digits = stated[len(PREFIX) :] if stated.startswith(PREFIX) else ""
    return int(digits, 16) if len(digits) == 8 and all(c in "0123456789abcdef" for c in digits) else -1
