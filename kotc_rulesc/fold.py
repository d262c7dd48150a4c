"""Fold the declared history into the catalog of one edition.

The rules files record *changes*; a player or engine needs *the state*: every
component as it reads, costs and stands in edition N, with its history up to N.
Folding replays the events of every edition up to N in order.  Editions no
document shows whole (7th to 10th) come out of the same replay.

Events whose edition no source gives (``edition: unknown``) make the affected
fact unknown in the editions where it may or may not have happened yet — never
a silent guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .formula import Formula
from .model import (
    KINDS,
    ComponentDecl,
    CostRule,
    EditionDecl,
    Rulebook,
    RuleSet,
    Successor,
    When,
)
from .text import Template

Status = Literal["legal", "redacted", "unknown"]


@dataclass(frozen=True)
class Wording:
    """An earlier wording of a component, still read as the current one."""

    text: Template
    binds: dict[str, int]  # values this wording stands for in the current text
    replaced_in: When  # the revision that replaced it
    replaced_by: Template  # the wording that replaced it (the next one)
    step_binds: dict[str, int]  # what that one revision bound
    sources: tuple[str, ...]


@dataclass(frozen=True)
class CostChange:
    when: When
    was: Formula | None
    now: Formula | None
    sources: tuple[str, ...]


@dataclass(frozen=True)
class LimitChange:
    when: When
    was: dict[str, int | None]
    now: dict[str, int | None]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class ComponentState:
    """A component as it stands in one edition."""

    id: str
    kind: str
    text: Template
    formula: Formula | None  # None: unknown
    limits: dict[str, int | None]  # None: a limit whose value is unknown
    status: Status
    redacted: When | None  # the redaction, if it has (or may have) happened by this edition
    wordings: tuple[Wording, ...]  # earlier wordings, oldest first
    cost_changes: tuple[CostChange, ...]
    limit_changes: tuple[LimitChange, ...]
    sources: tuple[str, ...]
    replacement: str | None = None
    replacement_binds: dict[str, int] = field(default_factory=dict)

    @property
    def redacted_in(self) -> int | None:
        return self.redacted.edition if self.redacted and self.status == "redacted" else None

    def cost_revised_since(self) -> int | None:
        """The edition of the latest cost revision (a card must bear this Edition Indicator or later)."""
        editions = [c.when.edition or c.when.by for c in self.cost_changes]
        return max(editions) if editions else None


@dataclass(frozen=True)
class Catalog:
    """Everything known about one edition."""

    edition: int
    components: tuple[ComponentState, ...] | None  # None: the catalog is not in the sources
    rulebook: Rulebook | None  # None: no source gives this edition's rulebook
    cost_rule: CostRule | None
    clean_slates: tuple[int, ...]  # clean-slate editions up to this one
    successors: tuple[Successor, ...]  # declared by the clean slate of this edition
    declared: EditionDecl | None  # this edition's own rules file, if it has one

    @property
    def catalog_known(self) -> bool:
        return self.components is not None

    def by_id(self) -> dict[str, ComponentState]:
        return {c.id: c for c in self.components or ()}

    @property
    def cost_rule_stated(self) -> bool:
        """Does a source state the card-cost rule for this very edition?"""
        return self.cost_rule is not None and self.cost_rule.edition == self.edition

    @property
    def clean_slate(self) -> int | None:
        """The latest clean-slate edition up to this one."""
        return self.clean_slates[-1] if self.clean_slates else None


class _Mutable:
    def __init__(self, decl: ComponentDecl):
        self.decl = decl
        self.text = decl.text
        self.formula = decl.formula
        self.limits = dict(decl.limits)
        self.status: Status = "legal"
        self.redacted: When | None = None
        self.wordings: list[Wording] = []
        self.cost_changes: list[CostChange] = []
        self.limit_changes: list[LimitChange] = []
        self.sources = list(decl.sources)
        self.replacement = None
        self.replacement_binds: dict[str, int] = {}

    def freeze(self) -> ComponentState:
        return ComponentState(
            id=self.decl.id,
            kind=self.decl.kind,
            text=self.text,
            formula=self.formula,
            limits=self.limits,
            status=self.status,
            redacted=self.redacted,
            wordings=tuple(self.wordings),
            cost_changes=tuple(self.cost_changes),
            limit_changes=tuple(self.limit_changes),
            sources=tuple(dict.fromkeys(self.sources)),
            replacement=self.replacement,
            replacement_binds=self.replacement_binds,
        )


def fold(rules: RuleSet, n: int) -> Catalog:
    """The catalog of edition ``n``: every event of every edition up to ``n`` replayed."""
    if n < rules.first:
        raise ValueError(f"edition {n} is before the base edition {rules.first}")
    state: dict[str, _Mutable] = {}
    catalog_known = True
    clean_slates: list[int] = []
    cost_rule: CostRule | None = None
    # Events with an unknown edition are recorded in a later file ("by" that edition),
    # so every file is visited; happened_by() decides what applies at n.
    for decl in rules.editions:
        if decl.number <= n:
            for comp in decl.components:
                state[comp.id] = _Mutable(comp)
            if decl.clean_slate:
                clean_slates.append(decl.number)
            catalog_known = decl.catalog_known
            if decl.card_cost is not None:
                cost_rule = decl.card_cost
        for rev in decl.text_revisions:
            if rev.component in state and rev.when.happened_by(n) != "no":
                c = state[rev.component]
                old = c.text
                for w in c.wordings:  # older wordings now also stand for the new binds
                    w.binds.update(rev.binds)
                c.wordings.append(Wording(old, dict(rev.binds), rev.when, rev.text, dict(rev.binds), rev.sources))
                c.text = rev.text
                c.sources.extend(rev.sources)
        for red in decl.redactions:
            if red.component in state:
                happened = red.when.happened_by(n)
                if happened != "no":
                    c = state[red.component]
                    c.status = "redacted" if happened == "yes" else "unknown"
                    c.redacted = red.when
                    c.replacement = red.replacement
                    c.replacement_binds = dict(red.replacement_binds)
                    c.sources.extend(red.sources)
        for cr in decl.cost_revisions:
            if cr.component in state:
                happened = cr.when.happened_by(n)
                if happened != "no":
                    c = state[cr.component]
                    c.cost_changes.append(CostChange(cr.when, c.formula, cr.formula, cr.sources))
                    c.formula = cr.formula if happened == "yes" else None
                    c.sources.extend(cr.sources)
        for lr in decl.limit_revisions:
            if lr.component in state:
                happened = lr.when.happened_by(n)
                if happened != "no":
                    c = state[lr.component]
                    c.limit_changes.append(LimitChange(lr.when, dict(c.limits), dict(lr.limits), lr.sources))
                    new = dict(c.limits)
                    for var, value in lr.limits.items():
                        new[var] = value if happened == "yes" else None
                    c.limits = new
                    c.sources.extend(lr.sources)
    if cost_rule is None:
        # No source states a rule up to n: use the earliest later statement, and say so
        # (Catalog.cost_rule_stated is False).
        for decl in rules.editions:
            if decl.card_cost is not None:
                cost_rule = decl.card_cost
                break
    own = rules.edition(n)
    components = None
    if catalog_known:
        order = {k: i for i, k in enumerate(KINDS)}
        seq = sorted(state.values(), key=lambda m: order[m.decl.kind])  # stable: file order within kind
        components = tuple(m.freeze() for m in seq)
    return Catalog(
        edition=n,
        components=components,
        rulebook=own.rulebook if own else None,
        cost_rule=cost_rule,
        clean_slates=tuple(clean_slates),
        successors=own.successors if own else (),
        declared=own,
    )
