"""Hints that teach: every free cell's outcome, the move the book would play, and why.

Pure functions of a book and a board: the line mode (player/tictactoe_book/apps/lines.py) and the screen
(player/tictactoe_book/apps/screen.py) show the same hint. Cells are the book's (0 up); the text shows them
as people number them (1 up). The "why" compares the book's move with the others by the
chances the book ranks its optimal moves by (``win_chances``): against each reference opponent
(player/tictactoe_book/opponents.py), the one its order is ranked against first (``Book.against``), then the
others.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from tictactoe_book.errors import TooManyLines
from tictactoe_book.game import FIRST, Cell, Position, legal_moves, other, put
from tictactoe_book.opponents import DEFAULT, OPPONENTS, opponent, ranking
from tictactoe_book.play import level_policy
from tictactoe_book.rates import PlayOut

if TYPE_CHECKING:
    from tictactoe_book.book import Book

#: The chance of going on to win against each reference opponent, by its name.
Chances = dict[str, Fraction]


def win_chances(
    book: Book,
    board: str | Position,
    *,
    first: str | None = None,
    budget: int | None = None,
    walks: dict[tuple[str, str], PlayOut] | None = None,
) -> dict[Cell, Chances]:
    """For each legal move of the side to move on ``board`` (a ``Position``, or a board string
    of a game ``first`` began), its chance of winning if it plays that move and the book's top
    tier after it, against each reference opponent.

    Raises BoardError (from the book) for a board that is malformed or finished, and
    TooManyLines when a walk would visit more than ``budget`` positions not walked before.
    ``walks`` keeps the play-outs between calls (a game's later hints then cost little): pass
    the same dict for the same book and game.
    """
    evaluation = book.evaluate(board, first=first)
    board, first, me = evaluation.board, evaluation.first, evaluation.turn
    walks = {} if walks is None else walks
    limits = {}
    for name, foe in OPPONENTS.items():
        walk = walks.get((name, me))
        if walk is None:
            top = level_policy(book, "perfect", first=first)
            players = {me: top, other(me): foe.policy(book.rules, first=first)}
            walk = walks[(name, me)] = PlayOut(book.rules, players, first=first)
        limits[name] = None if budget is None else len(walk.memo) + budget

    def chance(name: str, cell: Cell) -> Fraction:
        return walks[(name, me)].results(put(board, cell, me), me, limit=limits[name]).win

    return {cell: {name: chance(name, cell) for name in OPPONENTS} for cell in legal_moves(board)}


WIN, DRAW, LOSS = "win", "draw", "loss"
KINDS = {1: WIN, 0: DRAW, -1: LOSS}
BOOK_MARK = "*"
LEGEND = "W win, D draw, L loss with best play; * the book's move"
#: New positions each opponent's walk may visit for one hint (``win_chances``): all of
#: 3x3 (at most 2,735 from the empty board) and of 3x4 (8,083); on 4x4 k=4 a hint then costs
#: at most 0.3-0.7 s of CPU (measured on a loaded 2-core machine), and the chances are counted
#: from about the sixth ply on. Past it the hint shows the outcomes without the chances.
HINT_BUDGET = 10_000


class MoveHint(NamedTuple):
    """One free cell as the hint shows it."""

    cell: Cell
    value: int  # +1 win, 0 draw, -1 loss for the side to move, with best play after it
    plies: int
    chances: Chances | None  # of winning, playing the book's moves after this one (None: too costly)
    book: bool  # a move of the book's top tier: what the perfect level would play here

    @property
    def kind(self) -> str:
        return KINDS[self.value]

    @property
    def label(self) -> str:
        """``W3``, ``D``, ``L4``, with ``*`` after the book's move: short enough for a cell."""
        text = "D" if self.value == 0 else f"{'W' if self.value > 0 else 'L'}{self.plies}"
        return text + (BOOK_MARK if self.book else "")

    @property
    def words(self) -> str:
        """``win in 3``, ``draw``, ``loss in 4``."""
        return DRAW if self.value == 0 else f"{self.kind} in {self.plies}"


def move_hints(
    book: Book,
    board: str | Position,
    *,
    first: str | None = None,
    walks: dict[tuple[str, str], PlayOut] | None = None,
) -> list[MoveHint]:
    """Every free cell's hint for the side to move on ``board`` (a ``Position``, or a board
    string of a game ``first`` began, X unless given), in cell order; empty when the game is
    over. ``walks``: as for ``win_chances``, kept by the caller for the game's later hints."""
    position = (
        board
        if isinstance(board, Position)
        else Position(board, book.rules, FIRST if first is None else first)
    )
    if position.is_over:
        return []
    evaluation = book.evaluate(board, first=first)  # a first that is not a Position's own: TypeError
    try:
        chances: dict[Cell, Chances | None] = dict(
            win_chances(book, position, budget=HINT_BUDGET, walks=walks)
        )
    except TooManyLines:  # early on a big board: the outcomes, without the chances
        chances = dict.fromkeys(evaluation.scores)
    top = set(evaluation.tiers[0])
    return [MoveHint(cell, *evaluation.outcome(cell), chances[cell], cell in top) for cell in sorted(chances)]


def counted(hints: list[MoveHint]) -> bool:
    """Whether the hints carry their chances against a novice (not when too costly to count)."""
    return all(hint.chances is not None for hint in hints)


def moves_note(hints: list[MoveHint]) -> str:
    """What the number after W or L counts, told on a label shown (the book's move's if it has
    a number): ``L6: loss in 6 moves, both sides' counted, this one included``; empty when no
    label has a number (every move draws)."""
    numbered = [hint for hint in hints if hint.value != 0]
    if not numbered:
        return ""
    shown = next((hint for hint in numbered if hint.book), numbered[0])
    return f"{shown.label.rstrip(BOOK_MARK)}: {shown.words} moves, both sides' counted, this one included"


def cells(numbers: list[Cell]) -> str:
    """``5``, ``1 and 9``, ``1, 3 and 7``: cells as people number them."""
    shown = [str(cell + 1) for cell in sorted(numbers)]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def percent(chance: Fraction, *others: Fraction) -> str:
    """``61%``, with as many decimals (up to two) as it takes to differ from ``others``."""
    for places in (0, 1, 2):
        text = f"{float(chance) * 100:.{places}f}"
        if all(f"{float(other) * 100:.{places}f}" != text for other in others if other != chance):
            return text + "%"
    return f"{float(chance) * 100:.2f}%"


def uncounted(name: str) -> str:
    """Why a hint gives no chances against the opponent ``name`` (early on a big board)."""
    return (
        f"how often each move wins against {opponent(name).words} is not counted: too many lines "
        "of play this early on this board (ask again later in the game)"
    )


def why(hints: list[MoveHint], against: str = DEFAULT) -> str:
    """One sentence for the player: what the book's move does, and what it does better than
    the other moves that reach the same outcome, by the chances its book ranks optimal moves
    by: first against ``against`` (the book's ``Book.against``), then against the next
    reference opponent of its ranking (``tictactoe_book.opponents.ranking``). A book ranked against a
    program is ranked by none of them: its sentence says so instead of comparing chances."""
    if not hints:
        return ""
    book = [h for h in hints if h.book]
    best = book[0]
    named = cells([h.cell for h in book])
    verb = "" if len(book) > 1 else "s"
    they_win = "they win" if len(book) > 1 else "it wins"
    same = [h for h in hints if h.value == best.value and not h.book]
    if best.value > 0:
        if best.plies == 1:
            return f"{named} win{verb} at once."
        slower = [h for h in same if h.plies > best.plies]
        tail = "; the other wins take longer" if slower else ""
        return f"{named} win{verb} against any defence in {best.plies} moves, both sides' counted{tail}."
    if against not in OPPONENTS:
        return _ranked_otherwise(named, verb, best, against)
    # the chance the book ranks by first, and the one that breaks its ties
    first, second = (foe.name for foe in ranking(against)[:2])
    lead: Fraction = Fraction(0) if best.chances is None else best.chances[first]
    if best.value < 0:
        same = [h for h in same if h.plies == best.plies]  # the other moves that hold out as long
        every = len(same) + len(book) == len(hints)  # no move loses sooner
        longest = f"Every move loses against best play; {named} hold{verb} out longest ({best.words})"
        if every and not same:  # the book's moves are all the moves, exact ties
            start = f"Every move loses against best play ({best.words} each)"
            return f"{start}; each wins {_against(first, lead)}." if lead else f"{start}."
        if not same:
            return f"{longest}, and win{verb} {_against(first, lead)}." if lead else f"{longest}."
        if best.chances is None:  # early on a big board: the moves are not told apart
            if every:
                moves = "move is" if len(book) == 1 else "moves are"
                start = f"Every move loses against best play ({best.words} each)"
                start += f", and the book's {moves} {named}"
            else:
                start = f"{longest}, as {cells([h.cell for h in same])} {_do(same)}"
            return f"{start}; {uncounted(first)}."
        if every:  # no move holds out longer: the chances tell them apart
            start, link = f"Every move loses against best play ({best.words} each)", f"; {named} "
            draws, they_win = f"the other move{'s' if len(same) > 1 else ''}", f"{named} win{verb}"
        else:
            start = f"{longest}, as {cells([h.cell for h in same])} {_do(same)}"
            link, draws = ", and ", cells([h.cell for h in same])
        noun = "move"
    else:
        if not same:
            only = "is the only move that keeps" if len(book) == 1 else "are the only moves that keep"
            gain = f"; {they_win} {_against(first, lead)}" if lead else ""
            return f"{named} {only} the draw{gain}."
        if best.chances is None:  # early on a big board: the draws are not told apart
            if len(same) + len(book) == len(hints):
                moves = "move is" if len(book) == 1 else "moves are"
                keeps = f"Every move keeps the draw, and the book's {moves} {named}"
            else:
                keeps = f"{named} keep{verb} the draw, as {_count(same, 'other move')} {_do(same)}"
            return f"{keeps}; {uncounted(first)}."
        start, link = f"{named} keep{verb} the draw", " and "
        draws, noun = f"the other draw{'s' if len(same) > 1 else ''}", "draw"
    rival = max(
        (h.chances for h in same if h.chances is not None),
        key=lambda chances: (chances[first], chances[second]),
    )
    rival_lead: Fraction = rival[first]
    if rival_lead < lead:
        if not rival_lead:
            return f"{start}{link}win{verb} {_against(first, lead)}; {draws} never {_do(same)}."
        versus = f"{_win(same)} {_at_most(same, first)}{percent(rival_lead, lead)}"
        return f"{start}{link}win{verb} {_against(first, lead, rival_lead)}; {draws} {versus}."
    # As good against the first opponent as the best of the others: better against the second.
    if not lead:  # then no other move of the same outcome beats the first opponent either
        beaten = same
        start += (
            f"; no {noun} here beats {opponent(first).words}, but against {opponent(second).words} {they_win}"
        )
    else:
        beaten = [h for h in same if h.chances is not None and h.chances[first] == lead]
        start += (
            f"{link}win{verb} {_against(first, lead)}, as {cells([h.cell for h in beaten])} "
            f"{_do(beaten)}; against {opponent(second).words} {they_win}"
        )
    others = draws if len(beaten) == len(same) else cells([h.cell for h in beaten])
    mine: Fraction = best.chances[second]
    theirs: Fraction = rival[second]
    if not theirs:
        return f"{start} {percent(mine)}; {others} never {_do(beaten)}."
    versus = f"{_win(beaten)} {_at_most(beaten, second)}{percent(theirs, mine)}"
    return f"{start} {percent(mine, theirs)}, {others} {versus}."


def _ranked_otherwise(named: str, verb: str, best: MoveHint, against: str) -> str:
    """The sentence for a book ranked against neither reference opponent (a program's)."""
    ranked = f"this book ranks its moves against {against}"
    if best.value == 0:
        return f"{named} keep{verb} the draw; {ranked}."
    return f"Every move loses against best play; {named} hold{verb} out longest ({best.words}); {ranked}."


def _count(items: list[MoveHint], noun: str) -> str:
    """``1 other move``, ``3 other moves``."""
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def _do(items: list[MoveHint]) -> str:
    """``does`` after one move, ``do`` after several."""
    return "does" if len(items) == 1 else "do"


def _win(items: list[MoveHint]) -> str:
    """``wins`` after one move, ``win`` after several."""
    return "wins" if len(items) == 1 else "win"


def _against(name: str, chance: Fraction, *others: Fraction) -> str:
    return f"{percent(chance, *others)} of games against {opponent(name).words}"


def _at_most(rivals: list[MoveHint], name: str) -> str:
    """``at most `` when the rivals' chances against the opponent ``name`` differ."""
    return "at most " if len({h.chances[name] for h in rivals if h.chances is not None}) > 1 else ""
