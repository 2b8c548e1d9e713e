"""The README's examples, run as a reader would run them, so that they cannot go stale.

* Every command line in a ```sh block: ``make TARGET`` lines are planned with ``make -n`` (a
  test cannot run ``make test`` inside ``make test``); ``ttt-play`` and ``ttt-book`` lines run
  for real and must exit 0: interactive ones on a pseudo-terminal where ``q`` quits, files the
  example writes go to a temporary folder instead of /tmp or the repository's book/.
* Every ```python block runs in a fresh interpreter of the test environment; a ``# → text``
  comment after a ``print`` is the line it must print.
* Every ```js block runs in Node against the repository's book; a ``// → text`` comment after a
  ``console.log`` is the line it must print. A block that calls ``fetch`` is the browser
  example: it runs as a module in a ``web/`` folder beside the reader and the book (where the
  page's own module is), with ``fetch`` reading files; web/test_browser.py runs it in Chromium too.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent  # the environment running the tests has ttt-play and ttt-book
TIMEOUT = 120
ARROW = re.compile(r"//\s*→\s*(.*)$")
# The browser example runs in Node with this fetch: the URL resolved against the module, read as a file.
FETCH = (
    "import { readFile as readFile__ } from 'node:fs/promises';\n"
    "globalThis.fetch = async (url) => new Response(await readFile__(new URL(url, import.meta.url)));\n"
)


@dataclass(frozen=True)
class Block:
    """A fenced code block of the README: its language, first line number and text."""

    lang: str
    line: int
    text: str


def blocks(lang: str) -> list[Block]:
    found = []
    for match in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", README.read_text(), re.MULTILINE | re.DOTALL):
        if match.group(1) == lang:
            found.append(Block(lang, README.read_text()[: match.start()].count("\n") + 1, match.group(2)))
    return found


def commands() -> list[tuple[str, list[str]]]:
    """(the README's line, its words without the comment) for every command in a sh block."""
    found = []
    for block in blocks("sh"):
        for line in block.text.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                found.append((line.split(" #")[0].strip(), words))
    return found


# ---------------------------------------------------------------- the shell examples


def test_the_readme_has_the_examples_this_file_runs() -> None:
    lines = [line for line, _ in commands()]
    assert any(line.startswith("make ") for line in lines)
    assert any("ttt-play" in line and "--moves" in line for line in lines)
    assert any(line.startswith("echo ") for line in lines)
    assert any("ttt-book query" in line for line in lines)
    assert len(blocks("js")) >= 2
    assert len(blocks("python")) >= 1


@pytest.mark.parametrize(
    "line", [line for line, words in commands() if words[0] == "make"], ids=lambda line: line
)
def test_a_make_example_names_a_target_make_can_plan(line: str) -> None:
    words = shlex.split(line)
    result = subprocess.run(
        ["make", "-n", *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, (line, result.stderr)


def program_lines() -> list[str]:
    return [line for line, words in commands() if words[0] != "make"]


def for_this_test(line: str, tmp: Path) -> str:
    """The README's line with the test's own environment and a temporary folder for output."""
    # /tmp/ first: the environment's own path may lie under /tmp (a clone there, as CI may use).
    line = line.replace("/tmp/", f"{tmp}/").replace(".venv/bin/", f"{BIN}/")
    words = shlex.split(line)
    if "build" in words and "-o" not in words and "--output" not in words:
        line += f" -o {tmp}/tictactoe.json"  # not over the repository's book
    return line


@pytest.mark.parametrize("line", program_lines(), ids=lambda line: line)
def test_a_program_example_runs(line: str, tmp_path: Path) -> None:
    assert line.startswith((".venv/bin/", "echo ")), f"a README example this test cannot run: {line}"
    command = for_this_test(line, tmp_path)
    words = shlex.split(line)
    scripted = "|" in words or "--moves" in words or "--watch" in words or "ttt-book" in words[0]
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    if scripted:
        result = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {command}"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert result.returncode == 0, (line, result.stdout[-2000:], result.stderr[-2000:])
        assert "Traceback" not in result.stderr
        return
    # An interactive game, typed at a terminal: it starts, and q quits it cleanly.
    child = pexpect.spawn("bash", ["-c", command], cwd=str(ROOT), env=env, encoding="utf-8", timeout=TIMEOUT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, (line, child.before)
    assert "Traceback" not in (child.before or "")


# ---------------------------------------------------------------- the Python examples

PY_ARROW = re.compile(r"#\s*→\s*(.*)$")


@pytest.mark.parametrize("block", blocks("python"), ids=lambda b: f"README line {b.line}")
def test_a_python_example_runs_and_prints_what_it_says(block: Block, tmp_path: Path) -> None:
    expected = [m.group(1).strip() for line in block.text.splitlines() if (m := PY_ARROW.search(line))]
    assert expected, "a Python example shows what it prints with # → comments"
    script = tmp_path / "example.py"
    script.write_text(block.text)
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


# ---------------------------------------------------------------- the JavaScript examples


def expected_lines(block: Block) -> list[str]:
    return [m.group(1).strip() for line in block.text.splitlines() if (m := ARROW.search(line))]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with the repository's clients/ and book/ (linked) and an empty web/."""
    for name in ("clients", "book"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    (tmp_path / "web").mkdir()
    return tmp_path


@pytest.mark.parametrize("block", blocks("js"), ids=lambda b: f"README line {b.line}")
def test_a_javascript_example_runs_and_prints_what_it_says(block: Block, checkout: Path) -> None:
    node = shutil.which("node")
    assert node, "the README's JavaScript examples need Node.js 18+ (as make test-js does)"
    expected = expected_lines(block)
    assert expected, "a JavaScript example shows what it prints with // → comments"
    if "fetch(" in block.text:
        script = checkout / "web" / "example.mjs"
        script.write_text(FETCH + block.text)
    else:
        script = checkout / "example.mjs"
        script.write_text(block.text)
    result = subprocess.run(
        [node, str(script)], cwd=checkout, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


def test_the_javascript_examples_use_the_readers_real_exports(checkout: Path) -> None:
    """What the README imports from the reader is exported; what it calls on the book is a method."""
    node = shutil.which("node")
    assert node
    text = "\n".join(b.text for b in blocks("js"))
    imported = set()
    for names in re.findall(r"import \{([^}]*)\} from '[^']*tictactoe-book\.js'", text):
        imported |= {name.strip() for name in names.split(",")}
    methods = set(re.findall(r"\bbook\.(\w+)\(", text))
    assert imported == {"loadBook"} and {"evaluate", "bestMoves", "optimalMoves", "chooseMove"} <= methods
    probe = (
        "import * as reader from './clients/js/tictactoe-book.js';\n"
        "import { readFileSync } from 'node:fs';\n"
        "const book = reader.loadBook(readFileSync('book/tictactoe.json'));\n"
        f"const imported = {sorted(imported)!r}, methods = {sorted(methods)!r};\n"
        "for (const name of imported)\n"
        "  if (typeof reader[name] !== 'function') throw new Error(`no export ${name}`);\n"
        "for (const name of methods)\n"
        "  if (typeof book[name] !== 'function') throw new Error(`no method ${name}`);\n"
    )
    (checkout / "probe.mjs").write_text(probe)
    result = subprocess.run(
        [node, "probe.mjs"], cwd=checkout, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
