"""Progress of a long build (generator/tictactoe_generator/progress.py): the project's bar, one per solver
stage, on a terminal only."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from tictactoe_book import Rules
from tictactoe_book.apps import progress as progress_bars
from tictactoe_generator.progress import stage_bars
from tictactoe_generator.solve import solve
from tictactoe_generator.trap import trap_arrays


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def build_with_bars(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)  # show every bar at once
    with stage_bars() as progress:
        trap_arrays(solve(Rules(), progress=progress), progress=progress)
    return stream.getvalue()


def test_a_terminal_gets_a_bar_per_stage_each_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = build_with_bars(Terminal(), monkeypatch)
    erase = "\r\x1b[2K\x1b[?25h"
    assert shown.count(erase) == 3 and shown.endswith(erase)
    stages = shown.split(erase)[:-1]
    for text, label in zip(stages, ("Finding every position", "Solving", "Ordering the traps"), strict=True):
        assert label in text and "100%" in text, repr(text)


def test_no_bars_in_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    assert build_with_bars(io.StringIO(), monkeypatch) == ""


def test_a_stage_left_unfinished_is_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)
    with pytest.raises(RuntimeError), stage_bars() as progress:
        progress("solve", 3, 10)
        raise RuntimeError("interrupted")
    assert "30%" in stream.getvalue() and stream.getvalue().endswith("\r\x1b[2K\x1b[?25h")


def test_the_builds_proof_of_a_big_book_has_its_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A book over 1 MB is proven before it is written: most of a 4x4 build, shown as nothing
    before. The 3x3 book padded over the line stands in for it."""
    from tictactoe_generator.build import prove_for_record

    raw = (Path(__file__).resolve().parent.parent / "book" / "tictactoe.json").read_bytes()
    big = raw.replace(b'{"canonical"', b'{"pad":"' + b" " * 1_000_000 + b'","canonical"', 1)
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress_bars, "PROGRESS_AFTER", 0.0)
    with stage_bars() as progress:
        assert prove_for_record(big, "<big>", progress)
    assert "Proving the book" in stream.getvalue() and "100%" in stream.getvalue()


def test_the_time_left_is_reckoned_from_the_steps_counted_not_from_what_came_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 4x4 proof showed "8%  00:27:14" for about 4 s of work: its bar's pace counted the time
    before the first entry (issue 42, item 1). A fake clock: 30 s before any step is counted,
    then 1,000 steps a second; from a tenth of the work on, the time left shown is within 2x of
    the truth."""
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    now = [0.0]
    length, pace = 100_000, 1_000
    shown: list[tuple[float, str]] = []
    with progress_bars.progress(
        length, "Proving", after=0, counted="entries", clock=lambda: now[0]
    ) as advance:
        advance(0)  # the bar starts, then the setup: 30 s with nothing counted
        now[0] += 30
        for _ in range(length // pace):
            now[0] += 1
            before = len(stream.getvalue())
            advance(pace)
            shown.append((now[0], stream.getvalue()[before:]))
    checked = 0
    for at, text in shown:
        done = round((at - 30) * pace)
        if done < length // 10 or done == length:
            continue
        found = re.search(r"(?:(\d+):)?(\d\d):(\d\d) left", text)
        assert found, repr(text)
        hours, minutes, seconds = (int(g or 0) for g in found.groups())
        estimate, truth = hours * 3600 + minutes * 60 + seconds, (length - done) / pace
        assert truth / 2 <= estimate <= truth * 2, (done, estimate, truth)
        checked += 1
    assert checked >= 80


def test_the_time_left_reads_as_a_clock() -> None:
    assert progress_bars.time_left((10.0, 1_000), (19.0, 10_000), 100_000) == "01:30 left"
    assert progress_bars.time_left((0.0, 1), (1.0, 2), 4_000) == "1:06:38 left"
    assert progress_bars.time_left((5.0, 10), (5.0, 10), 100) == ""  # no pace yet
