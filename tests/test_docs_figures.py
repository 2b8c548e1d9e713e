"""Every measured figure is stated once, in docs/benchmarks.md, with its command and the machine;
the README and the other documents point there (issue 33, item 7: the 4x4 build was "about 25 s"
in the README and 68.8 s in docs/scaling.md, the engine "about 9,000 a second" in one and 5,418 in
another).

A figure here is a duration, a rate or a memory size: a number with ``s``, ``ms``, ``µs``,
``seconds``, ``minutes``, ``hours``, ``days``, ``KiB``, ``MiB``, ``GiB``, ``GB`` or ``TB``, or "N
a second". Sizes of files in MB (a book's 35 MB) and counts are facts of the book, not of a
machine. What is not measured is listed below by its words: settings (a time-out, a bar's
delay), the format's limits, and the estimates of docs/scaling.md (what a bigger board would
take, worked out from the measurements, not measured).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIGURE = re.compile(
    r"\b\d[\d,.]*(?:\s*(?:to|–|-)\s*\d[\d,.]*)?\s*"
    r"(?:s|ms|µs|seconds?|minutes?|hours?|days?|KiB|MiB|GiB|GB|TB|a second|requests a second)\b"
)
#: The documents that point to docs/benchmarks.md instead of quoting it.
POINTING = [
    "README.md",
    *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")) if p.name != "benchmarks.md"),
]
#: Figures that are not measurements, by the words around them in each document.
NOT_MEASURED = {
    "README.md": [
        "no request for 5 seconds",  # web/serve.py's idle time-out, a setting
        "sends each file 64 KiB at a time",  # web/serve.py's chunk, a setting
        "not whole 10 seconds after",  # web/serve.py's request time-out, a setting
    ],
    "docs/audit.md": [
        "5 s by default",  # --timeout, a setting
        "the last 4 KiB",  # what the audit keeps of a program's standard error
        "no answer within 0.5 s",  # an example's output, --timeout 0.5
        "no answer within 1 s",  # an example's output, --timeout 1
        "(and 1 s to start)",  # the start-up allowance, a setting
    ],
    # the format's limits, and the proven-book record's
    "docs/book-format.md": ["(64 MiB)", "past 1 MiB the oldest lines go", "over 1 MiB, or a line"],
    "docs/conformance.md": ["a 64 MiB book"],
    "docs/reliability.md": [
        "first 88 ms of",  # when 90 interrupts were sent in a reliability test, not a speed
        "over 16 MiB",  # levels --update's limit
        "at most 64 MiB",  # the format's limit (twice in one row)
        "larger than the 64 MiB every reader takes",  # the format's limit
        "a real 64 KiB tmpfs",  # a test's full device
        "64 KiB at a time",  # web/serve.py's chunk, a setting
    ],
    "docs/scaling.md": [
        "within 0.2 s when their parent",  # how often a worker looks at its parent: a setting
        "a file over 64 MiB",  # the format's limit
    ],
}
#: docs/scaling.md's estimates for boards beyond 4x4: worked out, not measured.
ESTIMATES = ("## Estimates for 4x5 and 5x5 with k = 4", "## Past one machine")


def figures(name: str, root: Path = ROOT) -> list[tuple[int, str, str]]:
    """(line number, figure, line) of every figure in a document that is not listed as a
    setting or a limit, nor in docs/scaling.md's estimates."""
    text = (root / name).read_text()
    if name == "docs/scaling.md":
        start = text.index(ESTIMATES[0])
        text = text[:start] + "\n" * text[start:].count("\n")  # (line numbers kept)
    allowed = NOT_MEASURED.get(name, [])
    return [
        (number, match.group(0), line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        for match in FIGURE.finditer(line)
        if not any(match.group(0) in words and words in line for words in allowed)
    ]


@pytest.mark.parametrize("name", POINTING)
def test_a_document_points_to_the_benchmarks_for_its_figures(name: str) -> None:
    assert figures(name) == [], f"{name}: measured figures belong in docs/benchmarks.md"


def test_the_scan_finds_a_quoted_figure(tmp_path: Path) -> None:
    """The scan itself: the README's old sentences are found."""
    (tmp_path / "README.md").write_text(
        "writes the 4x4 book in about 25 s on two cores\n(about 9,000 a second on this machine)\n"
        "took 11–13 s the first time, a heap of 150–190 MB, peak 1,022 MiB\n"
    )
    found = [figure for _, figure, _ in figures("README.md", tmp_path)]
    assert found == ["25 s", "9,000 a second", "11–13 s", "1,022 MiB"]


def test_the_benchmarks_name_the_command_and_the_machine_of_each_figure_they_add() -> None:
    """docs/benchmarks.md's sections measured apart from make bench give a command (an indented
    line or a make target) and the machine, with its load."""
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    for heading in ("## Scale, measured once", "## Measured apart from `make bench`"):
        section = text.split(heading, 1)[1].split("\n## ", 1)[0]
        assert re.search(r"^    \S", section, re.MULTILINE), heading  # a command
        assert "2 cores" in section or "2 shared cores" in section, heading
        assert "load" in section, heading
