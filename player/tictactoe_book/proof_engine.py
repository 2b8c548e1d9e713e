"""The proof's accelerator: steps 12 to 15 over whole runs of entries (``EntryProof``), finding
the first failing step and the first entry in file order that fails it, as the definition
(tictactoe_book.proof) would, at a fraction of its cost (docs/benchmarks.md; docs/scaling.md, "The
proof"). It writes no message: tictactoe_book.reader has the definition write the one of the entry
it names (``proof.explain``); tests/test_proof_definition.py holds the two to the same findings
on every damaged book of the tests and on runs of every size.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import deque
from functools import cache, cached_property, lru_cache, reduce
from itertools import accumulate, compress, pairwise, repeat
from operator import add, and_, floordiv, itemgetter, mod, ne, xor
from typing import TYPE_CHECKING, Any

from tictactoe_book.errors import EntryShapeError
from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Rules, after_line, one_ply_back
from tictactoe_book.grammar import Tiers, parse_entry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: The entries are taken a run of at most this many at a time unless the caller says
#: (tictactoe_book.reader.PROGRESS_ENTRIES), and the proof's progress told after each.
RUN = 4096
#: A board's cells as the digits of its rank (``.`` 0, ``O`` 1, ``X`` 2), in ASCII, then as bytes.
_TO_RANK = bytes.maketrans((EMPTY + SECOND + FIRST).encode(), b"012")
_FROM_RANK = bytes.maketrans(b"012", b"\0\1\2")
_NOT_MARKS = str.maketrans("", "", FIRST + SECOND + EMPTY)
#: A cell's digit as 1 where the cell is free, holds O, holds X (``_Boards``); 0xff where it is
#: free; 0x80 where it is not, which makes a byte of 0 to 2 one of ``_OFF``.
_COUNTS = tuple(bytes.maketrans(b"\0\1\2", bytes(int(digit == d) for d in range(3))) for digit in range(3))
_KEEP_FREE = bytes.maketrans(b"\0\1\2", b"\xff\0\0")
_TAKEN = bytes.maketrans(b"\0\1\2", b"\0\x80\x80")
_OFF = b"\x80\x81\x82"
#: A tier's byte (0 or 1) as one that is not 0, and back: so that the bytes of occupied cells,
#: made 0, can be dropped.
_NONZERO = bytes.maketrans(b"\0\1", b"\2\3")
_FROM_NONZERO = bytes.maketrans(b"\2\3", b"\0\1")
#: A move's score as the proof's bytes hold it, one byte a move: ``_LEVEL + score``, the score
#: held within ``_NEAR + 1`` of 0 (every move of a book of up to 16 cells scores within 17; a
#: move onto a best score beyond every move's scores beyond any best score within ``_NEAR``
#: either way, and is held at ``_NEAR + 1`` so), and ``_NO_ENTRY`` where the successor is
#: neither finished nor an entry. An entry's best score within ``_NEAR`` is ``_LEVEL + best``;
#: one beyond, ``_LEVEL`` (that entry is inconsistent whatever its moves score: ``wrong``). A
#: move's byte less its entry's best byte, plus ``_LEVEL``, is then within 2 to 253, so the
#: subtraction of two runs of bytes read as integers borrows across no byte.
_LEVEL = 128
_NEAR = 62
_NO_ENTRY = _LEVEL - _NEAR - 2
#: A move's byte as looked up (0 where no entry has the successor) as the proof holds it.
_UNFOUND = bytes.maketrans(b"\0", bytes((_NO_ENTRY,)))
#: ``score - best + _LEVEL`` read as the move's verdict: 1 if it scores the best score, 0 if
#: less, 2 if more (no tier can make that entry consistent).
_VERDICT = bytes(0 if byte < _LEVEL else 1 if byte == _LEVEL else 2 for byte in range(256))
#: Per best score within ``_NEAR``: its byte; per best score, the byte of a move onto it.
_BEST = {best: _LEVEL + best for best in range(-_NEAR, _NEAR + 1)}


class _Onto(dict[int, int]):
    """Per best score, the byte of a move onto an entry holding it: the score one ply back,
    held within ``_NEAR + 1`` of 0."""

    def __missing__(self, best: int) -> int:
        return _LEVEL + max(-_NEAR - 1, min(_NEAR + 1, one_ply_back(best)))


_ONTO = _Onto({best: _LEVEL + one_ply_back(best) for best in range(-_NEAR - 1, _NEAR + 2)})


@cache
def _one_at(byte: int) -> bytes:
    """A translation of ``byte`` to 1 and of every other byte to 0."""
    return bytes(int(other == byte) for other in range(256))


def first_failing(
    rules: Rules, texts: dict[str, Any], progress: Callable[[int], None] | None = None, *, run: int = RUN
) -> tuple[str, str | None] | None:
    """Steps 12 to 15 on the entries of a book for ``rules``: the first failing step's reason
    code and the key of the first entry in file order that fails it (None for a book with no
    entry for the empty board); None if every entry passes: ``proof.first_failure``'s finding,
    without its message. The entries are taken ``run`` at a time; ``progress`` is told how many
    are checked after each run, up to all of them (two passes over them: each counts for half)."""
    tell = progress or (lambda done: None)
    cells = rules.cells
    if all(map(cells.__eq__, map(len, texts))) and not "".join(texts).translate(_NOT_MARKS):
        return EntryProof(rules, texts, run).finding(lambda done: tell(done // 2))
    keys = list(texts)
    malformed = next(
        place for place, key in enumerate(keys) if len(key) != cells or key.translate(_NOT_MARKS)
    )
    # the first failing key is this one, or one before it failing another check of step 12
    before = EntryProof(rules, dict(zip(keys[:malformed], repeat(""))), run).first_pass(None, None)
    tell(len(keys))
    return "entry-key", keys[min(before, default=malformed)]


class EntryProof:
    """Steps 12 to 15 for the entries of one book, or of one layer of a book (``enter``,
    ``check``), over whole runs of them.

    The keys are read as one string of their cells' digits (``.`` 0, ``O`` 1, ``X`` 2, a key's
    row after another, each followed by a newline). A board's *rank* reads its digits in base
    3: ranks compare as boards do, and every board of ``cells`` cells has one below ``3 **
    cells``. So one table of ``3 ** cells`` bytes (43 MB for 16 cells) holds, at the rank of
    every image of every key, the score of a move onto it: the first pass, a run of keys at a
    time in file order, puts them there, and checks step 12: the ranks of the images
    (``_Images``) show which keys are not canonical, and the cells' columns of digits
    (``_Boards``) which are finished. A successor has one mark more than its key, so in the
    second pass a move's score is the table's byte at the key's rank plus the mark's place
    value: an image of an entry with one mark more (other boards have other ranks), or 0 if
    the move finishes the game (the columns show where, line by line) or reaches no entry. The
    moves' scores are held against the entries' best scores and tiers all at once, a run of
    entries with the same side to move at a time (``_moves``). Each distinct entry string is
    parsed once (``_facts``).

    A book by parts is proven a layer (number of marks) at a time (tictactoe_book.parts_proof):
    one table for the book, each layer's ``EntryProof`` entered into it (the first pass), then
    the layer before it checked against it (the second pass). A caller's ``tell`` is told the
    entries of each pass done so far: from 0 to the entries, then on to twice that.
    """

    def __init__(self, rules: Rules, texts: dict[str, Any], run: int) -> None:
        self.rules = rules
        self.texts = texts
        self.run = run
        #: the keys and their entries, in file order: a finding names the first that fails
        self.keys = list(texts)
        self.values = list(texts.values())
        self.images = _images(rules)
        #: ``_Boards.lead`` (``cells`` + #X - #O) as 0 where a key has as many X as O or one
        #: more, else 1
        self.unlike = bytes(0 if lead in (rules.cells, rules.cells + 1) else 1 for lead in range(256))
        #: per distinct entry string of the grammar, ``cells + 2`` bytes: the byte of a move
        #: onto its key, the byte of its best score, and a byte per cell, 1 on its tiers' cells
        self.facts: dict[str, bytes] = {}
        #: the entry strings inconsistent whatever their successors say (a cell in two tiers, a
        #: best score no move of the board can have)
        self.wrong: set[str] = set()
        self.groups: list[_Group] = []
        self.done = 0  # (the entries checked, by either pass: up to twice the entries)

    def finding(self, tell: Callable[[int], None]) -> tuple[str, str | None] | None:
        """The first failing step's code and the first entry failing it (see ``first_failing``)."""
        table = bytearray(3**self.rules.cells)
        code, place = self.enter(tell, table) or self.check(tell, table) or (None, 0)
        if code in (None, "entry-inconsistent") and EMPTY * self.rules.cells not in self.texts:
            return "missing-entry", None
        return None if code is None else (code, self.keys[place])

    def enter(self, tell: Callable[[int], None], table: bytearray) -> tuple[str, int] | None:
        """Steps 12 and 13 (the first pass): the code and place of the first entry failing the
        first that fails; else None, every image of every key then in ``table``."""
        misshapen = self._facts()
        bad = self.first_pass(tell, table if misshapen is None else None)
        found = ("entry-key", min(bad)) if bad else None if misshapen is None else ("entry-shape", misshapen)
        if found is not None:
            tell(2 * len(self.keys))
        return found

    def check(self, tell: Callable[[int], None], table: bytearray) -> tuple[str, int] | None:
        """Steps 14 and 15 (the second pass) after ``enter``, each move looked up in ``table``: the
        code and place of the first entry failing the first that fails, or None. (That the empty
        board is an entry is the caller's to check.)"""
        cells = self.rules.cells
        missing: set[int] = set()  # entries with a successor that is no entry
        wrong: set[int] = set()  # entries inconsistent with their successors
        for group in self.groups:
            for start, _, digits in group.runs(cells, self.run):
                stop = min(start + self.run, group.count)
                found = self._moves(
                    group.mover,
                    _Boards.of(digits, cells),
                    group.ranks[start:stop],
                    group.bests[start:stop],
                    group.tiers[start * cells : stop * cells],
                    table,
                )
                for places, rows in zip((missing, wrong), found, strict=True):
                    if rows:
                        places.update(map(group.places.__getitem__, map(start.__add__, rows)))
                self.done += stop - start
                tell(self.done)
        if missing:
            return "missing-entry", min(missing)
        if self.wrong:
            wrong.update(place for place, text in enumerate(self.values) if text in self.wrong)
        return ("entry-inconsistent", min(wrong)) if wrong else None

    def first_pass(self, tell: Callable[[int], None] | None, table: bytearray | None) -> list[int]:
        """Step 12 (13 held over): the places of the keys that fail it; and, if ``table`` is
        given and none does, every image of every key in it, with the byte of a move onto it."""
        keys, cells = self.keys, self.rules.cells
        # the keys with X to move (an even number of marks: ``cells + 1`` plus their empty cells
        # is odd), then those with O to move
        empties = map(str.count, keys, repeat(EMPTY))
        x_moves = list(map(and_, map(add, empties, repeat(cells + 1)), repeat(1)))
        facts = table is not None
        self.groups = [
            _Group(self, 2, x_moves, facts),
            _Group(self, 1, list(map(xor, x_moves, repeat(1))), facts),
        ]
        unfit: list[int] = []
        for group in self.groups:
            for start, ranked, digits in group.runs(cells, self.run):
                images = self.images.of(ranked)
                group.ranks.extend(images[0])
                bad = self._unfit(_Boards.of(digits, cells), images)
                if bad:
                    unfit.extend(map(group.places.__getitem__, map(start.__add__, bad)))
                if not unfit and table is not None:
                    onto = group.onto[start : start + len(images[0])]
                    for image in images:
                        deque(map(table.__setitem__, image, onto), maxlen=0)
                self.done += len(images[0])
                if tell is not None:
                    tell(self.done)
        return unfit

    def _unfit(self, board: _Boards, images: list[list[int]]) -> list[int]:
        """Step 12 for a run of keys (``board``, whose ranks under every symmetry are
        ``images``): the rows of those with other counts of X and O than a move to make allows,
        finished, or not canonical."""
        count = len(images[0])
        found = _places(board.lead.translate(self.unlike), None)
        found.extend(_places(board.free, 0))  # a full board
        for line in self.rules.lines:
            full = reduce(and_, map(board.lanes.__getitem__, line))  # a lane of 2 (all X) or 1 (all O)
            if full:
                found.extend(_places(full.to_bytes(count), None))
        # an image ranked below its key: each list of ranks as one integer, a lane of at least 32
        # bits a rank, the image's with the lane's top bit set, less the key's: that bit stays
        # where the image is not below
        guards, width = _guards(count), array(_RANKS).itemsize
        keys = int.from_bytes(array(_RANKS, images[0]).tobytes(), sys.byteorder)
        for image in images[1:]:
            ahead = (int.from_bytes(array(_RANKS, image).tobytes(), sys.byteorder) | guards) - keys
            below = (ahead & guards) ^ guards
            if below:
                found.extend(
                    at // width for at in _places(below.to_bytes(width * count, sys.byteorder), None)
                )
        return found

    def _facts(self) -> int | None:
        """Step 13: parse each distinct entry string once, keeping what the proof needs of it;
        the place of the first entry that is not a string of the grammar, or None."""
        values, cells = self.values, self.rules.cells
        strings = values if set(map(type, values)) <= {str} else [v for v in values if type(v) is str]
        distinct = list(dict.fromkeys(strings))  # (in file order: the strings lie in memory so)
        try:
            parsed = list(map(parse_entry, distinct, repeat(cells)))
            texts = distinct
        except EntryShapeError:  # (then find every misshapen one)
            maybe = list(map(_parsed, distinct, repeat(cells)))
            texts = list(compress(distinct, maybe))
            parsed = [found for found in maybe if found is not None]
        bests = list(map(itemgetter(0), parsed))
        tiers = list(map(itemgetter(1), parsed))
        masks = list(map(sum, map(map, repeat(_TierMasks().__getitem__), tiers)))
        onto, best = map(_ONTO.__getitem__, bests), map(_BEST.get, bests, repeat(_LEVEL))
        scores = map(bytes, zip(onto, best, strict=True))
        rows = map(bytes.__add__, scores, map(_TierRows(cells).__getitem__, masks))
        self.facts = dict(zip(texts, rows, strict=True))
        # inconsistent whatever the successors say: a best score beyond every move's, or a cell
        # in two tiers (then the tiers' sum of bits is not their union)
        sizes = map(sum, map(map, repeat(len), tiers))
        self.wrong = {text for text, best in zip(texts, bests, strict=True) if best not in _BEST}
        self.wrong.update(compress(texts, map(ne, map(int.bit_count, masks), sizes)))
        if len(texts) == len(distinct) and len(strings) == len(values):
            return None
        return next(
            place for place, text in enumerate(values) if type(text) is not str or text not in self.facts
        )

    def _moves(
        self, mover: int, board: _Boards, ranks: list[int], bests: bytes, tiers: bytes, table: bytearray
    ) -> tuple[set[int], set[int]]:
        """Steps 14 and 15 for a run of entries with the same side to move (``mover``: its digit),
        their moves looked up in ``table``: ``board`` and ``ranks`` are their keys, ``bests``
        their best scores' bytes, ``tiers`` their tiers' cells (a byte per cell). The rows of
        the run with a successor that is no entry, and of those inconsistent with their
        successors.

        The moves are taken a cell at a time, over the entries on which it is free: their
        successors' bytes in the table (``moves``), each entry's best byte (``against``) and a
        byte of its tiers (``wanted``), cell after cell in the same order; the difference of
        the first two, read as verdicts (``_VERDICT``), must be the third.
        """
        rules, cells, count = self.rules, self.rules.cells, len(ranks)
        ending = bytes.maketrans(bytes((mover,)), bytes((_LEVEL + one_ply_back(after_line(rules)),)))
        last = int.from_bytes(board.free.translate(_one_at(1)))  # one free cell: the move fills the board
        everywhere = _lanes(mover, count)
        frees, scores = [], []
        for cell, column in enumerate(board.columns):
            free = column.translate(_COUNTS[0])
            taken = int.from_bytes(column.translate(_TAKEN))
            after = memoryview(table)[mover * 3 ** (cells - 1 - cell) :]  # a rank + the mark's place
            found = bytes(map(after.__getitem__, compress(ranks, free)))
            after.release()
            wins = 0  # a lane of ``mover`` where the mover's other marks fill a line through cell
            for line in rules.lines_through[cell]:
                wins |= reduce(and_, (board.lanes[other] for other in line if other != cell), everywhere)
            if wins:
                won = (wins | taken).to_bytes(count).translate(ending, _OFF)
                found = (int.from_bytes(found) | int.from_bytes(won)).to_bytes(len(found))
            if last:
                drawn = int.from_bytes(found.translate(_one_at(0))) & int.from_bytes(
                    (last | taken).to_bytes(count).translate(None, _OFF)
                )
                if drawn:  # the board full, no line: a draw
                    found = (int.from_bytes(found) | drawn * _LEVEL).to_bytes(len(found))
            frees.append(free)
            scores.append(found.translate(_UNFOUND))
        moves = b"".join(scores)
        by_cell = b"".join(board.columns)  # every cell's digits, a cell after another
        keep = int.from_bytes(by_cell.translate(_KEEP_FREE))
        marked = b"".join(tiers[cell::cells] for cell in range(cells))  # a cell after another
        against = (int.from_bytes(bests * cells) & keep).to_bytes(len(marked)).translate(None, b"\0")
        level = _lanes(_LEVEL, len(moves))
        seen = (
            (int.from_bytes(moves) - int.from_bytes(against) + level).to_bytes(len(moves)).translate(_VERDICT)
        )
        wanted = (int.from_bytes(marked.translate(_NONZERO)) & keep).to_bytes(len(marked))
        wanted = wanted.translate(_FROM_NONZERO, b"\0")

        # a finding names the first entry in file order: of each kind, the first row a cell shows
        starts = list(accumulate(map(len, scores), initial=0))

        def rows(data: bytes, byte: int | None) -> set[int]:
            """Per cell, the first of the entries whose move onto it ``data`` marks."""
            return {list(compress(range(count), frees[cell]))[at] for cell, at in _firsts(data, byte, starts)}

        gaps = rows(moves, _NO_ENTRY)
        wrong: set[int] = set()
        off_board = int.from_bytes(marked) & ~keep  # a tier on an occupied cell
        if off_board:
            segments = list(range(0, len(marked) + 1, count))  # (a cell's tiers' bytes each)
            wrong.update(at for _, at in _firsts(off_board.to_bytes(len(marked)), None, segments))
        if seen != wanted:
            wrong |= rows((int.from_bytes(seen) ^ int.from_bytes(wanted)).to_bytes(len(moves)), None)
        return gaps, wrong


class _Boards:
    """A run of boards as columns: per cell, its digit on each board (``columns``, a byte a
    board; ``lanes``, the same bytes as an integer), and per board, as a byte, ``cells`` plus
    its X less its O (``lead``), and its free cells (``free``)."""

    __slots__ = ("columns", "free", "lanes", "lead")

    def __init__(self, columns: list[bytes]) -> None:
        count, cells = len(columns[0]) if columns else 0, len(columns)
        self.columns = columns
        self.lanes = [int.from_bytes(column) for column in columns]
        free, seconds, firsts = (
            sum(int.from_bytes(column.translate(table)) for column in columns) for table in _COUNTS
        )
        self.free = free.to_bytes(count)
        self.lead = (firsts + _lanes(cells, count) - seconds).to_bytes(count)

    @classmethod
    def of(cls, digits: bytes, cells: int) -> _Boards:
        """The boards of ``digits`` (rows of ``cells`` digits 0 to 2, each followed by a byte)."""
        return cls([digits[cell :: cells + 1] for cell in range(cells)])


class _Group:
    """The entries with one side to move (``mover``: its digit), in file order: their keys as
    the digits of their ranks (``digits``, in ASCII: each key's row followed by a newline),
    their keys' ranks (filled by the first pass), and per entry the facts of its string
    (``EntryProof._facts``): the byte of a move onto it, its best score's byte and its tiers'
    cells (a byte per cell); their places in the file when a finding asks (``places``)."""

    def __init__(self, proof: EntryProof, mover: int, chosen: list[int], facts: bool) -> None:
        self.mover, self.chosen = mover, chosen
        keys = list(compress(proof.keys, chosen))
        self.count = len(keys)
        self.digits = ("\n".join(keys) + "\n").encode().translate(_TO_RANK) if keys else b""
        self.ranks: list[int] = []
        self.onto = self.bests = self.tiers = b""
        if facts:  # (every string is of the grammar)
            cells, width = proof.rules.cells, proof.rules.cells + 2
            rows = b"".join(map(proof.facts.__getitem__, compress(proof.values, chosen)))
            self.onto, self.bests = rows[0::width], rows[1::width]
            tiers = bytearray(self.count * cells)
            for cell in range(cells):
                tiers[cell::cells] = rows[2 + cell :: width]
            self.tiers = bytes(tiers)

    @cached_property
    def places(self) -> list[int]:
        """Each entry's place in the file."""
        return list(compress(range(len(self.chosen)), self.chosen))

    def runs(self, cells: int, run: int) -> Iterator[tuple[int, bytes, bytes]]:
        """The entries ``run`` at a time: the first's row, and their keys' digits, in ASCII and
        as bytes 0 to 2."""
        width = cells + 1
        for start in range(0, self.count, run):
            ranked = self.digits[start * width : (start + run) * width]
            yield start, ranked, ranked.translate(_FROM_RANK)


def _lanes(byte: int, count: int) -> int:
    """``count`` bytes of ``byte`` as an integer."""
    return int.from_bytes(bytes((byte,)) * count)


#: The array type of a list of ranks (every rank is below 3 ** 16 < 2 ** 26): 32 bits or more.
_RANKS = "I" if array("I").itemsize >= 4 else "L"


@cache
def _guards(count: int) -> int:
    """``count`` lanes as ``array(_RANKS).tobytes()`` lays them out, each with its top bit set."""
    top = 1 << 8 * array(_RANKS).itemsize - 1
    return int.from_bytes(array(_RANKS, [top] * count).tobytes(), sys.byteorder)


class _Images:
    """The ranks of boards' images under every symmetry of ``rules``, for whole runs of boards.

    A rank reads the board's digits in base 3; an image's is the sum, over the board's cells,
    of each digit times the place value of the cell it moves to. So the board is cut in two
    halves of cells, and a table per symmetry and half holds that sum for every way the half's
    cells can be filled (3 ** 8 = 6,561 of them for 16 cells): an image's rank is two look-ups
    and an addition.
    """

    def __init__(self, rules: Rules) -> None:
        cells = rules.cells
        #: the place value of the second half's first cell: a rank's two halves are divmod by it
        self.split = 3 ** (cells - cells // 2)
        self.tables: list[tuple[list[int], list[int]]] = []
        for symmetry in rules.symmetries[1:]:
            halves = []
            for cells_of_half in (range(cells // 2), range(cells // 2, cells)):
                table = [0]
                for cell in cells_of_half:  # the first cell the most significant digit of the index
                    value = 3 ** (cells - 1 - symmetry.inverse[cell])
                    table = [partial + digit * value for partial in table for digit in range(3)]
                halves.append(table)
            self.tables.append((halves[0], halves[1]))

    def of(self, digits: bytes) -> list[list[int]]:
        """The ranks of the boards of ``digits`` (rows of ``cells`` digits ``0`` to ``2``, each
        followed by a newline) and of their images, a list per symmetry in ``rules.symmetries``
        order (the identity's first)."""
        rows = digits.split(b"\n")
        rows.pop()  # (after the last newline)
        ranks = list(map(int, rows, repeat(3)))
        firsts = list(map(floordiv, ranks, repeat(self.split)))
        seconds = list(map(mod, ranks, repeat(self.split)))
        images = [ranks]
        for first, second in self.tables:
            images.append(list(map(add, map(first.__getitem__, firsts), map(second.__getitem__, seconds))))
        return images


_images = lru_cache(maxsize=4)(_Images)  # (made once for every layer of a book by parts)
_ANY_BYTE = re.compile(rb"[^\x00]")


def _firsts(data: bytes, byte: int | None, starts: list[int]) -> Iterator[tuple[int, int]]:
    """Per segment ``data[starts[i] : starts[i + 1]]``, where it first holds ``byte`` (None: any
    byte but 0): ``(i, offset in the segment)``; nothing for a segment that does not."""
    for segment, (start, stop) in enumerate(pairwise(starts)):
        if byte is None:
            match = _ANY_BYTE.search(data, start, stop)
            at = -1 if match is None else match.start()
        else:
            at = data.find(byte, start, stop)
        if at >= 0:
            yield segment, at - start


def _places(data: bytes, byte: int | None) -> list[int]:
    """Where ``data`` holds ``byte`` (None: any byte but 0)."""
    if byte is None:
        return [match.start() for match in re.finditer(rb"[^\x00]", data)]
    found, at = [], data.find(byte)
    while at >= 0:
        found.append(at)
        at = data.find(byte, at + 1)
    return found


class _TierMasks(dict[tuple[Cell, ...], int]):
    """A tier's cells as bits, each tier's once."""

    def __missing__(self, tier: tuple[Cell, ...]) -> int:
        mask = self[tier] = sum(1 << cell for cell in tier)
        return mask


class _TierRows(dict[int, bytes]):
    """A set of cells (as bits) as a byte per cell of the board, 1 on each of them."""

    def __init__(self, cells: int) -> None:
        super().__init__()
        self.cells = cells

    def __missing__(self, mask: int) -> bytes:
        row = self[mask] = bytes(mask >> cell & 1 for cell in range(self.cells))
        return row


def _parsed(text: str, cells: int) -> tuple[int, Tiers] | None:
    """``parse_entry(text, cells)``, or None if ``text`` is not of the grammar."""
    try:
        return parse_entry(text, cells)
    except EntryShapeError:
        return None
