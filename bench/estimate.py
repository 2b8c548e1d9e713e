"""Estimate how many positions a board has that this design cannot solve yet (docs/scaling.md).

    .venv/bin/python bench/estimate.py --rules 4x5:4 --rules 5x5:4
    .venv/bin/python bench/estimate.py --rules 4x4:4          # against the exact count: 9,722,011

A board with ``x`` X marks and ``o`` O marks (``x = o`` or ``o + 1``) is reachable exactly when
no line is complete (any order of play reaches it), or only the last mover has complete lines
and one of its cells lies on all of them (the move that ended the game: without it, no line).
Per layer of marks this counts boards with the right numbers of marks exactly
(``C(N, x) * C(N - x, o)``) and estimates the reachable fraction from uniform samples, with a
95% interval from the binomial spread. Up to symmetry: reachable / |symmetries| (nearly every
position of a large board has no symmetry; on 4x4 the quotient is 0.25% low).
"""

from __future__ import annotations

import math

import click
import numpy as np
import numpy.typing as npt

# the board tables' own builders: Rules itself refuses boards over 16 cells
from tictactoe_book.game import _symmetries, _winning_lines


def reachable_fraction(
    cells: int, lines: tuple[tuple[int, ...], ...], marks: int, samples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """The reachable share of boards with ``marks`` marks, and its standard error."""
    x, o = (marks + 1) // 2, marks // 2
    # uniform boards: a random order of the cells, the first x get X, the next o get O
    order = np.argsort(rng.random((samples, cells)), axis=1)
    board = np.zeros((samples, cells), dtype=np.int8)
    rows = np.arange(samples)[:, None]
    board[rows, order[:, :x]] = 1
    board[rows, order[:, x : x + o]] = 2
    line_cells = np.array(lines)
    incidence = np.zeros((len(lines), cells), dtype=np.int64)
    np.put_along_axis(incidence, line_cells, 1, axis=1)
    last, other = (1, 2) if x > o else (2, 1)
    complete_last = (board[:, line_cells] == last).all(axis=2)
    complete_other = (board[:, line_cells] == other).all(axis=2)
    count = complete_last.sum(axis=1)
    # a cell on every complete line of the last mover
    on_all: npt.NDArray[np.bool_] = ((complete_last.astype(np.int64) @ incidence) == count[:, None]).any(
        axis=1
    )
    ok = ~complete_other.any(axis=1) & ((count == 0) | on_all)
    share = float(ok.mean())
    return share, math.sqrt(max(share * (1 - share), 1 / samples) / samples)


@click.command()
@click.option("--rules", "specs", multiple=True, default=["4x4:4", "4x5:4", "5x5:4"], show_default=True)
@click.option("--samples", default=200_000, show_default=True, help="Boards sampled per layer.")
@click.option("--seed", default=1, show_default=True)
def main(specs: tuple[str, ...], samples: int, seed: int) -> None:
    """Estimate reachable positions (and up to symmetry) for each RULES by sampling each layer."""
    rng = np.random.default_rng(seed)
    for spec in specs:
        cells, lines, group = _parse(spec)
        total = variance = 0.0
        for marks in range(cells + 1):
            x, o = (marks + 1) // 2, marks // 2
            boards = math.comb(cells, x) * math.comb(cells - x, o)
            share, error = reachable_fraction(cells, lines, marks, samples, rng)
            total += boards * share
            variance += (boards * error) ** 2
        low, high = total - 1.96 * math.sqrt(variance), total + 1.96 * math.sqrt(variance)
        click.echo(
            f"{spec}: reachable ~{total:.4g} (95%: {low:.4g} to {high:.4g}); "
            f"up to its {group} symmetries ~{total / group:.4g}"
        )


def _parse(spec: str) -> tuple[int, tuple[tuple[int, ...], ...], int]:
    """``RxC:K`` as (cells, lines, symmetries), past the 16 cells that ``Rules`` accepts: the
    board tables come from player/tictactoe_book/game.py's own builders, which have no limit."""
    shape, _, k = spec.partition(":")
    rows, cols = (int(n) for n in shape.split("x"))
    return rows * cols, _winning_lines(rows, cols, int(k)), len(_symmetries(rows, cols))


if __name__ == "__main__":
    main()
