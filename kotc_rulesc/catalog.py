"""What one edition's catalog holds: every component as it stands in that edition, and the
edition's rulebook, card-cost rule and card-building system.

:mod:`kotc_rulesc.fold` makes catalogs from the rules' history; the compiled tables are made of
them (an edition module's ``CATALOG``), and the card engine reads them.  This module needs
none of the replay's machinery, so neither do the tables nor a judged card.
"""

from __future__ import annotations

from typing import Literal

from .changes import CostChange, LimitChange, Wording
from .formula import Formula
from .model import CostRule, Disagreement, EditionDecl, EditionKey, Rulebook, Successor, System, When, edition_number
from .record import field, record
from .text import Template

__all__ = ["Catalog", "ComponentState", "Status"]

Status = Literal["legal", "redacted", "unknown"]


@record(frozen=True)
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


@record(frozen=True)
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
