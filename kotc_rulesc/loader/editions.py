"""The declared editions: each rules file's meaning, read into the model and checked against what it
and the editions before it declare; what only the replayed history shows is :mod:`kotc_rulesc.fold`'s.
Each kind of history event reads its own entries through an :class:`Entry`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ..formula import Formula
from ..history import CLEAN_SLATE, KINDS
from ..history.event import Event, formula_problems
from ..model import (ComponentDecl, CostRule, Disagreement, EditionDecl, EditionKey, Rulebook, Source, When, Where, ordinal,
                     pre_release_key)
from ..system import System
from ..text import Template, TemplateError, parse_template
from .files import Reporter, closest, read_formula, where
from .inherited import check_cost_rule, read_card_cost, read_rulebook, read_system

__all__ = ["Declarer", "Entry"]


@dataclass
class _Line:
    """What a line of editions has declared so far, which a branch starts from: its components, its
    card-building system, its rulebook and its card-cost rule (with the file that states it)."""

    on_line: set[str]
    system: System | None = None
    rulebook: Rulebook | None = None
    cost_rule: tuple[CostRule, Reporter] | None = None
    left: dict[str, EditionKey] | None = None  # components a whole catalog left behind → that edition
    placed: bool = True  # False: a file whose place in the tree was refused (its line is its own)

    def copy(self) -> _Line:
        return replace(self, on_line=set(self.on_line))


class Declarer:
    """Reads the rules files in order into :class:`~kotc_rulesc.model.EditionDecl` s, each against the
    line of the edition it follows (a pre-release branch starts from its parent, and the main line
    does not see the branch)."""

    def __init__(self) -> None:
        self.components: dict[str, ComponentDecl] = {}  # every component declared so far
        self.line = _Line(set())
        self.lines: dict[EditionKey, _Line] = {}  # the line after each edition, in file order
        self.sources: dict[str, Source] = {}
        self.source_refs: list[tuple[Reporter, Any, tuple[str, ...]]] = []

    def cite(self, rep: Reporter, node: Any, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The sources ``node`` cites (``source:``, one id or a list; ``default`` where it names none),
        noted to check once the base's are read."""
        src, value = default, node.get("source")
        if value is not None:
            src = (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)
        self.source_refs.append((rep, node, src))
        return src

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
            known = ", ".join(str(k) for k in self.lines)
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
        self.line = (self.lines[follows].copy() if follows is not None
                     else _Line(set(), self.line.system, self.line.rulebook, self.line.cost_rule, placed=base))
        if base:
            for sid, sdata in (data.get("sources") or {}).items():
                self.sources[str(sid)] = Source(str(sid), str(sdata["file"]), str(sdata["title"]))
        elif "sources" in data:
            rep.at(data, "sources", "sources are declared in the base edition only", of_key=True)
        default_src = self.cite(rep, data)
        key = pre_release_key(n) if data.get("pre_release") else n
        system = read_system(rep, data, key, self.line.system, self.cite) if "system" in data else None
        if system is not None:
            self.line.system = system
        elif base:
            rep.at(data, "edition", "the base edition declares no card-building system",
                   "add 'system:' (card types, kinds, ability order, figure)")
        components = [c for node in data.get("components") or [] if (c := self.component(rep, node, n, default_src))]
        file = Entry(self, rep, data, n, default_src)
        events: list[Event] = []
        for kind in KINDS:  # each kind reads and checks its own entries (kotc_rulesc.history)
            for entry in file.entries(kind.key):
                entry.check_facts()
                if (event := kind.read(entry)) is not None:
                    events.append(event)
        disagreements = []
        for node in data.get("disagreements") or []:
            entry = Entry(self, rep, node, n, default_src)
            cid = entry.component() if node.get("component") else None
            disagreements.append(Disagreement(key, str(node["note"]), entry.sources, cid))
        clean_slate, successors = CLEAN_SLATE.read(file)
        if "rulebook" in data:
            self.line.rulebook = read_rulebook(rep, data, key, self.line.rulebook, self.cite)
        card_cost = read_card_cost(rep, data, key, self.line.system, self.cite) if "card_cost" in data else None
        if card_cost is not None:
            self.line.cost_rule = (card_cost, rep)
        elif system is not None and self.line.cost_rule is not None:
            rule, rule_rep = self.line.cost_rule
            check_cost_rule(rep, data, "system", rule, system,
                            f" (the card-cost rule of {rule_rep.file} no longer fits the system this file states; restate card_cost)")
        if data.get("catalog") == "whole":  # later editions see only its components (its successors name older ones)
            new = {c.id for c in components}
            self.line.left = {**(self.line.left or {}), **{cid: key for cid in self.line.on_line - new}}
            self.line.on_line = new
        self.lines[key] = self.line
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
            rulebook=self.line.rulebook,
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
        src = self.cite(rep, node, default_src)
        system = self.line.system
        if cid in self.components:
            first = self.components[cid].where
            rep.at(node, "id", f"id: duplicate component id {cid!r} (first declared at {first.file}:{first.line})")
            return None
        if system is not None and kind not in system.kind_ids:
            rep.at(node, "kind", f"kind: {kind!r} is not a kind of the card-building system here",
                   f"the system's kinds: {', '.join(system.kind_ids)}")
        elif not cid.startswith(kind + "-"):  # (not against a kind mistyped: its hint would rename the id after the typo)
            head, _, slug = cid.partition("-")  # (a prefix like a kind's is replaced, any other kept: gain-level)
            slug = slug if slug and closest(head, system.kind_ids if system else (kind,)) else cid
            rep.at(node, "id", f"id: {cid!r} does not start with its kind {kind!r}", f"{kind}-{slug}")
        entry = Entry(self, rep, node, n, src)
        text = entry.text("text")
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
        limits = entry.limits()
        for var in limits:
            if var not in text.variables:
                rep.at(node["limits"], var, f"limits: a limit on [{var}], which the text {str(text)!r} does not have", of_key=True)
        comp = ComponentDecl(cid, kind, text, formula, {k: v for k, v in limits.items() if k in text.variables}, src,
                             where(rep.file, node, "text"), tuple(str(x) for x in node.get("notes") or ()),
                             int(node.get("ultra", 0)))
        self.components[cid] = comp
        return comp

    def check_sources(self) -> None:
        for rep, node, refs in self.source_refs:
            for ref in refs:
                if ref not in self.sources:
                    hint = closest(ref, self.sources) or (f"declared: {', '.join(sorted(self.sources))}" if self.sources
                                                          else "declare sources in the base edition")
                    rep.at(node, "source", f"source: unknown source {ref!r}", hint)


class Entry:
    """A mapping of a rules file (an event, a successor, the file itself) as a kind of history event
    reads it (:meth:`~kotc_rulesc.history.event.Event.read`): checked against the line being declared,
    each problem reported where it stands."""

    def __init__(self, declarer: Declarer, rep: Reporter, node: Any, edition: int, default_sources: tuple[str, ...]) -> None:
        self._declarer, self._rep, self._node = declarer, rep, node
        self.edition = edition
        self._default_sources = default_sources

    def check_facts(self) -> None:
        """Read (and check) an event's sources and edition, whether its kind reads it or not."""
        self.sources, self.when

    @cached_property
    def when(self) -> When:
        node, edition, rep = self._node, self.edition, self._rep
        raw, after = node.get("edition"), node.get("after")
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

    @cached_property
    def sources(self) -> tuple[str, ...]:
        src = (self._declarer.cite(self._rep, self._node, self._default_sources) if "source" in self._node
               else self._default_sources)
        if not src:
            self.problem(None, "the event cites no source", "add 'source: <id>' here or at the top of the file")
        return src

    @cached_property
    def where(self) -> Where:
        return where(self._rep.file, self._node)

    def has(self, key: str) -> bool:
        return self._node.get(key) is not None

    def component(self) -> str | None:
        """A component declared on this edition's line (None: reported)."""
        cid, components = str(self._node["component"]), self._declarer.components
        if cid not in components:
            hint = closest(cid, components) or "declare it under 'components:' in this or an earlier edition"
            self.problem("component", f"component: unknown component {cid!r}", hint)
            return None
        line = self._declarer.line
        if cid in (line.left or {}):
            self.problem("component", f"component: {cid} is not in this edition's catalog: the {ordinal(line.left[cid])} "
                                      "edition's catalog is whole, and nothing older carries over", closest(cid, line.on_line))
            return None
        if cid not in line.on_line:
            if line.placed:  # (else its 'follows' is the problem, already said)
                self.problem("component", f"component: {cid} is declared in {components[cid].where.file}, which is not an "
                                          "edition this one follows")
            return None
        return cid

    def declared(self, cid: str) -> ComponentDecl | None:
        """A component declared anywhere so far."""
        return self._declarer.components.get(cid)

    def on_line(self, cid: str) -> bool:
        return cid in self._declarer.line.on_line

    def nearest(self, cid: str) -> str | None:
        return closest(cid, self._declarer.components)

    def text(self, key: str) -> Template | None:
        """A text, its agreeing words those of the line's system (None: reported)."""
        system = self._declarer.line.system
        agreement = system.agreement if system else None
        raw = str(self._node[key])
        if len(raw) > 1 and raw[0] in "“\"" and raw[-1] in "”\"":  # (copied with the quotation marks the guides print)
            self._rep.at(self._node, key, f"{key}: {raw!r} keeps the quotation marks the guide prints around a text",
                         f"write it without them: {raw[1:-1]!r}")
            return None
        try:
            if agreement is None:
                return parse_template(raw)
            return parse_template(raw, dict(agreement.nouns), dict(agreement.verbs),
                                  agreement.qualifiers, agreement.stops)
        except TemplateError as exc:
            self._rep.at(self._node, key, f"{key}: {exc.message}", column_in_value=exc.column)
            return None

    def formula(self, key: str) -> tuple[bool, Formula | None]:
        """A formula, or ``None`` for ``unknown``; ``False`` when it does not parse (reported)."""
        return read_formula(self._rep, self._node, key)

    def check_formula(self, key: str, formula: Formula, kind: str, known: set[str]) -> None:
        for message, hint in formula_problems(formula, kind, known, self._declarer.line.system):
            self._rep.at(self._node, key, f"{key}: {message}", hint)

    def string(self, key: str) -> str | None:
        """The key's value as text; None when it is left out or empty."""
        value = self._node.get(key)
        return str(value) if value else None

    def flag(self, key: str, default: bool) -> bool:
        return bool(self._node.get(key, default))

    def binds(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in (self._node.get("binds") or {}).items()}

    def limits(self) -> dict[str, int | None]:
        """``{x: 14}``; ``unknown`` is None."""
        limits = self._node.get("limits") or {}
        return {str(var): None if value == "unknown" else int(value) for var, value in limits.items()}

    def entry(self, key: str) -> Entry:
        return Entry(self._declarer, self._rep, self._node[key], self.edition, self._default_sources)

    def entries(self, key: str) -> list[Entry]:
        return [Entry(self._declarer, self._rep, node, self.edition, self._default_sources)
                for node in self._node.get(key) or []]

    def problem(self, key: str | None, message: str, hint: str | None = None, of_key: bool = False) -> None:
        self._rep.at(self._node, key, message, hint, of_key=of_key)
