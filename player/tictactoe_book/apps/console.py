"""The standard streams and exit statuses of both command lines, ``ttt-play`` and ``ttt-book``.

Every byte either command prints goes through here, so no stream failure shows a traceback:

* text a stream cannot encode degrades to ASCII (an em dash becomes ``--``; anything else
  without an ASCII spelling becomes a backslash escape such as ``\\u2603``), never an error;
* a closed or full standard output or error ends the command with one line on standard error
  (when standard error can still be written) and status 4; a broken pipe on standard output
  (``ttt-play --watch | head -1``) ends it quietly, nothing printed, status 4;
* a standard stream that is closed when the program starts is put back on /dev/null at once,
  so that no file the program opens later can take its descriptor number (a book written to
  descriptor 1 would receive the program's messages);
* progress (player/tictactoe_book/apps/progress.py) is shown only on a terminal, on standard error, and erased
  when done.

The one exception is the game screen (``tictactoe_book.apps.tui``): curses draws on the terminal itself;
it is entered only when both ends are terminals, restores the terminal on every way out, and
leaves every message and the exit status to this module.

The statuses are the table in docs/reliability.md; ``run_cli`` is the one place that maps every
failure onto them (but an interrupt while the command is still imported, before ``run_cli``
runs: the entry points, tictactoe_book.commands and tictactoe_generator.commands, report that one).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gc
import io
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

from tictactoe_book.apps.signals import ended_by_signals
from tictactoe_book.errors import (
    MAX_ECHOED,
    MAX_ECHOED_PATH,
    BoardError,
    BookError,
    BookTooLarge,
    BuildToolMissing,
    ClusterError,
    ExportTooLarge,
    InputFileError,
    OutputError,
    ProgramWontRun,
    StreamError,
    TableMarkerError,
    echoed,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


#: The exit statuses of both command lines (docs/reliability.md), and what each means.
SUCCESS = 0
NEGATIVE = 1  # a negative answer (verify found the book wrong; a scripted game ended unfinished)
USAGE = 2  # click's own status for a bad option, option value or argument
BAD_INPUT = 3  # the book, a file to read, or standard input cannot be used
CANNOT_WRITE = 4  # a file or a standard stream cannot be written
INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it
MEANINGS = {
    SUCCESS: "done",
    NEGATIVE: "a negative answer",
    USAGE: "a usage error",
    BAD_INPUT: "the book or another input cannot be used",
    CANNOT_WRITE: "an output cannot be written",
    INTERRUPTED: "Ctrl-C",
}
#: The library's errors the command lines report as one line, and the status each ends with.
FAILURES: tuple[tuple[type[Exception], int], ...] = (
    (BookError, BAD_INPUT),
    (BoardError, BAD_INPUT),  # a position reached in play that the book cannot answer
    (InputFileError, BAD_INPUT),
    (TableMarkerError, BAD_INPUT),
    (ExportTooLarge, BAD_INPUT),
    (BookTooLarge, BAD_INPUT),
    (OutputError, CANNOT_WRITE),
    (ProgramWontRun, USAGE),
    (BuildToolMissing, NEGATIVE),
    (ClusterError, BAD_INPUT),
)


class Failure(click.ClickException):
    """One of the library's errors, as click shows it, with its status from the table."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.exit_code = status  # type: ignore[misc]


@contextlib.contextmanager
def library_failures() -> Iterator[None]:
    """The library's errors (``FAILURES``) as click's, each with its status and one line."""
    try:
        yield
    except tuple(kind for kind, _ in FAILURES) as error:
        raise Failure(
            str(error), next(status for kind, status in FAILURES if isinstance(error, kind))
        ) from None


#: What a help text's hyphens are while it is wrapped: a non-breaking hyphen, one character
#: wide as the hyphen is, so that textwrap never breaks a line inside a word at its hyphen
#: ("ttt-" at the end of one line, "play" at the start of the next).
_HELD_HYPHEN = "\u2011"


class HelpFormatter(click.HelpFormatter):
    """click's help formatter, but a line never breaks at a hyphen inside a word."""

    def write_text(self, text: str) -> None:
        super().write_text(text.replace("-", _HELD_HYPHEN))

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        held = [(term, text.replace("-", _HELD_HYPHEN)) for term, text in rows]
        super().write_dl(held, col_max, col_spacing)

    def getvalue(self) -> str:
        return super().getvalue().replace(_HELD_HYPHEN, "-")


class Context(click.Context):
    """A click context whose help is written by ``HelpFormatter``."""

    formatter_class = HelpFormatter


@contextlib.contextmanager
def long_words_cut(args: list[str]) -> Iterator[None]:
    """click's own messages for a bad command line (an unknown option, an extra argument, a
    value one of its types refuses), raised within, with each word of ``args`` longer than
    MAX_ECHOED that they repeat cut as ``echoed`` cuts a value: click repeats a word whole."""
    words = set()
    for word in args:
        words.add(word)
        if word.startswith("-") and "=" in word:  # --option=VALUE: click names either half
            words.update(word.split("=", 1))
    try:
        yield
    except click.UsageError as error:
        for word in sorted((w for w in words if len(w) > MAX_ECHOED), key=len, reverse=True):
            cut = error.message.replace(repr(word), echoed(word)).replace(word, echoed(word, str))
            error.message = cut  # type: ignore[misc]  # (Final in click's types; its own message)
        raise


class Command(click.Command):
    """A click command whose library errors end it with the table's status and one line, and
    whose usage errors repeat no word of the command line whole beyond MAX_ECHOED."""

    context_class = Context

    def make_context(self, info_name: str | None, args: list[str], *more: Any, **extra: Any) -> click.Context:
        with long_words_cut(args):
            return super().make_context(info_name, args, *more, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with library_failures():
            return super().invoke(ctx)


class Group(click.Group):
    """A click group whose commands' library errors end them with the table's status, and whose
    usage errors repeat no word of the command line whole beyond MAX_ECHOED."""

    command_class = Command
    context_class = Context

    def make_context(self, info_name: str | None, args: list[str], *more: Any, **extra: Any) -> click.Context:
        with long_words_cut(args):
            return super().make_context(info_name, args, *more, **extra)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        with long_words_cut(args):  # "No such command 'NAME'."
            return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        with library_failures():
            return super().invoke(ctx)


def exit_statuses(**meanings: str) -> str:
    """A command's "Exit status" paragraph, from the table: ``meanings`` names what a status
    means for this command, by its name in lower case (``negative="it can lose"``)."""
    named = {status: meanings.get(name.lower(), MEANINGS[status]) for name, status in _NAMES.items()}
    return "Exit status: " + "; ".join(f"{status} {meaning}" for status, meaning in named.items()) + "."


_NAMES = {
    "SUCCESS": SUCCESS,
    "NEGATIVE": NEGATIVE,
    "USAGE": USAGE,
    "BAD_INPUT": BAD_INPUT,
    "CANNOT_WRITE": CANNOT_WRITE,
    "INTERRUPTED": INTERRUPTED,
}


ASCII_ERRORS = "ttt-ascii"
ASCII_SPELLINGS = {
    "\u2014": "--",  # em dash
    "\u2013": "-",  # en dash
    "\u2212": "-",  # minus sign
    "\u2026": "...",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00d7": "x",  # multiplication sign
    "\u00b7": ".",
    "\u00e8": "e",  # misère
    "\u2500": "-",  # box drawing: light horizontal, vertical, cross and corners
    "\u2502": "|",
    "\u253c": "+",
    "\u250c": "+",
    "\u2510": "+",
    "\u2514": "+",
    "\u2518": "+",
    "\u251c": "+",
    "\u2524": "+",
    "\u252c": "+",
    "\u2534": "+",
}


class Interrupted(KeyboardInterrupt):
    """Ctrl-C with something to add to the one line that reports it: ``Interrupted. DETAIL``
    (a session's tally, as quitting would have said it)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InputProblem(click.ClickException):
    """An input that cannot be used (a book, a file to update, standard input): status 3."""

    exit_code = BAD_INPUT


class ValueProblem(click.ClickException):
    """A value given on the command line that turns out unusable only once it is used (a
    scripted move the game refuses): one line and status 2, a usage error, but without click's
    usage block, since the command line itself is well formed."""

    exit_code = USAGE


class OutputProblem(click.ClickException):
    """An output that cannot be written: status 4."""

    exit_code = CANNOT_WRITE


def names_folder(name: str) -> bool:
    """Whether ``name`` can only name a folder: it ends in a separator (``newdir/``), or its
    last part is ``.`` or ``..`` (``keep.json/.``), as POSIX resolves names.

    Judged on the text as typed: pathlib drops a trailing separator and a last ``.``
    (``Path("keep.json/")`` is ``keep.json``), so once a name is a Path this is lost.
    """
    last = name
    for separator in filter(None, (os.sep, os.altsep)):
        last = last.rpartition(separator)[2]
    return last in ("", ".", "..")


class FilePath(click.ParamType):  # type: ignore[type-arg]
    """A file name as typed: any text except the empty string, which names no file, and a name
    that names a folder (``names_folder``: ``newdir/``, ``keep.json/``), which is not a file.
    ``FilePath(folder=True)`` takes a folder's name instead, with or without the separator.

    (Not ``click.Path``: its checks give status 2 to what the exit table calls a bad input file
    (3) or an output that cannot be written (4); those are decided where the file is used.)
    """

    def __init__(self, *, folder: bool = False) -> None:
        self.folder = folder
        self.name = "FOLDER" if folder else "FILE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = os.fspath(value) if isinstance(value, os.PathLike) else value
        if not isinstance(text, str):
            self.fail(f"{echoed(text)} is not a file name", param, ctx)
        if text == "":
            self.fail("an empty name names no file", param, ctx)
        if not self.folder and names_folder(text):
            self.fail(
                f"{echoed(text, limit=MAX_ECHOED_PATH)} names a folder, not a file (a name ending in "
                "'/', '.' or '..' names a folder)",
                param,
                ctx,
            )
        return text


def given_options(ctx: click.Context, names: list[str]) -> list[str]:
    """The options among ``names`` (parameter names) that were typed on the command line, as
    they are spelled there (``--x-level``)."""
    spelled = {param.name: max(param.opts, key=len) for param in ctx.command.params}
    return [
        spelled[name]
        for name in names
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    ]


def refuse_unused(ctx: click.Context, names: list[str], why: str) -> None:
    """A usage error (status 2) naming the options among ``names`` that were given although
    they do nothing ``why`` (e.g. "without --watch")."""
    given = given_options(ctx, names)
    if given:
        verb = "does" if len(given) == 1 else "do"
        raise click.UsageError(f"{', '.join(given)} {verb} nothing {why}", ctx)


@contextlib.contextmanager
def book_in_use(book: object) -> Iterator[None]:
    """Turn a book failing while it is used into one line and status 3.

    The loader proves a book before it is used, so neither should happen; but a ``BookError``
    from an entry checked late, or a ``BoardError`` for a position the game reached and the
    book lacks, must never be a traceback.
    """
    try:
        yield
    except BookError as error:
        raise InputProblem(str(error)) from None
    except BoardError as error:
        source = getattr(book, "source", None) or "the book"
        shown = echoed(source, str, limit=MAX_ECHOED_PATH)
        raise InputProblem(f"{shown}: cannot answer for a position reached in play: {error}") from None


def _ascii_spelling(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: ASCII spellings for what the stream cannot encode."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    spelled = "".join(
        ASCII_SPELLINGS.get(char) or char.encode("ascii", "backslashreplace").decode("ascii") for char in text
    )
    return spelled, error.end


codecs.register_error(ASCII_ERRORS, _ascii_spelling)


def spelled(text: str, encoding: str) -> str:
    """``text`` as our streams write it in ``encoding``: what the encoding cannot hold in its
    ASCII spelling (for the game screen, which curses writes in the terminal's encoding)."""
    try:
        return text.encode(encoding, ASCII_ERRORS).decode(encoding)
    except LookupError:  # an encoding Python does not know: ASCII holds the spelling anyway
        return text.encode("ascii", ASCII_ERRORS).decode("ascii")


class _GuardedBuffer(io.BufferedWriter):
    """A standard stream's byte buffer whose failures name the stream (``StreamError``).

    Guarding the bytes rather than the text means that click's own writes (help, version,
    usage errors), which may wrap ``sys.stdout.buffer`` in a text layer of their own, are caught
    too.
    """

    def __init__(self, fd: int, label: str, closed: bool) -> None:
        super().__init__(io.FileIO(fd, "w", closefd=False))
        self.label = label
        self.was_closed = closed

    def write(self, data: Any) -> int:
        if self.was_closed:
            raise StreamError(self.label, OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            return super().write(data)
        except OSError as error:
            raise StreamError(self.label, error) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as error:
            raise StreamError(self.label, error) from None


def _text_stream(fd: int, label: str, closed: bool, like: Any) -> io.TextIOWrapper:
    """A text stream on ``fd`` that degrades to ASCII and names itself when it fails."""
    encoding = getattr(like, "encoding", None) or "utf-8"
    return io.TextIOWrapper(
        _GuardedBuffer(fd, label, closed),
        encoding=encoding,
        errors=ASCII_ERRORS,
        line_buffering=bool(getattr(like, "line_buffering", False)),
        write_through=fd == 2,
    )


def prepare_streams() -> frozenset[str]:
    """Make the standard streams safe to use; returns the names (``"stdin"``, ``"stdout"``,
    ``"stderr"``) of those that were closed when the program started."""
    closed = set()
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(name)
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if isinstance(sys.stdin, io.TextIOWrapper):  # (None if it was closed)
        sys.stdin.reconfigure(errors="replace")  # undecodable input is a bad move, not a crash
    for fd, name, label in ((1, "stdout", "standard output"), (2, "stderr", "standard error")):
        old = getattr(sys, name)
        if old is not None:
            with contextlib.suppress(OSError, ValueError):
                old.flush()
        setattr(sys, name, _text_stream(fd, label, name in closed, old))
    return frozenset(closed)


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` (and a newline) to standard output or error, and flush it.

    Our text goes through the stream directly rather than ``click.echo``, which re-wraps an
    ASCII stream as UTF-8 and so would bypass the ASCII spelling.
    """
    stream = sys.stderr if err else sys.stdout
    label = "standard error" if err else "standard output"
    if stream is None:
        raise StreamError(label, OSError(errno.EBADF, os.strerror(errno.EBADF)))
    try:
        stream.write(text + "\n" if nl else text)
        stream.flush()
    except StreamError:
        raise
    except OSError as error:  # a stream not set up by prepare_streams (a test's, say)
        raise StreamError(label, error) from None


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` (a file, None, or a test's stand-in) is a terminal."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _silence(fd: int) -> None:
    """Point ``fd`` at /dev/null, so that the interpreter's last flush of anything still
    buffered for it succeeds quietly instead of printing "Exception ignored"."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


def _report(line: str) -> int:
    """Show one line on standard error; SUCCESS, or CANNOT_WRITE if it could not be shown."""
    try:
        echo(line, err=True)
    except StreamError:
        _silence(2)
        return CANNOT_WRITE
    return SUCCESS


def _status(command: click.Command, prog_name: str, argv: list[str] | None, closed: frozenset[str]) -> int:
    try:
        try:
            if "stdout" in closed:  # refuse before doing anything: nothing could be reported
                raise StreamError("standard output", OSError(errno.EBADF, os.strerror(errno.EBADF)))
            result = command.main(args=argv, prog_name=prog_name, standalone_mode=False)
            sys.stdout.flush()
            return result if isinstance(result, int) else SUCCESS
        except SystemExit as done:  # a command that calls sys.exit itself
            sys.stdout.flush()
            code = done.code
            return code if isinstance(code, int) else SUCCESS if code is None else NEGATIVE
        except (click.exceptions.Abort, KeyboardInterrupt) as error:
            cause = error if isinstance(error, Interrupted) else error.__cause__  # (click's Abort)
            _report(f"Interrupted. {cause.detail}" if isinstance(cause, Interrupted) else "Interrupted.")
            return INTERRUPTED
        except click.ClickException as error:
            error.show()  # click's format: usage errors add a usage line and a hint
            return error.exit_code
        except BookError as error:  # a book that fails while in use: never a traceback
            return _report(f"Error: {error}") or BAD_INPUT
    except StreamError as error:
        fd = 1 if error.stream == "standard output" else 2
        _silence(fd)
        if fd == 1 and not error.broken_pipe:
            _report(f"Error: {error}")
        return CANNOT_WRITE


def run_cli(command: click.Command, prog_name: str, argv: list[str] | None = None) -> NoReturn:
    """Run a click command as a program: safe streams, then one status from the table.

    The command has finished and everything it wrote is flushed when the status is known, so the
    objects still alive are frozen (``gc.freeze``) before the interpreter exits: its last cyclic
    collection then skips them instead of tearing down every module, class and function one by
    one only for the process to end. The streams are still flushed and the ``atexit`` handlers
    still run; only that collection is skipped. It takes 13 to 15 ms off every run, about an
    eighth of a scripted game (docs/benchmarks.md, "How the player ends"); Synapse skips the same
    collection the same way.
    """
    closed = prepare_streams()
    with ended_by_signals():  # SIGTERM, SIGHUP: as Ctrl-C, then by the signal (apps/signals.py)
        status = _status(command, prog_name, argv, closed)
    gc.freeze()
    sys.exit(status)
