"""Emit ``edition_NN.py``: the catalog of one edition, folded, as plain data and functions."""

from __future__ import annotations

from ..fold import Catalog, ComponentState, fold
from ..history import KINDS
from ..model import EditionKey, Range, Rulebook, RuleSet, edition_number, is_pre_release, ordinal
from ..record import field_names
from .common import (
    section,
    base_name,
    COMPONENT_NAMES,
    rule_names,
    Input,
    function_source,
    header,
    imports,
    module_docstring,
    notation,
    sorted_map,
    template_value,
    formula_value,
    unique_names,
    used_runtime,
    uses_math,
    when_value,
)
from .pysrc import Call, Name, assign


def module_name(n: EditionKey) -> str:
    """edition_10, edition_11_pre"""
    suffix = "_pre" if is_pre_release(n) else ""
    return f"edition_{edition_number(n):02d}{suffix}"


def edition_inputs(rules: RuleSet, n: EditionKey) -> list[str]:
    """The rules files the catalog of edition ``n`` derives from (file names, in order).

    Every file up to ``n``; a later file when it records an event of unknown edition
    that may already have happened by ``n``; and the file stating the card-cost rule
    when no file up to ``n`` states one."""
    files = []
    line = {d.key for d in rules.lineage(n)}
    stated = any(e.card_cost is not None for e in rules.editions if e.key in line)
    fallback_taken = False
    for decl in rules.editions:
        if decl.key in line:
            files.append(decl.file)
            continue
        events = [ev for kind in KINDS for ev in getattr(decl, kind.key)]
        if any(ev.when.edition is None and ev.when.happened_by(edition_number(n)) != "no" for ev in events):
            files.append(decl.file)
        elif not stated and not fallback_taken and decl.card_cost is not None:
            files.append(decl.file)
        if decl.card_cost is not None:
            fallback_taken = True
    return files


def _range(r: Range | None) -> Call | None:
    if r is None:
        return None
    return Call("Range", r.min, r.max, tuple(r.recommended) if r.recommended else None)


RULEBOOK_RANGES = ("players", "deck", "reserves")


def _rulebook(rb: Rulebook | None) -> Call | None:
    """The ``Rulebook``; ``terms`` keep the rulebook's own order (as it lists them)."""
    if rb is None:
        return None
    fields = {}
    for name in field_names(Rulebook):
        value = getattr(rb, name)
        if name in RULEBOOK_RANGES:
            fields[name] = _range(value)
        else:
            fields[name] = dict(value) if isinstance(value, dict) else tuple(value) if isinstance(value, tuple) else value
    return Call("Rulebook", **fields)


def _component(c: ComponentState, cost: str | None) -> Call:
    return Call(
        "ComponentState",
        id=c.id,
        kind=c.kind,
        text=template_value(c.text),
        formula=formula_value(c.formula, cost),
        limits=sorted_map(c.limits),
        status=c.status,
        redacted=when_value(c.redacted),
        wordings=tuple(
            Call(
                "Wording",
                text=template_value(w.text),
                binds=sorted_map(w.binds),
                replaced_in=when_value(w.replaced_in),
                replaced_by=template_value(w.replaced_by),
                step_binds=sorted_map(w.step_binds),
                sources=tuple(w.sources),
                **({"row": tuple(w.row)} if w.row else {}),
                **({} if w.listed else {"listed": False}),
            )
            for w in c.wordings
        ),
        cost_changes=tuple(
            Call("CostChange", when_value(ch.when), formula_value(ch.was), formula_value(ch.now), tuple(ch.sources),
                 **({} if ch.listed else {"listed": False}))
            for ch in c.cost_changes
        ),
        limit_changes=tuple(
            Call("LimitChange", when_value(ch.when), sorted_map(ch.was), sorted_map(ch.now), tuple(ch.sources))
            for ch in c.limit_changes
        ),
        sources=tuple(c.sources),
        replacement=c.replacement,
        replacement_binds=sorted_map(c.replacement_binds),
        reinstated=tuple(
            (when_value(red), when_value(rei), tuple(src), note) for red, rei, src, note in c.reinstated
        ),
        disagreements=tuple(_disagreement(d) for d in c.disagreements),
        **({"ultra": c.ultra} if c.ultra else {}),
    )


def _system(s) -> Call | None:
    if s is None:
        return None
    a = s.agreement
    return Call(
        "System",
        edition=s.edition,
        sources=tuple(s.sources),
        figure=s.figure,
        figure_title=s.figure_title,
        types=tuple(
            Call("CardTypeDecl", t.id, tuple(Call("StatDecl", st.name, st.min, st.max) for st in t.stats),
                 t.abilities_min, t.abilities_max, t.empty_text, t.names, t.empty_modal)
            for t in s.types
        ),
        kinds=tuple(Call("KindDecl", k.id, k.title, k.noun, k.role, k.place, tuple(k.types), k.max, k.min, k.variable,
                         formula_value(k.default), k.word) for k in s.kinds),
        ability=tuple(s.ability),
        sub_ability=tuple(s.sub_ability),
        parts=s.parts,
        agreement=None if a is None else Call("Agreement", a.modal, tuple(a.sources), a.quote, tuple(a.nouns), tuple(a.verbs),
                                              tuple(a.qualifiers), tuple(a.stops)),
        variations=tuple(Call("Variation", v.modal, tuple(v.sources), v.quote, tuple(v.kinds),
                              tuple((k, tuple(f)) for k, f in v.forms), v.when) for v in s.variations),
        joins=tuple(Call("Join", j.modal, tuple(j.sources), j.quote, j.after, j.before, j.end, tuple(j.words), j.series, j.lower)
                    for j in s.joins),
        capitals=tuple(Call("Capitals", c.modal, tuple(c.sources), c.quote, tuple(c.kinds)) for c in s.capitals),
        naming=None if s.naming is None else Call("Naming", s.naming.modal, tuple(s.naming.sources), s.naming.quote, s.naming.case),
        tutorial=None if s.tutorial is None else Call("Tutorial", s.tutorial.modal, tuple(s.tutorial.sources), s.tutorial.quote,
                                                      s.tutorial.italics),
        targets=None if s.targets is None else Call("TargetCount", tuple(s.targets.sources), s.targets.kind, tuple(s.targets.counted),
                                                    tuple(s.targets.single)),
    )


def _disagreement(d) -> Call:
    return Call("Disagreement", d.edition, d.note, tuple(d.sources), d.component)


def emit_edition(rules: RuleSet, n: EditionKey, hashes: dict[str, Input]) -> str:
    """The source of ``edition_NN.py`` for edition ``n``."""
    cat: Catalog = fold(rules, n)
    inputs = [hashes[f] for f in edition_inputs(rules, n)] + [hashes["<schema>"]]
    title = f"Keeper of the Cards, {ordinal(n)} edition"
    doc = (
        f"{title}: the component catalog folded from the rules.\n\n"
        "CATALOG is the edition as kotc-rulesc's engine reads it (a Catalog of the core modules\n"
        "in _core/, the very code kotc-rulesc runs): COMPONENTS lists every component as it\n"
        "stands in this edition (kind, text, formula with its generated function, limits, status\n"
        "and history), or is None when no source gives this edition's catalog; SYSTEM is how\n"
        "cards are built, COST_RULE how their figure is computed, RULEBOOK the rulebook's\n"
        "parameters and terms (None where no source gives them).  The functions take the\n"
        "variables as a mapping and return an exact Fraction.\n"
    )
    parts = [header(f"{title}: the folded catalog.", inputs), module_docstring(doc), "\n"]

    comps = list(cat.components) if cat.components is not None else None
    funcs: list[str] = []
    formulas = []
    cost_names: dict[str, str] = {}
    if comps:
        names = unique_names("cost_", [c.id for c in comps])
        for c in comps:
            if c.formula is not None:
                notation(c.formula)  # refuses a formula that would not read back
                cost_names[c.id] = names[c.id]
                funcs.append(function_source(names[c.id], c.formula, COMPONENT_NAMES))
                formulas.append(c.formula)
    rule = cat.cost_rule
    rule_value = None
    if rule is not None:
        rule_parts = []
        allowed = rule_names(cat.system, rule)
        for part, f in rule.parts():
            funcs.append(function_source(f"rule_{part}", f, allowed))
            formulas.append(f)
            rule_parts.append((part, formula_value(f, f"rule_{part}")))
        rule_value = Call("CostRule", edition=rule.edition, sources=tuple(rule.sources), formulas=tuple(rule_parts))

    components_value = (
        tuple(_component(c, cost_names.get(c.id)) for c in comps) if comps is not None else None
    )
    own = cat.declared
    declared_value = None
    if own is not None:
        declared_value = Call(
            "EditionDecl",
            number=own.number,
            file=base_name(own.file),
            base=own.base,
            follows=own.follows,
            pre_release=own.pre_release,
            sources=tuple(own.sources),
            clean_slate=own.clean_slate,
            catalog_known=own.catalog_known,
            catalog_whole=own.catalog_whole,
            successors=Name("SUCCESSORS"),
            rulebook=Name("RULEBOOK"),
            card_cost=Name("COST_RULE") if cat.cost_rule_stated else None,
            notes=tuple(own.notes),
            name=own.name,
        )
    successors_value = tuple(
        Call("Successor", s.component, s.successor, sorted_map(s.binds), tuple(s.sources))
        for s in cat.successors
    )
    rulebook_value = _rulebook(cat.rulebook)
    disagreements_value = tuple(_disagreement(d) for d in cat.disagreements)
    system_value = _system(cat.system)
    catalog_value = Call(
        "Catalog",
        edition=Name("EDITION"),
        components=Name("COMPONENTS"),
        rulebook=Name("RULEBOOK"),
        cost_rule=Name("COST_RULE"),
        clean_slates=Name("CLEAN_SLATES"),
        successors=Name("SUCCESSORS"),
        declared=Name("DECLARED"),
        disagreements=Name("DISAGREEMENTS"),
        system=Name("SYSTEM"),
    )

    runtime = used_runtime([components_value, rule_value, declared_value, successors_value, rulebook_value,
                            disagreements_value, system_value, catalog_value])
    if funcs:
        runtime.add("var")
    header_imports = "from fractions import Fraction as F\n"
    if uses_math(formulas):
        header_imports = "import math\n" + header_imports
    parts.append(header_imports)
    if runtime:
        parts.append("\n" + imports(runtime, "."))
    parts.append("\n")
    parts.append(assign("EDITION", n))
    parts.append(assign("CLEAN_SLATES", tuple(cat.clean_slates)))
    parts.append(assign("SUCCESSORS", successors_value))
    parts.append(assign("DISAGREEMENTS", disagreements_value))
    parts.append(assign("SYSTEM", system_value))

    if funcs:
        parts.append("\n\n" + section("formula functions"))
        for src in funcs:
            parts.append("\n\n" + src)
    parts.append("\n\n" + section("components") + "\n")
    parts.append(assign("COMPONENTS", components_value))
    parts.append("BY_ID = {c.id: c for c in COMPONENTS} if COMPONENTS is not None else None\n")
    parts.append("\n" + section("card-cost rule, rulebook, the edition's own file") + "\n")
    parts.append(assign("COST_RULE", rule_value))
    parts.append(assign("RULEBOOK", rulebook_value))
    parts.append(assign("DECLARED", declared_value))
    parts.append("\n" + section("the catalog") + "\n")
    parts.append(assign("CATALOG", catalog_value))
    return "".join(parts)
