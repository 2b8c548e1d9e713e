"""What a big book's first load shows (issue 25, 2): it takes seconds (4x4: about 15), and a
blank terminal for that long looks like a hang.

* The reader tells how far it has gone (``load_book(progress=...)``): ``"read"`` with the file's
  size, then ``"prove"`` with the entries checked, from 0 to all, in steps; the verdict is the
  same with or without anyone told.
* ``ttt-play`` shows it on standard error when that is a terminal, read back here through a
  terminal emulator as a person sees it: "Reading NAME (1 MB)..." at once for a book over
  1 MB, then "Proving N of M entries" with a bar, erased before the game's screen; Ctrl-C ends
  it with one line, "Interrupted.", status 130 and no process left (the proof starts none).
  Nothing on a pipe.

The book is the 3x3 book padded over 1 MB, its proof cut into runs of 8 entries and slowed, so
that it takes seconds as 4x4's does (building 4x4 takes a gigabyte and most of a minute).
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest
from faultkit import default_signals

from tictactoe_book import BookError, reader, trust
from tictactoe_book.apps import progress as progress_bars

ROOT = Path(__file__).resolve().parent.parent
RAW = (ROOT / "book" / "tictactoe.json").read_bytes()
ENTRIES = len(reader.parse_json(RAW, "<3x3>")["entries"])
# The real book with an unknown member of a million spaces: valid, and over the 1 MB line.
BIG = RAW.replace(b'{"canonical"', b'{"pad":"' + b" " * 1_000_000 + b'","canonical"', 1)
#: ttt-play with the proof in runs of 8 entries, reporting after each, each run of its second
#: pass taking ENTRY_DELAY seconds an entry (10 ms unless the environment says: about 6 s for
#: the 3x3 book's 627).
SLOW_PLAY = """
import os
import time
from tictactoe_book import proof_engine, reader
reader.PROGRESS_ENTRIES = 8
checked = proof_engine.EntryProof._moves
delay = float(os.environ.get("ENTRY_DELAY", "0.01"))
def slowly(self, mover, board, ranks, *args):
    time.sleep(delay * len(ranks))
    return checked(self, mover, board, ranks, *args)
proof_engine.EntryProof._moves = slowly
from tictactoe_book.apps.cli import run
run()
"""
ROWS, COLS = 24, 80


def told(**options: Any) -> tuple[list[tuple[str, int, int]], Any]:
    """What ``reader.prove`` tells of the 3x3 book's proof, and its rules."""
    calls: list[tuple[str, int, int]] = []
    data = reader.parse_json(RAW, "<3x3>")
    rules = reader.prove(data, "<3x3>", None, progress=lambda *call: calls.append(call), **options)
    return calls, rules


def test_the_proof_tells_the_entries_checked_from_none_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "PROGRESS_ENTRIES", 16)  # (627 entries: some 80 steps in two passes)
    calls, rules = told()
    assert rules == reader.prove(reader.parse_json(RAW, "<3x3>"), "<3x3>", None)
    assert {stage for stage, _, _ in calls} == {"prove"} and {total for _, _, total in calls} == {ENTRIES}
    done = [count for _, count, _ in calls]
    assert done[0] == 0 and done[-1] == ENTRIES and done == sorted(done)
    assert len(set(done)) > 60


def test_a_book_that_fails_its_proof_fails_the_same_when_told() -> None:
    data = reader.parse_json(RAW, "<3x3>")
    key = next(iter(data["entries"]))
    best, _, tiers = data["entries"][key].partition(" ")
    data["entries"][key] = f"{int(best) + 1} {tiers}"
    verdicts = []
    for progress in (None, lambda *call: None):
        with pytest.raises(BookError) as refused:
            reader.prove(data, "<3x3>", None, progress=progress)
        verdicts.append((refused.value.code, str(refused.value)))
    assert verdicts[0] == verdicts[1] and verdicts[0][0] == "entry-inconsistent"


def test_a_load_tells_the_size_read_then_the_proof(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(trust.RECORD_VARIABLE, str(tmp_path / "record.txt"))  # (conftest: none)
    path = tmp_path / "big.json"
    path.write_bytes(BIG)
    calls: list[tuple[str, int, int]] = []
    reader.load_book(path, progress=lambda *call: calls.append(call))
    assert calls[0] == ("read", 0, len(BIG))
    assert calls[1] == ("prove", 0, ENTRIES) and calls[-1] == ("prove", ENTRIES, ENTRIES)
    calls.clear()
    assert reader.load_book(path, progress=lambda *call: calls.append(call)).trust == "recorded"
    assert calls == [("read", 0, len(BIG))]  # proven before: read, and no proof


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def shown_while_loading(stream: io.StringIO, size: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(progress_bars.sys, "stderr", stream)
    with progress_bars.loading("/somewhere/4x4.json") as progress:
        progress("read", 0, size)
        for done in (0, 400, 627):
            progress("prove", done, 627)
    return stream.getvalue()


def test_a_big_book_says_it_is_read_then_proven_and_the_line_is_erased(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = shown_while_loading(Terminal(), 35_142_165, monkeypatch)
    assert "Reading 4x4.json (35 MB)..." in shown
    assert shown.index("(35 MB)...") < shown.index("Proving 0 of 627")  # the bytes, then the proof
    assert re.search(r"Proving 400 of 627 entries +\[#+-+\]", shown), shown
    assert "Proving 627 of 627 entries" in shown
    assert shown.endswith("\r\x1b[2K\x1b[?25h")  # erased, the cursor shown again


def test_a_small_quick_load_and_a_pipe_show_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert shown_while_loading(Terminal(), trust.RECORD_ABOVE, monkeypatch) == ""  # within 0.5 s
    assert shown_while_loading(io.StringIO(), 35_142_165, monkeypatch) == ""


def spawn_slow_play(
    book: Path, *args: str, delay: float = 0.01
) -> tuple[pexpect.spawn, pyte.Screen, pyte.ByteStream]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TTT_BOOK")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", NO_COLOR="1")
    env["ENTRY_DELAY"] = str(delay)
    screen = pyte.Screen(COLS, ROWS)
    child = pexpect.spawn(
        sys.executable,
        ["-c", SLOW_PLAY, "--book", str(book), *args],
        env=env,
        cwd=str(ROOT),
        dimensions=(ROWS, COLS),
        timeout=30,
        preexec_fn=default_signals,  # (under nohup SIGHUP would stay ignored: the test hung)
    )
    return child, screen, pyte.ByteStream(screen)


def read_until(child: pexpect.spawn, stream: pyte.ByteStream, screen: pyte.Screen, pattern: str) -> bytes:
    """Everything the terminal received until its screen shows ``pattern`` (a regex)."""
    raw = b""
    deadline = time.monotonic() + 30
    while not re.search(pattern, "\n".join(screen.display)):
        assert time.monotonic() < deadline, "\n".join(screen.display)
        try:
            data = child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            continue
        raw += data
        stream.feed(data)
    return raw


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if re.search(rf"^PPid:\s+{pid}$", status, re.MULTILINE):
                found.append(int(entry.name))
    return found


def test_on_a_terminal_the_proof_shows_how_far_it_is_and_ctrl_c_ends_it(tmp_path: Path) -> None:
    book = tmp_path / "big.json"
    book.write_bytes(BIG)
    child, screen, stream = spawn_slow_play(book)
    raw = read_until(child, stream, screen, r"Proving [1-9]\d* of 627 entries +\[#*-+\]")
    assert b"Reading big.json (1 MB)..." in raw  # at once, while the bytes were parsed
    assert children_of(child.pid) == []  # the proof runs in the process itself
    child.kill(signal.SIGINT)  # Ctrl-C, as the terminal sends it to the foreground process
    child.expect(pexpect.EOF)
    stream.feed(child.before or b"")
    child.close()
    shown = [line.rstrip() for line in screen.display if line.strip()]
    assert shown == ["Interrupted."]  # the progress erased: one line, no traceback
    assert child.exitstatus == 130


@pytest.mark.parametrize(
    ("signum", "to_group"),
    [(signal.SIGTERM, False), (signal.SIGHUP, True)],
    ids=["SIGTERM to the process", "SIGHUP to its group, as a hangup sends it"],
)
def test_sigterm_or_sighup_during_the_proof_erases_the_bar_and_ends_by_the_signal(
    tmp_path: Path, signum: int, to_group: bool
) -> None:
    """Either signal ended the process at once, leaving the bar on the screen and the cursor
    hidden (issue 32, item 8): now the bar is erased and the cursor shown, as Ctrl-C does, and
    the process ends by the signal, as it would have (nothing said: the
    shell says "Terminated" or "Hangup")."""
    book = tmp_path / "big.json"
    book.write_bytes(BIG)
    child, screen, stream = spawn_slow_play(book)
    read_until(child, stream, screen, r"Proving [1-9]\d* of 627 entries +\[#*-+\]")
    assert screen.cursor.hidden  # (click's bar hides it while it draws)
    if to_group:
        os.killpg(child.pid, signum)  # the terminal's foreground group
    else:
        child.kill(signum)
    child.expect(pexpect.EOF)
    stream.feed(child.before or b"")
    child.close()
    assert [line for line in screen.display if line.strip()] == []  # erased
    assert not screen.cursor.hidden
    assert (child.exitstatus, child.signalstatus) == (None, signum)


def test_the_progress_is_erased_before_the_game_and_a_pipe_gets_none(tmp_path: Path) -> None:
    book = tmp_path / "big.json"
    book.write_bytes(BIG)
    child, screen, stream = spawn_slow_play(book, delay=0.003)  # about a second's proof
    read_until(child, stream, screen, r"Proving [1-9]")
    read_until(child, stream, screen, r"Your move \(X\)")  # the game's screen
    assert "Proving" not in "\n".join(screen.display) and "Reading" not in "\n".join(screen.display)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT), ENTRY_DELAY="0")  # the proof reports, in no time
    piped = subprocess.run(
        [sys.executable, "-c", SLOW_PLAY, "--book", str(book), "--moves", "5", "--seed", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (piped.returncode, piped.stderr) == (1, "")  # (one move: unfinished) and nothing said
