"""The help texts of both commands and every subcommand, read as a new user reads them.

* Every example in a help text (a line ``$ COMMAND``) runs as printed, in a shell where the
  README's ``. .venv/bin/activate`` put the commands on PATH (after ``make play``), from an
  empty folder, and ends with status 0, or with the status its heading names ("... status 1:").
  The help texts are those the installed commands print.
* A command written out anywhere else in a help text is a synopsis, with its placeholders in
  capitals (``ttt-book audit -- COMMAND [ARGS...]``): nothing a reader could paste and see fail.
* ``ttt-book --help`` lists each command with its whole first sentence, not cut short.
* Each help text says the exit statuses once, in the order of the one table
  (tictactoe_book.apps.console.MEANINGS), and what it points to "above" or "below" is there.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tictactoe_book.apps.console import MEANINGS
from tictactoe_generator.cli import main as ttt_book

BIN = Path(sys.executable).parent  # the environment running the tests has ttt-play and ttt-book
TIMEOUT = 300
WIDTH = 80  # click's widest help; COLUMNS for the installed commands
EXAMPLE = re.compile(r"^\s*\$ (.+)$")
STATUS = re.compile(r"\bstatus (\d+)\b")


def help_command_lines() -> list[list[str]]:
    """The command lines that print a help text: both commands, and every subcommand."""
    return [["ttt-play"], ["ttt-book"], *(["ttt-book", name] for name in sorted(ttt_book.commands))]


@functools.cache
def help_text(words: tuple[str, ...], width: int = WIDTH) -> str:
    """What ``words --help`` prints on a terminal ``width`` columns wide, the installed command
    run as a person runs it."""
    shown = subprocess.run(
        [str(BIN / words[0]), *words[1:], "--help"],
        env=dict(os.environ, COLUMNS=str(width)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (shown.returncode, shown.stderr) == (0, ""), words
    return shown.stdout


@dataclass(frozen=True)
class Example:
    """An example of a help text: the line as printed, whose help it is in, and its status."""

    line: str
    help: str
    status: int


def examples() -> list[Example]:
    """Every ``$`` line of every help text, with the status its heading names (0 if none)."""
    found = []
    for words in help_command_lines():
        status = 0
        for line in help_text(tuple(words)).splitlines():
            if match := EXAMPLE.match(line):
                found.append(Example(match.group(1), " ".join(words), status))
            elif line.rstrip().endswith(":"):  # a heading: its status, if it names one
                named = STATUS.search(line)
                status = int(named.group(1)) if named else 0
    return found


def test_both_commands_show_examples() -> None:
    shown = {example.help.split()[0] for example in examples()}
    assert shown == {"ttt-play", "ttt-book"}
    assert any("|" in example.line for example in examples())  # moves on standard input


@pytest.mark.parametrize("example", examples(), ids=lambda example: example.line)
def test_an_example_runs_as_printed(example: Example, tmp_path: Path) -> None:
    from test_readme import activated, newcomer_env  # the README's way to run the commands

    done = subprocess.run(
        ["bash", "-c", activated(f"set -o pipefail; {example.line}")],
        cwd=tmp_path,  # (anything it writes goes there)
        env=newcomer_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == example.status, (example, done.stdout[-2000:], done.stderr[-2000:])
    assert done.stdout.strip() and "Traceback" not in done.stderr


def written_out(text: str) -> list[str]:
    """The commands written out in ``text`` outside its examples, to the end of their clause."""
    prose = " ".join(line.strip() for line in text.splitlines() if not EXAMPLE.match(line))
    subcommands = "|".join(ttt_book.commands)
    return re.findall(rf"\bttt-(?:play(?= -)|book (?:{subcommands})\b)[^.;)]*", prose)


@pytest.mark.parametrize("words", help_command_lines(), ids=" ".join)
def test_a_command_written_out_in_prose_is_a_synopsis(words: list[str]) -> None:
    for command in written_out(help_text(tuple(words))):
        assert re.search(r"\b[A-Z]{3,}\b", command), f"{command!r}: a command to run is an example ($ ...)"


def test_the_command_list_gives_each_summary_whole() -> None:
    listed = help_text(("ttt-book",)).split("Commands:\n")[1].split("\n\n")[0]
    summaries = dict(line.split(None, 1) for line in listed.splitlines())
    assert sorted(summaries) == sorted(ttt_book.commands)
    for name, summary in summaries.items():
        docstring = ttt_book.commands[name].help or ""
        first = " ".join(docstring.strip().split("\n\n")[0].split())
        assert summary == first, name


@pytest.mark.parametrize("words", help_command_lines(), ids=" ".join)
def test_the_exit_statuses_are_said_once_in_the_tables_order(words: list[str]) -> None:
    prose = " ".join(help_text(tuple(words)).split())
    assert prose.count("Exit status") == 1, prose
    said = prose.split("Exit status: ")[1].split(".")[0]
    assert [int(item.split()[0]) for item in said.split("; ")] == list(MEANINGS)


@pytest.mark.parametrize("words", help_command_lines(), ids=" ".join)
def test_what_a_help_points_to_is_where_it_says(words: list[str]) -> None:
    text = help_text(tuple(words))
    for pointer in re.finditer(r"see (\w+) (above|below)", text):
        heading = re.compile(rf"^\s*{pointer.group(1)}\b", re.MULTILINE)
        where = text[: pointer.start()] if pointer.group(2) == "above" else text[pointer.end() :]
        assert heading.search(where), pointer.group(0)


@pytest.mark.parametrize("width", [WIDTH, 50])
@pytest.mark.parametrize("words", help_command_lines(), ids=" ".join)
def test_no_line_breaks_a_word_at_its_hyphen(words: list[str], width: int) -> None:
    """textwrap breaks after a hyphen inside a word: "as ttt-" at the end of a line, "play
    does" at the start of the next, which a reader then types as "ttt- play"; in the options'
    column too (at 50 columns, "never-" and "losing")."""
    assert not re.search(r"\w-\n", help_text(tuple(words), width)), words
