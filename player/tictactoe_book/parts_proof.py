"""The proof by parts (docs/book-parts.md, "The proof by parts"): ``ttt-book verify FOLDER``,
a layer at a time with the proof's accelerator, in bounded memory, resumable.

Every successor of an entry with ``m`` marks that does not end the game has ``m + 1``. So the
book is taken a layer (number of marks) at a time, in order: each layer's parts read and
checked (steps 12 to 14: the file, its hash, its layout), its entries put through the
accelerator's first pass (``proof_engine.EntryProof.enter``: steps 15 and 16, and every image
of every key into the table of ranks), then the layer before it checked against that table
(``EntryProof.check``: steps 17 and 18). Held at once: the table (``3 ** cells`` bytes, 43 MB
for 16 cells) and two adjacent layers, their entry strings and the accelerator's runs of them;
nothing else grows with the book. The definition writes the message of the one entry the
accelerator names (``proof.explain``; ``proof.ProofDisagreement`` if it finds nothing wrong
there), and ``parts.first_failure``, the proof by parts entry by entry, finds the same
(tests/test_parts_proof.py).

Resumable: once a layer is proven, the state of the proof (its manifest's SHA-256, the layers
proven, the findings so far, which the manifest decides) is kept beside this machine's record
of proven books (``trust.keep_unfinished_proof``). A proof of the same manifest started again
(after Ctrl-C, SIGTERM, a crash) begins at the next layer, the parts of the layers before it
hashed again, not proven again; any other manifest starts over. A proof that ends forgets its
state, and a valid book is recorded as proven (its manifest's SHA-256, which names every
part's bytes). As for the record, only books whose parts are larger than ``RECORD_ABOVE``
together are kept and recorded.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import tictactoe_book.trust as trust
from tictactoe_book.errors import BookError
from tictactoe_book.game import EMPTY
from tictactoe_book.parts import (
    MANIFEST,
    NO_EMPTY_BOARD,
    PART_NAME,
    PartsBook,
    load_parts,
    part_bytes,
    part_texts,
)
from tictactoe_book.proof import ENTRY_STEPS, explain
from tictactoe_book.proof_engine import RUN, EntryProof
from tictactoe_book.reader import collector_paused

if TYPE_CHECKING:
    from collections.abc import Callable

    from tictactoe_book.book_format import Progress
    from tictactoe_book.parts import Part

#: The reason codes past the manifest's, in the order of the steps (docs/book-parts.md, 12 to
#: 18): the finding is the first found of the earliest code found.
STEPS = ("part-missing", "part-hash", "part-format", *ENTRY_STEPS)
#: The work an entry costs, in units of about 10 ns of CPU (measured on 4x4: docs/benchmarks.md,
#: "The proof by parts"), for the progress told: read in its part (hashed, inflated, laid out);
#: in the first pass, and in the second, each with more per free cell.
READ, ENTER, ENTER_PER_FREE, CHECK, CHECK_PER_FREE = 210, 240, 90, 120, 13


def prove_parts(path: str | os.PathLike[str], *, progress: Progress | None = None) -> PartsBook:
    """The proof by parts of the book at ``path`` (its folder or its manifest): the book, or
    BookError with the first failing step's code, naming the first part (and entry) in
    manifest order that fails it, as ``parts.first_failure`` does. ``progress`` is told
    ``("resume", layers, cells)`` when the proof resumes after ``layers`` layers proven by an
    interrupted one, then ``("prove", done, entries)``: the work done, in entries, from 0 (or
    the work of the layers proven before) to all of them."""
    book = load_parts(path)
    with collector_paused():
        found = _Proof(book, progress or (lambda stage, done, total: None)).finding()
    if found is not None:
        raise found
    return book


class _Proof:
    """One proof by parts: its findings so far (the first of each code), the work done, and
    the state kept to resume it."""

    def __init__(self, book: PartsBook, tell: Progress) -> None:
        self.book, self.rules, self.tell = book, book.rules, tell
        self.folder = book.texts.folder
        cells = self.rules.cells
        self.layers: list[list[Part]] = [[] for _ in range(cells + 1)]
        for part in book.texts.parts:
            self.layers[part.layer].append(part)
        self.first: dict[str, BookError] = {}
        big = sum(part.size for part in book.texts.parts) > trust.RECORD_ABOVE
        self.kept = big and trust.state_location() is not None
        # the work of each layer, in units: read and entered, then checked in the next round
        sizes = [sum(part.entries for part in parts) for parts in self.layers]
        #: per layer, the units an entry of it costs in the first pass and in the second
        self.each = [
            (ENTER + ENTER_PER_FREE * free, CHECK + CHECK_PER_FREE * free) for free in range(cells, -1, -1)
        ]
        self.read = [READ * size for size in sizes]
        self.enter = [first * size for (first, _), size in zip(self.each, sizes, strict=True)]
        self.check = [second * size for (_, second), size in zip(self.each, sizes, strict=True)]
        self.total = sum(self.read) + sum(self.enter) + sum(self.check)
        self.entries = sum(sizes)
        self.done = 0  # units
        self.shown = -1  # entries last told

    def finding(self) -> BookError | None:
        """Every layer in order: the finding of the proof, or None."""
        rules, cells = self.rules, self.rules.cells
        start = self._resumed()
        self._at(self.done)
        table = bytearray(3**cells)
        held: tuple[EntryProof, dict[str, str]] | None = None  # the layer entered, to be checked
        for layer in range(start, cells + 1):
            entries: dict[str, str] = {}
            for part in self.layers[layer]:  # steps 12 to 14
                try:
                    entries.update(part_texts(self.folder, part, rules))
                except BookError as error:
                    self.first.setdefault(error.code, error)
                self._at(self.done + READ * part.entries)
            if "part-missing" in self.first:
                break  # (nothing found later can come first)
            if layer == 0 and EMPTY * cells not in entries:
                no_empty_board = BookError(self.book.source, "missing-entry", NO_EMPTY_BOARD)
                self.first.setdefault("missing-entry", no_empty_board)
            entered = None
            if entries and self._wanted("entry-shape"):  # steps 15 and 16
                entered = EntryProof(rules, entries, RUN)
                found = entered.enter(self._pass(self.each[layer][0], 0, len(entries)), table)
                if found is not None:
                    self._found(found, entered, entries)
                    entered = None
            if held is not None and self._wanted("entry-inconsistent"):  # steps 17 and 18
                self.done = self._through(layer) - self.check[layer - 1]
                self._checked(layer - 1, *held, entries, table)
            held = None if entered is None else (entered, entries)  # (the layer before it let go)
            self._at(self._through(layer))
            self._keep(layer)
        verdict = next((self.first[code] for code in STEPS if code in self.first), None)
        if self.kept:
            trust.forget_unfinished_proof(self.book.manifest_sha256)
            if verdict is None:
                trust.remember_digest(self.book.manifest_sha256)
        return verdict

    def _checked(
        self, layer: int, proof: EntryProof, texts: dict[str, str], after: dict[str, str], table: bytearray
    ) -> None:
        """Steps 17 and 18 for ``layer`` (``proof``, of its entries ``texts``), the next layer's
        entries (``after``) in ``table``."""
        count = len(proof.keys)
        found = proof.check(self._pass(self.each[layer][1], count, count), table)
        if found is not None:
            self._found(found, proof, {**texts, **after})

    def _through(self, layer: int) -> int:
        """The units of work done once ``layer`` is read and entered and the layer before it
        checked."""
        return sum(self.read[: layer + 1]) + sum(self.enter[: layer + 1]) + sum(self.check[:layer])

    def _wanted(self, code: str) -> bool:
        """Can a finding of ``code`` still be the proof's (nothing of an earlier step found)?"""
        return all(earlier not in self.first for earlier in STEPS[: STEPS.index(code)])

    def _found(self, found: tuple[str, int], proof: EntryProof, texts: dict[str, str]) -> None:
        """The accelerator's finding in a layer (``proof``'s, ``texts`` its entries and those
        of the next layer), in the definition's words, naming its part."""
        code, place = found
        if code in self.first:
            return
        key = proof.keys[place]
        part = self.book.texts.place_of(key)
        assert part is not None
        path = os.path.join(self.folder, self.book.texts.parts[part].file)
        self.first[code] = BookError(path, code, explain(self.rules, texts, code, key))

    def _pass(self, weight: int, before: int, count: int) -> Callable[[int], None]:
        """The accelerator's ``tell`` for one pass over ``count`` entries (``before`` told
        already by the other), each worth ``weight`` units."""
        start = self.done
        return lambda done: self._at(start + weight * max(0, min(done - before, count)))

    def _at(self, units: int) -> None:
        """``units`` of work are done: tell how many entries' worth, if it changed."""
        self.done = units
        shown = self.entries * units // self.total if self.total else 0
        if shown != self.shown:
            self.shown = shown
            self.tell("prove", shown, self.entries)

    # ---------------------------------------------------------------- resuming

    def _keep(self, layer: int) -> None:
        """Layers 0 to ``layer - 1`` are proven: keep the state (``keep_layers``)."""
        if self.kept:
            keep_layers(self.book, layer, self.first)

    def _resumed(self) -> int:
        """The layers proven by an interrupted proof of this manifest (0 if none): their
        findings taken back, their parts hashed again, the work told done."""
        layers = resumed_layers(self.book, self.first) if self.kept else 0
        if not layers:
            return 0
        self.tell("resume", layers, self.rules.cells)
        for parts in self.layers[:layers]:
            for part in parts:
                try:
                    part_bytes(self.folder, part)
                except BookError as error:
                    self.first.setdefault(error.code, error)
        self.done = self._through(layers) - self.read[layers] - self.enter[layers]
        return layers


def keep_layers(book: PartsBook, layers: int, first: dict[str, BookError]) -> None:
    """Keep the state of a proof of ``book`` once ``layers`` layers are done, with ``first``,
    its first finding of each step so far
    (``trust.keep_unfinished_proof``): unless a part's file was at fault (not the manifest's
    to decide: it may be mended before the next run), or no layer or every layer is done."""
    if not 0 < layers < book.rules.cells or any(code not in ENTRY_STEPS for code in first):
        return
    found = [[code, os.path.basename(str(error.path)), error.reason] for code, error in first.items()]
    trust.keep_unfinished_proof({"manifest": book.manifest_sha256, "layers": layers, "findings": found})


def resumed_layers(book: PartsBook, first: dict[str, BookError]) -> int:
    """The layers an interrupted proof of ``book`` kept done (0 if none), its findings put back
    into ``first`` (``keep_layers``'s state)."""
    state = trust.unfinished_proof(book.manifest_sha256)
    layers = _layers_proven(state, book.rules.cells) if state is not None else 0
    if layers:
        assert state is not None
        for code, file, reason in state["findings"]:
            first[code] = BookError(os.path.join(book.texts.folder, file), code, reason)
    return layers


def _layers_proven(state: dict[str, Any], cells: int) -> int:
    """The layers a kept state says are proven, if it is well formed (else 0: start over)."""
    layers, found = state.get("layers"), state.get("findings")
    if type(layers) is not int or not 0 < layers < cells or type(found) is not list:
        return 0
    for item in found:
        if (
            type(item) is not list
            or len(item) != 3
            or not all(type(value) is str for value in item)
            or item[0] not in ENTRY_STEPS
            or not (item[1] == MANIFEST or PART_NAME.fullmatch(item[1]))
        ):
            return 0
    return layers
