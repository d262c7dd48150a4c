"""Redactions: a component may no longer be used; cards that use it are banned.
The event (:class:`Redaction`) and its step (:class:`Ban`)."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..model import ComponentDecl, When, Where, ordinal
from ..text import Template
from ..value import EMPTY, Value
from .change import ComponentChange, describe_when
from .event import Event, Track

__all__ = ["Ban", "Redaction"]


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


class Redaction(Event):
    """A component may no longer be used: cards that use it are banned."""

    key, noun, pass_field = "redactions", "redaction", "bans"
    heading, intro = "Redacted", "Cards that use these components are banned."
    diff_sections = (("redacted", "Components redacted"), ("status_unknown", "Status changed to unknown"))
    skeleton = (
        "# Redactions: cards that use the component are banned from this edition on.",
        "#   - component: {cost}",
        "# When no source says exactly when a component was redacted, only that it was by this",
        "# edition, write `edition: unknown`, and `after: N` if a source shows it still in use in N:",
        "#   - component: {sets}",
        "#     edition: unknown",
        "#     after: {newest}",
        "#     source: <id>",
    )

    __slots__ = ("component", "when", "sources", "where", "replacement", "replacement_binds")

    def __init__(self, component: str, when: When, sources: tuple[str, ...], where: Where,
                 replacement: str | None = None, replacement_binds: Mapping[str, int] = EMPTY) -> None:
        super().__init__(component, when, sources, where)
        self.replacement = replacement  # the component a card writes instead
        self.replacement_binds = replacement_binds  # its values, as the redacted wording's stand

    @classmethod
    def read(cls, entry: Any) -> Redaction | None:
        cid = entry.component()
        if not cid:
            return None
        replacement, binds = None, {}
        if entry.has("replacement"):
            instead = entry.entry("replacement")
            replacement, binds = instead.component(), instead.binds()
        return cls(cid, entry.when, entry.sources, entry.where, replacement, binds)

    def check(self, line: Track) -> tuple[list[Problem], Redaction | None]:
        if self.component in line.redacted:
            return [self.problem("component", f"component: {self.component} is already redacted in the "
                                              f"{ordinal(line.redacted[self.component])} edition (a no-op delta)")], None
        return [], self

    def step(self, line: Track) -> Ban:
        line.redacted[self.component] = self.when.by  # (the edition of the file that records it)
        return Ban(self.component, line.current[self.component], self.when.edition, self.when.by, self.sources,
                   self.replacement, dict(self.replacement_binds))

    def fold(self, state: dict[str, Any], happened: str) -> None:
        self.folded(state, self.component, status="redacted" if happened == "yes" else "unknown", redacted=self.when,
                    replacement=self.replacement, replacement_binds=dict(self.replacement_binds))

    @classmethod
    def describe(cls, item: Ban, comps: Mapping[str, ComponentDecl]) -> ComponentChange:
        instead = f"write “{comps[item.replacement].text}” instead" if item.replacement else ""
        return ComponentChange(item.component, comps[item.component].kind, str(item.text), "redacted", "", instead)

    @classmethod
    def compare(cls, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        if new.status == old.status or new.status == "legal":
            return []
        section = "redacted" if new.status == "redacted" else "status_unknown"
        w = new.redacted
        detail = f"{old.status} → {new.status} ({describe_when(w)})"
        json = {"before": old.status, "after": new.status,
                "edition": {"edition": w.edition, "after": w.after, "by": w.by} if w else None}
        return [ComponentChange(new.id, new.kind, str(new.text), section, f"“{new.text}”: {detail}", detail, json=json,
                                before=old.status, after=new.status, when=w)]
