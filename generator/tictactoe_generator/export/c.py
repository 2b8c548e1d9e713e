"""The book as C99 source (``ttt-book export --lang c``): static const tables and a few functions,
no allocation, nothing beyond the C standard library.

``c_book(table)`` writes ``tictactoe_book.h`` and ``tictactoe_book.c`` from the full table;
``c_strategy(table)`` writes ``tictactoe_x.h`` and ``tictactoe_x.c`` (or ``_o``) from a
strategy table, for a microcontroller that plays one side. With ``single_header=True`` either
writes the header alone, the implementation inside it behind ``TICTACTOE_BOOK_IMPLEMENTATION``
(or ``TICTACTOE_X_IMPLEMENTATION``), stb style. Both are pure: tables in, file texts out
(generator/tictactoe_generator/export/tables.py computes the tables from a proven book), the C itself in
generator/tictactoe_generator/export/templates/: the declarations (``book.h``, ``strategy.h``), the
implementations
(``book.c``, ``strategy.c``, and the pieces they share: ``flash.c``, ``rules.c``, ``board.c``,
``lookup.c``), and how they are put together (``source.c`` for a .c file, ``single.h`` for a
single header).

On AVR the tables go to flash (``PROGMEM``) and are read with ``pgm_read_*``; everywhere else
they are plain ``static const`` arrays, which linkers put in read-only memory.
"""

from __future__ import annotations

import re

from tictactoe_book.game import Rules
from tictactoe_book.play import HORIZON, LEVELS
from tictactoe_generator.export.tables import FullTable, StrategyTable
from tictactoe_generator.export.text import (
    c_string,
    describe_against,
    describe_rules,
    fill,
    key_bits,
    packed_moves,
    win_score,
    wrapped,
)

BOOK_HEADER = "tictactoe_book.h"
BOOK_SOURCE = "tictactoe_book.c"

#: The errors, numbered -1 down in this order, which no release changes (a new one goes last): the
#: board's, in the order a board is checked (docs/book-format.md, "Reading the book"), then the
#: strategy tables' own, a move's, a level's, and those of the text for people (ttt_parse_move,
#: ttt_grid).
ERRORS = (
    ("LENGTH", "length", "the board does not have TTT_CELLS characters (or is NULL)"),
    ("CHARACTER", "character", "a character other than X, O and ."),
    ("COUNTS", "counts", "X has neither as many marks as O nor one more"),
    ("UNREACHABLE", "unreachable", "both marks own a line, or the owner of a line did not move last"),
    ("OVER", "over", "the game is over: a line is owned, or no cell is free"),
    ("TURN", "turn", "a strategy table only: it is not the table's side to move"),
    ("NOT_IN_TABLE", "not-in-table", "a strategy table only: a position its side never faces"),
    ("ILLEGAL_MOVE", "illegal-move", "ttt_play: the cell is off the board or taken"),
    ("LEVEL", "level", "ttt_candidates, ttt_choose: no such level (a strategy table: any but perfect)"),
    ("NOT_A_NUMBER", "not-a-number", "ttt_parse_move: the text is not 1 to 16 ASCII digits"),
    ("SIZE", "size", "ttt_grid: the buffer is shorter than TTT_GRID_SIZE"),
)

#: The game's standing, as ttt_outcome answers it (tictactoe_book.game.Position.outcome's cases).
OUTCOMES = (
    ("IN_PROGRESS", "the game goes on"),
    ("X_WINS", "X has won, by the rules"),
    ("O_WINS", "O has won, by the rules"),
    ("DRAW", "the board is full and no line is complete"),
)

#: The functions every export has, under these names in every header (docs/porting.md, "Exports"):
#: the full book's own; a strategy's are macros naming its own (``ttt_x_play``, ...).
SHARED = (
    "outcome",
    "turn",
    "completed_line",
    "legal_moves",
    "play",
    "random",
    "error_name",
    "choose",
    "grid",
    "parse_move",
    "game",  # struct ttt_game
    "game_start",
    "game_play",
    "game_undo",
)


#: What avr-gcc holds: no array of more than 32,767 bytes (its ptrdiff_t has 16 bits), and
#: pgm_read_* reads PROGMEM tables from the first 64 KB of flash. An export whose tables exceed
#: either is refused on AVR by an #error saying so (``_on_avr``).
AVR_LARGEST_ARRAY = 32_767
AVR_NEAR_FLASH = 65_536

#: The prefix of an export's names unless ``--prefix`` gives another: ttt_outcome, TTT_CELLS,
#: TICTACTOE_BOOK_H. With prefix ``mis``: mis_outcome, MIS_CELLS, MIS_TICTACTOE_BOOK_H.
DEFAULT_PREFIX = "ttt"

#: A prefix: lower-case letters and digits, a letter first, words joined by single underscores
#: (no leading or trailing underscore, which would make names C reserves, such as ``__x``).
PREFIX = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")

#: Where the ranking's literal goes while the names are prefixed (a literal is data, and a book
#: may name its ranking anything, "ttt_" included); c_string never writes a NUL.
_AGAINST = "\0against\0"


def check_prefix(prefix: str) -> str:
    """``prefix`` if names can start with it (``PREFIX``), else ValueError saying why."""
    if not PREFIX.fullmatch(prefix):
        raise ValueError(
            f"{prefix!r} cannot start C names: use lower-case letters, digits and single underscores, "
            "a letter first (mis gives mis_outcome, MIS_CELLS)"
        )
    return prefix


def prefixed(text: str, prefix: str) -> str:
    """``text`` with every name the templates start with ttt_, TTT_ or TICTACTOE_ (functions,
    tables, macros, include guards, implementation macros) started with ``prefix`` instead, so
    that exports with different prefixes link into one program and their headers are included
    into one file."""
    if prefix == DEFAULT_PREFIX:
        return text
    upper = prefix.upper()
    text = re.sub(r"\bttt_", f"{prefix}_", text)
    text = re.sub(r"\bTTT_", f"{upper}_", text)
    return re.sub(r"\bTICTACTOE_", f"{upper}_TICTACTOE_", text)


def strategy_names(side: str) -> tuple[str, str]:
    """The header and source file names of a strategy export for ``side``."""
    stem = f"tictactoe_{side.lower()}"
    return f"{stem}.h", f"{stem}.c"


def implementation_macro(header: str, prefix: str = DEFAULT_PREFIX) -> str:
    """The macro a single header's one implementing file defines: ``TICTACTOE_BOOK_IMPLEMENTATION``
    for ``tictactoe_book.h`` (``MIS_TICTACTOE_BOOK_IMPLEMENTATION`` with prefix ``mis``)."""
    return prefixed(header.removesuffix(".h").upper() + "_IMPLEMENTATION", prefix)


def _command(arguments: str, prefix: str, single_header: bool) -> str:
    """The command that writes an export, for its first comment."""
    command = "ttt-book export --lang c" + arguments
    command += "" if prefix == DEFAULT_PREFIX else f" --prefix {prefix}"
    return command + (" --single-header" if single_header else "")


def c_book(table: FullTable, *, single_header: bool = False, prefix: str = DEFAULT_PREFIX) -> dict[str, str]:
    """``{file name: text}`` of the full export: a header and a source, or a single header, its
    names starting with ``prefix`` (``prefixed``)."""
    rules = table.rules
    command = _command("", check_prefix(prefix), single_header)
    header = fill(
        "book.h",
        header=BOOK_HEADER,
        command=command,
        rules=describe_rules(rules),
        count=len(table.keys),
        against=_AGAINST,
        against_words=describe_against(table.against),
        rules_macros=_rules_macros(rules),
        shared_macros=_shared_macros(),
        undefine_shared="\n".join(f"#undef ttt_{name}" for name in SHARED),
        state_declarations=fill("state.h", api="ttt_"),
    )
    implementation = fill(
        "book.c",
        **_shared(rules, "TTT_ENTRIES", "ttt_"),
        keys=wrapped(table.keys),
        bests=wrapped(table.bests),
        tops=wrapped(table.tops),
        horizons=", ".join(str(HORIZON.get(level, 0)) for level in LEVELS),
    )
    count = len(table.keys)
    implementation = _on_avr(
        implementation,
        f"the {rules} book",
        {
            "ttt_keys": count * key_bits(rules) // 8,
            "ttt_bests": count,
            "ttt_tops": 2 * count,
            **_rule_tables(rules),
        },
        "for a microcontroller, export one side's play instead: ttt-book export --lang c --strategy X (or O)",
    )
    files = _put_together(BOOK_HEADER, BOOK_SOURCE, command, header, implementation, single_header)
    return _named(files, prefix, table.against)


def c_strategy(
    table: StrategyTable, *, single_header: bool = False, prefix: str = DEFAULT_PREFIX
) -> dict[str, str]:
    """``{file name: text}`` of a strategy export for ``table.side``: a header and a source, or
    a single header, its names starting with ``prefix`` (``prefixed``)."""
    rules, side = table.rules, table.side
    header_name, source_name = strategy_names(side)
    command = _command(f" --strategy {side}", check_prefix(prefix), single_header)
    header = fill(
        "strategy.h",
        header=header_name,
        command=command,
        side=side,
        lower=side.lower(),
        rules=describe_rules(rules),
        role="moving first" if side == "X" else "moving second",
        count=len(table.keys),
        guard=f"TICTACTOE_{side}_H",
        against=_AGAINST,
        against_words=describe_against(table.against),
        rules_macros=_rules_macros(rules),
        shared_macros=_shared_macros(),
        aliases=_aliases(f"ttt_{side.lower()}_"),
        state_declarations=fill("state.h", api=f"ttt_{side.lower()}_"),
    )
    implementation = fill(
        "strategy.c",
        side=side,
        lower=side.lower(),
        **_shared(rules, f"TTT_{side}_POSITIONS", f"ttt_{side.lower()}_"),
        keys=wrapped(table.keys),
        moves=wrapped(packed_moves(table.moves)),
    )
    count = len(table.keys)
    implementation = _on_avr(
        implementation,
        f"the {rules} strategy for {side}",
        {"ttt_keys": count * key_bits(rules) // 8, "ttt_moves": (count + 1) // 2, **_rule_tables(rules)},
        "an AVR cannot hold it: play a smaller board",
    )
    files = _put_together(header_name, source_name, command, header, implementation, single_header)
    return _named(files, prefix, table.against)


def _rule_tables(rules: Rules) -> dict[str, int]:
    """The bytes of the rules' tables every export holds: the symmetries and the lines."""
    return {"ttt_perms": len(rules.symmetries) * rules.cells, "ttt_lines": len(rules.lines) * rules.k}


def _on_avr(implementation: str, what: str, tables: dict[str, int], instead: str) -> str:
    """``implementation`` as it is when its ``tables`` (bytes by name) fit what AVR holds
    (AVR_LARGEST_ARRAY, AVR_NEAR_FLASH); else behind an ``#error`` on AVR, one line saying why
    and what to do ``instead``, which stands in for the compiler's own errors (``size of array
    'ttt_keys' is too large``). Other targets compile it as it is."""
    largest = max(tables, key=lambda name: tables[name])
    total = sum(tables.values())
    if tables[largest] <= AVR_LARGEST_ARRAY and total <= AVR_NEAR_FLASH:
        return implementation
    message = (
        f"{what} has {total:,} B of tables ({largest} alone {tables[largest]:,} B), more than AVR holds "
        f"({AVR_LARGEST_ARRAY:,} B an array, {AVR_NEAR_FLASH // 1024} KB of flash for pgm_read_*): {instead}"
    )
    return f'#if defined(__AVR__)\n#error "{message}"\n#else\n{implementation}#endif\n'


def _named(files: dict[str, str], prefix: str, against: str) -> dict[str, str]:
    """``files`` with their names prefixed and the ranking's literal in its place."""
    literal = c_string(against)
    return {name: prefixed(text, prefix).replace(_AGAINST, literal) for name, text in files.items()}


def _put_together(
    header_name: str, source_name: str, command: str, header: str, implementation: str, single_header: bool
) -> dict[str, str]:
    """The header and the source that includes it, or one header holding both."""
    if single_header:
        single = fill(
            "single.h",
            header=header_name,
            command=command,
            macro=implementation_macro(header_name),
            declarations=header,
            implementation=implementation,
        )
        return {header_name: single}
    source = fill(
        "source.c", source=source_name, header=header_name, command=command, implementation=implementation
    )
    return {header_name: header, source_name: source}


def _shared(rules: Rules, count: str, api: str) -> dict[str, object]:
    """The pieces every source shares: reading the tables, the rules' tables, the board's
    checks and canonical form, the search of the sorted keys (``count`` of them), and the game
    state's functions, named ``api`` + ``play``, ...."""
    perms = "\n".join(f"    {{{', '.join(map(str, s.perm))}}}, /* {s.name} */" for s in rules.symmetries)
    lines = "\n".join(f"    {{{', '.join(map(str, line))}}}," for line in rules.lines)
    bits = key_bits(rules)
    return {
        "key_bits": bits,
        "flash_macros": fill("flash.c"),
        "rule_tables": fill(
            "rules.c",
            symmetries=len(rules.symmetries),
            line_count=len(rules.lines),
            perms=perms,
            lines=lines,
            win_score=win_score(rules),
        ),
        "board_functions": fill("board.c", read_key="TTT_READ_U16" if bits == 16 else "TTT_READ_U32"),
        "lookup_function": fill("lookup.c", keys="ttt_keys", count=count),
        "state_functions": fill(
            "state.c",
            api=api,
            error_names=_error_names(),
            name_size=max(len(code) for _, code, _ in ERRORS) + 1,
        ),
    }


def _error_names() -> str:
    """The initializer of ``ttt_error_names``, its semicolon included: each error's name and its
    NUL, in the order of the codes, as adjacent literals (so that no octal escape runs into a
    name)."""
    last = len(ERRORS) - 1
    return "\n".join(
        f'    "{code}\\0"{";" if i == last else ""} /* TTT_ERR_{name} */'
        for i, (name, code, _) in enumerate(ERRORS)
    )


def grid_size(rules: Rules) -> int:
    """The bytes of ``ttt_grid``'s text with its NUL (every board's grid is as long): ``rows``
    rows of " " and ``cols`` cells of the width of the largest number joined by " | ", and
    between rows a rule of ``width + 2`` dashes a column joined by "+", with a newline either
    side (tictactoe_book.notation.grid)."""
    width = len(str(rules.cells))
    row = 1 + rules.cols * width + 3 * (rules.cols - 1)
    rule = rules.cols * (width + 2) + rules.cols - 1
    return rules.rows * row + (rules.rows - 1) * (rule + 2) + 1


def _rules_macros(rules: Rules) -> str:
    return "\n".join(
        [
            f"#define TTT_ROWS {rules.rows}",
            f"#define TTT_COLS {rules.cols}",
            f"#define TTT_K {rules.k}",
            f"#define TTT_CELLS {rules.cells}",
            f"#define TTT_MISERE {int(rules.misere)}",
            "/* The bytes ttt_grid writes for any board, its NUL included: char grid[TTT_GRID_SIZE]. */",
            f"#define TTT_GRID_SIZE {grid_size(rules)}",
        ]
    )


def _shared_macros() -> str:
    """The error codes, the outcomes and the levels, guarded so that a full export and strategy
    exports can be included together (their values are the same in every export)."""
    lines = ["/* Errors, negative, in the order they are checked. */", "#ifndef TTT_ERR_LENGTH"]
    for number, (name, _, meaning) in enumerate(ERRORS, start=1):
        lines.append(f"#define TTT_ERR_{name} (-{number}) /* {meaning} */")
    lines += ["#endif", "", "/* How a game stands (ttt_outcome). */", "#ifndef TTT_IN_PROGRESS"]
    for number, (name, meaning) in enumerate(OUTCOMES):
        lines.append(f"#define TTT_{name} {number} /* {meaning} */")
    lines += ["#endif", "", "/* The levels, strongest first (ttt_candidates, ttt_choose). */"]
    lines.append("#ifndef TTT_LEVELS")
    for number, level in enumerate(LEVELS):
        lines.append(f"#define TTT_{level.upper()} {number}")
    lines += [f"#define TTT_LEVELS {len(LEVELS)}", "#endif"]
    return "\n".join(lines) + "\n"


def _aliases(api: str) -> str:
    """A strategy header's macros giving its functions the names every export shares, unless
    the full book's header or another strategy's gave them first."""
    lines = ["#if !defined(TICTACTOE_BOOK_H) && !defined(ttt_play)"]
    lines += [f"#define ttt_{name} {api}{name}" for name in SHARED]
    return "\n".join([*lines, "#endif"])
