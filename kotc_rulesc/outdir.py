"""The output directory and its MANIFEST.json: which files it holds, what they derive from, and whether
they are what a build would write.  Standard library only: the commands served by the tables ask it."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path, PurePosixPath

MANIFEST = "MANIFEST.json"
IGNORED_DIRS = frozenset({"__pycache__"})
_IGNORED_SUFFIXES = (".pyc", ".pyo")
SCHEMA_NAME = "kotc_rulesc/schemas/edition.schema.json"


def _sha256(path: Path | str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_regular(path: Path | str) -> bytes | None:
    """The content of the regular file ``path``, or None when it is anything else (a link, a FIFO: never
    waited on) or is not there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return f.read()


def read_manifest(out_dir: Path) -> dict | None:
    """``out_dir``'s MANIFEST.json as data, or None (none there, not a regular file, not a JSON object)."""
    data = read_regular(out_dir / MANIFEST)
    try:
        manifest = json.loads(data) if data is not None else None
    except ValueError:
        return None
    return manifest if isinstance(manifest, dict) else None


def owned_paths(manifest: dict | None) -> set[str] | None:
    """The files a build wrote in the folder of ``manifest`` (``files``, or ``building`` while a build is
    under way or was interrupted), plain relative paths only; None when it is not a kotc-rulesc build's."""
    if manifest is None or not str(manifest.get("generator", "")).startswith("kotc-rulesc ") \
            or not isinstance(manifest.get("format"), int):
        return None
    files, building = manifest.get("files"), manifest.get("building")
    if isinstance(files, list) and all(isinstance(f, dict) for f in files):
        listed = [f.get("path") for f in files]
    elif isinstance(building, list):
        listed = building
    else:
        return None
    return {p for p in listed if isinstance(p, str) and _plain(p)} | {MANIFEST}


def _plain(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return bool(parts) and not PurePosixPath(path).is_absolute() and ".." not in parts and "\\" not in path


def on_disk(out_dir: Path) -> list[str]:
    """The files under ``out_dir`` (relative, POSIX), byte-code caches and the writer's temporary files left out."""
    if not out_dir.is_dir():
        return []
    found = []
    for root, dirs, names in os.walk(out_dir):
        dirs[:] = [d for d in dirs if d not in IGNORED_DIRS]
        under = PurePosixPath(Path(root).relative_to(out_dir).as_posix())  # (once a folder: "." at the top)
        found.extend(str(under / name) for name in names if not name.endswith(_IGNORED_SUFFIXES) and not _temporary(name))
    return sorted(found)


def _temporary(name: str) -> bool:
    """A temporary file of the writer (:mod:`kotc_rulesc.output`): never part of a build."""
    return name.startswith(".") and ".kotc-rulesc-" in name and name.endswith(".tmp")


def inputs(rules_dir: Path, templates: bool = True) -> list[tuple[str, str]]:
    """What a build of ``rules_dir`` derives from, as (name, sha256): every rules file (named ``<folder
    name>/<file name>``: the same wherever the build runs), the edition schema, and (``templates``) the
    templates and topic pages.  Raises OSError when the folder cannot be read."""
    from .bundled import PACKAGE_DIR, docs_dir, templates_dir
    from .rules_folder import listing

    label = rules_dir.resolve().name or "rules"
    files, odd = listing(rules_dir)
    if odd:  # (a FIFO is never read: the loader names it)
        raise OSError(f"{odd[0][0]} is {odd[0][1]}, not a rules file")
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
    """Is ``out_dir`` what this kotc-rulesc builds from ``rules_dir``, without building it?  Its manifest
    names this generator and today's inputs, and every file it lists is on disk with its hash, no other."""
    from .tables import GENERATOR

    try:
        manifest = read_manifest(out_dir)
        if manifest is None:
            return False
        sources = [(s["path"], s["sha256"]) for s in manifest["sources"]]
        listed = {f["path"]: f["sha256"] for f in manifest["files"]}
        if manifest["generator"] != GENERATOR or sources != inputs(rules_dir):
            return False
        if set(on_disk(out_dir)) != set(listed) | {MANIFEST}:
            return False
        return all((data := read_regular(out_dir / path)) is not None and hashlib.sha256(data).hexdigest() == sha
                   for path, sha in listed.items())
    except (OSError, ValueError, KeyError, TypeError):
        return False
