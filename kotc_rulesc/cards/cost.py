"""The figure of a parsed card (its cost, or its level), by the edition's card-cost rule from the data.

Every component's formula is evaluated exactly (``Fraction``) with the card's values; the rule then
combines them scope by scope — sub-ability, ability, card — by its named formulas, which round up as the
guide says.  A formula no source gives makes the figure unknown (``None``), with a note: never a guess.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..catalog import Catalog
from ..citation import document_name
from ..formula import EVALUATION_ERRORS, MAX_VALUE_BITS, too_large
from ..model import ordinal
from ..value import Value
from .model import ParsedCard, Use

__all__ = ["CostResult", "card_cost", "rule_note"]


class CostResult(Value):
    """``total``: the card's cost (``None`` when unknown); ``breakdown``: JSON-ready detail."""

    __slots__ = ("total", "breakdown", "notes", "other")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, total: int | None, breakdown: dict[str, Any], notes: list[str] | None = None,
                 other: int | None = None):
        self.total = total
        self.breakdown = breakdown
        self.notes = [] if notes is None else notes
        self.other = other  # the figure by the other rule card_cost was given (a design edition's; None: unknown)


def _part(use: Use, catalog: Catalog, given: dict[str, Fraction | None] | None, notes: list[str]) -> tuple[dict[str, Any], Fraction | None]:
    """One component's breakdown and value; ``given`` holds the variables the ability's kinds set (t, a)
    for its formula (None: a variable whose value is unknown)."""
    comp = use.state or catalog.by_id().get(use.component)
    formula = comp.formula if comp is not None else None
    kind = catalog.system.kind(use.kind)
    part: dict[str, Any] = {
        "component": use.component,
        "kind": use.kind,
        "text": use.wording,
        "formula": formula.notation() if formula is not None else None,
        "values": dict(use.values),
        "noun": catalog.system.noun(use.kind),
        "role": f"sets {kind.variable}" if kind.role == "sets" else kind.role,  # a target selection: "sets t"
        "says": kind.role_word,  # in the guide's words: "level increase", "relief"
        "value": None,
    }
    if comp is not None and comp.ultra:
        part["ultra"] = comp.ultra  # its Ultra Points (the 17th's "[+1]")
    given = given or {}
    used = {v: given[v] for v in sorted(formula.variables) if v in given} if formula is not None else {}
    for var, value in sorted(used.items(), key=lambda item: item[0] != "t"):  # t first
        part[var] = str(Fraction(value)) if value is not None else None  # "3", "3/2"
    if formula is None and kind.role == "none":
        return part, None  # its kind has no formulas: nothing to add
    if formula is None:
        notes.append(f'the cost of "{use.wording}" in the {ordinal(catalog.edition)} edition is unknown: no source gives its formula')
        return part, None
    if any(value is None for value in used.values()):
        return part, None  # a variable the ability sets is unknown; noted where it is set
    try:
        value = _evaluate(formula, {**use.values, **used})
    except _Incomputable as exc:
        notes.append(f'the cost of "{use.wording}" cannot be computed from {formula.notation()}: {exc}')
        return part, None
    part["value"] = str(Fraction(value))
    return part, value


def rule_note(catalog: Catalog) -> str | None:
    """The note every cost in this edition carries, when no source states its card-cost rule."""
    rule = catalog.cost_rule
    if rule is None:
        return f"no source states any card-cost rule; the cost in the {ordinal(catalog.edition)} edition is unknown"
    if not catalog.cost_rule_stated:
        return (f"no source states the card-cost rule of the {ordinal(catalog.edition)} edition; "
                f"the {ordinal(rule.edition)} edition's rule is used")
    return None


def _scope(uses: list[Use], place: str, catalog: Catalog, notes: list[str], outer: dict[str, Fraction | None],
           card_type: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any] | None, dict[str, Fraction | None]]:
    """The parts of ``uses`` (the components at ``place``), the rule's inputs they give —
    ``<kind>_relief`` sums and ``<kind>_costs`` lists (``None``: some value is unknown) — and the
    variables set there (a target selection's t, a condition's a) on top of ``outer``, for the places below."""
    system = catalog.system
    given = dict(outer)
    set_parts: dict[int, tuple[dict[str, Any], Fraction | None]] = {}
    for var, kind in system.set_variables.items():
        if kind.place != place:
            continue
        use = next((u for u in uses if u.kind == kind.id), None)
        if use is not None:
            set_parts[id(use)] = _part(use, catalog, None, notes)
            given[var] = value = set_parts[id(use)][1]
            if value is not None and value < 0:  # (the 11th's t = x/(10-y) for y over 10: no document bounds y)
                notes.append(f'"{use.wording}" sets {var} to {Fraction(value)}, below 0: no source bounds the values of '
                             f'its formula, {set_parts[id(use)][0]["formula"]}, and it is applied as written')
        elif kind.default is not None:
            given[var] = kind.default.evaluate({})
        elif kind.absent and (needs := [u for u in uses if u.state is not None and u.state.formula is not None
                                        and var in u.state.formula.variables]):
            given[var] = None  # (the documents allow a scope without one, and give its variable no value)
            says = next((s for s in kind.absent if s.endswith(f"-{catalog.edition}")), kind.absent[0])
            notes.append(f'"{needs[0].wording}" depends on {var}, which no {kind.noun} sets here: a {place.replace("_", "-")} '
                         f"without one is allowed (the {document_name(says)}), and no source gives {var} for it")
        else:
            given[var] = Fraction(0)  # no formula that needs it: the parser rejects those
    kinds = system.kinds_at(place, card_type)
    env: dict[str, Any] = {f"{k.id}_relief": Fraction(0) for k in kinds if k.role == "relief"}
    env.update({f"{k.id}_costs": [] for k in kinds if k.role == "cost"})
    known = all(v is not None for v in given.values())
    parts = []
    for use in uses:
        part, value = set_parts[id(use)] if id(use) in set_parts else _part(use, catalog, given, notes)
        parts.append(part)
        role = system.kind(use.kind).role
        if role == "none":
            continue
        if value is None:
            known = False
        elif role == "cost":
            env[f"{use.kind}_costs"].append(value)
        elif role == "relief":
            env[f"{use.kind}_relief"] += value
    return parts, (env if known else None), given


class _Incomputable(Exception):
    """A formula cannot be evaluated with the card's values (the message says why)."""


def _evaluate(formula: Any, env: dict[str, Any]) -> Fraction:
    """``formula`` evaluated, or :class:`_Incomputable`: a division by zero, a value missing or of the
    wrong kind, or a value too large to be of use (the rules are data: none of it is a traceback)."""
    try:
        value = formula.evaluate(env)
    except EVALUATION_ERRORS as exc:
        raise _Incomputable(str(exc).strip("'\"") or type(exc).__name__) from None
    if too_large(value):
        raise _Incomputable(f"a value of more than {MAX_VALUE_BITS} bits (about 1,000 digits)")
    if not isinstance(value, (int, Fraction)):
        raise _Incomputable(f"{formula.notation()} is not a number")
    return value


def _apply(rule: Any, scope: str, env: dict[str, Any], entry: dict[str, Any]) -> Fraction:
    """Evaluate the scope's formulas in order (helpers, then its ``_cost``), recording each in ``entry``."""
    value = Fraction(0)
    for name, formula in rule.scope(scope):
        try:
            value = _evaluate(formula, env)
        except _Incomputable as exc:
            raise _Incomputable(f"{name} = {formula.notation()}: {exc}") from None
        env[name] = value
        entry[name] = str(Fraction(value))
    return value


def _apply_other(rule: Any, scope: str, env: dict[str, Any], extra: dict[str, Any]) -> Fraction | None:
    """Another card-cost rule (None: none) applied at ``scope`` to the same ``env`` with its own inputs from
    below (``extra``); None where it cannot be evaluated."""
    if rule is None or None in extra.values() or not rule.scope(scope):
        return None
    try:
        return _apply(rule, scope, {**env, **extra}, {})
    except _Incomputable:
        return None


def card_cost(card: dict, parsed: ParsedCard, catalog: Catalog, card_type: str | None = None,
              other: Any = None) -> CostResult:
    """The figure of ``card`` (read as ``parsed``, of type ``card_type``, by default its printed one) in the
    catalog's edition, with a breakdown per component, sub-ability and ability; ``other``: another card-cost
    rule to apply to the same values (a design edition's: its figure in ``CostResult.other``)."""
    if card_type is None:
        card_type = str(card.get("type", "")).strip().lower()
    rule = catalog.cost_rule
    system = catalog.system
    ctype = system.card_type(card_type)
    card_kinds = system.kinds_at("card")
    breakdown: dict[str, Any] = {
        "edition": catalog.edition,
        "figure": system.figure,
        "figure_title": system.figure_title,
        "parts": system.parts,  # an ability's figure in the guide's words: "cost", "level"
        "type": ctype.id,
        "stats": [st.name for st in ctype.stats],
        "card_kinds": {k.id: k.noun for k in card_kinds},
        "rule": None,
        **{k.id: None for k in card_kinds},
        "abilities": [],
        "total": None,
    }
    for st in ctype.stats:
        breakdown[st.name] = card.get(st.name) or 0
    if rule is not None:
        breakdown["rule"] = {"edition": rule.edition, "stated": catalog.cost_rule_stated, "sources": list(rule.sources),
                             **{name: f.notation() for name, f in rule.parts()}}
    note = rule_note(catalog)
    notes = [note] if note else []
    try:
        return _card_cost(card, parsed, catalog, ctype, breakdown, notes, other)
    except _Incomputable as exc:
        notes.append(f"the {system.figure} cannot be computed by the card-cost rule: {exc}")
        return CostResult(None, breakdown, notes)


def _card_cost(card: dict, parsed: ParsedCard, catalog: Catalog, ctype: Any, breakdown: dict[str, Any],
               notes: list[str], other: Any) -> CostResult:
    rule = catalog.cost_rule
    system = catalog.system
    known = rule is not None
    ability_costs: list[Fraction] = []
    others: list[Fraction | None] = []  # the ability costs by the other rule

    def scope_of(r: Any) -> str:
        """A card type's own ability rule, where the rule has one (``minion_ability_cost``)."""
        return f"{ctype.id}_ability" if r is not None and r.scope(f"{ctype.id}_ability") else "ability"

    ability_scope = scope_of(rule)
    for ability in parsed.abilities:
        outer_uses = [u for u in ability.uses if system.kind(u.kind).place == "ability"] if system.sub_ability else ability.uses
        parts, env, given = _scope(outer_uses, "ability", catalog, notes, {})
        entry: dict[str, Any] = {"name": ability.name, "paragraph": ability.paragraph, "components": parts}
        extra: dict[str, Any] = {}
        if system.sub_ability:
            entry["sub_abilities"] = []
            sub_costs: list[Fraction] = []
            other_subs: list[Fraction | None] = []
            for sub in ability.subs:
                sub_parts, sub_env, _ = _scope(sub, "sub_ability", catalog, notes, given)
                sub_entry: dict[str, Any] = {"components": sub_parts}
                sub_entry.update({name: None for name, _ in (rule.scope("sub_ability") if rule else ())})
                entry["sub_abilities"].append(sub_entry)
                if known and sub_env is not None:
                    other_subs.append(_apply_other(other, "sub_ability", sub_env, {}))
                    sub_costs.append(_apply(rule, "sub_ability", sub_env, sub_entry))
                else:
                    known = False
            if env is not None:
                env["sub_ability_costs"] = sub_costs
            extra = {"sub_ability_costs": None if None in other_subs else other_subs}
        entry.update({name: None for name, _ in (rule.scope(ability_scope) if rule else ())})
        if known and env is not None:
            others.append(_apply_other(other, scope_of(other), env, extra))
            ability_costs.append(_apply(rule, ability_scope, env, entry))
        else:
            known = False
        breakdown["abilities"].append(entry)

    card_uses = [parsed.card_part] if parsed.card_part is not None else []
    parts, env, _ = _scope(card_uses, "card", catalog, notes, {}, ctype.id)
    for part in parts:
        breakdown[part["kind"]] = part
    if not known or env is None:
        return CostResult(None, breakdown, notes)
    env.update({st.name: breakdown[st.name] for st in ctype.stats})
    env["ability_costs"] = ability_costs
    env["ability_cost"] = ability_costs[0] if ability_costs else Fraction(0)
    by_other = _apply_other(other, ctype.id, env, {"ability_costs": None if None in others else others,
                                                   "ability_cost": others[0] if others else Fraction(0)})
    total = math.ceil(_apply(rule, ctype.id, env, {}))  # the rule rounds up itself: this makes the Fraction an int
    breakdown["total"] = total
    breakdown["ultra_points"] = sum(u.state.ultra for u in parsed.uses() if u.state is not None)
    return CostResult(total, breakdown, notes, None if by_other is None else math.ceil(by_other))
