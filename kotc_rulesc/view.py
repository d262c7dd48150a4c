"""What the card engine, the migrator and the docs read the rules through.

Two implementations share one small interface: :class:`FoldedRules` folds the
YAML in memory (used by ``check``, ``show``, ``build`` and the tests), and the
compiled tables in ``generated/`` (see :mod:`kotc_rulesc.tables`) serve the same
catalogs at run time without parsing any YAML.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from .fold import Catalog, fold
from .model import RuleSet
from .passes import Pass, derive_passes


class RulesView(Protocol):
    first: int
    last: int

    def catalog(self, n: int) -> Catalog: ...

    def passes(self) -> list[Pass]: ...

    def newest_with_catalog(self) -> int: ...


class FoldedRules:
    """A :class:`RulesView` over a loaded :class:`~kotc_rulesc.model.RuleSet`."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.first = rules.first
        self.last = rules.last
        self._catalog = lru_cache(maxsize=None)(lambda n: fold(rules, n))
        self._passes: list[Pass] | None = None

    def catalog(self, n: int) -> Catalog:
        return self._catalog(n)

    def passes(self) -> list[Pass]:
        if self._passes is None:
            self._passes = derive_passes(self.rules)
        return self._passes

    def newest_with_catalog(self) -> int:
        return self.rules.newest_with_catalog()
