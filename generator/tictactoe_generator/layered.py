"""The build by layers: a book by parts (docs/book-parts.md) of any board up to MAX_CELLS (20)
cells, holding about two adjacent layers in memory and the others on disk, as tasks an engine
runs: one after the other in this process (``LOCAL``), or on a Dask cluster
(``tictactoe_generator.cluster``).

The same build as the in-memory one (tictactoe_generator.solve, tictactoe_generator.trap,
tictactoe_generator.writer), through the same kernels, one layer of marks at a time:

1. **forward**, from the empty board, layer ``m`` cut in blocks of rows. Each block
   (``reach_block``) counts its boards and games (orbits and move sequences, as ``solve`` counts
   them), finds each opponent's candidate cells (``candidate_sets``, whose sizes give the trap
   order's denominators) and its children (``forward_layer``: their distinct canonical codes,
   statuses, and the block's successors table in the row numbers of those). The children are
   then shuffled by ranges of codes (``merge_range``: one range's codes of every block, made
   distinct and sorted, the moves into each summed), so that the ranges in order are layer
   ``m + 1``; each block's table is then renumbered into layer ``m + 1``'s rows
   (``renumber_block``).
2. **backward**, from the full board to the empty one, layer ``m``'s unfinished rows cut in
   blocks of whole parts: each block (``solve_block``) scores its moves (``score_moves``) and
   ranks its optimal moves in trap order with its chances (``trap_layer``) from layer
   ``m + 1``'s, and writes its entries (``entry_texts``) as parts (``part_file``); the layer's
   scores and chances are then gathered (``finish_layer``) and layer ``m + 1`` is dropped.

The tasks (tictactoe_generator.layer_tasks) read and write ``.npy`` files in a work folder,
which a cluster's workers share, and are idempotent: a task run twice (a worker lost) writes
the same files. Row numbers are local to a layer (a table names rows of the next layer). A
record of the layers done (``state.json``) lets a build interrupted (Ctrl-C, SIGTERM, a crash)
resume from the last finished layer of either pass, given the same work folder. Up to 16 cells
the files are byte for byte those of ``split_document`` of the version-2 book the in-memory
build writes, on every engine and block size (tests/test_layered.py, tests/test_cluster.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from tictactoe_book.errors import OutputError
from tictactoe_book.game import Rules
from tictactoe_book.opponents import DEFAULT, ranking
from tictactoe_book.parts import MANIFEST
from tictactoe_generator.atomic_folder import folder_target, write_into
from tictactoe_generator.codes import code_type
from tictactoe_generator.engines import LOCAL, Engine
from tictactoe_generator.layer_tasks import (
    PARTS,
    STATE,
    Order,
    Plan,
    Reached,
    Solved,
    Store,
    Tally,
    finish_layer,
    merge_range,
    reach_block,
    renumber_block,
    solve_block,
)
from tictactoe_generator.parts import PART_ENTRIES, manifest_bytes
from tictactoe_generator.solve import UNFINISHED, Progress
from tictactoe_generator.trap import BOOK_FIRST, BOOK_SECOND, Margins, choose_method, rates_of
from tictactoe_generator.writer import counts_of, document, order_member, rates_member

# ---------------------------------------------------------------- the build


def build_by_layers(
    rules: Rules,
    work: Path,
    *,
    against: str = DEFAULT,
    progress: Progress | None = None,
    margins: Margins | None = None,
    engine: Engine = LOCAL,
    block: int | None = None,
    keep: bool = False,
) -> dict[str, bytes]:
    """The files of the book by parts of ``rules`` (misère or not), its optimal moves in trap
    order ranked against ``against`` first: the manifest's name and each part's, to bytes.

    ``work`` is the folder for the layers' arrays: empty, or the folder of an interrupted build
    of the same book, which is resumed; it is left empty (``keep``: with its record and the
    files, so that a caller whose write of them fails can call again and get them at once).
    ``engine`` runs the tasks, each on
    ``block`` rows (a multiple of PART_ENTRIES; by default what the folder's build took, or the
    engine's ``parts_a_task`` parts); ``progress`` is called after each layer of each
    pass (stages ``"reach"`` and ``"solve"``); ``margins``, if given, observes the float
    method's ties (``tictactoe_generator.trap.Margins``)."""
    if block is None:
        block = _State.recorded_block(work) or engine.parts_a_task * PART_ENTRIES
    if block <= 0 or block % PART_ENTRIES:
        raise ValueError(f"a block of {block} rows: a positive multiple of {PART_ENTRIES} is needed")
    plan = Plan(rules, against, str(Path(work).resolve()), block)
    state = _State.open(plan)
    store = Store(Path(plan.work))
    cells = rules.cells
    for m in range(cells + 1):
        if m >= len(state.reached):
            state.reached.append(_reach(plan, store, m, engine))
            state.save()
        store.path(m, "paths").unlink(missing_ok=True)  # (the rerun of a layer not recorded needs it)
        if progress is not None:
            progress("reach", m + 1, cells + 1)
    tally = Tally()
    for reached in state.reached:
        tally.merge(reached.tally)
    names = [foe.name for foe in ranking(against)]
    divisors = {name: tuple(reached.divisors[name] for reached in state.reached) for name in names}
    name, denominators = choose_method(cells, divisors, None)
    order = Order(name, {name: denominators[name] for name in names})
    for m in range(cells, -1, -1):
        if str(m) not in state.solved:
            state.solved[str(m)] = _solve(plan, store, m, order, engine)
            state.save()
        store.drop(m + 1)
        if progress is not None:
            progress("solve", cells + 1 - m, cells + 1)
    if margins is not None and not order.exact:
        for solved in state.solved.values():
            margins.merge(solved.margins)
    chances = {name: store.load(0, f"chances-{name}") for name in names}
    first, second = (
        rates_of(chances, order.denominators, order.name, book, 0, 0) for book in (BOOK_FIRST, BOOK_SECOND)
    )
    header = document(
        rules,
        {},
        counts_of(tally.counts(rules.misere)),
        order_member(order.name, against),
        rates_member(first, second),
    )
    items = [item for m in range(cells + 1) for item in state.solved[str(m)].items]
    files = {item["file"]: (store.folder / PARTS / item["file"]).read_bytes() for item in items}
    if not keep:
        store.drop(0)
        state.clear()
    return {MANIFEST: manifest_bytes(header, items), **dict(sorted(files.items()))}


def _reach(plan: Plan, store: Store, m: int, engine: Engine) -> Reached:
    """Layer ``m``'s forward blocks, and layer ``m + 1`` from them: what the layer tells."""
    cells = plan.rules.cells
    blocks = max(1, math.ceil(len(store.load(m, "status", mapped=True)) / plan.block))
    told = engine.map(reach_block, [(plan, m, i) for i in range(blocks)])
    reached = Reached(Tally(), {}, [])
    for one in told:
        reached.tally.merge(one.tally)
        for name, divisor in one.divisors.items():
            reached.divisors[name] = math.lcm(reached.divisors.get(name, 1), divisor)
    for foe in ranking(plan.against):
        store.join(m, f"candidates-{foe.name}", blocks)
    if m < cells:
        bounds = _bounds(sorted({code for one in told for code in one.sample}), blocks)
        sizes = engine.map(merge_range, [(plan, m, r, bounds, blocks) for r in range(len(bounds))])
        starts = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        engine.map(renumber_block, [(plan, m, i, bounds, starts) for i in range(blocks)])
        for name in ("codes", "status", "paths"):
            store.join(m + 1, name, len(sizes))
        store.join(m, "table", blocks)
        for name in ("children", "child-status", "child-paths", "local-table"):
            for i in range(blocks):
                store.path(m, name, i).unlink()
    return reached


def _bounds(sample: list[int], ranges: int) -> list[int]:
    """Up to ``ranges`` ranges of codes, cut at even steps of the sorted ``sample``: the code
    each begins with, from 0."""
    cuts = [sample[len(sample) * k // ranges] for k in range(1, ranges)] if sample else []
    return sorted({0, *cuts})


def _solve(plan: Plan, store: Store, m: int, order: Order, engine: Engine) -> Solved:
    """Layer ``m``'s backward blocks and their gathering: what the layer tells."""
    status = store.load(m, "status", mapped=True)
    blocks = math.ceil(int(np.count_nonzero(np.asarray(status) == UNFINISHED)) / plan.block)
    told = engine.map(solve_block, [(plan, m, j, order) for j in range(blocks)])
    engine.map(finish_layer, [(plan, m, blocks, order)])
    solved = Solved([item for one in told for item in one.items], Margins())
    for one in told:
        solved.margins.merge(one.margins)
    return solved


class _State:
    """``state.json``: the book the work folder is for and the layers done in each pass."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.path = Path(plan.work) / STATE
        self.reached: list[Reached] = []
        self.solved: dict[str, Solved] = {}

    @classmethod
    def open(cls, plan: Plan) -> _State:
        """The record of the work folder, for ``plan``'s book: read if it is there, else begun
        (the layer of the empty board saved)."""
        state = cls(plan)
        folder = Path(plan.work)
        if state.path.is_file():
            data = json.loads(state.path.read_bytes())
            if data["book"] != state.book():
                raise OutputError(folder, f"it is the work folder of another build ({data['book']})")
            state.reached = [_reached(one) for one in data["reached"]]
            state.solved = {m: _solved(one) for m, one in data["solved"].items()}
            return state
        if any(folder.iterdir()):
            raise OutputError(folder, "the work folder is not empty and holds no build")
        (folder / PARTS).mkdir()
        store = Store(folder)
        codes = np.zeros(1, dtype=code_type(plan.rules.cells))
        store.save(0, "codes", codes)
        store.save(0, "status", np.full(1, UNFINISHED, dtype=np.int8))
        store.save(0, "paths", np.ones(1, dtype=np.int64))
        state.save()
        return state

    @staticmethod
    def recorded_block(work: Path) -> int | None:
        """The rows a task took in the build recorded in ``work``, if any."""
        try:
            data = json.loads((Path(work) / STATE).read_bytes())
        except (OSError, ValueError):
            return None
        block: int = data.get("block", LOCAL.parts_a_task * PART_ENTRIES)
        return block

    def book(self) -> str:
        return f"{self.plan.rules} against {self.plan.against}, blocks of {self.plan.block}"

    def save(self) -> None:
        data = {
            "book": self.book(),
            "block": self.plan.block,
            "reached": [asdict(one) for one in self.reached],
            "solved": {
                m: {"items": one.items, "margins": [one.margins.tied, one.margins.apart]}
                for m, one in self.solved.items()
            },
        }
        temporary = self.path.with_name(f".{STATE}.{secrets.token_hex(4)}")
        temporary.write_text(json.dumps(data))
        os.replace(temporary, self.path)

    def clear(self) -> None:
        """The work folder left empty: its record and parts removed."""
        shutil.rmtree(Path(self.plan.work) / PARTS)
        self.path.unlink()


def _reached(data: dict[str, Any]) -> Reached:
    tally = dict(data["tally"])
    tally["lines"] = {int(kind): count for kind, count in tally["lines"].items()}
    return Reached(Tally(**tally), data["divisors"], data["sample"])


def _solved(data: dict[str, Any]) -> Solved:
    tied, apart = data["margins"]
    return Solved(data["items"], Margins(float(tied), float(apart)))


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


#: The name of a resumable build's work folder ends so, after a dot and the output's name.
RESUMABLE_SUFFIX = ".ttt-build"


def resumable_path(output: Path) -> Path:
    """Where ``resumable_folder`` keeps the work of a build of the folder ``output``."""
    near = next(parent for parent in output.parents if parent.is_dir())
    return near / f".{output.name}{RESUMABLE_SUFFIX}"


@contextmanager
def resumable_folder(output: Path) -> Iterator[Path]:
    """The work folder of a resumable build of the folder ``output``: ``.NAME.ttt-build``
    beside it, or in the nearest folder above it that exists (made if new), held with an
    exclusive ``flock`` while the build lives (OutputError if another build holds it), removed
    after a build that ended well and kept after one that did not (Ctrl-C, SIGTERM, a failure),
    so that the same command resumes it."""
    path = resumable_path(output)
    try:
        path.mkdir(exist_ok=True)
        fd = _open_folder(path)
    except OSError as error:
        raise OutputError(path, error.strerror or str(error)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise OutputError(path, "another build is using it: wait for it to end") from None
        yield path
        shutil.rmtree(path, ignore_errors=True)
    finally:
        os.close(fd)


def resume_note(work: Path) -> str | None:
    """What a build in ``work`` would resume, in words; None for a new build."""
    try:
        data = json.loads((work / STATE).read_bytes())
    except (OSError, ValueError):
        return None
    return (
        f"resuming the build kept in {work} ({data['book']}): {len(data['reached'])} layers "
        f"reached and {len(data['solved'])} solved"
    )


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
    engine: Engine = LOCAL,
    told: Callable[[str], None] | None = None,
) -> dict[str, bytes]:
    """``ttt-book build --parts``: the book by parts of ``rules`` built on ``engine`` (this
    process by default; ``tictactoe_generator.cluster.DaskEngine``) and written into
    ``folder``, all files or none; the files. Its layers wait in the work folder
    ``resumable_folder`` names, where a build interrupted or failed (Ctrl-C, SIGTERM, a full
    disk) leaves them: the same call resumes it, and ``told`` hears ``resume_note``'s words."""
    real = folder_target(folder)
    with resumable_folder(real) as work:
        note = resume_note(work)
        if note is not None and told is not None:
            told(note)
        files = build_by_layers(
            rules, work, against=against, progress=progress, margins=margins, engine=engine, keep=True
        )
        write_into(folder, files)
    return files
