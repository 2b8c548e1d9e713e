"""Build time: the solver, the book's writer, its verification, exports and reports.

It imports the runtime, ``tictactoe_book``, and is never imported by it. The solver and the
writer need numpy and orjson (the ``build`` extra); ``build_tools`` imports them, or says what to
install.

Importing the package imports nothing but what Python has loaded already, so that ``ttt-book``'s
entry point (``tictactoe_generator.commands``) catches Ctrl-C before anything else is imported.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

if __name__ != "tictactoe_generator":  # player/ and generator/ are folders, not packages: one name, one copy
    raise ImportError(f"tictactoe_generator is imported as {__name__}: import it as tictactoe_generator")

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType

#: What the build extra adds, as ``ModuleNotFoundError.name`` gives it (pyproject.toml).
BUILD_MODULES = ("numpy", "orjson")


def build_tools() -> ModuleType:
    """``tictactoe_generator.writer``, with the solver it drives; BuildToolMissing without numpy or
    orjson, naming the command that installs them (``install_command``)."""
    from tictactoe_book.errors import BuildToolMissing

    try:
        return importlib.import_module("tictactoe_generator.writer")
    except ModuleNotFoundError as error:
        if error.name not in BUILD_MODULES:
            raise
        raise BuildToolMissing(f"building needs {error.name}: {install_command()}") from None


def install_command() -> str:
    """The command that adds the build extra to the environment running this program, as it is
    typed from the current folder: this interpreter's pip, installing the project it runs from
    (editable, as ``make play`` installed it: ``.venv/bin/python -m pip install -e '.[build]'``
    from the project's folder), or else (a wheel installed from a file, which no index may have)
    the build extra's own requirements, as the installed package's metadata states them."""
    import shlex  # (only when numpy is missing)
    from pathlib import Path

    python = _as_typed(Path(sys.executable))
    project = Path(__file__).resolve().parents[2]  # a clone's folder (generator/tictactoe_generator/), or not
    if not (project / "pyproject.toml").is_file():
        return shlex.join([python, "-m", "pip", "install", *build_requirements()])
    return shlex.join([python, "-m", "pip", "install", "-e", f"{_as_typed(project)}[build]"])


def build_requirements() -> list[str]:
    """The requirements of the installed distribution's ``build`` extra (``numpy>=1.26``), from
    its metadata: pyproject.toml's ``[project.optional-dependencies] build``."""
    import re
    from importlib.metadata import requires

    extra = re.compile(r"""\s*;\s*extra\s*==\s*["']build["']\s*$""")
    return [extra.sub("", r) for r in requires("tictactoe-book") or [] if extra.search(r)]


def _as_typed(path: Path) -> str:
    """``path`` relative to the current folder when it lies inside it (``.venv/bin/python``,
    ``.``), else absolute."""
    relative = os.path.relpath(path)
    if relative == ".." or relative.startswith(".." + os.sep):
        return str(path)
    return relative if os.sep in relative or relative == "." else f".{os.sep}{relative}"
