"""Editor validation: the ``# yaml-language-server: $schema=…`` line of a YAML file.

Editors that use the YAML language server (VS Code's YAML extension, Neovim, Helix, Emacs'
lsp-mode…) validate a file as you type against the schema its modeline names; a relative path
is resolved from the file's own folder.  Every rules file, the example collection and the
``new-edition`` skeleton carry one that resolves inside the repository
(``../kotc_rulesc/schemas/edition.schema.json`` from ``rules/``); a maintainer's own rules
checkout writes the schema out with ``kotc-rulesc schema edition -o FILE`` and points at it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .bundled import checkout_root, schema_path

__all__ = ["PREFIX", "find_modeline", "modeline", "resolves", "skeleton_modeline"]

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
    """Does the modeline ``line`` name a schema an editor finds from a file in ``folder``: a web
    address, or a path (relative to the folder) to a file that is there?"""
    target = find_modeline(line)
    if target is None:
        return False
    if re.match(r"^[a-z][a-z0-9+.-]*://", target, re.I):
        return True
    return (Path(folder) / target).is_file()


def skeleton_modeline(rules_dir: Path, exclude: Path | None = None) -> str | None:
    """The modeline for a new rules file in ``rules_dir``: the one its other rules files
    already carry (the newest that has one: it resolves from the same folder), else, in the
    source checkout, the path to the checkout's edition schema; ``None`` when neither is known."""
    from .rules_folder import FILE_NAME

    rules_dir = Path(rules_dir)
    files = sorted((p for p in rules_dir.iterdir() if FILE_NAME.match(p.name) and p != exclude), key=_edition_order, reverse=True) \
        if rules_dir.is_dir() else []
    for path in files:
        try:
            found = find_modeline(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        if found:
            return modeline(found)
    root = checkout_root()
    if root is not None:
        try:
            Path(rules_dir).resolve().relative_to(root)
        except ValueError:
            return None
        return modeline(Path(os.path.relpath(schema_path("edition"), Path(rules_dir).resolve())).as_posix())
    return None


def _edition_order(path: Path) -> tuple[int, int]:
    from .rules_folder import FILE_NAME

    m = FILE_NAME.match(path.name)
    assert m is not None
    return int(m.group(1)), 0 if m.group(2) else 1
