"""The output directory on disk and its MANIFEST.json: which files it holds, what they derive from,
and whether they are exactly what a build of the rules would write.

Standard library only, and light: the commands that ask whether generated/ answers for a rules
folder (check, show, diff, the card commands, ``build --check``) import this, not the generators."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path, PurePosixPath

__all__ = ["IGNORED_DIRS", "MANIFEST", "inputs", "on_disk", "up_to_date"]

MANIFEST = "MANIFEST.json"
IGNORED_DIRS = frozenset({"__pycache__"})
_IGNORED_SUFFIXES = (".pyc", ".pyo")
SCHEMA_NAME = "kotc_rulesc/schemas/edition.schema.json"


def _sha256(path: Path | str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def on_disk(out_dir: Path) -> list[str]:
    """The files under ``out_dir`` (relative, POSIX), byte-code caches left out."""
    if not out_dir.is_dir():
        return []
    found = []
    for root, dirs, names in os.walk(out_dir):
        dirs[:] = [d for d in dirs if d not in IGNORED_DIRS]
        under = PurePosixPath(Path(root).relative_to(out_dir).as_posix())  # (once a folder: "." at the top)
        found.extend(str(under / name) for name in names if not name.endswith(_IGNORED_SUFFIXES))
    return sorted(found)


def inputs(rules_dir: Path, templates: bool = True) -> list[tuple[str, str]]:
    """What a build of ``rules_dir`` derives from, as (name, sha256): every rules file the loader
    reads, named ``<folder name>/<file name>`` so that the names do not depend on where the build
    runs; the edition schema; and (``templates``) the documents' templates and topic pages.  Raises
    OSError when the folder cannot be read."""
    from .bundled import PACKAGE_DIR, docs_dir, templates_dir

    label = rules_dir.resolve().name or "rules"
    files = sorted(p for p in rules_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    out = [(f"{label}/{p.name}", _sha256(p)) for p in files]
    out.append((SCHEMA_NAME, _sha256(PACKAGE_DIR / "schemas" / "edition.schema.json")))
    if templates:
        root = templates_dir()
        found = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        out += [(f"templates/{name}", _sha256(root / name)) for name in found]
        topics = docs_dir()
        out += [(f"docs/{p.name}", _sha256(p)) for p in sorted(topics.iterdir()) if p.suffix in (".md", ".png")] if topics.is_dir() else []
    return out


def up_to_date(out_dir: Path, rules_dir: Path) -> bool:
    """Is ``out_dir`` what this kotc-rulesc builds from ``rules_dir``, without building it?  Its
    MANIFEST.json names this generator and today's inputs (:func:`inputs`), and every file it
    lists is on disk with its recorded hash, and no other.  (Only where the code cannot have
    changed since the build: the generator names kotc-rulesc's version, not its source.)"""
    from .tables import GENERATOR

    try:
        manifest = json.loads((out_dir / MANIFEST).read_bytes())
        sources = [(s["path"], s["sha256"]) for s in manifest["sources"]]
        listed = {f["path"]: f["sha256"] for f in manifest["files"]}
        if manifest["generator"] != GENERATOR or sources != inputs(rules_dir):
            return False
        if set(on_disk(out_dir)) != set(listed) | {MANIFEST}:
            return False
        return all(_sha256(out_dir / path) == sha for path, sha in listed.items())
    except (OSError, ValueError, KeyError, TypeError):
        return False
