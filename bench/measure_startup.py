"""The start-up goal: a scripted game from the installed wheel against ``python -c "import click"``."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tools import (
    BIN,
    BOOK,
    PYTHON,
    ROOT,
    Process,
    alternate,
    clean_env,
    import_breakdown,
    paired_ratio,
    peak_memory_kib,
    run_checked,
)

from tictactoe_book.apps.script import play_script
from tictactoe_book.play import Rng
from tictactoe_book.reader import Book

#: The start-up goal: the packaged game within this many times ``python -c "import click"``.
GOAL = 1.5
#: Rounds of the alternated start-up processes (the goal asks for at least 21).
ROUNDS = 41
SEED = 3


@contextmanager
def installed_wheel() -> Iterator[Path]:
    """A temporary directory holding this checkout built as a wheel and installed in ``site/``.

    With ``PYTHONPATH=<dir>/site`` the player and its book come from the wheel, as for a user.
    """
    with tempfile.TemporaryDirectory(prefix="ttt-bench-") as tmp:
        work = Path(tmp)
        pip = [PYTHON, "-m", "pip", "--disable-pip-version-check"]
        run_checked([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", tmp, str(ROOT)])
        (wheel,) = work.glob("tictactoe_book-*.whl")
        run_checked([*pip, "install", "--quiet", "--no-deps", "--target", str(work / "site"), str(wheel)])
        yield work


# Run inside the installed wheel: checks that the book is the packaged one, trusted, and times
# load_book() against json.loads of the same bytes, alternated (argv[1] rounds), in that one process.
PACKAGED_PROBE = """\
import json, statistics, sys, time
import tictactoe_book
from tictactoe_book.reader import load_book
book = load_book()
with open(book.source, 'rb') as handle:
    text = handle.read().decode()
fns = {'load_book_ms': load_book, 'json_loads_ms': lambda: json.loads(text)}
times = {name: [] for name in fns}
for _ in range(int(sys.argv[1])):
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        times[name].append(time.perf_counter() - start)
medians = {name: statistics.median(values) * 1e3 for name, values in times.items()}
print(json.dumps({'trust': book.trust, 'player': tictactoe_book.__file__, 'book': book.source, **medians}))
"""


def packaged_load(site: Path, env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """The packaged path's figures; stops the bench unless the wheel's book is trusted as packaged."""
    out = run_checked([PYTHON, "-c", PACKAGED_PROBE, "51"], env=env, cwd=cwd)
    found: dict[str, Any] = json.loads(out.stdout)
    if found["trust"] != "packaged" or not found["player"].startswith(str(site)):
        sys.exit(
            "bench: the installed wheel does not run on its packaged, trusted book "
            f"(trust {found['trust']!r}, player from {found['player']}, book {found['book']}); "
            "the start-up goal is measured on the packaged path only"
        )
    return found


def finishing_moves(book: Book, seed: int) -> str:
    """Moves (cells 1-9) that finish the scripted game the player plays with ``seed``."""
    moves: list[int] = []
    while True:
        game = play_script(book, moves, rng=Rng(seed))  # the player's own choices from --seed
        if game.is_over:
            return ",".join(map(str, moves))
        moves.append(game.free_cells()[0] + 1)


def startup(book: Book) -> dict[str, Any]:
    """The start-up goal and what the packaged path costs, measured on the installed wheel."""
    moves = finishing_moves(book, SEED)
    args = ["--moves", moves, "--seed", str(SEED)]
    # the dev install given the checkout's book by path, with no record of proven books: it
    # proves the book on every load, as every --book or TTT_BOOK book not proven before
    dev_args, dev_env = ["--book", str(BOOK), *args], clean_env(TTT_PROVEN_RECORD="")
    with installed_wheel() as work:
        site = work / "site"
        packaged_env = clean_env(PYTHONPATH=str(site))
        packaged = packaged_load(site, packaged_env, work)
        games = {
            "packaged": run_checked([str(site / "bin" / "ttt-play"), *args], env=packaged_env, cwd=work),
            "dev": run_checked([str(BIN / "ttt-play"), *dev_args], env=dev_env, cwd=work),
        }
        if games["packaged"].stdout != games["dev"].stdout:
            shown = "\n".join(f"{name}:\n{done.stdout}" for name, done in games.items())
            sys.exit(f"bench: the packaged and the dev player print different games:\n{shown}")
        samples = alternate(
            {
                "click": Process([PYTHON, "-c", "import click"], packaged_env),
                "packaged": Process([str(site / "bin" / "ttt-play"), *args], packaged_env),
                "dev": Process([str(BIN / "ttt-play"), *dev_args], dev_env),
                "python": Process([PYTHON, "-c", "pass"], packaged_env),
            },
            ROUNDS,
            work,
        )
        times = {name: statistics.median(values) for name, values in samples.items()}
        ratio = paired_ratio(samples["packaged"], samples["click"])
        game_code = "sys.argv = ['ttt-play', *{!r}]\nfrom tictactoe_book.commands import ttt_play\nttt_play()"
        memory = {
            "packaged_kib": peak_memory_kib(game_code.format(args), packaged_env, work),
            "dev_kib": peak_memory_kib(game_code.format(dev_args), dev_env, work),
            "click_kib": peak_memory_kib("import click", packaged_env, work),
        }
        imports = import_breakdown([str(site / "bin" / "ttt-play"), *args], packaged_env, work)
    return {
        "moves": moves,
        "rounds": ROUNDS,
        "goal": GOAL,
        "packaged_game_s": times["packaged"],
        "dev_game_s": times["dev"],
        "import_click_s": times["click"],
        "python_s": times["python"],
        # the goal's ratio, round by round (``paired_ratio``); the ratio of the medians beside it
        "ratio": ratio,
        "ratio_of_medians": times["packaged"] / times["click"],
        "dev_ratio": paired_ratio(samples["dev"], samples["click"]),
        "meets_goal": ratio <= GOAL,
        "packaged_load": {k: packaged[k] for k in ("trust", "load_book_ms", "json_loads_ms")},
        "peak_memory": memory,
        "imports": imports,
    }
