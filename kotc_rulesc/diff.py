"""Everything that differs between two editions A < B (``kotc-rulesc diff A B``): components added or gone, what
each kind of history event changed (as that kind compares and describes it), rulebook parameters and terms, the
card-cost rule and the card-building system, clean slates crossed.  A diff runs forwards only: read backwards, a
redaction would be an "un-redaction" no edition made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fold import Catalog
from .history import CLEAN_SLATE, KINDS
from .history.change import ComponentChange, formula_text, limits_json, limits_text
from .history.text_revision import TextRevision
from .model import Range, edition_number, ordinal
from .show import rulebook_params_json, writing_rules_text
from .system import kind_titles

#: rulebook parameters in the order the rulebooks give them, with their labels
PARAMETERS = (
    ("players", "Players"),
    ("deck", "Deck size"),
    ("reserves", "Reserves"),
    ("starting_hand", "Starting hand"),
    ("starting_hitpoints", "Starting hitpoints"),
    ("deck_ultra_points", "Ultra Points per deck (at most)"),
    ("edition_indicator", "Edition Indicator on cards"),
    ("cost_revised", "Cards older than a cost revision of one of their texts"),
    ("exhaustive_lists", "Lists of refurbished and pruned cards exhaustive"),
    ("zones", "Zones"),
    ("ability_layout", "Ability layout"),
    ("keywords", "Keywords"),
)
#: parameters only later rulebooks state: left out where a rulebook has none, not shown as unknown
OPTIONAL_PARAMETERS = frozenset({"deck_ultra_points", "cost_revised", "exhaustive_lists"})


class DiffOrderError(ValueError):
    """A diff asked for backwards (A ≥ B) or outside the known editions."""


# --------------------------------------------------------------------------- the diff


@dataclass(frozen=True, slots=True)
class ValueChange:
    """A rulebook parameter, term or card-cost part whose value differs; ``None`` is unknown."""

    name: str
    label: str
    before: Any
    after: Any
    added: tuple[str, ...] = ()  # for lists: items new in B
    removed: tuple[str, ...] = ()  # for lists: items gone in B

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "before": self.before, "after": self.after}
        if isinstance(self.before, list) or isinstance(self.after, list):
            out.update(added=list(self.added), removed=list(self.removed))
        return out


@dataclass(frozen=True, slots=True)
class RuleDiff:
    a: int
    b: int
    catalog_known: tuple[bool, bool]
    clean_slates: tuple[int, ...]  # clean-slate editions in (A, B]
    clean_slate_notes: tuple[str, ...] = ()  # what each does, in its own rulebook's words
    #: the component changes by section (:data:`SECTIONS`): ``d.changes["formulas"]``
    changes: dict[str, tuple[ComponentChange, ...]] = field(default_factory=dict)
    rulebook_known: tuple[bool, bool] = (False, False)
    parameters: tuple[ValueChange, ...] = ()
    terms: tuple[ValueChange, ...] = ()
    card_cost: tuple[ValueChange, ...] = ()
    card_cost_stated: tuple[int | None, int | None] = (None, None)  # the edition whose rule applies
    card_cost_inferred: tuple[bool, bool] = (False, False)  # not stated for that very edition
    system: tuple[ValueChange, ...] = ()  # the card-building system: figure, types, stats, kinds, ability order
    kind_titles: dict[str, str] = field(default_factory=dict)  # each kind's section title (the systems')

    @property
    def components_known(self) -> bool:
        return all(self.catalog_known)

    @property
    def empty(self) -> bool:
        return not (
            self.clean_slates or any(self.changes.values()) or self.parameters or self.terms or self.card_cost
            or self.system or not self.components_known
        )

    def component_sections(self) -> list[tuple[str, str, tuple[ComponentChange, ...]]]:
        """(key, title, changes) for each component section, in the order they are printed."""
        return [(key, title, self.changes.get(key, ())) for key, title in SECTIONS]

    def value_sections(self) -> list[tuple[str, tuple[ValueChange, ...]]]:
        """(title, changes) for the system, the rulebook and the card-cost rule, in the order they are printed."""
        return [("Card-building system", self.system), ("Rulebook parameters", self.parameters), ("Terms", self.terms),
                ("Card-cost rule", self.card_cost)]

    def to_json(self) -> dict[str, Any]:
        """A stable shape: every key is always present; unknown is null."""
        comps = {key: [c.to_json(key) for c in items] if self.components_known else None for key, _, items in self.component_sections()}
        return {
            "from": self.a,
            "to": self.b,
            "catalog_known": {"from": self.catalog_known[0], "to": self.catalog_known[1]},
            "clean_slates": list(self.clean_slates),
            "components": comps,
            "rulebook_known": {"from": self.rulebook_known[0], "to": self.rulebook_known[1]},
            "parameters": [v.to_json() for v in self.parameters],
            "terms": [v.to_json() for v in self.terms],
            "system": [v.to_json() for v in self.system],
            "card_cost": {
                "rule_of": {"from": self.card_cost_stated[0], "to": self.card_cost_stated[1]},
                "inferred": {"from": self.card_cost_inferred[0], "to": self.card_cost_inferred[1]},
                "changes": [v.to_json() for v in self.card_cost],
            },
        }


#: the component sections in the order they are printed: membership, then each kind's
SECTIONS: tuple[tuple[str, str], ...] = (
    ("added", "Components added"),
    ("removed", "Components no longer in the catalog"),
    *(section for kind in KINDS for section in kind.diff_sections),
)


def _membership(c, section: str, system) -> ComponentChange:
    """A component only one catalog has: "(2x) {x ≤ 5}" and its text, "[+1]" before it for an ultra text."""
    fields = {"formula": formula_text(c.formula, system, c.kind), "limits": limits_json(c.limits), "status": c.status,
              "ultra": c.ultra}
    detail = f"({fields['formula']})" + (f" {limits_text(c.limits)}" if c.limits else "") + (f" [+{c.ultra}]" if c.ultra else "")
    before, after = (None, fields) if section == "added" else (fields, None)
    return ComponentChange(c.id, c.kind, str(c.text), section, f"{detail} “{c.text}”", detail, json=dict(fields),
                           before=before, after=after)


def _components(ca: Catalog, cb: Catalog, rewritten: frozenset[str] = frozenset()) -> dict[str, list[ComponentChange]]:
    """What changed of each component, A → B; ``rewritten``: the components a text revision on the way rewords."""
    before = ca.by_id()
    rank = {k: i for i, k in enumerate(dict.fromkeys([*kind_titles(cb.system), *kind_titles(ca.system)]))}
    out: dict[str, list[ComponentChange]] = {key: [] for key, _ in SECTIONS}
    now = cb.by_id()
    order = lambda c: (rank.get(c.kind, len(rank)), str(c.text).casefold(), c.id)  # noqa: E731
    for c in sorted(ca.components or (), key=order):
        if c.id not in now:
            merged = _merged(c, ca, cb) if c.id in rewritten else None
            out["removed" if merged is None else "reworded"].append(merged or _membership(c, "removed", ca.system))
    for c in sorted(cb.components or (), key=order):
        old = before.get(c.id)
        if old is None:
            out["added"].append(_membership(c, "added", cb.system))
            continue
        for kind in KINDS:  # each kind says what it changed (kotc_rulesc.history)
            for change in kind.compare(old, c, ca, cb):
                out[change.section].append(change)
    return out


def _merged(c, ca: Catalog, cb: Catalog) -> ComponentChange | None:
    """A component of A, reworded on the way to B and gone from it: two texts refurbished into one (``into:``)
    made it part of another of B, which reads its text; its text reworded into that one's."""
    for other in cb.components or ():
        for w in other.wordings:
            if str(w.text) == str(c.text) and w.replaced_in.by > edition_number(ca.edition):
                (change,) = TextRevision.compare(c, other.replace(id=c.id, wordings=c.wordings + (w,)), ca, cb)
                return change
    return None


def _change(name: str, label: str, before: Any, after: Any) -> ValueChange:
    """A value's change; for lists, with the items added and removed."""
    if isinstance(before, list) or isinstance(after, list):
        b, a = before or [], after or []
        return ValueChange(name, label, before, after, tuple(x for x in a if x not in b), tuple(x for x in b if x not in a))
    return ValueChange(name, label, before, after)


def rulebook_changes(ca: Catalog, cb: Catalog) -> tuple[list[ValueChange], list[ValueChange]]:
    pa, pb = rulebook_params_json(ca) or {}, rulebook_params_json(cb) or {}
    params = []
    for name, label in PARAMETERS:
        # an empty list is a list the rulebook does not state: unknown; between two known rulebooks, a later
        # rulebooks' rule one lacks is "(none)", as a card-cost formula only one rule has
        none = "(none)" if pa and pb and name in OPTIONAL_PARAMETERS else None
        before, after = (none if v is None else None if v == [] else v for v in (pa.get(name), pb.get(name)))
        if before != after:
            params.append(_change(name, label, before, after))
    ta, tb = pa.get("terms") or {}, pb.get("terms") or {}
    terms = [ValueChange(k, k, ta.get(k), tb.get(k))
             for k in dict.fromkeys([*ta, *tb]) if ta.get(k) != tb.get(k)]
    return params, terms


def card_cost_changes(ca: Catalog, cb: Catalog) -> list[ValueChange]:
    ra, rb = ca.cost_rule, cb.cost_rule
    pa, pb = dict(ra.parts()) if ra else {}, dict(rb.parts()) if rb else {}
    out = []
    for name in dict.fromkeys([*pa, *pb]):
        # a formula only one rule has: "(none)" on the other side (None stays "no rule at all")
        before = pa[name].notation() if name in pa else ("(none)" if ra else None)
        after = pb[name].notation() if name in pb else ("(none)" if rb else None)
        if before != after:
            out.append(ValueChange(name, name, before, after))
    return out


def diff_editions(view: Any, a: int, b: int) -> RuleDiff:
    """The diff A → B over a :class:`~kotc_rulesc.view.RulesView` (``first``, ``last``, ``catalog(n)``)."""
    for n in (a, b):
        if n not in view.keys:
            raise DiffOrderError(f"edition {n} is not in the rules (they hold editions {', '.join(map(str, view.keys))})")
    if a == b or view.path(b, a) is not None:  # (B on the way to A: edition keys need not compare, 11-pre and 10)
        hint = f"; to see what changed from the {ordinal(b)} to the {ordinal(a)}, run: diff {b} {a}" if a != b else ""
        raise DiffOrderError(f"a diff runs forwards: A must be an earlier edition than B (got {a} and {b}){hint}")
    ca, cb = view.catalog(a), view.catalog(b)
    known = (ca.catalog_known, cb.catalog_known)
    steps = view.path(a, b) or ()
    comps = _components(ca, cb, frozenset(rw.component for p in steps for rw in p.rewrites)) if all(known) else {}
    params, terms = rulebook_changes(ca, cb)
    slates = tuple(n for n in cb.clean_slates if n > edition_number(a))
    return RuleDiff(
        a=a,
        b=b,
        catalog_known=known,
        clean_slates=slates,
        clean_slate_notes=tuple(CLEAN_SLATE.sentence(n, view.catalog(n).rulebook, crossed=True) for n in slates),
        changes={k: tuple(v) for k, v in comps.items()},
        rulebook_known=(ca.rulebook is not None, cb.rulebook is not None),
        parameters=tuple(params),
        terms=tuple(terms),
        card_cost=tuple(card_cost_changes(ca, cb)),
        card_cost_stated=(ca.cost_rule.edition if ca.cost_rule else None, cb.cost_rule.edition if cb.cost_rule else None),
        card_cost_inferred=(not ca.cost_rule_stated, not cb.cost_rule_stated),
        kind_titles=kind_titles(ca.system, cb.system),
        system=tuple(system_changes(ca, cb)),
    )


def system_changes(ca: Catalog, cb: Catalog) -> list[ValueChange]:
    """How the card-building system changed: the figure, the card types and their stats, the
    component kinds (what their formula does), the order of an ability."""
    a, b = ca.system, cb.system
    if a is None or b is None or a == b:
        return []

    def types(s):
        def abilities(t):
            count = (f"{t.abilities_min}" if t.abilities_min == t.abilities_max
                     else f"{t.abilities_min}+" if t.abilities_max is None else f"{t.abilities_min}–{t.abilities_max}")
            return f"{count} abilit{'y' if count == '1' else 'ies'}{t.names_note}"

        return [f"{t.id} ({', '.join(st.describe() for st in t.stats) or 'no stats'}; {abilities(t)})" for t in s.types]

    def kinds(s):
        where = {"card": " (card-level)", "sub_ability": " (in a sub-ability)"}
        return [f"{k.title}: {k.role_word}{where.get(k.place, '')}{', any number' if k.max is None else ''}"
                for k in s.kinds]

    def ability(s):
        own = [s.noun(k) for k in s.ability]
        return own + ([f"sub-abilities ({', '.join(s.noun(k) for k in s.sub_ability)}), one sentence each"] if s.sub_ability else [])

    def writing(s):
        return [line.strip() for line in writing_rules_text(s)[1:]]

    rows = (("figure", "The card's figure", a.figure_title, b.figure_title),
            ("types", "Card types", types(a), types(b)),
            ("kinds", "Component kinds", kinds(a), kinds(b)),
            ("ability", "An ability", ability(a), ability(b)),
            ("writing", "Card-writing rules", writing(a), writing(b)))
    return [_change(name, label, before, after)
            for name, label, before, after in rows if before != after]


# --------------------------------------------------------------------------- plain text


def show_value(value: Any) -> str:
    """A parameter value in words: ranges, lists, yes/no; ``unknown`` for None."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and "min" in value:  # a range, as rulebook_params_json gives it
        return Range(value.get("min"), value.get("max"), value.get("recommended")).describe()
    if isinstance(value, list):
        return ", ".join(map(str, value)) if value else "none"
    return str(value)


def value_line(v: ValueChange) -> str:
    line = f"{v.label}: {show_value(v.before)} → {show_value(v.after)}"
    parts = [f"{word} {', '.join(items)}"
             for word, items in (("added", v.added), ("removed", v.removed)) if items]
    if isinstance(v.before, list) and isinstance(v.after, list) and parts:
        line += f" ({'; '.join(parts)})"
    return line


def notes(d: RuleDiff) -> list[str]:
    """Sentences about the comparison itself: clean slates, unknown catalogs and rulebooks."""
    out = list(d.clean_slate_notes)
    for n, known in zip((d.a, d.b), d.catalog_known):
        if not known:
            out.append(f"The {ordinal(n)} Edition's component catalog is unknown (no source gives it), so its components cannot be compared.")
    if not any(d.rulebook_known):
        out.append("No source gives the rulebook of either edition: parameters and terms cannot be compared.")
    else:
        for n, known in zip((d.a, d.b), d.rulebook_known):
            if not known:
                out.append(f"No source gives the {ordinal(n)} Edition's rulebook: its parameters and terms are unknown.")
    for n, rule_of, inferred in zip((d.a, d.b), d.card_cost_stated, d.card_cost_inferred):
        if inferred and rule_of is not None:
            out.append(f"The card-cost rule is not stated for the {ordinal(n)} Edition; the {ordinal(rule_of)} Edition's is used.")
    return out


def diff_text(d: RuleDiff) -> str:
    """The diff as plain text for a terminal (``[-removed-]``, ``{+added+}``)."""
    lines = [f"Keeper of the Cards: {ordinal(d.a)} Edition → {ordinal(d.b)} Edition"]
    lines += notes(d)
    if d.components_known:
        for key, title, items in d.component_sections():
            if items:
                lines += ["", f"{title} ({len(items)}):"]
                lines += [f"  [{d.kind_titles.get(c.kind, c.kind)}] {c.line}" for c in items]
    for title, items in d.value_sections():
        if items:
            lines += ["", f"{title} changed ({len(items)}):"]
            lines += [f"  {value_line(v)}" for v in items]
    if d.empty:
        lines += ["", "No differences."]
    return "\n".join(lines) + "\n"
