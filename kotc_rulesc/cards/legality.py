"""Judge a card in one edition: legal, banned, error (unreadable) or unknown, with its reasons' codes:

* ``malformed`` — a missing or invalid field, an order or count rule broken, a variable not a positive whole number;
* ``unknown-text`` — a sentence that is no component of the edition;
* ``invalid`` — no Edition Indicator where the rulebook requires one (the 13th on);
* ``redacted`` — a component redacted by this edition; ``over-limit`` — a variable above its limit;
* ``cost-revised`` — a component's cost revised after the card's Edition Indicator (or it has none);
* ``clean-slate`` — a clean slate at or before the edition, the card's Edition Indicator missing or older;
* ``cost-mismatch`` — the printed cost differs from the computed one;
* ``unknown-fact`` — the answer depends on a fact no source gives.

``malformed`` and ``unknown-text`` make the status ``error``; any ban ``banned``; else an ``unknown-fact`` ``unknown``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping

from ..catalog import Catalog, ComponentState
from ..model import When, edition_number, ordinal
from ..value import Value
from .cost import card_cost
from .fields import CardFields, read_fields
from .model import BAN_CODES, ERROR_CODES, ParsedCard, Reason, Use, when_phrase
from .parse import parse_card

__all__ = ["CardJudge", "Judgement", "Reason", "cost_revision_rule", "judge", "judge_input"]


class Judgement(Value):
    """A card judged in one edition: its status and figure, and why (reasons, warnings, notes)."""

    __slots__ = ("index", "name", "status", "cost", "printed_cost", "reasons", "_notes", "parsed", "edition", "breakdown",
                 "line", "field_lines", "figure", "warnings", "prescribed", "ultra_points", "counts_ultra", "_later")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, index: int, name: str | None, status: str, cost: int | None, printed_cost: int | None,
                 reasons: list[Reason], notes: list[str], parsed: ParsedCard | None, edition: int | None = None,
                 breakdown: dict[str, Any] | None = None, line: int | None = None,
                 field_lines: Mapping[str, int] | None = None, figure: str = "cost", warnings: list[Reason] | None = None,
                 prescribed: str | None = None, ultra_points: int | None = None, counts_ultra: bool = False):
        self.index = index
        self.name = name
        self.status = status  # legal | banned | error | unknown
        self.cost = cost  # computed in the edition judged (its design edition's where the rulebook keeps that); None: unknown
        self.printed_cost = printed_cost
        self.reasons = reasons
        self._notes = notes
        self._later = None  # a last note, made when read (its figure costs a second card_cost: see judge)
        self.parsed = parsed
        self.edition = edition  # the edition judged
        self.breakdown = breakdown  # the cost breakdown (see cost.card_cost)
        self.line = line  # where the card starts in its collection, when known
        self.field_lines = {} if field_lines is None else field_lines
        self.figure = figure  # what the edition calls the number computed: "cost", or "level" from the published 11th
        self.warnings = [] if warnings is None else warnings  # the *should* rules the card breaks
        self.prescribed = prescribed  # the card's text as the rules prescribe it, where it differs
        self.ultra_points = ultra_points  # its texts' "[+N]" where the edition counts them (the 17th)
        self.counts_ultra = counts_ultra  # the edition's rulebook limits a deck's Ultra Points

    def placed(self, index: int, name: str | None, line: int | None, field_lines: Mapping[str, int]) -> "Judgement":
        """This judgement of a design for one card of it: its own place and name, all else shared."""
        return Judgement(index, name, self.status, self.cost, self.printed_cost, self.reasons, self.notes, self.parsed,
                         self.edition, self.breakdown, line, field_lines, self.figure, self.warnings, self.prescribed,
                         self.ultra_points, self.counts_ultra)

    @property
    def notes(self) -> list[str]:
        if self._later is not None:
            self._notes = list(dict.fromkeys([*self._notes, self._later()]))
            self._later = None
        return self._notes

    def line_of(self, reason: Reason) -> int | None:
        """The line of the reason's field ("text[2]": its paragraph, else the text), else the card's."""
        lines, key = self.field_lines, reason.field
        if key and key not in lines:
            key = key.partition("[")[0]
        return lines[key] if key and key in lines else self.line

    def to_json(self) -> dict[str, Any]:
        out = {"index": self.index, "name": self.name, "status": self.status, self.figure: self.cost,
               f"printed_{self.figure}": self.printed_cost}
        if self.counts_ultra:
            out["ultra_points"] = self.ultra_points
        out["reasons"] = [{**r.to_json(), "line": self.line_of(r)} for r in self.reasons]
        out["warnings"] = [{**w.to_json(), "line": self.line_of(w)} for w in self.warnings]
        out["notes"] = list(self.notes)
        return out


def status_of(reasons: list[Reason]) -> str:
    codes = {r.code for r in reasons}
    if codes & ERROR_CODES:
        return "error"
    if codes & BAN_CODES:
        return "banned"
    if "unknown-fact" in codes:
        return "unknown"
    return "legal"


def _redaction_sources(view: Any, comp: ComponentState) -> tuple[str, ...]:
    """The sources of a component's redaction, as the last pass that redacted it gives them."""
    bans = [b.sources for p in view.passes() for b in p.bans if b.component == comp.id]
    return (bans[-1] if bans else None) or comp.sources


def _figure_is(figure: str, value: int) -> str:
    """ "the card costs 9" (English has the verb), "the card's level is 9" """
    return f"the card costs {value}" if figure == "cost" else f"the card's {figure} is {value}"


def _older(indicator: int | None, when: When) -> str:
    """Is a card bearing ``indicator`` older than the event ``when``? yes / no / unknown."""
    if indicator is None:
        return "yes"
    if when.edition is not None:
        return "yes" if indicator < when.edition else "no"
    if indicator >= when.by:
        return "no"
    if when.after is not None and indicator <= when.after:
        return "yes"
    return "unknown"


def _kept_figure(figure: str, design: int, then: Any, edition: Any, total: int) -> str:
    """Why a card's figure is its design edition's, not the edition judged's own."""
    return (f"{figure} {design} is the card's design edition's (the {ordinal(then)}): its texts as read in the "
            f"{ordinal(edition)} with the {ordinal(then)} edition's formulas and rule; by the {ordinal(edition)} "
            f"edition's own {_figure_is(figure, total)}, but its rulebook's lists, which name every case in which "
            "a card is pruned, name none that prunes it")


def _bears(indicator: int | None) -> str:
    return "bears no Edition Indicator" if indicator is None else f"bears the Edition Indicator {indicator}"


def cost_revision_rule(view: Any, edition: Any, revised_in: int | None) -> str:
    """What becomes of a card older than a cost revision of one of its texts, judged in ``edition``:
    ``"prune"`` or ``"reissue"``, as the rulebook in force says, else the revision's, else "reissue" (the 9th's)."""
    for key in (edition, revised_in):
        if key is None or key not in view.keys:
            continue
        rulebook = view.catalog(key).rulebook
        if rulebook is not None and rulebook.cost_revised is not None:
            return rulebook.cost_revised
    return "reissue"


def term(rulebook: Any, word: str) -> str:
    """A rulebook's own word for ``word`` (its ``terms``): "pruned" for banned from the 13th on."""
    return (rulebook.terms.get(word) if rulebook is not None else None) or word


def _component_reasons(use: Use, fields: CardFields, catalog: Catalog, view: Any) -> list[Reason]:
    n = catalog.edition
    comp = use.state or catalog.by_id()[use.component]
    what = f'the {catalog.system.noun(comp.kind)} "{use.sentence}"'
    out: list[Reason] = []
    if comp.status == "redacted":
        when = comp.redacted
        out.append(Reason("redacted", f"{what} is redacted (banned) {when_phrase(when, 'since')}",
                          when.edition if when else None, _redaction_sources(view, comp)))
    elif comp.status == "unknown":
        when = comp.redacted
        out.append(Reason(
            "unknown-fact",
            f"{what} was redacted {when_phrase(when)}; no source says whether it already was in the {ordinal(n)}",
            None, _redaction_sources(view, comp)))
    for var, limit in sorted(comp.limits.items()):
        value = use.values.get(var)
        if value is None:
            continue
        change = next((ch for ch in reversed(comp.limit_changes) if var in ch.now), None)
        sources = change.sources if change else comp.sources
        if limit is None:
            out.append(Reason(
                "unknown-fact",
                f"{what} sets {var} = {value}, and no source gives the limit on [{var}] in the {ordinal(n)} edition",
                None, sources))
        elif value > limit:
            since = f" (limit revised {when_phrase(change.when)})" if change else ""
            out.append(Reason(
                "over-limit",
                f"{what} sets {var} = {value}, above the limit {{{var} ≤ {limit}}} of the {ordinal(n)} edition{since}",
                change.when.edition if change else n, sources))
    for change in reversed(comp.cost_changes):
        older = _older(fields.edition, change.when)
        if older == "no" or not change.listed:  # (an unlisted change prunes nothing: see judge)
            continue
        was, now = (c.notation() if c else "unknown" for c in (change.was, change.now))
        if older == "yes" and change.when.happened_by(n) == "yes":
            if cost_revision_rule(view, n, change.when.edition) == "prune":
                this = (f"this card {_bears(None)}" if fields.edition is None
                        else f"this card's design edition is the {ordinal(fields.edition)} edition")
                rule = (f"a card containing it whose design edition is older than the revision edition is "
                        f"{term(catalog.rulebook, 'banned')}, and {this}")
                figure = f"effect on the {catalog.system.figure}"
            else:
                rule = (f"a card using it must bear an Edition Indicator of that edition or later, "
                        f"and this card {_bears(fields.edition)}")
                figure = "cost"
            out.append(Reason(
                "cost-revised",
                f"{what} had its {figure} revised {when_phrase(change.when)} (was {was}, now {now}); {rule}",
                change.when.edition, change.sources))
        else:
            out.append(Reason(
                "unknown-fact",
                f"{what} had its cost revised {when_phrase(change.when)} (was {was}); no source says whether "
                f"that was before the {ordinal(n)} and after this card's edition ({_bears(fields.edition)})",
                None, change.sources))
        break
    return out


def _design_edition(fields: CardFields, parsed: ParsedCard | None, catalog: Catalog, view: Any) -> tuple[str | None, Any]:
    """Where the rulebook keeps a card's design-edition figure (``exhaustive_lists``: only a listed revision
    prunes) and that edition follows the last clean slate: how its figure there is had — "same" (nothing
    changed since), "rule" (its card-cost rule changed), "full" (a formula changed) — and its catalog."""
    rulebook = catalog.rulebook
    design = fields.edition
    if parsed is None or rulebook is None or not rulebook.exhaustive_lists or design is None or design >= catalog.number:
        return None, None
    if design not in view.keys or (catalog.clean_slate is not None and design < catalog.clean_slate):
        return None, None
    if not isinstance(catalog.edition, int) and not view.path(design, catalog.edition):
        return None, None  # (a main-line edition after the clean slate is on the way from the design edition)
    then = view.catalog(design)
    comps = then.by_id()
    if not all(u.component in comps for u in parsed.uses()):
        return None, None  # a text that did not exist yet: the edition judged's figure is the one
    if any(_older(design, ch.when) == "yes" for u in parsed.uses() if u.state is not None for ch in u.state.cost_changes):
        return "full", then
    if then.cost_rule is None or catalog.cost_rule is None or then.cost_rule.edition != catalog.cost_rule.edition:
        return "rule", then
    return "same", then


def _system_sources(catalog: Catalog) -> tuple[str, ...]:
    """What a reason on a card's types, stats and fields cites: the guide that last stated the edition's
    card-building system — its level rule's, which a guide restates with it ("Minions have SP, HP"), unless
    a later edition restated the system alone."""
    system, rule = catalog.system, catalog.cost_rule
    if rule is None or edition_number(system.edition) > edition_number(rule.edition):
        return system.sources
    return rule.sources


def _other_fields(card: dict, catalog: Catalog, fields: CardFields, view: Any) -> list[Reason]:
    """A field of another edition's system that this one's card types have not ("cost" on a 17th card,
    "offense" on a minion): malformed, naming the field it is here, in the words of the edition judged."""
    system = catalog.system
    own = {system.figure, *(st.name for t in system.types for st in t.stats)}
    found = [f for f in view.decisive_fields() if f not in ("type", "edition", "text") and f not in own
             and card.get(f) is not None]
    if not found:
        return []
    aliases = view.type_aliases()
    right: dict[str, str] = {}
    for key in view.keys:
        other = view.catalog(key).system
        right.setdefault(other.figure, system.figure)
        for t in other.types:
            here = system.card_type(t.id) or system.card_type(aliases.get(t.id, ""))
            if here is None or (fields.type is not None and here.id != fields.type):
                continue
            for st, mine in zip(t.stats, here.stats):
                right.setdefault(st.name, mine.name)
    out = []
    for f in found:
        to = right.get(f)
        if to == system.figure:
            say = f"the {ordinal(catalog.edition)} edition's cards print a {system.figure_title}, not a {f}: write '{to}: {card[f]!r}'"
            # an edition of the same number whose cards print it (the 11th's pre-release prints a cost)
            say += "".join(f", or judge it as a card of the {ordinal(k)}, whose cards print a {f}: -e {k}" for k in view.keys
                           if k != catalog.edition and fields.edition is not None and edition_number(k) == fields.edition
                           and view.catalog(k).system.figure == f)
        elif to is not None:
            say = f"a {fields.type or 'card'} of this edition has no {f} (another edition's word): its {to} is '{to}'"
        else:
            say = f"a {fields.type or 'card'} of this edition has no {f} (another edition's field)"
        out.append(Reason("malformed", f"{f}: {card[f]!r}: {say}", None, _system_sources(catalog), f))
    return out


def judge(card: dict, edition: int, view: Any, index: int = 0) -> Judgement:
    """Judge ``card`` in ``edition`` using ``view`` (a :class:`~kotc_rulesc.view.RulesView`)."""
    catalog = view.catalog(edition)
    rule_sources = catalog.cost_rule.sources if catalog.cost_rule else ()
    fields, reasons = read_fields(card, catalog.system, edition, view.newest, _system_sources(catalog),
                                  aliases=view.type_aliases())
    notes: list[str] = []
    name = fields.name
    if name is None and isinstance(card, dict) and isinstance(card.get("name"), str):
        name = card["name"]
    rulebook = catalog.rulebook
    own_words = {w.lower() for w in (rulebook.terms.values() if rulebook else ())}
    if fields.printed_type is not None and fields.printed_type != fields.type and fields.printed_type not in own_words:
        notes.append(f'type "{fields.printed_type}" (the word of another edition) is read as {fields.type}')
    if fields.edition is not None and fields.edition > catalog.number:
        notes.append(f"the card bears the Edition Indicator {fields.edition}; it is judged by the rules of the {ordinal(edition)}")

    misprinted = any(r.field == "edition" for r in reasons)  # an Edition Indicator, though no valid one
    if rulebook is not None and rulebook.edition_indicator == "required" and fields.edition is None and not misprinted:
        reasons.append(Reason(
            "invalid",
            f"the {ordinal(rulebook.edition)} edition's rulebook: any card with no Edition Indicator is invalid, "
            "and this card bears none",
            edition_number(rulebook.edition), rulebook.sources, "edition"))

    clean = catalog.clean_slate  # a main-line edition (a number)
    older_catalog = False  # the card predates a clean slate that gave a whole new catalog
    if clean is not None and not misprinted and (fields.edition is None or fields.edition < clean):
        decl = view.catalog(clean).declared
        older_catalog = any(
            c.declared is not None and c.declared.catalog_whole
            for c in (view.catalog(k) for k in catalog.clean_slates if fields.edition is None or k > fields.edition)
        )
        slate = view.catalog(clean).rulebook
        banned, bears = term(slate, "banned"), _bears(fields.edition)
        if slate is not None and slate.edition_indicator == "required":
            # (the 13th on: "any card whose design edition is prior to 13th Edition is pruned"; one with no
            # Edition Indicator is "invalid", its own reason)
            rule = f"any card whose design edition is older than the {ordinal(clean)} is {banned}"
            if fields.edition is None:
                bears += ": nothing shows a later design edition"
        else:
            rule = f"every card whose Edition Indicator is missing or older than {clean} is {banned}"
        reasons.append(Reason("clean-slate", f"the {ordinal(clean)} edition is a clean slate: {rule}, and this card "
                              f"{bears}", clean, decl.sources if decl else ()))

    parsed = None
    cost_result = None
    design_by, then = None, None  # how the design edition's figure is had (_design_edition)
    reads_here = False  # a card without an Edition Indicator whose text is this edition's
    if older_catalog and fields.edition is None and catalog.catalog_known and fields.type is not None \
            and fields.paragraphs is not None and not _other_fields(card, catalog, fields, view):
        reads_here = parse_card(card, catalog, view)[0] is not None
        if reads_here:
            older_catalog = False
            missing = f"; its text reads as the {ordinal(edition)} edition's: add `edition: {edition_number(edition)}`"
            at = next(i for i, r in enumerate(reasons) if r.code in ("invalid", "clean-slate"))
            reasons[at] = reasons[at].replace(message=reasons[at].message + missing)
    if not catalog.catalog_known:
        if clean is None or not any(r.code == "clean-slate" for r in reasons):
            decl = catalog.declared
            reasons.append(Reason(
                "unknown-fact", f"the component catalog of the {ordinal(edition)} edition is not in the sources: "
                "this card's text cannot be checked against it",
                edition, decl.sources if decl else (), "text"))
    elif older_catalog:
        # printed for an earlier system: its stats and figure are not checked against this one either
        figures = {catalog.system.figure, *(st.name for t in catalog.system.types for st in t.stats)}
        reasons = [r for r in reasons if not (r.code == "malformed" and r.field in figures)]
        if fields.edition is None:
            notes.append(f"it bears no Edition Indicator, and its text is not the {ordinal(edition)} edition's (a clean "
                         "slate replaced the catalog whole): it is not read against it")
        else:
            notes.append(f"its text is of an older catalog than the {ordinal(edition)} edition's, which a clean slate "
                         "replaced whole: it is not read against it")
    elif fields.type is not None and fields.paragraphs is not None:
        reasons.extend(r.replace(edition=edition) for r in _other_fields(card, catalog, fields, view))
        parsed, problems, parse_notes = parse_card(card, catalog, view)
        reasons.extend(problems)
        notes.extend(parse_notes)
        if parsed is not None:
            for paragraph, use in parsed.located_uses():
                fld = f"text[{paragraph}]" if paragraph else "text"
                reasons.extend(r.replace(field=fld) for r in _component_reasons(use, fields, catalog, view))
            if not any(r.code == "malformed" for r in reasons):
                design_by, then = _design_edition(fields, parsed, catalog, view)
                other = then.cost_rule if design_by == "rule" else None
                cost_result = card_cost(card, parsed, catalog, fields.type, other)
                notes.extend(cost_result.notes)

    total = cost_result.total if cost_result else None
    figure = catalog.system.figure  # "cost" up to the 10th, "level" from the published 11th
    # formulas a guide changed after the card's design edition with no rulebook list naming it: not pruned
    for use in parsed.uses() if parsed is not None else ():
        for change in use.state.cost_changes if use.state is not None else ():
            if not change.listed and _older(fields.edition, change.when) == "yes" and change.when.happened_by(edition) == "yes":
                was, now = (c.notation() if c else "unknown" for c in (change.was, change.now))
                notes.append(f'the formula of "{use.sentence}" changed {when_phrase(change.when)} ({was} → {now}) '
                             "with no rulebook list naming it: the card, designed before, is not pruned by it")
    design = None  # the card's figure in its design edition, where the rulebook keeps that one
    later = None  # the last note, made when read (Judgement.notes)
    if reads_here and total is not None:  # its design edition is not known: its printed figure is not judged
        printed = f" (printed {fields.cost})" if fields.cost is not None and fields.cost != total else ""
        notes.append(f"with `edition: {edition_number(edition)}` its {figure} would be {total}{printed}")
    elif cost_result is not None:
        revised = any(r.code == "cost-revised" for r in reasons)
        # one figure is right, printed or not: its design edition's where the rulebook keeps it, else the edition judged's
        if total is not None and not revised and design_by is not None:
            design = {"same": total, "rule": cost_result.other}.get(design_by)
            if design_by == "full":  # its texts as read here, the design edition's formulas and rule
                design = card_cost(card, parsed.in_states(then.by_id()), then, fields.type).total
            if design is not None and then.cost_rule is not None:  # the guide it is figured by
                rule_sources = then.cost_rule.sources
            then = then.edition
        if fields.cost is None:
            if design is not None and design != total:
                notes.append("the " + _kept_figure(figure, design, then, edition, total))
        elif total is None:
            reasons.append(Reason(
                "unknown-fact",
                f"the printed {figure} {fields.cost} cannot be checked: the {figure} in the {ordinal(edition)} edition is unknown",
                None, rule_sources, figure))
        elif revised and fields.cost != total:  # (its figure before the revision is figured when a report asks)
            later = partial(_revision_note, dict(card), fields, parsed, catalog, view, reasons,
                            then if design_by == "full" else None, total)
        elif design is not None:
            ours = f"the {ordinal(then)} edition's rules" if then == edition else f"its design edition's (the {ordinal(then)})"
            if fields.cost == design and design != total:
                notes.append("the printed " + _kept_figure(figure, design, then, edition, total))
            elif fields.cost != design:
                also = "" if design == total else f" (by the {ordinal(edition)} edition's own it would be {total}, which is not the card's)"
                reasons.append(Reason(
                    "cost-mismatch",
                    f"the printed {figure} is {fields.cost}, but {_figure_is(figure, design)} by {ours}: its texts as read "
                    f"in the {ordinal(edition)} edition, with the formulas and rule of the edition it was designed in{also}",
                    edition, rule_sources, figure))
        elif fields.cost != total:
            reasons.append(Reason(
                "cost-mismatch",
                f"the printed {figure} is {fields.cost}, but {_figure_is(figure, total)} in the {ordinal(edition)} edition",
                edition, rule_sources, figure))
    counts_ultra = rulebook is not None and rulebook.deck_ultra_points is not None
    ultra, warnings, prescribed = None, [], None
    if parsed is not None:
        ultra = sum(u.state.ultra for u in parsed.uses() if u.state is not None) if counts_ultra else None
        warnings = list(parsed.warnings)
        if parsed.prescribed:  # the text with each paragraph the rules prescribe otherwise in its place
            lines, printed = card["text"].split("\n"), dict(fields.paragraphs)
            for line, paragraph in parsed.prescribed.items():
                lines[line - 1] = lines[line - 1].replace(printed[line], paragraph, 1)
            prescribed = "\n".join(lines)
    j = Judgement(index, name, status_of(reasons), total if design is None else design, fields.cost, reasons,
                  list(dict.fromkeys(notes)), parsed,
                  edition, cost_result.breakdown if cost_result else None, figure=figure, warnings=warnings,
                  prescribed=prescribed, ultra_points=ultra, counts_ultra=counts_ultra)
    j._later = later
    return j


def _revision_note(card: dict, fields: CardFields, parsed: ParsedCard, catalog: Catalog, view: Any,
                   reasons: list[Reason], then: Catalog | None, total: int) -> str:
    """The note on a revised card's printed figure, not its figure here: from before the revision, or
    wrong there too.  Its figure there is had in ``then``, else its design edition's catalog, or (no Edition
    Indicator) the one before the earliest revision, where its formulas are known and costed alike."""
    edition, figure = catalog.edition, catalog.system.figure
    if then is None:
        revisions = [r.edition for r in reasons if r.code == "cost-revised" and isinstance(r.edition, int)]
        key = fields.edition if fields.edition is not None else min(revisions) - 1 if revisions else None
        then = view.catalog(key) if key is not None and key in view.keys else None
        comps = then.by_id() if then is not None else {}
        if then is not None and (not then.catalog_known or then.system.figure != figure
                                 or not all(u.component in comps for u in parsed.uses())):
            then = None
    was = card_cost(card, parsed.in_states(then.by_id()), then, fields.type).total if then is not None else None
    now = f"in the {ordinal(edition)} edition {_figure_is(figure, total)}"
    if was is None or was == fields.cost:
        return f"the printed {figure} {fields.cost} is from before the cost revision; {now}"
    there = f"the card cost {was}" if figure == "cost" else f"its {figure} was {was}"
    if fields.edition is None:
        return (f"the printed {figure} {fields.cost} was not the card's before the cost revision either "
                f"({there} in the {ordinal(then.edition)} edition); {now}")
    return (f"the printed {figure} {fields.cost} was already wrong in the {ordinal(then.edition)} edition "
            f"({there} there); {now}")


def judge_input(item: Any, edition: int, view: Any) -> Judgement:
    """Judge one :class:`~kotc_rulesc.cards.collection.CardInput` (a card, or what made it unreadable)."""
    if item.card is None:
        reasons = [Reason("malformed", p.message, edition, (), None) for p in item.problems]
        return Judgement(item.index, None, "error", None, None, reasons, [], None, edition, None, item.line,
                         figure=view.catalog(edition).system.figure)
    j = judge(item.card, edition, view, item.index)
    j.line = item.line
    j.field_lines = dict(item.field_lines)
    return j


class CardJudge:
    """Judges card after card in one edition, as :func:`judge_input` does, each design once
    (:class:`~kotc_rulesc.cards.decisive.DecisionMemo`): a card's :class:`Judgement` has its own place and
    name and shares the rest with its design's, which nobody modifies."""

    def __init__(self, edition: Any, view: Any, cache: int = 8192):
        from .decisive import DecisionMemo

        self.edition = edition
        self.view = view
        self.memo = DecisionMemo(view, cache)
        self._judge = lambda card: judge(card, edition, view)

    def __call__(self, item: Any) -> Judgement:
        card = item.card
        if card is None:
            return judge_input(item, self.edition, self.view)
        j = self.memo.decide(card, self._judge, item.design)
        name = card.get("name")
        return j.placed(item.index, name if isinstance(name, str) else None, item.line, item.field_lines)
