"""Build hook: the repository's folders as one package, ``tictactoe_book``, and the packaged books
inside it, each proven, with the CRC-32 of its bytes beside it
(``tictactoe_book.trust.packaged_digest``).

The repository keeps the layout that shows the architecture (player/ the runtime, generator/
the build, commands.py the entry points); an installed program sees one import name, so that
a game with its own ``player.py`` or ``generator.py`` can use it (``PACKAGE``: folder -> place in
the package):

* a wheel holds the files at their place in the package (and nothing else of the checkout);
* an editable install (``pip install -e``, what ``make`` does) holds a small import finder
  (``FINDER``, run from a ``.pth`` file) that loads each place from its folder, so an edit
  needs no reinstall. The build's proof of the books below uses the same finder.

The player proves every book it loads, except the packaged one whose bytes have exactly the
hash recorded here (docs/book-format.md, "Trusting the packaged book"). So the hash is
recorded only after this build has proven the book with the player's own loader: a book that
does not prove fails the build. An editable install reads the repository's book/ directly and
records nothing, so that book is proven on every load; a checkout without a book still
installs, so ``make book`` can write the first one.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The import name, and where each folder of the checkout goes in it.
NAME = "tictactoe_book"
PACKAGE = {"player": NAME, "generator": f"{NAME}/generator", "commands.py": f"{NAME}/commands.py"}

#: The import finder of an editable install: ``MAPPING`` gives, for each module the checkout's
#: folders provide under another name, the file or folder that holds it. Python's own finders
#: go first; this one answers only for the names they cannot place.
FINDER = '''\
import os
import sys

MAPPING = {mapping!r}


class CheckoutFinder:
    """tictactoe_book from a checkout's folders (an editable install: hatch_build.py). A meta
    path finder by its find_spec alone: it imports nothing until one of its names is asked for,
    since every Python started in the environment runs this file."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        where = MAPPING.get(fullname)
        if where is None:
            return None
        import importlib.util

        if where.endswith(".py"):
            return importlib.util.spec_from_file_location(fullname, where)
        init = os.path.join(where, "__init__.py")
        return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[where])


if CheckoutFinder not in sys.meta_path:
    sys.meta_path.append(CheckoutFinder)
'''
FINDER_MODULE = f"_{NAME}_checkout"


def module_mapping(root: str) -> dict[str, str]:
    """Each module ``PACKAGE`` places, by its dotted name, and its file or folder in ``root``."""
    return {
        place.removesuffix(".py").replace("/", "."): str(Path(root, folder).resolve())
        for folder, place in PACKAGE.items()
    }


def package_files(root: str) -> dict[str, str]:
    """Every file the wheel takes from the checkout's folders (``PACKAGE``; no byte code), by
    its path in ``root``, and its place in the wheel."""
    found = {}
    for folder, place in PACKAGE.items():
        top = Path(root, folder)
        for path in [top] if top.is_file() else sorted(top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found[str(path)] = str(Path(place, path.relative_to(top))) if path != top else place
    return found


def link_tree(root: str, target: str) -> None:
    """The package laid out in ``target`` as the wheel holds it, each file a link to the
    checkout's (``make lint`` type-checks it: mypy names modules by their folders)."""
    shutil.rmtree(target, ignore_errors=True)
    for source, place in package_files(root).items():
        link = Path(target, place)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(Path(source).resolve())


class ProvenBookHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._folder = tempfile.mkdtemp(prefix="ttt-book-build-")
        try:
            finder = Path(self._folder) / f"{FINDER_MODULE}.py"
            finder.write_text(FINDER.format(mapping=module_mapping(self.root)), encoding="utf-8")
            if version == "editable":
                pth = Path(self._folder) / f"{FINDER_MODULE}.pth"
                pth.write_text(f"import {FINDER_MODULE}\n", encoding="ascii")
                build_data["force_include"][str(finder)] = finder.name
                build_data["force_include"][str(pth)] = pth.name
                return
            for source, place in package_files(self.root).items():
                build_data["force_include"][source] = place
            self._record_books(build_data, finder)
        except BaseException:  # the build fails, finalize will not run: leave no folder behind
            shutil.rmtree(self._folder, ignore_errors=True)
            raise

    def _record_books(self, build_data: dict[str, Any], finder: Path) -> None:
        """Prove each packaged book with the checkout's own reader, and record its bytes."""
        sys.path.insert(0, str(finder.parent))
        try:
            __import__(FINDER_MODULE)
            from tictactoe_book.game import Rules
            from tictactoe_book.reader import PACKAGED, parse_book
            from tictactoe_book.trust import PACKAGED_SUFFIX, packaged_digest

            for (misere, _), name in PACKAGED.items():
                book = Path(self.root) / "book" / name
                raw = book.read_bytes()  # a wheel without its books would not play: fail loudly
                # raises BookError, with its reason code, if it does not prove for these rules
                parse_book(raw, str(book), rules=Rules(3, 3, 3, misere))
                record = Path(self._folder) / (name + PACKAGED_SUFFIX)
                record.write_text(packaged_digest(raw) + "\n", encoding="ascii")
                build_data["force_include"][str(book)] = f"{NAME}/{name}"
                build_data["force_include"][str(record)] = f"{NAME}/{name}{PACKAGED_SUFFIX}"
        finally:
            sys.path.remove(str(finder.parent))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    link_tree(str(Path(__file__).resolve().parent), sys.argv[1])
