"""Facts of 3x3 tic-tac-toe, from an independent enumeration and the project's, against known values.

Known values: 5,478 reachable positions (4,520 not over, 958 over); 765 up to symmetry (627 not
over, 138 over); 549,946 nodes in the game tree; 255,168 games (131,184 first-player wins,
77,904 second-player wins, 46,080 draws); perfect play draws.
"""

from __future__ import annotations

from tictactoe_book import Book, Rules
from tictactoe_book.game import canonical
from tictactoe_generator.solve import Retrograde

Reachable = tuple[set[str], set[str]]


def test_reachable_positions(reachable: Reachable) -> None:
    unfinished, finished = reachable  # tests/oracles/oracle.py's walk from the empty board
    assert (len(unfinished) + len(finished), len(unfinished), len(finished)) == (5478, 4520, 958)


def test_positions_up_to_symmetry(reachable: Reachable) -> None:
    unfinished, finished = reachable
    assert len({canonical(Rules(), b)[0] for b in unfinished}) == 627
    assert len({canonical(Rules(), b)[0] for b in finished}) == 138


def test_game_tree(retro: Retrograde) -> None:
    games = retro.counts.games
    assert retro.counts.tree_nodes == 549946
    assert games.total == 255168
    assert (games.first_wins, games.second_wins, games.draws) == (131184, 77904, 46080)


def test_perfect_play_draws(book: Book) -> None:
    assert book.evaluate(".........").value == 0
    assert book.evaluate(".........").plies == 9


def test_the_book_states_the_same_counts(book: Book) -> None:
    counts = book.data["counts"]
    assert (counts["entries"], counts["positions"], counts["unfinished"], counts["finished"]) == (
        627,
        5478,
        4520,
        958,
    )
    assert (counts["canonical_positions"], counts["canonical_finished"]) == (765, 138)
    assert (counts["tree_nodes"], counts["games"]) == (549946, 255168)
    assert (counts["first_wins"], counts["second_wins"], counts["draws"]) == (131184, 77904, 46080)
    assert len(book) == 627


def test_a_variant_needs_no_format_change(boards_3x4: list[str], retro_3x4: Retrograde) -> None:
    """3x4 with k=3: 111,973 reachable positions, 28,275 up to its 4 symmetries (20,088 of them
    unfinished: the book's entries)."""
    rules = Rules(3, 4, 3)
    assert len({canonical(rules, b)[0] for b in boards_3x4}) == 20088
    assert (retro_3x4.counts.reachable, retro_3x4.counts.canonical) == (111973, 28275)
    assert len(rules.symmetries) == 4
