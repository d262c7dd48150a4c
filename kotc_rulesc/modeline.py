"""Editor validation: the ``# yaml-language-server: $schema=…`` line of a YAML file.

Editors that use the YAML language server validate a file as you type against the schema its modeline
names, a relative path resolved from the file's own folder.  Every rules file carries one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .bundled import checkout_root, schema_path
from .rules_folder import FILE_NAME

PREFIX = "# yaml-language-server: $schema="
#: a modeline as the YAML language server reads it (any comment line of the file)
_MODELINE = re.compile(r"^\s*#\s*yaml-language-server\s*:\s*\$schema=(\S+)", re.MULTILINE)


def modeline(target: str) -> str:
    """The modeline naming ``target`` (a path relative to the file, or a URL)."""
    return PREFIX + target


def find_modeline(text: str) -> str | None:
    """The schema a YAML text's modeline names, or ``None``."""
    m = _MODELINE.search(text)
    return m.group(1) if m else None


def resolves(line: str, folder: Path) -> bool:
    """Does the modeline ``line`` name a schema an editor finds from ``folder`` (a web address, or a file there)?"""
    target = find_modeline(line)
    if target is None:
        return False
    return bool(re.match(r"^[a-z][a-z0-9+.-]*://", target, re.I)) or (Path(folder) / target).is_file()


def skeleton_modeline(rules_dir: Path, exclude: Path | None = None) -> str | None:
    """The modeline for a new rules file in ``rules_dir``: the one the newest of its rules files carries,
    else, in the source checkout, the path to the edition schema; ``None`` when neither is known."""
    rules_dir = Path(rules_dir)
    files = [p for p in rules_dir.iterdir() if FILE_NAME.match(p.name) and p != exclude] if rules_dir.is_dir() else []
    for path in sorted(files, key=_edition_order, reverse=True):
        try:
            found = find_modeline(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        if found:
            return modeline(found)
    root, folder = checkout_root(), rules_dir.resolve()
    if root is None or not folder.is_relative_to(root):
        return None
    return modeline(Path(os.path.relpath(schema_path("edition"), folder)).as_posix())


def _edition_order(path: Path) -> tuple[int, int]:
    m = FILE_NAME.match(path.name)
    return int(m.group(1)), 0 if m.group(2) else 1
