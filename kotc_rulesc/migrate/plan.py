"""What migrating one card to edition N does: the per-card decision.

For a card of edition E (its Edition Indicator, or the edition assumed with
``--from`` for a card without one):

1. every revised wording is rewritten to N's wording by the passes
   (:mod:`kotc_rulesc.migrate.rewrite`) — those of E+1 … N, and those of earlier
   editions for a wording the card's own edition already read as a later one; a
   clean-slate pass after E maps each component to the successor the data declares
   for it, and the card survives the clean slate only when every component it uses
   has one.  A card already of edition N is judged only;
2. the rewritten card is judged in N (:func:`kotc_rulesc.cards.legality.judge`):

   * legal — the rewritten text is kept (``rewritten``; from the 13th the rulebooks
     call it *refurbished*), or nothing changed (``unchanged``).  The Edition
     Indicator stays: it names the edition whose costs the printed cost follows (the
     design edition), and a wording erratum changes no cost.  A rewording no rulebook
     list names (``listed: false``) is not made: the card keeps that text, with a note;
   * banned only because a component's cost was revised after the card's edition
     (``cost-revised``; the printed cost then no longer matches), or after crossing a
     clean slate on successors — the card is *re-issued*: cost recomputed under N,
     Edition Indicator set to N, the rewritten text kept (and every wording N's).
     Unless the rulebook says such a card is pruned (``Rulebook.cost_revised:
     prune``, the 16th's Revised Levels): then it is kept as it was, marked, with a
     note of what ``--reissue`` (``Migrator(reissue=True)``) would make of it;
   * any other ban, an unknown fact, or an unreadable card — the card is kept exactly
     as it was (not even its rewrites are applied) and marked with every reason,
     and with a suggested legal replacement where the data declares one.

A decision depends only on the fields the card engine reads (type, Edition
Indicator, text, the systems' figures and stats, and whether the name is valid:
:mod:`kotc_rulesc.cards.decisive`), so identical cards — however many copies a
collection holds — are decided once, by the same memo ``check-cards`` judges with.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..model import edition_number, is_pre_release, ordinal
from ..outcomes import outcome_word
from ..passes import Pass
from .advice import MARK, Advice
from .rewrite import LineRewriter, TextRewrite, split_line

__all__ = [
    "Decision",
    "Migrator",
    "NeedsFrom",
    "MARK",
    "LEGAL",
    "reason_json",
]

#: the statuses of a card that ends legal
LEGAL = frozenset({"rewritten", "reissued", "unchanged"})
#: the reasons that a re-issue cures (a cost revision; the printed cost it makes wrong)
_REISSUE_CODES = frozenset({"cost-revised", "cost-mismatch"})


class NeedsFrom(Exception):
    """A card has no Edition Indicator and no ``--from`` edition was given."""


def reason_json(r: Any) -> dict[str, Any]:
    """A reason as the marker and the JSON report write it: code, edition, sources, message."""
    out = {"code": r.code, "edition": r.edition, "sources": list(r.sources), "message": r.message}
    if getattr(r, "field", None):
        out["field"] = r.field
    return out


@dataclass(frozen=True)
class _Reason:
    """A reason of the migrator's own (same shape as the card engine's)."""

    code: str
    message: str
    edition: int | None
    sources: tuple[str, ...] = ()
    field: str | None = None


@dataclass(frozen=True)
class Decision:
    """What migration does to one card.  ``text``/``cost``/``edition`` are the new values of
    the fields that change (``None``: the field is left alone); ``reasons`` say why."""

    status: str  # rewritten | reissued | unchanged | banned | unknown | error
    source: int | None  # the edition E migrated from (None: unreadable)
    target: int
    assumed: bool  # E came from --from (the card has no Edition Indicator)
    text: str | None = None
    cost: tuple[int | None, int] | None = None  # (printed, new) figure on a re-issue
    figure: str = "cost"  # the field the figure is printed in: "cost", or "level" from the published 11th
    edition: tuple[int | None, int] | None = None  # (printed, new) on a re-issue
    rewrites: tuple[TextRewrite, ...] = ()
    reasons: tuple[Any, ...] = ()
    notes: tuple[str, ...] = ()
    replacement: dict[str, Any] | None = None
    mark: dict[str, Any] | None = field(default=None, compare=False)
    #: the *should* rules the card broke (its warnings in the target edition), which the text written
    #: follows (``migrate --strict`` counts them as problems)
    warnings: tuple[Any, ...] = ()
    #: what the player can do with a card kept as it was, to have it in the target edition ("migrate it
    #: with --reissue …", "redesign it under the 17th edition's guide"); None: nothing the rules offer
    remedy: str | None = None

    @property
    def legal(self) -> bool:
        return self.status in LEGAL

    def updates(self) -> dict[str, Any]:
        """The fields to set on the card (the marker aside); do not modify the dict."""
        return self._updates

    @cached_property
    def _updates(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.text is not None:
            out["text"] = self.text
        if self.edition is not None:
            out["edition"] = self.edition[1]
        if self.cost is not None:
            out[self.figure] = self.cost[1]
        return out


def _error(source: int | None, target: int, assumed: bool, code: str, message: str) -> Decision:
    reason = _Reason(code, message, None)
    return _marked(Decision("error", source, target, assumed, reasons=(reason,)))


def _marked(d: Decision, words: dict[str, str] | None = None) -> Decision:
    """Attach the marker of a card that does not end legal: its ``status`` (the machine code, the same in
    every edition) and ``outcome`` (the target rulebook's word for it, ``words``: "pruned"), …"""
    if d.legal:
        return d
    mark: dict[str, Any] = {"status": d.status, "outcome": outcome_word(d.status, words)}
    if d.source is not None:
        mark["from"] = d.source
    mark["to"] = d.target
    if d.notes:
        mark["notes"] = list(d.notes)
    if d.replacement:
        mark["replacement"] = d.replacement
    if d.remedy:
        mark["remedy"] = d.remedy
    mark["reasons"] = [reason_json(r) for r in d.reasons]  # last: a YAML card's trailing comments follow it
    return replace(d, mark=mark)


class Migrator:
    """Decides the migration of cards to edition ``target`` on a :class:`~kotc_rulesc.view.RulesView`.

    ``assume`` is the edition of cards without an Edition Indicator (``--from``);
    without it such a card raises :class:`NeedsFrom`.  ``cache`` bounds the number of
    distinct cards remembered (two generations of that many)."""

    def __init__(self, view: Any, target: int, assume: int | None = None, cache: int = 8192, reissue: bool = False):
        from ..cards.decisive import DecisionMemo
        from ..cards.legality import cost_revision_rule, judge  # the card engine; imported here to keep start-up light

        self._judge = judge
        self._rule = cost_revision_rule
        self.view = view
        self.target = target
        self.assume = assume
        #: re-issue a card whose rulebook prunes it for a cost revision after its design edition
        #: (``--reissue``), when that is all that keeps it from being legal
        self.reissue = reissue
        #: the target rulebook's own words for the outcomes, where it has them (its ``terms``: from the
        #: 13th a card is "refurbished" or "pruned"); the report uses them
        rulebook = view.catalog(target).rulebook
        self.words: dict[str, str] = {k: v for k, v in (rulebook.terms if rulebook else {}).items() if k in ("revised", "banned")}
        self.first = view.first
        self.last = view.last
        self.newest = view.newest
        self._runs: dict[tuple[Any, bool], list[Any]] = {}
        self._memo = DecisionMemo(view, cache)
        self._advice = Advice(view, target, self.words, judge)

    # ------------------------------------------------------------------ public

    def decide(self, card: Any) -> Decision:
        """The decision for one card (a mapping as read; it is not modified)."""
        return self._memo.decide(card, self._decide)

    def key(self, card: Any) -> tuple | None:
        """What the decision depends on (:meth:`DecisionMemo.key <kotc_rulesc.cards.decisive.DecisionMemo.key>`),
        or ``None`` when the card is unusual enough to be decided on its own."""
        return self._memo.key(card)

    @property
    def hits(self) -> int:
        return self._memo.hits

    @property
    def misses(self) -> int:
        return self._memo.misses

    # ------------------------------------------------------------------ deciding

    def _source_of(self, card: Any) -> tuple[int | None, bool, Decision | None]:
        """(E, assumed, or an error decision)."""
        n = self.target
        ed = card.get("edition") if isinstance(card, dict) else None
        if ed is None:
            if not isinstance(card, dict):
                return None, False, None
            if self.assume is None:
                rulebook = self.view.catalog(n).rulebook
                if rulebook is not None and rulebook.edition_indicator == "required":
                    return None, False, None  # invalid in N whatever its edition: judged as it is, kept, marked
                raise NeedsFrom()
            return self.assume, True, None
        if type(ed) is not int or ed < self.first or ed > self.newest:
            return None, False, None  # a malformed Edition Indicator: the card engine says why
        if ed > edition_number(n):
            return ed, False, _error(
                ed, n, False, "newer-edition",
                f"the card bears the Edition Indicator {ed}, later than the target, the {ordinal(n)} edition; "
                "migration only goes forward",
            )
        if is_pre_release(n) and ed == edition_number(n):
            return n, False, None  # a card of the pre-release bears its edition's number
        return ed, False, None

    def _decide(self, card: Any) -> Decision:
        n = self.target
        source, assumed, early = self._source_of(card)
        if early is not None:
            return early
        if source is not None and self.view.path(source, n) is None:
            return _error(
                source, n, assumed, "no-path",
                f"the card's edition, the {ordinal(source)}, is not on the way to the {ordinal(n)} edition: "
                "migration follows one line of editions, and a pre-release is a branch of its own",
            )
        if source is None:  # unreadable: the judgement says why; the card is kept as it is
            j = self._judge(card, n, self.view)
            status = j.status if j.status != "legal" else "error"
            return _marked(Decision(status, None, n, False, reasons=tuple(j.reasons),
                                    remedy=self._advice.remedy(card, j, status)), self.words)

        text = card.get("text")
        rewrites: list[TextRewrite] = []
        kept: list[TextRewrite] = []  # rewordings no rulebook list names: the card keeps its text
        crossed = False
        if isinstance(text, str):
            new_text, done, crossed, blocked = self._rewrite(source, text)
            crossed = crossed and not blocked
            for rw in done:
                (rewrites if rw.listed else kept).append(rw)
        else:
            new_text = text
        probe = dict(card)
        probe.pop(MARK, None)
        probe["text"] = new_text
        if crossed:
            probe["edition"] = edition_number(n)  # an Edition Indicator is a number
        j = self._judge(probe, n, self.view)
        codes = {r.code for r in j.reasons}

        if j.status == "legal" and not crossed:
            notes = _kept_notes(kept) + self._advice.figure_notes(j, source)
            new_text, fixes = _prescribed(new_text, j)
            rewrites += fixes
            if rewrites:
                return Decision("rewritten", source, n, assumed, text=new_text, rewrites=tuple(rewrites), notes=notes,
                                warnings=tuple(j.warnings))
            return Decision("unchanged", source, n, assumed, notes=notes)

        reissuable = codes <= _REISSUE_CODES and (crossed or "cost-revised" in codes) and j.cost is not None
        # the rulebook of N (or of the revision) prunes a card older than a cost revision ("Revised
        # Levels"): it is kept as it was, unless --reissue asks for a re-issue
        pruned = reissuable and not self.reissue and any(
            r.code == "cost-revised" and self._rule(self.view, n, r.edition) == "prune" for r in j.reasons)
        if reissuable and not pruned:
            # Re-issued: N's Edition Indicator answers every cost-revised reason (and a clean slate),
            # the cost computed under N every cost-mismatch, and nothing else about the card changes —
            # so the re-issued card is legal in N (the tests judge every re-issued card they make).
            warnings = tuple(j.warnings)
            if kept:  # a card of N prints N's wordings, also those no rulebook list names
                new_text, rewrites, warnings = self._reissued_text(source, text, card, j)
            elif new_text is not None:
                new_text, fixes = _prescribed(new_text, j)
                rewrites = rewrites + fixes
            if new_text is not None:
                notes = self._advice.printed_cost_notes(card, source, j.cost)
                why = tuple(r for r in j.reasons if r.code == "cost-revised")
                if crossed:
                    why += self._clean_slate_reasons(source)
                return Decision(
                    "reissued", source, n, assumed,
                    text=new_text if new_text != text else None,
                    cost=(card.get(j.figure), j.cost),
                    figure=j.figure,
                    edition=(card.get("edition"), edition_number(n)),
                    rewrites=tuple(rewrites),
                    reasons=why,
                    notes=notes,
                    warnings=warnings,
                )

        if crossed and j.status == "error":
            # re-issued in N the card cannot be read (a clean slate gave a whole new catalog): it is
            # judged as it is, an older card — banned by the clean slate
            original = dict(card)
            original.pop(MARK, None)
            original["text"] = new_text
            j = self._judge(original, n, self.view)
            codes = {r.code for r in j.reasons}
        status = j.status if j.status != "legal" else "banned"
        notes = self._advice.printed_cost_notes(card, source, None) if "cost-mismatch" in codes else ()
        reissue = None
        if pruned and (not kept or self._reissued_text(source, text, card, j)[0] is not None):
            reissue = (f"{j.figure} {card.get(j.figure)} → {j.cost}, Edition Indicator {card.get('edition')} → "
                       f"{edition_number(n)} (its other texts are valid in the {ordinal(n)} edition)")
        replacement = self._advice.replacement(probe, j) if status == "banned" else None
        return _marked(Decision(
            status, source, n, assumed,
            reasons=tuple(j.reasons),
            notes=notes,
            replacement=replacement,
            remedy=self._advice.remedy(card, j, status, reissue, replacement),
        ), self.words)

    # ------------------------------------------------------------------ the passes

    @cached_property
    def _joins(self) -> dict[str, tuple[str, ...]]:
        """What joins two components in the editions from the first to the target, and the end
        marks it replaces (", also " → "→"): the rewriter reads joined components as the parser does."""
        from ..system import join_ends

        keys = [self.first] + [p.target for p in self.view.path(self.first, self.target) or ()]
        return join_ends(tuple(j for key in keys for j in self.view.catalog(key).system.joins))

    @cached_property
    def _variations(self) -> tuple[Any, ...]:
        """The variations of the editions from the first to the target (``Target 1 on-field minion;``
        for ``Target up to [x] on-field minions;``): the rewriter reads a text printed in one as the
        parser does, and keeps its form."""
        keys = [self.first] + [p.target for p in self.view.path(self.first, self.target) or ()]
        return tuple(dict.fromkeys(v for key in keys for v in self.view.catalog(key).system.variations))

    def _run(self, source: int, unlisted: bool = False) -> list[Any]:
        """What rewrites a card of edition ``source``: LineRewriters, and the clean-slate passes
        source+1 … target between them.

        The text passes start from the base edition, not at source+1: a card may be printed in a
        wording its own edition already read as a later one (a 6th-edition card saying "Exhaust 2
        of your unexhausted cards in play.", revised in the 2nd), and the card engine reads it so;
        migrated to N it says what N says.  A current wording matches no earlier pass (each pass's
        new wording never matches its old one), so for text in the card's own wording this is the
        same as running source+1 … target.  A card already of the target edition is judged only.
        They start after the last clean slate at or before the card's edition that gave a whole new
        catalog (the 11th, 12th, 13th): no earlier wording is a text of that catalog.

        ``unlisted``: also make the rewordings no rulebook list names (for a card re-issued in N, which
        prints N's wordings)."""
        run = self._runs.get((source, unlisted))
        if run is None:
            run = []
            pending: list[Pass] = []
            own = self.view.resolve(source)
            begin = self.first
            for p in self.view.path(self.first, own) or ():
                declared = self.view.catalog(p.target).declared
                if p.clean_slate and declared is not None and declared.catalog_whole:
                    begin = p.target
            after_source = own == self.view.resolve(begin)
            # a card already of the target edition (an empty path) is judged only
            steps = self.view.path(begin, self.target) if self.view.path(source, self.target) else []
            for p in steps:
                if p.clean_slate and after_source:
                    if pending:
                        run.append(LineRewriter(pending, unlisted=unlisted, joins=self._joins, variations=self._variations))
                        pending = []
                    run.append(p)
                    if p.rewrites:
                        pending.append(p)
                else:
                    pending.append(p)
                if p.target == own:
                    after_source = True
            if pending:
                run.append(LineRewriter(pending, unlisted=unlisted, joins=self._joins, variations=self._variations))
            self._runs[(source, unlisted)] = run
        return run

    def _rewrite(self, source: int, text: str, unlisted: bool = False) -> tuple[str, list[TextRewrite], bool, bool]:
        """(text, rewrites, crossed a clean slate, some component had no successor)."""
        rewrites: list[TextRewrite] = []
        crossed = blocked = False
        for step in self._run(source, unlisted):
            if isinstance(step, LineRewriter):
                text, done = step.text(text)
                rewrites.extend(done)
            else:
                crossed = True
                if not blocked:
                    text, done, ok = self._successors(step, text)
                    rewrites.extend(done)
                    blocked = not ok
        return text, rewrites, crossed, blocked

    def _reissued_text(self, source: int, text: str, card: dict, j: Any) -> tuple[str | None, list[TextRewrite], tuple]:
        """The text of a card re-issued in N, every wording N's (also those no rulebook list names) and
        in the form N's guide prescribes, its rewrites and the warnings that form answers; ``None`` when
        the card so re-issued would not be legal in N."""
        new_text, done, _, _ = self._rewrite(source, text, unlisted=True)
        candidate = dict(card)
        candidate.pop(MARK, None)
        candidate.update({"text": new_text, "edition": edition_number(self.target), j.figure: j.cost})
        verdict = self._judge(candidate, self.target, self.view)
        if verdict.status != "legal":
            return None, [], ()
        new_text, fixes = _prescribed(new_text, verdict)
        return new_text, done + fixes, tuple(verdict.warnings)

    def _successors(self, p: Pass, text: str) -> tuple[str, list[TextRewrite], bool]:
        """Map every component to its successor across the clean slate ``p``; ok is False
        when a sentence cannot be read or a component has none."""
        from ..cards.sentence import read_sentence

        before = self.view.catalog(p.source)
        after = self.view.catalog(p.target)
        if not before.catalog_known or not after.catalog_known:
            return text, [], False
        declared = {s.component: s for s in after.successors}
        for old, new in p.successors:
            if old not in declared:
                declared[old] = _Successor(old, new, {}, ())
        comps = after.by_id()
        empty_texts = {t.empty_text for t in before.system.types if t.empty_text}
        lines = text.split("\n")
        done: list[TextRewrite] = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            prefix, pieces = split_line(line)
            for i in range(0, len(pieces), 2):
                raw = pieces[i].strip()
                if not raw or raw in empty_texts:
                    continue
                use, _ = read_sentence(raw, before, self.view)
                succ = declared.get(use.component) if use is not None else None
                comp = comps.get(succ.successor) if succ is not None else None
                if comp is None:
                    return text, [], False
                values = {**use.values, **succ.binds}
                if not set(comp.text.variables) <= set(values):
                    return text, [], False
                new = comp.text.render({v: values[v] for v in comp.text.variables})
                if new != use.sentence:
                    pieces[i] = pieces[i].replace(raw, new, 1)
                    done.append(TextRewrite(number, use.sentence, new, use.component, p.target, p.target,
                                            tuple(succ.sources), succ.successor))
            lines[number - 1] = prefix + "".join(pieces)
        return "\n".join(lines), done, True

    def _clean_slate_reasons(self, source: int) -> tuple[_Reason, ...]:
        out = []
        for p in self.view.path(source, self.target) or ():
            k = p.target
            if p.clean_slate:
                decl = self.view.catalog(k).declared
                out.append(_Reason(
                    "clean-slate",
                    f"the {ordinal(k)} edition is a clean slate; every component of the card has a declared successor",
                    k,
                    decl.sources if decl else (),
                ))
        return tuple(out)

@dataclass(frozen=True)
class _Successor:
    component: str
    successor: str
    binds: dict[str, int]
    sources: tuple[str, ...]


def _prescribed(text: str | None, j: Any) -> tuple[str | None, list[TextRewrite]]:
    """``text`` in the form the guide of the edition judged prescribes (the judgement's ``prescribed``:
    each paragraph a *should* rule words otherwise, "Target 1 on-field minion;" for "Target up to 1
    on-field minion;"), and a rewrite per paragraph changed, naming the rules; else ``text`` as it is."""
    if text is None or j.prescribed is None:
        return text, []
    old, new = text.split("\n"), j.prescribed.split("\n")
    fixes = []
    for number, (a, b) in enumerate(zip(old, new), 1):
        if a == b:
            continue
        field_ = f"text[{number}]"
        ws = [w for w in j.warnings if w.field == field_]
        sources = tuple(dict.fromkeys(src for w in ws for src in w.sources))
        fixes.append(TextRewrite(number, a.strip(), b.strip(), None, j.edition, j.edition, sources,
                                 prescribed=tuple(w.message for w in ws)))
    return j.prescribed, fixes


def _kept_notes(kept: list[TextRewrite]) -> tuple[str, ...]:
    """Say which texts the card keeps as printed although a later guide rewords them."""
    out = []
    for rw in kept:
        if rw.old.casefold() == rw.new.casefold():
            continue  # only the first letter: where a text stands says which (the guides' rule)
        out.append(f'"{rw.old}" is kept as printed: the {ordinal(rw.edition) + " edition" if rw.edition else "later"} '
                   f'guide rewords it "{rw.new}", and no rulebook list refurbishes it (the card reads as the new wording)')
    return tuple(out)
