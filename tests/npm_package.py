"""The npm package as a game developer gets it: packed by ``npm pack`` (whose prepack stages the
books from book/, clients/js/stage-books.mjs) and installed from the tarball into a project of
its own that has nothing else. Shared by tests/test_readme.py (the README's examples that import
``tictactoe-book``) and tests/test_packages.py (make test-packages).

Packing works on a copy of the three things the pack reads (clients/js, book/ and LICENSE, laid
out as in the repository), so tests packing at once share no folder and the checkout is never
written; installing a tarball with no dependencies needs no network (``--offline``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "js"
QUIET = ["--no-audit", "--no-fund", "--loglevel=error"]
TIMEOUT = 300


def npm() -> str:
    found = shutil.which("npm")
    assert found is not None, "the npm package's tests need npm (it comes with Node.js)"
    return found


def pack(folder: Path) -> tuple[Path, dict[str, object]]:
    """``npm pack`` run as a maintainer runs it, in a copy of the checkout's parts it reads;
    the tarball is written into ``folder``. Returns the tarball and npm's report of it."""
    source = folder / "source"
    shutil.copytree(
        PACKAGE,
        source / "clients" / "js",
        ignore=shutil.ignore_patterns("node_modules", "books", "LICENSE", "*.tgz"),
    )
    shutil.copytree(ROOT / "book", source / "book")
    shutil.copy(ROOT / "LICENSE", source / "LICENSE")
    done = subprocess.run(
        [npm(), "pack", "--json", "--pack-destination", str(folder), *QUIET],
        cwd=source / "clients" / "js",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    tarball = folder / str(report["filename"])
    assert tarball.is_file()
    return tarball, report


def install(tarball: Path, project: Path) -> Path:
    """A new project (an ES module package, nothing in it) with the tarball installed."""
    project.mkdir(parents=True)
    (project / "package.json").write_text('{ "private": true, "type": "module" }\n')
    done = subprocess.run(
        [npm(), "install", "--offline", *QUIET, str(tarball)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    return project
