"""The ``ttt-play`` entry point, with a fast path for scripted games.

Measured on the project's machines (docs/benchmarks.md): importing click costs more than twice
the bare interpreter's start-up, so a scripted game (``ttt-play --moves 5,1,9``, the case that
is run in loops) is parsed here with no click and played by the same library functions the
click command uses. Anything this parser does not fully understand — any other option, any
malformed value, any error while playing — goes to the click command instead, so every
message and exit status still comes from click. A test runs both paths on the same arguments
and compares their output.
"""

from __future__ import annotations

import os
import sys

from player.levels import LEVELS

_VALUE_OPTIONS = {"--moves", "--seed", "--level", "--mark", "--first", "--book"}
_FLAGS = {"--json"}


def parse_fast(argv: list[str]) -> dict[str, str | bool] | None:
    """The options of a plain scripted game, or None if click should parse ``argv``."""
    found: dict[str, str | bool] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in _FLAGS and not eq:
            found[name] = True
            i += 1
            continue
        if name not in _VALUE_OPTIONS or name in found:
            return None
        if not eq:
            if i + 1 >= len(argv):
                return None
            value = argv[i + 1]
            i += 1
        found[name] = value
        i += 1
    if "--moves" not in found:
        return None
    seed = found.get("--seed")
    if seed is not None and not (isinstance(seed, str) and seed.lstrip("-").isdigit() and seed.isascii()):
        return None
    for option, allowed in (("--mark", ("X", "O")), ("--first", ("X", "O")), ("--level", LEVELS)):
        given = found.get(option)
        if given is not None and not (
            isinstance(given, str) and (given.upper() in allowed or given in allowed)
        ):
            return None
    return found


def run_fast(options: dict[str, str | bool]) -> bool:
    """Play and print a scripted game; False (having printed nothing) if anything went wrong."""
    import random

    from player.book import load_book
    from player.errors import BookError
    from player.script import ScriptError, parse_moves, play_script, transcript_json, transcript_text

    seed_text = options.get("--seed")
    seed = int(seed_text) if isinstance(seed_text, str) else None
    mark = str(options.get("--mark", "X")).upper()
    first = str(options.get("--first", "X")).upper()
    level = str(options.get("--level", "perfect")).lower()
    book_path = str(options.get("--book") or os.environ.get("TTT_BOOK") or "")
    try:
        book = load_book(book_path or None, lazy=True)
        game = play_script(
            book,
            parse_moves(str(options["--moves"])),
            human=mark,
            first=first,
            level=level,
            rng=random.Random(seed),
        )
    except (BookError, ScriptError, ValueError):
        return False
    text = (
        transcript_json(game, mark, level, seed)
        if options.get("--json")
        else transcript_text(game, mark, level)
    )
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    if not game.is_over:
        sys.exit(1)
    return True


def main() -> None:
    """``ttt-play``: the fast path when it applies, click otherwise."""
    try:
        _main(sys.argv[1:])
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        sys.exit(130)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def _main(argv: list[str]) -> None:
    options = parse_fast(argv)
    if options is not None:
        if "--seed" not in options:
            # Fix the seed so that, should the fast path fail part-way, click replays the very
            # same game and reports the same problem.
            # (click picks a seed the same way when none is given; the transcript reports it.)
            options["--seed"] = argv_seed = str(int.from_bytes(os.urandom(6), "big"))
            if run_fast(options):
                return
            argv = [*argv, "--seed", argv_seed]
        elif run_fast(options):
            return
    from player.cli import run

    run(argv)
