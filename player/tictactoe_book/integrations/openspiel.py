"""A bot for OpenSpiel's ``tic_tac_toe``, ``mnk`` and the ``misere`` of either, that plays from
the book.

OpenSpiel numbers the cells row by row like the book (action = row * columns + column), player
0 is ``x`` and moves first; a state prints as rows of ``x``, ``o`` and ``.``. **mnk's m counts
columns and n rows** (open_spiel/games/mnk/mnk.cc: ``"m"`` is ``kDefaultNumCols``, ``"n"``
``kDefaultNumRows``): ``mnk(m=4,n=3,k=3)`` is the book's 3x4 k=3 (``ttt-book build --rules
3x4:3``), 3 rows of 4 cells. ``misere(game=...)`` is the same game where completing a line
loses (``--misere``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tictactoe_book.book import Book
from tictactoe_book.game import EMPTY, FIRST, SECOND, Rules
from tictactoe_book.integrations import book_for_game
from tictactoe_book.play import Rng, check_level, choose_move, random_seed

if TYPE_CHECKING:
    from tictactoe_book.play import RandomSource

_MARKS = {"x": FIRST, "o": SECOND, ".": EMPTY}


def board_from_state(state: Any) -> str:
    """The book's board for an OpenSpiel tic-tac-toe or mnk state (from its text)."""
    return "".join(_MARKS[ch] for ch in str(state) if ch in _MARKS)


def book_action(book: Book, state: Any, level: str = "perfect", *, rng: RandomSource | None = None) -> int:
    """The book's move (an OpenSpiel action) for the player to move in ``state``."""
    return choose_move(book, board_from_state(state), level, rng=rng)


def game_rules(game: Any) -> Rules:
    """The rules of an OpenSpiel game the book can play: ``tic_tac_toe``, ``mnk`` (m columns, n
    rows, k in a row) or ``misere`` of either; ValueError in one line for any other."""
    return _rules(game.get_type().short_name, game.get_parameters(), str(game))


def _rules(name: str, parameters: dict[str, Any], shown: str, *, misere: bool = False) -> Rules:
    if name == "tic_tac_toe":
        return Rules(3, 3, 3, misere)
    if name == "mnk":  # m columns, n rows
        return Rules(parameters["n"], parameters["m"], parameters["k"], misere)
    if name == "misere" and not misere:
        inner = parameters["game"]
        return _rules(inner["name"], inner, shown, misere=True)
    raise ValueError(f"the book plays tic_tac_toe, mnk and the misere of either, not {shown}")


def make_bot(
    level: str = "perfect",
    *,
    game: Any = None,
    book: Book | None = None,
    seed: int | None = None,
    against: str | None = None,
) -> Any:
    """A ``pyspiel.Bot`` playing ``game`` (a loaded OpenSpiel game; ``tic_tac_toe`` if None) from
    the book at ``level``: ``book``, else the packaged book for the game's rules (3x3, normal or
    misère) ranked against ``against`` (``"novice"``, the default, or ``"random"``: the opponent
    the perfect level wins most often against), loaded once and shared by every bot. Its
    choices draw from ``tictactoe_book.play.Rng(seed)`` (0 to 2**32 - 1; the system's seeding if
    None): the games every language plays from that seed. ValueError in one line, at once, for
    a game the book does not play, a ``book`` for other rules than the game's (mnk's m counts
    columns), ranked against another opponent than ``against``, or a seed out of range."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]  # the openspiel extra, untyped

    check_level(level)
    rng = Rng(random_seed() if seed is None else seed)
    game = pyspiel.load_game("tic_tac_toe") if game is None else game
    used = book_for_game(game_rules(game), f"OpenSpiel's {game}", book=book, against=against)

    class BookBot(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.book = used

        def step(self, state: Any) -> int:
            return book_action(used, state, level, rng=rng)

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    return BookBot()
