"""Facts of 3x3 tic-tac-toe, from the project's own enumeration, against known values.

Known values: 5,478 reachable positions (4,520 not over, 958 over); 765 up to symmetry (627 not
over, 138 over); 549,946 nodes in the game tree; 255,168 games (131,184 first-player wins,
77,904 second-player wins, 46,080 draws); perfect play draws.
"""

from __future__ import annotations

from generator.solve import Solution
from player.board import canonical
from player.book import Book
from player.rules import Rules


def test_reachable_positions(solution: Solution) -> None:
    assert solution.reachable == 5478
    assert len(solution.move_scores) == 4520
    assert len(solution.finished) == 958


def test_positions_up_to_symmetry(solution: Solution) -> None:
    rules = solution.rules
    assert len({canonical(rules, b)[0] for b in solution.move_scores}) == 627
    assert len({canonical(rules, b)[0] for b in solution.finished}) == 138


def test_each_position_is_searched_once(solution: Solution) -> None:
    assert solution.searches == len(solution.move_scores) == 4520


def test_game_tree(solution: Solution) -> None:
    assert solution.tree_nodes == 549946
    assert solution.games.total == 255168
    assert solution.games.first_wins == 131184
    assert solution.games.second_wins == 77904
    assert solution.games.draws == 46080


def test_perfect_play_draws(solution: Solution, book: Book) -> None:
    assert solution.score(".........") == 0
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


def test_a_variant_needs_no_format_change(solution_3x4: Solution) -> None:
    """3x4 with k=3: 111,973 reachable positions, 28,275 up to its 4 symmetries."""
    rules = Rules(3, 4, 3)
    variant = solution_3x4
    assert variant.reachable == 111973
    boards = list(variant.move_scores) + list(variant.finished)
    assert len({canonical(rules, b)[0] for b in boards}) == 28275
    assert len(rules.symmetries) == 4
