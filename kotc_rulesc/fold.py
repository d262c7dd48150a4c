"""Replay the declared history into the catalog of every edition and the pass into it.

The rules files record *changes*; a player needs *the state* of edition N.  :class:`Replay` replays
every file once, each edition from the state of the one it follows, each event by its kind
(:mod:`kotc_rulesc.history`).  An event no source dates makes what it touches unknown in the
editions where it may or may not have happened yet — never a silent guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .catalog import Catalog, ComponentState
from .errors import Problem
from .history import CLEAN_SLATE, KINDS
from .history.event import Track, formula_problems
from .history.text_revision import TextRevision
from .model import CostRule, Disagreement, EditionDecl, EditionKey, RuleSet, When, Where, edition_number, ordinal
from .passes import Pass
from .system import System

__all__ = ["Catalog", "ComponentState", "Replay", "collisions", "derive_passes", "fold", "history_of"]


@dataclass
class _Line:
    """A line of editions' state after an edition: what its events meet (``track``), the fold's
    components and what else a catalog carries."""

    track: Track = field(default_factory=Track)
    state: dict[str, ComponentState] = field(default_factory=dict)  # (values: a copy of the dict copies the state)
    clean_slates: tuple[int, ...] = ()
    catalog_known: bool = True
    cost_rule: CostRule | None = None
    disagreements: tuple[Disagreement, ...] = ()

    def copy(self) -> _Line:
        return replace(self, track=self.track.copy(), state=dict(self.state))


class Replay:
    """The history of ``rules`` replayed once, in file order: the state after every edition, the
    pass into it, and the problems only the replay finds (:attr:`problems`).  :meth:`catalog` then
    gives any edition's catalog."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.after: dict[EditionKey, _Line] = {}  # each edition's state, which its children start from
        self.passes: list[Pass] = []
        self.problems: list[Problem] = []
        self._catalogs: dict[EditionKey, Catalog] = {}
        self._system: System | None = None  # the system of the file replayed last
        variables: dict[str, set[str]] = {}  # every variable a component's wordings know, on any line
        declared = []  # (component, the system it was declared in)
        for decl in rules.editions:
            line = self._edition(decl)
            declared += [(c, line.track.system) for c in decl.components]
            for cid, names in line.track.variables.items():
                variables.setdefault(cid, set()).update(names)
        # a component's formula may use a variable that only a later revision's wording (or binds) has
        for c, system in declared:
            if c.formula is not None:
                self.problems += [Problem(c.where.file, *c.where.at("formula"), f"formula: {message}", hint)
                                  for message, hint in formula_problems(c.formula, c.kind, variables.get(c.id, set()), system)]

    def _edition(self, decl: EditionDecl) -> _Line:
        """Replay one file, from the state of the edition it follows."""
        if decl.follows in self.after:
            line = self.after[decl.follows].copy()
        else:  # the base, or a file whose place the loader refused: a line of its own, with the system so far
            line = _Line()
            line.track.system = self._system
        if decl.catalog_whole:  # its components are the whole catalog: nothing older carries over
            line.state = {}
        line.track.system = self._system = decl.system or line.track.system
        for comp in decl.components:
            line.track.declare(comp)
            line.state[comp.id] = ComponentState(comp.id, comp.kind, comp.text, comp.formula, dict(comp.limits),
                                                 "legal", None, (), (), (), tuple(dict.fromkeys(comp.sources)), None,
                                                 {}, ultra=comp.ultra)
        steps: dict[str, list] = {kind.pass_field: [] for kind in KINDS}
        for event in decl.events:
            problems, applied = event.check(line.track)
            self.problems += problems
            if applied is None:
                continue
            steps[applied.pass_field].append(applied.step(line.track))
            if applied.component in line.state:
                applied.fold(line.state, "yes")
        line.clean_slates = CLEAN_SLATE.fold(decl, line.clean_slates)
        line.catalog_known = decl.catalog_known
        line.cost_rule = decl.card_cost or line.cost_rule
        line.disagreements += decl.disagreements
        for dis in decl.disagreements:
            if dis.component in line.state:
                c = line.state[dis.component]
                line.state[dis.component] = c.replace(disagreements=c.disagreements + (dis,))
        if not decl.base:
            self.passes.append(Pass(decl.follows, decl.key, catalog_known=decl.catalog_known, **CLEAN_SLATE.step(decl),
                                    **{name: tuple(items) for name, items in steps.items()}))
        self.after[decl.key] = line  # (kept as it is: an edition that follows it begins from a copy)
        return line

    def catalog(self, key: EditionKey) -> Catalog:
        """The catalog of edition ``key``: its line's state, and what an event of unknown edition
        recorded elsewhere makes unknown in it."""
        if key in self._catalogs:
            return self._catalogs[key]
        rules = self.rules
        resolved = rules.resolve(key)
        if resolved is None or resolved not in self.after:
            raise ValueError(f"edition {key} is not in the rules")
        n = edition_number(key)
        line = {d.key for d in rules.lineage(key)}
        done = self.after[resolved]
        state = done.state
        overlays = [(decl, ev) for decl in rules.editions if decl.key not in line for ev in decl.events
                    if ev.applies_when_unknown and ev.component in state]
        overlays = [ev for decl, ev in overlays if _may_have_happened(rules, key, n, line, decl, ev.when)]
        if overlays:
            # Events with an unknown edition are recorded in a later file ("by" that edition):
            # where they may or may not have happened yet, what they touch is unknown.
            state = dict(state)
            for ev in overlays:
                ev.fold(state, "unknown")
        cost_rule = done.cost_rule
        if cost_rule is None:
            # No source states a rule up to n: use the earliest later statement, and say so
            # (Catalog.cost_rule_stated is False).
            cost_rule = next((d.card_cost for d in rules.editions if d.card_cost is not None), None)
        components = None
        if done.catalog_known:
            order = {k: i for i, k in enumerate(done.track.system.kind_ids if done.track.system else ())}
            # stable: file order within kind
            components = tuple(sorted(state.values(), key=lambda c: order.get(c.kind, len(order))))
        own = rules.edition(key)
        catalog = self._catalogs[key] = Catalog(
            edition=key,
            components=components,
            rulebook=own.rulebook if own else None,
            cost_rule=cost_rule,
            clean_slates=done.clean_slates,
            successors=own.successors if own else (),
            declared=own,
            disagreements=done.disagreements,
            system=done.track.system,
        )
        return catalog


def _may_have_happened(rules: RuleSet, key: EditionKey, n: int, line: set[EditionKey], decl: EditionDecl, when: When) -> bool:
    """May an event of another line's (or a later) file, ``decl``, have happened by ``key``?
    Only an event no source dates: a dated one happened where its file is."""
    if when.edition is not None:
        return False
    if not decl.pre_release and isinstance(key, int):  # a later edition of the main line
        return when.happened_by(n) != "no"
    # the fork: the newest edition both decl's lineage and line contain
    fork = next((other.number for other in reversed(rules.lineage(decl.key)) if other.key in line), rules.first)
    return not (when.after is not None and when.after >= fork)


def history_of(rules: RuleSet) -> Replay:
    """The replayed history of ``rules``: the loader's, or replayed once here and kept with them."""
    if rules.history is None:
        rules.history = Replay(rules)
    return rules.history


def fold(rules: RuleSet, key: EditionKey) -> Catalog:
    """The catalog of edition ``key``: every event of its lineage (base … key) applied, and an undated
    event of another line's file made unknown where it may have happened."""
    return history_of(rules).catalog(key)


def derive_passes(rules: RuleSet) -> list[Pass]:
    """One pass per step, in file order: every edition but the base, from the edition it follows (an
    undated event in the step into the edition of its file, the latest it can have happened)."""
    return list(history_of(rules).passes)


def collisions(rules: RuleSet) -> list[Problem]:
    """No two texts of one edition may read alike: a printed sentence must find one component.
    (Checked on clean rules: it folds every edition.)"""
    problems, reported = [], set()
    components = rules.components()
    for decl in rules.editions:
        cat = fold(rules, decl.key)
        if cat.components is None:
            continue
        owner: dict[str, str] = {}
        for comp in cat.components:
            for text in [comp.text] + [w.text for w in comp.wordings]:
                keys = text.skeletons()
                other = next((owner[k] for k in keys if owner.get(k, comp.id) != comp.id), None)
                if other and (other, comp.id) not in reported:
                    reported.add((other, comp.id))
                    where = components[comp.id].where
                    # (made by a text revision of this edition: said where that revision stands)
                    rev = next((e for e in decl.events if isinstance(e, TextRevision) and e.component in (comp.id, other)), None)
                    if rev is not None:
                        where = Where(rev.where.file, *rev.where.at("text"))
                    problems.append(Problem(where.file, where.line, where.column,
                                            f"duplicate text in the {ordinal(decl.number)} edition: {comp.id} reads like "
                                            f"{other}: {str(text)!r}", "two components of one edition must differ in wording"))
                for k in keys:
                    owner.setdefault(k, comp.id)
    return problems
