"""The one writer: every file kotc-rulesc writes appears whole or not at all, never in place of what it
must not replace (:func:`check_target`: a directory, a device, an input, a rules file, a link out of
build's folder).  A file is written beside its target, locked, synced and renamed into place
(:class:`AtomicOutput`); ``-`` is spooled and copied out at the end, so that a failed run prints
nothing.  Failures are :class:`~kotc_rulesc.errors.OutputError` / ``OutputRefused`` (exit status 2).
"""

from __future__ import annotations

import io
import os
from contextlib import suppress
import shutil
import stat
import sys
import tempfile
from typing import BinaryIO, Iterable

from .errors import OutputError, OutputRefused
from .rules_folder import is_rules_file, not_a_file

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locks, no clean-up of others' files
    fcntl = None  # type: ignore[assignment]

#: what every temporary file of kotc-rulesc has in its name: ``.TARGET.kotc-rulesc-XXXXXXXX.tmp``
TEMP_MARK = ".kotc-rulesc-"
TEMP_SUFFIX = ".tmp"


class Busy(Exception):
    """Another run holds the lock of the collection being migrated in place."""


class Changed(Exception):
    """The file being replaced is not the one that was read any more."""


def _output_error(exc: OSError, target: str) -> OutputError:
    if isinstance(exc, OutputError):
        return exc
    return OutputError(exc.errno, exc.strerror or str(exc), target)


def backup_path(target: str | os.PathLike) -> str:
    return f"{os.fspath(target)}.bak"


def destination_problem(path: str, rules_ok: bool = False) -> str | None:
    """Why ``path`` (links followed) cannot be an output, or ``None``: it must be a regular file or not
    exist yet, and not a rules file unless ``rules_ok``."""
    if path == "-":
        return None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        return f"cannot use {path}: {exc.strerror or exc}"
    kind = not_a_file(mode) if mode is not None else None
    if kind is not None:
        return f"{path} is {kind}, not a file"
    if not rules_ok and is_rules_file(os.path.realpath(path)):
        return f"{path} is a rules file (the rules loader reads it), not an output"
    return None


def same_file(a: str | None, b: str | None) -> bool:
    """Do ``a`` and ``b`` name one file (through links, hard links included)?  ``-`` and ``None`` name none."""
    if a in (None, "-") or b in (None, "-"):
        return False
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_target(path: str | os.PathLike, inputs: Iterable[tuple[str, str]] = (), rules_ok: bool = False,
                 within: str | os.PathLike | None = None) -> str:
    """The path to write ``path`` at — the file a link points to — or :class:`OutputRefused`.  ``inputs``:
    (path, what it is) of each file the command reads; ``within``: the folder ``path`` must lie in (:func:`_inside`)."""
    path = os.fspath(path)
    if path == "-":
        return path
    if within is not None:  # (no link on the way: the path is the file)
        _inside(os.fspath(within), path, make=False)
    problem = destination_problem(path, rules_ok)
    if problem:
        raise OutputRefused(problem)
    for name, what in inputs:
        if same_file(path, name):
            raise OutputRefused(f"{path} is {what} ({name}): writing it would replace it")
    return path if within is not None else os.path.realpath(path)


def _inside(root: str, path: str, make: bool) -> None:
    """``path`` lies under the folder ``root`` and neither it nor a folder between them is a link (a
    missing folder is made when ``make``): a build writes inside its folder or not at all."""
    rel = os.path.relpath(path, root)
    if rel.startswith(os.pardir) or os.path.isabs(rel):
        raise OutputRefused(f"{path} is outside {root}")
    parts = rel.split(os.sep)
    here = root
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        here = path if last else os.path.join(here, part)
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            if last or not make:
                return
            try:
                os.mkdir(here)
            except OSError as exc:
                raise _output_error(exc, here) from None
            continue
        if stat.S_ISLNK(mode):
            raise OutputRefused(f"{here} is a symbolic link ({os.readlink(here)}): kotc-rulesc writes only inside "
                                f"{root}, never through a link; remove the link")
        if not last and not stat.S_ISDIR(mode):
            raise OutputRefused(f"{here} is in the way: kotc-rulesc needs a folder there")


def write_file(path: str | os.PathLike, data: bytes, inputs: Iterable[tuple[str, str]] = (), rules_ok: bool = False,
               backup: bool = False, within: str | os.PathLike | None = None) -> None:
    """Write ``data`` to ``path`` (``-``: standard output) as :class:`AtomicOutput` does, after
    :func:`check_target`; with ``within`` the folders below it are made as needed."""
    path = os.fspath(path)
    real = check_target(path, inputs, rules_ok, within)
    if within is not None:
        _inside(os.fspath(within), path, make=True)
    with AtomicOutput(real, backup=backup, name=path) as out:
        out.write(data)
        out.commit()


def remove_file(path: str | os.PathLike, within: str | os.PathLike) -> bool:
    """Remove the regular file ``path`` inside the folder ``within`` (reached without following links);
    False (nothing removed) when it is anything else or is gone."""
    path = os.fspath(path)
    try:
        _inside(os.fspath(within), path, make=False)
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        os.unlink(path)
    except (FileNotFoundError, OutputRefused):
        return False
    except OSError as exc:
        raise _output_error(exc, path) from None
    return True


def lock_exclusive(fd: int, path: str) -> bool:
    """Take the lock of the open file ``fd`` without waiting (:class:`Busy` when another process holds it);
    False when ``path`` no longer names that file (it was replaced meanwhile)."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise Busy(path) from None
    except OSError:  # a file system without locks
        return True
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


def _temp_prefix(target: str) -> str:
    return f".{os.path.basename(target)}{TEMP_MARK}"


def remove_stale(target: str) -> None:
    """Remove the temporary files of ``target`` (and of its ``.bak``) that killed runs left (their lock is free)."""
    prefixes = (_temp_prefix(target), _temp_prefix(backup_path(target)))
    _remove_stale(os.path.dirname(os.path.abspath(target)), lambda name: name.startswith(prefixes))


def remove_stale_in(directory: str | os.PathLike) -> None:
    """Remove every temporary file of kotc-rulesc in ``directory`` whose lock is free (a build's folder)."""
    _remove_stale(os.fspath(directory), lambda name: name.startswith(".") and TEMP_MARK in name)


def _remove_stale(directory: str, ours) -> None:
    if fcntl is None:  # pragma: no cover
        return
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (ours(name) and name.endswith(TEMP_SUFFIX)):
            continue
        path = os.path.join(directory, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a live run's file
            if os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False)):
                os.unlink(path)
        except OSError:
            continue
        finally:
            os.close(fd)


def locked_temp(target: str) -> tuple[int, str]:
    """A new temporary file beside ``target`` (``.TARGET.kotc-rulesc-XXXXXXXX.tmp``), open and locked:
    (descriptor, path).  One a killed run left is removed by the next run (:func:`remove_stale`)."""
    directory = os.path.dirname(os.path.abspath(target))
    while True:
        fd, name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=TEMP_SUFFIX, dir=directory)
        if fcntl is None:  # pragma: no cover
            return fd, name
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass
        if os.fstat(fd).st_nlink > 0:
            return fd, name
        os.close(fd)  # another run took it for stale between its creation and the lock: again


_write = io.FileIO.write  # (a test puts a full disk here)
_fsync = os.fsync  # (and here)


class _Raw(io.FileIO):
    """The temporary file's descriptor: an OS error names the target."""

    def __init__(self, fd: int, target: str):
        super().__init__(fd, "wb", closefd=True)
        self._target = target

    def write(self, data) -> int:  # type: ignore[override]
        try:
            return _write(self, data)
        except OSError as exc:
            raise _output_error(exc, self._target) from None


class GuardedStream(io.RawIOBase):
    """A binary stream (standard output) whose OS errors are :class:`OutputError` naming it."""

    def __init__(self, stream: BinaryIO):
        self._stream = stream

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        try:
            self._stream.write(data)
        except OSError as exc:
            raise _output_error(exc, "<stdout>") from None
        return len(data)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise _output_error(exc, "<stdout>") from None


class AtomicOutput:
    """A binary file that appears at ``target`` (links followed; ``-``: standard output) only on :meth:`commit`.

    ``backup`` keeps the file replaced as ``TARGET.bak``; ``expect`` (device, inode) refuses to replace
    a file another program put there meanwhile (:class:`Changed`); ``name``: how errors name it."""

    def __init__(self, target: str | os.PathLike, backup: bool = False, stdout: BinaryIO | None = None,
                 expect: tuple[int, int] | None = None, name: str | None = None):
        self.target = os.fspath(target)
        self.name = "<stdout>" if self.target == "-" else name or self.target
        self.backup = backup
        self.expect = expect
        self._stdout = stdout
        self.committed = False
        if self.target == "-":
            self.temp_name = None
            self.file: BinaryIO = tempfile.TemporaryFile()
        else:
            remove_stale(self.target)
            try:  # (a read-only folder, a missing one, no permission: named, never a traceback)
                fd, self.temp_name = locked_temp(self.target)
            except OSError as exc:
                raise _output_error(exc, self.name) from None
            self.file = io.BufferedWriter(_Raw(fd, self.name), 1 << 16)

    def write(self, data: bytes) -> int:
        try:
            return self.file.write(data)
        except OSError as exc:
            raise _output_error(exc, self.name) from None

    def commit(self) -> None:
        """Put the output in place (or copy it to standard output)."""
        if self.committed:
            return
        try:
            self._commit()
        except OSError as exc:
            raise _output_error(exc, self.name) from None

    def _commit(self) -> None:
        if self.temp_name is None:
            self.file.flush()
            self.file.seek(0)
            out = self._stdout or sys.stdout.buffer
            shutil.copyfileobj(self.file, out, 1 << 20)
            out.flush()
            self.file.close()
            self.committed = True
            return
        self.file.flush()
        _fsync(self.file.fileno())
        if os.path.exists(self.target):
            if self.expect is not None:
                now = os.stat(self.target)
                if (now.st_dev, now.st_ino) != self.expect:
                    raise Changed(self.target)
            shutil.copymode(self.target, self.temp_name)
            if self.backup:
                try:
                    _make_backup(self.target)
                except OSError as exc:  # (the backup named: "cards.yaml.bak: Is a directory")
                    raise _output_error(exc, backup_path(self.target)) from None
        else:
            os.chmod(self.temp_name, 0o666 & ~_umask())
        os.replace(self.temp_name, self.target)  # the temporary file stays locked until it is in place
        self.committed = True
        self.file.close()
        _sync_folder(os.path.dirname(os.path.abspath(self.target)))

    def discard(self) -> None:
        """Forget everything written; the target is untouched."""
        if self.committed:
            return
        try:
            with suppress(OSError):
                self.file.close()
        finally:
            if self.temp_name is not None:
                with suppress(FileNotFoundError):
                    os.unlink(self.temp_name)
        self.committed = True

    def __enter__(self) -> "AtomicOutput":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None or not self.committed:
            self.discard()


class NullOutput:
    """The output of a dry run: written to nowhere."""

    def write(self, data: bytes) -> int:
        return len(data)

    def commit(self) -> None:
        pass

    discard = commit


def _make_backup(target: str) -> None:
    """``target.bak``, atomically replaced: a second name for the file itself (else a copy)."""
    bak = backup_path(target)
    directory = os.path.dirname(os.path.abspath(target))
    name = os.path.join(directory, f"{_temp_prefix(bak)}{os.getpid()}-{os.urandom(4).hex()}{TEMP_SUFFIX}")
    fd = None
    try:
        try:
            os.link(target, name)
        except OSError:
            fd, name = locked_temp(bak)
            with open(target, "rb") as src, os.fdopen(os.dup(fd), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
                dst.flush()
                _fsync(dst.fileno())
            shutil.copystat(target, name)
        os.replace(name, bak)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(name)
        raise
    finally:
        if fd is not None:
            os.close(fd)


def _sync_folder(directory: str) -> None:
    """The rename made durable: the folder's entry flushed too (where the system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with suppress(OSError):  # (a file system that cannot sync a folder: the rename stands)
            _fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
