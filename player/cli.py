"""``ttt-play``: play tic-tac-toe against the book in a terminal, or script a game.

A thin click layer over ``player.session`` (interactive), ``player.script`` (scripted) and
``player.watch`` (computer against computer).
"""

from __future__ import annotations

import os
import random
import sys

import click

from player import __version__
from player.board import FIRST, SECOND
from player.book import Book, load_book
from player.errors import BookError
from player.levels import LEVELS
from player.script import ScriptError, parse_moves, play_script, transcript_json, transcript_text
from player.session import run_session

MARK = click.Choice([FIRST, SECOND], case_sensitive=False)
LEVEL = click.Choice(list(LEVELS), case_sensitive=False)
COLOURS = {"X": {"fg": "cyan", "bold": True}, "O": {"fg": "yellow", "bold": True}, "free": {"dim": True}}


class BookProblem(click.ClickException):
    """A book that cannot be used: one line naming the file, exit status 2."""

    exit_code = 2


def colour_wanted(stream: object, forced: bool | None) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb."""
    if forced is not None:
        return forced
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def painter(enabled: bool):  # type: ignore[no-untyped-def]
    """``paint(text, kind)`` colouring X, O and free cells when ``enabled``."""
    if not enabled:
        return lambda text, kind: text
    return lambda text, kind: click.style(text, **COLOURS.get(kind, {}))  # type: ignore[arg-type]


def open_book(path: str | None) -> Book:
    """Load and prove the book for play; BookProblem on failure."""
    try:
        return load_book(path)
    except BookError as error:
        raise BookProblem(str(error)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--mark", type=MARK, default=FIRST, show_default=True, help="The mark you play.")
@click.option("--first", type=MARK, default=FIRST, show_default=True, help="Which mark moves first.")
@click.option(
    "--level",
    type=LEVEL,
    default="perfect",
    show_default=True,
    help="The computer's level: perfect never loses; hard, medium and easy make "
    "human-like mistakes (see the README).",
)
@click.option("--seed", type=int, default=None, help="Make the computer's choices reproducible.")
@click.option(
    "--book",
    "book_path",
    type=click.Path(),
    envvar="TTT_BOOK",
    default=None,
    help="Play from this book file instead of the packaged one. Env: TTT_BOOK.",
)
@click.option(
    "--moves",
    default=None,
    metavar="LIST",
    help="Play these moves of yours (cells 1-9, e.g. 5,1,9) without prompting, then "
    "print the game. Moves are also read from standard input when it is not a terminal.",
)
@click.option("--json", "as_json", is_flag=True, help="With --moves or --watch: print a JSON transcript.")
@click.option("--watch", is_flag=True, help="Watch the computer play itself.")
@click.option("--x-level", type=LEVEL, default="perfect", show_default=True, help="With --watch: X's level.")
@click.option("--o-level", type=LEVEL, default="perfect", show_default=True, help="With --watch: O's level.")
@click.option(
    "--delay",
    type=click.FloatRange(0, 10),
    default=0.0,
    show_default=True,
    help="With --watch: seconds to pause after each move.",
)
@click.option(
    "--interactive", is_flag=True, help="Prompt for moves even when standard input is not a terminal."
)
@click.option(
    "--color/--no-color",
    "color",
    default=None,
    help="Force colour on or off (default: on for a terminal unless NO_COLOR is set).",
)
@click.version_option(__version__, prog_name="ttt-play")
def main(
    mark: str,
    first: str,
    level: str,
    seed: int | None,
    book_path: str | None,
    moves: str | None,
    as_json: bool,
    watch: bool,
    x_level: str,
    o_level: str,
    delay: float,
    interactive: bool,
    color: bool | None,
) -> None:
    """Play tic-tac-toe against a computer that plays from the solved book.

    Type a cell number (1-9, in reading order) to move; h for a hint, u to undo, ? for help,
    q to quit. With --moves (or moves piped in) the game is played without prompts.
    """
    mark, first, level = mark.upper(), first.upper(), level.lower()
    if seed is None:  # pick one, so that a transcript can say how to replay the game
        seed = int.from_bytes(os.urandom(6), "big")
    rng = random.Random(seed)
    book = open_book(book_path)
    colour = colour_wanted(sys.stdout, color)
    paint = painter(colour)

    def write(text: str) -> None:
        click.echo(text, color=colour)

    if watch:
        from player.watch import watch_game

        game = watch_game(
            book,
            first=first,
            levels={FIRST: x_level.lower(), SECOND: o_level.lower()},
            rng=rng,
            write=write,
            paint=paint,
            delay=delay,
            quiet=as_json,
        )
        if as_json:
            click.echo(transcript_json(game, None, f"X {x_level.lower()}, O {o_level.lower()}", seed))
        return
    if moves is None and not interactive and not sys.stdin.isatty():
        moves = sys.stdin.read(2000)
    if moves is not None:
        run_script(book, moves, mark=mark, first=first, level=level, rng=rng, seed=seed, as_json=as_json)
        return
    session_loop(book, mark=mark, first=first, level=level, rng=rng, paint=paint, write=write)


def run_script(
    book: Book,
    moves: str,
    *,
    mark: str,
    first: str,
    level: str,
    rng: random.Random,
    seed: int | None,
    as_json: bool,
) -> None:
    """Play a scripted game and print it; a bad move list is a usage error (status 2)."""
    try:
        game = play_script(book, parse_moves(moves), human=mark, first=first, level=level, rng=rng)
    except ScriptError as error:
        raise click.BadParameter(str(error), param_hint="'--moves'") from None
    except BookError as error:
        raise BookProblem(str(error)) from None
    click.echo(transcript_json(game, mark, level, seed) if as_json else transcript_text(game, mark, level))
    if not game.is_over:
        sys.exit(1)


def session_loop(  # type: ignore[no-untyped-def]
    book: Book, *, mark: str, first: str, level: str, rng: random.Random, paint, write
) -> None:
    """The interactive games; Ctrl-D ends them, Ctrl-C is handled by ``run``."""

    def read_line(prompt: str) -> str | None:
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            return None
        return line.rstrip("\n")

    try:
        run_session(
            book,
            human=mark,
            first=first,
            level=level,
            read_line=read_line,
            write=write,
            paint=paint,
            rng=rng,
        )
    except BookError as error:
        raise BookProblem(str(error)) from None


def run(argv: list[str] | None = None) -> None:
    """Console entry: click's command with a clean, short exit on Ctrl-C (status 130)."""
    try:
        code = main.main(args=argv, prog_name="ttt-play", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("\nInterrupted.", err=True)
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
