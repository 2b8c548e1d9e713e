"""Progress bars of a long build (generator/progress.py): drawn on a terminal, quiet elsewhere."""

from __future__ import annotations

import io
import re

import pytest

from generator.progress import progress_bars
from generator.retrograde import solve
from generator.trap_arrays import trap_arrays
from player.rules import Rules


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_finished_bar_per_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Terminal()
    with progress_bars(stream) as progress:
        assert progress is not None
        trap_arrays(solve(Rules(), progress=progress), progress=progress)
    # click hides the cursor while it draws: drop those sequences
    lines = re.sub(r"\x1b\[\?25[lh]", "", stream.getvalue()).split("\n")
    assert len(lines) == 4 and lines[-1] == ""  # three stages, each line ended
    for line, label in zip(lines, ("positions", "solve", "trap order"), strict=False):
        last = line.split("\r")[-1]  # what the terminal shows: the bar drawn last
        assert last.startswith(label) and last.endswith("100%"), repr(last)


@pytest.mark.parametrize(
    ("stream", "ci"), [(io.StringIO(), None), (Terminal(), "true")], ids=["pipe", "terminal in CI"]
)
def test_no_bars_in_a_pipe_or_in_ci(
    stream: io.StringIO, ci: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with progress_bars(stream) as progress:
        assert progress is None
    assert stream.getvalue() == ""


def test_a_stage_left_unfinished_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Terminal()
    with pytest.raises(RuntimeError), progress_bars(stream) as progress:
        assert progress is not None
        progress("solve", 3, 10)
        raise RuntimeError("interrupted")
    assert stream.getvalue().endswith("\n") and "30%" in stream.getvalue()
