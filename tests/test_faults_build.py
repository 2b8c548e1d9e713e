"""``ttt-book build`` against a hostile file system: every output is one transaction.

Each case runs the command as a real process (tiny 2x3 rules keep a build at a few
hundredths of a second, through the same write path as the real book) and checks: the
documented status, one line naming the file that failed, no traceback, the old files byte for
byte and mode for mode, and no temporary file left.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from faultkit import (
    BOOK_CLI,
    EIO_ON_SECOND_RENAME,
    ENOSPC_ON_SECOND_TEMPORARY,
    PLAY,
    ROOT,
    assert_one_line,
    assert_usage_error,
    make_char_device,
    read_only,
    run,
    small_file_system,
    snapshot,
    temporaries,
    text,
)

from tictactoe_book import Rules
from tictactoe_book.errors import OutputError
from tictactoe_generator import atomic
from tictactoe_generator.atomic import write_files
from tictactoe_generator.build import write_book

TINY = ["--rules", "2x3:2"]
OLD_BOOK, OLD_VECTORS = b"old book\n", b"old vectors\n"


def build(
    folder: Path, *args: str, preamble: str = "", **kwargs: object
) -> subprocess.CompletedProcess[bytes]:
    return run(BOOK_CLI, "build", *args, preamble=preamble, cwd=folder, **kwargs)  # type: ignore[arg-type]


def old_pair(folder: Path) -> dict[str, tuple[bytes | str, int]]:
    (folder / "b.json").write_bytes(OLD_BOOK)
    (folder / "v.json").write_bytes(OLD_VECTORS)
    return snapshot(folder)


# ---------------------------------------------------------------- full, read-only, failing


def test_a_read_only_folder_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    before = old_pair(tmp_path)
    with read_only(tmp_path):
        process = build(tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json")
    assert_one_line(process, 4, "cannot write b.json")
    assert snapshot(tmp_path) == before


def test_a_full_file_system_on_the_second_file_changes_nothing() -> None:
    # A real 64 KiB tmpfs: the 2x3 book (2 KiB) fits, its vectors (100 KiB) do not.
    with small_file_system("64k") as folder:
        before = old_pair(folder)
        process = build(folder, *TINY, "-o", "b.json", "--vectors", "v.json")
        assert_one_line(process, 4, "cannot write v.json", "No space left on device")
        assert snapshot(folder) == before


def test_an_injected_enospc_on_the_second_file_changes_nothing(tmp_path: Path) -> None:
    before = old_pair(tmp_path)
    process = build(
        tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json", preamble=ENOSPC_ON_SECOND_TEMPORARY
    )
    assert_one_line(process, 4, "cannot write v.json", "No space left on device")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("book_existed", [True, False], ids=["replacing", "creating"])
def test_a_failed_second_rename_rolls_the_first_back(tmp_path: Path, book_existed: bool) -> None:
    before = old_pair(tmp_path)
    if not book_existed:
        (tmp_path / "b.json").unlink()
        before = snapshot(tmp_path)
    process = build(tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json", preamble=EIO_ON_SECOND_RENAME)
    assert_one_line(process, 4, "cannot write v.json")
    assert snapshot(tmp_path) == before


class Boom(RuntimeError):
    pass


def test_any_exception_mid_write_leaves_the_old_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book, vectors = tmp_path / "tictactoe.json", tmp_path / "vectors.json"
    book.write_bytes(b"old book")
    vectors.write_bytes(b"old vectors")
    before = snapshot(tmp_path)

    def failing_fsync(fd: int) -> None:
        raise Boom("disk full, part-way through")

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    with pytest.raises(Boom):
        write_book(book, Rules(2, 3, 2), vectors)
    assert snapshot(tmp_path) == before


def test_an_interrupt_between_the_renames_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").write_bytes(b"old a")
    before = snapshot(tmp_path)
    real_replace = os.replace
    calls: list[str] = []

    def replace_then_interrupt(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_files({tmp_path / "a": b"new a", tmp_path / "b": b"new b"})
    monkeypatch.undo()
    assert snapshot(tmp_path) == before


def test_the_library_delivers_ctrl_c_during_the_renames_once_they_are_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real SIGINT after the first of two renames: the second still happens, then the caller
    # gets its KeyboardInterrupt, with both files new (before: "a" rolled back, "b" missing).
    (tmp_path / "a").write_bytes(b"old a")
    real_replace = os.replace

    def replace_then_ctrl_c(src: str, dst: str) -> None:
        real_replace(src, dst)
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        monkeypatch.setattr(atomic.os, "replace", replace_then_ctrl_c)
        with pytest.raises(KeyboardInterrupt):
            write_files({tmp_path / "a": b"new a", tmp_path / "b": b"new b"})
        monkeypatch.undo()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert {name: data for name, (data, _) in snapshot(tmp_path).items()} == {"a": b"new a", "b": b"new b"}


# ---------------------------------------------------------------- Ctrl-C and the renames

# Injections that press Ctrl-C (a real SIGINT, to the process itself) at one moment of a write.
SIGINT_WRITING_A_TEMPORARY = """
import os, signal
_fsync = os.fsync
def _fsync_(fd):
    os.kill(os.getpid(), signal.SIGINT)
    return _fsync(fd)
os.fsync = _fsync_
"""
SIGINT_SYNCING_THE_FOLDER = """
import os, signal, stat
_fsync = os.fsync
def _fsync_(fd):
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.kill(os.getpid(), signal.SIGINT)
    return _fsync(fd)
os.fsync = _fsync_
"""


def sigint_after_rename(count: int) -> str:
    """Ctrl-C as soon as the ``count``-th temporary has been renamed onto its target."""
    return f"""
import os, signal
_replace, _renames = os.replace, []
def _replace_(src, dst, **kwargs):
    _replace(src, dst, **kwargs)
    if ".ttt-tmp-" in os.fspath(src):
        _renames.append(dst)
        if len(_renames) == {count}:
            os.kill(os.getpid(), signal.SIGINT)
os.replace = _replace_
"""


BUILD_PAIR = ["build", *TINY, "-o", "b.json", "--vectors", "v.json"]
# name: (arguments, the injection); each command's last rename puts its output in place
INTERRUPTED_ONCE_WRITTEN: dict[str, tuple[list[str], str]] = {
    "build-last-rename": (BUILD_PAIR, sigint_after_rename(2)),
    "build-folder-sync": (BUILD_PAIR, SIGINT_SYNCING_THE_FOLDER),
    "poster": (["poster", "--side", "X", "-o", "b.json"], sigint_after_rename(1)),
    "export": (["export", "--lang", "c", "-o", "."], sigint_after_rename(2)),
    "levels-update": (["levels", "--update", "b.json"], sigint_after_rename(1)),
}


def readme_pair(folder: Path) -> dict[str, tuple[bytes | str, int]]:
    """The old pair, its book a README with the levels table's markers (for levels --update)."""
    (folder / "b.json").write_bytes(KEEP)
    (folder / "v.json").write_bytes(OLD_VECTORS)
    return snapshot(folder)


@pytest.mark.parametrize("name", sorted(INTERRUPTED_ONCE_WRITTEN))
def test_ctrl_c_once_the_files_are_in_place_is_not_a_failure(tmp_path: Path, name: str) -> None:
    # Before, the build was complete and in place and yet said "Interrupted." with status 130
    # (and Ctrl-C right after the last rename rolled the first file back: an old book beside
    # new vectors). Now the command finishes as if it had not come: its report, status 0.
    args, injection = INTERRUPTED_ONCE_WRITTEN[name]
    expected, interrupted = tmp_path / "expected", tmp_path / "interrupted"
    for folder, preamble in ((expected, ""), (interrupted, injection)):
        folder.mkdir()
        readme_pair(folder)
        process = run(BOOK_CLI, *args, preamble=preamble, cwd=folder)
        assert process.returncode == 0, (folder.name, text(process.stdout), text(process.stderr))
        assert text(process.stderr) == ""
        report = re.sub(r"in [0-9.]+ s$", "in T s", text(process.stdout), flags=re.MULTILINE)
        if folder == expected:
            expected_report = report
    assert report == expected_report and report.strip()
    assert snapshot(interrupted) == snapshot(expected) != readme_pair(tmp_path)


def test_ctrl_c_before_the_renames_changes_nothing(tmp_path: Path) -> None:
    before = old_pair(tmp_path)
    process = run(BOOK_CLI, *BUILD_PAIR, preamble=SIGINT_WRITING_A_TEMPORARY, cwd=tmp_path)
    assert_one_line(process, 130, "Interrupted.")
    assert text(process.stdout) == ""
    assert snapshot(tmp_path) == before


def at_call(function: str, condition: str, count: int, action: str) -> str:
    """An injection: ``action`` (a statement) run as the ``count``-th call of ``os.function``
    whose arguments (``args``) meet ``condition`` returns or fails."""
    return f"""
import os, stat
_real_{function}, _calls_{function} = os.{function}, []
def _at_{function}(*args, **kwargs):
    try:
        return _real_{function}(*args, **kwargs)
    finally:
        if {condition}:
            _calls_{function}.append(1)
            if len(_calls_{function}) == {count}:
                {action}
os.{function} = _at_{function}
"""


def signal_at(function: str, condition: str, count: int, signum: int) -> str:
    """``signum`` sent by the command to itself (a real signal: its handler runs where the
    command is, as one from outside would) at that call (``at_call``)."""
    return at_call(function, condition, count, f"os.kill(os.getpid(), {int(signum)})")


A_TEMPORARY = "'.ttt-tmp-' in os.fspath(args[0])"
# Each moment of a write of two files: (the call, its condition, which one). Each "old" moment
# comes before the first rename: the command stops, nothing changed. Each "new" one comes after:
# the files are new, and the command says so.
MOMENTS: dict[str, tuple[str, str, str, int]] = {
    "temporary-made": ("old", "open", f"{A_TEMPORARY} and args[1] & os.O_CREAT", 1),
    "second-temporary-made": ("old", "open", f"{A_TEMPORARY} and args[1] & os.O_CREAT", 2),
    "temporary-written": ("old", "fsync", "stat.S_ISREG(os.fstat(args[0]).st_mode)", 1),
    "old-file-kept": ("old", "link", "'.ttt-tmp-' in os.fspath(args[1])", 1),
    "first-rename": ("new", "replace", A_TEMPORARY, 1),
    "last-rename": ("new", "replace", A_TEMPORARY, 2),
    "cleaning-up": ("new", "unlink", A_TEMPORARY, 1),
    "folder-synced": ("new", "fsync", "stat.S_ISDIR(os.fstat(args[0]).st_mode)", 1),
}
STOPPING = {
    "SIGINT": signal.SIGINT,
    "SIGTERM": signal.SIGTERM,
    "SIGHUP": signal.SIGHUP,
    "SIGQUIT": signal.SIGQUIT,  # Ctrl-\: held too (issue 41: every signal that ends a command)
}


def assert_stopped(process: subprocess.CompletedProcess[bytes], signum: int) -> None:
    """Stopped as docs/reliability.md says: Ctrl-C one line and 130, SIGTERM and SIGHUP nothing
    said and ended by the signal; nothing on standard output either way."""
    if signum == signal.SIGINT:
        assert_one_line(process, 130, "Interrupted.")
    else:
        assert (process.returncode, text(process.stderr)) == (-signum, "")
    assert text(process.stdout) == ""


@pytest.mark.parametrize("name", sorted(STOPPING))
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_a_signal_at_any_moment_of_a_write_leaves_the_old_pair_or_the_new_one(
    tmp_path: Path, moment: str, name: str
) -> None:
    """A build over an old book and vectors, signalled the moment a target changed, left an old
    book beside new vectors, and temporaries (issue 41, item 2): only Ctrl-C was held, and
    SIGTERM and SIGHUP were raised between a rename and its record, inside the clean-up, or
    between a temporary's making and its record; one just after the renames ended the command
    with no report. At each moment, each signal: the old pair and the command stopped, or the
    new pair and its report, status 0; never a temporary left."""
    signum = STOPPING[name]
    files, function, condition, count = MOMENTS[moment]
    expected, signalled = tmp_path / "expected", tmp_path / "signalled"
    for folder in (expected, signalled):
        folder.mkdir()
    before = old_pair(signalled)
    old_pair(expected)
    done = run(BOOK_CLI, *BUILD_PAIR, cwd=expected)
    assert done.returncode == 0, text(done.stderr)
    injection = signal_at(function, condition, count, signum)
    process = run(BOOK_CLI, *BUILD_PAIR, preamble=injection, cwd=signalled)
    assert temporaries(signalled) == []
    if files == "old":
        assert_stopped(process, signum)
        assert snapshot(signalled) == before
    else:
        assert (process.returncode, text(process.stderr)) == (0, ""), text(process.stdout)
        shown = [
            re.sub(r"in [0-9.]+ s$", "in T s", text(p.stdout), flags=re.MULTILINE) for p in (done, process)
        ]
        assert shown[0] == shown[1] and "replaced b.json" in shown[1]
        assert snapshot(signalled) == snapshot(expected) != before


# A signal the moment the command has returned: its files written and its report printed.
SIGNAL_AFTER_THE_COMMAND = """
import os, click.core
_main = click.core.Command.main
def _main_(self, *args, **kwargs):
    result = _main(self, *args, **kwargs)
    os.kill(os.getpid(), {signum})
    return result
click.core.Command.main = _main_
"""
WRITING_COMMANDS = {
    "build": BUILD_PAIR,
    **{name: INTERRUPTED_ONCE_WRITTEN[name][0] for name in ("poster", "export", "levels-update")},
}


@pytest.mark.parametrize("name", sorted(STOPPING))
@pytest.mark.parametrize("command", sorted(WRITING_COMMANDS))
def test_a_signal_just_after_the_report_leaves_the_command_done(
    tmp_path: Path, command: str, name: str
) -> None:
    """Ctrl-C just after an export's report exited 130 after "wrote ..." (issue 41, item 11),
    and SIGTERM ended it by the signal: the files written and reported, the command said it
    failed. Once a command's files are renamed into place its work is done, and the signals
    held from then on stay held to its end: the report, status 0, whatever comes after it."""
    args = WRITING_COMMANDS[command]
    expected, signalled = tmp_path / "expected", tmp_path / "signalled"
    reports = []
    for folder, preamble in (
        (expected, ""),
        (signalled, SIGNAL_AFTER_THE_COMMAND.format(signum=STOPPING[name])),
    ):
        folder.mkdir()
        readme_pair(folder)
        process = run(BOOK_CLI, *args, preamble=preamble, cwd=folder)
        assert (process.returncode, text(process.stderr)) == (0, ""), (folder.name, text(process.stdout))
        reports.append(re.sub(r"in [0-9.]+ s$", "in T s", text(process.stdout), flags=re.MULTILINE))
    assert reports[0] == reports[1] and reports[1].strip()
    assert snapshot(signalled) == snapshot(expected) != readme_pair(tmp_path)


# The library writes three files; the third rename fails. Ctrl-C is the caller's to report, and
# SIGTERM and SIGHUP keep their default action (the library installs no handler of its own).
WRITE_THREE = """
import sys
from pathlib import Path
from tictactoe_book.errors import OutputError
from tictactoe_generator.atomic import write_files
try:
    write_files({Path(name): b"new " + name.encode() for name in ("a", "b", "c")})
except KeyboardInterrupt:
    sys.exit(130)
except OutputError:
    sys.exit(4)
"""
THIRD_RENAME_FAILS = EIO_ON_SECOND_RENAME.replace("== 2", "== 3")


@pytest.mark.parametrize("name", sorted(STOPPING))
def test_a_signal_while_a_failed_write_rolls_back_still_restores_everything(
    tmp_path: Path, name: str
) -> None:
    """The third of three renames fails, and a signal comes as the first two are rolled back:
    SIGTERM ended the rollback half-way (one file new, two old). The rollback and the clean-up
    run to their end, then the signal is delivered: the old files, no temporary."""
    signum = STOPPING[name]
    for file in ("a", "b", "c"):
        (tmp_path / file).write_bytes(b"old " + file.encode())
    before = snapshot(tmp_path)
    # a, b renamed; c's rename fails; then b's rename is undone: the fourth, and a's is left
    injection = THIRD_RENAME_FAILS + signal_at("replace", A_TEMPORARY, 4, signum)
    process = run(WRITE_THREE, preamble=injection, cwd=tmp_path)
    assert process.returncode == (130 if signum == signal.SIGINT else -signum), text(process.stderr)
    assert snapshot(tmp_path) == before and temporaries(tmp_path) == []


@pytest.mark.parametrize("name", sorted(STOPPING))
def test_a_signal_held_over_a_failed_write_is_delivered(tmp_path: Path, name: str) -> None:
    """The build's second rename fails and a signal comes as the first is rolled back: the
    files are the old ones, so the command's work was not done, and the signal stops it as it
    documents (before, Ctrl-C held there was dropped, and the failure reported as done)."""
    signum = STOPPING[name]
    before = old_pair(tmp_path)
    # the book renamed, the vectors' rename failing, then the book's rename undone: the third
    injection = EIO_ON_SECOND_RENAME + signal_at("replace", A_TEMPORARY, 3, signum)
    process = run(BOOK_CLI, *BUILD_PAIR, preamble=injection, cwd=tmp_path)
    assert_stopped(process, signum)
    assert snapshot(tmp_path) == before and temporaries(tmp_path) == []


# ---------------------------------------------------------------- targets that are not files


def special_files(folder: Path) -> dict[str, Path]:
    """A folder, a FIFO, a socket and (where device nodes can be made) a private copy of
    /dev/null: a regression would replace the copy, never the machine's /dev/null (which is
    what the issue saw a root build do)."""
    made = {"directory": folder / "dir", "fifo": folder / "fifo", "socket": folder / "sock"}
    made["directory"].mkdir()
    os.mkfifo(made["fifo"])
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(made["socket"]))
    server.close()
    if make_char_device(folder / "null"):
        made["char-device"] = folder / "null"
    return made


@pytest.mark.parametrize("kind", ["directory", "fifo", "socket", "char-device"])
@pytest.mark.parametrize("option", ["-o", "--vectors"])
def test_a_target_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str, option: str) -> None:
    special = special_files(tmp_path)
    if kind not in special:
        pytest.skip("cannot make device nodes here")
    before = snapshot(tmp_path)
    args = ["-o", special[kind].name, "--vectors", "v.json"]
    if option == "--vectors":
        args = ["-o", "b.json", "--vectors", special[kind].name]
    process = build(tmp_path, *TINY, *args, timeout=20)
    assert_one_line(process, 4, f"cannot write {special[kind].name}", "not a regular file")
    assert snapshot(tmp_path) == before  # the node is still a node; nothing else was written


@pytest.mark.parametrize(
    ("target", "words"),
    [("missing/b.json", "there is no folder"), ("file/b.json", "Not a directory")],
)
def test_a_missing_folder_is_refused(tmp_path: Path, target: str, words: str) -> None:
    (tmp_path / "file").write_bytes(b"x")
    before = snapshot(tmp_path)
    process = build(tmp_path, *TINY, "-o", target)
    assert_one_line(process, 4, f"cannot write {target}", words)
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- symbolic links: followed


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "b.json").write_bytes(OLD_BOOK)
    (real / "b.json").chmod(0o600)
    (tmp_path / "link.json").symlink_to(real / "b.json")
    process = build(tmp_path, *TINY, "-o", "link.json", "--no-vectors")
    assert process.returncode == 0, text(process.stderr)
    assert (tmp_path / "link.json").is_symlink()
    assert (real / "b.json").read_bytes().startswith(b'{"canonical"')
    assert stat.S_IMODE((real / "b.json").stat().st_mode) == 0o600
    assert temporaries(real) == [] and temporaries(tmp_path) == []


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    (tmp_path / "link.json").symlink_to(tmp_path / "new.json")
    process = build(tmp_path, *TINY, "-o", "link.json", "--no-vectors")
    assert process.returncode == 0, text(process.stderr)
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "new.json").is_file()


def test_a_link_to_a_fifo_or_a_loop_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "to-fifo.json").symlink_to(tmp_path / "fifo")
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    before = snapshot(tmp_path)
    process = build(tmp_path, *TINY, "-o", "to-fifo.json", "--no-vectors", timeout=20)
    assert_one_line(process, 4, "cannot write to-fifo.json", "named pipe")
    process = build(tmp_path, *TINY, "-o", "loop.json", "--no-vectors")
    assert_one_line(process, 4, "cannot write loop.json", "symbolic links")
    assert snapshot(tmp_path) == before


# The vectors' target made a FIFO or a link (to another file) while the build writes: once both
# temporaries are written, or once the old files are kept to roll back to, just before the renames.
TARGET_CHANGES = {
    "written": ("fsync", "stat.S_ISREG(os.fstat(args[0]).st_mode)", 2),
    "kept": ("link", "'.ttt-tmp-' in os.fspath(args[1])", 2),
}
BECOMES = {
    "fifo": "os.unlink('v.json'); os.mkfifo('v.json')",
    "link": "os.unlink('v.json'); os.symlink('elsewhere.json', 'v.json')",
}


@pytest.mark.parametrize("kind", sorted(BECOMES))
@pytest.mark.parametrize("moment", sorted(TARGET_CHANGES))
def test_a_target_that_changes_into_a_fifo_or_a_link_meanwhile_is_left_alone(
    tmp_path: Path, moment: str, kind: str
) -> None:
    """A target is checked before the solve, and again just before its rename: one that became
    a FIFO or a link in between was overwritten when the second check was dropped, and the
    suite did not see it (issue 41, item 14). One that became a FIFO before the old files were
    kept hung the build (it opened the FIFO's new link to read it), and a link left its link
    behind. Now it is refused (one line, 4), left as it is, the book's rename rolled back."""
    (tmp_path / "elsewhere.json").write_bytes(b"another file")
    old_pair(tmp_path)
    function, condition, count = TARGET_CHANGES[moment]
    process = build(
        tmp_path, *BUILD_PAIR[1:], preamble=at_call(function, condition, count, BECOMES[kind]), timeout=20
    )
    assert_one_line(process, 4, "cannot write v.json", "named pipe" if kind == "fifo" else "symbolic link")
    after = snapshot(tmp_path)
    assert after["b.json"][0] == OLD_BOOK and after["elsewhere.json"][0] == b"another file"
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISLNK)(after["v.json"][1])
    assert temporaries(tmp_path) == []


# ---------------------------------------------------------------- two outputs, names, values


@pytest.mark.parametrize(
    "args",
    [
        ["-o", "same.json", "--vectors", "same.json"],
        ["-o", "same.json", "--vectors", "./same.json"],
        ["-o", "same.json", "--vectors", "alias.json"],
    ],
    ids=["same", "dot-slash", "symlink"],
)
def test_two_outputs_on_one_path_are_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "alias.json").symlink_to(tmp_path / "same.json")
    before = snapshot(tmp_path)
    assert_usage_error(build(tmp_path, *TINY, *args), "same.json")
    assert snapshot(tmp_path) == before


def test_a_book_of_another_name_leaves_the_vectors_beside_it_alone(tmp_path: Path) -> None:
    (tmp_path / "vectors.json").write_bytes(b"someone else's vectors")
    process = build(tmp_path, "-o", "mybook.json")
    assert process.returncode == 0, text(process.stderr)
    assert (tmp_path / "vectors.json").read_bytes() == b"someone else's vectors"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mybook.json", "vectors.json"]


def test_the_report_says_which_files_were_replaced(tmp_path: Path) -> None:
    old_pair(tmp_path)
    process = build(tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json")
    assert process.returncode == 0
    assert text(process.stdout).splitlines()[0].startswith("replaced b.json")
    assert text(process.stdout).splitlines()[1].startswith("replaced v.json")


def test_the_report_says_which_files_a_rebuild_left_unchanged(tmp_path: Path) -> None:
    """``make book`` on a clean checkout changes no byte, and says so (issue 25, 13): a file
    whose bytes are the same is not "replaced"."""
    first = build(tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json")
    assert [line.split(":")[0] for line in text(first.stdout).splitlines()] == [
        "wrote b.json",
        "wrote v.json",
    ]
    (tmp_path / "v.json").write_bytes(OLD_VECTORS)
    again = build(tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json")
    assert again.returncode == 0
    said = [line.split(":")[0] for line in text(again.stdout).splitlines()]
    assert said == ["rewrote b.json (unchanged)", "replaced v.json"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-o", ""], "empty name"),
        (["--vectors", ""], "empty name"),
        (["-o", "-"], "'-' (standard output) is not offered"),
        (["--vectors", "-"], "'-' (standard output) is not offered"),
        (["--vectors", "v.json", "--no-vectors"], "contradict"),
    ],
)
def test_bad_output_values_are_usage_errors(tmp_path: Path, args: list[str], words: str) -> None:
    assert_usage_error(build(tmp_path, *TINY, *args), words)
    assert list(tmp_path.iterdir()) == []


def test_a_closed_standard_output_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    process = build(
        tmp_path, *TINY, "-o", "b.json", stdout=subprocess.DEVNULL, preamble="import os; os.close(1)"
    )
    # (closing fd 1 in the child before the program starts its streams is what `>&-` does)
    assert_one_line(process, 4, "cannot write standard output", "closed")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- a name that names a folder

# A README with the levels table's markers, so that a regression of ``levels --update
# keep.json/`` would rewrite it rather than refuse it for want of markers.
KEEP = b"mine\n<!-- levels-table:start -->\n<!-- levels-table:end -->\n"
# name: (program, arguments with NAME for the file name)
FILE_OPTIONS: dict[str, tuple[str, list[str]]] = {
    "build-output": (BOOK_CLI, ["build", *TINY, "-o", "NAME", "--no-vectors"]),
    "build-vectors": (BOOK_CLI, ["build", *TINY, "-o", "b.json", "--vectors", "NAME"]),
    "poster": (BOOK_CLI, ["poster", "--side", "X", "-o", "NAME"]),
    "levels-update": (BOOK_CLI, ["levels", "--update", "NAME"]),
    "query-book": (BOOK_CLI, ["query", "X........", "--book", "NAME"]),
    "verify": (BOOK_CLI, ["verify", "NAME"]),
    "play-book": (PLAY, ["--book", "NAME", "--moves", "5"]),
}


@pytest.mark.parametrize("option", sorted(FILE_OPTIONS))
def test_a_file_name_ending_in_a_slash_names_a_folder(tmp_path: Path, option: str) -> None:
    # pathlib drops a trailing "/" and a last "." (Path("keep.json/") is keep.json): before,
    # -o newdir/ wrote a file newdir and -o keep.json/ replaced keep.json.
    (tmp_path / "keep.json").write_bytes(KEEP)
    (tmp_path / "dir").mkdir()
    before = snapshot(tmp_path)
    program, args = FILE_OPTIONS[option]
    for name in ["newdir/", "keep.json/", "keep.json/.", "keep.json//", "dir/", "dir/.."]:
        process = run(program, *[name if arg == "NAME" else arg for arg in args], cwd=tmp_path)
        assert_usage_error(process, repr(name), "names a folder, not a file")
        assert snapshot(tmp_path) == before, name


def test_export_writes_into_a_folder_named_with_a_slash(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    process = run(BOOK_CLI, "export", "--lang", "c", "-o", "out/", cwd=tmp_path)
    assert process.returncode == 0, text(process.stderr)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tictactoe_book.c", "tictactoe_book.h"]


def test_export_creates_its_folder_and_writes_into_it(tmp_path: Path) -> None:
    process = run(BOOK_CLI, "export", "--lang", "c", "-o", "new/sub/", cwd=tmp_path)
    assert process.returncode == 0, text(process.stderr)
    assert sorted(os.listdir(tmp_path / "new" / "sub")) == ["tictactoe_book.c", "tictactoe_book.h"]
    assert text(process.stdout).splitlines()[0].startswith("wrote new/sub/tictactoe_book.c: ")
    again = run(BOOK_CLI, "export", "--lang", "rust", "-o", "new/sub", cwd=tmp_path)  # it exists now
    assert again.returncode == 0, text(again.stderr)
    # the crate beside the C, its own folders (src/, tests/) made in the folder
    assert sorted(os.listdir(tmp_path / "new" / "sub")) == [
        "Cargo.toml",
        "src",
        "tests",
        "tictactoe_book.c",
        "tictactoe_book.h",
    ]
    assert os.listdir(tmp_path / "new" / "sub" / "src") == ["lib.rs"]


@pytest.mark.parametrize("name", ["keep.json/", "keep.json", "keep.json/inside"])
def test_export_into_a_file_is_refused_and_the_file_kept(name: str, tmp_path: Path) -> None:
    (tmp_path / "keep.json").write_bytes(KEEP)
    before = snapshot(tmp_path)
    process = run(BOOK_CLI, "export", "--lang", "c", "-o", name, cwd=tmp_path)
    assert_one_line(process, 4, f"cannot write {name}:", "is a file, not a folder")
    assert snapshot(tmp_path) == before


def test_export_that_fails_removes_the_folders_it_made(tmp_path: Path) -> None:
    # the second of the two C files meets a full device: nothing written, no folder left
    process = run(
        BOOK_CLI, "export", "--lang", "c", "-o", "new/sub", preamble=ENOSPC_ON_SECOND_TEMPORARY, cwd=tmp_path
    )
    assert_one_line(process, 4, "No space left on device")
    assert os.listdir(tmp_path) == []


def test_reliability_md_says_one_thing_of_export_into_a_missing_folder(tmp_path: Path) -> None:
    """It said both that export -o MISSING creates the folder (it does) and that the folder must
    exist, a missing one an error with status 4 (issue 32, item 12): every sentence of it about
    export and a missing folder now says it is created, as the command does."""
    text = (ROOT / "docs" / "reliability.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("|")]  # a table's row, whole
    prose = " ".join(line for line in text.splitlines() if not line.startswith("|")).split()
    sentences = re.split(r"(?<=\.)\s", " ".join(prose))
    claims = [claim for claim in rows + sentences if "export" in claim and "missing" in claim]
    assert len(claims) >= 2 and all("created" in claim and "must exist" not in claim for claim in claims), (
        claims
    )
    process = run(BOOK_CLI, "export", "--lang", "c", "-o", "new/deeper", cwd=tmp_path)
    assert process.returncode == 0, text(process.stderr)
    written = sorted(path.name for path in (tmp_path / "new" / "deeper").iterdir())
    assert written == ["tictactoe_book.c", "tictactoe_book.h"]


def test_a_rust_export_that_fails_removes_the_crates_folders_it_made(tmp_path: Path) -> None:
    # the crate's second file (src/lib.rs) meets a full device: no file written, neither new/sub
    # nor the src/ and tests/ made inside it left
    process = run(
        BOOK_CLI,
        "export",
        "--lang",
        "rust",
        "-o",
        "new/sub",
        preamble=ENOSPC_ON_SECOND_TEMPORARY,
        cwd=tmp_path,
    )
    assert_one_line(process, 4, "No space left on device")
    assert os.listdir(tmp_path) == []


def test_a_rust_export_over_a_file_where_its_folder_goes_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "src").write_bytes(KEEP)  # a file where the crate's src/ goes
    before = snapshot(tmp_path)
    process = run(BOOK_CLI, "export", "--lang", "rust", "-o", "out", cwd=tmp_path)
    assert process.returncode == 4 and len(text(process.stderr).splitlines()) == 1, text(process.stderr)
    assert snapshot(tmp_path) == before


def test_export_refuses_a_folder_it_cannot_make_before_any_work(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    with read_only(locked):
        process = run(
            BOOK_CLI, "export", "--lang", "c", "-o", "locked/new", "--book", "missing.json", cwd=tmp_path
        )
    # refused for the folder, before the book (missing too) is even looked at
    assert_one_line(process, 4, "cannot write locked/new:")
    assert os.listdir(locked) == []


def test_export_help_calls_the_option_a_folder() -> None:
    from click.testing import CliRunner

    from tictactoe_generator.cli import main as book_cli

    result = CliRunner().invoke(book_cli, ["export", "--help"])
    assert "-o, --output FOLDER" in result.output and "created if missing" in result.output


# ---------------------------------------------------------------- temporaries and modes


def test_temporaries_are_named_after_their_target_and_stale_ones_are_removed(tmp_path: Path) -> None:
    stale = tmp_path / ".b.json.ttt-tmp-0123456789ab"
    stale.write_bytes(b"left by a build killed with SIGKILL")
    held = tmp_path / ".b.json.ttt-tmp-held00000000"
    held.write_bytes(b"a build still writing")
    other = tmp_path / ".unrelated.ttt-tmp-0123456789ab"
    other.write_bytes(b"not ours to judge: another target's")
    with open(held, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        process = build(tmp_path, *TINY, "-o", "b.json", "--no-vectors")
        assert process.returncode == 0, text(process.stderr)
    assert not stale.exists()
    assert held.exists() and other.exists()


def test_a_build_killed_mid_write_leaves_a_temporary_the_next_build_removes(tmp_path: Path) -> None:
    stall = (
        "import os, sys, time\n"
        "def _fsync(fd):\n"
        "    sys.stderr.write('fsync\\n'); sys.stderr.flush(); time.sleep(60)\n"
        "os.fsync = _fsync\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", stall + BOOK_CLI, "build", *TINY, "-o", "b.json", "--no-vectors"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    assert child.stderr.readline() == b"fsync\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stderr.close()
    assert len(temporaries(tmp_path)) == 1
    assert temporaries(tmp_path)[0].startswith(".b.json.ttt-tmp-")
    process = build(tmp_path, *TINY, "-o", "b.json", "--no-vectors")
    assert process.returncode == 0, text(process.stderr)
    assert temporaries(tmp_path) == []


def another_writers_clean_up_at_lock(monkeypatch: pytest.MonkeyPatch, target: Path, nth: int) -> list[int]:
    """At the ``nth`` lock a writer takes on a temporary of its own (0: its first new content;
    with two files, 2: its first backup), another writer's clean-up of ``target``'s temporaries
    runs first, in the moment between the temporary's creation and its lock. Returns the list
    of the locks taken, for the test to check the moment came."""
    real_flock = fcntl.flock
    taken: list[int] = []

    def flock(fd: int, operation: int) -> None:
        if operation == fcntl.LOCK_EX:  # a writer's own lock (a clean-up asks LOCK_NB)
            if len(taken) == nth:
                atomic.remove_stale_temporaries(target)
            taken.append(fd)
        real_flock(fd, operation)

    monkeypatch.setattr(atomic.fcntl, "flock", flock)
    return taken


def test_a_temporary_removed_before_its_writer_locks_it_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two builds to one output failed once in 35 rounds with "cannot write x.json: No such
    file or directory" (issue 32, item 7): one's clean-up of stale temporaries removed the
    other's new temporary before it was locked. A writer now checks its temporary's name once
    it holds the lock, and makes another if the name is gone."""
    book, vectors = tmp_path / "x.json", tmp_path / "x.vectors.json"
    taken = another_writers_clean_up_at_lock(monkeypatch, book, 0)
    write_files({book: b"new book", vectors: b"new vectors"})
    assert len(taken) > 1 and book.read_bytes() == b"new book" and vectors.read_bytes() == b"new vectors"
    assert temporaries(tmp_path) == []


def test_a_backup_removed_before_its_writer_locks_it_still_rolls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old book's hard link, kept to roll back to, was removed the same way: a failed second
    rename then left a new book beside the old vectors. Now it is made again, and the failure
    changes nothing."""
    book, vectors = tmp_path / "x.json", tmp_path / "x.vectors.json"
    book.write_bytes(b"old book")
    vectors.write_bytes(b"old vectors")
    before = snapshot(tmp_path)
    taken = another_writers_clean_up_at_lock(monkeypatch, book, 2)
    real_replace = os.replace

    def second_rename_fails(src: str, dst: str) -> None:
        if os.fspath(dst) == os.fspath(vectors):
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", second_rename_fails)
    with pytest.raises(OutputError, match=r"cannot write .*x\.vectors\.json: Input/output error"):
        write_files({book: b"new book", vectors: b"new vectors"})
    monkeypatch.undo()
    assert len(taken) > 2 and snapshot(tmp_path) == before


def test_a_target_replaced_as_its_backup_is_linked_is_linked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Linux's link(2) fails with ENOENT when another writer's rename replaces the file it links
    (the other half of issue 32, item 7's failure): the target is there, so it is linked again."""
    book, vectors = tmp_path / "x.json", tmp_path / "x.vectors.json"
    book.write_bytes(b"old book")
    vectors.write_bytes(b"old vectors")
    real_link = os.link
    failed: list[str] = []

    def link_racing_a_rename(src: str, dst: str, **kwargs: object) -> None:
        if not failed:
            failed.append(os.fspath(src))
            raise FileNotFoundError(2, "No such file or directory")
        real_link(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "link", link_racing_a_rename)
    write_files({book: b"new book", vectors: b"new vectors"})
    assert failed == [str(book)] and book.read_bytes() == b"new book"
    assert temporaries(tmp_path) == []


def write_the_same_files(args: tuple[str, int, bytes]) -> list[str]:
    """``rounds`` writes of the same two files (a book and its vectors), the failures' words."""
    folder, rounds, mark = args
    failures = []
    for _ in range(rounds):
        try:
            write_files({Path(folder) / "x.json": mark * 1000, Path(folder) / "x.vectors.json": mark * 100})
        except OutputError as error:
            failures.append(str(error))
    return failures


def test_two_writers_of_the_same_files_never_fail(tmp_path: Path) -> None:
    """Two processes write the same book and vectors 500 times each: before, about 3 writes in
    1,000 failed with "No such file or directory" (a loop of 2 x 2,000 writes: 11, 7 and 13
    failures; the tests above make each moment happen). No failure, no temporary left, and the
    pair is always one writer's."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        found = list(pool.map(write_the_same_files, [(str(tmp_path), 500, b"a"), (str(tmp_path), 500, b"b")]))
    assert found == [[], []]
    assert temporaries(tmp_path) == []
    book, vectors = (tmp_path / "x.json").read_bytes(), (tmp_path / "x.vectors.json").read_bytes()
    assert {book, vectors} in ({b"a" * 1000, b"a" * 100}, {b"b" * 1000, b"b" * 100})


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_bytes(OLD_BOOK)
    (tmp_path / "b.json").chmod(0o600)
    process = build(
        tmp_path, *TINY, "-o", "b.json", "--vectors", "v.json", preamble="import os; os.umask(0o027)"
    )
    assert process.returncode == 0, text(process.stderr)
    assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "v.json").stat().st_mode) == 0o640


def test_the_library_refuses_the_same_file_twice(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    with pytest.raises(ValueError, match="same file"):
        write_files({tmp_path / "a": b"1", tmp_path / "sub" / ".." / "a": b"2"})
    with pytest.raises(OutputError, match="not a regular file"):
        write_files({tmp_path / "sub": b"1"})
    assert [p.name for p in tmp_path.iterdir()] == ["sub"]
    (tmp_path / "sub" / "old").write_bytes(b"0")
    os.link(tmp_path / "sub" / "old", tmp_path / "linked")  # two names, one file
    with pytest.raises(ValueError, match="same file"):
        write_files({tmp_path / "sub" / "old": b"1", tmp_path / "new": b"2", tmp_path / "linked": b"3"})
    assert (tmp_path / "sub" / "old").read_bytes() == b"0" and not (tmp_path / "new").exists()
