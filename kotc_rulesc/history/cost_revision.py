"""Cost revisions: a component's formula changes; cards that use it must bear the revision's Edition
Indicator — unless no rulebook list names the change (``listed: false``): then it prunes no card.
The event (:class:`CostRevision`), its record (:class:`CostChange`) and step (:class:`CostStep`)."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..formula import Formula
from ..model import ComponentDecl, When, Where
from ..text import Template
from ..value import Value
from .change import ComponentChange, binds_text, formula_text, sample_effect, sample_text
from .event import Event, Track, formula_problems

__all__ = ["CostChange", "CostRevision", "CostStep"]

_UNLISTED = " — in no rulebook list: it prunes no card"


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


class CostStep(Value):
    """A cost revision as a migrating card meets it: the formula its component had (``was``) and has (``now``)."""

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


class CostRevision(Event):
    """A component's formula changes (the guide's "Cost Revised (Nth Edition); was: F")."""

    key, noun, pass_field = "cost_revisions", "cost revision", "cost_changes"
    heading = "Costs revised"
    intro = ("Cards that use these components must bear an Edition Indicator of this edition or later "
             "(a change no rulebook list names prunes no card).")
    diff_sections = (("formulas", "Formulas changed"),)
    skeleton = (
        "# Cost revisions: the component's new formula in the guide's notation (2x, 3x/2, x/(y+1),",
        "# y²/x, xt, (x+t)/2, 0.5, or unknown); the old one stays in the earlier files. Cards that",
        "# use it must bear an Edition Indicator of this edition or later, or they are banned. A",
        "# change the guide makes but no rulebook list names says `listed: false` (it prunes no card).",
        "#   - component: {cost}",
        "#     formula: \"<new formula>\"   # now: {cost_formula}",
    )

    __slots__ = ("component", "formula", "when", "sources", "where", "listed", "note")

    def __init__(self, component: str, formula: Formula | None, when: When, sources: tuple[str, ...], where: Where,
                 listed: bool = True, note: str | None = None) -> None:
        super().__init__(component, when, sources, where)
        self.formula = formula  # None: unknown
        #: False: the guide changes the formula but no rulebook list names it — the rulebooks list
        #: "exhaustively" what prunes a card, so an older card is not pruned by it
        self.listed = listed
        self.note = note

    @classmethod
    def read(cls, entry: Any) -> CostRevision | None:
        cid = entry.component()
        ok, formula = entry.formula("formula")
        if not cid or not ok:
            return None
        return cls(cid, formula, entry.when, entry.sources, entry.where, entry.flag("listed", True), entry.string("note"))

    def check(self, line: Track) -> tuple[list[Problem], CostRevision | None]:
        cid, formula = self.component, self.formula
        if formula is None:
            return [], self
        problems = [self.problem("formula", f"formula: {message}", hint)
                    for message, hint in formula_problems(formula, line.kinds[cid], line.variables[cid], line.system)]
        if formula == line.formula[cid]:
            problems.append(self.problem("formula", f"formula: {formula} is already the formula of {cid} (a no-op delta)"))
            return problems, None
        return problems, self

    def step(self, line: Track) -> CostStep:
        cid = self.component
        change = CostStep(cid, line.current[cid], line.formula[cid], self.formula, self.when.edition, self.when.by,
                          self.sources, self.listed)
        line.formula[cid] = self.formula
        return change

    def fold(self, state: dict[str, Any], happened: str) -> None:
        c = state[self.component]
        change = CostChange(self.when, c.formula, self.formula, self.sources, self.listed)
        self.folded(state, self.component, cost_changes=c.cost_changes + (change,),
                    formula=self.formula if happened == "yes" else None)

    @classmethod
    def describe(cls, item: CostStep, comps: Mapping[str, ComponentDecl]) -> ComponentChange:
        detail = f"{formula_text(item.was)} → {formula_text(item.now)} {sample_text(sample_effect(item.was, item.now))}".rstrip()
        return ComponentChange(item.component, comps[item.component].kind, str(item.text), "formulas", "",
                               detail + ("" if item.listed else _UNLISTED))

    @classmethod
    def compare(cls, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        if old.formula == new.formula:
            return []
        before, after = formula_text(old.formula, ca.system, new.kind), formula_text(new.formula, cb.system, new.kind)
        # a variable a rewording on the way gave the text: old cards read it as bound ("at least 1 card"), not 2
        new_vars = new.formula.variables - (old.formula.variables if old.formula else set()) if new.formula else set()
        binds = {k: v for w in new.wordings[len(old.wordings):] for k, v in w.binds.items() if k in new_vars}
        effect = sample_effect(old.formula, new.formula, binds)
        listed = all(ch.listed for ch in new.cost_changes[len(old.cost_changes):])
        shown = f"({binds_text(binds)}: {effect['before']} → {effect['after']})" if binds and effect else sample_text(effect)
        detail = f"{before} → {after} {shown}".rstrip() + ("" if listed else _UNLISTED)
        json = {"before": before, "after": after, "sample": effect, "listed": listed}
        return [ComponentChange(new.id, new.kind, str(new.text), "formulas", f"“{new.text}”: {detail}", detail, json=json,
                                before=before, after=after, effect=effect)]
