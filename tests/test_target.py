"""``ttt-book build --against-program``: the book ranked to beat one program wins against it
exactly as often as the best never-losing player (tests/oracles/best_response.py, written apart from
the product), and never loses; the audit reports that rate as how exploitable a program is."""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from oracles.best_response import best_response
from oracles.enumerate_games import match, novice_player, random_player
from test_audit import processes_running

from tictactoe_book import load_book
from tictactoe_book.play import candidates

HERE = Path(__file__).resolve().parent
ENGINES = HERE / "audit_engines"
TTT_BOOK = str(Path(sys.executable).parent / "ttt-book")
TTT_PLAY = str(Path(sys.executable).parent / "ttt-play")
sys.path.insert(0, str(ENGINES))


def textbook(board: str) -> tuple[int, ...]:
    choose: Any = importlib.import_module("rules_based").choose
    return (choose(board),)


def build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TTT_BOOK, "build", *args], capture_output=True, text=True, timeout=300, check=False, cwd=HERE
    )


@pytest.fixture(scope="module")
def targeted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("target") / "beats-textbook.json"
    done = build("--against-program", "-o", str(path), "--", sys.executable, str(ENGINES / "rules_based.py"))
    assert done.returncode == 0, done.stderr
    return path, done.stdout


def test_the_book_beats_the_textbook_rule_list_as_often_as_it_can_be_beaten(
    targeted: tuple[Path, str],
) -> None:
    path, _ = targeted
    book = load_book(path)
    assert book.against == "program"
    for mark in ("X", "O"):
        win, _, loss = match(lambda b: candidates(book.evaluate(b), "perfect"), textbook, mark)
        assert (win, loss) == (best_response(textbook, mark), 0), mark
    # the rule list misses a fork block as O (X 0, O 4, X 8, O 2?): beaten every time; as X it
    # takes the centre and is never beaten
    assert best_response(textbook, "X") == 1 and best_response(textbook, "O") == 0


def test_the_build_says_how_often_the_book_wins(targeted: tuple[Path, str]) -> None:
    path, out = targeted
    lines = out.splitlines()
    assert lines[0].startswith(f"wrote {path}: ") and "ranked against the program" in lines[0]
    assert "rules_based.py" in lines[0]
    most = "the most a never-losing player can"
    assert lines[1] == f"moving first, the book wins 100.00% of its games against it (1/1, {most})"
    assert lines[2] == f"moving second, the book wins 0.00% of its games against it (0/1, {most})"
    data = json.loads(path.read_text())
    assert data["trap_order"]["against"] == "program" and data["trap_order"]["program"].endswith(
        "rules_based.py"
    )
    assert (
        data["trap_rates"]["first"]["program"] == "1/1" and data["trap_rates"]["second"]["program"] == "0/1"
    )
    book = load_book(path)
    for name, player in (("novice", novice_player), ("random", random_player)):
        for side, mark in (("first", "X"), ("second", "O")):
            win = match(lambda b: candidates(book.evaluate(b), "perfect"), player, mark)[0]
            assert Fraction(data["trap_rates"][side][name]) == win, (name, side)


def test_only_the_positions_it_reaches_change(targeted: tuple[Path, str]) -> None:
    path, _ = targeted
    mine, packaged = (
        json.loads(path.read_text())["entries"],
        json.loads((HERE.parent / "book" / "tictactoe.json").read_text())["entries"],
    )
    assert mine.keys() == packaged.keys()
    changed = [key for key in mine if mine[key] != packaged[key]]
    assert 0 < len(changed) <= 9  # one line of play per side, at most 9 of its positions
    for key in changed:
        best, *tiers = mine[key].split(" ")
        old_best, *old_tiers = packaged[key].split(" ")
        assert best == old_best and len(tiers[0].split(",")) == 1
        assert sorted(c for tier in tiers for c in tier.split(",")) == sorted(
            c for tier in old_tiers for c in tier.split(",")
        )


def test_the_targeted_book_proves_and_plays(targeted: tuple[Path, str]) -> None:
    path, _ = targeted
    done = subprocess.run([TTT_BOOK, "verify", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert done.stdout.endswith(
        "beyond validity: counts, trap_rates against novice and random, and bytes as built; not checked: "
        'its top tiers, ranked against "program", cannot be rebuilt: a build never runs the command a '
        "book names\n"
    ), done.stdout
    done = subprocess.run(
        [TTT_PLAY, "--book", str(path), "--watch", "--delay", "0", "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Result: draw" in done.stdout, done.stdout  # the book against itself


def test_a_program_whose_answers_vary_is_said_to(tmp_path: Path) -> None:
    engine = tmp_path / "cycles.py"
    engine.write_text(
        "import sys\n"
        "n = 0\n"
        "for line in sys.stdin:\n"
        "    free = [i for i, c in enumerate(line.strip()) if c == '.']\n"
        "    n += 1\n"
        "    print(free[n % len(free)], flush=True)\n"
    )
    path = tmp_path / "b.json"
    done = build("--against-program", "--repeat", "3", "-o", str(path), "--", sys.executable, str(engine))
    assert done.returncode == 0, done.stderr
    assert "3 times each" in done.stdout and "its answers varied at" in done.stdout
    book = load_book(path)
    for mark in ("X", "O"):  # still never loses, whatever the other side plays
        assert match(lambda b: candidates(book.evaluate(b), "perfect"), random_player, mark)[2] == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--against-program"], "needs the program after --"),
        (["--against-program", "--", "true"], "--output is required with --against-program"),
        (
            ["--against-program", "-o", "x.json", "--vectors", "v.json", "--", "true"],
            "--vectors does nothing with --against-program",
        ),
        (
            ["--against-program", "-o", "x.json", "--against", "random", "--", "true"],
            "--against does nothing",
        ),
        (["--against-program", "-o", "x.json", "--rules", "4x4:4", "--", "true"], "at most 12 cells"),
        (["-o", "x.json", "--repeat", "2"], "--repeat is for --against-program"),
        (["-o", "x.json", "--", "true"], "unexpected argument 'true'"),
    ],
)
def test_misuse_is_a_usage_error_and_writes_nothing(tmp_path: Path, args: list[str], words: str) -> None:
    done = subprocess.run(
        [TTT_BOOK, "build", *args], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_program_that_will_not_run_is_one_line(tmp_path: Path) -> None:
    done = build("--against-program", "-o", str(tmp_path / "b.json"), "--", str(tmp_path / "missing"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "cannot start" in done.stderr
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- programs that fail


def common_best(board: str) -> int:
    """The audit engines' own perfect move (tests/audit_engines/common.py: no book)."""
    best: int = importlib.import_module("common").best_moves(board)[0]
    return best


#: Each engine's failures (tests/audit_engines), where it otherwise plays common_best: the
#: positions it gives no move for, each a forfeit; and the report's last line for it.
FAILING = {
    "hangs": (
        {"X........"},
        "it failed at 1 position (1 time-out), each a forfeit the book counts as a win; the first: "
        "X........ O to move, no answer within 0.5 s",
    ),
    "crashes": (
        {"....X...."},
        "it failed at 1 position (1 crash), each a forfeit the book counts as a win; the first: "
        "....X.... O to move, it exited with status 1 when asked ....X....: cannot cope with the centre",
    ),
    "illegal": (
        {"....X....", "X........", "X...O...X"},
        "it failed at 3 positions (2 illegal, 1 unreadable), each a forfeit the book counts as a win; "
        "the first: X........ O to move, an illegal answer, 9",
    ),
    "escapes": (
        {"X........", "....X...."},
        "it failed at 2 positions (1 unreadable, 1 crash), each a forfeit the book counts as a win; "
        r"the first: X........ O to move, an unreadable answer, \x1b[2K\r\x1b[3Averdict: NEVER LOSES"
        r"\x9b0m\x7f\xff",
    ),
}
#: C0 controls but the newline, DEL, C1: none may reach the terminal from a program
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize("name", sorted(FAILING))
def test_a_program_that_fails_at_some_positions_is_beaten_there_and_the_build_says_so(
    tmp_path: Path, name: str
) -> None:
    """A failure forfeits, as in the audit: the book steers for it, wins as often as the best
    never-losing reply to the program with its forfeits (tests/oracles/best_response.py), and the last
    line counts the failures and shows the first, escaped."""
    fails, last = FAILING[name]
    path = tmp_path / "b.json"
    done = subprocess.run(
        [
            TTT_BOOK,
            "build",
            "--against-program",
            "--timeout",
            "0.5",
            "-o",
            str(path),
            "--",
            sys.executable,
            str(ENGINES / f"{name}.py"),
        ],
        capture_output=True,
        timeout=300,
        check=False,
    )
    out = done.stdout.decode()  # bytes: text=True would turn a carriage return into a newline
    assert done.returncode == 0, done.stderr
    assert not CONTROLS.search(out), out
    lines = out.split("\n")
    assert lines[3] == last and lines[4:] == [""], out

    def program(board: str) -> tuple[int | None, ...]:
        return (None,) if board in fails else (common_best(board),)

    book = load_book(path)
    for mark, side in (("X", "first"), ("O", "second")):
        best = best_response(program, mark)
        assert f"moving {side}, the book wins {float(best) * 100:.2f}%" in out, (mark, out)
        assert Fraction(json.loads(path.read_text())["trap_rates"][side]["program"]) == best
        assert match(lambda b: candidates(book.evaluate(b), "perfect"), random_player, mark)[2] == 0


def unique_sleep() -> str:
    return f"300.{uuid.uuid4().int % 10**9:09d}"  # a sleep no other process runs


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ["sleep", "SLEEP"],
            "gave no move for its first board, .........: no answer within 0.5 s (and 0.5 s to start)",
        ),
        (["yes"], "gave no move for its first board, .........: an unreadable answer, y"),
        (
            [
                sys.executable,
                "-c",
                "import sys\nfor _ in sys.stdin: print('\\x1b[2J\\x1b]0;won\\x07', flush=True)",
            ],
            r"an unreadable answer, \x1b[2J\x1b]0;won\x07",
        ),
        ([sys.executable, "-c", "print(9)\nimport time; time.sleep(60)"], "an illegal answer, 9"),
        (["true"], "'true' ended before answering its first board"),
        (
            [sys.executable, "-c", "import sys; sys.exit('no board for me')"],
            "before answering its first board: no board for me",
        ),
        ([str(HERE / "no-such-program")], "cannot start"),
    ],
    ids=["hangs", "garbage", "escapes", "illegal", "exits", "crashes", "missing"],
)
def test_a_program_that_gives_no_move_for_its_first_board_will_not_run(
    tmp_path: Path, argv: list[str], words: str
) -> None:
    """One line (no control character of the program's), status 2, nothing written, and
    nothing it started left running. The programs in Python have the default 10 s to start
    (STARTUP), so that a loaded machine does not turn their answer into a time-out; the sleep,
    which never answers, half a second."""
    seconds = unique_sleep()
    startup = "0.5" if "SLEEP" in argv else "10"
    argv = [seconds if arg == "SLEEP" else arg for arg in argv]
    options = ["--against-program", "--timeout", "0.5", "--startup", startup, "-o", "b.json"]
    done = subprocess.run(
        [TTT_BOOK, "build", *options, "--", *argv],
        capture_output=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b"", err
    assert err.startswith("Error: ") and err.count("\n") == 1 and words in err, err
    assert not CONTROLS.search(err.rstrip("\n")), err
    assert list(tmp_path.iterdir()) == []
    assert no_process_left(["sleep", seconds]) == []


def no_process_left(argv: list[str]) -> list[int]:
    """The processes running ``argv`` a moment after (SIGKILL lands a little later), each then
    ended by its id."""
    deadline = time.monotonic() + 5
    while (left := processes_running(argv)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:  # a failed run's leftovers
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads the process table from /proc")
def test_nothing_the_program_started_outlives_the_build(tmp_path: Path) -> None:
    """tests/audit_engines/leaves_children.sh: a sleep in the background each time it starts,
    one in the foreground (a time-out), an exit (a crash); the book is built, and every
    process the program started is ended with it."""
    seconds = unique_sleep()
    argv = ["sh", str(ENGINES / "leaves_children.sh"), seconds]
    done = build("--against-program", "--timeout", "0.5", "-o", str(tmp_path / "b.json"), "--", *argv)
    assert done.returncode == 0, done.stderr
    assert "it failed at 2 positions (1 time-out, 1 crash)" in done.stdout
    sleep = shutil.which("sleep") or "sleep"
    assert no_process_left(["sleep", seconds]) + no_process_left([sleep, seconds]) == []


# ---------------------------------------------------------------- docs/audit.md


def documented(heading: str) -> list[str]:
    """The fenced blocks of docs/audit.md's section ``heading``, in order."""
    text = (HERE.parent / "docs" / "audit.md").read_text()
    section = text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```\n(.*?)^```", section, re.MULTILINE | re.DOTALL)


@pytest.mark.skipif(shutil.which("python3") is None, reason="the examples run python3")
def test_the_documented_examples_are_what_the_commands_print(tmp_path: Path) -> None:
    """docs/audit.md's audit of the textbook rule list, its build against it, and a program
    that will not run, each run as written (in a folder where tests/ is the tests' folder)."""
    (tmp_path / "tests").symlink_to(HERE)
    [audit_block] = documented("Example: the textbook rule list (win, block, centre, corner, edge)")
    done = subprocess.run(
        [TTT_BOOK, "audit", "--", "python3", "tests/audit_engines/rules_based.py"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1 and done.stdout == audit_block
    built, refused, failed = documented("Beating one program: `ttt-book build --against-program`")
    for block in (built, refused):
        command, *expected = block.splitlines()
        assert command.startswith("$ ttt-book ")
        done = subprocess.run(
            [TTT_BOOK, *shlex.split(command)[2:]],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            cwd=tmp_path,
        )
        assert (done.stdout + done.stderr).splitlines() == expected, command
    assert failed.strip() == FAILING["hangs"][1].replace("0.5 s", "1 s")


def test_the_targeted_book_matches_the_json_schema(targeted: tuple[Path, str]) -> None:
    """book/tictactoe.schema.json describes a book ranked against a program too (its
    trap_order.program, its program rates)."""
    import jsonschema

    schema = json.loads((HERE.parent / "book" / "tictactoe.schema.json").read_text())
    path, _ = targeted
    jsonschema.validate(json.loads(path.read_text()), schema)


def tampered(path: Path, tmp_path: Path, change: Any) -> Path:
    data = json.loads(path.read_text())
    written = change(data)
    out = tmp_path / "tampered.json"
    out.write_text(written or json.dumps(data, sort_keys=True, separators=(",", ":")))
    return out


def indent(data: dict[str, Any]) -> str:
    """The same book, indented: valid, and all but its bytes as built."""
    return json.dumps(data, sort_keys=True, indent=1)


def reorder_the_members(data: dict[str, Any]) -> str:
    """The same book, its top-level members in reverse order: valid, all but its bytes as built."""
    return json.dumps(dict(reversed(data.items())), separators=(",", ":"))


def change_rate(data: dict[str, Any]) -> None:
    data["trap_rates"]["first"]["novice"] = "1/1"


def change_count(data: dict[str, Any]) -> None:
    data["counts"]["games"] += 1


def reorder_the_empty_board(data: dict[str, Any]) -> None:
    # . . .
    # . . .      the empty board's tiers reordered another way than one move moved to the top:
    # . . .      valid (every move draws), but not what --against-program writes
    assert data["entries"]["........."].startswith("0 ")
    data["entries"]["........."] = "0 1,3,5,7 0,2,6,8 4"


def rename_the_program(data: dict[str, Any]) -> None:
    data["trap_order"]["program"] = 7


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (change_rate, "trap_rates first states"),
        (change_count, "counts are not those of a fresh build"),
        (reorder_the_empty_board, "entry '.........' '0 1,3,5,7 0,2,6,8 4' is not"),
        (rename_the_program, "trap_order is not"),
        (indent, "the bytes are not exactly what `ttt-book build --against-program` writes"),
        (reorder_the_members, "the bytes are not exactly what `ttt-book build --against-program` writes"),
    ],
    ids=["rate", "count", "entry", "trap-order", "indented", "reordered"],
)
def test_verify_finds_what_a_book_ranked_against_a_program_gets_wrong(
    targeted: tuple[Path, str], tmp_path: Path, change: Any, words: str
) -> None:
    """All but the order of its top tiers is checked: a valid book, changed where a build
    would not, is valid but not as built (status 1); so is the same book indented or with its
    members reordered, which a check of its bytes left out passed (issue 32, surviving
    mutants)."""
    path, _ = targeted
    done = subprocess.run(
        [TTT_BOOK, "verify", str(tampered(path, tmp_path, change))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "valid" in done.stdout and words in done.stdout, done.stdout
