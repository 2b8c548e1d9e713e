"""The proof by parts on arrays, for books past 16 cells (``ttt-book verify FOLDER``): an
accelerator of ``tictactoe_book.parts.first_failure``, the proof by parts entry by entry.

The player's accelerator (tictactoe_book.parts_proof) holds a table of ``3 ** cells`` bytes and
each layer's entry strings as Python objects: 3.5 GB and several GB more on 4x5. This one holds
each layer as arrays, as the build does (tictactoe_generator.layered): per entry its key's code,
its best score and the set of its tiers' cells, about 14 bytes, two adjacent layers at a time.
Each part is read and checked by the player's own functions (``part_texts``: the hash and the
layout, steps 12 to 14); then, a layer at a time, with the build's kernels:

* step 15 (``entry-key``): each key has as many X as O or one more, no full line, and is its
  own canonical code (``canonical_codes``); step 16 (``entry-shape``): each distinct entry
  string parsed once by the grammar (``parse_entry``);
* steps 17 and 18 for the layer before it: every move of every entry, its successor's
  canonical code looked up in this layer's sorted codes (``np.searchsorted``), scored as the
  game ends or one ply back from the successor's best score; an entry whose successor is no
  entry is ``missing-entry``, one whose best score is not its moves' best, or whose tiers are
  not exactly its optimal moves (no cell twice), ``entry-inconsistent``.

The message of a finding is the definition's (``key_problem``, ``check_shapes``'s words,
``entry_problem``), on the first entry in manifest order that the arrays find failing the
step; ``ProofDisagreement`` if the definition finds nothing wrong there. tests/test_layer_proof.py
holds it to ``first_failure`` on damaged books.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

import tictactoe_book.trust as trust
from tictactoe_book.errors import BookError, EntryShapeError
from tictactoe_book.game import after_line, one_ply_back
from tictactoe_book.grammar import misshapen, parse_entry
from tictactoe_book.parts import NO_EMPTY_BOARD, PartsBook, entry_problem, load_parts, part_bytes, part_texts
from tictactoe_book.parts_proof import STEPS, keep_layers, resumed_layers
from tictactoe_book.proof import ProofDisagreement, key_problem
from tictactoe_generator.codes import (
    EMPTY_DIGIT,
    FIRST_DIGIT,
    SECOND_DIGIT,
    Codes,
    canonical_codes,
    code_symmetries,
    code_type,
    completes_line,
    decode,
    digits_at,
    line_masks,
    mover_digit,
    placed,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tictactoe_book.book_format import Progress
    from tictactoe_generator.engines import Engine

#: Entries whose moves are scored at once (steps 17 and 18): 160 MB of scores on 20 cells.
MOVES_BLOCK = 1 << 20
#: A move's score where there is no move (an occupied cell), below every score.
_NO_MOVE = np.iinfo(np.int64).min
#: Each board character's digit (``tictactoe_generator.codes``); the layout has checked them.
_DIGIT_OF = np.zeros(256, dtype=np.uint8)
_DIGIT_OF[ord("O")], _DIGIT_OF[ord("X")] = SECOND_DIGIT, FIRST_DIGIT


@dataclass(frozen=True, eq=False)
class _Layer:
    """One layer's entries as arrays, in manifest order (by part, then key: increasing codes)."""

    codes: Codes
    #: best scores (0 for a misshapen entry)
    best: npt.NDArray[np.int64]
    #: the cells of the entry's tiers, as a bit set (cell ``c`` is bit ``c``)
    tiers: npt.NDArray[np.uint32]
    #: whether a cell is in two tiers
    twice: npt.NDArray[np.bool_]


def prove_by_layers(
    path: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    engine: tuple[Engine, Path] | None = None,
) -> PartsBook:
    """The proof by parts of the book at ``path`` on arrays: the book, or the BookError
    ``first_failure`` finds. A valid book whose parts are over 1 MB together is recorded as
    proven on this machine. ``progress`` is told ``("prove", done, entries)``.

    In this process by default, two adjacent layers at a time; on ``engine``, an engine
    (``tictactoe_generator.cluster.DaskEngine``) and an empty work folder its workers share,
    every layer at once: each layer read and checked (``read_layer``) and kept as
    arrays, then each checked against the next (``check_layer``); the findings of all are the
    same as the proof's in this process, the first of the earliest step."""
    book = load_parts(path)
    found = _Proof(book, progress).finding() if engine is None else _on(*engine, book, progress)
    if found is not None:
        raise found
    if (
        sum(part.size for part in book.texts.parts) > trust.RECORD_ABOVE
        and trust.state_location() is not None
    ):
        trust.remember_digest(book.manifest_sha256)
    return book


class _Proof:
    def __init__(self, book: PartsBook, progress: Progress | None) -> None:
        self.book, self.rules, self.texts = book, book.rules, book.texts
        self.symmetries = code_symmetries(self.rules)
        self.first: dict[str, BookError] = {}
        self.tell = progress or (lambda stage, done, total: None)
        self.entries = len(self.texts)
        self.done = 0
        big = sum(part.size for part in self.texts.parts) > trust.RECORD_ABOVE
        self.kept = big and trust.state_location() is not None

    def finding(self) -> BookError | None:
        """The first finding of the earliest step, or None. Resumable as the player's proof by
        parts is (``tictactoe_book.parts_proof``, the same kept state): after each layer, the
        layers read and the findings so far are kept; a proof of the same manifest started again
        hashes the parts of the layers before the last one read, reads that one again, and goes
        on from the next."""
        cells = self.rules.cells
        previous: _Layer | None = None
        start = self._resumed()
        if start:
            previous = self._read(start - 1)
        for layer in range(start, cells + 1):
            current = self._read(layer)
            if "part-missing" in self.first:
                break
            if layer == 0 and not (len(current.codes) and current.codes[0] == 0):  # the empty board
                self.first.setdefault(
                    "missing-entry", BookError(self.book.source, "missing-entry", NO_EMPTY_BOARD)
                )
            self._keys(current)
            if previous is not None and len(previous.codes) and self._wanted("missing-entry"):
                self._moves(layer - 1, previous, current)
            previous = current
            self._keep(layer + 1)
        verdict = next((self.first[code] for code in STEPS if code in self.first), None)
        if self.kept:
            trust.forget_unfinished_proof(self.book.manifest_sha256)
        return verdict

    def _keep(self, layers: int) -> None:
        """The state of the proof once ``layers`` layers are read and proven but for the moves of
        the last, kept (``keep_layers``)."""
        if self.kept:
            keep_layers(self.book, layers, self.first)

    def _resumed(self) -> int:
        """The layers read by an interrupted proof of this manifest (0 if none): their findings
        taken back, the parts of all but the last of them hashed again, the work told done."""
        layers = resumed_layers(self.book, self.first) if self.kept else 0
        if not layers:
            return 0
        self.tell("resume", layers, self.rules.cells)
        for part in self.texts.parts:
            if part.layer < layers - 1:
                try:
                    part_bytes(self.texts.folder, part)
                except BookError as error:
                    self.first.setdefault(error.code, error)
                self.done += part.entries
        return layers

    def _wanted(self, code: str) -> bool:
        return all(earlier not in self.first for earlier in STEPS[: STEPS.index(code)])

    def _read(self, layer: int) -> _Layer:
        """The layer's parts read and checked (steps 12 to 14, 16), as arrays."""
        cells, folder = self.rules.cells, self.texts.folder
        dtype = code_type(cells)
        places = np.array([2 * (cells - 1 - cell) for cell in range(cells)], dtype=dtype)
        facts: dict[str, tuple[int, int, bool]] = {}
        codes, best, tiers, twice = [], [], [], []
        for part in self.texts.parts:
            if part.layer != layer:
                continue
            try:
                texts = part_texts(folder, part, self.rules)
            except BookError as error:
                self.first.setdefault(error.code, error)
                continue
            digits = _DIGIT_OF[np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8)].reshape(
                -1, cells
            )
            codes.append(np.bitwise_or.reduce(digits.astype(dtype) << places, axis=1))
            for key, text in texts.items():
                if text not in facts:
                    facts[text] = self._facts(key, text)
            rows = [facts[text] for text in texts.values()]
            best.append(np.array([row[0] for row in rows], dtype=np.int64))
            tiers.append(np.array([row[1] for row in rows], dtype=np.uint32))
            twice.append(np.array([row[2] for row in rows], dtype=bool))
            self.done += part.entries
            self.tell("prove", self.done, self.entries)
        return _Layer(
            np.concatenate([np.zeros(0, dtype=dtype), *codes]),
            np.concatenate([np.zeros(0, dtype=np.int64), *best]),
            np.concatenate([np.zeros(0, dtype=np.uint32), *tiers]),
            np.concatenate([np.zeros(0, dtype=bool), *twice]),
        )

    def _key(self, layer: _Layer, wrong: npt.NDArray[np.bool_]) -> str:
        """The key of the first entry of ``layer`` where ``wrong`` holds."""
        return decode(layer.codes[int(np.argmax(wrong)) :][:1], self.rules.cells)[0]

    def _facts(self, key: str, text: str) -> tuple[int, int, bool]:
        """An entry string's best score, tiers' cells and whether a cell is in two tiers;
        step 16's finding if it is not of the grammar."""
        try:
            best, tiers = parse_entry(text, self.rules.cells)
        except EntryShapeError:
            if "entry-shape" not in self.first:
                problem = misshapen(text, self.rules.cells)
                self.first["entry-shape"] = BookError(
                    self._path(key), "entry-shape", f"entry {key!r}: {problem}"
                )
            return 0, 0, False
        listed = [cell for tier in tiers for cell in tier]
        cells = sum(1 << cell for cell in set(listed))
        return best, cells, len(set(listed)) != len(listed)

    def _path(self, key: str) -> str:
        place = self.texts.place_of(key)
        assert place is not None
        return os.path.join(self.texts.folder, self.texts.parts[place].file)

    def _keys(self, layer: _Layer) -> None:
        """Step 15 on a layer's keys: the first that is wrong, named by the definition."""
        if not len(layer.codes) or not self._wanted("entry-key"):
            return
        rules, cells, codes = self.rules, self.rules.cells, layer.codes
        x = sum((digits_at(codes, cells, c) == FIRST_DIGIT).astype(np.int64) for c in range(cells))
        o = sum((digits_at(codes, cells, c) == SECOND_DIGIT).astype(np.int64) for c in range(cells))
        full = np.zeros(len(codes), dtype=bool)
        for digit in (FIRST_DIGIT, SECOND_DIGIT):
            for cell in range(cells):
                full |= completes_line(codes, line_masks(rules, cell, digit))
        wrong = ((x - o) != 0) & ((x - o) != 1) | full | (x + o == cells)
        wrong |= canonical_codes(self.symmetries, codes) != codes
        if wrong.any():
            key = self._key(layer, wrong)
            problem = key_problem(rules, key)
            if problem is None:
                raise _disagreement("entry-key", key)
            self.first.setdefault("entry-key", BookError(self._path(key), "entry-key", problem))

    def _moves(self, m: int, layer: _Layer, following: _Layer) -> None:
        """Steps 17 and 18 for layer ``m``'s entries, their successors in ``following``, a block
        of rows at a time (a whole layer's move scores would be 8 bytes a move: 4.4 GB for
        4x5's layer 12)."""
        first_wrong: str | None = None
        for start in range(0, len(layer.codes), MOVES_BLOCK):
            rows = slice(start, start + MOVES_BLOCK)
            block = _Layer(layer.codes[rows], layer.best[rows], layer.tiers[rows], layer.twice[rows])
            missing, wrong = self._block_moves(m, block, following)
            if missing.any():  # step 17 before 18, wherever 18 failed first
                self._definition("missing-entry", self._key(block, missing))
                return
            if first_wrong is None and wrong.any():
                first_wrong = self._key(block, wrong)
        if first_wrong is not None and "entry-inconsistent" not in self.first:
            self._definition("entry-inconsistent", first_wrong)

    def _block_moves(
        self, m: int, layer: _Layer, following: _Layer
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """For some entries of layer ``m``: which have a successor that is no entry (17), and
        which state a best score or tiers their moves do not give (18)."""
        rules, cells = self.rules, self.rules.cells
        digit = mover_digit(m)
        after = one_ply_back(after_line(rules))  # a move completing a line
        scores = np.full((len(layer.codes), cells), _NO_MOVE, dtype=np.int64)
        missing = np.zeros(len(layer.codes), dtype=bool)
        for cell in range(cells):
            free = np.flatnonzero(digits_at(layer.codes, cells, cell) == EMPTY_DIGIT)
            child = placed(layer.codes[free], digit, cells, cell)
            line = completes_line(child, line_masks(rules, cell, digit))
            key = canonical_codes(self.symmetries, child)
            at = np.minimum(np.searchsorted(following.codes, key), max(len(following.codes) - 1, 0))
            found = following.codes[at] == key if len(following.codes) else np.zeros(len(key), dtype=bool)
            best = following.best[at] if len(following.codes) else np.zeros(len(key), dtype=np.int64)
            score = np.where(line, after, np.where(m + 1 == cells, 0, np.sign(best) - best))
            scores[free, cell] = score
            missing[free] |= ~line & ~found & (m + 1 != cells)
        truth = scores.max(axis=1)
        optimal = ((scores == truth[:, None]).astype(np.uint32) << np.arange(cells, dtype=np.uint32)).sum(
            axis=1, dtype=np.uint32
        )
        wrong = (layer.best != truth) | (layer.tiers != optimal) | layer.twice
        return missing, wrong

    def _definition(self, code: str, key: str) -> None:
        """The definition's finding on ``key``, which the arrays found failing step ``code``."""
        found = entry_problem(self.rules, self.texts, key)
        if found is None or found.code != code:
            raise _disagreement(code, key)
        self.first.setdefault(code, found)


# ---------------------------------------------------------------- on an engine: every layer at once

#: A finding as a task returns it: its code, the file it names and its reason (a BookError's).
Finding = tuple[str, str, str]


def read_layer(folder: str, work: str, m: int) -> list[Finding]:
    """Layer ``m`` of the book by parts in ``folder`` read and checked (steps 12 to 16), its
    arrays saved in ``work``: the findings, the first of each code."""
    proof = _Proof(load_parts(folder), None)
    layer = proof._read(m)
    if m == 0 and not (len(layer.codes) and layer.codes[0] == 0):  # the empty board
        proof.first.setdefault("missing-entry", BookError(proof.book.source, "missing-entry", NO_EMPTY_BOARD))
    proof._keys(layer)
    for name in ("codes", "best", "tiers", "twice"):
        np.save(os.path.join(work, f"{m:02d}-{name}.npy"), getattr(layer, name), allow_pickle=False)
    return _findings(proof)


def check_layer(folder: str, work: str, m: int) -> list[Finding]:
    """Steps 17 and 18 for layer ``m``'s entries against layer ``m + 1``'s, as ``read_layer``
    saved them: the findings."""
    proof = _Proof(load_parts(folder), None)
    layer, following = (
        _Layer(
            *(
                np.load(os.path.join(work, f"{k:02d}-{name}.npy"))
                for name in ("codes", "best", "tiers", "twice")
            )
        )
        for k in (m, m + 1)
    )
    if len(layer.codes):
        proof._moves(m, layer, following)
    return _findings(proof)


def _findings(proof: _Proof) -> list[Finding]:
    return [(code, str(error.path), error.reason) for code, error in proof.first.items()]


def _on(engine: Engine, work: Path, book: PartsBook, progress: Progress | None) -> BookError | None:
    """The proof's finding, ``read_layer`` and ``check_layer`` run on ``engine``, their arrays
    in ``work``."""
    folder, cells = str(book.texts.folder), book.rules.cells
    tell = progress or (lambda stage, done, total: None)
    first: dict[str, Finding] = {}

    def take(found: list[list[Finding]]) -> None:
        for layer in found:  # in layer order: the first of each code is the earliest entry's
            for finding in layer:
                first.setdefault(finding[0], finding)

    take(engine.map(read_layer, [(folder, str(work), m) for m in range(cells + 1)]))
    tell("prove", len(book.texts) // 2, len(book.texts))
    if not any(code in first for code in STEPS[: STEPS.index("missing-entry")]):
        take(engine.map(check_layer, [(folder, str(work), m) for m in range(cells)]))
    tell("prove", len(book.texts), len(book.texts))
    code = next((code for code in STEPS if code in first), None)
    return None if code is None else BookError(first[code][1], code, first[code][2])


def _disagreement(code: str, key: str) -> ProofDisagreement:
    return ProofDisagreement(
        f"internal error: the proof on arrays says step {code!r} fails on entry {key!r}, "
        "and its definition finds nothing wrong there"
    )
