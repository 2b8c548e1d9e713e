"""Grade a tic-tac-toe program against the book (``ttt-book audit``).

The contract: the program reads one board per line (the book's notation, X moved first, the
side to move given by the counts) and writes one line holding the cell it plays, 0-based in
reading order. A Python callable ``f(board) -> cell`` is audited the same way, in-process.

The audit asks the program about every distinct position it can reach playing either side
against *every* line of opposing play, each once (``repeat`` times with ``repeat``), then judges
the answers with the book alone:

* a *loss*: a line of play, replayable from the empty board, that the program loses;
* a *missed win*: a winning move was there and it played one that does not win;
* a *slower win*: it played a winning move, but not a fastest one;
* a *mistake*: a drawn position it turned into a lost one (each loss goes through one);
* *failures*: an illegal cell, an unreadable answer, a time-out, a crash. A failure forfeits
  the game: the program lost it, and it counts as a loss in the rates.

What the program printed (an unreadable answer, the last line of a crash's standard error) is
kept with its control characters escaped (:func:`escaped`), so it cannot draw on the terminal.

The rates against the random and novice opponents and the book's own player (its top trap tier,
uniformly) are exact fractions from enumerating every line, which needs the program to answer
the same way each time it is asked about a position. With ``repeat`` > 1, a position whose
answers differ is reported (``varies``) and every distinct answer is followed when looking for
losses; the rates then weight each answer by how often it came, and are marked estimated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tictactoe_book.game import EMPTY, FIRST, SECOND, Cell, Policy, Position, other, side_to_move
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.play import level_policy
from tictactoe_book.rates import BestResponse, PlayOut
from tictactoe_book.reader import Book
from tictactoe_generator.reports import MAX_CELLS
from tictactoe_generator.reports.program import Answer, Failure, Program, escaped

#: The book's own player (its top trap tier, uniformly), the audit's last opponent.
BOOK = "book"


@dataclass
class Report:
    """What the audit found; cells 0-based, lines of play from the empty board (X first)."""

    asked: int = 0
    repeat: int = 1
    #: the board's cells (numbered 0 to cells - 1 in reading order)
    cells: int = 9
    losses: list[dict[str, Any]] = field(default_factory=list)
    missed_wins: list[dict[str, Any]] = field(default_factory=list)
    slower_wins: list[dict[str, Any]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    varies: list[dict[str, Any]] = field(default_factory=list)
    rates: dict[str, dict[str, dict[str, Fraction]]] = field(default_factory=dict)
    #: "as X"/"as O" -> the chance the program loses to the never-losing player that beats it
    #: most often (``tictactoe_book.rates.BestResponse``): how exploitable it is
    exploitable: dict[str, Fraction] = field(default_factory=dict)

    @property
    def can_lose(self) -> bool:
        return bool(self.losses or self.failures)

    @property
    def exact(self) -> bool:
        return not self.varies

    def as_json(self) -> dict[str, Any]:
        return {
            "cells_from": 0,
            "asked": self.asked,
            "repeat": self.repeat,
            "can_lose": self.can_lose,
            "rates_exact": self.exact,
            "losses": self.losses,
            "missed_wins": self.missed_wins,
            "slower_wins": self.slower_wins,
            "mistakes": self.mistakes,
            "failures": self.failures,
            "varies": self.varies,
            "rates": {
                opponent: {side: {k: str(v) for k, v in rates.items()} for side, rates in sides.items()}
                for opponent, sides in self.rates.items()
            },
            "exploitable": {side: str(chance) for side, chance in self.exploitable.items()},
        }


def audit(program: Program, book: Book, *, repeat: int = 1) -> Report:
    """Ask ``program`` about every position it can reach on either side, then judge it: a board
    of at most MAX_CELLS cells (ValueError beyond, before the program is asked anything)."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    if book.rules.cells > MAX_CELLS:
        raise ValueError(f"the audit judges boards of at most {MAX_CELLS} cells, not {book.rules}")
    answers: dict[str, list[Answer]] = {}
    lines: dict[str, list[Cell]] = {}  # a line of play reaching each position asked

    def walk(position: Position, mark: str, moves: list[Cell]) -> None:
        board = position.board
        if position.turn == mark:
            if board not in answers:
                lines[board] = moves
                answers[board] = [program.ask(board) for _ in range(repeat)]
            follow: Sequence[Cell] = sorted({a for a in answers[board] if not isinstance(a, Failure)})
        else:
            follow = position.legal_moves()
        for cell in follow:
            after = position.play(cell)
            if not after.is_over:
                walk(after, mark, [*moves, cell])

    try:
        for mark in (FIRST, SECOND):
            walk(Position.empty(book.rules), mark, [])
    except BaseException:
        program.close(at_once=True)  # stopped or failed: the program is not waited for
        raise
    program.close()
    report = Report(asked=len(answers), repeat=repeat, cells=book.rules.cells)
    judge(report, book, answers, lines)
    for mark in (FIRST, SECOND):
        report.losses.extend(losing_lines(book, answers, mark))
    report.rates = all_rates(book, answers)
    report.exploitable = exploitable(book, answers)
    return report


def judge(report: Report, book: Book, answers: dict[str, list[Answer]], lines: dict[str, list[Cell]]) -> None:
    """The findings position by position, in the order the positions were asked."""
    for board, given in answers.items():
        where = {"board": board, "line": lines[board], "turn": side_to_move(board)}
        counts = Counter(str(a.kind + ":" + a.text) if isinstance(a, Failure) else a for a in given)
        if len(counts) > 1:
            report.varies.append(
                {**where, "answers": {str(k): n for k, n in sorted(counts.items(), key=str)}}
            )
        evaluation = book.evaluate(board)
        seen_failures = set()
        for answer in dict.fromkeys(given):
            if isinstance(answer, Failure):
                if answer not in seen_failures:
                    seen_failures.add(answer)
                    report.failures.append({**where, "kind": answer.kind, "answer": answer.text})
                continue
            value, plies = evaluation.outcome(answer)
            found = {**where, "played": answer, "outcome": [value, plies]}
            if evaluation.value == 1 and value != 1:
                best = [c for c in evaluation.scores if evaluation.outcome(c)[0] == 1]
                report.missed_wins.append({**found, "wins": best})
            elif evaluation.value == 1 and plies > evaluation.plies:
                report.slower_wins.append(
                    {**found, "fastest": list(evaluation.optimal), "plies": evaluation.plies}
                )
            elif evaluation.value == 0 and value == -1:
                report.mistakes.append({**found, "draws": list(evaluation.optimal)})


def losing_lines(book: Book, answers: dict[str, list[Answer]], mark: str) -> list[dict[str, Any]]:
    """Every line of play the program, playing ``mark``, loses to the other side's last move."""
    found: list[dict[str, Any]] = []

    def walk(position: Position, moves: list[Cell]) -> None:
        ended = position.outcome()
        if ended is not None:
            if ended.winner not in (mark, None):
                found.append({"as": mark, "moves": moves, "board": position.board})
            return
        follow = (
            sorted({a for a in answers[position.board] if not isinstance(a, Failure)})
            if position.turn == mark
            else position.legal_moves()
        )
        for cell in follow:
            walk(position.play(cell), [*moves, cell])

    walk(Position.empty(book.rules), [])
    return found


def all_rates(book: Book, answers: dict[str, list[Answer]]) -> dict[str, dict[str, dict[str, Fraction]]]:
    """opponent -> "as X"/"as O" -> win/draw/loss of the program, exact (``tictactoe_book.rates.PlayOut``,
    each of its answers to a position weighted by how often it came); a failure forfeits."""
    rules = book.rules
    opponents: dict[str, Policy] = {name: foe.policy(rules) for name, foe in OPPONENTS.items()}
    opponents[BOOK] = level_policy(book, "perfect")

    def program(board: str) -> list[Cell | None]:
        return [None if isinstance(answer, Failure) else answer for answer in answers[board]]

    most = max(len(given) for given in answers.values()) if answers else 1
    start = EMPTY * rules.cells
    found: dict[str, dict[str, dict[str, Fraction]]] = {}
    for name, reply in opponents.items():
        for mark in (FIRST, SECOND):
            outcome = PlayOut(rules, {mark: program, other(mark): reply}, most=most).results(start, mark)
            found.setdefault(name, {})[f"as {mark}"] = {
                "win": outcome.win,
                "draw": outcome.draw,
                "loss": outcome.loss,
            }
    return found


def exploitable(book: Book, answers: dict[str, list[Answer]]) -> dict[str, Fraction]:
    """ "as X"/"as O" -> the chance the program loses to the best never-losing player: the one
    that plays only the book's optimal moves and, among them, those that beat the program most
    often (each of its answers weighted by how often it came; a failure forfeits)."""
    rules = book.rules

    def program(board: str) -> list[Cell | None]:
        return [None if isinstance(answer, Failure) else answer for answer in answers[board]]

    most = max(len(given) for given in answers.values()) if answers else 1
    start = EMPTY * rules.cells
    return {
        f"as {mark}": BestResponse(
            rules, lambda board: book.evaluate(board).optimal, program, other(mark), most=most
        ).win(start)
        for mark in (FIRST, SECOND)
    }


def render(report: Report, program: str, *, max_lines: int = 50) -> str:
    """The readable report: cells from 0 in reading order, as the contract numbers them."""

    def line(moves: list[Cell]) -> str:
        return " ".join(map(str, moves)) or "(empty board)"

    verdict = (
        f"CAN LOSE: {len(report.losses)} losing lines, {len(report.failures)} failures"
        if report.can_lose
        else "NEVER LOSES"
    )
    out = [
        f"audit of {escaped(program)}",
        f"asked {report.asked} distinct positions"
        + (f", each {report.repeat} times" if report.repeat > 1 else ", each once"),
        f"verdict: {verdict}",
        f"cells are 0-{report.cells - 1} in reading order; a line is the moves from the empty board, X first",
    ]

    def section(title: str, items: list[dict[str, Any]], show: Callable[[dict[str, Any]], str]) -> None:
        out.append("")
        out.append(f"{title}: {len(items)}")
        out.extend(f"  {show(item)}" for item in items[:max_lines])
        if len(items) > max_lines:
            out.append(f"  ... and {len(items) - max_lines} more (--json lists every one)")

    section("losses", report.losses, lambda x: f"as {x['as']}: {line(x['moves'])}  -> {x['board']}")
    section(
        "missed wins",
        report.missed_wins,
        lambda x: (
            f"{x['board']} {x['turn']} to move (line {line(x['line'])}): played {x['played']}, "
            f"wins: {' '.join(map(str, x['wins']))}"
        ),
    )
    section(
        "slower wins",
        report.slower_wins,
        lambda x: (
            f"{x['board']} {x['turn']} to move: played {x['played']} (win in {x['outcome'][1]}), "
            f"fastest {' '.join(map(str, x['fastest']))} (win in {x['plies']})"
        ),
    )
    section(
        "mistakes (a draw thrown away)",
        report.mistakes,
        lambda x: (
            f"{x['board']} {x['turn']} to move (line {line(x['line'])}): played {x['played']} "
            f"(loss in {x['outcome'][1]}), draws: {' '.join(map(str, x['draws']))}"
        ),
    )
    section(
        "failures (each forfeits the game)",
        report.failures,
        lambda x: f"{x['kind']}: {x['board']} {x['turn']} to move (line {line(x['line'])}): {x['answer']}",
    )
    if report.repeat > 1:
        section("positions answered differently", report.varies, lambda x: f"{x['board']}: {x['answers']}")
    out.append("")
    out.append(
        "rates (win / draw / loss of the program, "
        + ("exact, by enumerating every line" if report.exact else "estimated: its answers varied")
        + "):"
    )
    for opponent, sides in report.rates.items():
        for side, r in sides.items():
            cells = " / ".join(f"{float(r[k]) * 100:6.2f}%" for k in ("win", "draw", "loss"))
            fractions = " / ".join(str(r[k]) for k in ("win", "draw", "loss"))
            out.append(f"  vs {opponent:<6} {side}: {cells}   ({fractions})")
    out.append("")
    out.append("exploitable: how often the best never-losing player beats it (the book it would face,")
    out.append("ranked against it: ttt-book build --against-program):")
    for side, chance in report.exploitable.items():
        out.append(f"  {side}: loses {float(chance) * 100:6.2f}%   ({chance})")
    return "\n".join(out)
