"""What history events leave behind: in a component's record, and in a migration step.

A folded component keeps its earlier wordings (:class:`Wording`), cost revisions
(:class:`CostChange`) and limit revisions (:class:`LimitChange`); a migration pass holds what a
card crossing its edition meets (:class:`Rewrite`, :class:`Ban`, :class:`Reinstated`,
:class:`StepCostChange`, :class:`StepLimitChange`).  The kinds of event
(:mod:`kotc_rulesc.history`) make them; :mod:`kotc_rulesc.fold` and :mod:`kotc_rulesc.passes`
hold them.  Standard library only, as is all of the engine.
"""

from __future__ import annotations

from typing import Mapping

from .formula import Formula
from .model import When
from .value import EMPTY, Value
from .text import Template

__all__ = ["Ban", "CostChange", "LimitChange", "Reinstated", "Rewrite", "StepCostChange", "StepLimitChange", "Wording"]


class Wording(Value):
    """An earlier wording of a component, still read as the current one."""

    __slots__ = ("text", "binds", "replaced_in", "replaced_by", "step_binds", "sources", "row", "listed")

    def __init__(self, text: Template, binds: dict[str, int], replaced_in: When, replaced_by: Template,
                 step_binds: dict[str, int], sources: tuple[str, ...], row: tuple[str, str] | None = None,
                 listed: bool = True) -> None:
        self.text = text
        self.binds = binds  # values this wording stands for in the current text
        self.replaced_in = replaced_in  # the revision that replaced it
        self.replaced_by = replaced_by  # the wording that replaced it (the next one)
        self.step_binds = step_binds  # what that one revision bound
        self.sources = sources
        self.row = row  # the rulebook's Refurbished Card Texts row it follows
        self.listed = listed  # False: no rulebook list names the revision


class CostChange(Value):
    """A cost revision in a component's record: when, the formula before and after."""

    __slots__ = ("when", "was", "now", "sources", "listed")

    def __init__(self, when: When, was: Formula | None, now: Formula | None, sources: tuple[str, ...],
                 listed: bool = True) -> None:
        self.when = when
        self.was = was
        self.now = now
        self.sources = sources
        self.listed = listed  # False: no rulebook list names it (it prunes no card)


class LimitChange(Value):
    """A limit revision in a component's record."""

    __slots__ = ("when", "was", "now", "sources")

    def __init__(self, when: When, was: dict[str, int | None], now: dict[str, int | None],
                 sources: tuple[str, ...]) -> None:
        self.when = when
        self.was = was
        self.now = now
        self.sources = sources


class Rewrite(Value):
    """Old wording → new wording of one component, made by one edition."""

    __slots__ = ("component", "kind", "old", "new", "binds", "edition", "by", "sources", "listed")

    def __init__(self, component: str, kind: str, old: Template, new: Template, binds: dict[str, int],
                 edition: int | None, by: int, sources: tuple[str, ...], listed: bool = True) -> None:
        self.component = component
        self.kind = kind
        self.old = old
        self.new = new
        self.binds = binds  # values the old wording stands for (it lacks these variables)
        self.edition = edition  # None: the edition of the revision is unknown (made by ``by``)
        self.by = by
        self.sources = sources
        self.listed = listed  # False: no rulebook list names it (migrate keeps the old wording as printed)

    def apply(self, sentence: str) -> str | None:
        """The rewritten sentence, or ``None`` when ``sentence`` is not this old wording."""
        m = self.old.match(sentence)
        if m is None or m.conflicts:
            return None
        return self.new.render({**m.values, **self.binds})

    def describe(self) -> str:
        return f'"{self.old}" → "{self.new}"'


class Ban(Value):
    """A component redacted by this step."""

    __slots__ = ("component", "text", "edition", "by", "sources", "replacement", "replacement_binds")

    def __init__(self, component: str, text: Template, edition: int | None, by: int, sources: tuple[str, ...],
                 replacement: str | None = None, replacement_binds: Mapping[str, int] = EMPTY) -> None:
        self.component = component
        self.text = text
        self.edition = edition
        self.by = by
        self.sources = sources
        self.replacement = replacement
        self.replacement_binds = replacement_binds


class Reinstated(Value):
    """A component an earlier edition redacted, legal again from this step on."""

    __slots__ = ("component", "text", "sources", "note")

    def __init__(self, component: str, text: Template, sources: tuple[str, ...], note: str | None = None) -> None:
        self.component = component
        self.text = text
        self.sources = sources
        self.note = note


class StepCostChange(Value):
    """A cost revision made by a step: the formula a card's component had (``was``) and has (``now``)."""

    __slots__ = ("component", "text", "was", "now", "edition", "by", "sources", "listed")

    def __init__(self, component: str, text: Template, was: Formula | None, now: Formula | None, edition: int | None,
                 by: int, sources: tuple[str, ...], listed: bool = True) -> None:
        self.component = component
        self.text = text
        self.was = was
        self.now = now
        self.edition = edition
        self.by = by
        self.sources = sources
        self.listed = listed  # False: no rulebook list names it (it prunes no card)


class StepLimitChange(Value):
    """A limit revision made by a step."""

    __slots__ = ("component", "text", "was", "now", "edition", "by", "sources")

    def __init__(self, component: str, text: Template, was: dict[str, int | None], now: dict[str, int | None],
                 edition: int | None, by: int, sources: tuple[str, ...]) -> None:
        self.component = component
        self.text = text
        self.was = was
        self.now = now
        self.edition = edition
        self.by = by
        self.sources = sources

