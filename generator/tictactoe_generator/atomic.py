"""Write files all at once or not at all, and read the files we update without hanging on them.

``write_files({path: data, ...})`` is one transaction:

1. every target is checked first: it must be a regular file or absent, in an existing folder,
   and no two targets may be the same file; a symbolic link is followed (the file it points to
   is replaced, the link stays);
2. every new content goes to a temporary file beside its target, named
   ``.NAME.ttt-tmp-<random>``, written, flushed and fsynced, with the target's old mode (and,
   for root, its owner), or the umask's mode for a new file;
3. only then is each temporary renamed onto its target (``os.replace``, atomic on POSIX); if a
   rename fails, the targets already replaced get their old content back (each old file was
   hard-linked to a temporary name first), so the caller sees all or nothing.

The signals that stop a command (Ctrl-C's SIGINT, SIGTERM, SIGHUP, SIGQUIT:
``tictactoe_book.apps.signals.STOPPING``) are held over every stretch that must not be split,
and delivered at its end: a temporary made and recorded (else no clean-up would know it), the
renames and their record (from the first rename to the end: the files are then all new), a
rollback, the clean-up of the temporaries. A command that reports what it wrote runs the write
and the report inside ``finish_once_written()``, which holds them from the first rename to the
end of the report and then drops them: the work is done, and the command says so.

A writer holds an exclusive ``flock`` on each temporary while it lives; the next write to the
same target removes the temporaries of ours nobody holds (left by a build killed with SIGKILL).
A temporary exists for a moment before its writer locks it, and another writer's clean-up may
remove it then: so a writer checks, once it holds the lock, that the name is still its file,
and makes another if not (``_locked_temporary``).
A crash between two renames, a few microseconds, can still leave one new file beside an old
one: POSIX has no rename of several files at once.

Every failure is an ``OutputError`` naming the target (never the temporary) and the reason.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from tictactoe_book.apps.signals import Held, held
from tictactoe_book.errors import InputFileError, OutputError, SameFileError

TEMP_MARK = ".ttt-tmp-"


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def describe_kind(mode: int) -> str:
    """``"a directory"``, ``"a character device"``... for a file that is not a regular one."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symbolic link"),  # (the target as it is renamed onto: not followed)
    )
    return next((words for test, words in kinds if test(mode)), "not a regular file")


def target(path: Path) -> Path:
    """Where writing ``path`` lands, checked: raises OutputError if it cannot be a target.

    A symbolic link is followed to the file it names (created if missing); a loop of links,
    a missing folder, and an existing file that is not a regular file are refused.
    """
    try:
        real = Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a new file, or a link to one
        real = Path(os.path.realpath(path))
    except OSError as error:  # a loop of links, a file where a folder should be, ...
        raise OutputError(path, _reason(error)) from None
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(path, _reason(error)) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(path, f"it is {describe_kind(mode)}, not a regular file")
    folder = real.parent
    if not folder.is_dir():
        raise OutputError(path, f"there is no folder {str(folder)!r}")
    if not os.access(folder, os.W_OK | os.X_OK):
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        raise OutputError(path, os.strerror(errno.EROFS if read_only else errno.EACCES))
    return real


def check_targets(paths: list[Path]) -> list[Path]:
    """``target()`` of each path; raises SameFileError if two of them are the same file (the
    same real path, or existing files with the same device and inode: a hard link)."""
    reals = [target(path) for path in paths]
    seen: dict[object, Path] = {}  # each target's real path and, if it exists, its identity
    for path, real in zip(paths, reals, strict=True):
        keys: list[object] = [str(real)]
        with contextlib.suppress(OSError):
            status = os.stat(real)
            keys.append((status.st_dev, status.st_ino))
        for key in keys:
            if key in seen:
                raise SameFileError(f"{seen[key]} and {path} are the same file; give two different names")
        seen.update(dict.fromkeys(keys, path))
    return reals


def remove_stale_temporaries(*reals: Path) -> list[Path]:
    """Remove the temporaries of the files ``reals`` that no living writer holds (each folder
    listed once); returns what was removed."""
    removed: list[Path] = []
    folders: dict[Path, set[str]] = {}
    for real in reals:
        folders.setdefault(real.parent, set()).add(real.name)
    for folder, targets in folders.items():
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            target_name = (
                name[1:].partition(TEMP_MARK)[0] if name.startswith(".") and TEMP_MARK in name else None
            )
            if target_name in targets:
                removed.extend(_remove_unheld(folder / name))
    return removed


def _remove_unheld(path: Path) -> list[Path]:
    """``path`` removed if it is a regular file no writer holds: ``[path]``, else ``[]``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: another writer is at work
        os.unlink(path)
        return [path]
    except OSError:
        return []
    finally:
        os.close(fd)


#: Temporaries a writer makes for one file before it gives up, each removed by another
#: writer's clean-up before it could lock it (one is almost always enough).
TEMPORARY_TRIES = 100


def _locked_temporary(real: Path, make: Callable[[Path], int]) -> tuple[Path, int]:
    """A new temporary beside ``real``, made by ``make(path) -> fd`` (-1: its name was removed
    before it could be opened) and locked: its path and descriptor. Another writer's clean-up
    (``remove_stale_temporaries``) removes a temporary only while it holds its lock, so once
    this holds it, a name that is still the file's stays; one removed in the moment before the
    lock is given up and another made."""
    for _ in range(TEMPORARY_TRIES):
        path = real.parent / f".{real.name}{TEMP_MARK}{secrets.token_hex(6)}"
        fd = make(path)
        if fd < 0:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a file system without locks: no clean-up can remove it either
            return path, fd
        try:
            if os.path.samestat(os.stat(path, follow_symlinks=False), os.fstat(fd)):
                return path, fd
        except FileNotFoundError:
            pass
        os.close(fd)
    raise OSError(errno.EAGAIN, f"another writer removed {TEMPORARY_TRIES} temporaries in a row")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _Temporary:
    """One target's new content, written to a locked temporary file beside it."""

    def __init__(self, shown: Path, real: Path) -> None:
        self.shown = shown
        self.real = real
        self.path: Path | None = None
        self.fd = -1
        self.existed = False
        self.backup: Path | None = None
        self.backup_fd = -1

    def write(self, data: bytes) -> None:
        """Write ``data`` to a new locked temporary: flushed, fsynced, with the target's mode."""
        try:
            old: os.stat_result | None = os.stat(self.real)
        except FileNotFoundError:
            old = None
        self.existed = old is not None
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        with held():  # made and recorded as one: else the clean-up would not know it
            self.path, self.fd = _locked_temporary(self.real, lambda path: os.open(path, flags, 0o600))
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        os.fsync(self.fd)
        if old is None:
            os.fchmod(self.fd, 0o666 & ~_umask())
        else:
            os.fchmod(self.fd, stat.S_IMODE(old.st_mode))
            if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(PermissionError):  # only root may give a file away
                    os.fchown(self.fd, old.st_uid, old.st_gid)

    def keep_old(self) -> None:
        """Hard-link the old target to a locked temporary name, to roll back to."""
        if not self.existed:
            return

        def link(backup: Path) -> int:
            try:
                os.link(self.real, backup, follow_symlinks=False)
            except FileNotFoundError:
                # Linux's link(2) fails so when another writer's rename replaces the target as
                # it is linked (the inode it found has no name left); the new one is there.
                if os.path.lexists(self.real):
                    return -1
                raise
            try:
                mode = os.lstat(backup).st_mode  # (the file linked: no name of it can change)
            except FileNotFoundError:  # removed by another writer's clean-up already
                return -1
            if not stat.S_ISREG(mode):
                # The target became a FIFO or a link since it was checked: opening the FIFO's
                # link hung the build, and a link's was left behind. Refused, nothing changed.
                with contextlib.suppress(OSError):
                    os.unlink(backup)
                raise OutputError(self.shown, f"it is {describe_kind(mode)}, not a regular file")
            try:
                return os.open(backup, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            except FileNotFoundError:  # removed by another writer's clean-up already
                return -1

        try:
            with held():  # made and recorded as one
                self.backup, self.backup_fd = _locked_temporary(self.real, link)
        except OSError as error:
            if error.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                return  # no hard links here: this file cannot be rolled back
            raise

    def install(self) -> None:
        """Rename the temporary onto the target, after checking the target is still fit."""
        try:
            mode = os.lstat(self.real).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise OutputError(self.shown, f"it is {describe_kind(mode)}, not a regular file")
        assert self.path is not None, "write() comes first"
        os.replace(self.path, self.real)

    def roll_back(self) -> None:
        """Put the old content back (or remove a target that did not exist before)."""
        if self.backup is not None:
            os.replace(self.backup, self.real)
            self.backup = None
        elif not self.existed:
            os.unlink(self.real)

    def close(self) -> None:
        """Remove what is left of the temporaries and release their locks."""
        for path in (self.path, self.backup):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
        for fd in (self.fd, self.backup_fd):
            if fd >= 0:
                os.close(fd)
        self.fd = self.backup_fd = -1


def _sync_folder(folder: Path) -> None:
    """fsync a folder so that the renames in it survive a power cut (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_finishing: ContextVar[Held | None] = ContextVar("_finishing", default=None)


@contextlib.contextmanager
def finish_once_written() -> Iterator[None]:
    """A command's writing and its report of what it wrote, as one block: once a
    ``write_files`` in the block begins its renames, the signals that stop a command (Ctrl-C,
    SIGTERM, SIGHUP, SIGQUIT) are held to the end of the block and then dropped. The files are in place,
    so the work a signal would have stopped is done: the block runs to its end (the report) and
    the command ends as if it had not come; in a command run as a process they stay held to its
    end (``Held.drop``), so that one just after the report cannot say otherwise either. Before
    the first rename, a signal stops the block at once and the old files stay; one held when
    the block fails anyway (the files rolled back, the report not written) is delivered.
    """
    holding = Held()
    token = _finishing.set(holding)
    try:
        yield
    except BaseException:
        _finishing.reset(token)
        holding.release()
        raise
    _finishing.reset(token)
    holding.drop()


def write_files(files: Mapping[Path, bytes]) -> None:
    """Replace every ``path`` with its ``data``, all or none (see the module docstring).

    Raises OutputError naming the file that could not be written, or ValueError if two paths
    are the same file; either way no target has changed and no temporary is left. A signal
    that stops a command (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) before the renames acts at once (Ctrl-C's
    KeyboardInterrupt), nothing changed; from the first rename on it is held, and delivered
    once the files are all in place (inside ``finish_once_written``, dropped).
    """
    shown = [Path(path) for path in files]
    reals = check_targets(shown)
    finishing = _finishing.get()
    if finishing is not None:
        _transaction(shown, reals, list(files.values()), finishing)
        return
    renaming = Held()
    try:
        _transaction(shown, reals, list(files.values()), renaming)
    finally:
        renaming.release()  # to the handler it was meant for, now


def _transaction(shown: list[Path], reals: list[Path], contents: list[bytes], renaming: Held) -> None:
    """``write_files``'s steps 2 and 3, its targets checked; ``renaming`` holds the signals
    from the first rename on, and each rollback and clean-up holds them to its end."""
    remove_stale_temporaries(*reals)
    temporaries: list[_Temporary] = []
    installed: list[_Temporary] = []
    current = shown[0]
    try:
        try:
            for path, real, data in zip(shown, reals, contents, strict=True):
                current = path
                temporary = _Temporary(path, real)
                temporaries.append(temporary)
                temporary.write(data)
            if len(temporaries) > 1:
                for temporary in temporaries:
                    current = temporary.shown
                    temporary.keep_old()
            renaming.hold()
            for temporary in temporaries:
                current = temporary.shown
                temporary.install()
                installed.append(temporary)
        except BaseException:
            with held():
                for temporary in reversed(installed):
                    with contextlib.suppress(OSError):
                        temporary.roll_back()
            raise
    except OutputError:
        raise
    except OSError as error:
        raise OutputError(current, _reason(error)) from None
    finally:
        with held():
            for temporary in temporaries:
                temporary.close()
    for folder in {real.parent for real in reals}:
        _sync_folder(folder)


def fingerprint(path: Path) -> bytes | None:
    """The SHA-256 of the file at ``path`` before it is written (None: no file there, or one
    that cannot be read), so that the report can say whether the write changed it (``written``)."""
    import hashlib  # (only the commands that write a file and report it need it)

    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def written(path: Path | str, before: bytes | None, data: bytes) -> str:
    """What writing ``data`` did to ``path``, whose ``fingerprint`` was ``before``, for a report:
    ``wrote PATH`` (a new file), ``replaced PATH`` (other bytes) or ``rewrote PATH (unchanged)``
    (the same bytes: a rebuild that changed nothing says so)."""
    import hashlib

    if before is None:
        return f"wrote {path}"
    return f"rewrote {path} (unchanged)" if hashlib.sha256(data).digest() == before else f"replaced {path}"


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``; on any failure the old file stays and no temp file is left."""
    write_files({Path(path): data})


def read_regular_file(path: Path, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """The bytes of ``path`` and its status, refusing without blocking anything that is not a
    regular file (a FIFO would hang a plain ``open``) or is larger than ``max_bytes``.

    Raises InputFileError naming the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputFileError(path, "no such file") from None
    except OSError as error:
        raise InputFileError(path, f"cannot be read ({_reason(error)})") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise InputFileError(path, f"is {describe_kind(status.st_mode)}, not a regular file")
        if status.st_size > max_bytes:
            raise InputFileError(path, f"is larger than {max_bytes:,} bytes")
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 16):
            size += len(chunk)
            if size > max_bytes:
                raise InputFileError(path, f"is larger than {max_bytes:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks), status
    except OSError as error:
        if isinstance(error, InputFileError):
            raise
        raise InputFileError(path, f"cannot be read ({_reason(error)})") from None
    finally:
        os.close(fd)
