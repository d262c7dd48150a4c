"""Which entries of a rules folder are its rules files: every ``*.yaml`` / ``*.yml``.  One that cannot be
one (a FIFO, a device, a link to nothing) is reported, never opened: opening a FIFO waits for ever.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

#: how a rules file is named: ``edition-07.yaml``, ``edition-11-pre.yaml``
FILE_NAME = re.compile(r"^edition-(\d+)(-pre)?\.ya?ml$")
SUFFIXES = (".yaml", ".yml")

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_file(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file ("a FIFO (a named pipe)"), else None."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def listing(rules_dir: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """(the rules files of ``rules_dir``, sorted; the entries so named that cannot be one, each with what
    it is).  Raises OSError when the folder cannot be listed."""
    files: list[Path] = []
    odd: list[tuple[Path, str]] = []
    for path in sorted(Path(rules_dir).iterdir()):
        if path.suffix not in SUFFIXES:
            continue
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:  # a link to nothing, a loop of links, no permission to look
            odd.append((path, f"a link to nothing ({exc.strerror})" if os.path.islink(path)
                        else f"a file that cannot be looked at ({exc.strerror})"))
            continue
        kind = not_a_file(mode)
        if kind is None:
            files.append(path)
        else:
            odd.append((path, kind))
    return files, odd


def is_rules_file(path: str) -> bool:
    """Would the rules loader read a file at ``path`` (links already followed)?  Named like one
    (``edition-NN.yaml``), or a ``*.yaml`` / ``*.yml`` in a folder that holds one."""
    name = os.path.basename(path)
    if FILE_NAME.match(name):
        return True
    if not name.endswith(SUFFIXES):
        return False
    try:
        return any(FILE_NAME.match(n) for n in os.listdir(os.path.dirname(path) or "."))
    except OSError:
        return False
