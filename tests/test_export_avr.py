"""The C exports on a microcontroller (issue 40, item 3), compiled by avr-gcc for an ATmega328P
(``-Os``, as an Arduino Uno's sketch is) and run in simavr. ``make test-exports`` runs this file
and installs gcc-avr, avr-libc and simavr first when it runs as root (tests/exports/setup-avr.sh);
without avr-gcc (or simavr, for the one test that runs a program) the tests skip, saying so.

* The error names stay in flash: avr-gcc copies every string literal into RAM at start-up, and
  the names were 78 bytes of literals (82 with the canonical key's ".OX", 101 with the pointer
  table of ttt_error_name's switch). The exports' objects now have nothing that goes to RAM at
  start-up (``avr-size -A``: no .rodata, an empty .data) but the buffer ttt_error_name copies the
  name asked for into (.bss, the longest name and its NUL); a program linked with the full book
  holds no error name in its .data, and every one in its flash.
* tests/exports/avr_player.c, the 3x3 book playing itself at every level, prints the same lines
  in simavr as compiled for the host: the same games from the same seeds, the same error names
  (Python's board reasons among them), and perfect play draws, as the Python book says it must.
* The 3x4 full export, whose tables (140 KB) no AVR array holds, is refused on AVR by one line,
  its #error, which says why and what to do (export one side's play), instead of avr-gcc's
  "size of array 'ttt_keys' is too large"; its strategies compile, as the 3x3 exports do.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from c_build import DRIVERS, STRICT_C
from test_exports import write

from tictactoe_book import load_book
from tictactoe_book.errors import BOARD_REASONS
from tictactoe_generator.export.c import c_book, c_strategy, strategy_names
from tictactoe_generator.export.tables import full_table, strategy_table

pytestmark = pytest.mark.exports

MCU = "atmega328p"
AVR_C = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-Os"]
INSTALL = "apt-get install gcc-avr avr-libc simavr (make test-exports does when run as root)"


def avr_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed, so the AVR build is not tried: {INSTALL}")
    return found


def avr_compile(folder: Path, sources: list[Path], out: str, *flags: str, mcu: str = MCU) -> Path:
    """``sources`` compiled by avr-gcc (warnings as errors), ``folder`` on the include path."""
    target = folder / out
    subprocess.run(
        [avr_tool("avr-gcc"), *AVR_C, f"-mmcu={mcu}", *flags, "-I", str(folder), "-o", str(target)]
        + [str(source) for source in sources],
        check=True,
        capture_output=True,
        text=True,
    )
    return target


def sections(file: Path) -> dict[str, int]:
    """``avr-size -A``: each section's size, by name."""
    found = {}
    out = subprocess.run([avr_tool("avr-size"), "-A", str(file)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            found[parts[0]] = int(parts[1])
    return found


def section_bytes(elf: Path, name: str) -> bytes:
    """The bytes of section ``name`` of a linked program (what the loader puts in flash, or
    copies into RAM for .data)."""
    binary = elf.parent / f"{elf.stem}{name}.bin"
    subprocess.run([avr_tool("avr-objcopy"), "-O", "binary", "-j", name, str(elf), str(binary)], check=True)
    return binary.read_bytes()


def host_lines(folder: Path) -> list[str]:
    """tests/exports/avr_player.c compiled by gcc for this machine, run: its lines."""
    program = folder / "host_player"
    sources = [str(DRIVERS / "avr_player.c"), str(folder / "tictactoe_book.c")]
    subprocess.run([*STRICT_C, "-I", str(folder), "-o", str(program), *sources], check=True)
    done = subprocess.run([str(program)], capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.splitlines()


def error_names(lines: list[str]) -> list[str]:
    """The names avr_player.c prints for the codes 1, 0, -1, ..., -12."""
    assert lines[0].startswith("names=")
    return lines[0].removeprefix("names=").split("|")[:-1]


@pytest.fixture(scope="module")
def full_3x3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("avr"), c_book(full_table(load_book())))


def test_the_host_player_names_every_error_as_python_does(full_3x3: Path) -> None:
    names = error_names(host_lines(full_3x3))
    assert len(names) == 14
    # 1 and 0 are no error; -1 to -5 the board's, Python's reasons in order; then the C export's
    # own six, and "" past them
    assert names[:2] == ["", ""] and names[2:7] == list(BOARD_REASONS) and names[-1] == ""
    assert names[7:13] == ["turn", "not-in-table", "illegal-move", "level", "not-a-number", "size"]


def exports_3x3_and_3x4(folder: Path, book_3x4_path: Path) -> list[tuple[Path, str]]:
    """(folder, its .c file) of the 3x3 full export and of each strategy, 3x3 and 3x4."""
    found = [(folder, "tictactoe_book.c")]
    for board, book in (("3x3", load_book()), ("3x4", load_book(book_3x4_path))):
        for side in ("X", "O"):
            written = write(folder / f"{board}-{side}", c_strategy(strategy_table(book, side)))
            found.append((written, strategy_names(side)[1]))
    return found


def test_no_export_puts_anything_in_ram_at_start_up(full_3x3: Path, book_3x4_path: Path) -> None:
    """Each export's object: no .rodata (a string literal's section, which avr-gcc's linker
    script copies into RAM with .data), an empty .data, and in .bss only the copy of the name
    ttt_error_name is asked for: the longest name and its NUL."""
    longest = max(len(name) for name in error_names(host_lines(full_3x3)))
    for folder, source in exports_3x3_and_3x4(full_3x3, book_3x4_path):
        found = sections(avr_compile(folder, [folder / source], "export.o", "-c"))
        in_ram = {name: size for name, size in found.items() if name.startswith((".data", ".rodata", ".bss"))}
        assert in_ram == {".data": 0, ".bss": longest + 1}, (source, found)
        assert found[".progmem.data"] > 0, found  # the tables, in flash


def test_a_program_keeps_the_error_names_in_flash(full_3x3: Path) -> None:
    """avr_player.c linked with the full book, as avr-size shows it: no error name in the bytes
    copied into RAM (.data holds the program's own strings only), each one in flash."""
    elf = avr_compile(full_3x3, [DRIVERS / "avr_player.c", full_3x3 / "tictactoe_book.c"], "player.elf")
    data, flash = section_bytes(elf, ".data"), section_bytes(elf, ".text")
    names = [name for name in error_names(host_lines(full_3x3)) if name]
    assert len(names) == 11
    assert [name for name in names if name.encode() in data] == [], data
    assert [name for name in names if name.encode() + b"\0" not in flash] == []
    assert b"names=" in data  # the program's own literals are there, so the search can find one
    assert len(data) == sections(elf)[".data"] < 32


def simavr_lines(elf: Path) -> list[str]:
    """What ``elf`` writes to the UART in simavr: its lines, as simavr prints them to stderr (in
    green, a newline shown as '.'), without simavr's own."""
    done = subprocess.run(
        [avr_tool("simavr"), "-m", MCU, "-f", "16000000", str(elf)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stderr)
    return [line[:-1] for line in plain.splitlines() if line.endswith("|.")]


def test_the_3x3_player_plays_the_same_games_in_simavr(full_3x3: Path) -> None:
    """The book against itself at each level from eight seeds, and the error names, on the
    simulated ATmega328P and on the host: the same lines; every perfect game is drawn (the
    Python book's value of the empty board)."""
    elf = avr_compile(full_3x3, [DRIVERS / "avr_player.c", full_3x3 / "tictactoe_book.c"], "player.elf")
    host = host_lines(full_3x3)
    assert len(host) == 1 + 4 * 8
    assert simavr_lines(elf) == host
    assert load_book().evaluate("." * 9).value == 0
    draw = "3"  # TTT_DRAW
    assert [line.split()[3] for line in host[1:9]] == [draw] * 8  # level 0: perfect


@pytest.fixture(scope="module")
def full_3x4(tmp_path_factory: pytest.TempPathFactory, book_3x4_path: Path) -> tuple[Path, int]:
    """The 3x4 full export, and its book's number of entries."""
    book = load_book(book_3x4_path)
    return write(tmp_path_factory.mktemp("avr3x4"), c_book(full_table(book))), len(book)


def avr_errors(folder: Path, source: Path, *flags: str) -> list[str]:
    """The error lines avr-gcc gives for ``source`` (it must refuse it), for an ATmega2560."""
    compiler = [avr_tool("avr-gcc"), *AVR_C, "-mmcu=atmega2560", *flags, "-I", str(folder)]
    done = subprocess.run(
        [*compiler, "-c", str(source), "-o", str(folder / "refused.o")],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    return [line for line in done.stderr.splitlines() if " error: " in line]


def test_the_3x4_book_is_refused_on_avr_in_one_line(full_3x4: tuple[Path, int]) -> None:
    """One error, the export's #error: how big the tables are and the largest, what AVR holds,
    and what to do instead (the strategies, which compile: the test above)."""
    folder, entries = full_3x4
    (line,) = avr_errors(folder, folder / "tictactoe_book.c")
    assert "#error" in line and "too large" not in line
    assert f"(ttt_keys alone {4 * entries:,} B)" in line  # 32-bit keys
    assert "32,767 B an array" in line and line.endswith('ttt-book export --lang c --strategy X (or O)"')
    # without the guard (__AVR__ undefined: plain arrays, no PROGMEM), avr-gcc's own refusal
    unguarded = avr_errors(folder, folder / "tictactoe_book.c", "-U__AVR__")
    assert any("size of array" in line and "is too large" in line for line in unguarded), unguarded


def test_the_3x4_single_header_is_refused_where_it_is_implemented(
    book_3x4_path: Path, tmp_path: Path
) -> None:
    """The single header: a file that only includes it compiles for AVR; the one that defines
    TICTACTOE_BOOK_IMPLEMENTATION gets the #error, alone."""
    folder = write(tmp_path, c_book(full_table(load_book(book_3x4_path)), single_header=True))
    (folder / "uses.c").write_text('#include "tictactoe_book.h"\nint cells(void) { return TTT_CELLS; }\n')
    implementing = '#define TICTACTOE_BOOK_IMPLEMENTATION\n#include "tictactoe_book.h"\n'
    (folder / "implements.c").write_text(implementing)
    avr_compile(folder, [folder / "uses.c"], "uses.o", "-c", mcu="atmega2560")
    (line,) = avr_errors(folder, folder / "implements.c")
    assert "#error" in line and "--strategy X (or O)" in line
