"""Limit revisions: a variable's limit changes; a card that sets it higher is banned.
The event (:class:`LimitRevision`), its record (:class:`LimitChange`) and step (:class:`LimitStep`)."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..model import ComponentDecl, When, Where
from ..text import Template
from ..value import Value
from .change import ComponentChange, limits_json, limits_text
from .event import Event, Track

__all__ = ["LimitChange", "LimitRevision", "LimitStep"]


class LimitChange(Value):
    """A limit revision in a component's record."""

    __slots__ = ("when", "was", "now", "sources")

    def __init__(self, when: When, was: dict[str, int | None], now: dict[str, int | None], sources: tuple[str, ...]) -> None:
        self.when = when
        self.was = was
        self.now = now
        self.sources = sources


class LimitStep(Value):
    """A limit revision as a migrating card meets it."""

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


class LimitRevision(Event):
    """A variable's limit changes: a card that sets it higher is banned."""

    key, noun, pass_field = "limit_revisions", "limit revision", "limit_changes"
    heading, intro = "Limits revised", "A card that sets the variable above its new limit is banned."
    diff_sections = (("limits", "Limits changed"),)
    skeleton = (
        "# Limit revisions: {{x: 7}} means {{x ≤ 7}}; a card that sets x higher is banned. A limit that",
        "# a source shows but does not give the value of is `unknown`.",
        "#   - component: {relief}",
        "#     limits: {{x: 7}}",
    )

    __slots__ = ("component", "limits", "when", "sources", "where")

    def __init__(self, component: str, limits: dict[str, int | None], when: When, sources: tuple[str, ...],
                 where: Where) -> None:
        super().__init__(component, when, sources, where)
        self.limits = limits  # {x: 14} is {x ≤ 14}; None: a limit whose value no source gives

    @classmethod
    def read(cls, entry: Any) -> LimitRevision | None:
        cid = entry.component()
        return cls(cid, entry.limits(), entry.when, entry.sources, entry.where) if cid else None

    def check(self, line: Track) -> tuple[list[Problem], LimitRevision | None]:
        text, problems, limits = line.current[self.component], [], {}
        for var, value in self.limits.items():
            if var in text.variables:
                limits[var] = value
            else:
                problems.append(self.problem(f"limits.{var}:", f"limits: a limit on [{var}], which the text {str(text)!r} "
                                                               "does not have"))
        was = line.limits[self.component]  # (no key: no limit; None: a limit of unknown value)
        if (limits or not self.limits) and all(k in was and was[k] == v for k, v in limits.items()):
            problems.append(self.problem("limits", "limits: the revision does not change the limits (a no-op delta)"))
            return problems, None
        return problems, self if limits == self.limits else self.replace(limits=limits)

    def step(self, line: Track) -> LimitStep:
        was = dict(line.limits[self.component])
        now = {**was, **self.limits}
        line.limits[self.component] = now
        return LimitStep(self.component, line.current[self.component], was, now, self.when.edition, self.when.by,
                         self.sources)

    def fold(self, state: dict[str, Any], happened: str) -> None:
        c = state[self.component]
        change = LimitChange(self.when, dict(c.limits), dict(self.limits), self.sources)
        limits = {**c.limits, **{var: value if happened == "yes" else None for var, value in self.limits.items()}}
        self.folded(state, self.component, limit_changes=c.limit_changes + (change,), limits=limits)

    @classmethod
    def describe(cls, item: LimitStep, comps: Mapping[str, ComponentDecl]) -> ComponentChange:
        detail = f"{limits_text(item.was) or 'no limit'} → {limits_text(item.now)}"
        return ComponentChange(item.component, comps[item.component].kind, str(item.text), "limits", "", detail)

    @classmethod
    def compare(cls, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        if old.limits == new.limits:
            return []
        detail = f"{limits_text(old.limits) or 'no limit'} → {limits_text(new.limits) or 'no limit'}"
        json = {"before": limits_json(old.limits), "after": limits_json(new.limits)}
        return [ComponentChange(new.id, new.kind, str(new.text), "limits", f"“{new.text}”: {detail}", detail, json=json,
                                before=dict(old.limits), after=dict(new.limits))]
