"""The tasks of the build by layers (tictactoe_generator.layered), each on a block of one
layer's rows, reading and writing ``.npy`` files in the build's work folder: module-level
functions of plain arguments, so that an engine runs them here or on a cluster's workers.

Forward, layer ``m`` to ``m + 1``: ``reach_block`` (a block's counts, candidate cells and
children, by ``forward_layer``), ``merge_range`` (one range of codes of every block's children,
made distinct: the shuffle), ``renumber_block`` (a block's successors table in layer
``m + 1``'s rows). Backward, layer ``m + 1`` to ``m``: ``solve_block`` (a block of unfinished
rows scored, ranked in trap order and written as parts) and ``finish_layer`` (the layer's
scores and chances gathered). A task run twice writes the same files.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tictactoe_book.errors import OutputError
from tictactoe_book.game import Rules
from tictactoe_book.opponents import ranking
from tictactoe_generator.codes import code_symmetries, code_type, decode, stabilizer_sizes
from tictactoe_generator.entry_text import entry_texts
from tictactoe_generator.parts import PART_ENTRIES, part_file
from tictactoe_generator.solve import (
    FIRST_LINE,
    FULL,
    SECOND_LINE,
    UNFINISHED,
    Counts,
    Outcomes,
    finished_best,
    forward_layer,
    one_ply_back,
    score_moves,
)
from tictactoe_generator.trap import (
    TOLERANCE,
    Denominators,
    Margins,
    Method,
    candidate_sets,
    finished_chances,
    lcm_of_counts,
    scales,
    trap_layer,
)

#: Codes each forward block offers as a sample of its children, from which the ranges of the
#: shuffle are cut (about as many children in each).
SAMPLES = 64


@dataclass(frozen=True)
class Plan:
    """What every task of one build knows: the book's rules, the opponent its trap order ranks
    against first, the work folder and the rows of a block."""

    rules: Rules
    against: str
    work: str
    block: int

    def store(self) -> Store:
        """The work folder; OutputError when this process cannot reach it (a worker elsewhere
        without the shared storage)."""
        folder = Path(self.work)
        if not (folder / STATE).is_file():
            raise OutputError(
                self.work,
                f"the build's work folder is out of reach of {os.uname().nodename}: every worker "
                "needs it, on storage shared with the client",
            )
        return Store(folder)


#: The record of the layers done, in the work folder.
STATE = "state.json"
#: The folder of the parts written so far, in the work folder.
PARTS = "parts"


class Store:
    """The layers' arrays between tasks and passes: ``.npy`` files in ``folder``, each written
    whole under a temporary name and renamed (a task run twice writes the same bytes)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, m: int, name: str, piece: int | None = None) -> Path:
        tail = "" if piece is None else f"-{piece:05d}"
        return self.folder / f"{m:02d}-{name}{tail}.npy"

    def save(self, m: int, name: str, array: npt.NDArray[Any], piece: int | None = None) -> None:
        path = self.path(m, name, piece)
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        with open(temporary, "wb") as file:
            np.save(file, array, allow_pickle=False)
        os.replace(temporary, path)

    def load(self, m: int, name: str, piece: int | None = None, *, mapped: bool = False) -> npt.NDArray[Any]:
        array: npt.NDArray[Any] = np.load(
            self.path(m, name, piece), mmap_mode="r" if mapped else None, allow_pickle=False
        )
        return array

    def rows(self, m: int, name: str, start: int, stop: int) -> npt.NDArray[Any]:
        """Rows ``start`` to ``stop`` of layer ``m``'s array ``name``, read from the file."""
        return np.asarray(self.load(m, name, mapped=True)[start:stop])

    def join(self, m: int, name: str, pieces: int) -> None:
        """The pieces ``0 .. pieces - 1`` of layer ``m``'s ``name`` as one array, one after the
        other (copied through a memory map: never two whole copies in memory); the pieces
        removed."""
        arrays = [self.load(m, name, i, mapped=True) for i in range(pieces)]
        rows = sum(len(array) for array in arrays)
        if rows == 0:
            self.save(m, name, np.concatenate(arrays))
        else:
            path = self.path(m, name)
            temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
            shape = (rows, *arrays[0].shape[1:])
            whole = np.lib.format.open_memmap(temporary, mode="w+", dtype=arrays[0].dtype, shape=shape)
            start = 0
            for array in arrays:
                whole[start : start + len(array)] = array
                start += len(array)
            whole.flush()
            del whole
            os.replace(temporary, path)
        del arrays
        for i in range(pieces):
            self.path(m, name, i).unlink()

    def drop(self, m: int) -> None:
        for path in self.folder.glob(f"{m:02d}-*.npy"):
            path.unlink()

    def write_part(self, name: str, data: bytes) -> None:
        folder = self.folder / PARTS
        temporary = folder / f".{name}.{secrets.token_hex(4)}"
        temporary.write_bytes(data)
        os.replace(temporary, folder / name)


@dataclass
class Tally:
    """The counts of the boards passed so far (``tictactoe_generator.solve.Counts``)."""

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

    def merge(self, other: Tally) -> None:
        for name in ("reachable", "unfinished", "canonical", "canonical_unfinished", "tree_nodes"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind in self.lines:
            self.lines[kind] += other.lines[kind]

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


# ---------------------------------------------------------------- the forward pass's tasks


@dataclass
class Reached:
    """What a forward block tells: its counts, each opponent's ``lcm_of_counts`` of its
    candidate sets, and a sample of its children's codes."""

    tally: Tally
    divisors: dict[str, int]
    sample: list[int]


def reach_block(plan: Plan, m: int, i: int) -> Reached:
    """Forward block ``i`` of layer ``m``: counted, its candidates saved, its children found."""
    rules, cells, store = plan.rules, plan.rules.cells, plan.store()
    start, stop = i * plan.block, (i + 1) * plan.block
    codes, status, paths = (store.rows(m, name, start, stop) for name in ("codes", "status", "paths"))
    symmetries = code_symmetries(rules)
    tally = Tally()
    tally.add(status, symmetries.count // stabilizer_sizes(symmetries, codes), paths)
    open_codes = codes[status == UNFINISHED]
    divisors = {}
    for foe in ranking(plan.against):
        chosen = (
            candidate_sets(rules, open_codes, m % 2 == 0, foe)
            if len(open_codes)
            else np.zeros(0, dtype=np.uint32)
        )
        divisors[foe.name] = lcm_of_counts(chosen)
        store.save(m, f"candidates-{foe.name}", chosen, i)
    sample: list[int] = []
    if m < cells:
        children, child_status, table = forward_layer(rules, symmetries, m, codes, status)
        child_paths = np.zeros(len(children), dtype=np.int64)
        moves = table >= 0
        np.add.at(child_paths, table[moves], np.broadcast_to(paths[:, None], table.shape)[moves])
        for name, array in (
            ("children", children),
            ("child-status", child_status),
            ("child-paths", child_paths),
        ):
            store.save(m, name, array, i)
        store.save(m, "local-table", table, i)
        sample = children[:: max(1, len(children) // SAMPLES)].tolist()
    return Reached(tally, divisors, sample)


def merge_range(plan: Plan, m: int, r: int, bounds: Sequence[int], blocks: int) -> int:
    """Range ``r`` of layer ``m + 1`` (codes from ``bounds[r]`` up to ``bounds[r + 1]``, the last
    range to the end): the
    children of every block of layer ``m`` in it, distinct and sorted, their statuses and the
    moves into each summed, saved as piece ``r``; how many."""
    store = plan.store()
    pieces: dict[str, list[npt.NDArray[Any]]] = {"children": [], "child-status": [], "child-paths": []}
    for i in range(blocks):
        children = store.load(m, "children", i, mapped=True)
        start, stop = _edges(children, bounds)[r : r + 2]
        for name in pieces:
            pieces[name].append(np.asarray(store.load(m, name, i, mapped=True)[start:stop]))
    codes, first, inverse = np.unique(
        np.concatenate(pieces["children"]).astype(code_type(plan.rules.cells)),
        return_index=True,
        return_inverse=True,
    )
    status = np.concatenate(pieces["child-status"]).astype(np.int8)[first]
    paths = np.zeros(len(codes), dtype=np.int64)
    np.add.at(paths, inverse.ravel(), np.concatenate(pieces["child-paths"]).astype(np.int64))
    for name, array in (("codes", codes), ("status", status), ("paths", paths)):
        store.save(m + 1, name, array, r)
    return len(codes)


def _edges(children: npt.NDArray[Any], bounds: Sequence[int]) -> list[int]:
    """Where each range of codes begins in the sorted ``children``, and their end."""
    return [*np.searchsorted(children, np.array(bounds, dtype=children.dtype)).tolist(), len(children)]


def renumber_block(plan: Plan, m: int, i: int, bounds: Sequence[int], starts: Sequence[int]) -> None:
    """Block ``i``'s successors table in layer ``m + 1``'s rows (``starts[r]`` the first row of
    range ``r``)."""
    store = plan.store()
    children = store.load(m, "children", i)
    rows = np.empty(len(children), dtype=np.int64)
    edges = _edges(children, bounds)
    for r in range(len(bounds)):
        run = slice(edges[r], edges[r + 1])
        if edges[r] < edges[r + 1]:
            codes = store.load(m + 1, "codes", r, mapped=True)
            rows[run] = starts[r] + np.searchsorted(codes, children[run])
    local = store.load(m, "local-table", i)
    table = np.full(local.shape, -1, dtype=np.int32)
    moves = local >= 0
    table[moves] = rows[local[moves]]
    store.save(m, "table", table, i)


# ---------------------------------------------------------------- the backward pass's tasks


@dataclass(frozen=True)
class Order:
    """How the trap order counts (``choose_method``): its name and each opponent's
    denominators, in ranking order."""

    name: Method
    denominators: Denominators

    @property
    def exact(self) -> bool:
        return self.name == "exact"

    @property
    def dtype(self) -> type[np.generic]:
        return np.int64 if self.exact else np.float64


@dataclass
class Solved:
    """What a backward block tells: its parts' items in the manifest, and the float method's
    closest ties and distinctions in it (``Margins``)."""

    items: list[dict[str, Any]]
    margins: Margins


def solve_block(plan: Plan, m: int, j: int, order: Order) -> Solved:
    """Backward block ``j`` of layer ``m`` (of its unfinished rows): its scores, trap order and
    chances from layer ``m + 1``'s; its parts written."""
    cells, store = plan.rules.cells, plan.store()
    status = store.load(m, "status")
    rows = np.flatnonzero(status == UNFINISHED)[j * plan.block : (j + 1) * plan.block]
    table = np.asarray(store.load(m, "table", mapped=True)[rows])
    scores, best = score_moves(table, store.load(m + 1, "arrival"))
    following = {name: store.load(m + 1, f"chances-{name}") for name in order.denominators}
    candidates = {
        name: store.rows(m, f"candidates-{name}", j * plan.block, (j + 1) * plan.block)
        for name in order.denominators
    }
    margins = Margins()
    tier, found = trap_layer(
        m,
        table,
        scores,
        best,
        candidates,
        following,
        scales(order.denominators, m),
        0.0 if order.exact else TOLERANCE,
        None if order.exact else margins,
    )
    store.save(m, "best", best, j)
    for name, values in found.items():
        store.save(m, f"chances-{name}", values, j)
    keys = decode(np.asarray(store.load(m, "codes", mapped=True)[rows]), cells)
    texts = entry_texts(best, tier)
    items = []
    for offset in range(0, len(rows), PART_ENTRIES):
        run = slice(offset, offset + PART_ENTRIES)
        name, data, item = part_file(m, (j * plan.block + offset) // PART_ENTRIES, keys[run], texts[run])
        store.write_part(name, data)
        items.append(item)
    return Solved(items, margins)


def finish_layer(plan: Plan, m: int, blocks: int, order: Order) -> None:
    """Layer ``m``'s best scores (as ``arrival``, the score of the move into each row) and each
    opponent's chances, gathered from its backward blocks."""
    store = plan.store()
    status = store.load(m, "status")
    rows = np.flatnonzero(status == UNFINISHED)
    best = finished_best(plan.rules.misere, plan.rules.cells, status)
    if blocks:
        best[rows] = np.concatenate([store.load(m, "best", j) for j in range(blocks)])
    store.save(m, "arrival", one_ply_back(best))
    for name, den in order.denominators.items():
        chances = finished_chances(plan.rules.misere, m, status, den, order.dtype)
        if blocks:
            chances[:, rows] = np.concatenate(
                [store.load(m, f"chances-{name}", j) for j in range(blocks)], axis=1
            )
        store.save(m, f"chances-{name}", chances)
    for j in range(blocks):
        store.path(m, "best", j).unlink()
        for name in order.denominators:
            store.path(m, f"chances-{name}", j).unlink()
