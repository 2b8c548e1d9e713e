"""An independent trap order for any m,n,k-game, normal or misère: every line of play, exactly.

Written apart from generator/tictactoe_generator/trap.py: move values from
tests/oracles/negamax.py, its own novice, its own walk over board strings, and Fractions. It follows the
definition in docs/book-format.md "Trap order", with the misère novice of
generator/tictactoe_generator/trap.py
(a free cell that does not complete its own line, if there is one, else any free cell).
``against="random"`` ranks by the chance against random first, then against novice: its top
tier is the never-losing policy that wins most often against a random player.
"""

from __future__ import annotations

from fractions import Fraction

from .negamax import Negamax, preference

Rates = tuple[Fraction, Fraction]  # the book's chance of winning against (novice, random)
Tiers = tuple[tuple[int, ...], ...]


def to_move(board: str) -> str:
    return "X" if board.count("X") == board.count("O") else "O"


def play(board: str, cell: int, mark: str) -> str:
    return board[:cell] + mark + board[cell + 1 :]


class TrapOracle:
    """Tiers and chances of one game, remembered per board."""

    def __init__(
        self, rows: int, cols: int, k: int, *, misere: bool = False, against: str = "novice"
    ) -> None:
        self.game = Negamax(rows, cols, k, misere=misere)
        self.misere = misere
        # the chance the tiers are ranked by first: (novice, random) is index 0, 1
        self.first_key = {"novice": 0, "random": 1}[against]
        self.book_memo: dict[str, tuple[Tiers, Rates]] = {}
        self.reply_memo: dict[str, Rates] = {}

    def novice(self, board: str) -> list[int]:
        """The cells the novice, to move on ``board``, picks uniformly among."""
        me = to_move(board)
        foe = "O" if me == "X" else "X"
        free = [c for c, m in enumerate(board) if m == "."]
        own = [c for c in free if self.game.makes_a_row(play(board, c, me), c)]
        if self.misere:
            return [c for c in free if c not in own] or free
        blocks = [c for c in free if self.game.makes_a_row(play(board, c, foe), c)]
        return own or blocks or free

    def ends(self, child: str, cell: int) -> tuple[bool, bool]:
        """(the game is over, the move at ``cell`` made a row)."""
        row = self.game.makes_a_row(child, cell)
        return row or "." not in child, row

    def book(self, board: str) -> tuple[Tiers, Rates]:
        """The book to move on ``board``: its optimal moves in tiers, and the top tier's chances."""
        known = self.book_memo.get(board)
        if known is not None:
            return known
        moves = self.game.moves(board)
        best = max(preference(result) for result in moves.values())
        rated: dict[int, Rates] = {}
        for cell, result in moves.items():
            if preference(result) != best:
                continue
            child = play(board, cell, to_move(board))
            over, row = self.ends(child, cell)
            if over:
                won = row and not self.misere
                rated[cell] = (Fraction(int(won)), Fraction(int(won)))
            else:
                rated[cell] = self.reply(child)
        key = self.first_key
        ranks = sorted(set(rated.values()), key=lambda r: (r[key], r[1 - key]), reverse=True)
        tiers = tuple(tuple(sorted(c for c, r in rated.items() if r == rank)) for rank in ranks)
        self.book_memo[board] = (tiers, ranks[0])
        return tiers, ranks[0]

    def reply(self, board: str) -> Rates:
        """The book's chances when its opponent is to move on ``board``."""
        known = self.reply_memo.get(board)
        if known is not None:
            return known
        outcome: dict[int, Rates] = {}
        free = [c for c, m in enumerate(board) if m == "."]
        for cell in free:
            child = play(board, cell, to_move(board))
            over, row = self.ends(child, cell)
            if over:  # the opponent ended it: the book wins only by a misère row of the opponent's
                won = Fraction(int(row and self.misere))
                outcome[cell] = (won, won)
            else:
                outcome[cell] = self.book(child)[1]
        chosen = self.novice(board)
        novice = sum((outcome[c][0] for c in chosen), Fraction(0)) / len(chosen)
        random = sum((outcome[c][1] for c in free), Fraction(0)) / len(free)
        self.reply_memo[board] = (novice, random)
        return novice, random
