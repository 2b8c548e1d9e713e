"""The book's whole strategy for one side on one page, in the style of xkcd 832 ("Tic-Tac-Toe").

Two pure steps, so that a test can check the data a drawing is made from and the drawing itself:

* ``poster_tree(book, side)`` is the book's policy for ``side`` as a tree of ``Node`` values;
* ``render_poster(tree, rules, side)`` draws that tree as SVG text (no clock, no paths, floats
  written with two decimals), the same bytes for the same tree.

The side's move. Where ``side`` is to move, the drawn move is the *lowest-numbered cell of the
book's top trap-order tier* in the board's own orientation (``evaluate(board).tiers[0][0]``;
cells in reading order). Every cell of that tier is equally good, so one is drawn.

Nesting (xkcd 832's layout). A node's board shows the side's move in red. In every cell where the
opponent can reply, a smaller board shows the position after that reply with the side's answer,
and so on until the game ends. A reply that ends the game itself (only the last free cell in
the O poster) is drawn as that mark, not as a board.

Folding. Opposing replies that are images of each other under the symmetries fixing the current
board lead to mirror-image games, so each such group (an orbit of the board's stabilizer) is
drawn once, in its lowest-numbered cell; the group's other cells are shaded and labelled
"mirror". ``fold=False`` draws every reply.

The teaching figure (``teaching_rows``, ``render_teaching``): for each of X's three distinct
first moves (corner, edge, centre) and each of O's distinct replies (folded the same way), the
value for X with best play and the book's move.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

from tictactoe_book.game import (
    EMPTY,
    FIRST,
    SECOND,
    Cell,
    Rules,
    check_mark,
    completed_lines,
    is_over,
    legal_moves,
    other,
    play,
    transform,
)
from tictactoe_book.reader import Book

__all__ = [
    "BOARD_TAG",
    "Node",
    "Reply",
    "TeachingCell",
    "TeachingRow",
    "book_move",
    "count_boards",
    "iter_nodes",
    "poster_tree",
    "render_poster",
    "render_teaching",
    "reply_groups",
    "teaching_rows",
]


@dataclass(frozen=True, slots=True)
class Reply:
    """An opposing reply drawn in ``cell`` of its parent; ``mirrors`` are the cells of the same
    group, shaded. ``child`` is None when the reply ends the game."""

    cell: Cell
    mirrors: tuple[Cell, ...]
    child: Node | None


@dataclass(frozen=True, slots=True)
class Node:
    """One drawn board: ``before`` with the side's ``move`` (None: the side has no move here, as
    at the O poster's empty board), giving ``board``; then the opponent's replies."""

    before: str
    move: Cell | None
    board: str
    replies: tuple[Reply, ...]


def book_move(book: Book, board: str) -> Cell:
    """The move drawn for the side to move: the lowest cell of the book's top tier."""
    return book.evaluate(board).tiers[0][0]


def reply_groups(rules: Rules, board: str, *, fold: bool = True) -> list[tuple[Cell, ...]]:
    """The free cells of ``board`` grouped by the symmetries that fix it (each group sorted, the
    groups by their first cell); one cell a group when ``fold`` is False."""
    free = legal_moves(board)
    if not fold:
        return [(cell,) for cell in free]
    fixing = [s for s in rules.symmetries if transform(board, s) == board]
    groups = {tuple(sorted({s.perm[cell] for s in fixing})) for cell in free}
    return sorted(groups)


def poster_tree(book: Book, side: str, *, fold: bool = True) -> Node:
    """The book's play for ``side`` (X moves first) from the empty board, every opposing reply
    answered (up to folding), until every game ends."""
    check_mark(side, "side")
    rules = book.rules
    empty = EMPTY * rules.cells
    if side == FIRST:
        return _side_moves(book, empty, fold)
    return Node(empty, None, empty, _replies(book, empty, fold))


def _side_moves(book: Book, before: str, fold: bool) -> Node:
    move = book_move(book, before)
    board = play(before, move)
    return Node(before, move, board, _replies(book, board, fold))


def _replies(book: Book, board: str, fold: bool) -> tuple[Reply, ...]:
    rules = book.rules
    if is_over(rules, board):
        return ()
    replies = []
    for group in reply_groups(rules, board, fold=fold):
        after = play(board, group[0])
        child = None if is_over(rules, after) else _side_moves(book, after, fold)
        replies.append(Reply(group[0], group[1:], child))
    return tuple(replies)


def iter_nodes(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children, in drawing order."""
    yield node
    for reply in node.replies:
        if reply.child is not None:
            yield from iter_nodes(reply.child)


def count_boards(node: Node) -> int:
    """How many boards the poster draws (one per node)."""
    return sum(1 for _ in iter_nodes(node))


# ---------------------------------------------------------------- drawing

# A3 portrait (297 x 420 mm) in a 1000 x 1414 user space; everything else scales with it.
PAGE_W, PAGE_H = 1000, 1414
MARGIN = 40
FONTS = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
INK = "#222"
SIDE_INK = "#c8102e"  # the side's move (xkcd 832 draws it red)
WIN_FILL = "#fbd5d5"  # a move that wins at once
MIRROR_FILL = "#ececec"
MUTED = "#666"
INSET = 0.05  # a nested board leaves this fraction of its cell free on each side
#: how every drawn board's group opens: one per tree node (tests count them)
BOARD_TAG = '<g class="board"'


def _f(value: float) -> str:
    """Fixed float formatting: two decimals, so output never depends on float repr."""
    return f"{value:.2f}"


def _mark(mark: str, x: float, y: float, cell: float, colour: str, weight: float) -> str:
    """An X (two strokes) or an O (a circle) centred in the cell at (x, y)."""
    r = cell * 0.3
    cx, cy = x + cell / 2, y + cell / 2
    w = _f(cell * weight)
    if mark == FIRST:
        return (
            f'<path d="M{_f(cx - r)} {_f(cy - r)}L{_f(cx + r)} {_f(cy + r)}M{_f(cx + r)} {_f(cy - r)}'
            f'L{_f(cx - r)} {_f(cy + r)}" stroke="{colour}" stroke-width="{w}" stroke-linecap="round"/>'
        )
    return (
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="none" stroke="{colour}" stroke-width="{w}"/>'
    )


def _board(
    rules: Rules, board: str, x: float, y: float, size: float, *, move: Cell | None, skip: frozenset[Cell]
) -> list[str]:
    """A board's grid, marks (``move`` in red, its cell shaded if it wins) and completed lines;
    cells in ``skip`` are left for what is drawn inside them."""
    cell = size / rules.cols
    out = []
    lines = completed_lines(rules, board)
    if move is not None and lines:
        cx, cy = x + (move % rules.cols) * cell, y + (move // rules.cols) * cell
        out.append(
            f'<rect x="{_f(cx)}" y="{_f(cy)}" width="{_f(cell)}" height="{_f(cell)}" fill="{WIN_FILL}"/>'
        )
    grid = []
    for i in range(1, rules.cols):
        grid.append(f"M{_f(x + i * cell)} {_f(y)}V{_f(y + size)}")
    for i in range(1, rules.rows):
        grid.append(f"M{_f(x)} {_f(y + i * cell)}H{_f(x + size)}")
    out.append(
        f'<path d="{"".join(grid)}" stroke="{INK}" stroke-width="{_f(size * 0.012)}" stroke-linecap="round"/>'
    )
    for c, mark in enumerate(board):
        if mark == EMPTY or c in skip:
            continue
        cx, cy = x + (c % rules.cols) * cell, y + (c // rules.cols) * cell
        out.append(_mark(mark, cx, cy, cell, SIDE_INK if c == move else INK, 0.1 if c == move else 0.07))
    for line in lines:
        a, b = line[0], line[-1]
        ax, ay = x + (a % rules.cols + 0.5) * cell, y + (a // rules.cols + 0.5) * cell
        bx, by = x + (b % rules.cols + 0.5) * cell, y + (b // rules.cols + 0.5) * cell
        colour = SIDE_INK if move is not None and board[a] == board[move] else INK
        out.append(
            f'<path class="line" d="M{_f(ax)} {_f(ay)}L{_f(bx)} {_f(by)}" stroke="{colour}" '
            f'stroke-width="{_f(cell * 0.12)}" stroke-linecap="round" opacity="0.55"/>'
        )
    return out


def _node(rules: Rules, node: Node, x: float, y: float, size: float) -> list[str]:
    """A node's board and, nested in their cells, its replies' boards."""
    cell = size / rules.cols
    nested = {r.cell for r in node.replies if r.child is not None}
    out = [f'{BOARD_TAG} data-board="{node.board}">']
    out += _board(rules, node.board, x, y, size, move=node.move, skip=frozenset(nested))
    for reply in node.replies:
        cx, cy = x + (reply.cell % rules.cols) * cell, y + (reply.cell // rules.cols) * cell
        if reply.child is None:  # the reply ended the game: its mark, nothing to answer
            final = play(node.board, reply.cell)
            out.append(_mark(final[reply.cell], cx, cy, cell, INK, 0.07))
        else:
            inset = cell * INSET
            out += _node(rules, reply.child, cx + inset, cy + inset, cell - 2 * inset)
        for mirror in reply.mirrors:
            mx, my = x + (mirror % rules.cols) * cell, y + (mirror // rules.cols) * cell
            pad = cell * INSET
            out.append(
                f'<g class="mirror"><rect x="{_f(mx + pad)}" y="{_f(my + pad)}" width="{_f(cell - 2 * pad)}" '
                f'height="{_f(cell - 2 * pad)}" rx="{_f(cell * 0.04)}" fill="{MIRROR_FILL}"/>'
                f'<text x="{_f(mx + cell / 2)}" y="{_f(my + cell / 2 + cell * 0.04)}" '
                f'font-size="{_f(cell * 0.12)}" text-anchor="middle" fill="{MUTED}">mirror</text></g>'
            )
    out.append("</g>")
    return out


def _text(
    x: float, y: float, size: float, text: str, *, weight: str = "normal", anchor: str = "start"
) -> str:
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{INK}">{escape(text)}</text>'
    )


def _svg(width: float, height: float, mm_width: int, title: str, body: list[str]) -> str:
    mm_height = round(mm_width * height / width)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{mm_width}mm" height="{mm_height}mm" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONTS}">'
    )
    return "\n".join(
        [
            head,
            f"<title>{escape(title)}</title>",
            f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fff"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def render_poster(tree: Node, rules: Rules, side: str) -> str:
    """The poster for ``tree`` (made by ``poster_tree`` for ``side``) as SVG text: A3 portrait."""
    opponent = other(side)
    boards = count_boards(tree)
    title = f"Tic-tac-toe: the book's play for {side}"
    size = PAGE_W - 2 * MARGIN
    top = 170
    body = [
        _text(MARGIN, 78, 40, title, weight="bold"),
        _text(
            MARGIN,
            120,
            17,
            f"{side}'s move is red. Each cell where {opponent} can reply holds a smaller board: the game "
            f"after that reply, with {side}'s answer.",
        ),
        _text(
            MARGIN,
            145,
            17,
            f"Follow your game inward until it ends. {side} never loses; a red line is a win for {side}.",
        ),
        *_node(rules, tree, MARGIN, top, size),
    ]
    legend_y = top + size + 60
    key = [
        "Drawn move: the lowest-numbered cell (reading order) of the book's best trap-order tier, "
        "one of its equally good moves.",
        'Grey cells marked "mirror": that reply is a mirror image of one drawn in the same board '
        "(the board is symmetric); play it mirrored.",
        f"A shaded red cell is a move that wins at once. {boards} boards; every one of {opponent}'s "
        f"replies is answered.",
        "Made by ttt-book poster from the proven book, after Randall Munroe's xkcd 832.",
    ]
    for i, line in enumerate(key):
        body.append(_text(MARGIN, legend_y + i * 30, 16, line))
    return _svg(PAGE_W, PAGE_H, 297, title, body)


# ---------------------------------------------------------------- the teaching figure


@dataclass(frozen=True, slots=True)
class TeachingCell:
    """O's ``reply`` (with its mirror ``mirrors``) to a first move: the board after it, X's
    value there with best play (+1/0/-1, plies to the end), and the book's ``move`` for X."""

    reply: Cell
    mirrors: tuple[Cell, ...]
    board: str
    value: int
    plies: int
    move: Cell
    book_reply: bool  # is ``reply`` (or a mirror) in the book's top tier for O?


@dataclass(frozen=True, slots=True)
class TeachingRow:
    """X's first move ``first`` (one of ``mirrors`` more like it), named corner, edge or centre."""

    first: Cell
    mirrors: tuple[Cell, ...]
    name: str
    board: str
    value: int  # for O, to move, with best play
    plies: int
    replies: tuple[TeachingCell, ...]


def teaching_rows(book: Book) -> tuple[TeachingRow, ...]:
    """X's distinct first moves, each with O's distinct replies (standard 3x3 rules)."""
    rules = book.rules
    if rules != Rules():
        raise ValueError(f"the teaching figure is drawn for 3x3 tic-tac-toe, not {rules}")
    empty = EMPTY * rules.cells
    rows = []
    for group in reply_groups(rules, empty):
        first = group[0]
        name = "centre" if len(group) == 1 else "corner" if 0 in group else "edge"
        board = play(empty, first)
        for_o = book.evaluate(board)
        top = set(for_o.tiers[0])
        cells = []
        for replies in reply_groups(rules, board):
            after = play(board, replies[0])
            for_x = book.evaluate(after)
            cells.append(
                TeachingCell(
                    replies[0],
                    replies[1:],
                    after,
                    for_x.value,
                    for_x.plies,
                    book_move(book, after),
                    bool(top & set(replies)),
                )
            )
        rows.append(TeachingRow(first, group[1:], name, board, for_o.value, for_o.plies, tuple(cells)))
    return tuple(rows)


def _value_words(value: int, plies: int, mover: str) -> str:
    if value == 0:
        return "draw"
    winner = mover if value > 0 else other(mover)
    return f"{winner} wins in {plies}"


def render_teaching(rows: tuple[TeachingRow, ...], rules: Rules) -> str:
    """The teaching figure as SVG text: one row per first move, one board per reply."""
    columns = max(len(row.replies) for row in rows) + 1
    board = 130.0
    gap = 40.0
    row_h = board + 95
    top = 140
    width = MARGIN * 2 + columns * board + (columns - 1) * gap + 30
    height = top + len(rows) * row_h + 60
    title = "Tic-tac-toe: every opening, and the book's answer"
    body = [
        _text(MARGIN, 60, 30, title, weight="bold"),
        _text(
            MARGIN,
            95,
            15,
            "Left: X's first move (corner, edge or centre; the others are mirror images). Then each "
            "distinct reply by O, with X's best result and the book's move for X in red.",
        ),
        _text(
            MARGIN,
            118,
            15,
            "★ marks O's book reply (the book's first trap-order tier). "
            "Cells are numbered 1-9 in reading order.",
        ),
    ]
    for r, row in enumerate(rows):
        y = top + r * row_h + 10
        body.append(f'{BOARD_TAG} data-board="{row.board}">')
        body += _board(rules, row.board, MARGIN, y, board, move=row.first, skip=frozenset())
        body.append("</g>")
        body.append(
            _text(MARGIN + board / 2, y + board + 24, 16, f"X: {row.name}", weight="bold", anchor="middle")
        )
        body.append(
            _text(
                MARGIN + board / 2,
                y + board + 44,
                14,
                _value_words(row.value, row.plies, SECOND),
                anchor="middle",
            )
        )
        for i, cell in enumerate(row.replies):
            x = MARGIN + 30 + (i + 1) * (board + gap)
            body.append(f'{BOARD_TAG} data-board="{cell.board}">')
            body += _board(rules, play(cell.board, cell.move), x, y, board, move=cell.move, skip=frozenset())
            body.append("</g>")
            star = "★ " if cell.book_reply else ""
            body.append(
                _text(
                    x + board / 2,
                    y + board + 24,
                    15,
                    f"{star}O: {' or '.join(str(c + 1) for c in (cell.reply, *cell.mirrors))}",
                    anchor="middle",
                )
            )
            body.append(
                _text(
                    x + board / 2,
                    y + board + 44,
                    14,
                    f"{_value_words(cell.value, cell.plies, FIRST)}; X: {cell.move + 1}",
                    anchor="middle",
                )
            )
        body.append(
            f'<path d="M{_f(MARGIN + board + 25)} {_f(y)}V{_f(y + board)}" '
            f'stroke="{MUTED}" stroke-width="1"/>'
        )
    return _svg(width, height, 420, title, body)
