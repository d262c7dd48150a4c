"""Reading ``system:``, ``rulebook:`` and ``card_cost:``: how cards are built, the rulebook's
parameters and the card-cost rule, each checked against the system of the line."""

from __future__ import annotations

from typing import Any, Callable

from ..model import CostRule, EditionKey, Range, Rulebook
from ..system import Agreement, Capitals, CardTypeDecl, Join, KindDecl, Naming, StatDecl, System, TargetCount, Tutorial, Variation
from .files import Reporter, read_formula, sources_of

__all__ = ["check_cost_rule", "read_card_cost", "read_rulebook", "read_system"]

#: how a reader notes the sources a node cites (checked once every file is read): (reporter, node, key, ids)
Cite = Callable[[Reporter, Any, Any, tuple[str, ...]], None]


def _int(value: Any) -> int | None:
    """A YAML integer as an int (None stays None)."""
    return None if value is None else int(value)


def read_system(rep: Reporter, data: Any, key: EditionKey, prev: System | None, cite: Cite) -> System | None:
    """The system from this edition on: the previous one with the keys this file states replaced."""
    node = data["system"]
    src = sources_of(node.get("source"), ())
    cite(rep, node, "source", src)
    if prev is None:
        missing = [k for k in ("figure", "types", "kinds", "ability") if k not in node]
        if missing:
            rep.at(data, "system", f"system: the first system states every part; missing: {', '.join(missing)}", of_key=True)
            return None
    figure = node.get("figure")
    types = prev.types if prev and "types" not in node else tuple(
        CardTypeDecl(
            str(t["id"]),
            tuple(StatDecl(str(s["name"]), _int(s.get("min")), _int(s.get("max"))) for s in t.get("stats") or ()),
            int((t.get("abilities") or {}).get("min", 0)),
            _int((t.get("abilities") or {}).get("max")),
            str(t["empty_text"]) if t.get("empty_text") is not None else None,
            str((t.get("abilities") or {}).get("names", "")),  # (unstated: filled in below)
            str(t.get("empty_modal", "must")),
        )
        for t in node["types"]
    )
    kinds = prev.kinds if prev and "kinds" not in node else tuple(_kind_decl(rep, k) for k in node["kinds"])
    ability = prev.ability if prev and "ability" not in node else tuple(str(x) for x in node["ability"])
    restated = "ability" in node or "sub_ability" in node
    sub_ability = prev.sub_ability if prev and not restated else tuple(str(x) for x in node.get("sub_ability") or ())
    rules = _writing_rules(rep, cite, node, prev, kinds, types)
    # a type that does not say whether its abilities are named: optional where the system says how
    # abilities are named, none where it does not
    types = tuple(t if t.names else t.replace(names="optional" if rules["naming"] is not None else "none") for t in types)
    type_ids = {t.id for t in types}
    kind_ids = [k.id for k in kinds]
    for name, ids in (("types", [t.id for t in types]), ("kinds", kind_ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            rep.at(node, name, f"system.{name}: {', '.join(dup)} declared twice")
    for i, k in enumerate(kinds):
        for t in k.types:
            if t not in type_ids:
                rep.at(node["kinds"][i] if "kinds" in node else node, "types" if "kinds" in node else None,
                       f"system.kinds: {k.id} names the card type {t!r}, which the system does not declare")
    for part, order in (("ability", ability), ("sub_ability", sub_ability)):
        where = part if part in node else None
        for kid in order:
            if kid not in kind_ids:
                rep.at(node, where, f"system.{part}: {kid!r} is not a declared kind")
            elif next(k for k in kinds if k.id == kid).place != part:
                place = next(k for k in kinds if k.id == kid).place
                rep.at(node, where, f"system.{part}: {kid!r} has place {place!r}, not {part!r}")
        missing = [k.id for k in kinds if k.place == part and k.id not in order]
        if missing:
            rep.at(node, where or "kinds", f"system.{part}: the {part.replace('_', '-')} kinds {', '.join(missing)} have no place in it")
    return System(
        edition=key,
        sources=src,
        figure=str(figure["name"]) if figure else prev.figure,
        figure_title=str(figure["title"]) if figure else prev.figure_title,
        types=types,
        kinds=kinds,
        ability=ability,
        sub_ability=sub_ability,
        parts=str(figure.get("parts", "cost")) if figure else prev.parts,
        **rules,
    )

def _writing_rules(rep: Reporter, cite_: Cite, node: Any, prev: System | None, kinds: tuple[KindDecl, ...],
                  types: tuple[CardTypeDecl, ...]) -> dict[str, Any]:
    """The card-writing rules of ``system:`` (agreement, targets, variations, joins, capitals, naming,
    tutorial): each key this file states, whole, else the previous system's; checked against the
    system's kinds and types, each rule citing its sources."""
    kind_ids = {k.id for k in kinds}

    def cite(r: Any) -> tuple[str, tuple[str, ...], str]:
        """A rule's modal, sources and quote."""
        src = sources_of(r.get("source"), ())
        cite_(rep, r, "source", src)
        return str(r.get("modal", "must")), src, str(r.get("quote", ""))

    def known_kinds(r: Any, key: str, what: str) -> tuple[str, ...]:
        ids = (str(r[key]),) if isinstance(r.get(key), str) else tuple(str(x) for x in r.get(key) or ())
        for kid in ids:
            if kid not in kind_ids:
                rep.at(r, key, f"system.{what}: {kid!r} is not a kind of this system", f"its kinds: {', '.join(sorted(kind_ids))}")
        return ids

    out: dict[str, Any] = {}
    if "agreement" in node:
        a = node["agreement"]
        if a is None:
            out["agreement"] = None
        else:
            modal, src, quote = cite(a)
            out["agreement"] = Agreement(
                modal, src, quote,
                tuple((str(k), str(v)) for k, v in (a.get("nouns") or {}).items()),
                tuple((str(k), str(v)) for k, v in (a.get("verbs") or {}).items()),
                tuple(str(q) for q in a.get("qualifiers") or ()),
                tuple(str(w) for w in a.get("stops") or ()),
            )
            for i, q in enumerate(a.get("qualifiers") or ()):
                if str(q).count("[n]") != 1:
                    rep.at(a["qualifiers"], i, f"system.agreement.qualifiers: {q!r} names no variable",
                           'write the variable as [n], once: "level [n] or lower"')
    if "targets" in node:
        t = node["targets"]
        if t is None:
            out["targets"] = None
        else:
            src = sources_of(t.get("source"), ())
            cite_(rep, t, "source", src)
            kind = known_kinds(t, "kind", "targets")
            out["targets"] = TargetCount(src, kind[0] if kind else "", tuple(str(x) for x in t.get("counted") or ()),
                                         tuple(str(x) for x in t.get("single") or ()))
    if "variations" in node:
        variations = []
        for v in node["variations"] or ():
            modal, src, quote = cite(v)
            forms = tuple((str(k), tuple(str(x) for x in vs)) for k, vs in (v.get("forms") or {}).items())
            for phrase, printed in forms:
                if phrase in printed:
                    rep.at(v, "forms", f"system.variations: {phrase!r} is printed instead of itself", "list the words a card prints in its place")
            variations.append(Variation(modal, src, quote, known_kinds(v, "kinds", "variations"), forms, str(v.get("when", "one-target"))))
        out["variations"] = tuple(variations)
    if "joins" in node:
        joins = []
        for j in node["joins"] or ():
            modal, src, quote = cite(j)
            after = known_kinds(j, "after", "joins")
            before = known_kinds(j, "before", "joins") if "before" in j else after
            series = None
            if j.get("series") is not None:
                raw = j["series"]
                series = (str(raw["two"]), str(raw["between"]), str(raw["last"]))
            words = tuple(dict.fromkeys(str(w) for w in j.get("words") or ()))
            if (series is None) == (not words):
                rep.at(j, "words" if "words" in j else None, "system.joins: a join has either words or a series",
                       "words: [\", also \"], or series: {two, between, last}")
            if after and before:
                if any(x.after == after[0] and x.before == before[0] for x in joins):
                    rep.at(j, "after", f"system.joins: {after[0]} → {before[0]} is joined twice", "one entry per pair of kinds")
                joins.append(Join(modal, src, quote, after[0], before[0], str(j["end"]), words, series, bool(j.get("lower", False))))
        out["joins"] = tuple(joins)
    if "capitals" in node:
        out["capitals"] = tuple(Capitals(*cite(c), known_kinds(c, "kinds", "capitals")) for c in node["capitals"] or ())
    if "naming" in node:
        n = node["naming"]
        out["naming"] = None if n is None else Naming(*cite(n), str(n.get("case", "upper")))
    if "tutorial" in node:
        t = node["tutorial"]
        out["tutorial"] = None if t is None else Tutorial(*cite(t), str(t["italics"]) if t.get("italics") else None)
    merged = {name: out[name] if name in out else (getattr(prev, name) if prev else default)
              for name, default in (("agreement", None), ("targets", None), ("variations", ()), ("joins", ()),
                                    ("capitals", ()), ("naming", None), ("tutorial", None))}
    for name in ("variations", "joins", "capitals", "targets"):
        if name in out or merged[name] is None:
            continue
        stated = (merged[name],) if name == "targets" else merged[name]
        stale = sorted({kid for r in stated
                        for kid in ((r.after, r.before) if name == "joins" else (r.kind,) if name == "targets" else r.kinds)} - kind_ids)
        if stale:
            rep.at(node, "kinds" if "kinds" in node else None,
                   f"system.{name}, as an earlier edition states them, name the kinds {', '.join(stale)}, "
                   "which this system does not have", f"restate {name}: here")
    # what the rules need of each other: a variation "one-target" counts targets; a named ability a naming
    if any(v.when == "one-target" for v in merged["variations"]) and merged["targets"] is None:
        rep.at(node, "variations", "system.variations: a variation for one target needs 'targets:' "
               "(how a target selection says how many it selects)", 'targets: {counted: ["up to"], single: ["this card"]}')
    named = [t.id for t in types if t.names not in ("none", "")]
    if named and merged["naming"] is None:
        rep.at(node, "types" if "types" in node else "naming",
               f"system: the abilities of {', '.join(named)} may be named, but 'naming:' says not how",
               "add naming: {case: upper, source, quote}, or give the types names: none")
    return merged

def _kind_decl(rep: Reporter, k: Any) -> KindDecl:
    role = str(k["role"])
    variable = str(k["variable"]) if k.get("variable") else None
    default = None
    if "default" in k:
        ok, default = read_formula(rep, k, "default")
    if role == "sets" and variable is None:
        rep.at(k, "role", "role: sets needs 'variable' (the variable it sets, e.g. t)")
    if role != "sets" and (variable is not None or "default" in k or k.get("shows_variable")):
        rep.at(k, "variable" if variable else "default" if "default" in k else "shows_variable",
               "only a kind with role 'sets' sets a variable")
    return KindDecl(
        str(k["id"]), str(k["title"]), str(k["noun"]), role, str(k.get("place", "ability")),
        tuple(str(x) for x in k.get("types") or ()), None if k.get("max", 1) == "any" else int(k.get("max", 1)),
        int(k.get("min", 0)), variable, default, str(k["word"]) if k.get("word") else None,
        bool(k.get("shows_variable")),
    )

def read_rulebook(rep: Reporter, data: Any, n: EditionKey, cite: Cite) -> Rulebook:
    node = data["rulebook"]
    src = sources_of(node.get("source"), ())
    cite(rep, node, "source", src)

    def rng(key: str) -> Range | None:
        r = node.get(key)
        if r is None:
            return None
        rec = r.get("recommended")
        if r.get("min") is not None and r.get("max") is not None and r["min"] > r["max"]:
            rep.at(r, "min", f"rulebook.{key}: min {r['min']} is greater than max {r['max']}")
        return Range(_int(r.get("min")), _int(r.get("max")), tuple(int(x) for x in rec) if rec else None)

    return Rulebook(
        edition=n,
        sources=src,
        players=rng("players"),
        deck=rng("deck"),
        reserves=rng("reserves"),
        starting_hand=_int(node.get("starting_hand")),
        starting_hitpoints=_int(node.get("starting_hitpoints")),
        deck_ultra_points=_int(node.get("deck_ultra_points")),
        sections={str(k): str(v) for k, v in (node.get("sections") or {}).items()},
        edition_indicator=node.get("edition_indicator"),
        cost_revised=node.get("cost_revised"),
        exhaustive_lists=node.get("exhaustive_lists"),
        terms={str(k): str(v) for k, v in (node.get("terms") or {}).items()},
        zones=tuple(str(z) for z in node.get("zones") or ()),
        ability_layout=tuple(str(z) for z in node.get("ability_layout") or ()),
        keywords=tuple(str(z) for z in node.get("keywords") or ()),
        notes=tuple(str(z) for z in node.get("notes") or ()),
    )

def read_card_cost(rep: Reporter, data: Any, n: EditionKey, system: System | None, cite: Cite) -> CostRule | None:
    """The named formulas of ``card_cost:`` in file order, checked against the line's system."""
    node = data["card_cost"]
    src = sources_of(node.get("source"), ())
    cite(rep, node, "source", src)
    formulas = []
    for name in node:
        if name == "source":
            continue
        ok, formula = read_formula(rep, node, name)
        if not ok:
            return None
        if formula is None:
            rep.at(node, name, f"card_cost.{name}: the card-cost rule cannot be 'unknown'; leave card_cost out instead")
            return None
        formulas.append((str(name), formula))
    rule = CostRule(n, src, tuple(formulas))
    if system is not None and not check_cost_rule(rep, data, "card_cost", rule, system):
        return None
    return rule

def check_cost_rule(rep: Reporter, data: Any, key: str, rule: CostRule, system: System, why: str = "") -> bool:
    """Every scope of the system has its ``_cost`` formula, each formula reads only its scope's
    inputs and the helpers before it; report at ``data[key]`` (the formula's line when it is
    in this file's card_cost)."""
    node = data[key]
    in_rule = key == "card_cost"
    ok = True

    def at(name: str | None, message: str, hint: str | None = None) -> None:
        nonlocal ok
        ok = False
        if in_rule and name in node:
            rep.at(node, name, message + why, hint)
        else:
            rep.at(data, key, message + why, hint, of_key=True)

    scopes = system.rule_scopes()
    names = [name for name, _ in rule.formulas]
    for scope in scopes:
        if f"{scope}_cost" not in names:
            at(None, f"card_cost: no {scope}_cost formula; the system's scopes are {', '.join(scopes)}")
    if names and not names[-1].endswith("_cost"):
        at(names[-1], f"card_cost.{names[-1]}: a helper belongs to the _cost formula that follows it; none follows")
    for scope, formulas in rule.scopes().items():
        if scope not in scopes and scope not in system.rule_overrides():
            at(f"{scope}_cost", f"card_cost.{scope}_cost: {scope!r} is not a scope of the system",
               f"the scopes: {', '.join(scopes + system.rule_overrides())}")
            continue
        allowed = dict(system.rule_inputs(scope))
        for name, formula in formulas:
            for var in sorted(formula.variables - set(allowed)):
                at(name, f"card_cost.{name}: unknown name {var!r}", f"{name} may use: {', '.join(sorted(allowed))}")
            allowed[name] = "a helper"
    return ok
