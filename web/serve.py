"""Serve the web page and the book, and nothing else of the repository: ``make web``.

    python3 web/serve.py [--port N] [--bind ADDRESS] [--book FILE]

The page needs a server because it reads the book with ``fetch``, which browsers refuse for
files opened from disk. ``python -m http.server`` would serve the whole repository (``.git``,
``.venv``); this serves a fixed map of paths:

    /                                 redirects to /web/
    /web/ and /web/NAME               the page's own files: web/*.html, *.css, *.js, *.svg
    /book/tictactoe.json              the book
    /book/tictactoe-misere.json       the misère book (make book writes it)
    /book/tictactoe-vs-random.json, /book/tictactoe-misere-vs-random.json
                                      the same two ranked against a random player
    /user/NAME                        the file given with --book (NAME: its file name), if any
    /user/NAME/manifest.json, /user/NAME/PART
                                      a book by parts given with --book (its folder, NAME, or
                                      its manifest.json): the manifest, and each file beside it
                                      that the manifest names as a part (docs/book-parts.md)
    /clients/js/tictactoe-book.js     the JavaScript reader
    /clients/js/packaged.js           the packaged books' names (the page finds a book's twins there)
    /favicon.ico                      web/favicon.svg
    /docs/posters/NAME.svg            the posters the page links (make poster)

Anything else is 404, and so is a symbolic link that leads out of the folder its file is served
from (web/, book/, clients/js/, docs/posters/): a link in web/ to a file elsewhere is not followed.
A connection that sends no request for 5 seconds (IDLE_TIMEOUT), or takes none of an answer for
as long, is closed, and so is one whose request (its line and headers) is not whole 10 seconds
after its first byte (REQUEST_TIMEOUT): a client trickling a byte every 3 seconds passes every
read's time-out, and held its connection and a thread for ever. A client that hangs up early
ends its connection quietly. A file is sent as
it is read, WRITE_CHUNK bytes at a time, so a connection holds no more of it than that however
big the book (a 35 MB book to a dozen idle clients took 400 MB when each read it whole). The log
on standard error shows what a client sent (its request line) with control characters escaped,
as Python's own log does, so a request cannot draw on the terminal running the server.

Every file served answers a GET with one range of bytes (RFC 9110, section 14): ``Range:
bytes=A-B``, ``bytes=A-`` or ``bytes=-N`` is answered 206 with that range and its
Content-Range; a range that starts past the file's end (or ``bytes=-0``) 416 with
``Content-Range: bytes */LENGTH``; a header of several ranges, of another unit, or not in the
grammar is ignored and the whole file sent (200), as HTTP allows; HEAD sends no range. A book
by parts needs none of it: the page's reader fetches the manifest, then each part it needs
whole, with a plain GET of its URL beside the manifest's (a part is a few KB to a few hundred
KB, and every part a game needs is one request); a reader that reads a file in ranges can.

Without --port it tries 8000 and, when that port is taken, lets the system pick a free one; it
prints the page's address either way, with ``?book=`` filled in when --book names a book of your
own (``make web BOOK=FILE``), a book by parts too (``?book=/user/NAME/``: the page plays it,
reading the parts each answer needs). Standard library only, so it runs before any ``make venv``.
"""

from __future__ import annotations

import argparse
import errno
import functools
import http.server
import io
import json
import os
import posixpath
import re
import socket
import sys
import time
import urllib.parse
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DEFAULT_PORT = 8000
#: Seconds a connection may stay silent (no request) or take none of an answer before it is closed.
IDLE_TIMEOUT = 5.0
#: Seconds a request (its line and headers) may take to arrive whole, from its first byte: each
#: read waits at most IDLE_TIMEOUT, so without this a byte every few seconds held a connection.
#: The answer has no such bound: a slow link takes a big book at its own pace, WRITE_CHUNK at a time.
REQUEST_TIMEOUT = 10.0
#: Bytes of an answer read and written at once, the most of a file a connection holds: the
#: time-out applies to each write (a socket's time-out bounds a whole sendall), so a 35 MB book
#: needs only 64 KiB per 5 s, not all of it in 5 s.
WRITE_CHUNK = 64 * 1024
#: Control characters (C0, DEL, C1) and the backslash as the log writes them: ``\x1b``, ``\\``,
#: as Python's own ``log_message`` does (3.11.1 on; serve.py runs on any 3.11).
LOG_ESCAPES = str.maketrans(
    {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))} | {ord("\\"): "\\\\"}
)
PAGE_SUFFIXES = {".html", ".css", ".js", ".svg"}
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
FIXED = {
    "/book/tictactoe.json": ROOT / "book" / "tictactoe.json",
    "/book/tictactoe-misere.json": ROOT / "book" / "tictactoe-misere.json",
    "/book/tictactoe-vs-random.json": ROOT / "book" / "tictactoe-vs-random.json",
    "/book/tictactoe-misere-vs-random.json": ROOT / "book" / "tictactoe-misere-vs-random.json",
    "/clients/js/tictactoe-book.js": ROOT / "clients" / "js" / "tictactoe-book.js",
    "/clients/js/packaged.js": ROOT / "clients" / "js" / "packaged.js",
    "/favicon.ico": WEB / "favicon.svg",
    "/web/": WEB / "index.html",
    **{
        f"/docs/posters/{name}": ROOT / "docs" / "posters" / name
        for name in ("x.svg", "o.svg", "teaching.svg")
    },
}
REDIRECTS = {"/": "/web/", "/web": "/web/", "/index.html": "/web/"}
USER_FOLDER = "/user/"
#: A book by parts' manifest, and the names a part's file may have (docs/book-parts.md, "The
#: manifest"): of its folder, only the manifest and the parts it names are served.
MANIFEST = "manifest.json"
PART_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}", re.ASCII)


def user_book_path(file: Path) -> str:
    """The URL path that serves ``file`` given with --book: /user/ and its (quoted) name."""
    return USER_FOLDER + urllib.parse.quote(file.name)


def page_address(origin: str, book: Path | None) -> str:
    """The page's address, with ``?book=`` naming the user's book when there is one: its file,
    or a book by parts' folder (its path ends in ``/``, which tells the page it is one)."""
    if book is None:
        return f"{origin}/web/"
    path = user_book_path(book) + ("/" if book.is_dir() else "")
    return f"{origin}/web/?book={urllib.parse.quote(path)}"


def resolve(url_path: str, book: Path | None = None) -> Path | None:
    """The file served at ``url_path`` (no query string), or None; ``book`` is the file given
    with --book, served at :func:`user_book_path` and nowhere else, or the folder of a book by
    parts given with --book, whose manifest and part files are served below that path.

    The path is decoded and normalised first, so ``/web/../.git/config`` is ``/.git/config``
    (not served) and ``/web/%61pp.js`` is ``/web/app.js``.
    """
    path = posixpath.normpath(urllib.parse.unquote(url_path))
    if url_path.endswith("/") and path != "/":
        path += "/"
    if path in FIXED:
        file = FIXED[path]
        return file if inside(file, file.parent) else None
    folder, name = posixpath.split(path)
    if book is not None and book.is_dir():
        if folder == urllib.parse.unquote(user_book_path(book)) and (
            name == MANIFEST or name in part_files(book)
        ):
            candidate = book / name
            return candidate if os.path.isfile(candidate) and inside(candidate, book) else None
    elif book is not None and path == urllib.parse.unquote(user_book_path(book)):
        return book
    if folder == "/web" and name:
        candidate = WEB / name
        # os.path.isfile, not Path.is_file: it answers False for a name the file system refuses
        # (a 300-character name is ENAMETOOLONG, which Path.is_file raises) instead of raising.
        if candidate.suffix in PAGE_SUFFIXES and os.path.isfile(candidate) and inside(candidate, WEB):
            return candidate
    return None


def part_files(folder: Path) -> frozenset[str]:
    """The part files the manifest of the book by parts in ``folder`` names (a file's name is
    served only when it is one of them); none when the manifest cannot be read or is not a
    manifest. Read again only when the manifest changes (its size or time)."""
    try:
        found = os.stat(folder / MANIFEST)
    except OSError:
        return frozenset()
    return _part_files(folder, found.st_size, found.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _part_files(folder: Path, size: int, mtime_ns: int) -> frozenset[str]:
    """``part_files`` for the manifest of that size and time."""
    try:
        parts = json.loads((folder / MANIFEST).read_bytes()).get("parts")
    except (OSError, ValueError, AttributeError):
        return frozenset()
    if not isinstance(parts, list):
        return frozenset()
    names = (part.get("file") for part in parts if isinstance(part, dict))
    return frozenset(
        name for name in names if isinstance(name, str) and PART_NAME.fullmatch(name) and name != MANIFEST
    )


def inside(file: Path, folder: Path) -> bool:
    """Whether ``file``'s real path (every symbolic link followed) lies in ``folder``'s, so that
    a link cannot lead out of the folder it is served from. A missing file is judged by its name
    (``content`` then says it cannot be read); a loop of links is not inside anything."""
    try:
        return file.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a loop of links (Python before 3.13)
        return False


class RangeNotSatisfiable(ValueError):
    """A Range header whose one range lies past the end of the file (RFC 9110, 15.5.17: 416)."""


#: One range-spec of the bytes unit (RFC 9110, 14.1.1): an int-range ``A-`` or ``A-B``, or a
#: suffix-range ``-N``.
RANGE_SPEC = re.compile(r"(\d+)-(\d*)|-(\d+)", re.ASCII)


def byte_range(header: str | None, length: int) -> tuple[int, int] | None:
    """The bytes ``(start, stop)`` (stop excluded) that a GET's Range ``header`` asks of a file
    of ``length`` bytes, or None to send it whole: no header, a unit other than bytes, not the
    grammar (a last position before the first), or several ranges (a server may send the whole
    file for any of these: RFC 9110, 14.2). A range past the end raises RangeNotSatisfiable."""
    if header is None:
        return None
    unit, equals, ranges = header.partition("=")
    if not equals or unit.lower() != "bytes":
        return None
    specs = [spec.strip(" \t") for spec in ranges.split(",")]
    specs = [spec for spec in specs if spec]  # a list may hold empty elements (RFC 9110, 5.6.1)
    if len(specs) != 1 or not (found := RANGE_SPEC.fullmatch(specs[0])):
        return None
    first, last, suffix = found.groups()
    if suffix is not None:
        wanted = position(suffix)
        if wanted == 0:
            raise RangeNotSatisfiable(f"bytes=-0 of {length} bytes")
        return (max(0, length - wanted), length) if length else None  # of an empty file: all of it
    start = position(first)
    if last and position(last) < start:
        return None  # not a range (RFC 9110, 14.1.1: invalid), so the header is ignored
    if start >= length:
        raise RangeNotSatisfiable(f"bytes={start}- of {length} bytes")
    return start, length if not last else min(position(last) + 1, length)


def position(digits: str) -> int:
    """A byte position written in ``digits``; one of more than 18 digits is past any file (and
    Python refuses to read an integer of thousands)."""
    return int(digits) if len(digits) <= 18 else 10**18


def content(url_path: str, book: Path | None = None) -> tuple[int, str, int, BinaryIO]:
    """The status, content type, length and body answering a GET of ``url_path`` (``book``:
    --book's file): the file opened, to be read as it is sent, or a message in memory. The
    caller closes the body."""
    file = resolve(url_path, book)
    if file is None:
        problem = f"Not found: {url_path}\nThis server serves the page (/web/) and the book only.\n"
    else:
        try:
            # A user's book is served as a book whatever its name ends with.
            kind = "application/json" if file == book else TYPES.get(file.suffix, "application/octet-stream")
            body = file.open("rb")
            return 200, kind, os.fstat(body.fileno()).st_size, body
        except OSError as error:  # the book deleted, say: `make book` writes it again
            shown = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file
            problem = f"{shown} cannot be read: {error.strerror or error}\n"
    text = problem.encode()
    return 404, "text/plain; charset=utf-8", len(text), io.BytesIO(text)


def answer(
    url_path: str, book: Path | None = None, range_header: str | None = None
) -> tuple[int, str, int, BinaryIO, dict[str, str]]:
    """``content``'s answer to a GET of ``url_path`` with the Range header ``range_header``
    (None: none), and its headers beyond the type and the length: a file's whole (200), the
    range asked of it (206, from its first byte on: the body is at it), or 416 for a range
    past its end. The caller closes the body."""
    status, content_type, length, body = content(url_path, book)
    if status != 200:
        return status, content_type, length, body, {}
    try:
        wanted = byte_range(range_header, length)
    except RangeNotSatisfiable:
        body.close()
        text = f"Range not satisfiable: {url_path} has {length} bytes\n".encode()
        headers = {"Content-Range": f"bytes */{length}"}
        return 416, "text/plain; charset=utf-8", len(text), io.BytesIO(text), headers
    if wanted is None:
        return status, content_type, length, body, {"Accept-Ranges": "bytes"}
    start, stop = wanted
    body.seek(start)
    headers = {"Accept-Ranges": "bytes", "Content-Range": f"bytes {start}-{stop - 1}/{length}"}
    return 206, content_type, stop - start, body, headers


class RequestReader(io.RawIOBase):
    """A connection's bytes as the handler reads a request: each read waits at most ``idle``
    seconds, and, once a request's first byte has come (``start`` marks where a request begins),
    none past ``whole`` seconds after it, until ``stop`` (its headers read). Past the deadline a
    read raises TimeoutError, which the handler logs as a time-out before closing the connection."""

    def __init__(self, connection: socket.socket, idle: float, whole: float) -> None:
        super().__init__()
        self.connection = connection
        self.idle = idle
        self.whole = whole
        self.reading = False  # a request's line and headers are being read
        self.deadline: float | None = None  # when they must be whole, once the first byte came

    def start(self) -> None:
        self.reading, self.deadline = True, None

    def stop(self) -> None:
        self.reading, self.deadline = False, None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        late = TimeoutError(f"the request was not whole {self.whole:g} s after its first byte")
        wait = self.idle
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise late
            wait = min(wait, left)
        self.connection.settimeout(wait)
        try:
            count = self.connection.recv_into(buffer)
        except TimeoutError:
            if wait < self.idle:  # the deadline's wait, not the idle one, ran out
                raise late from None
            raise
        finally:
            self.connection.settimeout(self.idle)  # the answer's writes wait the idle time-out
        if count and self.reading and self.deadline is None:
            self.deadline = time.monotonic() + self.whole
        return count


class Handler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD for the fixed map; every other method gets 501 from the base class."""

    server_version = "tictactoe-book"
    book: Path | None = None  # the file given with --book (make_server sets it on a subclass)
    timeout = IDLE_TIMEOUT  # StreamRequestHandler.setup puts it on the socket; expiry logs one line
    request_timeout = REQUEST_TIMEOUT  # a request whole this long after its first byte (RequestReader)

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the base class's reader; the connection stays open
        self.reader = RequestReader(self.connection, self.timeout, self.request_timeout)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        self.reader.start()
        super().handle_one_request()

    def parse_request(self) -> bool:
        try:
            return super().parse_request()  # reads the headers
        finally:
            self.reader.stop()

    def handle(self) -> None:
        try:
            super().handle()
        except ConnectionError:  # BrokenPipeError, ConnectionResetError: the client has gone
            self.close_connection = True

    def do_GET(self) -> None:
        self.respond(send_body=True)

    def do_HEAD(self) -> None:
        self.respond(send_body=False)

    def respond(self, *, send_body: bool) -> None:
        url_path = urllib.parse.urlsplit(self.path).path
        if url_path in REDIRECTS:
            self.send_response(302)
            self.send_header("Location", REDIRECTS[url_path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        # GET is the only method with ranges (RFC 9110, 14.2): HEAD answers for the whole file.
        asked = self.headers.get("Range") if send_body else None
        status, content_type, length, body, extra = answer(url_path, self.book, asked)
        with body:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(length))
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Cache-Control", "no-cache")  # a rebuilt book or an edited page shows on reload
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            sent = 0
            while send_body and sent < length and (chunk := body.read(min(WRITE_CHUNK, length - sent))):
                self.wfile.write(chunk)
                sent += len(chunk)
            if send_body and sent < length:  # the file shrank as it was sent: the client must see it
                self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """One line on standard error: the client, then the message with what the client sent
        (the request line, a bad request's words) escaped (LOG_ESCAPES)."""
        sys.stderr.write(f"{self.address_string()} {(format % args).translate(LOG_ESCAPES)}\n")


def make_server(
    bind: str,
    port: int | None,
    book: Path | None = None,
    idle_timeout: float = IDLE_TIMEOUT,
    request_timeout: float = REQUEST_TIMEOUT,
) -> http.server.ThreadingHTTPServer:
    """A server on ``port``; with None, on 8000, or on a free port when 8000 is taken.
    ``book``: a file of the user's to serve too, at :func:`user_book_path`; ``idle_timeout``:
    the seconds a connection may wait for a request or an answer's next write;
    ``request_timeout``: the seconds a request may take to arrive whole, from its first byte."""
    handler = type(
        "BookHandler", (Handler,), {"book": book, "timeout": idle_timeout, "request_timeout": request_timeout}
    )
    if port is not None:
        return http.server.ThreadingHTTPServer((bind, port), handler)
    try:
        return http.server.ThreadingHTTPServer((bind, DEFAULT_PORT), handler)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        server = http.server.ThreadingHTTPServer((bind, 0), handler)
        print(f"Port {DEFAULT_PORT} is taken; using {server.server_port} instead.", flush=True)
        return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the tic-tac-toe page and the book (nothing else).")
    parser.add_argument(
        "--port", type=int, default=None, help=f"port to listen on (default {DEFAULT_PORT}, or a free one)"
    )
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--book",
        type=Path,
        default=None,
        metavar="FILE",
        help="a book file of your own to serve too (at /user/NAME; the address printed opens the page on it),"
        " or a book by parts: its folder or its manifest.json (the folder's files at /user/NAME/)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=IDLE_TIMEOUT,
        metavar="SECONDS",
        help=f"close a connection idle this long (default {IDLE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=REQUEST_TIMEOUT,
        metavar="SECONDS",
        help="close a connection whose request is not whole this long after its first byte"
        f" (default {REQUEST_TIMEOUT:g})",
    )
    args = parser.parse_args(argv)
    for option, seconds in (
        ("--idle-timeout", args.idle_timeout),
        ("--request-timeout", args.request_timeout),
    ):
        if not 0 < seconds < float("inf"):
            parser.error(f"{option} {seconds}: a number of seconds above 0")
    book: Path | None = args.book
    if book is not None:
        book = book.resolve()
        if book.name == MANIFEST and book.is_file():
            book = book.parent  # a book by parts, named by its manifest
        if book.is_dir() and not (book / MANIFEST).is_file():
            print(
                f"serve.py: --book {args.book}: a folder without {MANIFEST}, not a book by parts",
                file=sys.stderr,
            )
            return 2
        if not (book.is_file() or book.is_dir()):
            # One line and exit 2, like argparse's own errors; the page would only say HTTP 404.
            print(f"serve.py: --book {args.book}: no such file", file=sys.stderr)
            return 2
    try:
        server = make_server(args.bind, args.port, book, args.idle_timeout, args.request_timeout)
    except OSError as error:
        where = f"{args.bind}:{args.port if args.port is not None else DEFAULT_PORT}"
        print(f"serve.py: cannot listen on {where}: {error.strerror or error}", file=sys.stderr)
        return 1
    address = page_address(f"http://{args.bind}:{server.server_port}", book)
    print(f"Serving the page on {address} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
