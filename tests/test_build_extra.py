"""After ``make play``, building a book: the environment ``make play`` made has no numpy (the
build extra), and ``ttt-book build`` says which command adds it; that command, typed as
printed, makes the build work (issue 25, 11).

``make play`` installs the project editable into a virtual environment, without extras. The
test makes one the same way in a folder of its own (not the repository's .venv, which the tests
run in), then plays the new user: build, read the error, run the command it names, build again.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600
#: Standing in for numpy where it must be missing: importing it fails as a missing module does.
NO_NUMPY = "raise ModuleNotFoundError(\"No module named 'numpy'\", name='numpy')\n"


def named_command(stderr: str) -> str:
    """The command a "needs numpy" error names: what follows its colon."""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: building needs numpy"), stderr
    return lines[0].rsplit(": ", 1)[1]


def test_without_numpy_the_build_names_the_command_for_this_environment(tmp_path: Path) -> None:
    """In the tests' own environment with numpy hidden: from the project's folder, the command
    is this interpreter's pip installing the project, editable, with the build extra; pip takes
    it as it is printed (``--dry-run``: nothing is changed)."""
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text(NO_NUMPY)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    build = [
        sys.executable,
        "-c",
        "import tictactoe_generator.commands; tictactoe_generator.commands.ttt_book()",
        "build",
        "-o",
        "x.json",
    ]
    failed = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert failed.returncode == 1 and failed.stdout == ""
    command = named_command(failed.stderr)
    words = shlex.split(command)
    assert (ROOT / words[0]).resolve() == Path(sys.executable).resolve()
    assert words[1:] == ["-m", "pip", "install", "-e", ".[build]"]
    assert not (ROOT / "x.json").exists()
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert shlex.join([".venv/bin/python", *words[1:]]) in readme  # what the README says after make play
    dry = subprocess.run(
        f"{command} --dry-run", shell=True, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert dry.returncode == 0, dry.stderr
    assert "numpy" in dry.stdout


@pytest.mark.big
def test_after_make_play_the_command_the_error_names_makes_the_build_work(tmp_path: Path) -> None:
    """A virtual environment made as ``make play`` makes .venv: the project installed editable,
    no extras. From the folder it is in (so the command begins ``.venv/bin/python``, as after
    ``make play``), the build fails naming a command; run as printed, the build then works."""
    venv = tmp_path / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=TIMEOUT)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-e", str(ROOT)],
        check=True,
        capture_output=True,
        timeout=TIMEOUT,
    )
    build = [".venv/bin/ttt-book", "build", "-o", "mine.json"]
    failed = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert failed.returncode == 1
    command = named_command(failed.stderr)
    assert command == f".venv/bin/python -m pip install -e '{ROOT}[build]'"
    added = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert added.returncode == 0, added.stderr
    built = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith("wrote mine.json: ")
