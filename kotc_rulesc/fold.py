"""Fold the declared history into the catalog of one edition.

The rules files record *changes*; a player or engine needs *the state*: every
component as it reads, costs and stands in edition N, with its history up to N.
Folding replays the events of every edition up to N in order.  Editions no
document shows whole (7th to 10th) come out of the same replay.

Events whose edition no source gives (``edition: unknown``) make the affected
fact unknown in the editions where it may or may not have happened yet — never
a silent guess.
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalog, ComponentState, Status
from .model import (
    ComponentDecl,
    CostRule,
    Disagreement,
    EditionDecl,
    EditionKey,
    RuleSet,
    When,
    edition_number,
)
from .changes import CostChange, LimitChange, Wording
from .history import CLEAN_SLATE, KINDS, Track
from .passes import Pass
from .system import System
from .record import field, record

__all__ = ["Catalog", "ComponentState", "Replay", "derive_passes", "fold", "history_of", "replay"]

class _Mutable:
    def __init__(self, decl: ComponentDecl):
        self.decl = decl
        self.text = decl.text
        self.formula = decl.formula
        self.limits = dict(decl.limits)
        self.status: Status = "legal"
        self.redacted: When | None = None
        self.wordings: list[Wording] = []
        self.cost_changes: list[CostChange] = []
        self.limit_changes: list[LimitChange] = []
        self.sources = list(decl.sources)
        self.replacement = None
        self.replacement_binds: dict[str, int] = {}
        self.reinstated: list = []
        self.disagreements: list[Disagreement] = []

    def copy(self) -> "_Mutable":
        """A copy a later edition's events cannot change (texts, formulas and whens are immutable)."""
        m = _Mutable.__new__(_Mutable)
        m.__dict__.update(self.__dict__)
        m.limits, m.replacement_binds = dict(self.limits), dict(self.replacement_binds)
        for name in ("wordings", "cost_changes", "limit_changes", "sources", "reinstated", "disagreements"):
            setattr(m, name, list(getattr(self, name)))
        return m

    def freeze(self) -> ComponentState:
        return ComponentState(
            id=self.decl.id,
            kind=self.decl.kind,
            text=self.text,
            formula=self.formula,
            limits=self.limits,
            status=self.status,
            redacted=self.redacted,
            wordings=tuple(self.wordings),
            cost_changes=tuple(self.cost_changes),
            limit_changes=tuple(self.limit_changes),
            sources=tuple(dict.fromkeys(self.sources)),
            replacement=self.replacement,
            replacement_binds=self.replacement_binds,
            reinstated=tuple(self.reinstated),
            disagreements=tuple(self.disagreements),
            ultra=self.decl.ultra,
        )


def _common_number(rules: RuleSet, line: set[EditionKey], decl: EditionDecl) -> int:
    """The number of the newest edition that both ``decl``'s lineage and ``line`` contain."""
    for other in reversed(rules.lineage(decl.key)):
        if other.key in line:
            return other.number
    return rules.first


@record
class _Line:
    """The state of one line of editions after an edition: what the passes know (``track``), the
    fold's components and what else a catalog carries."""

    track: Track = field(default_factory=Track)
    state: dict[str, _Mutable] = field(default_factory=dict)
    clean_slates: tuple[int, ...] = ()
    catalog_known: bool = True
    cost_rule: CostRule | None = None
    system: System | None = None
    disagreements: tuple[Disagreement, ...] = ()

    def copy(self) -> "_Line":
        return _Line(self.track.copy(), {cid: m.copy() for cid, m in self.state.items()}, self.clean_slates,
                     self.catalog_known, self.cost_rule, self.system, self.disagreements)


class Replay:
    """The history replayed once, in file order: the state after every edition and the pass
    into it.

    The loader drives it as it reads each file (:meth:`begin`, :meth:`component`, :meth:`event`,
    :meth:`end`): its checks read the texts, formulas and limits of the line so far from
    :attr:`track`, and each event, once read, is folded and turned into its migration step
    here, by its kind (:mod:`kotc_rulesc.history`).  A :class:`RuleSet` built otherwise is
    replayed by :func:`history_of`.  :meth:`catalog` then gives any edition's catalog."""

    def __init__(self) -> None:
        self.after: dict[EditionKey, _Line] = {}  # each edition's state, which its children start from
        self.line = _Line()  # the edition being replayed
        self.steps: dict[str, list] = {}
        self.passes: list[Pass] = []
        self.rules: RuleSet | None = None
        self._catalogs: dict[EditionKey, Catalog] = {}

    @property
    def track(self) -> Track:
        return self.line.track

    def begin(self, follows: EditionKey | None, whole: bool) -> None:
        """Start an edition that follows ``follows`` (None: the base); ``whole``: its components
        are the whole catalog, so nothing older carries over into it."""
        self.line = self.after[follows].copy() if follows in self.after else _Line()
        if whole:
            self.line.state = {}
        self.steps = {kind.pass_field: [] for kind in KINDS}

    def component(self, decl: ComponentDecl) -> None:
        t = self.line.track
        t.current[decl.id], t.formula[decl.id], t.limits[decl.id] = decl.text, decl.formula, dict(decl.limits)
        t.kinds[decl.id] = decl.kind
        self.line.state[decl.id] = _Mutable(decl)

    def event(self, kind: Any, ev: Any) -> None:
        """An event of the edition, read: its step (from the state before it), then its fold."""
        self.steps[kind.pass_field].append(kind.step(ev, self.line.track))
        if ev.component in self.line.state:
            kind.fold(ev, self.line.state[ev.component], "yes", self.line.state)

    def end(self, decl: EditionDecl) -> None:
        line = self.line
        line.clean_slates = CLEAN_SLATE.fold(decl, line.clean_slates)
        line.catalog_known = decl.catalog_known
        line.cost_rule = decl.card_cost or line.cost_rule
        line.system = decl.system or line.system
        line.disagreements += decl.disagreements
        for dis in decl.disagreements:
            if dis.component in line.state:
                line.state[dis.component].disagreements.append(dis)
        if not decl.base:
            self.passes.append(Pass(
                decl.follows, decl.key, catalog_known=decl.catalog_known, **CLEAN_SLATE.step(decl),
                **{name: tuple(items) for name, items in self.steps.items()},
            ))
        self.after[decl.key] = line  # (kept as it is: an edition that follows it begins from a copy)

    def catalog(self, key: EditionKey) -> Catalog:
        """The catalog of edition ``key``: its line's state, and what an event of unknown edition
        recorded elsewhere makes unknown in it."""
        if key not in self._catalogs:
            self._catalogs[key] = self._freeze(key)
        return self._catalogs[key]

    def _freeze(self, key: EditionKey) -> Catalog:
        rules = self.rules
        assert rules is not None, "replay every edition before asking for a catalog"
        resolved = rules.resolve(key)
        if resolved is None or resolved not in self.after:
            raise ValueError(f"edition {key} is not in the rules")
        n = edition_number(key)
        line = {d.key for d in rules.lineage(key)}
        done = self.after[resolved]
        state = done.state
        overlays = [(kind, ev) for decl in rules.editions if decl.key not in line
                    for kind in KINDS if kind.applies_when_unknown for ev in getattr(decl, kind.key)
                    if ev.component in state and _may_have_happened(rules, key, n, line, decl, ev.when)]
        if overlays:
            # Events with an unknown edition are recorded in a later file ("by" that edition):
            # where they may or may not have happened yet, what they touch is unknown.
            state = {cid: m.copy() for cid, m in state.items()}
            for kind, ev in overlays:
                if ev.component in state:
                    kind.fold(ev, state[ev.component], "unknown", state)
        cost_rule = done.cost_rule
        if cost_rule is None:
            # No source states a rule up to n: use the earliest later statement, and say so
            # (Catalog.cost_rule_stated is False).
            cost_rule = next((d.card_cost for d in rules.editions if d.card_cost is not None), None)
        components = None
        if done.catalog_known:
            order = {k: i for i, k in enumerate(done.system.kind_ids if done.system else ())}
            seq = sorted(state.values(), key=lambda m: order.get(m.decl.kind, len(order)))  # stable: file order within kind
            components = tuple(m.freeze() for m in seq)
        own = rules.edition(key)
        return Catalog(
            edition=key,
            components=components,
            rulebook=own.rulebook if own else None,
            cost_rule=cost_rule,
            clean_slates=done.clean_slates,
            successors=own.successors if own else (),
            declared=own,
            disagreements=done.disagreements,
            system=done.system,
        )


def _may_have_happened(rules: RuleSet, key: EditionKey, n: int, line: set[EditionKey], decl: EditionDecl, when: When) -> bool:
    """May an event of another line's (or a later) file, ``decl``, have happened by ``key``?
    Only an event no source dates: a dated one happened where its file is."""
    if when.edition is not None:
        return False
    if not decl.pre_release and isinstance(key, int):  # a later edition of the main line
        return when.happened_by(n) != "no"
    fork = _common_number(rules, line, decl)
    return not (when.after is not None and when.after >= fork)


def replay(rules: RuleSet) -> Replay:
    """Replay a rule set's history (the loader does it as it reads; this is for a rule set built
    from its declarations)."""
    r = Replay()
    for decl in rules.editions:
        r.begin(decl.follows, decl.catalog_whole)
        for comp in decl.components:
            r.component(comp)
        for kind in KINDS:
            for ev in getattr(decl, kind.key):
                r.event(kind, ev)
        r.end(decl)
    r.rules = rules
    return r


def history_of(rules: RuleSet) -> Replay:
    """The replayed history of ``rules``: the loader's, or replayed once here and kept with them."""
    if rules.history is None:
        rules.history = replay(rules)
    return rules.history


def fold(rules: RuleSet, key: EditionKey) -> Catalog:
    """The catalog of edition ``key``: every event of its lineage (base … key) applied.

    A pre-release branch (``11-pre``) folds its own line: the main-line files after its fork
    do not apply to it, except an event no source dates, which may have happened before the
    fork (unknown there)."""
    if not rules.lineage(key):
        raise ValueError(f"edition {key} is not in the rules")
    return history_of(rules).catalog(key)


def derive_passes(rules: RuleSet) -> list[Pass]:
    """One pass per step, in file order: every edition but the base, from the edition it follows.

    An event whose edition no source gives is placed in the step into the edition of the
    file that records it (the latest it can have happened)."""
    return list(history_of(rules).passes)
