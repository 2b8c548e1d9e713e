"""``ttt-play``: play tic-tac-toe against the book in a terminal, or script a game.

A thin click layer over the apps: player/tictactoe_book/apps/script.py (a scripted game, the moves given up
front), lines.py (line by line), screen.py and tui.py (the game screen), watch.py (computer
against computer) and engine.py (JSON Lines). Each mode's module is imported when the mode
runs, as ttt-book imports a command's (click's lazy subcommands): a scripted game, the most
frequent start, pays for none of the screen's or the engine's modules (docs/benchmarks.md,
"Start-up"), and no platform without curses (Windows) needs it for anything but the screen.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import click

from tictactoe_book import __version__
from tictactoe_book.apps.console import (
    Command,
    FilePath,
    InputProblem,
    Interrupted,
    ValueProblem,
    book_in_use,
    echo,
    exit_statuses,
    is_terminal,
    refuse_unused,
    run_cli,
)
from tictactoe_book.apps.options import (
    DELAY,
    LEVEL,
    MARK,
    SeedParam,
    book_choice_options,
    colour_wanted,
    open_book,
    painter,
)
from tictactoe_book.apps.script import parse_moves, play_script, transcript_json, transcript_text
from tictactoe_book.book import Book
from tictactoe_book.errors import ScriptError
from tictactoe_book.game import FIRST, SECOND
from tictactoe_book.opponents import described
from tictactoe_book.play import MAX_SEED, Rng, random_seed

WATCH_DELAY = 0.8  # seconds between watched moves on a terminal: time to see each one
MAX_STDIN_MOVES = 2000  # characters of moves read from standard input (parse_moves allows 1000)
MAX_READ = 4096  # characters of one interactive line kept; the rest of a longer line is dropped


@click.command(
    cls=Command,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=exit_statuses(
        negative="a scripted game's moves ran out before the end",
        bad_input="the book or standard input cannot be used",
    ),
)
@click.option("--mark", type=MARK, default=FIRST, show_default=True, help="The mark you play.")
@click.option("--first", type=MARK, default=FIRST, show_default=True, help="Which mark moves first.")
@click.option(
    "--level",
    type=LEVEL,
    default="perfect",
    show_default=True,
    help="The computer's level (see LEVELS above).",
)
@click.option(
    "--seed",
    type=SeedParam(),
    default=None,
    help=f"Make the computer's choices reproducible (0 to {MAX_SEED}).",
)
@click.option(
    "--book",
    "book_path",
    type=FilePath(),
    envvar="TTT_BOOK",
    default=None,
    help="Play from this book file instead of the packaged one, by the rules it states (board, "
    "k, misère). Env: TTT_BOOK (empty: unset).",
)
@book_choice_options(
    against_help="Whom the perfect level plays to beat: it wins as often as a never-losing player "
    f"can against {described()}. The other levels play as they do.",
    misere_help="Misère: completing a line loses. Plays the packaged 3x3 misère book; with --book, "
    "the book must be a misère one (a usage error otherwise).",
)
@click.option(
    "--moves",
    default=None,
    metavar="LIST",
    help="Play these moves of yours (cell numbers, 1-9 or 1-N on a board of N cells, separated by "
    "commas or spaces) without prompting, then print the game (examples above). Moves are also "
    "read from standard input when it is not a terminal.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="With --moves, moves piped in, or --watch: print a JSON transcript: the moves (cells "
    "numbered from 0, as in the book and every JSON output: its member cells_from says so), the "
    "board, the winner (X, O or null), the result on the board (X wins, O wins, draw or "
    "unfinished) and the outcome for you (win, loss, draw or unfinished; null when the computer "
    "plays both sides).",
)
@click.option("--watch", is_flag=True, help="Watch the computer play itself.")
@click.option(
    "--engine",
    is_flag=True,
    help="Serve JSON Lines requests on standard input, one answer line each on standard output, "
    "until the input ends (docs/engine.md). --seed seeds choices asked for without a seed.",
)
@click.option("--x-level", type=LEVEL, default="perfect", show_default=True, help="With --watch: X's level.")
@click.option("--o-level", type=LEVEL, default="perfect", show_default=True, help="With --watch: O's level.")
@click.option(
    "--delay",
    type=DELAY,
    default=None,
    show_default=f"{WATCH_DELAY:g} on a terminal, 0 otherwise",
    help="With --watch: seconds to pause after each move, 0 to 10.",
)
@click.option(
    "--interactive",
    is_flag=True,
    help="Play line by line, prompting for each move, even when standard input is not a terminal.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="On a terminal, play line by line (type a move, press Enter) instead of on the game screen; "
    "with --watch, print the moves line by line.",
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
    against: str | None,
    misere: bool,
    moves: str | None,
    as_json: bool,
    watch: bool,
    engine: bool,
    x_level: str,
    o_level: str,
    delay: float,
    interactive: bool,
    plain: bool,
    color: bool | None,
) -> None:
    """Play tic-tac-toe against a computer that plays from the solved book.

    Cells are numbered 1-9 in reading order, like a phone keypad read from the top:

    \b
        1 | 2 | 3
        4 | 5 | 6
        7 | 8 | 9

    A --book for another board (4x4, 3x4, ...) is played by its own rules, its cells numbered
    the same way, 1 up in reading order (on 4x4: 1-4 the top row, 13-16 the bottom one). On the
    screen type both digits for 10 and up; a 1 that could begin one waits: 1 then Enter plays 1.

    On a terminal the game is a screen. Keys: arrows move the highlight and Enter (or space)
    plays it; 1-9 play a cell; h shows or hides the hint; u undoes your last move and the
    computer's reply; ? help; q quits (Ctrl-C too). With --plain, TERM=dumb or --interactive
    the game is played line by line instead: type the same keys, then Enter.

    The hint gives every free cell's outcome with best play from both sides: W win, D draw,
    L loss, with the number of moves to the end, both sides' counted (L6: a loss in 6 moves);
    * marks the book's own move, drawn brightest, and one line says why the book prefers it.
    The cells keep their numbers beside the hint.

    \b
    LEVELS (--level, --x-level, --o-level; default perfect), from the book alone:
      perfect  never loses; of the best moves, plays those that win most often
      hard     looks 4 moves ahead: wins and forks, avoids losing within 4
      medium   looks 2 moves ahead: wins at once, blocks an immediate threat
      easy     takes an immediate win, otherwise plays at random

    Scripted games: --moves plays your moves (cell numbers) without prompts and prints the
    game, or a JSON transcript with --json; moves piped to standard input do the same. The
    computer's answers vary from game to game unless --seed fixes them, so a list that fits
    one game may name a taken cell in the next. --watch: the computer plays itself, X at
    --x-level against O at --o-level, pausing --delay seconds after each move: on the game
    screen on a terminal (q leaves), line by line with --plain or --json or when piped.

    \b
    Examples:
      $ ttt-play --moves 5,1,6,2,7 --seed 2
      $ echo 5 1 6 2 7 | ttt-play --seed 2
      $ ttt-play --moves 5,1,6,2,7 --seed 2 --json
      $ ttt-play --watch --x-level easy --seed 1
      $ ttt-play --misere --watch --seed 1
    """
    ctx = click.get_current_context()
    if engine:
        refuse_unused(
            ctx, [p.name for p in ctx.command.params if p.name not in ENGINE_OPTIONS], "with --engine"
        )
        book = open_book(book_path, misere, against and against.lower())
        serve_engine(book, Rng(random_seed() if seed is None else seed), packaged=book_path is None)
        return
    stdin_is_terminal = sys.stdin is not None and sys.stdin.isatty()
    if watch:
        refuse_unused(
            ctx,
            ["mark", "level", "moves", "interactive"],
            "with --watch (X and O levels: --x-level, --o-level)",
        )
    else:
        refuse_unused(ctx, ["x_level", "o_level", "delay"], "without --watch")
        if moves is not None:
            refuse_unused(ctx, ["interactive", "plain"], "with --moves")
        elif interactive or stdin_is_terminal:
            refuse_unused(ctx, ["as_json"], "in an interactive game (it needs --moves or --watch)")
        else:
            refuse_unused(ctx, ["plain"], "when the moves are read from standard input")
    mark, first, level = mark.upper(), first.upper(), level.lower()
    if seed is None:  # pick one, so that a transcript can say how to replay the game
        seed = random_seed()
    rng = Rng(seed)
    book = open_book(book_path, misere, against and against.lower())
    colour = colour_wanted(sys.stdout, color)
    with book_in_use(book):
        if watch:
            levels = {FIRST: x_level.lower(), SECOND: o_level.lower()}
            on_screen = not (plain or as_json) and screen_possible(sys.stdin, sys.stdout)
            watch_mode(
                book, first, levels, rng, seed, watch_delay(delay, sys.stdout), on_screen, as_json, colour
            )
            return
        source = "--moves"
        if moves is None and not interactive and not stdin_is_terminal:
            moves, source = read_standard_input(MAX_STDIN_MOVES), "standard input"
        if moves is not None:
            run_script(
                book,
                moves,
                mark=mark,
                first=first,
                level=level,
                rng=rng,
                seed=seed,
                as_json=as_json,
                source=source,
            )
            return
        on_screen = not (plain or interactive) and screen_possible(sys.stdin, sys.stdout)
        if on_screen and play_on_screen(book, mark, first, level, rng, colour):
            return
        session_loop(book, mark=mark, first=first, level=level, rng=rng, paint=painter(colour), write=echo)


def play_on_screen(book: Book, mark: str, first: str, level: str, rng: Rng, colour: bool) -> bool:
    """A game on the game screen, then the tally; False (after one line saying why) when the
    screen cannot be used here."""
    from tictactoe_book.apps import tui
    from tictactoe_book.apps.screen import ScreenSession

    problem = tui.unusable(book.rules.rows, book.rules.cols)
    if problem is not None:
        echo(f"Playing line by line: {problem}.")
        return False
    session = ScreenSession(book, human=mark, first=first, level=level, rng=rng)
    try:
        tui.play(session, colour=colour)
    except KeyboardInterrupt:
        raise Interrupted(f"Tally: {session.tally}.") from None
    echo(f"Goodbye. Tally: {session.tally}.")
    return True


def watch_mode(
    book: Book,
    first: str,
    levels: dict[str, str],
    rng: Rng,
    seed: int,
    delay: float,
    on_screen: bool,
    as_json: bool,
    colour: bool,
) -> None:
    """``--watch``: on the game screen when ``on_screen`` and it can be used, else line by line
    (with ``as_json``, the JSON transcript at the end instead of the moves as they come)."""
    from tictactoe_book.apps.watch import watch_game

    if on_screen and watch_on_screen(book, first, levels, rng, delay, colour):
        return
    game = watch_game(
        book,
        first=first,
        levels=levels,
        rng=rng,
        write=echo,
        paint=painter(colour),
        delay=delay,
        quiet=as_json,
    )
    if as_json:
        echo(transcript_json(game, None, f"X {levels[FIRST]}, O {levels[SECOND]}", seed))


#: The options --engine uses; any other typed with it is refused.
ENGINE_OPTIONS = ("engine", "seed", "book_path", "misere", "against")


def serve_engine(book: Book, rng: Rng, *, packaged: bool = False) -> None:
    """``--engine``: answer request lines until standard input ends (player/tictactoe_book/apps/engine.py).
    With the ``packaged`` book, a request against another opponent gets the packaged book ranked
    against it."""
    from tictactoe_book.apps.engine import MAX_LINE, Engine, serve

    if sys.stdin is None:
        raise InputProblem("standard input is closed: the engine reads its requests there")

    def lines() -> Iterator[str]:
        while True:
            try:
                line = sys.stdin.readline(MAX_LINE + 1)
                rest = line
                while rest and not rest.endswith("\n"):  # drop the rest of an over-long line
                    rest = sys.stdin.readline(MAX_LINE + 1)
            except OSError as error:
                raise InputProblem(f"standard input cannot be read ({error.strerror or error})") from None
            if not line:
                return
            yield line

    with book_in_use(book):
        books = (lambda against: open_book(None, book.rules.misere, against)) if packaged else None
        serve(Engine(book, rng=rng, books=books), lines(), echo)


def watch_on_screen(
    book: Book, first: str, levels: dict[str, str], rng: Rng, delay: float, colour: bool
) -> bool:
    """``--watch`` on the game screen, then the final board and result left on the terminal;
    False (after one line saying why) when the screen cannot be used here."""
    from tictactoe_book.apps import tui
    from tictactoe_book.apps.watch import WatchSession, result_text
    from tictactoe_book.notation import grid

    problem = tui.unusable(book.rules.rows, book.rules.cols)
    if problem is not None:
        echo(f"Watching line by line: {problem}.")
        return False
    session = WatchSession(book, first=first, levels=levels, delay=delay, rng=rng)
    tui.watch(session, colour=colour)
    echo(grid(session.game.position, painter(colour)))
    echo(result_text(session.game))
    return True


def watch_delay(given: float | None, stream: object) -> float:
    """``--delay`` if given; else long enough to follow the game on a terminal, 0 otherwise."""
    if given is not None:
        return given
    return WATCH_DELAY if is_terminal(stream) else 0.0


def screen_possible(stdin: object, stdout: object) -> bool:
    """Whether the game can be a screen: both ends a terminal that is not TERM=dumb."""
    if os.environ.get("TERM", "") in ("", "dumb"):
        return False
    return is_terminal(stdin) and is_terminal(stdout)


def read_standard_input(limit: int) -> str:
    """Up to ``limit`` characters of standard input; status 3 if it is closed or unreadable."""
    if sys.stdin is None:
        raise InputProblem("standard input is closed: give the moves with --moves, or run in a terminal")
    try:
        return sys.stdin.read(limit)
    except OSError as error:
        raise InputProblem(f"standard input cannot be read ({error.strerror or error})") from None


def read_line(limit: int = MAX_READ) -> str | None:
    """One line of standard input without its newline, None at its end. At most ``limit``
    characters are kept: the rest of a longer line is read and dropped, so memory stays bounded
    (the session refuses any line over its own much smaller limit anyway)."""
    if sys.stdin is None:
        raise InputProblem("standard input is closed: give the moves with --moves, or run in a terminal")
    try:
        line = sys.stdin.readline(limit)
        rest = line
        while rest and not rest.endswith("\n"):
            rest = sys.stdin.readline(limit)
    except OSError as error:
        raise InputProblem(f"standard input cannot be read ({error.strerror or error})") from None
    if not line:
        return None
    return line.rstrip("\n")


def run_script(
    book: Book,
    moves: str,
    *,
    mark: str,
    first: str,
    level: str,
    rng: Rng,
    seed: int | None,
    as_json: bool,
    source: str = "--moves",
) -> None:
    """Play a scripted game and print it; a bad move list is a usage error (status 2), a game
    the moves leave unfinished a negative answer (status 1)."""
    try:
        game = play_script(book, parse_moves(moves), human=mark, first=first, level=level, rng=rng)
    except ScriptError as error:
        raise ValueProblem(f"{source}: {error}") from None
    echo(transcript_json(game, mark, level, seed) if as_json else transcript_text(game, mark, level))
    if not game.is_over:
        click.get_current_context().exit(1)


def session_loop(  # type: ignore[no-untyped-def]
    book: Book, *, mark: str, first: str, level: str, rng: Rng, paint, write
) -> None:
    """The interactive games; Ctrl-D ends them, Ctrl-C is handled by ``run``."""
    from tictactoe_book.apps.lines import run_session

    def prompt_and_read(prompt: str) -> str | None:
        echo(prompt, nl=False)
        return read_line()

    with book_in_use(book):
        run_session(
            book,
            human=mark,
            first=first,
            level=level,
            read_line=prompt_and_read,
            write=write,
            paint=paint,
            rng=rng,
        )


def run(argv: list[str] | None = None) -> None:
    """Console entry: the exit-status table of docs/reliability.md, never a traceback."""
    run_cli(main, "ttt-play", argv)
