"""The rules as the CLI runs on them: catalogs and passes served from the compiled tables.

:class:`TablesView` implements :class:`~kotc_rulesc.view.RulesView` over the package
that ``kotc-rulesc build`` writes (``generated/kotc_tables``), so commands that judge or
migrate cards parse no YAML and import neither ruamel.yaml nor jsonschema.  Each
edition's module is imported the first time its catalog is asked for.

The catalogs are the same :class:`~kotc_rulesc.fold.Catalog` objects the in-memory fold
gives: texts are :class:`~kotc_rulesc.text.Template` (rebuilt from the emitted
segments), formulas are :class:`CompiledFormula` (``evaluate`` runs the generated
function; ``notation``, ``variables`` and ``python`` come from the formula's tree).
``Catalog.declared`` holds the facts of the edition's own rules file (file, base,
follows, sources, rulebook, card-cost rule, clean slate, catalog known, successors,
notes, name) but not its event lists: the passes carry those.

This module imports only the standard library and kotc_rulesc's own stdlib-only
modules (text, formula, model, fold, passes) — never the loader.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

from .fold import Catalog, ComponentState, CostChange, LimitChange, Wording
from .formula import Formula, Node, parse_formula
from .model import (
    CardTypeDecl,
    CostRule,
    Disagreement,
    EditionDecl,
    EditionKey,
    KindDecl,
    Range,
    Rulebook,
    Source,
    StatDecl,
    Successor,
    System,
    When,
    edition_number,
)
from .passes import Ban, Pass, Reinstated, Rewrite
from .passes import path as passes_path
from .passes import CostChange as StepCostChange
from .passes import LimitChange as StepLimitChange
from .text import Agree, Lit, Segment, Slot, Template

__all__ = ["TABLES_PACKAGE", "CompiledFormula", "TablesMissing", "TablesView", "load_package"]

#: the package ``kotc-rulesc build`` writes under generated/
TABLES_PACKAGE = "kotc_tables"


class TablesMissing(ImportError):
    """The compiled tables cannot be imported (not built, or not installed)."""


class CompiledFormula:
    """A formula from the tables: evaluated by its generated function, exactly.

    Behaves like :class:`~kotc_rulesc.formula.Formula` (``evaluate``, ``notation``,
    ``variables``, ``python``, ``tree``, equality by tree).  ``function`` is None for a
    formula the tables keep only in notation (an earlier formula in a cost history); it
    is then evaluated from its tree."""

    __slots__ = ("_notation", "_function", "_formula")

    def __init__(self, notation: str, function: Callable[[Mapping[str, Any]], Fraction] | None = None):
        self._notation = notation
        self._function = function
        self._formula: Formula | None = None

    @property
    def formula(self) -> Formula:
        """The parsed formula (parsed on first use)."""
        if self._formula is None:
            self._formula = parse_formula(self._notation)
        return self._formula

    @property
    def tree(self) -> Node:
        return self.formula.tree

    @property
    def variables(self) -> frozenset[str]:
        return self.formula.variables

    @property
    def compiled(self) -> bool:
        return self._function is not None

    def evaluate(self, env: Mapping[str, Any]) -> Fraction:
        if self._function is None:
            return self.formula.evaluate(env)
        return self._function(env)

    def notation(self) -> str:
        return self._notation

    def python(self, names: Mapping[str, str] | None = None) -> str:
        return self.formula.python(names)

    def __str__(self) -> str:
        return self._notation

    def __repr__(self) -> str:
        return f"CompiledFormula({self._notation!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (CompiledFormula, Formula)):
            return self.tree == other.tree
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.tree)


def load_package(directory: str | Path, name: str | None = None) -> ModuleType:
    """Import a generated tables package from ``directory`` (e.g. a build's ``--out``/kotc_tables)
    under ``name`` (default: a private name derived from the path), without touching
    ``sys.path``.  Its modules import one another relatively, so any name works."""
    directory = Path(directory).resolve()
    init = directory / "__init__.py"
    if not init.is_file():
        raise TablesMissing(f"no generated tables in {directory} (run `kotc-rulesc build`)")
    if name is None:
        import hashlib

        name = "_kotc_tables_" + hashlib.sha256(str(directory).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(directory)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _when(w: Any) -> When | None:
    return None if w is None else When(w.edition, w.by, w.after)


def _range(r: Any) -> Range | None:
    if r is None:
        return None
    return Range(r.min, r.max, tuple(r.recommended) if r.recommended is not None else None)


class TablesView:
    """A :class:`~kotc_rulesc.view.RulesView` over the compiled tables package."""

    def __init__(self, package: ModuleType | str = TABLES_PACKAGE):
        if isinstance(package, str):
            try:
                package = importlib.import_module(package)
            except ImportError as exc:
                raise TablesMissing(
                    f"the compiled tables ({package}) cannot be imported: {exc}; "
                    "run `kotc-rulesc build` (and install the project) or pass --rules DIR"
                ) from exc
        self.package = package
        self.first: int = package.FIRST
        self.last: int = package.LAST
        self.keys: tuple = tuple(package.EDITIONS)
        self.newest: int = max(edition_number(k) for k in self.keys)
        self.generator: str = package.GENERATOR
        self.inputs: tuple[tuple[str, str], ...] = package.INPUTS
        self._catalogs: dict[int, Catalog] = {}
        self._passes: list[Pass] | None = None
        self._templates: dict[tuple, Template] = {}

    @classmethod
    def from_directory(cls, directory: str | Path) -> "TablesView":
        """The tables of a build output directory (``--out DIR``) or of its package directory."""
        directory = Path(directory)
        if (directory / TABLES_PACKAGE / "__init__.py").is_file():
            directory = directory / TABLES_PACKAGE
        return cls(load_package(directory))

    # -- RulesView --------------------------------------------------------

    def catalog(self, n: EditionKey) -> Catalog:
        cat = self._catalogs.get(n)
        if cat is None:
            if n not in self.keys:
                raise ValueError(f"edition {n} is not in the tables ({', '.join(map(str, self.keys))})")
            cat = self._catalogs[n] = self._build_catalog(self.package.edition(n))
        return cat

    def path(self, source: EditionKey, target: EditionKey) -> list[Pass] | None:
        return passes_path(self.passes(), self.resolve(source), self.resolve(target))

    def resolve(self, key: EditionKey) -> EditionKey:
        """The edition of the file that holds ``key``'s state (see RuleSet.resolve)."""
        files = self.package.RULES_FILES
        if key in files or not isinstance(key, int):
            return key
        return max(k for k in files if isinstance(k, int) and k <= key)

    def passes(self) -> list[Pass]:
        if self._passes is None:
            self._passes = [self._build_pass(step) for step in self.package.steps()]
        return self._passes

    def newest_with_catalog(self) -> int:
        return self.package.NEWEST_WITH_CATALOG

    # -- extras -------------------------------------------------------------

    @property
    def sources(self) -> dict[str, Source]:
        return {sid: Source(sid, file, title) for sid, (file, title) in self.package.SOURCES.items()}

    def edition_module(self, n: int) -> ModuleType:
        """The generated module of edition ``n``."""
        return self.package.edition(n)

    # -- conversion -----------------------------------------------------------

    def _template(self, text: Any) -> Template:
        key = text.segments
        t = self._templates.get(key)
        if t is None:
            segments: list[Segment] = []
            for seg in text.segments:
                if isinstance(seg, str):
                    segments.append(Lit(seg))
                elif len(seg) == 1:
                    segments.append(Slot(seg.var))
                else:
                    segments.append(Agree(seg.var, seg.plural, seg.singular))
            t = self._templates[key] = Template(tuple(segments))
        return t

    @staticmethod
    def _formula(notation: str | None, function: Callable | None = None) -> CompiledFormula | None:
        return None if notation is None else CompiledFormula(notation, function)

    def _component(self, c: Any) -> ComponentState:
        return ComponentState(
            id=c.id,
            kind=c.kind,
            text=self._template(c.text),
            formula=self._formula(c.formula, c.cost),
            limits=dict(c.limits),
            status=c.status,
            redacted=_when(c.redacted),
            wordings=tuple(
                Wording(
                    self._template(w.text),
                    dict(w.binds),
                    _when(w.replaced_in),
                    self._template(w.replaced_by),
                    dict(w.step_binds),
                    tuple(w.sources),
                )
                for w in c.wordings
            ),
            cost_changes=tuple(
                CostChange(_when(ch.when), self._formula(ch.was), self._formula(ch.now), tuple(ch.sources))
                for ch in c.cost_changes
            ),
            limit_changes=tuple(
                LimitChange(_when(ch.when), dict(ch.was), dict(ch.now), tuple(ch.sources))
                for ch in c.limit_changes
            ),
            sources=tuple(c.sources),
            replacement=c.replacement,
            replacement_binds=dict(c.replacement_binds),
            reinstated=tuple((_when(r.redacted), _when(r.reinstated), tuple(r.sources), r.note) for r in c.reinstated),
            disagreements=tuple(self._disagreement(d) for d in c.disagreements),
        )

    def _system(self, s: Any) -> System | None:
        if s is None:
            return None
        return System(
            s.edition,
            tuple(s.sources),
            s.figure,
            s.figure_title,
            tuple(CardTypeDecl(t.id, tuple(StatDecl(*st) for st in t.stats), t.abilities_min, t.abilities_max, t.empty_text,
                               t.names)
                  for t in s.types),
            tuple(KindDecl(k.id, k.title, k.noun, k.role, k.place, tuple(k.types), k.max, k.min, k.variable,
                           self._formula(k.default), k.end, tuple(k.joins)) for k in s.kinds),
            tuple(s.ability),
            tuple(s.sub_ability),
        )

    @staticmethod
    def _disagreement(d: Any) -> Disagreement:
        return Disagreement(d.edition, d.note, tuple(d.sources), d.component)

    def _cost_rule(self, rule: Any) -> CostRule | None:
        if rule is None:
            return None
        formulas = tuple((name, CompiledFormula(part.notation, part.function)) for name, part in rule.formulas)
        return CostRule(rule.edition, tuple(rule.sources), formulas)

    @staticmethod
    def _rulebook(rb: Any) -> Rulebook | None:
        if rb is None:
            return None
        fields = {}
        for name, value in zip(rb._fields, rb):
            if name in ("players", "deck", "reserves"):
                value = _range(value)
            elif isinstance(value, (list, tuple)):
                value = tuple(value)
            elif isinstance(value, dict):
                value = dict(value)
            fields[name] = value
        return Rulebook(**fields)

    def _build_catalog(self, mod: ModuleType) -> Catalog:
        rulebook = self._rulebook(mod.RULEBOOK)
        cost_rule = self._cost_rule(mod.COST_RULE)
        successors = tuple(
            Successor(s.component, s.successor, dict(s.binds), tuple(s.sources)) for s in mod.SUCCESSORS
        )
        declared = None
        if mod.DECLARED is not None:
            d = mod.DECLARED
            declared = EditionDecl(
                number=edition_number(mod.EDITION),
                file=d.file,
                base=d.base,
                follows=d.follows,
                pre_release=d.pre_release,
                sources=tuple(d.sources),
                clean_slate=d.clean_slate,
                catalog_known=d.catalog_known,
                catalog_whole=d.catalog_whole,
                successors=successors,
                rulebook=rulebook,
                card_cost=cost_rule if mod.COST_RULE_STATED else None,
                notes=tuple(d.notes),
                name=d.name,
            )
        components = None
        if mod.COMPONENTS is not None:
            components = tuple(self._component(c) for c in mod.COMPONENTS)
        return Catalog(
            edition=mod.EDITION,
            components=components,
            rulebook=rulebook,
            cost_rule=cost_rule,
            clean_slates=tuple(mod.CLEAN_SLATES),
            successors=successors,
            declared=declared,
            disagreements=tuple(self._disagreement(d) for d in mod.DISAGREEMENTS),
            system=self._system(mod.SYSTEM),
        )

    def _build_pass(self, step: Any) -> Pass:
        t = self._template
        f = self._formula
        return Pass(
            source=step.source,
            target=step.target,
            rewrites=tuple(
                Rewrite(r.component, r.kind, t(r.old), t(r.new), dict(r.binds), r.edition, r.by, tuple(r.sources))
                for r in step.rewrites
            ),
            bans=tuple(
                Ban(
                    b.component,
                    t(b.text),
                    b.edition,
                    b.by,
                    tuple(b.sources),
                    b.replacement,
                    dict(b.replacement_binds),
                )
                for b in step.bans
            ),
            cost_changes=tuple(
                StepCostChange(c.component, t(c.text), f(c.was), f(c.now), c.edition, c.by, tuple(c.sources))
                for c in step.cost_changes
            ),
            limit_changes=tuple(
                StepLimitChange(c.component, t(c.text), dict(c.was), dict(c.now), c.edition, c.by, tuple(c.sources))
                for c in step.limit_changes
            ),
            clean_slate=step.clean_slate,
            catalog_known=step.catalog_known,
            successors=tuple(tuple(s) for s in step.successors),
            reinstated=tuple(Reinstated(r.component, t(r.text), tuple(r.sources), r.note) for r in step.reinstated),
        )
