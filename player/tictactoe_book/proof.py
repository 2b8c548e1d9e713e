"""The proof of a book's entries, as docs/book-format.md defines it ("A valid book", steps 12 to
15): the definition, entry by entry, in the spec's words.

Read it beside ``readEntries``, ``Entries.derive`` and ``inconsistency`` in
clients/js/tictactoe-book.js, which prove the same way:

12. each key is a board with a move to make, in canonical form (``key_problem``);
13. each entry is a string of the grammar (``misshapen``, tictactoe_book.grammar);
14. the empty board is an entry, and every successor that does not finish the game has one
    (``missing``);
15. each entry follows from its successors (``inconsistency``): a move's score is the
    successor's stored best score one ply back (``successors``), the entry's best score is
    the best of them, no cell is in two tiers, and the tiers hold exactly the moves scoring it.

By induction on the number of empty cells, a book whose entries pass is the truth, whoever
wrote it. ``first_failure`` runs the steps over every entry in this order and names the first
entry in file order failing the first step that fails: the definition of a finding.

Proving a big book this way costs about a dozen canonical forms an entry, so a reader proves
with tictactoe_book.proof_engine instead, an accelerator that finds the same first failing
entry over whole runs of entries; then ``explain`` writes that entry's message by the
definition, and raises ProofDisagreement (an internal error, never a quiet default) if the
definition does not find it failing that step. tests/test_proof_definition.py holds the two
to the same findings on every damaged book of the tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tictactoe_book.errors import EntryShapeError
from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Rules,
    canonical,
    end_score,
    line_owners,
    one_ply_back,
    put,
    side_to_move,
)
from tictactoe_book.grammar import misshapen, parse_entry, short

if TYPE_CHECKING:
    pass

#: A move: its cell, the board it makes, that board's canonical key (None if the game ends
#: there), and its score (None if that key is no entry).
Move = tuple[Cell, str, str | None, int | None]

#: The reason codes of steps 12 to 15, in order.
ENTRY_STEPS = ("entry-key", "entry-shape", "missing-entry", "entry-inconsistent")


class ProofDisagreement(RuntimeError):
    """An internal error: the proof's accelerator named an entry that the definition does not
    find failing that step. A bug of this package, whatever the book holds."""


def key_problem(rules: Rules, key: str) -> str | None:
    """Step 12 for one key: what is wrong with it, or None. A key is ``cells`` characters of X,
    O and ``.``, with as many X as O or one more, not finished (no derived line full of one
    mark, a ``.`` left), and its own canonical form (the smallest of its images)."""
    cells = rules.cells
    if len(key) != cells or not set(key) <= {FIRST, SECOND, EMPTY}:
        return f"has entry key {short(key)}, not {cells} cells of X, O and ."
    x, o = key.count(FIRST), key.count(SECOND)
    if x - o not in (0, 1):
        return f"has entry key {key!r} with {x} X and {o} O"
    if x + o == cells or line_owners(rules)(key):
        return f"has entry key {key!r}, a finished board"
    if canonical(rules, key)[0] != key:
        return f"has entry key {key!r}, which is not in canonical form"
    return None


def successors(rules: Rules, texts: dict[str, Any], key: str) -> list[Move]:
    """Each move of the side to move on ``key`` (an entry's key): its cell, the board it makes,
    that board's canonical key if the game goes on (else None), and the move's score: as the
    game ends (a line completed, or the board full), or the best score stored under that key
    one ply back (None if it is no entry). docs/book-format.md, "Move scores"."""
    mover = side_to_move(key)
    found: list[Move] = []
    for cell, mark in enumerate(key):
        if mark == EMPTY:
            board = put(key, cell, mover)
            ends = end_score(rules, board)
            if ends is not None:
                found.append((cell, board, None, ends))
                continue
            successor = canonical(rules, board)[0]
            text = texts.get(successor)
            score = None if text is None else one_ply_back(parse_entry(text, rules.cells)[0])
            found.append((cell, board, successor, score))
    return found


def missing(rules: Rules, texts: dict[str, Any], key: str, moves: list[Move] | None = None) -> str | None:
    """Step 14 for the entry ``key``: which successor has no entry, or None. ``moves``: its
    ``successors``, if the caller has them already."""
    for cell, board, successor, score in successors(rules, texts, key) if moves is None else moves:
        if score is None:
            return f"has no entry {successor!r} for {board!r}, the successor of {key!r} by cell {cell}"
    return None


def inconsistency(
    rules: Rules, texts: dict[str, Any], key: str, moves: list[Move] | None = None
) -> str | None:
    """Step 15 for the entry ``key``, every successor of which has an entry: what is wrong, or
    None if it follows from its successors. ``moves`` as for ``missing``."""
    best, tiers = parse_entry(texts[key], rules.cells)
    moves = successors(rules, texts, key) if moves is None else moves
    scores = {cell: score for cell, _, _, score in moves}
    truth = max(score for score in scores.values() if score is not None)
    optimal = [cell for cell, score in scores.items() if score == truth]
    listed = [cell for tier in tiers for cell in tier]
    # 1. the best score is the best of the moves' scores
    if best != truth:
        return f"entry {key!r}: best score {best}, but its successors make it {truth} (cells {optimal})"
    # 2. no cell in two tiers, and 3. the tiers' cells exactly the moves that score it
    if len(set(listed)) != len(listed) or set(listed) != set(optimal):
        shown = [list(tier) for tier in tiers]
        return f"entry {key!r}: tiers {shown} are not exactly its best moves {optimal}"
    return None


def first_failure(rules: Rules, texts: dict[str, Any]) -> tuple[str, str] | None:
    """Steps 12 to 15 on the entries of a book for ``rules``, entry by entry: the first failing
    step's reason code and message, naming the first entry in file order that fails it; None if
    every entry passes."""
    for key in texts:
        problem = key_problem(rules, key)
        if problem is not None:
            return "entry-key", problem
    for key, text in texts.items():
        problem = misshapen(text, rules.cells)
        if problem is not None:
            return "entry-shape", f"entry {key!r}: {problem}"
    inconsistent = None  # (steps 14 and 15 in one pass: a missing successor comes first)
    for key in texts:
        problem = missing(rules, texts, key)
        if problem is not None:
            return "missing-entry", problem
        if inconsistent is None:
            inconsistent = inconsistency(rules, texts, key)
    if EMPTY * rules.cells not in texts:
        return "missing-entry", _NO_EMPTY_BOARD
    if inconsistent is not None:
        return "entry-inconsistent", inconsistent
    return None


_NO_EMPTY_BOARD = "has no entry for the empty board"


def explain(rules: Rules, texts: dict[str, Any], code: str, key: str | None) -> str:
    """The message of a finding of the accelerator: step ``code`` fails on the entry ``key``
    (None: the book has no entry for the empty board), as the definition says it;
    ProofDisagreement if the definition finds nothing wrong there."""
    problem: str | None
    if key is None:
        problem = _NO_EMPTY_BOARD if code == "missing-entry" and EMPTY * rules.cells not in texts else None
    elif key not in texts or code not in ENTRY_STEPS:
        problem = None
    elif code == "entry-key":
        problem = key_problem(rules, key)
    elif code == "entry-shape":
        problem = misshapen(texts[key], rules.cells)
        problem = None if problem is None else f"entry {key!r}: {problem}"
    else:
        try:
            problem = missing(rules, texts, key)
            if code == "entry-inconsistent":
                problem = None if problem is not None else inconsistency(rules, texts, key)
        except EntryShapeError:  # (a successor's string not of the grammar: step 13's finding)
            problem = None
    if problem is None:
        raise ProofDisagreement(
            f"internal error: the proof's accelerator says step {code!r} fails on entry {key!r}, "
            "and its definition finds nothing wrong there"
        )
    return problem
