"""The kinds of history event, each one unit: how it is read, what it does to a catalog, what
migration step it yields.

An edition file's history lists (``text_revisions:``, ``redactions:``, …) are read, folded
into the catalog of an edition and turned into migration passes by the :class:`EventKind` of
their key, the way a Django migration ``Operation`` owns its whole meaning.  The loader, the
fold and the passes iterate :data:`KINDS` in order and know no kind by name: adding a kind is
adding a class here (and its dataclass in :mod:`kotc_rulesc.model`, its schema entry).

* ``read(r, rep, node, n, src)`` validates one YAML entry against the line's state as the
  loader ``r`` keeps it (current texts, formulas, limits, redactions) and returns the event,
  updating that state — or reports a located problem and returns ``None``;
* ``fold(ev, c, h)`` applies the event to one component's state in a fold, ``h`` telling
  whether it has happened by the edition folded ("yes", "unknown", "no" never reaches it);
* ``step(ev, t)`` is what a card migrating across the edition meets, given the texts,
  formulas and limits ``t`` holds before the event (and updates).

Standard library only: this module is part of the core the compiled tables ship.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .changes import Ban, CostChange, LimitChange, Reinstated, Rewrite, StepCostChange, StepLimitChange, Wording
from .formula import Formula
from .model import (
    CostRevision,
    LimitRevision,
    Redaction,
    Reinstatement,
    TextRevision,
    ordinal,
)
from .text import Template

__all__ = ["EventKind", "KINDS", "Track", "edition_summary"]


@dataclass
class Track:
    """What the passes know of each component just before an event: text, formula, limits, kind."""

    current: dict[str, Template] = field(default_factory=dict)
    formula: dict[str, Formula | None] = field(default_factory=dict)
    limits: dict[str, dict[str, int | None]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)

    def copy(self) -> "Track":
        return Track(dict(self.current), dict(self.formula), {k: dict(v) for k, v in self.limits.items()}, dict(self.kinds))


class EventKind:
    """One kind of history event (see the module docstring)."""

    key: str  # its list in a rules file, and the EditionDecl field that holds its events
    noun: str  # "text revision"
    pass_field: str  # the Pass field its steps go to
    #: does an event of unknown date apply to a fold it may precede ("unknown" state)?
    applies_when_unknown: bool = True

    def read(self, r: Any, rep: Any, node: Any, n: int, src: tuple[str, ...]) -> Any:
        raise NotImplementedError

    def fold(self, ev: Any, c: Any, happened: str, state: dict[str, Any]) -> None:
        """Apply ``ev`` to ``c`` (``state`` holds every component of the fold, by id)."""
        raise NotImplementedError

    def step(self, ev: Any, t: Track) -> Any:
        raise NotImplementedError


class TextRevisions(EventKind):
    """A component's wording changes; the old wording stays legal and reads as the new one."""

    key, noun, pass_field = "text_revisions", "text revision", "rewrites"

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        new = r.template(rep, node, "text")
        when = r.when(rep, node, n)
        if not cid or not new:
            return None
        old = r.current_text[cid]
        binds = {str(k): int(v) for k, v in (node.get("binds") or {}).items()}
        if str(new) == str(old):
            rep.at(node, "text", "text: the revision does not change the text (a no-op delta)")
            return None
        for var, _ in binds.items():
            if var not in new.variables:
                rep.at(node, "binds", f"binds: [{var}] is not in the new text")
            elif var in old.variables:
                rep.at(node, "binds", f"binds: the old text already has [{var}]; only variables it lacks can be bound")
        for var in new.variables:
            if var not in old.variables and var not in binds:
                rep.at(node, "text", f"text: the new text has [{var}] that the old text lacks", f"say what the old wording reads as: binds: {{{var}: N}}")
        for var in old.variables:
            if var not in new.variables:
                rep.at(node, "text", f"text: the new text drops [{var}] of the old text")
        formula = None
        if "formula" in node:
            ok, formula = r.parse_formula(rep, node, "formula")
            if ok and formula is not None:
                r.check_formula_vars(rep, node, "formula", formula, r.components[cid].kind, set(new.variables))
                r.check_same_cost(rep, node, cid, formula, binds)
                r.formula[cid] = formula
        r.current_text[cid] = new
        r.all_vars[cid] |= set(new.variables) | set(binds)
        note = str(node["note"]) if node.get("note") else None
        into = None
        if node.get("into"):
            into = self._into(r, rep, node, n, cid, new)
            if into is None:
                return None
        return TextRevision(cid, new, binds, when, src, r.where(rep, node), formula, note, into, bool(node.get("listed", True)))

    @staticmethod
    def _into(r, rep, node, n, cid, new):
        """The component a revision merges ``cid`` into: of the same kind, its current text the new one."""
        into = str(node["into"])
        if into not in r.current_text:
            rep.at(node, "into", f"into: unknown component {into!r} (or not on this edition's line)")
            return None
        if r.components[into].kind != r.components[cid].kind or into == cid:
            rep.at(node, "into", f"into: {into} is not another component of the kind {r.components[cid].kind}")
            return None
        if str(r.current_text[into]) != str(new):
            rep.at(node, "text", f"text: a revision into {into} takes its text, which reads {str(r.current_text[into])!r}")
            return None
        return into

    def fold(self, ev, c, happened, state):
        for w in c.wordings:  # older wordings now also stand for the new binds
            w.binds.update(ev.binds)
        c.wordings.append(Wording(c.text, dict(ev.binds), ev.when, ev.text, dict(ev.binds), ev.sources))
        c.text = ev.text
        if ev.formula is not None:
            c.formula = ev.formula
        c.sources.extend(ev.sources)
        if ev.into is not None and ev.into in state and happened == "yes":
            # two texts refurbished into one: the other component reads every wording of this one
            target = state.pop(ev.component)
            state[ev.into].wordings.extend(target.wordings)
            state[ev.into].sources.extend(ev.sources)

    def step(self, ev, t):
        rewrite = Rewrite(ev.component, t.kinds[ev.component], t.current[ev.component], ev.text, dict(ev.binds),
                          ev.when.edition, ev.when.by, ev.sources, ev.listed)
        t.current[ev.component] = ev.text
        if ev.formula is not None:
            t.formula[ev.component] = ev.formula
        return rewrite


class Redactions(EventKind):
    """A component may no longer be used: cards that use it are banned."""

    key, noun, pass_field = "redactions", "redaction", "bans"

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        when = r.when(rep, node, n)
        if not cid:
            return None
        if cid in r.redacted:
            rep.at(node, "component", f"component: {cid} is already redacted in the {ordinal(r.redacted[cid])} edition (a no-op delta)")
            return None
        r.redacted[cid] = n
        rep_id, rep_binds = None, {}
        if node.get("replacement"):
            rnode = node["replacement"]
            rep_id = r.component_ref(rep, rnode, n)
            rep_binds = {str(k): int(v) for k, v in (rnode.get("binds") or {}).items()}
        return Redaction(cid, when, src, r.where(rep, node), rep_id, rep_binds)

    def fold(self, ev, c, happened, state):
        c.status = "redacted" if happened == "yes" else "unknown"
        c.redacted = ev.when
        c.replacement = ev.replacement
        c.replacement_binds = dict(ev.replacement_binds)
        c.sources.extend(ev.sources)

    def step(self, ev, t):
        return Ban(ev.component, t.current[ev.component], ev.when.edition, ev.when.by, ev.sources, ev.replacement,
                   dict(ev.replacement_binds))


class Reinstatements(EventKind):
    """A redaction lifted: the component is legal again (its earlier redaction stays in its history)."""

    key, noun, pass_field = "reinstatements", "reinstatement", "reinstated"
    applies_when_unknown = False

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        when = r.when(rep, node, n)
        if not cid:
            return None
        if cid not in r.redacted:
            rep.at(node, "component", f"component: {cid} is not redacted, so it cannot be reinstated (a no-op delta)")
            return None
        del r.redacted[cid]
        note = str(node["note"]) if node.get("note") else None
        return Reinstatement(cid, when, src, r.where(rep, node), note)

    def fold(self, ev, c, happened, state):
        if c.redacted is not None:
            c.reinstated.append((c.redacted, ev.when, ev.sources, ev.note))
        c.status, c.redacted, c.replacement = "legal", None, None
        c.sources.extend(ev.sources)

    def step(self, ev, t):
        return Reinstated(ev.component, t.current[ev.component], ev.sources, ev.note)


class CostRevisions(EventKind):
    """A component's formula changes: cards that use it must bear the revision's Edition Indicator —
    unless no rulebook list names the change (``listed: false``): then it prunes no card."""

    key, noun, pass_field = "cost_revisions", "cost revision", "cost_changes"

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        ok, formula = r.parse_formula(rep, node, "formula")
        when = r.when(rep, node, n)
        if not cid or not ok:
            return None
        r.check_formula_vars(rep, node, "formula", formula, r.components[cid].kind, r.all_vars[cid])
        if formula is not None and formula == r.formula[cid]:
            rep.at(node, "formula", f"formula: {formula} is already the formula of {cid} (a no-op delta)")
            return None
        r.formula[cid] = formula
        note = str(node["note"]) if node.get("note") else None
        return CostRevision(cid, formula, when, src, r.where(rep, node), bool(node.get("listed", True)), note)

    def fold(self, ev, c, happened, state):
        c.cost_changes.append(CostChange(ev.when, c.formula, ev.formula, ev.sources, ev.listed))
        c.formula = ev.formula if happened == "yes" else None
        c.sources.extend(ev.sources)

    def step(self, ev, t):
        change = StepCostChange(ev.component, t.current[ev.component], t.formula[ev.component], ev.formula, ev.when.edition,
                                ev.when.by, ev.sources, ev.listed)
        t.formula[ev.component] = ev.formula
        return change


class LimitRevisions(EventKind):
    """A variable's limit changes: a card that sets it higher is banned."""

    key, noun, pass_field = "limit_revisions", "limit revision", "limit_changes"

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        when = r.when(rep, node, n)
        if not cid:
            return None
        limits = r.limit_map(rep, node, cid)
        if limits == {k: r.limits[cid].get(k) for k in limits}:
            rep.at(node, "limits", "limits: the revision does not change the limits (a no-op delta)")
            return None
        r.limits[cid].update(limits)
        return LimitRevision(cid, limits, when, src, r.where(rep, node))

    def fold(self, ev, c, happened, state):
        c.limit_changes.append(LimitChange(ev.when, dict(c.limits), dict(ev.limits), ev.sources))
        new = dict(c.limits)
        for var, value in ev.limits.items():
            new[var] = value if happened == "yes" else None
        c.limits = new
        c.sources.extend(ev.sources)

    def step(self, ev, t):
        was = dict(t.limits[ev.component])
        now = {**was, **ev.limits}
        t.limits[ev.component] = now
        return StepLimitChange(ev.component, t.current[ev.component], was, now, ev.when.edition, ev.when.by, ev.sources)


#: every kind, in the order an edition's events apply (a text revision before a redaction of the
#: same component, a redaction before its reinstatement)
KINDS: tuple[EventKind, ...] = (TextRevisions(), Redactions(), Reinstatements(), CostRevisions(), LimitRevisions())


def edition_summary(decl: Any) -> str:
    """One line: what an edition's rules file changed (``kotc-rulesc editions``, the docs)."""
    parts = []
    if decl.pre_release:
        parts.append(f"pre-release of the {ordinal(decl.number)}, following the {ordinal(decl.follows)}")
    if decl.base:
        parts.append(f"base catalog of {len(decl.components)} components")
    elif decl.components:
        parts.append(f"{len(decl.components)} new component(s)")
    for items, word in (*((getattr(decl, kind.key), kind.noun) for kind in KINDS), (decl.disagreements, "recorded disagreement")):
        if items:
            parts.append(f"{len(items)} {word}{'s' if len(items) != 1 else ''}")
    if decl.clean_slate:
        parts.append("clean slate")
    if not decl.catalog_known:
        parts.append("component catalog unknown")
    if decl.rulebook:
        parts.append("rulebook parameters")
    if decl.card_cost:
        parts.append("card-cost rule")
    if decl.system:
        parts.append("card-building system")
    return ", ".join(parts) or "no changes"
