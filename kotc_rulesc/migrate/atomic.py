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
previous ``.bak`` is replaced); the backup is made before the rename, so at every
moment the original content exists under one name or the other.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

__all__ = ["AtomicOutput", "NullOutput", "backup_path"]


def backup_path(target: str | os.PathLike) -> Path:
    return Path(f"{os.fspath(target)}.bak")


class AtomicOutput:
    """A binary file that appears at ``target`` (or on standard output for ``-``) only on :meth:`commit`."""

    def __init__(self, target: str | os.PathLike, backup: bool = False, stdout: BinaryIO | None = None):
        self.target = os.fspath(target)
        self.backup = backup
        self._stdout = stdout
        self.committed = False
        if self.target == "-":
            self.temp_name = None
            self.file: BinaryIO = tempfile.TemporaryFile()
        else:
            directory = os.path.dirname(os.path.abspath(self.target))
            fd, self.temp_name = tempfile.mkstemp(
                prefix=f".{os.path.basename(self.target)}.", suffix=".tmp", dir=directory
            )
            self.file = os.fdopen(fd, "wb")

    # file-like
    def write(self, data: bytes) -> int:
        return self.file.write(data)

    def flush(self) -> None:
        self.file.flush()

    def commit(self) -> None:
        """Put the output in place (or copy it to standard output)."""
        if self.committed:
            return
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
        self.file.close()
        if os.path.exists(self.target):
            shutil.copymode(self.target, self.temp_name)
            if self.backup:
                _make_backup(self.target)
        else:
            os.chmod(self.temp_name, 0o666 & ~_umask())
        os.replace(self.temp_name, self.target)
        self.committed = True

    def discard(self) -> None:
        """Forget everything written; the target is untouched."""
        if self.committed:
            return
        try:
            self.file.close()
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
    """``target.bak`` holding the current content of ``target`` (atomically replaced)."""
    bak = backup_path(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{bak.name}.", suffix=".tmp", dir=os.path.dirname(os.path.abspath(target)))
    os.close(fd)
    try:
        shutil.copy2(target, tmp)
        os.replace(tmp, bak)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
