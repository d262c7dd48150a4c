"""The kinds of history event, each one unit: how it is read, what it does to a catalog, what
migration step it yields.

An edition file's history lists (``text_revisions:``, ``redactions:``, …) are read, folded
into the catalog of an edition and turned into migration passes by the :class:`EventKind` of
their key, the way a Django migration ``Operation`` owns its whole meaning.  The loader, the
fold and the passes iterate :data:`KINDS` in order and know no kind by name: adding a kind is
adding a class here (and its dataclass in :mod:`kotc_rulesc.model`, its schema entry).

* ``read(r, rep, node, n, src)`` validates one YAML entry against the line's state as the
  loader ``r`` sees it (current texts, formulas and limits from the replay's :class:`Track`,
  its own redactions and variables) and returns the event — or reports a located problem and
  returns ``None``;
* ``step(ev, t)`` is what a card migrating across the edition meets, given the texts,
  formulas and limits ``t`` holds before the event — and it moves ``t`` past the event;
* ``fold(ev, c, h, state)`` applies the event to one component's state, ``h`` telling
  whether it has happened by the edition folded ("yes", or "unknown" for an event no source
  dates that may or may not have happened yet).

The history is replayed once (:class:`kotc_rulesc.fold.Replay`), as the loader reads the
files: each event read is stepped and folded there.

Standard library only, as is all of the engine (a program that reads the tables imports it alone).
"""

from __future__ import annotations

from typing import Any, Mapping

from .changes import Ban, CostChange, LimitChange, Reinstated, Rewrite, StepCostChange, StepLimitChange, Wording
from .formula import Formula
from .model import Successor, When, Where, ordinal
from .record import field, record, replace
from .text import Template
from .value import EMPTY, Value
from .wording import (
    ComponentChange,
    binds_text,
    describe_when,
    formula_text,
    limits_json,
    limits_text,
    reading_diff,
    sample_effect,
    sample_text,
)

__all__ = ["CLEAN_SLATE", "EventKind", "KINDS", "Track", "edition_summary"]


class TextRevision(Value):

    __slots__ = ("component", "text", "binds", "when", "sources", "where", "formula", "note", "into", "row", "listed")

    def __init__(self, component: str, text: Template, binds: dict[str, int], when: When, sources: tuple[str, ...],
                 where: Where, formula: Formula | None = None, note: str | None = None, into: str | None = None,
                 row: tuple[str, str] | None = None, listed: bool = True) -> None:
        self.component = component
        self.text = text
        self.binds = binds  # values the old wording stands for (it had no such variable)
        self.when = when
        self.sources = sources
        self.where = where
        # the new wording's formula, when the guide prints a new one with it (not a cost
        # revision: the old wording, read with ``binds``, costs what it cost)
        self.formula = formula
        self.note = note  # e.g. that no document lists the revision
        # the component whose text the new text is: this one becomes part of it (its wordings read as
        # that one), as a rulebook refurbishes two texts into one
        self.into = into
        # the row of the rulebook's Refurbished Card Texts table it follows: (original text, new text),
        # phrases of the old and new wordings ("in-play card" → "on-field minion"); None: a revision no
        # table lists as a row (every revision before the 14th's tables, and the unlisted ones)
        self.row = row
        # False: no rulebook list names the rewording (an older card reads as the new wording, and
        # migrate keeps its text as printed: the lists are exhaustive)
        self.listed = listed


class Reinstatement(Value):
    """A component an earlier edition's document redacted and this edition's lists as legal."""

    __slots__ = ("component", "when", "sources", "where", "note")

    def __init__(self, component: str, when: When, sources: tuple[str, ...], where: Where,
                 note: str | None = None) -> None:
        self.component = component
        self.when = when
        self.sources = sources
        self.where = where
        self.note = note


class Redaction(Value):

    __slots__ = ("component", "when", "sources", "where", "replacement", "replacement_binds")

    def __init__(self, component: str, when: When, sources: tuple[str, ...], where: Where,
                 replacement: str | None = None, replacement_binds: Mapping[str, int] = EMPTY) -> None:
        self.component = component
        self.when = when
        self.sources = sources
        self.where = where
        self.replacement = replacement
        self.replacement_binds = replacement_binds


class CostRevision(Value):

    __slots__ = ("component", "formula", "when", "sources", "where", "listed", "note")

    def __init__(self, component: str, formula: Formula | None, when: When, sources: tuple[str, ...], where: Where,
                 listed: bool = True, note: str | None = None) -> None:
        self.component = component
        self.formula = formula
        self.when = when
        self.sources = sources
        self.where = where
        # False: the guide changes the formula but no rulebook list names it — the rulebooks list
        # "exhaustively" what prunes a card, so an older card is not pruned by it
        self.listed = listed
        self.note = note


class LimitRevision(Value):

    __slots__ = ("component", "limits", "when", "sources", "where")

    def __init__(self, component: str, limits: dict[str, int | None], when: When, sources: tuple[str, ...],
                 where: Where) -> None:
        self.component = component
        self.limits = limits
        self.when = when
        self.sources = sources
        self.where = where


@record
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
    #: the docs' changelog section of an edition's events of this kind: heading, what it means for cards
    heading: str = ""
    intro: str = ""
    #: the diff's sections for the changes of this kind between two editions: (key, title)
    diff_sections: tuple[tuple[str, str], ...] = ()
    #: what the ``new-edition`` skeleton says above the kind's empty list (``{cost}``, ``{relief}``,
    #: ``{sets}``: example component ids; ``{cost_formula}``; ``{newest}``: the newest catalog)
    skeleton: tuple[str, ...] = ()

    def read(self, r: Any, rep: Any, node: Any, n: int, src: tuple[str, ...]) -> Any:
        raise NotImplementedError

    def fold(self, ev: Any, c: Any, happened: str, state: dict[str, Any]) -> None:
        """Apply ``ev`` to ``c`` (``state`` holds every component of the fold, by id)."""
        raise NotImplementedError

    def step(self, ev: Any, t: Track) -> Any:
        raise NotImplementedError

    def describe(self, item: Any, comps: dict[str, Any]) -> ComponentChange:
        """One step item (what :meth:`step` returned) as the changelog lists it; ``comps``: every
        component declared, by id."""
        raise NotImplementedError

    def compare(self, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        """What this kind of change did to one component between catalogs ``ca`` and ``cb``."""
        raise NotImplementedError


def _change(c: Any, section: str, line: str, detail: str = "", **fields: Any) -> ComponentChange:
    return ComponentChange(c.id, c.kind, str(c.text), section, line, detail, **fields)


class TextRevisions(EventKind):
    """A component's wording changes; the old wording stays legal and reads as the new one."""

    key, noun, pass_field = "text_revisions", "text revision", "rewrites"
    heading, intro = "Reworded", "Cards printed with the old wording are read as the new one."
    diff_sections = (("reworded", "Components reworded"),)
    skeleton = (
        "# Text revisions: cards printed with the old wording are read as the new one from this",
        "# edition on. The new text keeps the old one's variables; a variable the old wording lacked",
        "# needs `binds`: the value that old cards stand for. A revision a rulebook table lists names",
        "# its row (`row: {{old: \"in-play card\", new: \"on-field minion\"}}`); one no list names says",
        "# `listed: false`.",
        "{text_example}",
    )

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
        r.all_vars[cid] |= set(new.variables) | set(binds)
        note = str(node["note"]) if node.get("note") else None
        row = self._row(rep, node, old, new) if node.get("row") else None
        into = None
        if node.get("into"):
            into = self._into(r, rep, node, n, cid, new)
            if into is None:
                return None
        listed = bool(node.get("listed", True))
        if not listed and row is not None:
            rep.at(node, "listed", "listed: false, yet the revision follows a row of a rulebook table")
        return TextRevision(cid, new, binds, when, src, r.where(rep, node), formula, note, into, row, listed)

    @staticmethod
    def _row(rep, node, old, new):
        """The table row a revision follows: its original text must be in the old wording and its new
        text in the new one ("Any card containing any exact original text indicated here is
        refurbished as shown"; a row in lowercase stands for a capitalized opening too)."""
        row = (str(node["row"]["old"]), str(node["row"]["new"]))
        for phrase, wording, side in ((row[0], old, "old"), (row[1], new, "new")):
            if phrase.casefold() not in str(wording).casefold():
                rep.at(node["row"], side, f"row: {side}: {phrase!r} is not in the {side} wording {str(wording)!r}")
                return None
        return row

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
        # older wordings now also stand for the new binds (new values: an earlier edition's
        # catalog shares the old ones)
        c.wordings = [w.replace(binds={**w.binds, **ev.binds}) if ev.binds else w for w in c.wordings]
        c.wordings.append(Wording(c.text, dict(ev.binds), ev.when, ev.text, dict(ev.binds), ev.sources, ev.row, ev.listed))
        c.text = ev.text
        if ev.formula is not None:
            c.formula = ev.formula
        c.sources.extend(ev.sources)
        if ev.into is not None and ev.into in state and happened == "yes":
            # two texts refurbished into one: the other component reads every wording of this one
            target = state.pop(ev.component)
            state[ev.into].wordings.extend(target.wordings)
            state[ev.into].sources.extend(ev.sources)

    _UNLISTED = "in no rulebook list"

    def describe(self, rw, comps):
        note = f"{binds_text(rw.binds)}; the new wording: “{rw.new}”" if rw.binds else ""
        if not rw.listed:
            note = f"{note}; {self._UNLISTED}" if note else self._UNLISTED
        words = reading_diff(rw.old, rw.new, rw.binds)
        return ComponentChange(rw.component, rw.kind, str(rw.new), "reworded", "", note, words=words, binds=dict(rw.binds),
                               listed=rw.listed)

    def compare(self, old, c, ca, cb):
        if str(old.text) == str(c.text):
            return []
        binds = c.wordings[len(old.wordings)].binds if len(c.wordings) > len(old.wordings) else {}
        listed = all(w.listed for w in c.wordings[len(old.wordings):])  # (False: no rulebook list names it)
        words = reading_diff(old.text, c.text, binds)
        note = f"{binds_text(binds)}; the new wording: “{c.text}”" if binds else ""
        if not listed:
            note = f"{note}; {self._UNLISTED}" if note else self._UNLISTED
        line = f"“{words.old.text()}” → “{words.new.text()}”" + (f" ({note})" if note else "")
        json = {"old": str(old.text), "new": str(c.text), "old_marked": words.old.markdown(), "new_marked": words.new.markdown(),
                "reading": str(words.new), "removed": words.old.marked(), "added": words.new.marked(),
                "binds": dict(sorted(binds.items())), **({} if listed else {"listed": False})}
        return [_change(c, "reworded", line, note, json=json, before=str(old.text), after=str(c.text), words=words,
                        binds=dict(binds), listed=listed)]

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

    def describe(self, ban, comps):
        instead = f"write “{comps[ban.replacement].text}” instead" if ban.replacement else ""
        return ComponentChange(ban.component, comps[ban.component].kind, str(ban.text), "redacted", "", instead)

    def compare(self, old, c, ca, cb):
        if c.status == old.status or c.status == "legal":
            return []
        section = "redacted" if c.status == "redacted" else "status_unknown"
        w = c.redacted
        detail = f"{old.status} → {c.status} ({describe_when(w)})"
        json = {"before": old.status, "after": c.status,
                "edition": {"edition": w.edition, "after": w.after, "by": w.by} if w else None}
        return [_change(c, section, f"“{c.text}”: {detail}", detail, json=json, before=old.status, after=c.status, when=w)]

    def step(self, ev, t):
        return Ban(ev.component, t.current[ev.component], ev.when.edition, ev.when.by, ev.sources, ev.replacement,
                   dict(ev.replacement_binds))


class Reinstatements(EventKind):
    """A redaction lifted: the component is legal again (its earlier redaction stays in its history)."""

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

    def describe(self, r, comps):
        return ComponentChange(r.component, comps[r.component].kind, str(r.text), "reinstated", "", r.note or "")

    def compare(self, old, c, ca, cb):
        if not (old.status == "redacted" and c.status == "legal"):
            return []
        detail = f"redacted → legal ({describe_when(c.reinstated[-1][1]) if c.reinstated else 'edition unknown'})"
        return [_change(c, "reinstated", f"“{c.text}”: {detail}", detail, json={"before": old.status, "after": c.status},
                        before=old.status, after=c.status)]

    def step(self, ev, t):
        return Reinstated(ev.component, t.current[ev.component], ev.sources, ev.note)


class CostRevisions(EventKind):
    """A component's formula changes: cards that use it must bear the revision's Edition Indicator —
    unless no rulebook list names the change (``listed: false``): then it prunes no card."""

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
    _UNLISTED = " — in no rulebook list: it prunes no card"

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
        note = str(node["note"]) if node.get("note") else None
        return CostRevision(cid, formula, when, src, r.where(rep, node), bool(node.get("listed", True)), note)

    def fold(self, ev, c, happened, state):
        c.cost_changes.append(CostChange(ev.when, c.formula, ev.formula, ev.sources, ev.listed))
        c.formula = ev.formula if happened == "yes" else None
        c.sources.extend(ev.sources)

    def describe(self, ch, comps):
        detail = f"{formula_text(ch.was)} → {formula_text(ch.now)} {sample_text(sample_effect(ch.was, ch.now))}".rstrip()
        return ComponentChange(ch.component, comps[ch.component].kind, str(ch.text), "formulas", "",
                               detail + ("" if ch.listed else self._UNLISTED), listed=ch.listed)

    def compare(self, old, c, ca, cb):
        if old.formula == c.formula:
            return []
        before, after = formula_text(old.formula, ca.system, c.kind), formula_text(c.formula, cb.system, c.kind)
        effect = sample_effect(old.formula, c.formula)
        listed = all(ch.listed for ch in c.cost_changes[len(old.cost_changes):])
        detail = f"{before} → {after} {sample_text(effect)}".rstrip() + ("" if listed else self._UNLISTED)
        json = {"before": before, "after": after, "sample": effect, "listed": listed}
        return [_change(c, "formulas", f"“{c.text}”: {detail}", detail, json=json, before=before, after=after,
                        effect=effect, listed=listed)]

    def step(self, ev, t):
        change = StepCostChange(ev.component, t.current[ev.component], t.formula[ev.component], ev.formula, ev.when.edition,
                                ev.when.by, ev.sources, ev.listed)
        t.formula[ev.component] = ev.formula
        return change


class LimitRevisions(EventKind):
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

    def read(self, r, rep, node, n, src):
        cid = r.component_ref(rep, node, n)
        when = r.when(rep, node, n)
        if not cid:
            return None
        limits = r.limit_map(rep, node, cid)
        if limits == {k: r.limits[cid].get(k) for k in limits}:
            rep.at(node, "limits", "limits: the revision does not change the limits (a no-op delta)")
            return None
        return LimitRevision(cid, limits, when, src, r.where(rep, node))

    def fold(self, ev, c, happened, state):
        c.limit_changes.append(LimitChange(ev.when, dict(c.limits), dict(ev.limits), ev.sources))
        new = dict(c.limits)
        for var, value in ev.limits.items():
            new[var] = value if happened == "yes" else None
        c.limits = new
        c.sources.extend(ev.sources)

    def describe(self, lc, comps):
        detail = f"{limits_text(lc.was) or 'no limit'} → {limits_text(lc.now)}"
        return ComponentChange(lc.component, comps[lc.component].kind, str(lc.text), "limits", "", detail)

    def compare(self, old, c, ca, cb):
        if old.limits == c.limits:
            return []
        detail = f"{limits_text(old.limits) or 'no limit'} → {limits_text(c.limits) or 'no limit'}"
        json = {"before": limits_json(old.limits), "after": limits_json(c.limits)}
        return [_change(c, "limits", f"“{c.text}”: {detail}", detail, json=json, before=dict(old.limits), after=dict(c.limits))]

    def step(self, ev, t):
        was = dict(t.limits[ev.component])
        now = {**was, **ev.limits}
        t.limits[ev.component] = now
        return StepLimitChange(ev.component, t.current[ev.component], was, now, ev.when.edition, ev.when.by, ev.sources)


class CleanSlates:
    """A clean-slate edition: every card designed before it (no Edition Indicator, or an older
    one) is pruned from it on; it alone may name successors, the new component that takes an old
    one's place.  An event of a whole edition rather than of a component, but one unit all the
    same: how it is read, folded (the line's clean slates), stepped (a pass's ``clean_slate`` and
    ``successors``), described (the changelog, the diff) and scaffolded."""

    key, noun = "clean_slate", "clean slate"
    heading = "Successors"
    intro = "The component that takes an old one's place in a card that crosses the clean slate."
    skeleton = (
        "# A clean slate bans every card whose Edition Indicator is missing or older than this",
        "# edition. Only a clean slate names successors: the new component that takes an old one's",
        "# place (binds: the values the old wording stands for in the new one).",
        "#   - {{component: {cost}, successor: {cost_kind}-gain-level, binds: {{x: 1}}}}",
        "clean_slate: false",
        "successors: []",
    )

    def read(self, r: Any, rep: Any, data: Any, n: int, src: tuple[str, ...]) -> tuple[bool, tuple[Successor, ...]]:
        """The flag and the successors of one rules file (checked: known components, only a clean slate)."""
        successors = []
        for node in data.get("successors") or []:
            cid = r.component_ref(rep, node, n)
            succ = str(node["successor"])
            if succ not in r.components:
                rep.at(node, "successor", f"successor: unknown component {succ!r}", r.closest(succ))
                continue
            if cid:
                successors.append(Successor(cid, succ, {str(k): int(v) for k, v in (node.get("binds") or {}).items()},
                                            r.event_sources(rep, node, src)))
        if successors and not data.get("clean_slate"):
            rep.at(data, "successors", "successors are declared only by a clean-slate edition", "add 'clean_slate: true'", of_key=True)
        return bool(data.get("clean_slate")), tuple(successors)

    def fold(self, decl: Any, clean_slates: tuple[int, ...]) -> tuple[int, ...]:
        """The clean-slate editions of a line, after ``decl``."""
        return clean_slates + (decl.number,) if decl.clean_slate else clean_slates

    def step(self, decl: Any) -> dict[str, Any]:
        """The pass fields a card crossing ``decl`` meets."""
        return {"clean_slate": decl.clean_slate, "successors": tuple((s.component, s.successor) for s in decl.successors)}

    def sentence(self, n: int, crossed: bool = False) -> str:
        """What the clean slate of the ``n``th edition does (``crossed``: as a diff across it says it)."""
        if crossed:
            return (f"Clean slate crossed: the {ordinal(n)} Edition bans every card whose Edition Indicator is missing "
                    f"or older than the {ordinal(n)}.")
        return f"Every card that bears no Edition Indicator, or one older than the {ordinal(n)}, is banned from this edition on."

    def describe(self, old: Any, new: Any) -> ComponentChange:
        """One successor, old component → new (the declarations)."""
        return ComponentChange(old.id, new.kind, str(new.text), "successors", "", "", words=reading_diff(old.text, new.text, {}))


CLEAN_SLATE = CleanSlates()

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
