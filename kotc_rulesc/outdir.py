"""The output directory on disk: which files it holds, and whether they are exactly what its
MANIFEST.json says (``build --check``'s fast path, which needs no code generator).

Standard library only, and light: ``build --check`` on unchanged rules imports this, not the
generators."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path, PurePosixPath

__all__ = ["IGNORED_DIRS", "MANIFEST", "manifest_sha256", "matches_manifest", "on_disk"]

MANIFEST = "MANIFEST.json"
IGNORED_DIRS = frozenset({"__pycache__"})
_IGNORED_SUFFIXES = (".pyc", ".pyo")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


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


def manifest_sha256(out_dir: Path) -> str | None:
    """The hash of the output's MANIFEST.json; ``None`` when it has none."""
    try:
        return _sha256((out_dir / MANIFEST).read_bytes())
    except OSError:
        return None


def matches_manifest(out_dir: Path, verified: str) -> bool:
    """Is the output exactly what the MANIFEST.json it holds says — that MANIFEST the one a full
    check found up to date (``verified``, its hash), every file it lists on disk with its
    recorded hash, and no other file?  (``build --check``'s fast path: a build of the same
    inputs would give that MANIFEST again.)"""
    if manifest_sha256(out_dir) != verified:
        return False
    try:
        listed = {f["path"]: f["sha256"] for f in json.loads((out_dir / MANIFEST).read_bytes())["files"]}
        if set(on_disk(out_dir)) != set(listed) | {MANIFEST}:
            return False
        return all(_sha256(_read(os.path.join(out_dir, path))) == sha for path, sha in listed.items())
    except (OSError, ValueError, KeyError, TypeError):
        return False
