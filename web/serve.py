"""Serve the web page and the book, and nothing else of the repository: ``make web``.

    python3 web/serve.py [--port N] [--bind ADDRESS]

The page needs a server because it reads the book with ``fetch``, which browsers refuse for
files opened from disk. ``python -m http.server`` would serve the whole repository (``.git``,
``.venv``); this serves a fixed map of paths:

    /                                 redirects to /web/
    /web/ and /web/NAME               the page's own files: web/*.html, *.css, *.js, *.svg
    /book/tictactoe.json              the book
    /clients/js/tictactoe-book.js     the JavaScript reader
    /favicon.ico                      web/favicon.svg
    /docs/posters/NAME.svg            the posters the page links (make poster)

Anything else is 404. Without --port it tries 8000 and, when that port is taken, lets the
system pick a free one; it prints the page's address either way. Standard library only, so it
runs before any ``make venv``.
"""

from __future__ import annotations

import argparse
import errno
import http.server
import posixpath
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DEFAULT_PORT = 8000
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
    "/clients/js/tictactoe-book.js": ROOT / "clients" / "js" / "tictactoe-book.js",
    "/favicon.ico": WEB / "favicon.svg",
    "/web/": WEB / "index.html",
    **{
        f"/docs/posters/{name}": ROOT / "docs" / "posters" / name
        for name in ("x.svg", "o.svg", "teaching.svg")
    },
}
REDIRECTS = {"/": "/web/", "/web": "/web/", "/index.html": "/web/"}


def resolve(url_path: str) -> Path | None:
    """The file served at ``url_path`` (no query string), or None.

    The path is decoded and normalised first, so ``/web/../.git/config`` is ``/.git/config``
    (not served) and ``/web/%61pp.js`` is ``/web/app.js``.
    """
    path = posixpath.normpath(urllib.parse.unquote(url_path))
    if url_path.endswith("/") and path != "/":
        path += "/"
    if path in FIXED:
        return FIXED[path]
    folder, name = posixpath.split(path)
    if folder == "/web" and name:
        candidate = WEB / name
        if candidate.suffix in PAGE_SUFFIXES and candidate.is_file():
            return candidate
    return None


def content(url_path: str) -> tuple[int, str, bytes]:
    """The status, content type and body answering a GET of ``url_path``."""
    file = resolve(url_path)
    if file is None:
        problem = f"Not found: {url_path}\nThis server serves the page (/web/) and the book only.\n"
    else:
        try:
            return 200, TYPES.get(file.suffix, "application/octet-stream"), file.read_bytes()
        except OSError as error:  # the book deleted, say: `make book` writes it again
            problem = f"{file.relative_to(ROOT)} cannot be read: {error.strerror or error}\n"
    return 404, "text/plain; charset=utf-8", problem.encode()


class Handler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD for the fixed map; every other method gets 501 from the base class."""

    server_version = "tictactoe-book"

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
        status, content_type, body = content(url_path)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")  # a rebuilt book or an edited page shows on reload
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        sys.stderr.write(f"{self.address_string()} {format % args}\n")


def make_server(bind: str, port: int | None) -> http.server.ThreadingHTTPServer:
    """A server on ``port``; with None, on 8000, or on a free port when 8000 is taken."""
    if port is not None:
        return http.server.ThreadingHTTPServer((bind, port), Handler)
    try:
        return http.server.ThreadingHTTPServer((bind, DEFAULT_PORT), Handler)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        server = http.server.ThreadingHTTPServer((bind, 0), Handler)
        print(f"Port {DEFAULT_PORT} is taken; using {server.server_port} instead.", flush=True)
        return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the tic-tac-toe page and the book (nothing else).")
    parser.add_argument(
        "--port", type=int, default=None, help=f"port to listen on (default {DEFAULT_PORT}, or a free one)"
    )
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.bind, args.port)
    except OSError as error:
        where = f"{args.bind}:{args.port if args.port is not None else DEFAULT_PORT}"
        print(f"serve.py: cannot listen on {where}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"Serving the page on http://{args.bind}:{server.server_port}/web/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
