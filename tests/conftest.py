"""Shared fixtures: the solved game, the shipped book, and the oracle with a cache."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tictactoe_book import Book, Rules, load_book
from tictactoe_generator.parts import split_document
from tictactoe_generator.solve import Retrograde, solve
from tictactoe_generator.trap import TrapArrays, trap_arrays

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
# No test reads or writes this machine's record of proven books (player/tictactoe_book/trust.py): an empty
# value turns the record off, for every process the tests start too. Tests of the record point
# it at a file of their own.
os.environ["TTT_PROVEN_RECORD"] = ""

from judges import JsJudge  # noqa: E402
from oracles import oracle  # noqa: E402
from oracles.negamax import Negamax  # noqa: E402

settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile(
    "fuzz", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def retro() -> Retrograde:
    """3x3, solved once by the array solver."""
    return solve(Rules())


@pytest.fixture(scope="session")
def exact(retro: Retrograde) -> TrapArrays:
    """The 3x3 trap order from the arrays (exact fractions)."""
    return trap_arrays(retro)


@pytest.fixture(scope="session")
def retro_3x4() -> Retrograde:
    """3x4 with k=3, solved once by the array solver for every test that needs it."""
    return solve(Rules(3, 4, 3))


@pytest.fixture(scope="session")
def boards_3x4() -> list[str]:
    """Every reachable unfinished 3x4 board (k = 3), from the independent negamax's walk."""
    negamax = Negamax(3, 4, 3)
    negamax.solve("." * 12)
    return sorted(negamax.memo)


@pytest.fixture(scope="session")
def book_3x4_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3x4 k=3 book file, as ``ttt-book build`` writes it."""
    from tictactoe_generator.writer import build_book, encode

    path = tmp_path_factory.mktemp("3x4") / "3x4.json"
    path.write_bytes(encode(build_book(Rules(3, 4, 3))))
    return path


@pytest.fixture(scope="session")
def book_4x4_k2_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book of 16 cells that is cheap to build: 4x4 with k=2 (150 KB, under a second), for
    what a 4x4 book is refused or read for without the 35 MB of 4x4 with k=4."""
    from tictactoe_generator.writer import build_book, encode

    path = tmp_path_factory.mktemp("4x4k2") / "4x4k2.json"
    path.write_bytes(encode(build_book(Rules(4, 4, 2))))
    return path


@pytest.fixture(scope="session")
def proven_4x4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """The 4x4 k=4 book's path and an environment whose record of proven books holds it (tests
    marked ``big``: ``ttt-book build`` makes it, about 25 s and 1.5 GiB; ``TTT_BOOK_4X4=FILE`` names
    one already built instead, proven once here)."""
    folder = tmp_path_factory.mktemp("4x4")
    env = {**os.environ, "TTT_PROVEN_RECORD": str(folder / "proven.txt"), "NO_COLOR": "1"}
    env.pop("TTT_BOOK", None)
    given = os.environ.get("TTT_BOOK_4X4")
    if given:
        path = Path(given)
        subprocess.run([str(BIN / "ttt-book"), "verify", str(path)], env=env, check=True, capture_output=True)
    else:
        path = folder / "4x4.json"
        build = [str(BIN / "ttt-book"), "build", "--rules", "4x4:4", "--no-vectors", "-o", str(path)]
        subprocess.run(build, env=env, check=True, capture_output=True)  # proven, then recorded
    yield path, env


@pytest.fixture(scope="session")
def v2_4x4(proven_4x4: tuple[Path, dict[str, str]]) -> Iterator[Book]:
    """The 4x4 k=4 book (``proven_4x4``), loaded as recorded."""
    path, env = proven_4x4
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TTT_PROVEN_RECORD", env["TTT_PROVEN_RECORD"])
        book = load_book(path, rules=None)
    assert book.trust == "recorded"
    yield book


@pytest.fixture(scope="session")
def parts_4x4(v2_4x4: Book, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 4x4 k=4 book by parts, split from ``v2_4x4``."""
    folder = tmp_path_factory.mktemp("4x4-parts")
    for name, data in split_document(v2_4x4.data).items():
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture
def book() -> Book:
    """The shipped book, loaded for each test (about 5 ms). A Book remembers the answers it has
    given, so a book shared between tests would let a faulty memo make a test's verdict depend on
    what other tests asked before it (one shared for the session did: a memo keyed without who
    moved first failed four tests or passed them by the order they ran in)."""
    return load_book(ROOT / "book" / "tictactoe.json")


@pytest.fixture(scope="session")
def js_judge() -> Iterator[JsJudge]:
    """The JavaScript reader as a judge of book files, one node process for the session."""
    try:
        judge = JsJudge()
    except FileNotFoundError:
        pytest.skip("node is not installed")
    yield judge
    judge.close()


@pytest.fixture(scope="session")
def cached_oracle() -> functools._lru_cache_wrapper[oracle.Result]:
    @functools.cache
    def solve_cached(board: str) -> oracle.Result:
        return max(oracle.move_results(board, solve_cached).values(), key=oracle.rank)

    return solve_cached


@pytest.fixture(scope="session")
def reachable() -> tuple[set[str], set[str]]:
    return oracle.all_positions()
