"""Every book answer agrees with the independent minimax oracle, on every reachable unfinished
position in all 8 orientations: value, plies, every move's score, and the optimal set."""

from __future__ import annotations

from collections.abc import Callable

from oracles import oracle

from tictactoe_book import Book


def test_every_position_in_every_orientation(
    book: Book, cached_oracle: Callable[[str], oracle.Result], reachable: tuple[set[str], set[str]]
) -> None:
    unfinished, _ = reachable
    assert len(unfinished) == 4520
    checked = 0
    for position in sorted(unfinished):
        for board in oracle.orientations(position):
            answer = book.evaluate(board)
            expected = cached_oracle(board)
            assert (answer.value, answer.plies) == expected, board
            moves = oracle.move_results(board, cached_oracle)
            assert {c: answer.outcome(c) for c in answer.scores} == moves, board
            best = max(moves.values(), key=oracle.rank)
            assert set(answer.optimal) == {c for c, r in moves.items() if r == best}, board
            checked += 1
    assert checked == 4520 * 8


def test_oracle_knows_the_classic_positions(cached_oracle: Callable[[str], oracle.Result]) -> None:
    # X X .
    # O O .      X to move wins at once at cell 2
    # . . .
    assert cached_oracle("XX.OO....") == (1, 1)
    # X O .
    # . . .      X to move wins in 5 plies: centre, then a fork after O blocks at 8
    # . . .
    assert cached_oracle("XO.......") == (1, 5)
    assert cached_oracle(".........") == (0, 9)
