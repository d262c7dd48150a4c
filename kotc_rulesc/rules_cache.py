"""Loaded rules, kept between runs: `check`, `show`, `diff` … read the YAML once per change.

Reading and checking the rules files (YAML, JSON Schema, meaning, the replayed history) takes
most of a second; the result depends on nothing but the files' bytes and the code that reads
them.  So a clean load is pickled under a key that hashes exactly those — every rules file's
name and bytes, the directory as given and the working directory (problems and file names are
shown relative to it), and every source file of ``kotc_rulesc`` and its schemas — and reused
while the key matches: a cache that cannot be stale, only missed.  Rules with problems are
never cached (they are re-read, and every problem reported, each time).  What is kept is the
rules as declared; their history is replayed again (:func:`kotc_rulesc.fold.history_of`) by the
commands that fold a catalog, which is quicker than unpickling it.

The cache lives in ``$KOTC_RULESC_CACHE`` or ``$XDG_CACHE_HOME/kotc-rulesc`` (by default
``~/.cache/kotc-rulesc``); ``KOTC_RULESC_CACHE=off`` turns it off.  A cache that cannot be read
or written is ignored: it never fails a command.  This module imports neither ruamel.yaml nor
jsonschema: a hit needs neither.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from . import bundled

__all__ = ["build_key", "cache_dir", "check_rules", "load_rules", "read_verdict", "write_verdict"]

#: bumped when what is pickled changes shape in a way the code hash would not show
_VERSION = b"kotc-rulesc rules cache 1"
_code_hash: str | None = None


def cache_dir() -> Path | None:
    """Where the cache lives; ``None`` when it is turned off."""
    setting = os.environ.get("KOTC_RULESC_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kotc-rulesc"


def _code() -> str:
    """A hash of the code that reads rules: every .py and .json file of the package."""
    global _code_hash
    if _code_hash is None:
        h = hashlib.sha256(_VERSION)
        root = bundled.PACKAGE_DIR
        found = []  # (the file's path under the package, as parts; its path)
        for folder, folders, names in os.walk(root):  # (os.walk, not Path.rglob: half the time)
            folders[:] = [f for f in folders if f != "__pycache__"]
            under = Path(folder).relative_to(root).parts
            found.extend((under + (name,), os.path.join(folder, name)) for name in names if name.endswith((".py", ".json")))
        for parts, path in sorted(found):
            with open(path, "rb") as f:
                h.update("/".join(parts).encode() + b"\0" + f.read() + b"\0")
        _code_hash = h.hexdigest()
    return _code_hash


def _key(directory: str | Path | None) -> str | None:
    """The key of the rules in ``directory`` as they are now; ``None`` when they cannot be read
    (the loader then says why)."""
    root = Path(directory) if directory is not None else bundled.rules_dir()
    h = hashlib.sha256(_code().encode())
    # (the interpreter and its environment: another venv may hold other ruamel.yaml or jsonschema)
    h.update(f"{sys.version}\0{sys.executable}\0{directory!s}\0{root.resolve()}\0{os.getcwd()}\0".encode())
    try:
        paths = sorted(p for p in root.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
        for path in paths:
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return h.hexdigest() if paths else None


def _path(key: str, kind: str = "rules") -> Path | None:
    where = cache_dir()
    return where / f"{kind}-{key[:40]}.pickle" if where is not None else None


def _read(key: str, kind: str = "rules") -> Any:
    path = _path(key, kind)
    if path is None or not path.is_file():
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
        with _gc_paused():
            rules = pickle.loads(data)
        os.utime(path)  # (used: kept)
        return rules
    except Exception:  # a damaged or foreign file: a miss, never an error
        return None


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Unpickling the rules makes thousands of objects, none of them garbage; the cyclic garbage
    collector, run every few hundred of them, would walk the growing graph again and again (a
    third of the unpickling time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _write(key: str, rules: Any, kind: str = "rules") -> None:
    path = _path(key, kind)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("*.pickle"):  # entries no run has used for a week go
            if old != path and old.stat().st_mtime < _stale_before():
                old.unlink(missing_ok=True)
        import tempfile  # (only a miss writes: a hit need not import it)

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{kind}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(rules, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # a read-only home, a full disk, something unpicklable: no cache, no error
        try:
            os.unlink(tmp)  # type: ignore[possibly-undefined]
        except Exception:
            pass


def _stale_before() -> float:
    import time

    return time.time() - 7 * 24 * 3600  # entries unused for a week


def check_rules(directory: str | Path | None = None) -> tuple[Any, list[Any]]:
    """:func:`kotc_rulesc.loader.check_rules`, from the cache when the rules are unchanged."""
    key = _key(directory)
    if key is not None:
        rules = _read(key)
        if rules is not None:
            return rules, []
    from .loader import check_rules as read  # ruamel.yaml and jsonschema load only on a miss

    rules, problems = read(directory)
    if key is not None and rules is not None and not problems:
        from .record import replace

        # the declarations only: the loader's replay of them (RuleSet.history) is three times
        # their size, and replaying again (fold.history_of, only when a catalog is asked for) is
        # quicker than unpickling it
        _write(key, replace(rules, history=None))
    return rules, problems


def load_rules(directory: str | Path | None = None) -> Any:
    """:func:`kotc_rulesc.loader.load_rules`, from the cache when the rules are unchanged."""
    rules, problems = check_rules(directory)
    if problems:
        from .errors import ProblemsFound

        raise ProblemsFound(problems)
    return rules


# --------------------------------------------------------------------------- build --check verdicts


def build_key(rules_dir: str | Path, out_dir: str | Path) -> str | None:
    """What a build's output depends on: the rules (as :func:`_key`), the templates and the docs'
    topic pages, and where it goes; ``None`` when the rules cannot be read."""
    key = _key(rules_dir)
    if key is None:
        return None
    h = hashlib.sha256(key.encode() + b"\0" + str(Path(out_dir).resolve()).encode() + b"\0")
    for folder in (bundled.templates_dir(), bundled.docs_dir()):  # (the docs site's templates and topic pages)
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(str(path.relative_to(folder.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def read_verdict(key: str | None) -> str | None:
    """The hash of the MANIFEST.json a full ``build --check`` found up to date for ``key``."""
    return _read(key, "build") if key is not None else None


def write_verdict(key: str | None, manifest_sha256: str) -> None:
    if key is not None:
        _write(key, manifest_sha256, "build")
