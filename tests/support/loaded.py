"""Rules directories read once per test session, for as long as their files are unchanged.

Reading a rules directory (YAML, JSON Schema, meaning, the replayed history) costs about a
second, and dozens of test modules read the same bundled rules or fixtures.  A ``RuleSet`` is a
frozen value and a ``FoldedRules`` only remembers what it derived, so tests that read them can
share one; a key over every rules file's name and bytes means a directory a test has just
written or changed is read again.  Tests of the loader itself call ``load_rules`` directly.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from kotc_rulesc.loader import load_rules
from kotc_rulesc.model import RuleSet
from kotc_rulesc.view import FoldedRules

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "rules"


def _files_key(directory: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def _rules(directory: Path, key: str) -> RuleSet:
    return load_rules(directory)


@functools.cache
def _view(directory: Path, key: str) -> FoldedRules:
    return FoldedRules(_rules(directory, key))


def rules_of(directory: str | Path = BUNDLED) -> RuleSet:
    """The rules in ``directory`` (by default the bundled ``rules/``), read once while unchanged."""
    directory = Path(directory).resolve()
    return _rules(directory, _files_key(directory))


def view_of(directory: str | Path = BUNDLED) -> FoldedRules:
    """``FoldedRules`` over :func:`rules_of` ``directory``, one per unchanged directory."""
    directory = Path(directory).resolve()
    return _view(directory, _files_key(directory))
