"""Reinstatements: a redaction lifted; the component is legal again (its redaction stays in its history).
The event (:class:`Reinstatement`) and its step (:class:`Reinstated`)."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..model import ComponentDecl, When, Where
from ..text import Template
from ..value import Value
from .change import ComponentChange, describe_when
from .event import Event, Track

__all__ = ["Reinstated", "Reinstatement"]


class Reinstated(Value):
    """A component an earlier edition redacted, legal again from this step on."""

    __slots__ = ("component", "text", "sources", "note")

    def __init__(self, component: str, text: Template, sources: tuple[str, ...], note: str | None = None) -> None:
        self.component = component
        self.text = text
        self.sources = sources
        self.note = note


class Reinstatement(Event):
    """A component an earlier edition's document redacted and this edition's lists as legal."""

    key, noun, pass_field = "reinstatements", "reinstatement", "reinstated"
    applies_when_unknown = False
    heading, intro = "Reinstated", "These components were redacted before; cards that use them are legal again."
    diff_sections = (("reinstated", "Components reinstated"),)
    skeleton = (
        "# Reinstatements: a redacted component is legal again from this edition on (its redaction",
        "# stays in its history).",
        "#   - component: <a redacted component>",
        "#     note: <what the sources say>",
    )

    __slots__ = ("component", "when", "sources", "where", "note")

    def __init__(self, component: str, when: When, sources: tuple[str, ...], where: Where, note: str | None = None) -> None:
        super().__init__(component, when, sources, where)
        self.note = note

    @classmethod
    def read(cls, entry: Any) -> Reinstatement | None:
        cid = entry.component()
        return cls(cid, entry.when, entry.sources, entry.where, entry.string("note")) if cid else None

    def check(self, line: Track) -> tuple[list[Problem], Reinstatement | None]:
        if self.component not in line.redacted:
            return [self.problem("component", f"component: {self.component} is not redacted, so it cannot be "
                                              "reinstated (a no-op delta)")], None
        return [], self

    def step(self, line: Track) -> Reinstated:
        del line.redacted[self.component]
        return Reinstated(self.component, line.current[self.component], self.sources, self.note)

    def fold(self, state: dict[str, Any], happened: str) -> None:
        c = state[self.component]
        lifted = ((c.redacted, self.when, self.sources, self.note),) if c.redacted is not None else ()
        self.folded(state, self.component, reinstated=c.reinstated + lifted, status="legal", redacted=None,
                    replacement=None)

    @classmethod
    def describe(cls, item: Reinstated, comps: Mapping[str, ComponentDecl]) -> ComponentChange:
        return ComponentChange(item.component, comps[item.component].kind, str(item.text), "reinstated", "", item.note or "")

    @classmethod
    def compare(cls, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        if not (old.status == "redacted" and new.status == "legal"):
            return []
        detail = f"redacted → legal ({describe_when(new.reinstated[-1][1]) if new.reinstated else 'edition unknown'})"
        return [ComponentChange(new.id, new.kind, str(new.text), "reinstated", f"“{new.text}”: {detail}", detail,
                                json={"before": old.status, "after": new.status}, before=old.status, after=new.status)]
