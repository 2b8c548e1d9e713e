"""``ttt-book verify``: prove a book exactly as every reader does, then check what validity
does not decide, against a fresh solve.

Validity (docs/book-format.md, "A valid book") is the player's own proof, with the same reason
codes: this module calls it rather than re-implementing it, and records a proven book larger
than 1 MB as ``load_book`` does (player/tictactoe_book/trust.py). Beyond validity it re-solves the rules and
compares what a valid book may still get wrong or leave stale: the trap order of every entry,
the informational members (``counts``, ``trap_order``, ``trap_rates``, symmetry names), and
whether the bytes are exactly what ``ttt-book build`` writes. A book ranked against a program
(``build --against-program``) is checked for all but the order of its top tiers, which only
the program could repeat (generator/tictactoe_generator/reports/target.py, ``differences``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tictactoe_book.trust as trust
from tictactoe_book.errors import BookError, BuildToolMissing
from tictactoe_book.opponents import OPPONENTS
from tictactoe_book.parts import is_book_by_parts, load_parts
from tictactoe_book.parts_proof import prove_parts
from tictactoe_book.reader import (
    MAX_BOOK_CELLS,
    Book,
    default_book_path,
    parse_entry,
    parse_json,
    prove,
    read_book_bytes,
)
from tictactoe_generator import build_tools

if TYPE_CHECKING:
    from tictactoe_book.book_format import Progress
    from tictactoe_generator.engines import Engine


@dataclass
class Report:
    """What verification found about the book at ``path``.

    ``invalid`` is the BookError when the book fails validity (nothing else is checked then);
    ``differences`` lists what a valid book gets wrong beyond validity; ``skipped`` says why
    the checks beyond validity did not run, if they did not.
    """

    path: str
    invalid: BookError | None = None
    differences: list[str] = field(default_factory=list)
    entries: int = 0
    skipped: str | None = None
    #: what could not be checked beyond validity, the rest having been (a program's ranking)
    unrepeatable: str | None = None

    @property
    def valid(self) -> bool:
        return self.invalid is None

    @property
    def ok(self) -> bool:
        """Valid, and exactly what a fresh build writes (as far as it was checked)."""
        return self.valid and not self.differences


def verify_book(
    path: str | os.PathLike[str] | None = None,
    *,
    progress: Progress | None = None,
    engine: Engine | None = None,
) -> Report:
    """Prove the book at ``path`` (default: the packaged one), then compare it with a fresh
    build. The proof always runs: no record (the packaged book's CRC-32, the machine's SHA-256)
    is trusted. Raises BookError only when the file cannot be read at all (code ``unreadable``).
    ``progress`` is told how far the reading and the proof have gone, as ``load_book`` tells it.
    ``engine``, for a book by parts: where its proof and its fresh build run (``verify_parts``)."""
    where = os.fspath(path) if path is not None else default_book_path()
    if path is not None and is_book_by_parts(where):  # docs/book-parts.md: the proof by parts
        return verify_parts(where, progress=progress, engine=engine)
    report = Report(where)
    try:
        raw = read_book_bytes(where)  # BookError "unreadable" goes to the caller
        if progress is not None:
            progress("read", 0, len(raw))
        data = parse_json(raw, where)
        rules = prove(data, where, None, progress=progress)
    except BookError as error:
        if error.code == "unreadable":
            raise
        report.invalid = error
        return report
    trust.remember(raw)
    report.entries = len(data["entries"])
    try:
        writer = build_tools()
    except BuildToolMissing as error:
        report.skipped = f"{error}; only validity was checked"
        return report
    # what ``ttt-book build`` writes, misère too, ranked against the opponent the book names
    book = Book(rules, data, where, trust="proven")
    if book.against not in OPPONENTS:  # ranked against a program: all but its order
        from tictactoe_generator.reports.target import differences

        report.differences.extend(differences(book, raw, writer.build_book(rules)))
        report.unrepeatable = (
            f"its top tiers, ranked against {_short(book.against)}, cannot be rebuilt: a build never "
            "runs the command a book names"
        )
        return report
    expected = writer.build_book(rules, against=book.against)
    report.differences.extend(_beyond_validity(data, expected, writer.encode(expected), raw))
    return report


def verify_parts(where: str, *, progress: Progress | None = None, engine: Engine | None = None) -> Report:
    """``ttt-book verify FOLDER``: the proof by parts, then (with the build extra) every file
    compared with a fresh build's. Raises BookError only when the manifest cannot be read.

    On ``engine`` (``tictactoe_generator.cluster.DaskEngine``) the proof on arrays
    (``prove_by_layers``) and the build by layers run there, whatever the board, in a work
    folder beside the book's folder, which its workers share."""
    from tictactoe_generator.layered import work_folder

    report = Report(where)
    near = Path(where).resolve().parent  # the work folders of a cluster, which its workers share
    try:
        large = load_parts(where).rules.cells > MAX_BOOK_CELLS
        if large or engine is not None:  # (the player's proof holds 3 ** cells bytes: on arrays)
            build_tools()
            from tictactoe_generator.layer_proof import prove_by_layers

            with work_folder(near) as work:
                book = prove_by_layers(
                    where, progress=progress, engine=None if engine is None else (engine, work)
                )
        else:
            book = prove_parts(where, progress=progress)
    except BookError as error:
        if error.code == "unreadable":
            raise
        report.invalid = error
        return report
    report.entries = len(book.texts)
    if large:
        report.skipped = (
            f"a fresh build of {book.rules} takes about as long as the first and more memory than the proof: "
            f"ttt-book build --rules {book.rules.spelling} --parts -o FOLDER, then compare the folders"
        )
        return report
    if book.against not in OPPONENTS:
        report.skipped = f"ranked against {book.against!r}: a build never runs the command a book names"
        return report
    try:
        build_tools()
    except BuildToolMissing as error:
        report.skipped = f"{error}; only validity was checked"
        return report
    from tictactoe_generator.engines import LOCAL
    from tictactoe_generator.layered import build_by_layers

    with work_folder(None if engine is None else near) as work:  # (shared with the workers)
        built = build_by_layers(book.rules, work, against=book.against, engine=engine or LOCAL)
    folder = book.texts.folder
    for name, data in built.items():
        path = os.path.join(folder, name)
        if not os.path.isfile(path) or read_book_bytes(path) != data:
            report.differences.append(f"{name} is not exactly what a build writes")
    return report


def _beyond_validity(data: dict[str, Any], expected: dict[str, Any], built: bytes, raw: bytes) -> list[str]:
    """What a valid book can still differ in: trap order, informational members, the bytes."""
    found: list[str] = []
    cells = expected["rules"]["cells"]
    for key, text in sorted(expected["entries"].items()):
        if data["entries"][key] == text:
            continue
        tiers, wanted = (parse_entry(t, cells)[1] for t in (data["entries"][key], text))
        if tiers != wanted:  # (valid, so the same best score; "-0" for "0" is left to the bytes)
            found.append(f"entry {key!r} tiers {_short(tiers)}, in trap order {_short(wanted)}")
    for member in ("counts", "trap_order", "trap_rates"):
        if data.get(member) != expected[member]:
            found.append(f"{member} {_short(data.get(member))} should be {_short(expected[member])}")
    names = [item.get("name") for item in data["symmetries"]]
    if names != [item["name"] for item in expected["symmetries"]]:
        found.append(f"symmetry names {_short(names)} are not the usual ones")
    if not found and raw != built:
        found.append("the bytes are not exactly what `ttt-book build` writes (order, spacing, members)")
    return found


def _short(value: Any, limit: int = 80) -> str:
    import json

    text = json.dumps(value, sort_keys=True, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render(report: Report, max_differences: int = 10) -> str:
    """One book's verdict as ``ttt-book verify`` prints it, and (at most ``max_differences`` of)
    the differences beyond validity."""
    if report.invalid is not None:
        return f"{report.path}: INVALID [{report.invalid.code}] {report.invalid.reason}"
    proved = f"{report.path}: valid — every one of {report.entries:,} entries proven from its successors"
    if report.skipped is not None:
        return f"{proved}; beyond validity: not checked ({report.skipped})"
    if report.ok and report.unrepeatable is not None:
        checked = "counts, trap_rates against novice and random, and bytes as built"
        return f"{proved}; beyond validity: {checked}; not checked: {report.unrepeatable}"
    if report.ok:
        return f"{proved}; beyond validity: trap order, counts, trap_rates and bytes as built"
    shown = report.differences[:max_differences]
    more = len(report.differences) - len(shown)
    head = f"{proved}; beyond validity: {len(report.differences)} difference(s) from a fresh build"
    return "\n".join(
        [head + (f", the first {len(shown)}:" if more else ":"), *(f"  {line}" for line in shown)]
    )
