"""The rules as declared: editions and the events they record, checked and parsed.

This is what :mod:`kotc_rulesc.loader` builds from ``rules/*.yaml`` and what
:mod:`kotc_rulesc.fold` folds into the catalog of one edition.  Texts and formulas
are already parsed (:class:`~kotc_rulesc.text.Template`,
:class:`~kotc_rulesc.formula.Formula`); ``None`` stands for *unknown*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .formula import Formula
from .text import Template

KINDS = ("caveat", "condition", "cost", "target", "effect")
KIND_TITLES = {
    "caveat": "Caveats",
    "condition": "Activation Conditions",
    "cost": "Activation Costs",
    "target": "Target Selections",
    "effect": "Effects",
}
#: caveats, conditions and costs give relief; targets and effects cost
RELIEF_KINDS = frozenset({"caveat", "condition", "cost"})

Tristate = Literal["yes", "no", "unknown"]


@dataclass(frozen=True)
class Where:
    """A place in a rules file (1-based line and column)."""

    file: str
    line: int = 0
    column: int = 0


@dataclass(frozen=True)
class When:
    """When an event happened: a known edition, or *at or before* ``by`` (and after ``after``)."""

    edition: int | None  # None: unknown
    by: int  # the edition of the file that records it
    after: int | None = None

    def happened_by(self, n: int) -> Tristate:
        """Had the event happened by edition ``n``?"""
        if self.edition is not None:
            return "yes" if self.edition <= n else "no"
        if n >= self.by:
            return "yes"
        if self.after is not None and n <= self.after:
            return "no"
        return "unknown"

    def describe(self) -> str:
        if self.edition is not None:
            return ordinal(self.edition)
        if self.after is not None:
            return f"unknown edition (after the {ordinal(self.after)}, by the {ordinal(self.by)})"
        return f"unknown edition (by the {ordinal(self.by)})"


@dataclass(frozen=True)
class ComponentDecl:
    id: str
    kind: str
    text: Template
    formula: Formula | None
    limits: dict[str, int | None]
    sources: tuple[str, ...]
    introduced: int  # the edition whose file declares it (the base: unknown introduction)
    where: Where
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextRevision:
    component: str
    text: Template
    binds: dict[str, int]  # values the old wording stands for (it had no such variable)
    when: When
    sources: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class Redaction:
    component: str
    when: When
    sources: tuple[str, ...]
    where: Where
    replacement: str | None = None
    replacement_binds: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class CostRevision:
    component: str
    formula: Formula | None
    when: When
    sources: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class LimitRevision:
    component: str
    limits: dict[str, int | None]
    when: When
    sources: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class Successor:
    component: str
    successor: str
    binds: dict[str, int]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Range:
    min: int | None = None
    max: int | None = None
    recommended: tuple[int, int] | None = None

    def describe(self) -> str:
        if self.min is not None and self.min == self.max:
            text = f"exactly {self.min}"
        elif self.min is not None and self.max is not None:
            text = f"{self.min}–{self.max}"
        elif self.min is not None:
            text = f"{self.min} or more"
        elif self.max is not None:
            text = f"up to {self.max}"
        else:
            text = "unknown"
        if self.recommended:
            text += f" (recommended {self.recommended[0]}–{self.recommended[1]})"
        return text


@dataclass(frozen=True)
class Rulebook:
    """Rulebook parameters as one rulebook states them; ``None`` where it is silent."""

    edition: int
    sources: tuple[str, ...]
    players: Range | None = None
    deck: Range | None = None
    reserves: Range | None = None
    starting_hand: int | None = None
    starting_hitpoints: int | None = None
    edition_indicator: bool | None = None
    terms: dict[str, str] = field(default_factory=dict)
    zones: tuple[str, ...] = ()
    ability_layout: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


COST_RULE_PARTS = ("total_relief", "ability_cost", "creature_cost", "spell_cost")


@dataclass(frozen=True)
class CostRule:
    """The card-cost rule: named formulas over component costs, offense and defense."""

    edition: int  # the edition whose documents state it
    sources: tuple[str, ...]
    total_relief: Formula
    ability_cost: Formula
    creature_cost: Formula
    spell_cost: Formula

    def parts(self) -> list[tuple[str, Formula]]:
        return [(name, getattr(self, name)) for name in COST_RULE_PARTS]


@dataclass(frozen=True)
class Source:
    id: str
    file: str
    title: str


@dataclass(frozen=True)
class EditionDecl:
    """One rules file: what one edition changed."""

    number: int
    file: str
    base: bool
    follows: int | None
    sources: tuple[str, ...]
    components: tuple[ComponentDecl, ...] = ()
    text_revisions: tuple[TextRevision, ...] = ()
    redactions: tuple[Redaction, ...] = ()
    cost_revisions: tuple[CostRevision, ...] = ()
    limit_revisions: tuple[LimitRevision, ...] = ()
    clean_slate: bool = False
    catalog_known: bool = True
    successors: tuple[Successor, ...] = ()
    rulebook: Rulebook | None = None
    card_cost: CostRule | None = None
    notes: tuple[str, ...] = ()
    name: str | None = None

    def summary(self) -> str:
        """One line: what this edition changed."""
        parts = []
        if self.base:
            parts.append(f"base catalog of {len(self.components)} components")
        elif self.components:
            parts.append(f"{len(self.components)} new component(s)")
        for items, word in (
            (self.text_revisions, "text revision"),
            (self.redactions, "redaction"),
            (self.cost_revisions, "cost revision"),
            (self.limit_revisions, "limit revision"),
        ):
            if items:
                parts.append(f"{len(items)} {word}{'s' if len(items) != 1 else ''}")
        if self.clean_slate:
            parts.append("clean slate")
        if not self.catalog_known:
            parts.append("component catalog unknown")
        if self.rulebook:
            parts.append("rulebook parameters")
        if self.card_cost:
            parts.append("card-cost rule")
        return ", ".join(parts) or "no changes"


@dataclass(frozen=True)
class RuleSet:
    """Every edition, in order, with the sources they cite."""

    editions: tuple[EditionDecl, ...]
    sources: dict[str, Source]
    directory: str

    @property
    def numbers(self) -> list[int]:
        return [e.number for e in self.editions]

    @property
    def first(self) -> int:
        return self.editions[0].number

    @property
    def last(self) -> int:
        return self.editions[-1].number

    def edition(self, n: int) -> EditionDecl | None:
        for e in self.editions:
            if e.number == n:
                return e
        return None

    def components(self) -> dict[str, ComponentDecl]:
        return {c.id: c for e in self.editions for c in e.components}

    def newest_with_catalog(self) -> int:
        """The newest edition whose component catalog is declared (the default migration target)."""
        best = self.first
        for e in self.editions:
            if e.catalog_known:
                best = e.number
            else:
                break
        return best


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st…"""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
