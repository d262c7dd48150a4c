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


def _part(use: Use, catalog: Catalog, t: Fraction | None, notes: list[str]) -> tuple[dict[str, Any], Fraction | None]:
    comp = use.state or catalog.by_id().get(use.component)
    formula = comp.formula if comp is not None else None
    part: dict[str, Any] = {
        "component": use.component,
        "kind": use.kind,
        "text": use.wording,
        "formula": formula.notation() if formula is not None else None,
        "values": dict(use.values),
        "noun": catalog.system.noun(use.kind),
        "role": "relief" if catalog.system.kind(use.kind).role == "relief" else "cost",
        "value": None,
    }
    if use.kind == "effect" and formula is not None and "t" in formula.variables:
        part["t"] = fraction_text(t) if t is not None else None
    if formula is None:
        notes.append(f'the cost of "{use.wording}" in the {ordinal(catalog.edition)} edition is unknown: no source gives its formula')
        return part, None
    if use.kind == "effect" and t is None:
        return part, None  # the target selection's cost is unknown; noted there
    env: dict[str, Any] = dict(use.values)
    if use.kind == "effect":
        env["t"] = t
    try:
        value = formula.evaluate(env)
    except (KeyError, ZeroDivisionError) as exc:
        notes.append(f'the cost of "{use.wording}" cannot be computed from {formula.notation()}: {exc}')
        return part, None
    part["value"] = fraction_text(value)
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


def card_cost(card: dict, parsed: ParsedCard, catalog: Catalog) -> CostResult:
    """The cost of ``card`` (read as ``parsed``) in the catalog's edition, with a breakdown."""
    notes: list[str] = []
    rule = catalog.cost_rule
    creature = str(card.get("type", "")).strip().lower() != "spell"
    breakdown: dict[str, Any] = {
        "edition": catalog.edition,
        "type": "creature" if creature else "spell",
        "rule": None,
        "caveat": None,
        "abilities": [],
        "total": None,
    }
    if creature:
        breakdown["offense"], breakdown["defense"] = card.get("offense") or 0, card.get("defense") or 0
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
    ability_costs: list[Fraction] = []
    for ability in parsed.abilities:
        parts = []
        t: Fraction | None = Fraction(0)
        relief = {"condition": Fraction(0), "cost": Fraction(0)}
        effect_costs: list[Fraction] = []
        target = ability.of_kind("target")
        if target is not None:
            target_part, t = _part(target, catalog, None, notes)
            known = known and t is not None
        for use in ability.uses:
            if use is target:
                parts.append(target_part)
                continue
            part, value = _part(use, catalog, t, notes)
            parts.append(part)
            if value is None:
                known = False
            elif use.kind == "effect":
                effect_costs.append(value)
            else:
                relief[use.kind] = value
        entry: dict[str, Any] = {"name": ability.name, "paragraph": ability.paragraph, "components": parts,
                                 "total_relief": None, "ability_cost": None}
        if known:
            env = {"condition_relief": relief["condition"], "cost_relief": relief["cost"], "effect_costs": effect_costs}
            env["total_relief"] = rule.total_relief.evaluate(env)
            cost = rule.ability_cost.evaluate(env)
            entry["total_relief"] = fraction_text(env["total_relief"])
            entry["ability_cost"] = fraction_text(cost)
            ability_costs.append(cost)
        breakdown["abilities"].append(entry)

    caveat_relief = Fraction(0)
    if parsed.caveat is not None:
        part, value = _part(parsed.caveat, catalog, None, notes)
        breakdown["caveat"] = part
        if value is None:
            known = False
        else:
            caveat_relief = value

    if not known:
        return CostResult(None, breakdown, notes)
    if creature:
        env = {
            "offense": breakdown["offense"],
            "defense": breakdown["defense"],
            "caveat_relief": caveat_relief,
            "ability_costs": ability_costs,
        }
        value = rule.creature_cost.evaluate(env)
    else:
        value = rule.spell_cost.evaluate({"ability_cost": ability_costs[0] if ability_costs else Fraction(0)})
    total = math.ceil(value)  # the rule rounds up itself; this only turns the Fraction into an int
    breakdown["total"] = total
    return CostResult(total, breakdown, notes)
