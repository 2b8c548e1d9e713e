"""A book ranked to beat one program (``ttt-book build --against-program``).

The program is run as the audit runs it (generator/tictactoe_generator/reports/program.py). The book of the
rules
is solved as usual; then, for each side, ``tictactoe_book.rates.BestResponse`` finds the never-losing
player (the book's optimal moves only) that wins most often against the program, asking the
program about each position that player can meet, ``repeat`` times. Each position the best
response reaches gets one move in its entry's top tier: one of its best moves, the first in
the book's own trap order; the other optimal moves follow in that order. The rest of the book
is the novice-ranked book, byte for byte.

The program is asked about the empty board first (as it plays X): if it gives no move there
(a time-out, an unreadable or illegal answer; ending at once is ``ProgramWontRun`` already), it
will not run, and nothing is built. A failure at a later position forfeits the game there, as
in the audit: the best response counts it as a win, and the report says how many positions
failed, of which kind, and the first.

A program that always answers a position the same way meets the best response along one line
per side, so every position it reaches has its own entry and the book wins exactly as often as
the best response. A program whose answers vary (``repeat`` > 1 shows it) is taken as picking
uniformly among the answers it gave, each counted as often as it came; the best response to
that can reach two positions equal under a symmetry that want different moves, and an entry
holds one: the later keeps the earlier's move (still optimal, so still never losing) and the
book's rate is worked out as it plays (``reached``) beside the best response's (``best``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tictactoe_book.errors import ProgramWontRun
from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Position, Rules, other, side_to_move
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.play import level_policy
from tictactoe_book.rates import BestResponse, PlayOut
from tictactoe_book.reader import Book, entry_text, parse_book, parse_entry
from tictactoe_generator.reports import MAX_CELLS
from tictactoe_generator.reports.program import (
    FAILURES,
    Answer,
    Failure,
    Program,
    escaped,
    shown_command,
)
from tictactoe_generator.writer import build_book, encode, rate_text

#: The sides, as the book's ``trap_rates`` names them.
SIDES = {FIRST: "first", SECOND: "second"}


@dataclass(frozen=True)
class Targeted:
    """The book ranked against a program, and what it found (marks: the book's side)."""

    document: dict[str, Any]
    rules: Rules
    #: the command, as the book names it
    program: str
    #: distinct positions the program was asked about, and how many answered differently
    asked: int
    varies: int
    #: per mark: the chance the best never-losing player wins, and the chance the book does
    best: dict[str, Fraction]
    reached: dict[str, Fraction]
    #: positions whose best moves their entry could not hold (answers that vary only)
    conflicts: int
    #: per kind of failure (program.FAILURES), the positions where the program failed so at
    #: least once; and the first such position with its failure
    failures: dict[str, int]
    first_failure: tuple[str, Failure] | None


def target_program(program: Program, rules: Rules, name: str, *, repeat: int = 1) -> Targeted:
    """The book of ``rules`` ranked to beat ``program`` (``name`` says which, in the book)."""
    base = build_book(rules)
    book = parse_book(encode(base), f"the {rules} book")
    answers: dict[str, list[Answer]] = {}

    def opponent(board: str) -> list[Cell | None]:
        if board not in answers:
            answers[board] = [program.ask(board) for _ in range(repeat)]
        return [None if isinstance(answer, Failure) else answer for answer in answers[board]]

    empty = EMPTY * rules.cells
    try:
        _answers_its_first_board(answers, opponent, empty, name)
        responses = {
            mark: BestResponse(rules, lambda b: book.evaluate(b).optimal, opponent, mark, most=repeat)
            for mark in (SECOND, FIRST)  # the program as X first: its first board is the empty one
        }
        best = {mark: response.win(empty) for mark, response in responses.items()}
    except BaseException:
        program.close(at_once=True)  # stopped or failed: the program is not waited for
        raise
    program.close()
    moves: dict[str, Cell] = {}  # canonical key -> the cell of its top tier, in the key's orientation
    conflicts = sum(_choose(book, response, opponent, moves) for response in responses.values())
    entries = dict(base["entries"])
    for key, cell in moves.items():
        entries[key] = with_top(entries[key], cell, rules.cells)
    document = {
        **base,
        "entries": entries,
        "trap_order": {"against": "program", "program": name, "method": "exact", "tolerance": "0"},
    }
    targeted = parse_book(encode(document), f"the {rules} book ranked against {name}")
    reached = {mark: _rate(targeted, opponent, mark, most=repeat) for mark in (FIRST, SECOND)}
    document["trap_rates"] = {
        side: {**rates, "program": rate_text(reached[mark])}
        for (mark, side), rates in zip(SIDES.items(), reference_rates(targeted).values(), strict=True)
    }
    varies = sum(1 for given in answers.values() if len(set(given)) > 1)
    failed: list[tuple[str, Failure]] = []  # in the order the positions were asked
    for board, given in answers.items():
        failure = next((answer for answer in given if isinstance(answer, Failure)), None)
        if failure is not None:
            failed.append((board, failure))
    kinds = Counter(failure.kind for _, failure in failed)
    return Targeted(
        document,
        rules,
        name,
        len(answers),
        varies,
        best,
        reached,
        conflicts,
        {kind: kinds[kind] for kind in FAILURES if kinds[kind]},
        failed[0] if failed else None,
    )


def _answers_its_first_board(answers: dict[str, list[Answer]], opponent: Any, empty: str, name: str) -> None:
    """Ask the program about the empty board; ProgramWontRun if it gave no move there at all."""
    opponent(empty)
    given = answers[empty]
    if all(isinstance(answer, Failure) for answer in given):
        failure = given[0]
        assert isinstance(failure, Failure)
        raise ProgramWontRun(
            f"{shown_command(name)} gave no move for its first board, {empty}: {_failure_words(failure)}"
        )


def _failure_words(failure: Failure) -> str:
    """A failure for people: its kind and what came (already escaped)."""
    if failure.kind == "timeout":
        return failure.text
    if failure.kind == "crash":
        return f"it {failure.text}"
    return f"{'an unreadable' if failure.kind == 'unreadable' else 'an illegal'} answer, {failure.text}"


def with_top(text: str, cell: Cell, cells: int) -> str:
    """The entry string ``text`` with ``cell`` alone in its top tier and its other tiers as they
    were, without it: how a book ranked against a program changes an entry of the book ranked
    against the novice."""
    score, tiers = parse_entry(text, cells)
    rest = [[c for c in tier if c != cell] for tier in tiers]
    return entry_text(score, [[cell], *(tier for tier in rest if tier)])


def reference_rates(book: Book) -> dict[str, dict[str, str]]:
    """The chances that the top tier of ``book`` wins against the novice and the random player,
    per side, as ``trap_rates`` writes them."""
    rules = book.rules
    return {
        side: {name: rate_text(_rate(book, foe.policy(rules), mark)) for name, foe in OPPONENTS.items()}
        for mark, side in SIDES.items()
    }


def differences(book: Book, raw: bytes, base: dict[str, Any]) -> list[str]:
    """What a valid ``book`` (its bytes ``raw``) ranked against a program gets wrong beyond
    validity, as ``ttt-book verify`` checks it against ``base``, the novice-ranked build of its
    rules: each entry as the base's, or the base's with one move alone on top (``with_top``);
    ``counts`` and symmetry names as built; ``trap_order`` as written here; ``trap_rates`` against
    the novice and random as its top tier plays (the program's rate cannot be checked); the
    bytes as written."""
    data = book.data
    found: list[str] = []
    for key, wanted in sorted(base["entries"].items()):
        text = data["entries"][key]
        top = parse_entry(text, book.rules.cells)[1][0]
        if text != wanted and (len(top) != 1 or text != with_top(wanted, top[0], book.rules.cells)):
            found.append(f"entry {key!r} {text!r} is not {wanted!r}, nor it with one move moved to the top")
    if data.get("counts") != base["counts"]:
        found.append("counts are not those of a fresh build")
    if [item.get("name") for item in data["symmetries"]] != [item["name"] for item in base["symmetries"]]:
        found.append("symmetry names are not the usual ones")
    order = data.get("trap_order")
    members = {"against", "program", "method", "tolerance"}
    if not (
        isinstance(order, dict)
        and order.keys() == members
        and isinstance(order["program"], str)
        and (order["method"], order["tolerance"]) == ("exact", "0")
    ):
        found.append("trap_order is not {against, program, method: exact, tolerance: 0}")
    rates = data.get("trap_rates")
    if book.rules.cells <= MAX_CELLS:
        expected = reference_rates(book)
        for side, wanted_rates in expected.items():
            stated = rates.get(side) if isinstance(rates, dict) else None
            got = {name: stated.get(name) for name in wanted_rates} if isinstance(stated, dict) else None
            if got != wanted_rates:
                found.append(f"trap_rates {side} states {got}, its top tier wins {wanted_rates}")
    if not found and encode(data) != raw:
        found.append("the bytes are not exactly what `ttt-book build --against-program` writes")
    return found


def render(targeted: Targeted, repeat: int = 1) -> str:
    """What was built, for people: the rules, the program, and how often the book beats it."""
    lines = [
        f"{targeted.rules}, ranked against the program {escaped(targeted.program)} (asked about "
        f"{targeted.asked:,} positions" + (f", {repeat} times each)" if repeat > 1 else ")")
    ]
    for mark, side in SIDES.items():
        reached, best = targeted.reached[mark], targeted.best[mark]
        limit = (
            "the most a never-losing player can" if reached == best else f"the best reply: {rate_text(best)}"
        )
        lines.append(
            f"moving {side}, the book wins {float(reached) * 100:.2f}% of its games against it "
            f"({rate_text(reached)}, {limit})"
        )
    if targeted.first_failure is not None:
        board, failure = targeted.first_failure
        kinds = ", ".join(_count(count, *KIND_WORDS[kind]) for kind, count in targeted.failures.items())
        lines.append(
            f"it failed at {_count(sum(targeted.failures.values()), 'position', 'positions')} ({kinds}), "
            f"each a forfeit the book counts as a win; the first: {board} {side_to_move(board)} to move, "
            f"{_failure_words(failure)}"
        )
    if targeted.varies:
        conflicts = f"; {targeted.conflicts:,} positions share an entry with one that wants another move"
        lines.append(
            f"its answers varied at {targeted.varies:,} positions: the rates take each answer as often "
            "as it came" + (conflicts if targeted.conflicts else "")
        )
    return "\n".join(lines)


#: How the report counts each kind of failure (program.FAILURES).
KIND_WORDS = {
    "illegal": ("illegal", "illegal"),
    "unreadable": ("unreadable", "unreadable"),
    "timeout": ("time-out", "time-outs"),
    "crash": ("crash", "crashes"),
}


def _count(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _choose(book: Book, response: BestResponse, opponent: Any, moves: dict[str, Cell]) -> int:
    """Give each position the best response reaches one move in ``moves`` (by canonical key),
    following the moves given; how many positions found their key holding a move that is not
    one of their best."""
    conflicts = 0
    seen: set[Position] = set()
    waiting = [Position.empty(book.rules)]
    while waiting:
        position = waiting.pop()
        if position in seen or position.is_over:
            continue
        seen.add(position)
        board = position.board
        if position.turn != response.mark:
            waiting.extend(position.play(c) for c in set(opponent(board)) if c is not None)
            continue
        evaluation = book.evaluate(position)
        perm, inverse = evaluation.symmetry.perm, evaluation.symmetry.inverse
        wanted = {inverse[c] for c in response.choices[board]}
        cell = moves.get(evaluation.key)
        if cell is None:
            in_order = [inverse[c] for tier in evaluation.tiers for c in tier]  # the book's trap order
            cell = moves[evaluation.key] = next(c for c in in_order if c in wanted)
        elif cell not in wanted:
            conflicts += 1
        waiting.append(position.play(perm[cell]))
    return conflicts


def _rate(book: Book, opponent: Any, mark: str, *, most: int = 1) -> Fraction:
    """The chance the perfect level of ``book`` wins as ``mark`` against ``opponent`` (which
    offers at most ``most`` options, or as many as there are cells)."""
    players = {mark: level_policy(book, "perfect"), other(mark): opponent}
    return PlayOut(book.rules, players, most=most).results(EMPTY * book.rules.cells, mark).win
