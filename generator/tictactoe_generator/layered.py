"""The build by layers: a book by parts (docs/book-parts.md) of any board up to MAX_CELLS (20)
cells, holding about two adjacent layers in memory and the others on disk.

The same build as the in-memory one (tictactoe_generator.solve, tictactoe_generator.trap,
tictactoe_generator.writer), through the same kernels, one layer of marks at a time:

1. **forward**, from the empty board: layer ``m + 1`` and layer ``m``'s successors table from
   layer ``m`` (``forward_layer``); on the way, each layer's boards and games are counted
   (orbits and move sequences, as ``solve`` counts them) and each opponent's candidate cells
   are found (``candidate_sets``), which give the trap order's denominators;
2. **backward**, from the full board to the empty one: each layer's move scores
   (``score_moves``), trap order and chances (``trap_layer``) from the next layer's, in
   blocks of rows; its entry strings (``entry_texts``) are then cut into parts
   (``part_file``) and the layer above is dropped.

A layer waits between the passes as ``.npy`` files in a work folder: its codes, statuses,
successors table and candidate sets. Row numbers are local to a layer (the table names rows of
the next layer). Up to 16 cells the files are byte for byte those of ``split_document`` of the
version-2 book the in-memory build writes (tests/test_layered.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tictactoe_book.game import Rules
from tictactoe_book.opponents import DEFAULT, ranking
from tictactoe_book.parts import MANIFEST
from tictactoe_generator.atomic import folder_target, write_into
from tictactoe_generator.codes import code_symmetries, code_type, decode, stabilizer_sizes
from tictactoe_generator.parts import PART_ENTRIES, manifest_bytes, part_file
from tictactoe_generator.solve import (
    FIRST_LINE,
    FULL,
    SECOND_LINE,
    UNFINISHED,
    Counts,
    Outcomes,
    Progress,
    finished_best,
    forward_layer,
    one_ply_back,
    score_moves,
)
from tictactoe_generator.trap import (
    BOOK_FIRST,
    BOOK_SECOND,
    TOLERANCE,
    Margins,
    Values,
    candidate_sets,
    choose_method,
    finished_chances,
    lcm_of_counts,
    rates_of,
    scales,
    trap_layer,
)
from tictactoe_generator.writer import counts_of, document, entry_texts, order_member, rates_member

#: Rows of a layer taken at once in the backward pass: a multiple of PART_ENTRIES, so that a
#: block's entries are whole parts (the last block of a layer may be shorter).
BLOCK = 256 * PART_ENTRIES


@dataclass
class _Tally:
    """The counts of the layers passed so far (``tictactoe_generator.solve.Counts``)."""

    reachable: int = 0
    unfinished: int = 0
    canonical: int = 0
    canonical_unfinished: int = 0
    tree_nodes: int = 0
    lines: dict[int, int] = field(default_factory=lambda: {FIRST_LINE: 0, SECOND_LINE: 0, FULL: 0})

    def add(
        self, status: npt.NDArray[np.int8], orbit: npt.NDArray[np.int64], paths: npt.NDArray[np.int64]
    ) -> None:
        unfinished = status == UNFINISHED
        self.reachable += int(orbit.sum())
        self.unfinished += int(orbit[unfinished].sum())
        self.canonical += len(status)
        self.canonical_unfinished += int(unfinished.sum())
        self.tree_nodes += int(paths.sum())
        for kind in self.lines:
            self.lines[kind] += int(paths[status == kind].sum())

    def counts(self, misere: bool) -> Counts:
        first, second, draws = self.lines[FIRST_LINE], self.lines[SECOND_LINE], self.lines[FULL]
        games = Outcomes(second, first, draws) if misere else Outcomes(first, second, draws)
        return Counts(
            reachable=self.reachable,
            unfinished=self.unfinished,
            finished=self.reachable - self.unfinished,
            canonical=self.canonical,
            canonical_unfinished=self.canonical_unfinished,
            canonical_finished=self.canonical - self.canonical_unfinished,
            tree_nodes=self.tree_nodes,
            games=games,
        )


class _Store:
    """The layers' arrays between the passes: ``.npy`` files in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, m: int, name: str) -> Path:
        return self.folder / f"{m:02d}-{name}.npy"

    def save(self, m: int, name: str, array: npt.NDArray[Any]) -> None:
        np.save(self.path(m, name), array, allow_pickle=False)

    def load(self, m: int, name: str, *, mapped: bool = False) -> npt.NDArray[Any]:
        array: npt.NDArray[Any] = np.load(
            self.path(m, name), mmap_mode="r" if mapped else None, allow_pickle=False
        )
        return array

    def drop(self, m: int) -> None:
        for path in self.folder.glob(f"{m:02d}-*.npy"):
            path.unlink()


def build_by_layers(
    rules: Rules,
    work: Path,
    *,
    against: str = DEFAULT,
    progress: Progress | None = None,
    margins: Margins | None = None,
) -> dict[str, bytes]:
    """The files of the book by parts of ``rules`` (misère or not), its optimal moves in trap
    order ranked against ``against`` first: the manifest's name and each part's, to bytes.
    ``work`` is an empty folder for the layers' arrays (left empty again); ``progress`` is
    called after each layer of each pass (stages ``"reach"`` and ``"solve"``); ``margins``, if
    given, observes the float method's ties (``tictactoe_generator.trap.Margins``)."""
    cells, misere = rules.cells, rules.misere
    symmetries = code_symmetries(rules)
    opponents = ranking(against)
    store = _Store(work)
    tally = _Tally()
    divisors: dict[str, list[int]] = {foe.name: [] for foe in opponents}
    codes = np.zeros(1, dtype=code_type(cells))
    status = np.full(1, UNFINISHED, dtype=np.int8)
    paths = np.ones(1, dtype=np.int64)
    for m in range(cells + 1):
        tally.add(status, symmetries.count // stabilizer_sizes(symmetries, codes), paths)
        rows = np.flatnonzero(status == UNFINISHED)
        for foe in opponents:
            chosen = np.concatenate(
                [np.zeros(0, dtype=np.uint32)]
                + [
                    candidate_sets(rules, codes[rows[start : start + BLOCK]], m % 2 == 0, foe)
                    for start in range(0, len(rows), BLOCK)
                ]
            )
            divisors[foe.name].append(lcm_of_counts(chosen))
            store.save(m, f"candidates-{foe.name}", chosen)
        store.save(m, "codes", codes)
        store.save(m, "status", status)
        if m < cells:
            codes, status, table = forward_layer(rules, symmetries, m, codes, status)
            store.save(m, "table", table)
            following = np.zeros(len(codes), dtype=np.int64)
            moves = table >= 0
            np.add.at(following, table[moves], np.broadcast_to(paths[:, None], table.shape)[moves])
            paths = following
            del table, moves
        if progress is not None:
            progress("reach", m + 1, cells + 1)
    method, denominators = choose_method(cells, {name: tuple(d) for name, d in divisors.items()}, None)
    exact = method == "exact"
    dtype = np.int64 if exact else np.float64
    tolerance = 0.0 if exact else TOLERANCE
    files: dict[str, bytes] = {}
    items: dict[int, list[dict[str, Any]]] = {}
    arrival = np.zeros(0, dtype=np.int8)
    chances: dict[str, Values] = {}
    for m in range(cells, -1, -1):
        status = store.load(m, "status")
        best = finished_best(misere, cells, status)
        following_chances = chances
        chances = {
            name: finished_chances(misere, m, status, den, dtype) for name, den in denominators.items()
        }
        rows = np.flatnonzero(status == UNFINISHED)
        if len(rows):
            table_of = store.load(m, "table", mapped=True)
            candidates = {name: store.load(m, f"candidates-{name}", mapped=True) for name in chances}
            codes = store.load(m, "codes", mapped=True)
            items[m] = []
            for start in range(0, len(rows), BLOCK):
                block = rows[start : start + BLOCK]
                table = np.asarray(table_of[block])
                scores, best[block] = score_moves(table, arrival)
                tier, found = trap_layer(
                    m,
                    table,
                    scores,
                    best[block],
                    {name: np.asarray(chosen[start : start + BLOCK]) for name, chosen in candidates.items()},
                    following_chances,
                    scales(denominators, m),
                    tolerance,
                    None if exact else margins,
                )
                for name, values in chances.items():
                    values[:, block] = found[name]
                keys = decode(np.asarray(codes[block]), cells)
                texts = entry_texts(best[block], tier)
                for offset in range(0, len(block), PART_ENTRIES):
                    index = (start + offset) // PART_ENTRIES
                    run = slice(offset, offset + PART_ENTRIES)
                    name, data, item = part_file(m, index, keys[run], texts[run])
                    files[name] = data
                    items[m].append(item)
            del table_of, candidates, codes
        arrival = one_ply_back(best)
        store.drop(m + 1)
        if progress is not None:
            progress("solve", cells + 1 - m, cells + 1)
    store.drop(0)
    first, second = (
        rates_of(chances, denominators, method, book, 0, 0) for book in (BOOK_FIRST, BOOK_SECOND)
    )
    header = document(
        rules, {}, counts_of(tally.counts(misere)), order_member(method, against), rates_member(first, second)
    )
    parts = [item for m in sorted(items) for item in items[m]]
    return {MANIFEST: manifest_bytes(header, parts), **dict(sorted(files.items()))}


def build_parts(
    rules: Rules,
    *,
    against: str = DEFAULT,
    progress: Progress | None = None,
    near: Path | None = None,
    margins: Margins | None = None,
) -> dict[str, bytes]:
    """The files of the book by parts of ``rules``, built by layers (``build_by_layers``), the
    layers not in use waiting in a temporary folder in ``near`` (default: the system's),
    removed after."""
    with work_folder(near) as work:
        return build_by_layers(rules, work, against=against, progress=progress, margins=margins)


#: The name of a build's work folder begins so (then tempfile's random letters).
WORK_PREFIX = ".ttt-layers-"


@contextmanager
def work_folder(near: Path | None = None) -> Iterator[Path]:
    """A new folder for a build's layers in ``near`` (default: the system's temporary folder),
    held with an exclusive ``flock`` while the build lives and removed after it (Ctrl-C and
    SIGTERM too). First, the work folders there that no build holds are removed: those a build
    killed with SIGKILL left (tens of GB on 4x5)."""
    where = Path(near) if near is not None else Path(tempfile.gettempdir())
    for stale in where.glob(WORK_PREFIX + "*"):
        with contextlib.suppress(OSError), _held(stale, wait=False):
            shutil.rmtree(stale)
    while True:
        path = Path(tempfile.mkdtemp(prefix=WORK_PREFIX, dir=where))
        try:
            fd = _open_folder(path)
        except FileNotFoundError:  # removed by another build's clean-up before it was held
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        if path.is_dir():
            break
        os.close(fd)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def _open_folder(folder: Path) -> int:
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)


@contextmanager
def _held(folder: Path, *, wait: bool) -> Iterator[None]:
    """``folder`` held with an exclusive ``flock`` (OSError if another holds it and not
    ``wait``, or it is no folder)."""
    fd = _open_folder(folder)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def write_parts(
    folder: str | Path,
    rules: Rules,
    *,
    against: str = DEFAULT,
    progress: Progress | None = None,
    margins: Margins | None = None,
) -> dict[str, bytes]:
    """``ttt-book build --parts``: the book by parts of ``rules`` built and written into
    ``folder``, all files or none (its layers wait beside it while it is built); the files."""
    real = folder_target(folder)
    near = next(parent for parent in real.parents if parent.is_dir())
    files = build_parts(rules, against=against, progress=progress, near=near, margins=margins)
    write_into(folder, files)
    return files
