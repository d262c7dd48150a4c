"""Load ``rules/*.yaml``: read, validate against the JSON Schema, declare the model, replay it.

Every problem is collected and reported at once, each with file, line and column (and a hint
where one helps); nothing here ever raises a traceback at a user.  Three stages, each on what the
one before produced: every file is read and checked against the schema (one malformed file
stops here, so that it causes no cascade elsewhere); the files' meaning is read into the declared
model, each against the editions before it; the model is replayed (:class:`kotc_rulesc.fold.Replay`), which finds what only the folded history
shows.  Last, on clean rules, no two texts of one edition may read alike.
"""

from __future__ import annotations

import difflib
import json
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable

import jsonschema

from .errors import Problem, ProblemsFound
from .fold import Replay, collisions
from .formula import Formula, FormulaError, parse_formula
from .history import CLEAN_SLATE, KINDS
from .history.event import Event, formula_problems
from .model import (ComponentDecl, CostRule, Disagreement, EditionDecl, EditionKey, Range, Rulebook, RuleSet, Source, When,
                    Where, ordinal, pre_release_key)
from .reading.policy import InputError, open_input, yaml_text
from .reading.yaml_reader import position, read_yaml
from .rules_folder import FILE_NAME, listing
from .system import Agreement, Capitals, CardTypeDecl, Join, KindDecl, Naming, StatDecl, System, TargetCount, Tutorial, Variation
from .text import Template, TemplateError, parse_template

__all__ = ["check_rules", "default_rules_dir", "edition_schema", "load_rules"]


def edition_schema() -> dict:
    return json.loads(resources.files("kotc_rulesc").joinpath("schemas/edition.schema.json").read_text())


# --------------------------------------------------------------------------- locations


def pos(node: Any, key: Any = None, of_key: bool = False) -> tuple[int, int]:
    """1-based (line, column) of ``node[key]`` (its key with ``of_key``), or of ``node``."""
    return position(node, key, of_key)[:2]


def _value_col_offset(node: Any, key: Any) -> int:
    """Columns between a scalar's position and its first character (the opening quote)."""
    return 1 if position(node, key)[2] in ("'", '"') else 0


class Reporter:
    """The problems of one rules file, each located where it stands."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def at(self, node: Any, key: Any, message: str, hint: str | None = None, of_key: bool = False, column_in_value: int = 0) -> None:
        line, col = pos(node, key, of_key)
        if column_in_value and col:
            col += _value_col_offset(node, key) + column_in_value - 1
        self.problems.append(Problem(self.file, line, col, message, hint))

    def whole(self, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(self.file, 0, 0, message, hint))


def closest(word: str, options: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {found[0]!r}?" if found else None


# --------------------------------------------------------------------------- reading


def read_file(path: Path, rep: Reporter) -> Any:
    """The data of one rules file, read under the input policy (:mod:`kotc_rulesc.reading`).  A file
    that cannot be read is a problem marked ``unreadable`` (exit status 2), as a collection that cannot be read."""
    try:
        with open_input(path) as inp:
            inp.display = rep.file
            text = yaml_text(inp)
        if not text.strip():
            raise InputError("the file is empty", file=rep.file, hint="an edition file needs at least 'edition: N'")
        root = read_yaml(text, rep.file, positioned=True)
        if root is None:
            raise InputError("the file holds no data (only comments?)", file=rep.file,
                             hint="an edition file needs at least 'edition: N'")
    except InputError as exc:
        rep.problems.append(exc.located(rep.file).problem)
        return None
    return root.value


def schema_problems(data: Any, rep: Reporter, validator: jsonschema.Draft202012Validator) -> bool:
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        return True
    seen = set()
    for err in errors:
        for leaf in _leaves(err):
            path = list(leaf.absolute_path)
            parent, key = _walk(data, path)
            msg, hint, of_key, target_key = _describe(leaf, parent, key)
            where = (tuple(map(str, path)), msg)
            if where in seen:
                continue
            seen.add(where)
            field = ".".join(str(p) for p in path) or "(top level)"
            node = _resolve(data, path)
            if target_key is not None and isinstance(node, dict):
                rep.at(node, target_key, f"{field}: {msg}", hint, of_key=True)
            elif key is None:
                rep.at(data, None, f"{field}: {msg}", hint)
            else:
                rep.at(parent, key, f"{field}: {msg}", hint, of_key=of_key)
    return False


def _leaves(err: jsonschema.ValidationError):
    """For oneOf/allOf errors, the most specific causes."""
    if err.context:
        best = jsonschema.exceptions.best_match(err.context)
        if best is not None and best.validator not in ("oneOf", "anyOf"):
            yield best
            return
    yield err


def _resolve(data: Any, path: list) -> Any:
    node = data
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _walk(data: Any, path: list) -> tuple[Any, Any]:
    parent, key = None, None
    node = data
    for step in path:
        parent, key = node, step
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return parent, key


def _describe(err: jsonschema.ValidationError, parent: Any, key: Any):
    v = err.validator
    if v in ("additionalProperties", "unevaluatedProperties"):
        allowed = set(err.schema.get("properties", {}))
        node = err.instance if isinstance(err.instance, dict) else {}
        extra = [k for k in node if k not in allowed]
        if extra:
            k = extra[0]
            hint = closest(str(k), allowed) or f"allowed: {', '.join(sorted(allowed))}"
            return f"unknown key {k!r}", hint, True, k
    if v == "required":
        return err.message.replace("is a required property", "is required"), None, False, None
    if v == "enum":
        options = ", ".join(map(str, err.validator_value))
        hint = closest(str(err.instance), map(str, err.validator_value)) if isinstance(err.instance, str) else None
        return f"{err.instance!r} is not one of: {options}", hint, False, None
    if v == "pattern" and isinstance(err.instance, str):
        return f"{err.instance!r} is not a valid id", "ids are a kind prefix and a kebab-case slug, e.g. effect-draw", False, None
    if v == "propertyNames":
        return f"{err.instance!r}: variables are x, y and z", None, False, None
    if v == "type":
        return f"{err.instance!r} should be {_a(err.validator_value)}", None, False, None
    return err.message, None, False, None


def _a(t: Any) -> str:
    if isinstance(t, list):
        return " or ".join(_a(x) for x in t)
    return {"integer": "a whole number", "string": "a string", "object": "a mapping", "array": "a list", "boolean": "true or false"}.get(t, str(t))


def where(file: str, node: Any, at: Any = None) -> Where:
    """Where ``node`` (an entry of a rules file) stands — at its key ``at``, if given — and each of
    its keys: their values, their keys (``"limits:"``), and one level into a mapping (``"row.old"``,
    ``"limits.x:"``)."""
    keys = []
    for key, value in node.items() if isinstance(node, dict) else ():
        keys += [(str(key), *pos(node, key)), (f"{key}:", *pos(node, key, True))]
        for sub in value if isinstance(value, dict) else ():
            keys += [(f"{key}.{sub}", *pos(value, sub)), (f"{key}.{sub}:", *pos(value, sub, True))]
    return Where(file, *pos(node, at), tuple(keys))


# --------------------------------------------------------------------------- values


def sources_of(value: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    """``source:`` (one id or a list), or ``default`` where it is left out."""
    if value is None:
        return default
    return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)


def read_formula(rep: Reporter, node: Any, key: str) -> tuple[bool, Formula | None]:
    """``node[key]`` as a formula, None for ``unknown``; False where it does not parse (reported)."""
    raw = str(node[key])
    if raw == "unknown":
        return True, None
    try:
        return True, parse_formula(raw)
    except FormulaError as exc:
        rep.at(node, key, f"{key}: the formula {raw!r} does not parse: {exc.message}",
               "write it as the guide does: 2x, 3x/2, x/(y+1), y²/x, (x+t)/2, 0.5, or 'unknown'", column_in_value=exc.column)
        return False, None


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


class _Line:
    """What a line of editions has declared so far, which a branch starts from: its components, its
    card-building system and its card-cost rule (with the file and node that state it)."""

    def __init__(self, on_line: set[str], system: System | None, cost_rule: tuple[CostRule, Reporter, Any] | None) -> None:
        self.on_line = on_line
        self.system = system
        self.cost_rule = cost_rule

    def copy(self) -> _Line:
        return _Line(set(self.on_line), self.system, self.cost_rule)


class Declarer:
    """Reads the rules files in order into :class:`~kotc_rulesc.model.EditionDecl` s, each against the
    line of the edition it follows (a pre-release branch starts from its parent, and the main line
    does not see the branch)."""

    def __init__(self) -> None:
        self.components: dict[str, ComponentDecl] = {}  # every component declared so far
        self.line = _Line(set(), None, None)
        self.lines: dict[EditionKey, _Line] = {}  # the line after each edition
        self.keys: list[EditionKey] = []  # the editions read, in order
        self.sources: dict[str, Source] = {}
        self.source_refs: list[tuple[Reporter, Any, Any, tuple[str, ...]]] = []

    # -- what entries share ------------------------------------------------

    def cite(self, rep: Reporter, node: Any, key: Any, refs: tuple[str, ...]) -> None:
        """Note the sources ``node[key]`` cites (checked once the base's are all read)."""
        self.source_refs.append((rep, node, key, refs))

    def template(self, rep: Reporter, node: Any, key: str) -> Template | None:
        """A text, its agreeing words those of the line's system."""
        agreement = self.line.system.agreement if self.line.system else None
        try:
            if agreement is None:
                return parse_template(str(node[key]))
            return parse_template(str(node[key]), dict(agreement.nouns), dict(agreement.verbs), agreement.qualifiers, agreement.stops)
        except TemplateError as exc:
            rep.at(node, key, f"{key}: {exc.message}", column_in_value=exc.column)
            return None

    def component_ref(self, rep: Reporter, node: Any) -> str | None:
        cid = str(node["component"])
        if cid not in self.components:
            hint = closest(cid, self.components) or "declare it under 'components:' in this or an earlier edition"
            rep.at(node, "component", f"component: unknown component {cid!r}", hint)
            return None
        if cid not in self.line.on_line:
            first = self.components[cid].where
            rep.at(node, "component", f"component: {cid} is declared in {first.file}, which is not an edition this one follows")
            return None
        return cid

    def when(self, rep: Reporter, node: Any, edition: int) -> When:
        raw = node.get("edition")
        after = node.get("after")
        if after is not None and after >= edition:
            rep.at(node, "after", f"after: {after} is not before this file's edition {edition}")
        if raw is None or raw == edition:
            if after is not None:
                rep.at(node, "after", "after: only meaningful with 'edition: unknown'")
            return When(edition, edition)
        if raw == "unknown":
            return When(None, edition, after)
        rep.at(node, "edition", f"edition: {raw} differs from this file's edition {edition}",
               f"record the event in edition-{raw:02d}.yaml, or write 'unknown' if no source dates it")
        return When(edition, edition)

    def event_sources(self, rep: Reporter, node: Any, default: tuple[str, ...]) -> tuple[str, ...]:
        src = sources_of(node.get("source"), default)
        if not src:
            rep.at(node, None, "the event cites no source", "add 'source: <id>' here or at the top of the file")
        elif "source" in node:
            self.cite(rep, node, "source", src)
        return src

    # -- one file ----------------------------------------------------------

    def chain(self, rep: Reporter, data: Any, previous: int | None, is_first: bool) -> EditionKey | None:
        """Check the file's place in the tree of editions; return the edition it follows."""
        n = data["edition"]
        base = bool(data.get("base"))
        pre = bool(data.get("pre_release"))
        if is_first and not base:
            rep.at(data, "edition", "the first rules file must be the base edition", "add 'base: true'")
        if base and not is_first:
            rep.at(data, "base", "only the first rules file may be the base edition")
        if base and pre:
            rep.at(data, "pre_release", "the base edition cannot be a pre-release")
        if previous is not None and n <= previous and not pre:
            rep.at(data, "edition", f"editions out of order: edition {n} comes after edition {previous}",
                   "file names sort in edition order: edition-NN.yaml")
        follows = data.get("follows")
        if base:
            if follows is not None:
                rep.at(data, "follows", "the base edition follows nothing")
            return None
        if follows is None:
            rep.at(data, "edition", "'follows' is missing", f"name the previous edition: follows: {previous}")
            return None
        if follows not in self.lines:
            known = ", ".join(str(k) for k in self.keys)
            rep.at(data, "follows", f"follows: {follows} is not an edition declared before this file", f"declared so far: {known}")
            return None
        if pre:
            if isinstance(follows, int) and follows >= n:
                rep.at(data, "follows", f"follows: {follows}, but a pre-release of the {ordinal(n)} follows an earlier edition")
            if pre_release_key(n) in self.lines:
                rep.at(data, "edition", f"a second pre-release of the {ordinal(n)}")
        elif previous is not None and follows != previous:
            rep.at(data, "follows", f"follows: {follows}, but the previous main-line rules file is edition {previous}",
                   f"follows: {previous}")
        return follows

    def edition(self, rep: Reporter, data: Any, previous: int | None, is_first: bool) -> EditionDecl:
        n = data["edition"]
        base = bool(data.get("base"))
        follows = self.chain(rep, data, previous, is_first)
        # (a file that follows no edition it may starts a line of its own, with the system read so far)
        self.line = self.lines[follows].copy() if follows is not None else _Line(set(), self.line.system, self.line.cost_rule)
        if base:
            for sid, sdata in (data.get("sources") or {}).items():
                self.sources[str(sid)] = Source(str(sid), str(sdata["file"]), str(sdata["title"]))
        elif "sources" in data:
            rep.at(data, "sources", "sources are declared in the base edition only", of_key=True)
        default_src = sources_of(data.get("source"), ())
        if "source" in data:
            self.cite(rep, data, "source", default_src)
        key = pre_release_key(n) if data.get("pre_release") else n
        system = read_system(rep, data, key, self.line.system, self.cite) if "system" in data else None
        if system is not None:
            self.line.system = system
        elif base:
            rep.at(data, "edition", "the base edition declares no card-building system",
                   "add 'system:' (card types, kinds, ability order, figure)")
        components = [c for node in data.get("components") or [] if (c := self.component(rep, node, n, default_src))]
        file = _Entry(self, rep, data, n, default_src)
        events: list[Event] = []
        for kind in KINDS:  # each kind reads and checks its own entries (kotc_rulesc.history)
            for entry in file.entries(kind.key):
                entry.check_facts()
                if (event := kind.read(entry)) is not None:
                    events.append(event)
        disagreements = []
        for node in data.get("disagreements") or []:
            src = self.event_sources(rep, node, default_src)
            cid = self.component_ref(rep, node) if node.get("component") else None
            disagreements.append(Disagreement(key, str(node["note"]), src, cid))
        clean_slate, successors = CLEAN_SLATE.read(file)
        rulebook = read_rulebook(rep, data, key, self.cite) if "rulebook" in data else None
        card_cost = read_card_cost(rep, data, key, self.line.system, self.cite) if "card_cost" in data else None
        if card_cost is not None:
            self.line.cost_rule = (card_cost, rep, data["card_cost"])
        elif system is not None and self.line.cost_rule is not None:
            rule, rule_rep, _ = self.line.cost_rule
            check_cost_rule(rep, data, "system", rule, system,
                            f" (the card-cost rule of {rule_rep.file} no longer fits the system this file states; restate card_cost)")
        self.lines[key] = self.line
        self.keys.append(key)
        return EditionDecl(
            number=n,
            file=rep.file,
            base=base,
            follows=follows,
            sources=default_src,
            components=tuple(components),
            events=tuple(events),
            disagreements=tuple(disagreements),
            clean_slate=clean_slate,
            catalog_known=data.get("catalog") != "unknown",
            catalog_whole=data.get("catalog") == "whole",
            successors=successors,
            rulebook=rulebook,
            card_cost=card_cost,
            notes=tuple(str(x) for x in data.get("notes") or ()),
            name=data.get("name"),
            pre_release=bool(data.get("pre_release")),
            system=system,
            guide_order=self.guide_order(rep, data["guide_order"]) if "guide_order" in data else (),
        )

    def guide_order(self, rep: Reporter, node: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """``guide_order:``: per kind of this edition's system, component ids of that kind on this line."""
        out = []
        system = self.line.system
        for kind, ids in node.items():
            if system is not None and kind not in system.kind_ids:
                rep.at(node, kind, f"guide_order: {kind!r} is not a kind of the card-building system here",
                       f"the system's kinds: {', '.join(system.kind_ids)}", of_key=True)
            for i, cid in enumerate(ids):
                comp = self.components.get(cid)
                if comp is None or cid not in self.line.on_line:
                    rep.at(ids, i, f"guide_order.{kind}: no component {cid!r} on this edition's line",
                           closest(cid, self.line.on_line))
                elif comp.kind != kind:
                    rep.at(ids, i, f"guide_order.{kind}: {cid} is a component of kind {comp.kind!r}")
            out.append((str(kind), tuple(str(x) for x in ids)))
        return tuple(out)

    def component(self, rep: Reporter, node: Any, n: int, default_src: tuple[str, ...]) -> ComponentDecl | None:
        cid = str(node["id"])
        kind = str(node["kind"])
        src = sources_of(node.get("source"), default_src)
        self.cite(rep, node, "source", src)
        system = self.line.system
        if cid in self.components:
            first = self.components[cid].where
            rep.at(node, "id", f"id: duplicate component id {cid!r} (first declared at {first.file}:{first.line})")
            return None
        if system is not None and kind not in system.kind_ids:
            rep.at(node, "kind", f"kind: {kind!r} is not a kind of the card-building system here",
                   f"the system's kinds: {', '.join(system.kind_ids)}")
        if not cid.startswith(kind + "-"):
            rep.at(node, "id", f"id: {cid!r} does not start with its kind {kind!r}", f"{kind}-{cid.split('-', 1)[-1]}")
        text = self.template(rep, node, "text")
        role = system.kind(kind).role if system is not None and kind in system.kind_ids else None
        ok, formula = True, None
        if role == "none":
            if "formula" in node:
                rep.at(node, "formula", f"formula: a {system.noun(kind)} has no formula in this system (its kind's role is none)",
                       "leave 'formula' out")
        elif "formula" not in node:
            rep.at(node, "id", "formula: missing; write the guide's formula, or 'unknown' if no source gives it", of_key=True)
        else:
            ok, formula = read_formula(rep, node, "formula")
        if text is None or not ok:
            return None
        self.line.on_line.add(cid)
        entry = _Entry(self, rep, node, n, src)
        limits = entry.limits()
        for var in limits:
            if var not in text.variables:
                rep.at(node["limits"], var, f"limits: a limit on [{var}], which the text {str(text)!r} does not have", of_key=True)
        comp = ComponentDecl(cid, kind, text, formula, {k: v for k, v in limits.items() if k in text.variables}, src, n,
                             where(rep.file, node, "text"), tuple(str(x) for x in node.get("notes") or ()),
                             int(node.get("ultra", 0)))
        self.components[cid] = comp
        return comp

    def check_sources(self) -> None:
        for rep, node, key, refs in self.source_refs:
            for ref in refs:
                if ref not in self.sources:
                    hint = closest(ref, self.sources) or (f"declared: {', '.join(sorted(self.sources))}" if self.sources
                                                          else "declare sources in the base edition")
                    rep.at(node, key, f"source: unknown source {ref!r}", hint)


class _Entry:
    """An :class:`~kotc_rulesc.history.event.Entry`: a mapping of a rules file (an event, a successor,
    the file itself), read for the kind that reads it against the line being declared."""

    def __init__(self, declarer: Declarer, rep: Reporter, node: Any, edition: int, default_sources: tuple[str, ...]) -> None:
        self._declarer, self._rep, self._node = declarer, rep, node
        self.edition = edition
        self._default_sources = default_sources

    def check_facts(self) -> None:
        """Read (and check) an event's sources and edition, whether its kind reads it or not."""
        self.sources, self.when

    @cached_property
    def when(self) -> When:
        return self._declarer.when(self._rep, self._node, self.edition)

    @cached_property
    def sources(self) -> tuple[str, ...]:
        return self._declarer.event_sources(self._rep, self._node, self._default_sources)

    @cached_property
    def where(self) -> Where:
        return where(self._rep.file, self._node)

    def has(self, key: str) -> bool:
        return self._node.get(key) is not None

    def component(self) -> str | None:
        return self._declarer.component_ref(self._rep, self._node)

    def declared(self, cid: str) -> ComponentDecl | None:
        return self._declarer.components.get(cid)

    def on_line(self, cid: str) -> bool:
        return cid in self._declarer.line.on_line

    def nearest(self, cid: str) -> str | None:
        return closest(cid, self._declarer.components)

    def text(self, key: str) -> Template | None:
        return self._declarer.template(self._rep, self._node, key)

    def formula(self, key: str) -> tuple[bool, Formula | None]:
        return read_formula(self._rep, self._node, key)

    def check_formula(self, key: str, formula: Formula, kind: str, known: set[str]) -> None:
        for message, hint in formula_problems(formula, kind, known, self._declarer.line.system):
            self._rep.at(self._node, key, f"{key}: {message}", hint)

    def string(self, key: str) -> str | None:
        value = self._node.get(key)
        return str(value) if value else None

    def flag(self, key: str, default: bool) -> bool:
        return bool(self._node.get(key, default))

    def binds(self, key: str = "binds") -> dict[str, int]:
        return {str(k): int(v) for k, v in (self._node.get(key) or {}).items()}

    def limits(self, key: str = "limits") -> dict[str, int | None]:
        return {str(var): None if value == "unknown" else int(value) for var, value in (self._node.get(key) or {}).items()}

    def entry(self, key: str) -> _Entry:
        return _Entry(self._declarer, self._rep, self._node[key], self.edition, self._default_sources)

    def entries(self, key: str) -> list[_Entry]:
        return [_Entry(self._declarer, self._rep, node, self.edition, self._default_sources) for node in self._node.get(key) or []]

    def problem(self, key: str | None, message: str, hint: str | None = None, of_key: bool = False) -> None:
        self._rep.at(self._node, key, message, hint, of_key=of_key)


def default_rules_dir() -> Path:
    """The bundled rules: the checkout's ``rules/``, or an installed wheel's copy (:mod:`.bundled`)."""
    from .bundled import rules_dir

    return rules_dir()


def load_rules(directory: str | Path | None = None) -> RuleSet:
    """Load and check every rules file; raises :class:`ProblemsFound` listing all problems."""
    rules, problems = check_rules(directory)
    if problems:
        raise ProblemsFound(problems)
    assert rules is not None
    return rules


def check_rules(directory: str | Path | None = None) -> tuple[RuleSet | None, list[Problem]]:
    """Load what can be loaded and return it with every problem found."""
    root = Path(directory) if directory is not None else default_rules_dir()
    if not root.is_dir():
        return None, [Problem(str(root), 0, 0, "no such rules directory", "pass --rules DIR", unreadable=True)]
    try:
        paths, odd = listing(root)
    except OSError as exc:
        return None, [Problem(str(root), 0, 0, f"the rules directory cannot be listed: {exc.strerror or exc}", unreadable=True)]
    if odd:  # never opened (a FIFO would wait for a writer): named, and nothing else read
        return None, [Problem(_display(path), 0, 0, f"is {kind}, not a rules file",
                              "a rules file is a regular file; remove this one or put the edition's file in its place",
                              unreadable=True) for path, kind in odd]
    if not paths:
        return None, [Problem(str(root), 0, 0, "no rules files (edition-NN.yaml) in this directory", "pass --rules DIR", unreadable=True)]
    validator = jsonschema.Draft202012Validator(edition_schema())
    reporters: dict[str, Reporter] = {}
    schema_ok = True
    loaded = []
    for path in paths:
        display = _display(path)
        rep = reporters[display] = Reporter(display)
        m = FILE_NAME.match(path.name)
        if not m:
            rep.whole(f"rules file names look like edition-NN.yaml, not {path.name!r}")
        data = read_file(path, rep)
        if data is None:
            schema_ok = False
            continue
        if not isinstance(data, dict):
            rep.at(data, None, "an edition file is a mapping (edition: N, …), not a " + type(data).__name__)
            schema_ok = False
            continue
        if not schema_problems(data, rep, validator):
            schema_ok = False
            continue
        loaded.append((path, m, data, rep))
    if not schema_ok:
        return None, sorted(set(p for r in reporters.values() for p in r.problems))
    declarer = Declarer()
    editions: list[EditionDecl] = []
    previous: int | None = None
    for index, (path, m, data, rep) in enumerate(loaded):
        pre = bool(data.get("pre_release"))
        if m and (int(m.group(1)) != data["edition"] or bool(m.group(2)) != pre):
            want = f"edition-{data['edition']:02d}{'-pre' if pre else ''}.yaml"
            rep.at(data, "edition", f"edition: {data['edition']}{' (pre-release)' if pre else ''} but the file is named {path.name}",
                   f"rename it {want}")
        editions.append(declarer.edition(rep, data, previous, index == 0))
        if not pre:
            previous = data["edition"]
    declarer.check_sources()
    problems = [p for r in reporters.values() for p in r.problems]
    if not editions:
        return None, sorted(set(problems))
    rules = RuleSet(tuple(editions), declarer.sources, str(root))
    rules.history = Replay(rules)
    problems += rules.history.problems
    if problems:
        return None, sorted(set(problems))
    problems = collisions(rules)
    return (None if problems else rules), sorted(set(problems))


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, RuntimeError, OSError):  # (not below it; a loop of links)
        return str(path)
