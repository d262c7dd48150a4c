"""The resource cost of a parsed card, by the edition's card-cost rule from the data.

Every component's formula is evaluated exactly (:class:`fractions.Fraction`) with
the card's values; an effect's ``t`` is the cost of its ability's target
selection (the parser rejects an effect that needs ``t`` without one, so ``t = 0``
only reaches formulas that do not use it).  The catalog's
:class:`~kotc_rulesc.model.CostRule` then combines them: ``total_relief``,
``ability_cost``, ``creature_cost`` and ``spell_cost``, which round up as the
guide says.  A component whose formula no source gives makes the cost unknown
(``None``), with a note — never a guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..fold import Catalog
from ..model import ordinal
from .model import ParsedCard, Use

__all__ = ["CostResult", "card_cost", "fraction_text", "rule_note"]


@dataclass
class CostResult:
    """``total``: the card's cost (``None`` when unknown); ``breakdown``: JSON-ready detail."""

    total: int | None
    breakdown: dict[str, Any]
    notes: list[str] = field(default_factory=list)


class _Unknown(Exception):
    pass


def fraction_text(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _part(use: Use, catalog: Catalog, given: dict[str, Fraction | None] | None, notes: list[str]) -> tuple[dict[str, Any], Fraction | None]:
    """One component's value; ``given`` holds the variables the ability's kinds set (t, a), for
    the formulas of cost kinds (None: a variable whose value is unknown)."""
    comp = use.state or catalog.by_id().get(use.component)
    formula = comp.formula if comp is not None else None
    given = given or {}
    part: dict[str, Any] = {
        "component": use.component,
        "kind": use.kind,
        "text": use.wording,
        "formula": formula.notation() if formula is not None else None,
        "values": dict(use.values),
        "noun": catalog.system.noun(use.kind),
        "role": _role(catalog.system.kind(use.kind)),
        "value": None,
    }
    used = {v: given[v] for v in sorted(formula.variables) if v in given} if formula is not None else {}
    if "t" in used:
        part["t"] = fraction_text(used["t"]) if used["t"] is not None else None
    for var, value in used.items():
        if var != "t":
            part[var] = fraction_text(value) if value is not None else None
    if formula is None:
        notes.append(f'the cost of "{use.wording}" in the {ordinal(catalog.edition)} edition is unknown: no source gives its formula')
        return part, None
    if any(value is None for value in used.values()):
        return part, None  # a variable the ability sets is unknown; noted where it is set
    env: dict[str, Any] = dict(use.values)
    env.update(used)
    try:
        value = formula.evaluate(env)
    except (KeyError, ZeroDivisionError) as exc:
        notes.append(f'the cost of "{use.wording}" cannot be computed from {formula.notation()}: {exc}')
        return part, None
    part["value"] = fraction_text(value)
    return part, value


def _role(kind: Any) -> str:
    """How the breakdown names what a component's formula does: relief, cost, or "sets a"."""
    if kind.role == "sets" and kind.variable != "t":
        return f"sets {kind.variable}"
    return "relief" if kind.role == "relief" else "cost"  # a target selection's t is its cost


def rule_note(catalog: Catalog) -> str | None:
    """The note every cost in this edition carries, when no source states its card-cost rule."""
    rule = catalog.cost_rule
    if rule is None:
        return f"no source states any card-cost rule; the cost in the {ordinal(catalog.edition)} edition is unknown"
    if not catalog.cost_rule_stated:
        return (f"no source states the card-cost rule of the {ordinal(catalog.edition)} edition; "
                f"the {ordinal(rule.edition)} edition's rule is used")
    return None


def card_cost(card: dict, parsed: ParsedCard, catalog: Catalog, card_type: str | None = None) -> CostResult:
    """The figure of ``card`` (read as ``parsed``, of the system's type ``card_type``, by default
    its printed type) in the catalog's edition, with a breakdown."""
    if card_type is None:
        card_type = str(card.get("type", "")).strip().lower()
    notes: list[str] = []
    rule = catalog.cost_rule
    system = catalog.system
    ctype = system.card_type(card_type)
    card_kinds = [k for k in system.kinds if k.place == "card"]
    breakdown: dict[str, Any] = {
        "edition": catalog.edition,
        "figure": system.figure,
        "figure_title": system.figure_title,
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
        breakdown["rule"] = {
            "edition": rule.edition,
            "stated": catalog.cost_rule_stated,
            "sources": list(rule.sources),
            **{name: f.notation() for name, f in rule.parts()},
        }
    note = rule_note(catalog)
    if note:
        notes.append(note)

    known = rule is not None
    system = catalog.system
    ability_costs: list[Fraction] = []
    for ability in parsed.abilities:
        # first the kinds that set a variable (the target selection's t, the condition's a) …
        given: dict[str, Fraction | None] = {}
        set_parts: dict[int, dict[str, Any]] = {}
        for var, kind in system.set_variables.items():
            use = ability.of_kind(kind.id)
            if use is not None:
                set_parts[id(use)], given[var] = _part(use, catalog, None, notes)
                known = known and given[var] is not None
            elif kind.default is not None:
                given[var] = kind.default.evaluate({})
            else:
                given[var] = Fraction(0)  # no formula that needs it: the parser rejects those
        # … then every other component, with them
        parts = []
        relief = {k.id: Fraction(0) for k in system.kinds if k.role == "relief" and k.place == "ability"}
        costs: dict[str, list[Fraction]] = {k.id: [] for k in system.kinds if k.role == "cost"}
        for use in ability.uses:
            if id(use) in set_parts:
                parts.append(set_parts[id(use)])
                continue
            part, value = _part(use, catalog, given, notes)
            parts.append(part)
            if value is None:
                known = False
            elif use.kind in costs:
                costs[use.kind].append(value)
            elif use.kind in relief:
                relief[use.kind] += value
        entry: dict[str, Any] = {"name": ability.name, "paragraph": ability.paragraph, "components": parts,
                                 "total_relief": None, "ability_cost": None}
        if known:
            env: dict[str, Any] = {f"{k}_relief": v for k, v in relief.items()}
            env.update({f"{k}_costs": v for k, v in costs.items()})
            env["total_relief"] = rule.total_relief.evaluate(env)
            cost = rule.ability_cost.evaluate(env)
            entry["total_relief"] = fraction_text(env["total_relief"])
            entry["ability_cost"] = fraction_text(cost)
            ability_costs.append(cost)
        breakdown["abilities"].append(entry)

    env = {f"{k.id}_relief": Fraction(0) for k in card_kinds}
    if parsed.card_part is not None:
        part, value = _part(parsed.card_part, catalog, None, notes)
        breakdown[parsed.card_part.kind] = part
        if value is None:
            known = False
        else:
            env[f"{parsed.card_part.kind}_relief"] = value

    if not known:
        return CostResult(None, breakdown, notes)
    env.update({st.name: breakdown[st.name] for st in ctype.stats})
    env["ability_costs"] = ability_costs
    env["ability_cost"] = ability_costs[0] if ability_costs else Fraction(0)
    value = dict(rule.parts())[f"{ctype.id}_cost"].evaluate(env)
    total = math.ceil(value)  # the rule rounds up itself; this only turns the Fraction into an int
    breakdown["total"] = total
    return CostResult(total, breakdown, notes)
