"""Safe output: a temporary file beside the target, renamed into place only on success.

:class:`AtomicOutput` is a binary file object.  Everything is written to a
temporary file in the target's own directory (so that the final
:func:`os.replace` is one atomic rename on the same file system); :meth:`commit`
renames it into place, :meth:`discard` (or leaving the ``with`` block with an
exception) removes it.  An interrupted or failed run therefore leaves the target
as it was — the original collection intact, no partial output.

``-`` (standard output) is spooled to an anonymous temporary file and copied out
on commit, for the same reason: a run that fails half-way prints nothing.

With ``backup=True`` the file being replaced is kept as ``TARGET.bak`` (the
previous ``.bak`` is replaced); the backup is made before the rename — a second
name (a hard link) for the very file that was read, or a copy where the file
system has no links — so at every moment the original content exists under one
name or the other.  With ``expect`` (the device and inode of the file that was
read) the target must still be that file when the output is committed.

Outputs never destroy inputs (the policy ``migrate`` applies with
:func:`destination_problem` and :func:`same_file`): an output must be a regular
file (or ``-``) — a device, a FIFO or a directory is refused, so that nothing
ever replaces ``/dev/full`` with a file — and never an input.

Temporary files are named ``.TARGET.kotc-rulesc-XXXXXXXX.tmp`` and held with an
exclusive ``flock`` while they are written; a run that was killed leaves one
behind, and the next run writing to the same target removes those whose lock is
free (:func:`remove_stale`).  An OS error on output (a full disk, ``EIO``) is an
:class:`OutputError` naming the target; the temporary file is removed.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locks, no clean-up of others' files
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "AtomicOutput",
    "NullOutput",
    "OutputError",
    "Busy",
    "Changed",
    "backup_path",
    "destination_problem",
    "same_file",
    "remove_stale",
    "lock_exclusive",
    "locked_temp",
    "output_file",
    "TEMP_MARK",
]

#: what every temporary file of kotc-rulesc has in its name: ``.TARGET.kotc-rulesc-XXXXXXXX.tmp``
TEMP_MARK = ".kotc-rulesc-"
TEMP_SUFFIX = ".tmp"


class OutputError(OSError):
    """An OS error while writing an output (``filename`` names it): exit status 2."""


class Busy(Exception):
    """Another run holds the lock of the collection being migrated in place."""


class Changed(Exception):
    """The file being replaced is not the one that was read any more."""


def _output_error(exc: OSError, target: str) -> OutputError:
    if isinstance(exc, OutputError):
        return exc
    return OutputError(exc.errno, exc.strerror or str(exc), target)


def backup_path(target: str | os.PathLike) -> Path:
    return Path(f"{os.fspath(target)}.bak")


# --------------------------------------------------------------------------- what may be an output


_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def destination_problem(path: str) -> str | None:
    """Why ``path`` cannot be an output, or ``None``: it must be a regular file or not exist yet
    (``-``, standard output, is always fine).  A link is followed."""
    if path == "-":
        return None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot use {path}: {exc.strerror or exc}"
    for test, kind in _KINDS:
        if test(mode):
            return f"{path} is {kind}, not a file"
    return None


def same_file(a: str | None, b: str | None) -> bool:
    """Do ``a`` and ``b`` name one file (through links, hard links included)?  ``-`` and ``None``
    name no file."""
    if a in (None, "-") or b in (None, "-"):
        return False
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


# --------------------------------------------------------------------------- locks and stale files


def lock_exclusive(fd: int, path: str) -> bool:
    """Take the exclusive lock of the open file ``fd`` (without waiting; :class:`Busy` when another
    process holds it).  False when ``path`` no longer names that file (it was replaced between
    opening and locking: open it again)."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise Busy(path) from None
    except OSError:  # a file system without locks
        return True
    held = os.fstat(fd)
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def _temp_prefix(target: str) -> str:
    return f".{os.path.basename(target)}{TEMP_MARK}"


def remove_stale(target: str) -> list[str]:
    """Remove the temporary files of ``target`` (and of its ``.bak``) that runs which were killed
    left behind: those whose lock is free.  The names removed."""
    if fcntl is None:  # pragma: no cover
        return []
    directory = os.path.dirname(os.path.abspath(target))
    prefixes = (_temp_prefix(target), _temp_prefix(os.fspath(backup_path(target))))
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for name in names:
        if not (name.startswith(prefixes) and name.endswith(TEMP_SUFFIX)):
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
            held, now = os.fstat(fd), os.stat(path, follow_symlinks=False)
            if (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino):
                os.unlink(path)
                removed.append(name)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def locked_temp(target: str) -> tuple[int, str]:
    """A new temporary file beside ``target`` (``.TARGET.kotc-rulesc-XXXXXXXX.tmp``), open for reading
    and writing and locked: (descriptor, path).  Whoever asks removes it; one a killed run left is
    removed by the next run that writes ``target`` (:func:`remove_stale`)."""
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


def output_file(fd: int, target: str) -> io.BufferedWriter:
    """The open temporary file ``fd`` as a buffered binary file whose OS errors are
    :class:`OutputError` naming ``target``, the file it will become part of."""
    return io.BufferedWriter(_Raw(fd, target), 1 << 16)


class GuardedStream(io.RawIOBase):
    """A binary stream (standard output) whose OS errors are :class:`OutputError` naming it."""

    def __init__(self, stream: BinaryIO, name: str = "<stdout>"):
        self._stream = stream
        self._name = name

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        try:
            self._stream.write(data)
        except OSError as exc:
            raise _output_error(exc, self._name) from None
        return len(data)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise _output_error(exc, self._name) from None


# --------------------------------------------------------------------------- the output


class AtomicOutput:
    """A binary file that appears at ``target`` (or on standard output for ``-``) only on :meth:`commit`."""

    def __init__(self, target: str | os.PathLike, backup: bool = False, stdout: BinaryIO | None = None,
                 expect: tuple[int, int] | None = None):
        self.target = os.fspath(target)
        self.backup = backup
        self.expect = expect
        self._stdout = stdout
        self.committed = False
        if self.target == "-":
            self.temp_name = None
            self.file: BinaryIO = tempfile.TemporaryFile()
        else:
            remove_stale(self.target)
            fd, self.temp_name = locked_temp(self.target)
            self.file = output_file(fd, self.target)

    # file-like
    def write(self, data: bytes) -> int:
        try:
            return self.file.write(data)
        except OSError as exc:
            raise _output_error(exc, self._name()) from None

    def flush(self) -> None:
        try:
            self.file.flush()
        except OSError as exc:
            raise _output_error(exc, self._name()) from None

    def _name(self) -> str:
        return "<stdout>" if self.temp_name is None else self.target

    def commit(self) -> None:
        """Put the output in place (or copy it to standard output)."""
        if self.committed:
            return
        try:
            self._commit()
        except OSError as exc:
            raise _output_error(exc, self._name()) from None

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
        os.fsync(self.file.fileno())
        if os.path.exists(self.target):
            if self.expect is not None:
                now = os.stat(self.target)
                if (now.st_dev, now.st_ino) != self.expect:
                    raise Changed(self.target)
            shutil.copymode(self.target, self.temp_name)
            if self.backup:
                _make_backup(self.target)
        else:
            os.chmod(self.temp_name, 0o666 & ~_umask())
        os.replace(self.temp_name, self.target)  # the temporary file stays locked until it is in place
        self.committed = True
        self.file.close()

    def discard(self) -> None:
        """Forget everything written; the target is untouched."""
        if self.committed:
            return
        try:
            self.file.close()
        except OSError:
            pass
        finally:
            if self.temp_name is not None:
                try:
                    os.unlink(self.temp_name)
                except FileNotFoundError:
                    pass
        self.committed = True

    def __enter__(self) -> "AtomicOutput":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None or not self.committed:
            self.discard()


class NullOutput:
    """The output of a dry run: written to nowhere."""

    target = None

    def write(self, data: bytes) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def commit(self) -> None:
        pass

    def discard(self) -> None:
        pass

    def __enter__(self) -> "NullOutput":
        return self

    def __exit__(self, *exc) -> None:
        pass


def _make_backup(target: str) -> None:
    """``target.bak`` holding the current content of ``target`` (atomically replaced): a second name
    for the file itself, or a copy where the file system has no hard links."""
    bak = os.fspath(backup_path(target))
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
                os.fsync(dst.fileno())
            shutil.copystat(target, name)
        os.replace(name, bak)
    except BaseException:
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass
        raise
    finally:
        if fd is not None:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
