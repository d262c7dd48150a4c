"""Reading ``system:``, ``rulebook:`` and ``card_cost:``, each checked against the system of the line.

``system:`` and ``rulebook:`` are deltas over the line's by one rule, as Pokémon Showdown's mods
inherit (:func:`inherit`); ``rulebook: null`` says no source gives the edition's rulebook."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..model import CostRule, EditionKey, Range, Rulebook
from ..system import Agreement, Capitals, CardTypeDecl, Join, KindDecl, Naming, StatDecl, System, TargetCount, Tutorial, Variation
from .files import Reporter, read_formula

__all__ = ["check_cost_rule", "inherit", "read_card_cost", "read_rulebook", "read_system"]

#: the sources a node cites, noted to check once every file is read (loader.editions.Declarer.cite)
Cite = Callable[[Reporter, Any], tuple[str, ...]]


T = TypeVar("T")


def inherit(node: Any, key: str, before: T, read: Callable[[Any], T], removed: T) -> T:
    """The value of ``node[key]`` over ``before``, the line's: left out, ``before``; ``null``,
    ``removed`` (what a part that is not there reads as); else ``read`` of it, replacing ``before``."""
    if key not in node:
        return before
    return removed if node[key] is None else read(node[key])


def _int(value: Any) -> int | None:
    """A YAML integer as an int (None stays None)."""
    return None if value is None else int(value)


def read_system(rep: Reporter, data: Any, key: EditionKey, prev: System | None, cite: Cite) -> System | None:
    """The system from this edition on: the previous one with the keys this file states replaced."""
    node = data["system"]
    src = cite(rep, node)
    if prev is None:
        missing = [k for k in ("figure", "types", "kinds", "ability") if k not in node]
        if missing:
            rep.at(data, "system", f"system: the first system states every part; missing: {', '.join(missing)}", of_key=True)
            return None
    figure = inherit(node, "figure", (prev.figure, prev.figure_title, prev.parts) if prev else None,
                     lambda f: (str(f["name"]), str(f["title"]), str(f.get("parts", "cost"))), None)
    types = inherit(node, "types", prev.types if prev else (), lambda ts: tuple(_card_type(t) for t in ts), ())
    kinds = inherit(node, "kinds", prev.kinds if prev else (), lambda ks: tuple(_kind_decl(rep, k) for k in ks), ())
    ability = inherit(node, "ability", prev.ability if prev else (), _strings, ())
    sub_ability = inherit(node, "sub_ability", prev.sub_ability if prev else (), _strings, ())
    rules = _writing_rules(rep, cite, node, prev, kinds, types)
    # a type that does not say whether its abilities are named: optional where the system says how
    # abilities are named, none where it does not
    types = tuple(t if t.names else t.replace(names="optional" if rules["naming"] is not None else "none") for t in types)
    type_ids = {t.id for t in types}
    places = {k.id: k.place for k in kinds}
    for name, ids in (("types", [t.id for t in types]), ("kinds", [k.id for k in kinds])):
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
            if kid not in places:
                rep.at(node, where, f"system.{part}: {kid!r} is not a declared kind")
            elif places[kid] != part:
                rep.at(node, where, f"system.{part}: {kid!r} has place {places[kid]!r}, not {part!r}")
        missing = [k.id for k in kinds if k.place == part and k.id not in order]
        if missing:
            rep.at(node, where or "kinds", f"system.{part}: the {part.replace('_', '-')} kinds {', '.join(missing)} have no place in it")
    name, title, parts = figure
    return System(edition=key, sources=src, figure=name, figure_title=title, types=types, kinds=kinds, ability=ability,
                  sub_ability=sub_ability, parts=parts, **rules)


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in value or ())


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in (value or {}).items())


def _card_type(t: Any) -> CardTypeDecl:
    abilities = t.get("abilities") or {}
    return CardTypeDecl(
        str(t["id"]),
        tuple(StatDecl(str(s["name"]), _int(s.get("min")), _int(s.get("max"))) for s in t.get("stats") or ()),
        int(abilities.get("min", 0)),
        _int(abilities.get("max")),
        str(t["empty_text"]) if t.get("empty_text") is not None else None,
        str(abilities.get("names", "")),  # (unstated: filled in below)
        str(t.get("empty_modal", "must")),
    )

def _writing_rules(rep: Reporter, cite_: Cite, node: Any, prev: System | None, kinds: tuple[KindDecl, ...],
                  types: tuple[CardTypeDecl, ...]) -> dict[str, Any]:
    """The card-writing rules of ``system:`` (agreement, targets, variations, joins, capitals, naming,
    tutorial): each key this file states, whole, else the previous system's; checked against the
    system's kinds and types, each rule citing its sources."""
    kind_ids = {k.id for k in kinds}

    def cite(r: Any) -> tuple[str, tuple[str, ...], str]:
        """A rule's modal, sources and quote."""
        src = cite_(rep, r)
        return str(r.get("modal", "must")), src, str(r.get("quote", ""))

    def known_kinds(r: Any, key: str, what: str) -> tuple[str, ...]:
        ids = (str(r[key]),) if isinstance(r.get(key), str) else _strings(r.get(key))
        for kid in ids:
            if kid not in kind_ids:
                rep.at(r, key, f"system.{what}: {kid!r} is not a kind of this system", f"its kinds: {', '.join(sorted(kind_ids))}")
        return ids

    def agreement(a: Any) -> Agreement:
        modal, src, quote = cite(a)
        for i, q in enumerate(a.get("qualifiers") or ()):
            if str(q).count("[n]") != 1:
                rep.at(a["qualifiers"], i, f"system.agreement.qualifiers: {q!r} names no variable",
                       'write the variable as [n], once: "level [n] or lower"')
        return Agreement(modal, src, quote, _pairs(a.get("nouns")), _pairs(a.get("verbs")),
                         _strings(a.get("qualifiers")), _strings(a.get("stops")))

    def targets(t: Any) -> TargetCount:
        src = cite_(rep, t)
        kind = known_kinds(t, "kind", "targets")
        return TargetCount(src, kind[0] if kind else "", _strings(t.get("counted")), _strings(t.get("single")))

    def variation(v: Any) -> Variation:
        modal, src, quote = cite(v)
        forms = tuple((str(k), _strings(vs)) for k, vs in (v.get("forms") or {}).items())
        for phrase, printed in forms:
            if phrase in printed:
                rep.at(v, "forms", f"system.variations: {phrase!r} is printed instead of itself", "list the words a card prints in its place")
        return Variation(modal, src, quote, known_kinds(v, "kinds", "variations"), forms, str(v.get("when", "one-target")))

    def joins(node_joins: Any) -> tuple[Join, ...]:
        out: list[Join] = []
        for j in node_joins:
            modal, src, quote = cite(j)
            after = known_kinds(j, "after", "joins")
            before = known_kinds(j, "before", "joins") if "before" in j else after
            raw = j.get("series")
            series = (str(raw["two"]), str(raw["between"]), str(raw["last"])) if raw is not None else None
            words = tuple(dict.fromkeys(str(w) for w in j.get("words") or ()))
            if (series is None) == (not words):
                rep.at(j, "words" if "words" in j else None, "system.joins: a join has either words or a series",
                       "words: [\", also \"], or series: {two, between, last}")
            if after and before:
                if any(x.after == after[0] and x.before == before[0] for x in out):
                    rep.at(j, "after", f"system.joins: {after[0]} → {before[0]} is joined twice", "one entry per pair of kinds")
                out.append(Join(modal, src, quote, after[0], before[0], str(j["end"]), words, series, bool(j.get("lower", False))))
        return tuple(out)

    readers: tuple[tuple[str, Any, Callable[[Any], Any]], ...] = (
        ("agreement", None, agreement),
        ("targets", None, targets),
        ("variations", (), lambda vs: tuple(variation(v) for v in vs)),
        ("joins", (), joins),
        ("capitals", (), lambda cs: tuple(Capitals(*cite(c), known_kinds(c, "kinds", "capitals")) for c in cs)),
        ("naming", None, lambda n: Naming(*cite(n), str(n.get("case", "upper")))),
        ("tutorial", None, lambda t: Tutorial(*cite(t), str(t["italics"]) if t.get("italics") else None)),
    )
    merged = {name: inherit(node, name, getattr(prev, name) if prev else removed, read, removed)
              for name, removed, read in readers}
    for name in ("variations", "joins", "capitals", "targets"):
        if name in node or merged[name] is None:
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
    if role != "sets" and (variable is not None or "default" in k or k.get("shows_variable") or k.get("absent")):
        rep.at(k, "variable" if variable else "default" if "default" in k else "shows_variable" if k.get("shows_variable")
               else "absent", "only a kind with role 'sets' sets a variable")
    return KindDecl(
        str(k["id"]), str(k["title"]), str(k["noun"]), role, str(k.get("place", "ability")),
        _strings(k.get("types")), None if k.get("max", 1) == "any" else int(k.get("max", 1)),
        int(k.get("min", 0)), variable, default, str(k["word"]) if k.get("word") else None,
        bool(k.get("shows_variable")), _strings(k.get("absent")),
    )

def read_rulebook(rep: Reporter, data: Any, n: EditionKey, prev: Rulebook | None, cite: Cite) -> Rulebook | None:
    """The rulebook from this edition on: ``prev``, the line's, with the keys this file states replaced
    (:func:`inherit`); None for ``rulebook: null`` (no source gives it)."""
    node = data["rulebook"]
    if node is None:
        return None
    src = cite(rep, node)

    def rng(key: str) -> Callable[[Any], Range]:
        def read(r: Any) -> Range:
            rec = r.get("recommended")
            if r.get("min") is not None and r.get("max") is not None and r["min"] > r["max"]:
                rep.at(r, "min", f"rulebook.{key}: min {r['min']} is greater than max {r['max']}")
            return Range(_int(r.get("min")), _int(r.get("max")), tuple(int(x) for x in rec) if rec else None)
        return read

    def texts(value: Any) -> dict[str, str]:
        return dict(_pairs(value))

    def same(value: Any) -> Any:
        return value

    readers: tuple[tuple[str, Any, Callable[[Any], Any]], ...] = (
        ("players", None, rng("players")), ("deck", None, rng("deck")), ("reserves", None, rng("reserves")),
        ("starting_hand", None, int), ("starting_hitpoints", None, int), ("deck_ultra_points", None, int),
        ("sections", {}, texts), ("edition_indicator", None, same), ("cost_revised", None, same),
        ("exhaustive_lists", None, same), ("terms", {}, texts), ("zones", (), _strings),
        ("ability_layout", (), _strings), ("keywords", (), _strings), ("notes", (), _strings),
    )
    return Rulebook(n, src, **{name: inherit(node, name, getattr(prev, name) if prev else removed, read, removed)
                               for name, removed, read in readers})


def read_card_cost(rep: Reporter, data: Any, n: EditionKey, system: System | None, cite: Cite) -> CostRule | None:
    """The named formulas of ``card_cost:`` in file order, checked against the line's system."""
    node = data["card_cost"]
    src = cite(rep, node)
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
    for scope, formulas in rule.scopes.items():
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
