"""What history events leave behind: in a component's record, and in a migration step.

A folded component keeps its earlier wordings (:class:`Wording`), cost revisions
(:class:`CostChange`) and limit revisions (:class:`LimitChange`); a migration pass holds what a
card crossing its edition meets (:class:`Rewrite`, :class:`Ban`, :class:`Reinstated`,
:class:`StepCostChange`, :class:`StepLimitChange`).  The kinds of event
(:mod:`kotc_rulesc.history`) make them; :mod:`kotc_rulesc.fold` and :mod:`kotc_rulesc.passes`
hold them.  Standard library only, as is all of the engine.
"""

from __future__ import annotations

from .formula import Formula
from .model import When
from .record import field, record
from .text import Template

__all__ = ["Ban", "CostChange", "LimitChange", "Reinstated", "Rewrite", "StepCostChange", "StepLimitChange", "Wording"]


@record(frozen=True)
class Wording:
    """An earlier wording of a component, still read as the current one."""

    text: Template
    binds: dict[str, int]  # values this wording stands for in the current text
    replaced_in: When  # the revision that replaced it
    replaced_by: Template  # the wording that replaced it (the next one)
    step_binds: dict[str, int]  # what that one revision bound
    sources: tuple[str, ...]
    row: tuple[str, str] | None = None  # the rulebook's Refurbished Card Texts row it follows
    listed: bool = True  # False: no rulebook list names the revision


@record(frozen=True)
class CostChange:
    """A cost revision in a component's record: when, the formula before and after."""

    when: When
    was: Formula | None
    now: Formula | None
    sources: tuple[str, ...]
    listed: bool = True  # False: no rulebook list names it (it prunes no card)


@record(frozen=True)
class LimitChange:
    """A limit revision in a component's record."""

    when: When
    was: dict[str, int | None]
    now: dict[str, int | None]
    sources: tuple[str, ...]


@record(frozen=True)
class Rewrite:
    """Old wording → new wording of one component, made by one edition."""

    component: str
    kind: str
    old: Template
    new: Template
    binds: dict[str, int]  # values the old wording stands for (it lacks these variables)
    edition: int | None  # None: the edition of the revision is unknown (made by ``by``)
    by: int
    sources: tuple[str, ...]
    listed: bool = True  # False: no rulebook list names it (migrate keeps the old wording as printed)

    def apply(self, sentence: str) -> str | None:
        """The rewritten sentence, or ``None`` when ``sentence`` is not this old wording."""
        m = self.old.match(sentence)
        if m is None or m.conflicts:
            return None
        return self.new.render({**m.values, **self.binds})

    def describe(self) -> str:
        return f'"{self.old}" → "{self.new}"'


@record(frozen=True)
class Ban:
    """A component redacted by this step."""

    component: str
    text: Template
    edition: int | None
    by: int
    sources: tuple[str, ...]
    replacement: str | None = None
    replacement_binds: dict[str, int] = field(default_factory=dict)


@record(frozen=True)
class Reinstated:
    """A component an earlier edition redacted, legal again from this step on."""

    component: str
    text: Template
    sources: tuple[str, ...]
    note: str | None = None


@record(frozen=True)
class StepCostChange:
    """A cost revision made by a step: the formula a card's component had (``was``) and has (``now``)."""

    component: str
    text: Template
    was: Formula | None
    now: Formula | None
    edition: int | None
    by: int
    sources: tuple[str, ...]
    listed: bool = True  # False: no rulebook list names it (it prunes no card)


@record(frozen=True)
class StepLimitChange:
    """A limit revision made by a step."""

    component: str
    text: Template
    was: dict[str, int | None]
    now: dict[str, int | None]
    edition: int | None
    by: int
    sources: tuple[str, ...]
