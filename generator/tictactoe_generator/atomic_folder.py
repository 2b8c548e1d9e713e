"""Write a folder's files all at once or not at all (``write_into``), and check first where a
folder lands (``folder_target``): tictactoe_generator.atomic's transaction, for the files of
one folder, and past FOLDER_AT_ONCE files the folder written whole and renamed into place.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path

from tictactoe_book.apps.signals import Held, held
from tictactoe_book.errors import OutputError
from tictactoe_generator.atomic import (
    TEMP_MARK,
    _finishing,
    _reason,
    _sync_folder,
    describe_kind,
    write_files,
)


def folder_target(folder: str | Path) -> Path:
    """Where writing into ``folder`` lands, checked before any work: an existing folder (a link
    to one is followed), or one to create whose nearest existing ancestor is a writable folder.
    Raises OutputError naming ``folder`` as given (``keep.json/``, whose slash a Path drops)
    otherwise: a file where a folder should be, above all."""
    real = Path(os.path.realpath(folder))
    existing = real
    while not os.path.lexists(existing):
        existing = existing.parent
    try:
        mode = os.stat(existing).st_mode
    except OSError as error:  # a dangling link, a loop of links
        raise OutputError(folder, _reason(error)) from None
    if not stat.S_ISDIR(mode):
        kind = "a file" if stat.S_ISREG(mode) else describe_kind(mode)
        where = "it" if existing == real else repr(str(existing))
        raise OutputError(folder, f"{where} is {kind}, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        read_only = bool(os.statvfs(existing).f_flag & os.ST_RDONLY)
        raise OutputError(folder, os.strerror(errno.EROFS if read_only else errno.EACCES))
    return real


#: Files written into a folder at once past which the folder is written whole (``write_into``):
#: each file of ``write_files`` holds up to two descriptors to the end (a 4x5 book by parts has
#: about 40,000 files, and a process may open 1,024 to 20,000).
FOLDER_AT_ONCE = 256


def write_into(folder: str | Path, files: Mapping[str, bytes]) -> None:
    """Write each ``name: data`` of ``files`` into ``folder``, all or none (``write_files``),
    creating the folder and any missing parent first, and the folders within it that a name
    holds (``src/lib.rs``); a failure removes the folders it made. Over FOLDER_AT_ONCE files
    (none in a folder within), the folder is written whole instead (``_write_folder``)."""
    if len(files) > FOLDER_AT_ONCE and all(Path(name).name == name for name in files):
        _write_folder(folder, files)
        return
    real = folder_target(folder)
    missing = []
    while not os.path.lexists(real):
        missing.append(real)
        real = real.parent
    within = sorted({parent for name in files for parent in Path(name).parents if parent != Path(".")})
    made: list[Path] = []
    try:
        try:
            for path in [*reversed(missing), *(Path(folder) / inner for inner in within)]:
                if not os.path.lexists(path):
                    with held():  # made and recorded as one
                        os.mkdir(path)
                        made.append(path)
        except OSError as error:
            raise OutputError(folder, _reason(error)) from None
        write_files({Path(folder) / name: data for name, data in files.items()})
    except BaseException:
        with held():
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(path)
        raise


def _write_folder(folder: str | Path, files: Mapping[str, bytes]) -> None:
    """``files`` as the whole content of ``folder``, all or none: written into a new locked
    folder beside it (``.NAME.ttt-tmp-<random>``), fsynced, then renamed into place; an old
    folder there is renamed away first and removed after (renamed back if the second rename
    fails). The old folder may hold only files of the kinds written (the same suffix), which
    the new content replaces: anything else is refused, untouched. Signals are held from the
    first rename, as ``write_files`` holds them; the folders it made are removed on failure."""
    real = folder_target(folder)
    kinds = {Path(name).suffix for name in files}
    try:
        if os.path.isdir(real):
            with os.scandir(real) as entries:
                wrong = [
                    entry.name
                    for entry in entries
                    if entry.name not in files
                    and (Path(entry.name).suffix not in kinds or not entry.is_file(follow_symlinks=False))
                ]
            if wrong:
                what = f"it holds {wrong[0]!r}, not a file of what is written there"
                raise OutputError(folder, f"{what}: name another folder")
        missing = []
        parent = real.parent
        while not os.path.lexists(parent):
            missing.append(parent)
            parent = parent.parent
        made: list[Path] = []
        for path in reversed(missing):
            with held():  # made and recorded as one
                os.mkdir(path)
                made.append(path)
    except OSError as error:
        if isinstance(error, OutputError):
            raise
        raise OutputError(folder, _reason(error)) from None
    _remove_unheld_folders(real)
    new: Path | None = None
    fd = -1
    try:
        try:
            with held():  # made and recorded as one
                new = real.parent / f".{real.name}{TEMP_MARK}{secrets.token_hex(6)}"
                os.mkdir(new)
                fd = os.open(new, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            fcntl.flock(fd, fcntl.LOCK_EX)
            for name, data in files.items():
                out = os.open(
                    new / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666
                )
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(out, view) :]
                    os.fsync(out)
                finally:
                    os.close(out)
            os.fsync(fd)
            finishing = _finishing.get()
            renaming = finishing if finishing is not None else Held()
            renaming.hold()
            try:
                if os.path.lexists(real):
                    os.chmod(new, stat.S_IMODE(os.stat(real).st_mode))
                    old = real.parent / f".{real.name}{TEMP_MARK}{secrets.token_hex(6)}"
                    os.rename(real, old)
                    try:
                        os.rename(new, real)
                    except OSError:
                        os.rename(old, real)
                        raise
                    new = None
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    os.rename(new, real)
                    new = None
                _sync_folder(real.parent)
            finally:
                if finishing is None:
                    renaming.release()
        except OSError as error:
            raise OutputError(folder, _reason(error)) from None
    except BaseException:
        with held():
            if new is not None:
                shutil.rmtree(new, ignore_errors=True)
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(path)
        raise
    finally:
        if fd >= 0:
            os.close(fd)


def _remove_unheld_folders(real: Path) -> None:
    """The temporary folders of ``real`` beside it that no writer holds (a write killed with
    SIGKILL left them), removed."""
    with contextlib.suppress(OSError):
        for name in os.listdir(real.parent):
            if name.startswith(f".{real.name}{TEMP_MARK}"):
                path = real.parent / name
                with contextlib.suppress(OSError):
                    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: another writer is at work
                        shutil.rmtree(path)
                    finally:
                        os.close(fd)
