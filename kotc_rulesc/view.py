"""What the commands, the card engine and the migrator read the rules through: :class:`FoldedRules` folds
the YAML in memory, :class:`~kotc_rulesc.tables.TablesView` reads the compiled tables (``cards.rules_source``
picks one)."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path
from typing import Protocol

from .fold import Catalog, derive_passes, fold
from .model import EditionKey, RuleSet, edition_number
from .passes import Pass
from .passes import path as passes_path


class RulesView(Protocol):
    first: int  # the base edition
    last: int  # the newest main-line edition
    keys: tuple[EditionKey, ...]  # every edition, pre-releases included, in order
    newest: int  # the highest edition number (an Edition Indicator above it is unknown)
    readers: dict  # edition → the card engine's reader of its catalog (cards/sentence.py), made at its first card

    def catalog(self, n: EditionKey) -> Catalog: ...

    def passes(self) -> list[Pass]: ...

    def path(self, source: EditionKey, target: EditionKey) -> list[Pass] | None:
        """The passes from ``source`` to ``target`` ([] when the same state), ``None`` when it does not descend."""

    def resolve(self, key: EditionKey) -> EditionKey: ...

    def newest_with_catalog(self) -> int: ...

    def type_aliases(self) -> dict[str, str]: ...  # as model.RuleSet.type_aliases

    def decisive_fields(self) -> tuple[str, ...]: ...  # as model.RuleSet.decisive_fields

    def rules_files(self) -> list[tuple[EditionKey, str, int, str]]:
        """Each rules file: its edition, its name, the components it declares, what it changed."""


class FoldedRules:
    """A :class:`RulesView` over a loaded :class:`~kotc_rulesc.model.RuleSet`: its catalogs, passes and type
    aliases each folded once, when first asked for."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.first = rules.first
        self.last = rules.last
        self.keys = tuple(rules.all_keys)
        self.newest = max(edition_number(k) for k in self.keys)
        self.readers: dict = {}
        self._catalog = cache(partial(fold, rules))
        self.passes = cache(partial(derive_passes, rules))
        self.type_aliases = cache(rules.type_aliases)
        self.newest_with_catalog = rules.newest_with_catalog
        self.decisive_fields = rules.decisive_fields

    def catalog(self, n: EditionKey) -> Catalog:
        if n not in self.keys:
            raise ValueError(f"edition {n} is not in the rules ({', '.join(map(str, self.keys))})")
        return self._catalog(n)

    def path(self, source: EditionKey, target: EditionKey) -> list[Pass] | None:
        return passes_path(self.passes(), self.resolve(source), self.resolve(target))

    def resolve(self, key: EditionKey) -> EditionKey:
        resolved = self.rules.resolve(key)
        return key if resolved is None else resolved

    def rules_files(self) -> list[tuple[EditionKey, str, int, str]]:
        from .history import edition_summary

        return [(e.key, Path(e.file).name, len(e.components), edition_summary(e)) for e in self.rules.editions]
