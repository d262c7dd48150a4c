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
    ComponentDecl,
    CostRule,
    Disagreement,
    EditionDecl,
    EditionKey,
    Rulebook,
    RuleSet,
    Successor,
    System,
    Tristate,
    When,
    edition_number,
)
from .changes import CostChange, LimitChange, Wording
from .history import KINDS
from .text import Template

Status = Literal["legal", "redacted", "unknown"]


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
    #: redactions an edition of this line lifted again: (redacted when, reinstated when, sources, note)
    reinstated: tuple[tuple[When, When, tuple[str, ...], str | None], ...] = ()
    disagreements: tuple[Disagreement, ...] = ()  # recorded about this component, up to this edition
    ultra: int = 0  # its Ultra Points value ("[+1]" in the 17th guide); 0: none

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

    edition: EditionKey  # 10, or "11-pre"
    components: tuple[ComponentState, ...] | None  # None: the catalog is not in the sources
    rulebook: Rulebook | None  # None: no source gives this edition's rulebook
    cost_rule: CostRule | None
    clean_slates: tuple[int, ...]  # clean-slate editions up to this one
    successors: tuple[Successor, ...]  # declared by the clean slate of this edition
    declared: EditionDecl | None  # this edition's own rules file, if it has one
    disagreements: tuple[Disagreement, ...] = ()  # recorded by the files up to this edition
    system: System | None = None  # how cards are built in this edition

    @property
    def number(self) -> int:
        """The edition's number (11 for the 11th's pre-release): what Edition Indicators compare with."""
        return edition_number(self.edition)

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
        self.reinstated: list = []
        self.disagreements: list[Disagreement] = []

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
            reinstated=tuple(self.reinstated),
            disagreements=tuple(self.disagreements),
            ultra=self.decl.ultra,
        )


def _common_number(rules: RuleSet, line: set[EditionKey], decl: EditionDecl) -> int:
    """The number of the newest edition that both ``decl``'s lineage and ``line`` contain."""
    for other in reversed(rules.lineage(decl.key)):
        if other.key in line:
            return other.number
    return rules.first


def fold(rules: RuleSet, key: EditionKey) -> Catalog:
    """The catalog of edition ``key``: every event of its lineage (base … key) replayed.

    A pre-release branch (``11-pre``) folds its own line: the main-line files after its fork
    do not apply to it, except an event no source dates, which may have happened before the
    fork (unknown there)."""
    lineage = rules.lineage(key)
    if not lineage:
        raise ValueError(f"edition {key} is not in the rules")
    n = edition_number(key)
    line = {d.key for d in lineage}
    state: dict[str, _Mutable] = {}
    catalog_known = True
    clean_slates: list[int] = []
    cost_rule: CostRule | None = None
    system: System | None = None
    disagreements: list[Disagreement] = []

    def happened(when: When, decl: EditionDecl, mine: bool) -> Tristate:
        if mine:
            return when.happened_by(n)
        if when.edition is not None:
            return "no"  # an event of another branch, or of a later edition
        if not decl.pre_release and isinstance(key, int):  # a later edition of the main line
            return when.happened_by(n)
        fork = _common_number(rules, line, decl)
        return "no" if when.after is not None and when.after >= fork else "unknown"

    # Events with an unknown edition are recorded in a later file ("by" that edition),
    # so every file is visited; happened() decides what applies to this edition.
    for decl in rules.editions:
        mine = decl.key in line
        if mine:
            if decl.catalog_whole:  # its components are the whole catalog: nothing older carries over
                state = {}
            for comp in decl.components:
                state[comp.id] = _Mutable(comp)
            if decl.clean_slate:
                clean_slates.append(decl.number)
            catalog_known = decl.catalog_known
            if decl.card_cost is not None:
                cost_rule = decl.card_cost
            if decl.system is not None:
                system = decl.system
            for dis in decl.disagreements:
                disagreements.append(dis)
                if dis.component in state:
                    state[dis.component].disagreements.append(dis)
        for kind in KINDS:  # each kind applies its own events (kotc_rulesc.history)
            for ev in getattr(decl, kind.key):
                if ev.component in state:
                    h = happened(ev.when, decl, mine)
                    if h == "yes" or (h == "unknown" and kind.applies_when_unknown):
                        kind.fold(ev, state[ev.component], h, state)
    if cost_rule is None:
        # No source states a rule up to n: use the earliest later statement, and say so
        # (Catalog.cost_rule_stated is False).
        for decl in rules.editions:
            if decl.card_cost is not None:
                cost_rule = decl.card_cost
                break
    own = rules.edition(key)
    components = None
    if catalog_known:
        order = {k: i for i, k in enumerate(system.kind_ids if system else ())}
        seq = sorted(state.values(), key=lambda m: order.get(m.decl.kind, len(order)))  # stable: file order within kind
        components = tuple(m.freeze() for m in seq)
    return Catalog(
        edition=key,
        components=components,
        rulebook=own.rulebook if own else None,
        cost_rule=cost_rule,
        clean_slates=tuple(clean_slates),
        successors=own.successors if own else (),
        declared=own,
        disagreements=tuple(disagreements),
        system=system,
    )
