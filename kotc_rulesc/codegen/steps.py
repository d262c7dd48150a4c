"""Emit ``passes/step_NN_MM.py``: what one edition step does to a card, as data."""

from __future__ import annotations

from ..model import RuleSet, ordinal
from ..passes import Pass
from .common import (
    section,
    Input,
    header,
    imports,
    module_docstring,
    sorted_map,
    template_value,
    formula_value,
    unique_names,
    used_runtime,
)
from .editions import module_name as edition_module
from .pysrc import Call, Name, assign


def module_name(p: Pass) -> str:
    """step_09_10, step_10_11_pre"""
    return f"step_{edition_module(p.source)[len('edition_'):]}_{edition_module(p.target)[len('edition_'):]}"


def step_inputs(rules: RuleSet, p: Pass) -> list[str]:
    """A step derives from the rules files of its target edition's lineage."""
    return [e.file for e in rules.lineage(p.target)]


def _change(kind: str, c, was, now, listed: bool = True) -> Call:
    """A cost or limit change made by the step (``was``/``now`` already rendered)."""
    return Call(
        kind,
        component=c.component,
        text=template_value(c.text),
        was=was,
        now=now,
        edition=c.edition,
        by=c.by,
        sources=tuple(c.sources),
        **({} if listed else {"listed": False}),
    )


def emit_step(rules: RuleSet, p: Pass, hashes: dict[str, Input]) -> str:
    """The source of the pass module for one step."""
    inputs = [hashes[f] for f in step_inputs(rules, p)] + [hashes["<schema>"]]
    title = f"Migration pass: {ordinal(p.source)} → {ordinal(p.target)} edition"
    lines = [f"{title}.", ""]
    if p.clean_slate:
        lines += [
            f"The {ordinal(p.target)} edition is a clean slate: every card whose Edition Indicator",
            f"is missing or older than the {ordinal(p.target)} is banned (SUCCESSORS name the",
            "components that take over from old ones).",
            "",
        ]
    if p.empty:
        lines += ["No source records a change in this step: it leaves every card as it is.", ""]
    lines += [
        "Each REWRITE_* reads the old wording of one component (with its variables) and writes",
        "the new one, binding the values the old wording stood for and making singular and",
        "plural forms agree; `apply(sentence)` returns None for any other sentence, so applying",
        "a rewrite to its own output changes nothing.  BANS, COST_CHANGES and LIMIT_CHANGES list",
        "what the migrator must judge, REINSTATED what becomes legal again; STEP (a Pass of",
        "kotc-rulesc's own core, in _core/) bundles it all, and `rewrite(sentence)` applies the",
        "first rewrite that matches.",
        "",
    ]
    parts = [header(f"{title}.", inputs), module_docstring("\n".join(lines))]

    names = unique_names("REWRITE_", [rw.component for rw in p.rewrites])
    rewrites = []
    for rw in p.rewrites:
        rewrites.append(
            (
                names[rw.component].upper(),
                Call(
                    "Rewrite",
                    component=rw.component,
                    kind=rw.kind,
                    old=template_value(rw.old),
                    new=template_value(rw.new),
                    binds=sorted_map(rw.binds),
                    edition=rw.edition,
                    by=rw.by,
                    sources=tuple(rw.sources),
                    **({} if rw.listed else {"listed": False}),
                ),
            )
        )
    bans = tuple(
        Call(
            "Ban",
            component=b.component,
            text=template_value(b.text),
            edition=b.edition,
            by=b.by,
            sources=tuple(b.sources),
            replacement=b.replacement,
            replacement_binds=sorted_map(b.replacement_binds),
        )
        for b in p.bans
    )
    costs = tuple(_change("StepCostChange", c, formula_value(c.was), formula_value(c.now), c.listed) for c in p.cost_changes)
    limits = tuple(_change("StepLimitChange", c, sorted_map(c.was), sorted_map(c.now)) for c in p.limit_changes)
    reinstated = tuple(
        Call("Reinstated", component=r.component, text=template_value(r.text), sources=tuple(r.sources), note=r.note)
        for r in p.reinstated
    )
    runtime = used_runtime([[v for _, v in rewrites], bans, costs, limits, reinstated]) | {"Pass"}
    parts.append("\n" + imports(runtime, ".."))
    parts.append("\n")
    parts.append(assign("SOURCE", p.source))
    parts.append(assign("TARGET", p.target))
    parts.append(assign("CLEAN_SLATE", p.clean_slate))
    parts.append(assign("CATALOG_KNOWN", p.catalog_known))
    parts.append(assign("SUCCESSORS", tuple(tuple(s) for s in p.successors)))
    parts.append("\n" + section("rewrites") + "\n")
    for name, value in rewrites:
        parts.append(assign(name, value) + "\n")
    parts.append(assign("REWRITES", tuple(Name(name) for name, _ in rewrites)))
    parts.append("\n" + section("bans, cost and limit changes") + "\n")
    parts.append(assign("BANS", bans))
    parts.append(assign("COST_CHANGES", costs))
    parts.append(assign("LIMIT_CHANGES", limits))
    parts.append(assign("REINSTATED", reinstated))
    parts.append("\n")
    parts.append(
        assign(
            "STEP",
            Call(
                "Pass",
                source=Name("SOURCE"),
                target=Name("TARGET"),
                rewrites=Name("REWRITES"),
                bans=Name("BANS"),
                cost_changes=Name("COST_CHANGES"),
                limit_changes=Name("LIMIT_CHANGES"),
                clean_slate=Name("CLEAN_SLATE"),
                catalog_known=Name("CATALOG_KNOWN"),
                successors=Name("SUCCESSORS"),
                reinstated=Name("REINSTATED"),
            ),
        )
    )
    parts.append("rewrite = STEP.rewrite\n")
    return "".join(parts)
