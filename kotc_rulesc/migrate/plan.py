"""What migrating one card to edition N does: the per-card decision.

A card of edition E (its Edition Indicator, or ``--from``) has its revised wordings rewritten to N's
(:mod:`.rewrite`) and, across a clean slate, each component mapped to its declared successor; the
result is judged in N.  Legal: the new text is kept (``rewritten``) or nothing changed
(``unchanged``).  Banned only for a cost revision (or after a clean slate): ``reissued`` at N's cost
and Edition Indicator, unless N's rulebook prunes such a card (``--reissue`` overrides).  Anything
else: kept exactly as it was, marked with every reason.  Identical cards are decided once
(:mod:`kotc_rulesc.cards.decisive`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..cards.model import Reason
from ..model import edition_number, is_pre_release, ordinal
from ..outcomes import outcome_word
from ..passes import Pass
from . import advice
from .advice import MARK, rendered, without_mark
from .rewrite import LineRewriter, TextRewrite, map_sentences

__all__ = ["Decision", "Migrator", "NeedsFrom", "MARK", "LEGAL", "reason_json", "advice_json", "path_refusal"]

#: the statuses of a card that ends legal
LEGAL = frozenset({"rewritten", "reissued", "unchanged"})
#: the reasons that a re-issue cures (a cost revision; the printed cost it makes wrong)
_REISSUE_CODES = frozenset({"cost-revised", "cost-mismatch"})


class NeedsFrom(Exception):
    """A card has no Edition Indicator and no ``--from`` edition was given."""


def path_refusal(view: Any, assume: Any, target: Any, option: str, given: str, to: str) -> str | None:
    """Why a run cannot migrate cards of ``assume`` (the ``option`` given as ``given``) to ``target`` (given as
    ``to``), in the words ``migrate --from`` and the API both say it; ``None`` where it can."""
    if view.path(assume, target) is not None:
        return None
    if edition_number(assume) > edition_number(target):
        return f"{given} is later than {to}: migration only goes forward"
    rulebook = view.catalog(target).rulebook
    needless = (f"; leave {option} out: the {ordinal(target)} edition's rulebook calls a card without an Edition "
                "Indicator invalid, whatever edition it was designed for"
                if rulebook is not None and rulebook.edition_indicator == "required" else "")
    return f"{given} is not on the way to {to}: a pre-release is a branch of its own{needless}"


def reason_json(r: Any) -> dict[str, Any]:
    """A reason as the marker and the JSON report write it."""
    out = {"code": r.code, "edition": r.edition, "sources": list(r.sources), "message": r.message}
    if getattr(r, "field", None):
        out["field"] = r.field
    return out


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
    warnings: tuple[Any, ...] = ()  # the *should* rules broken, which the text written follows (--strict)
    remedy: str | None = None  # what the player can do with a card kept as it was

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


def advice_json(d: Decision) -> dict[str, Any]:
    """The notes, the suggested replacement and the remedy of a decision, those it has."""
    out: dict[str, Any] = {"notes": list(d.notes)} if d.notes else {}
    if d.replacement:
        out["replacement"] = d.replacement
    if d.remedy:
        out["remedy"] = d.remedy
    return out


def _error(source: int | None, target: int, assumed: bool, code: str, message: str) -> Decision:
    return _marked(Decision("error", source, target, assumed, reasons=(Reason(code, message, None),)))


def _marked(d: Decision, words: dict[str, str] | None = None) -> Decision:
    """``d`` (a card kept as it was) with its marker: the machine ``status`` and the target rulebook's
    word for it (``outcome``), then the rest of the decision."""
    mark: dict[str, Any] = {"status": d.status, "outcome": outcome_word(d.status, words, (r.code for r in d.reasons))}
    if d.source is not None:
        mark["from"] = d.source
    mark["to"] = d.target
    mark.update(advice_json(d))
    mark["reasons"] = [reason_json(r) for r in d.reasons]  # last: a YAML card's trailing comments follow it
    return replace(d, mark=mark)


class Migrator:
    """Decides the migration of cards to edition ``target`` on a :class:`~kotc_rulesc.view.RulesView`.

    ``assume`` is the edition of cards without an Edition Indicator (``--from``); without it such a
    card raises :class:`NeedsFrom`.  ``cache`` bounds the distinct cards remembered.  ``reissue``:
    re-issue a card the rulebook prunes for a cost revision (``--reissue``)."""

    def __init__(self, view: Any, target: int, assume: int | None = None, cache: int = 8192, reissue: bool = False):
        from ..cards.decisive import DecisionMemo
        from ..cards.legality import cost_revision_rule, judge  # the card engine; imported here to keep start-up light

        self.judge = judge
        self._rule = cost_revision_rule
        self.view = view
        self.target = target
        self.assume = assume
        self.reissue = reissue
        #: the target rulebook's own words for the outcomes (from the 13th "refurbished", "pruned")
        rulebook = view.catalog(target).rulebook
        terms = rulebook.terms if rulebook else {}
        self.words: dict[str, str] = {k: v for k, v in terms.items() if k in ("revised", "banned")}
        self._runs: dict[tuple[Any, bool], list[Any]] = {}
        self._memo = DecisionMemo(view, cache)

    def decide(self, card: Any) -> Decision:
        """The decision for one card (a mapping as read; it is not modified)."""
        return self._memo.decide(card, self._decide)

    def key(self, card: Any) -> tuple | None:
        """What the decision depends on, or ``None`` when the card is decided on its own (not remembered)."""
        return self._memo.key(card)

    @property
    def hits(self) -> int:
        return self._memo.hits

    @property
    def misses(self) -> int:
        return self._memo.misses

    def _source_of(self, card: Any) -> tuple[int | None, bool]:
        """(E, assumed); E is None for a card the card engine cannot read."""
        n = self.target
        ed = card.get("edition") if isinstance(card, dict) else None
        if ed is None:
            if not isinstance(card, dict):
                return None, False
            if self.assume is None:
                rulebook = self.view.catalog(n).rulebook
                if rulebook is not None and rulebook.edition_indicator == "required":
                    return None, False  # invalid in N whatever its edition: judged as it is, kept, marked
                raise NeedsFrom()
            return self.assume, True
        if type(ed) is not int or ed < self.view.first or ed > self.view.newest:
            return None, False  # a malformed Edition Indicator: the card engine says why
        if is_pre_release(n) and ed == edition_number(n):
            return n, False  # a card of the pre-release bears its edition's number
        return ed, False

    def _decide(self, card: Any) -> Decision:
        n = self.target
        source, assumed = self._source_of(card)
        if not assumed and isinstance(source, int) and source > edition_number(n):
            return _error(source, n, False, "newer-edition", f"the card bears the Edition Indicator {source}, later "
                          f"than the target, the {ordinal(n)} edition; migration only goes forward")
        if source is not None and self.view.path(source, n) is None:
            return _error(source, n, assumed, "no-path", f"the card's edition, the {ordinal(source)}, is not on the "
                          f"way to the {ordinal(n)} edition: migration follows one line of editions, and a pre-release "
                          "is a branch of its own")
        if source is None:  # unreadable: the judgement says why; the card is kept as it is
            j = self.judge(card, n, self.view)
            status = j.status if j.status != "legal" else "error"
            return _marked(Decision(status, None, n, False, reasons=tuple(j.reasons),
                                    remedy=advice.remedy(self, card, j, status)), self.words)

        text = card.get("text")
        new_text, done, crossed = self._rewrite(source, text) if isinstance(text, str) else (text, [], False)
        rewrites = [rw for rw in done if rw.listed]
        kept = [rw for rw in done if not rw.listed]  # rewordings no rulebook list names: the card keeps its text
        probe = without_mark(card, {"text": new_text})
        if crossed:
            probe["edition"] = edition_number(n)  # an Edition Indicator is a number
        j = self.judge(probe, n, self.view)
        codes = {r.code for r in j.reasons}

        if j.status == "legal" and not crossed:
            notes = _kept_notes(kept, self.view) + advice.figure_notes(self, j, source)
            new_text, fixes = _prescribed(new_text, j)
            rewrites += fixes
            if rewrites:
                return Decision("rewritten", source, n, assumed, text=new_text, rewrites=tuple(rewrites), notes=notes,
                                warnings=tuple(j.warnings))
            return Decision("unchanged", source, n, assumed, notes=notes)

        reissuable = codes <= _REISSUE_CODES and (crossed or "cost-revised" in codes) and j.cost is not None
        # N's rulebook (or the revision's) may prune a card older than a cost revision ("Revised Levels")
        pruned = reissuable and not self.reissue and any(
            r.code == "cost-revised" and self._rule(self.view, n, r.edition) == "prune" for r in j.reasons)
        if reissuable and not pruned:
            # N's Edition Indicator answers every cost-revised reason (and a clean slate), the cost computed
            # under N every cost-mismatch: the re-issued card is legal in N
            if new_text is not None:  # a card of N, written as N's guide says (also its wordings no list names)
                new_text, rewrites, warnings = self._reissued_text(source, text, card, j)
            if new_text is not None:
                why = tuple(r for r in j.reasons if r.code == "cost-revised")
                if crossed:
                    why += self._clean_slate_reasons(source)
                return Decision("reissued", source, n, assumed, text=new_text if new_text != text else None,
                                cost=(card.get(j.figure), j.cost), figure=j.figure,
                                edition=(card.get("edition"), edition_number(n)), rewrites=tuple(rewrites),
                                reasons=why, notes=advice.printed_cost_notes(self, card, source, j.cost),
                                warnings=warnings)

        if crossed and j.status == "error":
            # unreadable in N (a clean slate gave a whole new catalog): judged as the older card it is
            j = self.judge(without_mark(card, {"text": new_text}), n, self.view)
            codes = {r.code for r in j.reasons}
        elif new_text != text:
            # kept as it was: its reasons quote the texts it prints, as check-cards does, where they are
            # the same reasons (the card reads its earlier wordings as the refurbished ones)
            own = self.judge(without_mark(card, {}), n, self.view)
            if own.status == j.status and [r.code for r in own.reasons] == [r.code for r in j.reasons]:
                j = own
        status = j.status if j.status != "legal" else "banned"
        notes = advice.printed_cost_notes(self, card, source, None) if "cost-mismatch" in codes else ()
        reissue = None
        if pruned and self._reissued_text(source, text, card, j)[0] is not None:
            reissue = (f"{j.figure} {card.get(j.figure)} → {j.cost}, Edition Indicator {card.get('edition')} → "
                       f"{edition_number(n)} (its other texts are valid in the {ordinal(n)} edition)")
        replacement = advice.replacement(self, probe, j) if status == "banned" else None
        remedy = advice.remedy(self, card, j, status, reissue, replacement)
        return _marked(Decision(status, source, n, assumed, reasons=tuple(j.reasons), notes=notes,
                                replacement=replacement, remedy=remedy), self.words)

    def _line_rewriter(self, passes: list[Pass], unlisted: bool) -> LineRewriter:
        """A rewriter through ``passes`` that reads joined components and variations as the parser does,
        under the systems of the editions from the first to the target."""
        from ..system import join_ends

        keys = [self.view.first] + [p.target for p in self.view.path(self.view.first, self.target) or ()]
        systems = [self.view.catalog(key).system for key in keys]
        return LineRewriter(passes, unlisted=unlisted, joins=join_ends(j for s in systems for j in s.joins),
                            variations=tuple(dict.fromkeys(v for s in systems for v in s.variations)))

    def _run(self, source: int, unlisted: bool = False) -> list[Any]:
        """What rewrites a card of edition ``source``: LineRewriters, with the clean-slate passes between.

        The text passes start from the base edition, not at source+1 (a card may print a wording its
        own edition already read as a later one), but after the last clean slate that gave a whole new
        catalog; a card already of the target edition is judged only.  ``unlisted``: also make the
        rewordings no rulebook list names (a card re-issued in N prints N's wordings)."""
        run = self._runs.get((source, unlisted))
        if run is None:
            run = []
            pending: list[Pass] = []
            own = self.view.resolve(source)
            begin = self.view.first
            for p in self.view.path(self.view.first, own) or ():
                declared = self.view.catalog(p.target).declared
                if p.clean_slate and declared is not None and declared.catalog_whole:
                    begin = p.target
            after_source = own == self.view.resolve(begin)
            for p in self.view.path(begin, self.target) if self.view.path(source, self.target) else []:
                if p.clean_slate and after_source:
                    if pending:
                        run.append(self._line_rewriter(pending, unlisted))
                        pending = []
                    run.append(p)
                    if p.rewrites:
                        pending.append(p)
                else:
                    pending.append(p)
                if p.target == own:
                    after_source = True
            if pending:
                run.append(self._line_rewriter(pending, unlisted))
            self._runs[(source, unlisted)] = run
        return run

    def _rewrite(self, source: int, text: str, unlisted: bool = False) -> tuple[str, list[TextRewrite], bool]:
        """(text, rewrites, crossed a clean slate with a successor for every component)."""
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
        return text, rewrites, crossed and not blocked

    def _reissued_text(self, source: int, text: str, card: dict, j: Any) -> tuple[str | None, list[TextRewrite], tuple]:
        """The text of a card re-issued in N, every wording N's and in the form N's guide prescribes, its
        rewrites and the warnings that form answers; ``None`` when so re-issued it would not be legal."""
        new_text, done, _ = self._rewrite(source, text, unlisted=True)

        def verdict_on(new_text: str) -> Any:
            return self.judge(without_mark(card, {"text": new_text, "edition": edition_number(self.target),
                                                  j.figure: j.cost}), self.target, self.view)

        verdict, musts = verdict_on(new_text), []
        if verdict.status != "legal":  # as N's must rules say to print it (", also " → " and " between costs)
            new_text, musts = _instead(new_text, verdict, j.warnings)
            verdict = verdict_on(new_text) if musts else verdict
        if verdict.status != "legal":
            return None, [], ()
        new_text, fixes = _prescribed(new_text, verdict)
        shoulds = [w for w in j.warnings if any(w.field == f"text[{m.line}]" for m in musts)]  # (written so too)
        return new_text, done + musts + fixes, tuple(shoulds + verdict.warnings)

    def _successors(self, p: Pass, text: str) -> tuple[str, list[TextRewrite], bool]:
        """Map every component to its successor across the clean slate ``p``; ok is False
        when a sentence cannot be read or a component has none."""
        from ..cards.sentence import read_sentence
        from ..history.clean_slate import Successor

        before = self.view.catalog(p.source)
        after = self.view.catalog(p.target)
        if not before.catalog_known or not after.catalog_known:
            return text, [], False
        declared = {s.component: s for s in after.successors}
        for old, new in p.successors:
            declared.setdefault(old, Successor(old, new, {}, ()))
        comps = after.by_id()
        empty_texts = {t.empty_text for t in before.system.types if t.empty_text}
        done: list[TextRewrite] = []
        ok = True

        def successor(number: int, raw: str) -> str | None:
            nonlocal ok
            if not ok or raw in empty_texts:
                return None
            use, _ = read_sentence(raw, before, self.view)
            succ = declared.get(use.component) if use is not None else None
            comp = comps.get(succ.successor) if succ is not None else None
            new = rendered(comp, {**use.values, **succ.binds}) if comp is not None else None
            ok = new is not None
            if new is None or new == use.sentence:
                return None
            done.append(TextRewrite(number, use.sentence, new, use.component, p.target, p.target,
                                    tuple(succ.sources), succ.successor))
            return new

        new_text = map_sentences(text, successor)
        return (new_text, done, True) if ok else (text, [], False)

    def _clean_slate_reasons(self, source: int) -> tuple[Reason, ...]:
        out = []
        for k in [p.target for p in self.view.path(source, self.target) or () if p.clean_slate]:
            decl = self.view.catalog(k).declared
            out.append(Reason("clean-slate", f"the {ordinal(k)} edition is a clean slate; every component of the "
                               "card has a declared successor", k, decl.sources if decl else ()))
        return tuple(out)


def _prescribed(text: str | None, j: Any) -> tuple[str | None, list[TextRewrite]]:
    """``text`` in the form the judged edition's guide prescribes (``j.prescribed``: "Target 1 on-field
    minion;" for "Target up to 1 on-field minion;"), with a rewrite per paragraph changed; else as it is."""
    if text is None or j.prescribed is None:
        return text, []
    fixes = []
    for number, (a, b) in enumerate(zip(text.split("\n"), j.prescribed.split("\n")), 1):
        if a == b:
            continue
        ws = [w for w in j.warnings if w.field == f"text[{number}]"]
        fixes.append(_paragraph_rewrite(number, a.strip(), b.strip(), ws, j.edition))
    return j.prescribed, fixes


def _paragraph_rewrite(number: int, old: str, new: str, rules: list[Reason], edition: Any) -> TextRewrite:
    """Paragraph ``number`` rewritten in ``edition`` to the form the card-writing ``rules`` on it prescribe."""
    sources = tuple(dict.fromkeys(s for r in rules for s in r.sources))
    return TextRewrite(number, old, new, None, edition, edition, sources, prescribed=tuple(r.message for r in rules))


def _instead(text: str, verdict: Any, shoulds: list[Reason]) -> tuple[str, list[TextRewrite]]:
    """``text`` with each paragraph a must rule says exactly what to print instead of (``Reason.instead``,
    which also keeps the *should* rules ``shoulds`` say), and a rewrite per paragraph so changed."""
    lines = text.split("\n")
    said: dict[int, list[Reason]] = {}
    for r in verdict.reasons:
        if r.code == "malformed" and r.instead and (r.field or "").startswith("text[") and r.field[5:-1].isdigit():
            said.setdefault(int(r.field[5:-1]), []).append(r)
    fixes = []
    for number, reasons in said.items():
        reasons += [w for w in shoulds if w.field == f"text[{number}]"]
        old = lines[number - 1].strip() if number <= len(lines) else reasons[0].instead
        if old != reasons[0].instead:
            lines[number - 1] = lines[number - 1].replace(old, reasons[0].instead, 1)
            fixes.append(_paragraph_rewrite(number, old, reasons[0].instead, reasons, verdict.edition))
    return "\n".join(lines), fixes


def _kept_notes(kept: list[TextRewrite], view: Any) -> tuple[str, ...]:
    """Say which texts the card keeps as printed although a later guide rewords them (the lists named in
    the words of the rewording edition's rulebook: "revised" texts up to the 12th, "refurbished" after)."""
    def revised(edition: Any) -> str:
        rulebook = view.catalog(edition).rulebook if edition in view.keys else None
        return (rulebook.terms.get("revised") if rulebook is not None else None) or "revised"

    return tuple(
        f'"{rw.old}" is kept as printed: the {ordinal(rw.edition) + " edition" if rw.edition else "later"} '
        f'guide rewords it "{rw.new}", and no rulebook list of {revised(rw.edition)} texts names it '
        "(the card reads as the new wording)"
        for rw in kept
        if rw.old.casefold() != rw.new.casefold())  # only the first letter: where a text stands says which
