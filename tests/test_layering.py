"""The layout docs/architecture.md describes, checked on the code: every claim it marks
**(checked)**, for the runtime (player/tictactoe_book/, ``tictactoe_book``) and the build
(generator/tictactoe_generator/, ``tictactoe_generator``): every folder named as it imports.

Imports are read from the source, module heads and function bodies alike, as
../shared/tools/import_depth.py reads them: a package's ``__init__`` counts as a module
(importing ``tictactoe_book.x`` runs it first), and so do imports made for type checkers alone.
"""

from __future__ import annotations

import ast
import functools
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tictactoe_book

ROOT = Path(__file__).resolve().parent.parent
#: Each package's folder, and the import name it is installed as: the folder's own name.
PACKAGES = {"player/tictactoe_book": "tictactoe_book", "generator/tictactoe_generator": "tictactoe_generator"}
RUNTIME_FOLDER, BUILD_FOLDER = PACKAGES
APPS = "tictactoe_book.apps"
#: The longest chain of imports docs/architecture.md allows, in modules, per folder.
MAX_DEPTH = {RUNTIME_FOLDER: 9, BUILD_FOLDER: 8}
#: The commands' entry points: they import the applications (ttt-play's, ttt-book's command line).
ENTRY_POINTS = {"tictactoe_book.commands", "tictactoe_generator.commands"}
MAX_LINES = 520  # "about 500" (docs/architecture.md)
#: The build's modules that may import the apps' shared pieces, and the pieces they may import.
BUILD_APPS_USERS = {
    "tictactoe_generator.cli",
    "tictactoe_generator.options",
    "tictactoe_generator.parts_cli",
    "tictactoe_generator.progress",
    "tictactoe_generator.against_program",
    "tictactoe_generator.reports.query",
    "tictactoe_generator.export_cli",
}
BUILD_APPS_PIECES = {f"{APPS}.console", f"{APPS}.options", f"{APPS}.progress", f"{APPS}.text"}
#: The piece any of the build's modules may import: how a stretch holds the signals that stop a
#: command (the writes' renames, a program started and ended).
BUILD_APPS_ANYWHERE = {f"{APPS}.signals"}


def modules(folder: str) -> dict[str, Path]:
    """Every module of ``folder``, by its installed dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = path.relative_to(ROOT / folder).with_suffix("").parts
        name = ".".join((PACKAGES[folder], *(parts[:-1] if parts[-1] == "__init__" else parts)))
        found[name] = path
    return found


def imported(name: str, path: Path) -> set[str]:
    """The modules ``path`` (module ``name``) imports, type-only imports included, relative
    ones made absolute; for ``from A import b`` both ``A`` and ``A.b``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


RUNTIME = modules(RUNTIME_FOLDER)
BUILD = modules(BUILD_FOLDER)
EVERY = {**RUNTIME, **BUILD}


def edges(names: dict[str, Path]) -> dict[str, set[str]]:
    """For each module, the modules of ``names`` it imports (a name that is not a module, such
    as ``from tictactoe_book.game import Rules``, stands for the module that holds it)."""
    found: dict[str, set[str]] = {}
    for name, path in names.items():
        targets = set()
        for target in imported(name, path):
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        found[name] = targets
    return found


def test_the_runtime_never_imports_the_build_or_numpy() -> None:
    for name, path in RUNTIME.items():
        found = [n for n in imported(name, path) if n.startswith("tictactoe_generator") or n == "numpy"]
        assert not found, f"{name} imports {found}"


def test_in_the_runtime_only_the_applications_import_click_curses_or_the_applications() -> None:
    for name, path in RUNTIME.items():
        if name.startswith(APPS) or name in ENTRY_POINTS:
            continue
        found = [
            n for n in imported(name, path) if n.split(".")[0] in ("click", "curses") or n.startswith(APPS)
        ]
        assert not found, f"{name} imports {found}"


def test_in_the_build_only_its_command_line_imports_the_apps_shared_pieces() -> None:
    for name, path in BUILD.items():
        found = {n for n in imported(name, path) if n.startswith(APPS)}
        pieces = {n for n in found if n.count(".") == 2} - BUILD_APPS_ANYWHERE  # modules, not names
        assert not pieces or name in BUILD_APPS_USERS, f"{name} imports {sorted(found)}"
        assert pieces <= BUILD_APPS_PIECES, f"{name} imports {sorted(pieces - BUILD_APPS_PIECES)}"


@pytest.mark.parametrize("folder", PACKAGES)
def test_no_chain_of_imports_is_deeper_than_the_architecture_says(folder: str) -> None:
    names = modules(folder)
    graph = edges(names)

    @functools.cache
    def chain(name: str, seen: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """The longest chain of imports from ``name`` through modules not in ``seen``."""
        onward = [chain(n, seen | {name}) for n in graph[name] if n not in seen and n != name]
        return (name, *max(onward, key=len, default=()))

    deepest = max((chain(name) for name in names), key=len)
    assert len(deepest) <= MAX_DEPTH[folder], " -> ".join(deepest)


@pytest.mark.parametrize("folder", PACKAGES)
def test_no_module_imports_one_that_imports_it_back(folder: str) -> None:
    """No cycle of imports (type-only and in-function ones count): docs/architecture.md. The
    reader and the book by parts were one (parts took ``Book`` from the reader that opens it)."""
    graph = edges(modules(folder))
    done: set[str] = set()

    def walk(name: str, path: tuple[str, ...]) -> None:
        for target in sorted(graph[name]):
            assert target not in path, " -> ".join((*path[path.index(target) :], name, target))
            if target not in done:
                walk(target, (*path, name))
        done.add(name)

    for name in sorted(graph):
        walk(name, ())


@pytest.mark.parametrize("folder", PACKAGES)
def test_the_architecture_states_the_depth_the_code_has(folder: str) -> None:
    """docs/architecture.md names each package's deepest chain, as long as MAX_DEPTH allows:
    it is one the code has."""
    text = " ".join((ROOT / "docs" / "architecture.md").read_text().split())
    words = {8: "eight", 9: "nine"}[MAX_DEPTH[folder]]
    package, graph = PACKAGES[folder], edges(modules(folder))
    stated = [
        [f"{package}.{part.strip()}" for part in found.split("→")]
        for found in re.findall(rf"longer than {words} \(`(commands →[^`]+)`", text)
    ]
    chains = [chain for chain in stated if all(name in graph for name in chain)]
    assert len(chains) == 1, f"docs/architecture.md names no deepest chain of {package}: {stated}"
    assert len(chains[0]) == MAX_DEPTH[folder]
    for a, b in itertools.pairwise(chains[0]):
        assert b in graph[a], f"{a} does not import {b}"


@pytest.mark.parametrize("folder", PACKAGES)
def test_no_module_grows_past_the_limit(folder: str) -> None:
    for path in modules(folder).values():
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        assert lines <= MAX_LINES, f"{relative}: {lines} lines"


def test_the_oracles_share_nothing_with_the_product() -> None:
    """tests/oracles/ work everything out from the rules and the docs: none imports the package
    or numpy, nor a test module (only the standard library and each other)."""
    oracles = sorted((ROOT / "tests" / "oracles").glob("*.py"))
    assert len(oracles) >= 6
    for path in oracles:
        found = imported(f"oracles.{path.stem}", path)
        product = [n for n in found if n.split(".")[0] in ("tictactoe_book", "player", "generator", "numpy")]
        assert not product, f"{path.name} imports {product}"
        local = [n for n in found if n.startswith("test") or n in ("conftest", "judges")]
        assert not local, f"{path.name} imports {local}"


def test_no_module_hides_its_type_checking_imports() -> None:
    for path in EVERY.values():
        assert "TYPE_CHECKING = False" not in path.read_text(), path


def loaded_after(statement: str) -> list[str]:
    """The modules of ours, click and curses a fresh interpreter holds after ``statement``."""
    code = (
        "import sys\n"
        f"{statement}\n"
        "ours = ('tictactoe_book', 'tictactoe_generator', 'click', 'curses', 'numpy')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ours))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded: list[str] = eval(out.stdout)
    return loaded


def test_importing_the_package_imports_none_of_its_modules() -> None:
    assert loaded_after("import tictactoe_book") == ["tictactoe_book"]
    assert loaded_after("import tictactoe_book.commands") == ["tictactoe_book", "tictactoe_book.commands"]


def test_the_build_command_imports_only_what_catching_ctrl_c_needs() -> None:
    """ttt-book's entry point, like ttt-play's, is imported before it can catch Ctrl-C."""
    assert loaded_after("import tictactoe_generator.commands") == [
        "tictactoe_book",
        "tictactoe_book.commands",
        "tictactoe_generator",
        "tictactoe_generator.commands",
    ]


def test_every_python_folder_is_named_as_it_imports() -> None:
    """Every folder of Python modules git holds under player/ and generator/ lies in a package
    whose folder is its import name: the dotted name read off the path below player/ or
    generator/ is the module Python imports from that file."""
    tracked = subprocess.run(
        ["git", "ls-files", "player", "generator"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    sources = [Path(name) for name in tracked if name.endswith(".py")]
    assert len(sources) == len(EVERY) > 50
    code = (
        "import importlib.util, json, sys\n"
        "names = json.load(sys.stdin)\n"
        "print(json.dumps({n: importlib.util.find_spec(n).origin for n in names}))\n"
    )
    names = {}
    for source in sources:
        parts = source.with_suffix("").parts[1:]  # below player/ or generator/
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = str((ROOT / source).resolve())
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(sorted(names)),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == names


@pytest.mark.parametrize("folder", ["player", "generator"])
def test_no_module_loads_a_second_time_under_another_name_from_the_repository_root(folder: str) -> None:
    """From the repository's root, player/ and generator/ are folders, not packages: a module
    reached through one of them (``player.tictactoe_book.game``) is refused, not loaded again
    beside the one every import uses."""
    package = next(name for path, name in PACKAGES.items() if path.startswith(f"{folder}/"))
    code = f"import {package}\nimport {folder}.{package}\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and out.stderr.splitlines()[-1] == (
        f"ImportError: {package} is imported as {folder}.{package}: import it as {package}"
    ), out.stderr
    out = subprocess.run([sys.executable, "-c", f"import {folder}.game"], capture_output=True, cwd=ROOT)
    assert out.returncode == 1 and b"ModuleNotFoundError" in out.stderr


def test_importing_the_reader_imports_no_application_click_or_curses() -> None:
    loaded = loaded_after("import tictactoe_book.reader")
    assert "tictactoe_book.reader" in loaded
    assert not [m for m in loaded if m.startswith(APPS) or m.split(".")[0] in ("click", "curses")], loaded


def test_importing_every_runtime_module_loads_no_build_module_or_numpy() -> None:
    names = [name for name in RUNTIME if not name.startswith("tictactoe_book.integrations.")]
    loaded = loaded_after(f"import importlib\nfor m in {names!r}: importlib.import_module(m)")
    assert not [m for m in loaded if m.startswith("tictactoe_generator") or m == "numpy"], loaded


def test_the_package_exposes_the_library_api() -> None:
    book = tictactoe_book.load_book()
    assert book.best_moves("XX.OO....") == (2,)
    # the empty board: every move draws; the corners are the top tier of the trap order
    assert book.optimal_moves(".........") == tuple(range(9))
    assert book.best_moves(".........") == (0, 2, 6, 8)
    assert set(book.evaluate("X...O....").scores) == {1, 2, 3, 5, 6, 7, 8}
    assert tictactoe_book.choose_move(book, ".........", "perfect", rng=tictactoe_book.Rng(1)) in (0, 2, 6, 8)
    position = tictactoe_book.Position.parse("X........")
    assert position.turn == "O" and book.evaluate(position) == book.evaluate("X........")
    errors = ("BookError", "BoardError", "IllegalMoveError", "RulesError", "LevelError", "OpponentError")
    for error in errors:
        assert issubclass(getattr(tictactoe_book, error), ValueError)
    assert set(tictactoe_book.__all__) == {
        "BOOK_REASONS",
        "LEVELS",
        *errors,
        "Book",
        "Evaluation",
        "Game",
        "MoveValue",
        "Outcome",
        "Position",
        "Rng",
        "Rules",
        "__version__",
        "candidates",
        "choose_move",
        "grid",
        "load_book",
        "parse_book",
        "parse_move",
    }
    assert all(getattr(tictactoe_book, name) is not None for name in tictactoe_book.__all__)
    assert set(dir(tictactoe_book)) >= set(tictactoe_book.__all__)
    with pytest.raises(AttributeError, match="no attribute 'check_level'"):
        tictactoe_book.check_level  # noqa: B018  (not public: reached through its module)


def test_the_runtime_depends_on_click_alone_and_the_build_extra_on_what_the_build_imports() -> None:
    """pyproject.toml's ``dependencies`` are the third-party modules the runtime imports (its
    adapters apart: their extras), and the ``build`` extra holds numpy and orjson, which only the
    build imports (docs/architecture.md; orjson was a runtime dependency nothing at run time used)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirement = re.compile(r"[A-Za-z0-9_.-]+")
    runtime = {requirement.match(r).group(0) for r in project["dependencies"]}  # type: ignore[union-attr]
    build = {requirement.match(r).group(0) for r in project["optional-dependencies"]["build"]}  # type: ignore[union-attr]
    standard = set(sys.stdlib_module_names)

    def third_party(names: dict[str, Path]) -> set[str]:
        found = set()
        for name, path in names.items():
            if name.startswith("tictactoe_book.integrations"):
                continue
            for module in imported(name, path):
                top = module.split(".")[0]
                if top and top not in standard and top not in ("tictactoe_book", "tictactoe_generator"):
                    found.add(top)
        return found

    assert third_party(RUNTIME) == runtime == {"click"}
    assert build == {"numpy", "orjson"}
    on_dask = "tictactoe_generator.cluster"
    assert third_party({k: v for k, v in BUILD.items() if k != on_dask}) == runtime | build
    # the cluster extra: the build's, and Dask, which the engine on Dask alone imports
    cluster = {requirement.match(r).group(0) for r in project["optional-dependencies"]["cluster"]}  # type: ignore[union-attr]
    assert cluster == build | {"dask", "distributed"}
    assert third_party({on_dask: BUILD[on_dask]}) == {"distributed"}


def test_the_build_command_line_loads_no_solver_until_a_command_runs() -> None:
    """docs/architecture.md: each ttt-book command imports what it needs inside its function."""
    loaded = loaded_after("import tictactoe_generator.cli\nimport orjson")
    heavy = {
        "solve",
        "writer",
        "build",
        "trap",
        "verify",
        "vectors",
        "export",
        "reports.levels",
        "reports.poster",
    }

    def is_heavy(name: str) -> bool:  # a module of one of them, or in one of their packages
        parts = name.removeprefix("tictactoe_generator.").split(".")
        return any(".".join(parts[:n]) in heavy for n in range(1, len(parts) + 1))

    assert not [m for m in loaded if m == "numpy" or (m.startswith("tictactoe_generator.") and is_heavy(m))]
    code = "import sys, tictactoe_generator.cli\nprint('orjson' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"
