"""One version number: pyproject.toml's. Everything else that states it is checked against it
here (``ttt-play --version``, ``ttt-book --version``, ``tictactoe_book.__version__``, the npm package,
CHANGELOG.md's newest release), and every release in the changelog names the book format
version it reads and writes, the newest one the format the readers read now.

The packages themselves (the wheel's metadata, the npm tarball's package.json, the installed
commands) are compared with the same number by tests/test_packages.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tictactoe_book
from tictactoe_book.reader import FORMAT_VERSION

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RELEASE = re.compile(r"^## (\d+\.\d+\.\d+) \((.*)\)$", re.MULTILINE)
FORMAT_LINE = re.compile(r"\*\*Book format:\*\* reads and writes version (\d+)")


def project_version() -> str:
    """The one definition: pyproject.toml's [project] version."""
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def releases() -> list[tuple[str, str]]:
    """(version, the text under its heading) for every release in CHANGELOG.md, newest first."""
    text = (ROOT / "CHANGELOG.md").read_text()
    headings = list(RELEASE.finditer(text))
    return [
        (h.group(1), text[h.end() : headings[i + 1].start() if i + 1 < len(headings) else len(text)])
        for i, h in enumerate(headings)
    ]


def test_the_version_is_a_semantic_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", project_version())


@pytest.mark.parametrize("command", ["ttt-play", "ttt-book"])
def test_each_command_says_the_projects_version(command: str) -> None:
    done = subprocess.run(
        [str(BIN / command), "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout == f"{command}, version {project_version()}\n"


def test_the_library_says_the_projects_version() -> None:
    assert tictactoe_book.__version__ == project_version()


def test_the_npm_package_has_the_projects_version() -> None:
    package = json.loads((ROOT / "clients" / "js" / "package.json").read_text())
    assert package["name"] == "tictactoe-book"
    assert package["version"] == project_version()


def test_the_changelog_starts_with_this_version_and_goes_back_to_1_0_0() -> None:
    versions = [version for version, _ in releases()]
    assert versions[0] == project_version()
    assert versions[-1] == "1.0.0"
    as_numbers = [tuple(map(int, v.split("."))) for v in versions]
    assert as_numbers == sorted(as_numbers, reverse=True) and len(set(as_numbers)) == len(as_numbers)


def test_every_release_names_the_book_format_it_reads_and_the_newest_is_todays() -> None:
    formats = {}
    for version, text in releases():
        found = FORMAT_LINE.findall(text)
        assert len(found) == 1, f"CHANGELOG.md, {version}: say once which book format it reads and writes"
        formats[version] = int(found[0])
    assert formats[project_version()] == FORMAT_VERSION
    title = (ROOT / "docs" / "book-format.md").read_text().splitlines()[0]
    assert title == f"# The book format, version {FORMAT_VERSION}"
    reader = (ROOT / "clients" / "js" / "tictactoe-book.js").read_text()
    assert f"export const VERSION = {FORMAT_VERSION};" in reader
