"""The persistent engine: JSON Lines requests in, one JSON line out for each (``ttt-play --engine``).

A pure request -> response layer over the public API (``Book.evaluate``, ``choose_move``); the
protocol, its error codes and a transcript are in docs/engine.md. Cells are numbered from 0 in
reading order, as in the book file. One request is one JSON object on one line::

    {"op": "evaluate", "board": "X...O...."}
    {"op": "choose", "board": "X...O....", "level": "hard", "seed": 7}
    {"op": "rules"}

Every answer carries ``"ok"``; an ``"id"`` given in the request (any JSON value) is echoed. A bad
request gets an error object, ``{"ok": false, "error": {"code": ..., "message": ...}}``, and the
engine goes on serving: nothing a client sends ends it except the end of its input.
"""

from __future__ import annotations

import functools
import json
import math
from typing import TYPE_CHECKING, Any

from tictactoe_book.book import Book, Evaluation
from tictactoe_book.book_format import lone_surrogate
from tictactoe_book.errors import BoardError, RequestError, echoed
from tictactoe_book.game import FIRST, check_mark
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.play import LEVELS, MAX_SEED, Rng, choose_move, random_seed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from tictactoe_book.play import RandomSource

#: The protocol's version, in the ``rules`` answer; within a version it grows only by new
#: members and ops. Version 2: a seed is mulberry32's 32-bit state (``tictactoe_book.play.Rng``),
#: the same games as every other language, and a seeded ``choose`` answers ``next_seed``;
#: version 1's seeds (0 to 2**64 - 1) seeded Python's Mersenne Twister.
PROTOCOL = 2
OPS = ("evaluate", "choose", "rules")
#: Characters of one request line; a longer line is one ``too-long`` error (the rest is dropped).
MAX_LINE = 4096
#: The most evaluations the engine keeps to answer a board asked again (a few KB each): its
#: memory stays bounded however many distinct boards a long session asks (docs/engine.md).
EVALUATIONS = 4096


class Engine:
    """Answers requests from one book. ``rng`` serves ``choose`` requests without a seed (a
    generator of the system's seeding unless given).

    A ``choose`` request may name the opponent the perfect level plays to beat (``against``,
    one of ``tictactoe_book.opponents.OPPONENTS``): ``book``'s own ranking (``Book.against``, which the
    ``rules`` answer states) when it is left out; another one is ``books(against)``, loaded
    when first asked for (the packaged book ranked against it), or refused without ``books``.
    """

    def __init__(
        self, book: Book, *, rng: RandomSource | None = None, books: Callable[[str], Book] | None = None
    ) -> None:
        self.book = book
        self.rng = Rng(random_seed()) if rng is None else rng
        self._books = {book.against: book}
        self._load = books
        self._rules_answer = {
            "protocol": PROTOCOL,
            **book.rules.as_json(),
            "cells": book.rules.cells,
            "cells_from": 0,
            "entries": len(book),
            "levels": list(LEVELS),
            "ops": list(OPS),
            "against": book.against,
        }
        # the answers to the boards asked most lately, never more than EVALUATIONS of them
        self._evaluation = functools.lru_cache(maxsize=EVALUATIONS)(self._evaluation_answer)

    def handle(self, request: object) -> dict[str, Any]:
        """The answer to one parsed request (a dict from a JSON object), never raising for a bad one."""
        ident = request.get("id") if isinstance(request, dict) else None
        try:
            answer = self._answer(request)
        except RequestError as error:
            answer = {"ok": False, "error": {"code": error.code, "message": str(error), **error.detail}}
        if ident is not None:
            answer["id"] = ident
        return answer

    def handle_line(self, line: str) -> str:
        """The answer to one request line, as one line of JSON (without its newline)."""
        if len(line) > MAX_LINE:
            request: object = None
            answer = error_answer("too-long", f"a request line has at most {MAX_LINE} characters")
        else:
            try:
                request = json.loads(line, parse_constant=_not_json, parse_float=_finite)
            except (ValueError, RecursionError) as error:
                answer = error_answer("json", f"not a JSON value: {error}")
            else:
                # it would be echoed, and strict JSON has none; only a \u escape or a character
                # beyond ASCII in the line can make one, so plain lines skip the walk
                maybe = "\\u" in line or not line.isascii()
                surrogate = lone_surrogate(request) if maybe else None
                if surrogate is None:
                    answer = self.handle(request)
                else:
                    answer = error_answer("json", f"not strict JSON: {surrogate}")
        # strict JSON (RFC 8259) whatever came in: no NaN or Infinity can reach an answer
        return json.dumps(answer, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    def _answer(self, request: object) -> dict[str, Any]:
        if not isinstance(request, dict):
            raise RequestError("request", f"a request is a JSON object, got {json_type(request)}")
        op = request.get("op")
        if op == "evaluate":
            board, first = self._position(request)
            return {"ok": True, **self._evaluation(board, first)}
        if op == "choose":
            board, first = self._position(request)
            level = request.get("level", "perfect")
            if level not in LEVELS:
                raise RequestError("level", f"level {_shown(level)} is not one of {', '.join(LEVELS)}")
            seed = request.get("seed")
            try:
                seeded = None if seed is None else Rng(seed)
            except (TypeError, ValueError):
                raise RequestError(
                    "seed", f"seed {_shown(seed)} is not a whole number from 0 to {MAX_SEED}"
                ) from None
            book = self._book_against(request["against"]) if "against" in request else self.book
            cell = choose_move(book, board, level, first=first, rng=self.rng if seeded is None else seeded)
            if seeded is None:
                return {"ok": True, "cell": cell}
            # the generator's state after the choice: the next choose's seed, to go on drawing
            return {"ok": True, "cell": cell, "next_seed": seeded.state}
        if op == "rules":
            return {"ok": True, **self._rules_answer}
        if "op" not in request:
            raise RequestError("op", f"a request needs an op, one of {', '.join(OPS)}")
        raise RequestError("op", f"op {_shown(op)} is not one of {', '.join(OPS)}")

    def _book_against(self, against: object) -> Book:
        """The book ranked against ``against``, a name of ``OPPONENTS`` (a book ranked against
        a program is played by leaving ``against`` out, not by naming it)."""
        if not isinstance(against, str) or against not in OPPONENTS:
            raise RequestError("against", f"against {_shown(against)} is not one of {', '.join(OPPONENTS)}")
        found = self._books.get(against)
        if found is not None:
            return found
        if self._load is None:
            raise RequestError(
                "against", f"this engine's book ranks its moves against {self.book.against}, not {against}"
            )
        found = self._books[against] = self._load(against)
        return found

    def _position(self, request: dict[str, Any]) -> tuple[str, str]:
        board = request.get("board")
        if not isinstance(board, str):
            raise RequestError("board", f"board must be a string, got {json_type(board)}", reason="character")
        first = request.get("first", FIRST)
        try:
            check_mark(first, "first")
        except ValueError:
            raise RequestError("first", f'first must be "X" or "O", got {_shown(first)}') from None
        try:
            self.book.evaluate(board, first=first)  # checks the board, and warms its cache
        except BoardError as error:
            raise RequestError("board", str(error), reason=error.code) from None
        return board, first

    def _evaluation_answer(self, board: str, first: str) -> dict[str, Any]:
        return evaluation_answer(self.book.evaluate(board, first=first))


def evaluation_answer(evaluation: Evaluation) -> dict[str, Any]:
    """The members of an ``evaluate`` answer (docs/engine.md)."""
    return {
        "board": evaluation.board,
        "first": evaluation.first,
        "turn": evaluation.turn,
        "value": evaluation.value,
        "plies": evaluation.plies,
        "scores": {str(cell): score for cell, score in evaluation.scores.items()},
        "outcomes": {str(cell): list(evaluation.outcome(cell)) for cell in evaluation.scores},
        "optimal": list(evaluation.optimal),
        "tiers": [list(tier) for tier in evaluation.tiers],
    }


def _not_json(text: str) -> Any:
    """``NaN``, ``Infinity``, ``-Infinity``: Python's json reads them, RFC 8259 has no such value."""
    raise ValueError(f"{text} is not a JSON value")


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused when no float holds it (``1e400``)."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number {echoed(text, str)} is beyond what a double holds")
    return number


def error_answer(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def _shown(value: object) -> str:
    """A request's value in a message as the client wrote it: JSON (``null``, ``"x"``), not
    Python's ``None`` or ``'x'``, cut as every echoed value is (``tictactoe_book.errors.echoed``)."""
    return echoed(value, lambda parsed: json.dumps(parsed, ensure_ascii=False))


def json_type(value: object) -> str:
    """The JSON name of a parsed value's type, for messages."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def serve(engine: Engine, lines: Iterable[str], write: Callable[[str], None]) -> int:
    """Answer each request line of ``lines`` with ``write(answer)``; blank lines are skipped.
    Returns how many requests were answered."""
    answered = 0
    for line in lines:
        if line.strip():
            write(engine.handle_line(line.rstrip("\r\n")))
            answered += 1
    return answered
