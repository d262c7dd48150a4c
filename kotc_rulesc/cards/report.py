"""Judgements and cost breakdowns as text and JSON (``check-cards`` and ``cost``)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ..model import ordinal
from .legality import Judgement

STATUSES = ("legal", "banned", "error", "unknown")


def summary(judgements: Iterable[Judgement | str]) -> dict[str, int]:
    """Counts by status, of judgements or of their statuses."""
    counts = Counter(j if isinstance(j, str) else j.status for j in judgements)
    return {"cards": sum(counts.values()), **{s: counts.get(s, 0) for s in STATUSES}}


def summary_text(counts: dict[str, int]) -> str:
    n = counts["cards"]
    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
    return f"{n} card{'s' if n != 1 else ''}: " + (", ".join(parts) if parts else "none")


def check_json(edition: int, judgements: list[Judgement]) -> dict[str, Any]:
    """The JSON of ``check-cards --format json``."""
    return {
        "edition": edition,
        "cards": [j.to_json() for j in judgements],
        "summary": summary(judgements),
    }


def _title(j: Judgement) -> str:
    name = j.name if j.name is not None else "(no name)"
    return f"[{j.index}] {name}"


def _cost_text(j: Judgement) -> str:
    cost = "unknown" if j.cost is None else str(j.cost)
    if j.status == "error":
        cost = "not computed"
    printed = "" if j.printed_cost is None else f", printed {j.printed_cost}"
    return f"{j.figure} {cost}{printed}"


def judgement_text(j: Judgement, file: str | None = None, said: tuple[str, ...] = ()) -> str:
    """One card: its status and cost, then every reason (located) and note (but the notes ``said`` already)."""
    lines = [f"{_title(j)}: {j.status.upper() if j.status != 'legal' else 'legal'} — {_cost_text(j)}"]
    for r in j.reasons:
        line = j.line_of(r)
        where = ""
        if file:
            where = f"{file}:{line}: " if line else f"{file}: "
        cite = []
        if r.edition is not None:
            cite.append(f"{ordinal(r.edition)} edition")
        if r.sources:
            cite.append(", ".join(r.sources))
        fld = f" (field {r.field})" if r.field else ""
        lines.append(f"    {where}{r.code}{fld}: {r.message}" + (f" [{'; '.join(cite)}]" if cite else ""))
    for note in j.notes:
        if note not in said:
            lines.append(f"    note: {note}")
    return "\n".join(lines)


def _values_text(values: dict[str, Any], given: dict[str, Any]) -> str:
    items = [f"{k}={v}" for k, v in sorted(values.items())] + [f"{k}={v}" for k, v in given.items()]
    return f" ({', '.join(items)})" if items else ""


def _part_text(part: dict[str, Any]) -> str:
    ultra = f" [+{part['ultra']}]" if part.get("ultra") else ""  # its Ultra Points (the 17th's)
    if part["role"] == "none":
        return f"      {part['noun']:<20} \"{part['text']}\"{ultra} (no formula)"
    formula = part["formula"] if part["formula"] is not None else "unknown"
    value = part["value"] if part["value"] is not None else "unknown"
    return (
        f"      {part['noun']:<20} \"{part['text']}\"{ultra}\n"
        f"      {'':<20} {part['role']} {formula}{_values_text(part['values'], _given(part))} = {value}"
    )


def _given(part: dict[str, Any]) -> dict[str, Any]:
    """The variables the ability set for this component's formula (t, a), as the breakdown has them."""
    known = ("component", "kind", "noun", "text", "formula", "values", "role", "value", "ultra")
    return {k: v for k, v in part.items() if k not in known}


def _values_line(entry: dict[str, Any], rule: dict[str, Any] | None) -> str:
    """ "      total relief 3, ability cost 2": the rule's formulas of an ability or sub-ability, as computed."""
    names = [name for name in (rule or {}) if name not in ("edition", "stated", "sources") and name in entry]
    values = [f"{n.replace('sub_ability', 'sub-ability').replace('_', ' ')} {entry[n]}" for n in names if entry[n] is not None]
    return "      " + ", ".join(values) if values else ""


def breakdown_text(j: Judgement) -> str:
    """The figure of one card (cost, level), per component and per ability (``kotc-rulesc cost``)."""
    b = j.breakdown
    figure = b["figure"] if b else "cost"
    head = f"{j.name or '(no name)'}: {figure} {j.cost if j.cost is not None else 'unknown'} in the {ordinal(j.edition or 0)} edition"
    if b is None:
        return head
    lines = [head]
    rule = b["rule"]
    stats = ", ".join(f"{name} {b.get(name)}" for name in b["stats"])
    lines.append(f"  {b['type']}: {stats}" if stats else f"  {b['type']}")
    for kind, noun in b["card_kinds"].items():
        if b.get(kind):
            lines.append(f"  {noun}")
            lines.append(_part_text(b[kind]))
    for i, ability in enumerate(b["abilities"], 1):
        lines.append(f"  ability {i}" + (f": {ability['name']}" if ability["name"] else "") + f" (paragraph {ability['paragraph']})")
        for part in ability["components"]:
            lines.append(_part_text(part))
        for k, sub in enumerate(ability.get("sub_abilities", ()), 1):
            lines.append(f"    sub-ability {k}")
            for part in sub["components"]:
                lines.append(_part_text(part))
            lines.append(_values_line(sub, rule))
        line = _values_line(ability, rule)
        lines.append(line[2:] if "sub_abilities" in ability else line)  # outdented under its sub-abilities
    if rule is not None:
        which = f"{b['type']}_cost"
        stated = "" if rule["stated"] else f" (the {ordinal(rule['edition'])} edition's rule)"
        total = b["total"] if b["total"] is not None else "unknown"
        lines.append(f"  {which} = {rule[which]} = {total}{stated}")
    if b.get("ultra_points"):
        lines.append(f"  Ultra Points: {b['ultra_points']} (the sum of its texts' [+N])")
    return "\n".join(line for line in lines if line)
