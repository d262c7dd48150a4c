"""One edition's catalog: every component as it stands in that edition, the rulebook, card-cost rule and
card-building system.  :mod:`fold` makes it, the tables hold it, the card engine reads it; it needs none of
the replay's machinery, so neither does a judged card."""

from __future__ import annotations

from typing import Literal, Mapping

from .formula import Formula
from .history.clean_slate import Successor
from .history.cost_revision import CostChange
from .history.limit_revision import LimitChange
from .history.text_revision import Wording
from .model import CostRule, Disagreement, EditionDecl, EditionKey, Rulebook, When, edition_number
from .system import System
from .text import Template
from .value import EMPTY, Value

Status = Literal["legal", "redacted", "unknown"]


class ComponentState(Value):
    """A component as it stands in one edition."""

    __slots__ = ("id", "kind", "text", "formula", "limits", "status", "redacted", "wordings", "cost_changes",
                 "limit_changes", "sources", "replacement", "replacement_binds", "reinstated", "disagreements",
                 "ultra")

    def __init__(self, id: str, kind: str, text: Template, formula: Formula | None, limits: dict[str, int | None],
                 status: Status, redacted: When | None, wordings: tuple[Wording, ...],
                 cost_changes: tuple[CostChange, ...], limit_changes: tuple[LimitChange, ...],
                 sources: tuple[str, ...], replacement: str | None = None,
                 replacement_binds: Mapping[str, int] = EMPTY,
                 reinstated: tuple[tuple[When, When, tuple[str, ...], str | None], ...] = (),
                 disagreements: tuple[Disagreement, ...] = (), ultra: int = 0) -> None:
        self.id = id
        self.kind = kind
        self.text = text
        self.formula = formula  # None: unknown
        self.limits = limits  # None: a limit whose value is unknown
        self.status = status
        self.redacted = redacted  # the redaction, if it has (or may have) happened by this edition
        self.wordings = wordings  # earlier wordings, oldest first
        self.cost_changes = cost_changes
        self.limit_changes = limit_changes
        self.sources = sources
        self.replacement = replacement
        self.replacement_binds = replacement_binds
        # redactions an edition of this line lifted again: (redacted when, reinstated when, sources, note)
        self.reinstated = reinstated
        self.disagreements = disagreements  # recorded about this component, up to this edition
        self.ultra = ultra  # its Ultra Points value ("[+1]" in the 17th guide); 0: none


class Catalog(Value):
    """Everything known about one edition."""

    __slots__ = ("edition", "components", "rulebook", "cost_rule", "clean_slates", "successors", "declared",
                 "disagreements", "system")

    def __init__(self, edition: EditionKey, components: tuple[ComponentState, ...] | None, rulebook: Rulebook | None,
                 cost_rule: CostRule | None, clean_slates: tuple[int, ...], successors: tuple[Successor, ...],
                 declared: EditionDecl | None, disagreements: tuple[Disagreement, ...] = (),
                 system: System | None = None) -> None:
        self.edition = edition  # 10, or "11-pre"
        self.components = components  # None: the catalog is not in the sources
        self.rulebook = rulebook  # None: no source gives this edition's rulebook
        self.cost_rule = cost_rule
        self.clean_slates = clean_slates  # clean-slate editions up to this one
        self.successors = successors  # declared by the clean slate of this edition
        self.declared = declared  # this edition's own rules file, if it has one
        self.disagreements = disagreements  # recorded by the files up to this edition
        self.system = system  # how cards are built in this edition

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

