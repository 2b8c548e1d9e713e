"""The posters (``ttt-book poster``): the tree they are drawn from is the book's play, proven by
walking it whole; the SVG draws exactly that tree; the committed files are current.

Mirror images are checked with the oracle's own orientations (typed out, no symmetry tables),
and every drawn move against the oracle's minimax as well as the book's top tier.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles import oracle

from tictactoe_book import Book
from tictactoe_book.game import EMPTY, play
from tictactoe_generator.cli import main
from tictactoe_generator.reports.poster import (
    BOARD_TAG,
    Node,
    count_boards,
    iter_nodes,
    poster_tree,
    render_poster,
    render_teaching,
    teaching_rows,
)

ROOT = Path(__file__).resolve().parent.parent
POSTERS = ROOT / "docs" / "posters"
#: what each committed file is drawn from: (side or None for the teaching figure)
FILES = {"x.svg": "X", "o.svg": "O", "teaching.svg": None}


def other(side: str) -> str:
    return "O" if side == "X" else "X"


def is_mirror(board: str, drawn: str, mirror: str) -> bool:
    """Does one of the board's orientations fix ``board`` and carry ``drawn`` onto ``mirror``?"""
    return any(
        b == board and d == mirror
        for b, d in zip(oracle.orientations(board), oracle.orientations(drawn), strict=True)
    )


def check_tree(book: Book, tree: Node, side: str, solve: functools._lru_cache_wrapper[oracle.Result]) -> int:
    """Walk the whole tree; returns how many games (leaves) it ends in."""
    games = 0
    for node in iter_nodes(tree):
        if node.move is None:
            assert node.board == node.before
            over = oracle.line_owner(node.board) or EMPTY not in node.board
            assert oracle.to_move(node.board) != side or over
        else:
            assert oracle.to_move(node.before) == side
            evaluation = book.evaluate(node.before)
            assert node.move in evaluation.tiers[0], (node.before, node.move)
            results = oracle.move_results(node.before, solve)
            best = max(results.values(), key=oracle.rank)
            assert results[node.move] == best, (node.before, node.move)  # the oracle agrees
            assert node.board == play(node.before, node.move)
        finished = oracle.line_owner(node.board) is not None or EMPTY not in node.board
        if finished:
            assert not node.replies
            assert oracle.line_owner(node.board) in (side, None), node.board  # a leaf: not lost
            games += 1
            continue
        assert oracle.to_move(node.board) == other(side)
        covered = [r.cell for r in node.replies] + [m for r in node.replies for m in r.mirrors]
        free = [c for c in range(9) if node.board[c] == EMPTY]
        assert sorted(covered) == free, node.board  # every reply, each once
        for reply in node.replies:
            after = play(node.board, reply.cell)
            for mirror in reply.mirrors:
                assert is_mirror(node.board, after, play(node.board, mirror)), (node.board, reply)
            if reply.child is None:  # the reply ends the game
                assert oracle.line_owner(after) is None and EMPTY not in after, after
                games += 1
            else:
                assert reply.child.before == after
                assert reply.child.move is not None
    return games


@pytest.mark.parametrize("fold", [True, False], ids=["folded", "every-reply"])
@pytest.mark.parametrize("side", ["X", "O"])
def test_the_tree_is_the_books_play_and_answers_every_reply(
    book: Book, cached_oracle: functools._lru_cache_wrapper[oracle.Result], side: str, fold: bool
) -> None:
    tree = poster_tree(book, side, fold=fold)
    assert check_tree(book, tree, side, cached_oracle) > 0
    if not fold:
        assert all(not r.mirrors for n in iter_nodes(tree) for r in n.replies)


def test_the_unfolded_tree_is_every_game_of_the_policy(book: Book) -> None:
    # The policy played out by brute force, without the tree builder: one game per opposing
    # line. Unfolded, the tree has a leaf for each.
    def games(board: str, side: str) -> int:
        if oracle.line_owner(board) or EMPTY not in board:
            return 1
        if oracle.to_move(board) == side:
            return games(play(board, book.evaluate(board).tiers[0][0]), side)
        return sum(games(play(board, c), side) for c in range(9) if board[c] == EMPTY)

    for side in "XO":
        tree = poster_tree(book, side, fold=False)
        leaves = sum(1 for n in iter_nodes(tree) if not n.replies) + sum(
            1 for n in iter_nodes(tree) for r in n.replies if r.child is None
        )
        assert leaves == games(EMPTY * 9, side)


@pytest.mark.parametrize("side", ["X", "O"])
def test_the_svg_draws_exactly_the_tree(book: Book, side: str) -> None:
    tree = poster_tree(book, side)
    svg = render_poster(tree, book.rules, side)
    drawn = re.findall(r'<g class="board" data-board="([.XO]{9})">', svg)
    assert drawn == [n.board for n in iter_nodes(tree)]  # one board per node, in walk order
    assert svg.count(BOARD_TAG) == count_boards(tree)
    assert svg.count('<g class="mirror">') == sum(len(r.mirrors) for n in iter_nodes(tree) for r in n.replies)
    # every completed line is drawn: one per line of every finished board
    finished = [n.board for n in iter_nodes(tree) if oracle.line_owner(n.board)]
    lines = sum(
        1 for b in finished for line in oracle.LINES if b[line[0]] != "." and len({b[c] for c in line}) == 1
    )
    assert svg.count('class="line"') == lines > 0
    assert svg == render_poster(poster_tree(book, side), book.rules, side)  # deterministic
    assert re.search(r"\d\.\d{3,}", svg) is None  # two decimals, never a float's repr


def test_the_counts_we_publish(book: Book) -> None:
    # Recorded from the trees (README, the report); a change to the book's play changes them.
    counts = {(s, f): count_boards(poster_tree(book, s, fold=f)) for s in "XO" for f in (True, False)}
    assert counts == {("X", True): 89, ("X", False): 123, ("O", True): 194, ("O", False): 841}


def test_the_teaching_figure(book: Book, cached_oracle: functools._lru_cache_wrapper[oracle.Result]) -> None:
    rows = teaching_rows(book)
    assert [r.name for r in rows] == ["corner", "edge", "centre"]
    firsts = sorted(c for r in rows for c in (r.first, *r.mirrors))
    assert firsts == list(range(9))  # every first move, up to symmetry
    for row in rows:
        assert row.board == play(EMPTY * 9, row.first)
        for mirror in row.mirrors:
            assert is_mirror(EMPTY * 9, row.board, play(EMPTY * 9, mirror))
        replies = sorted(c for cell in row.replies for c in (cell.reply, *cell.mirrors))
        assert replies == [c for c in range(9) if c != row.first]
        top = book.evaluate(row.board).tiers[0]
        for cell in row.replies:
            assert cell.board == play(row.board, cell.reply)
            for mirror in cell.mirrors:
                assert is_mirror(row.board, cell.board, play(row.board, mirror))
            assert (cell.value, cell.plies) == cached_oracle(cell.board)  # X's value, independently
            assert cell.move in book.evaluate(cell.board).tiers[0]
            assert cell.book_reply == any(c in top for c in (cell.reply, *cell.mirrors))
    svg = render_teaching(rows, book.rules)
    assert svg.count(BOARD_TAG) == len(rows) + sum(len(r.replies) for r in rows) == 15


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_committed_posters_are_current(book: Book, name: str) -> None:
    side = FILES[name]
    if side is None:
        expected = render_teaching(teaching_rows(book), book.rules)
    else:
        expected = render_poster(poster_tree(book, side), book.rules, side)
    assert (POSTERS / name).read_text(encoding="utf-8") == expected, f"run `make poster` ({name} is stale)"


def test_the_command_writes_what_the_library_draws(book: Book, tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    result = CliRunner().invoke(main, ["poster", "--side", "x", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == render_poster(poster_tree(book, "X"), book.rules, "X")
    assert "89 boards" in result.output
    result = CliRunner().invoke(main, ["poster", "--teaching", "-o", str(tmp_path / "t.svg")])
    assert result.exit_code == 0 and "15 boards" in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.svg", "x.svg"]  # no temporaries left


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (["poster", "-o", "{tmp}/a.svg"], 2, "give --side X, --side O or --teaching"),
        (["poster", "--side", "X", "--teaching", "-o", "{tmp}/a.svg"], 2, "one of them"),
        (["poster", "--teaching", "--no-fold", "-o", "{tmp}/a.svg"], 2, "--no-fold does nothing"),
        (["poster", "--side", "Z", "-o", "{tmp}/a.svg"], 2, "'Z' is not one of"),
        (["poster", "--side", "X", "-o", "-"], 2, "standard output"),
        (["poster", "--side", "X"], 2, "Missing option"),
        (["poster", "--side", "X", "-o", "{tmp}/missing/a.svg"], 4, "no folder"),
        (["poster", "--side", "X", "-o", "{tmp}"], 4, "directory"),
        (["poster", "--side", "X", "--book", "{tmp}/nope.json", "-o", "{tmp}/a.svg"], 3, "no such file"),
        (["poster", "--side", "O", "--book", "{3x4}", "-o", "{tmp}/a.svg"], 3, "is a book for 3x4 k=3"),
        (["poster", "--teaching", "--book", "{misere}", "-o", "{tmp}/a.svg"], 3, "k=3 misère, not 3x3"),
    ],
    ids=[
        "no-side",
        "both",
        "no-fold-teaching",
        "bad-side",
        "stdout",
        "no-output",
        "no-folder",
        "dir",
        "no-book",
        "3x4-book",
        "misere-book",
    ],
)
def test_the_command_follows_the_exit_table(
    tmp_path: Path, book_3x4_path: Path, args: list[str], status: int, words: str
) -> None:
    import subprocess
    import sys

    misere = ROOT / "book" / "tictactoe-misere.json"
    where = {"{tmp}": tmp_path, "{3x4}": book_3x4_path, "{misere}": misere}
    argv = list(args)
    for name, path in where.items():
        argv = [a.replace(name, str(path)) for a in argv]
    done = subprocess.run(
        [sys.executable, "-c", "from tictactoe_generator.cli import run; run()", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == status, done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "a.svg").exists()


def test_the_help_says_which_boards_the_posters_draw() -> None:
    # a 3x4 or misère book is refused (above): the help says so before anyone tries
    result = CliRunner().invoke(main, ["poster", "--help"])
    text = " ".join(result.output.split())
    assert "the classic game only: 3x3, three in a row, not misère" in text
