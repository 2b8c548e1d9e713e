"""Shared by the fault-injection tests: run a command as a real process, break its world
(read-only folders, full devices, closed streams, injected errors), and check the promise of
docs/reliability.md: one line, the documented status, no traceback, old files intact, no
temporary left behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book" / "tictactoe.json"
PLAY = "from tictactoe_book.apps.cli import run; run()"
BOOK_CLI = "from tictactoe_generator.cli import run; run()"
TEMP_MARK = ".ttt-tmp-"

# Injections, run in the child before the command. Each keys on our temporary files' names
# (".NAME.ttt-tmp-..."), never on the loader's internals.
ENOSPC_ON_SECOND_TEMPORARY = """
import errno, os
_open, _write, _temps = os.open, os.write, []
def _open_(path, flags, mode=0o777, *, dir_fd=None):
    fd = _open(path, flags, mode, dir_fd=dir_fd)
    if ".ttt-tmp-" in os.fspath(path) and flags & os.O_CREAT:
        _temps.append(fd)
    return fd
def _write_(fd, data):
    if len(_temps) >= 2 and fd == _temps[1]:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _write(fd, data)
os.open, os.write = _open_, _write_
"""
EIO_ON_SECOND_RENAME = """
import errno, os
_replace, _renames = os.replace, []
def _replace_(src, dst, **kwargs):
    if ".ttt-tmp-" in os.fspath(src):
        _renames.append(dst)
        if len(_renames) == 2:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
    return _replace(src, dst, **kwargs)
os.replace = _replace_
"""


def unreadable_preamble(path: Path) -> str:
    """Opening ``path`` for reading fails with EACCES (root reads anything, so it is injected)."""
    return f"""
import errno, os
_open = os.open
def _open_(path, flags, mode=0o777, *, dir_fd=None):
    if os.fspath(path) == {str(path)!r} and not flags & (os.O_WRONLY | os.O_RDWR):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
    return _open(path, flags, mode, dir_fd=dir_fd)
os.open = _open_
import builtins
_builtin_open = builtins.open
def _bopen(file, *args, **kwargs):
    if isinstance(file, (str, bytes, os.PathLike)) and os.fspath(file) == {str(path)!r}:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(file))
    return _builtin_open(file, *args, **kwargs)
builtins.open = _bopen
"""


# Run first in every child: the signals that stop a command at their defaults, as a shell
# starts a command in the foreground. A test run started in the background of a script inherits
# SIGINT ignored (and a command keeps a signal ignored at start: docs/reliability.md), so every
# Ctrl-C a test sends would be lost.
DEFAULT_SIGNALS = """
import resource as _resource, signal as _signal
for _signum, _default in ((_signal.SIGINT, _signal.default_int_handler), (_signal.SIGTERM, _signal.SIG_DFL),
                          (_signal.SIGHUP, _signal.SIG_DFL), (_signal.SIGQUIT, _signal.SIG_DFL)):
    if _signal.getsignal(_signum) == _signal.SIG_IGN:
        _signal.signal(_signum, _default)
_resource.setrlimit(_resource.RLIMIT_CORE, (0, _resource.getrlimit(_resource.RLIMIT_CORE)[1]))  # no core file
"""


def default_signals() -> None:
    """DEFAULT_SIGNALS for a child started by Popen or pexpect (its ``preexec_fn``): a signal
    that stops a command, ignored here (a run under ``nohup``, or in a script's background),
    back at its default in the child, so that a test's signal reaches the command."""
    import resource
    import signal

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        if signal.getsignal(signum) == signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


def run(
    program: str,
    *args: str,
    preamble: str = "",
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
    **streams: Any,
) -> subprocess.CompletedProcess[bytes]:
    """``program`` (PLAY or BOOK_CLI) with ``args`` as a real process; stdin is empty unless
    given, stdout and stderr are captured unless given."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    if "TTT_BOOK" not in (env or {}):
        environment.pop("TTT_BOOK", None)  # the packaged book unless a test says otherwise
    streams.setdefault("stdin", subprocess.DEVNULL)
    streams.setdefault("stdout", subprocess.PIPE)
    streams.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-c", DEFAULT_SIGNALS + preamble + "\n" + program, *args],
        cwd=cwd or ROOT,
        env=environment,
        timeout=timeout,
        check=False,
        **streams,
    )


def text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace")


def assert_one_line(process: subprocess.CompletedProcess[bytes], status: int, *words: str) -> str:
    """The documented status, exactly one line on standard error containing ``words``, and no
    traceback anywhere; returns the line."""
    out, err = text(process.stdout), text(process.stderr)
    assert "Traceback" not in out + err, out + err
    assert process.returncode == status, (process.returncode, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def assert_usage_error(process: subprocess.CompletedProcess[bytes], *words: str) -> None:
    """Status 2 with click's usage reminder and one ``Error:`` line containing ``words``."""
    out, err = text(process.stdout), text(process.stderr)
    assert "Traceback" not in out + err, out + err
    assert process.returncode == 2, (out, err)
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, err
    for word in words:
        assert word in errors[0], (word, errors[0])


def snapshot(folder: Path) -> dict[str, tuple[bytes | str, int]]:
    """Every entry of ``folder``: its bytes (or link target) and mode, to compare before/after."""
    entries: dict[str, tuple[bytes | str, int]] = {}
    for path in sorted(folder.iterdir()):
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            entries[path.name] = (os.readlink(path), mode)
        elif stat.S_ISREG(mode):
            entries[path.name] = (path.read_bytes(), mode)
        else:
            entries[path.name] = ("special", mode)
    return entries


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_MARK in p.name)


def _can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None and sys.platform.startswith("linux")


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[str]:
    """Make ``folder`` read-only for real, whoever we are: a read-only bind mount as root (root
    ignores permissions), else ``chattr +i`` as root, else mode 0555. Yields how."""
    if _can_mount():
        bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
        if bound.returncode == 0:
            try:
                again = subprocess.run(
                    ["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, check=False
                )
                if again.returncode == 0:
                    yield "read-only bind mount"
                    return
            finally:
                subprocess.run(["umount", str(folder)], check=False)
    chattr = shutil.which("chattr") if os.geteuid() == 0 else None
    if chattr and subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0:
        try:
            yield "chattr +i"
        finally:
            subprocess.run([chattr, "-i", str(folder)], check=False)
        return
    if os.geteuid() == 0:
        pytest.skip("running as root with neither mount nor chattr: no real read-only folder")
    folder.chmod(0o555)
    try:
        yield "mode 0555"
    finally:
        folder.chmod(0o755)


@contextlib.contextmanager
def small_file_system(size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (e.g. ``"64k"``), mounted for the test; skipped where we cannot."""
    if not _can_mount():
        pytest.skip("needs root and mount for a real small file system")
    folder = Path(tempfile.mkdtemp(prefix="ttt-small-fs-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a tmpfs: {text(mounted.stderr).strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
        folder.rmdir()


def make_char_device(path: Path) -> bool:
    """A private copy of /dev/null at ``path`` (so a regression replaces it, not the real one);
    False where device nodes cannot be made."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        return False
    return True
