"""The docs site's "How to build a card" pages, one per card-building system, written from its ``system:`` data
and card-cost rule, never from a template that knows a card type or a kind: each section by one
function.  Editions that share a system and a rule share a page.
"""

from __future__ import annotations

from typing import Any

from . import prose
from .prose import listing
from .model import CostRule, EditionKey, ordinal
from .system import System


def _how_many(low: int, high: int | None, noun: str) -> str:
    """ "any number of abilities", "exactly 1 ability", "1 or more effects", "up to 2 …" """
    plural = noun if noun.endswith("s") else noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    if high is None:
        return f"{low} or more {plural}" if low else f"any number of {plural}"
    if low == high:
        return f"exactly {low} {noun if low == 1 else plural}"
    return f"{low} to {high} {plural}" if low else f"up to {high} {noun if high == 1 else plural}"


def _types(system: System) -> dict[str, Any]:
    items = []
    for t in system.types:
        stats = [st.describe() for st in t.stats]
        caps = " in capitals" if system.naming is None or system.naming.case == "upper" else ""  # the 5th: any case
        names = {"required": f", each named{caps} (NAME: …)", "optional": f"; an ability may be named{caps} (NAME: …)",
                 "none": ", unnamed"}.get(t.names, "")
        text = (f"A {t.id} prints " + (listing(stats) if stats else "no stats") + " and has "
                + _how_many(t.abilities_min, t.abilities_max, "ability") + names + ".")
        if t.empty_text:
            text += f" With no ability it {'prints' if t.empty_modal == 'must' else 'may print'} “{t.empty_text}”."
        items.append(text)
    return {"id": "card-types", "title": "Card types",
            "paragraphs": [f"There are {len(system.types)} types of card. Each prints its {system.figure_title} "
                           "and the numbers below (its stats)."], "items": items}


def _components(system: System) -> dict[str, Any]:
    items = [f"{k.title}: " + prose.kind_intro(system, k.id) for k in system.kinds]
    return {"id": "components", "title": "Components",
            "paragraphs": [f"A card's text is made of components: the texts the Card Building Guide lists, each in one "
                           f"of {len(system.kinds)} sections, with the numbers a card chooses in place of [x], [y] "
                           "and [z]. The edition's page lists them; the sections are:"],
            "items": items}


def _order(system: System, kinds: tuple[str, ...]) -> list[str]:
    return [f"{k.title}: " + _how_many(k.min, k.max, k.noun) + (" (optional)" if k.min == 0 else "")
            for k in map(system.kind, kinds)]


def _ability(system: System) -> dict[str, Any]:
    card = system.kinds_at("card")
    paragraphs = []
    if card:
        paragraphs.append("Before any ability, a card may print " + listing(
            [f"a {k.noun} ({listing(list(k.types))} only)" if k.types else f"a {k.noun}" for k in card], "or")
            + " as its first paragraph.")
    paragraphs.append("An ability is one paragraph of the card's text, made of these parts in this order:")
    items = _order(system, system.ability)
    section = {"id": "ability", "title": "An ability", "paragraphs": paragraphs, "items": items}
    if system.sub_ability:
        section["items"].append("Sub-abilities: 1 or more, each one sentence")
        section.update(after=["A sub-ability is one sentence, made of these parts in this order:"],
                       after_items=_order(system, system.sub_ability))
    return section


#: how a rule's modal reads at the head of its line ("must" breaks the card; "should" warns)
_MODAL = {"must": "Must", "should": "Should (else a warning)", "may": "May"}


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _rule(modal: str, text: str, quote: str) -> str:
    return f"{_MODAL.get(modal, modal.capitalize())}: {text} — “{quote}”"


def _forms(forms: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    return "; ".join(f"“{words.strip()}” → " + " or ".join(f"“{c.strip()}”" if c.strip() else "nothing" for c in choices)
                     for words, choices in forms)


def _writing(system: System) -> dict[str, Any] | None:
    """The card-writing rules of the system (rules/README.md, "Card-writing rules"), each with how its
    document words it (must, should, may) and a brief quote."""
    items = []
    a = system.agreement
    if a is not None:
        words = ", ".join(f"{p} → {s}" for p, s in a.nouns + a.verbs)
        items.append(_rule(a.modal, f"where a number is 1, the words that count it are singular ({words})", a.quote))
    for v in system.variations:
        where = " where the targets can never be more than one" if v.when == "one-target" else ""
        kinds = listing([system.noun(k) + "s" for k in v.kinds if k in system.kind_ids] or ["texts"])
        items.append(_rule(v.modal, f"in {kinds}{where}: {_forms(v.forms)}", v.quote))
    for j in system.joins:
        how = (f"“{j.series[0].strip()}” (two), or commas and “{j.series[2].strip()}” before the last (three or more)" if j.series
               else " or ".join(f"“{w.strip()}”" for w in j.words))
        pair = (f"two {system.noun(j.after)}s" if j.after == j.before
                else f"{_a(system.noun(j.after))} and the {system.noun(j.before)} after it")
        items.append(_rule(j.modal, f"{pair} are joined by {how}, in place of the “{j.end}” of the first", j.quote))
    for c in system.capitals:
        kinds = listing([system.noun(k) for k in c.kinds if k in system.kind_ids] or ["text"])
        items.append(_rule(c.modal, f"{_a(kinds)} that opens its ability or sub-ability starts with a capital letter", c.quote))
    if system.naming is not None:
        n = system.naming
        case = "in capital letters, " if n.case == "upper" else ""
        items.append(_rule(n.modal, f"an ability's name stands at the start of its paragraph, {case}followed by a colon", n.quote))
    if system.tutorial is not None:
        t = system.tutorial
        italics = " (in italics: " + _MODAL.get(t.italics, t.italics).split(" ")[0].lower() + ")" if t.italics else ""
        items.append(_rule(t.modal, f"tutorial text is a sentence in parentheses{italics}, which no rule costs", t.quote))
    if not items:
        return None
    return {"id": "writing", "title": "Writing the texts",
            "paragraphs": ["How a component's text is written on a card, as the edition's documents say it. A card "
                           "that breaks a must is malformed; one that breaks a should is legal with a warning that "
                           "gives the text to print instead (`--strict` makes it fail):"],
            "items": items}


def _figure(system: System, rule: CostRule | None) -> dict[str, Any]:
    section = {"id": "figure", "title": system.figure_title.capitalize()}
    if rule is None:
        unknown = f"No source states how the {system.figure_title} is computed: it is unknown."
        return {**section, "paragraphs": [unknown]}
    inputs = [f"{name}: {meaning}" for name, meaning in  # (once each: every card type reads ability_costs)
              {n: m for scope in system.rule_scopes() for n, m in system.rule_inputs(scope).items()}.items()]
    return {**section, "paragraphs": [prose.cost_intro(system)], "items": inputs,
            "formulas": [{"name": name, "formula": f} for name, f in rule.parts()],
            "after": ["A formula of a component is evaluated exactly, with the card's numbers; a fraction is rounded "
                      "up where the rule says ceil. `kotc-rulesc cost` shows every step of it for a card."]}


#: what a section may hold besides its id and title (a section function gives what it needs)
_EMPTY: dict[str, list] = {"paragraphs": [], "items": [], "formulas": [], "after": [], "after_items": []}


def _ultra(cats: list[Any]) -> dict[str, Any] | None:
    """The Ultra Points, for the editions of a page whose guides list ultra texts (the 17th's "Ultra Points")."""
    ultra = [c for c in cats if any(x.ultra for x in c.components or ())]
    if not ultra:
        return None
    deck = ultra[0].rulebook.deck_ultra_points if ultra[0].rulebook else None
    return {"id": "ultra", "title": "Ultra Points", "paragraphs": [
        f"In the {listing([ordinal(c.edition) for c in ultra])} Edition{'s' if len(ultra) > 1 else ''}, some texts of "
        "the guide are ultra texts, listed apart with their Ultra Points in square brackets ([+1] or more). A card is "
        f"worth the sum of its texts' Ultra Points (0 for a text without); they do not change its "
        f"{ultra[0].system.figure_title}." + (f" A deck may hold at most {deck} Ultra Points in all." if deck else "")]}


def building_sources(cats: list[Any]) -> set[str]:
    """What a page cites: each edition's system and card-cost rule, and its ultra texts' and deck limit's."""
    out = {s for c in cats for s in (*c.system.sources, *(c.cost_rule.sources if c.cost_rule else ()))}
    for c in cats:
        if any(x.ultra for x in c.components or ()):
            out.update(s for x in c.components if x.ultra for s in x.sources)
            out.update(c.rulebook.sources if c.rulebook and c.rulebook.deck_ultra_points else ())
    return out


def building_groups(catalogs: list[Any]) -> list[tuple[list[EditionKey], list[Any]]]:
    """The editions that share a system and a rule, grouped (in the order given): ``[(keys, catalogs)]``."""
    groups: dict[Any, tuple[list[EditionKey], list[Any]]] = {}
    for cat in catalogs:
        rule = tuple((n, f.notation()) for n, f in cat.cost_rule.parts()) if cat.cost_rule else None
        keys, cats = groups.setdefault((cat.system, rule), ([], []))
        keys.append(cat.edition)
        cats.append(cat)
    return list(groups.values())


def building_view(keys: list[EditionKey], cat: Any, cats: list[Any] = ()) -> dict[str, Any]:
    """The page of the editions ``keys`` (whose first's catalog is ``cat``; ``cats``: all of theirs)."""
    plural, say = ("s", "say") if len(keys) > 1 else ("", "says")
    system = cat.system
    sections = (_types(system), _components(system), _ability(system), _writing(system),
                _figure(system, cat.cost_rule), _ultra(list(cats)))
    last = f"–{ordinal(keys[-1])}" if len(keys) > 1 else ""
    return {
        "editions": keys,
        "title": f"How to build a card: {ordinal(keys[0])}{last} Edition{plural}",
        "lede": (f"How a card is built in the {listing([ordinal(k) for k in keys])} Edition{plural}, as the Card "
                 f"Building Guide{plural} {say}: its types, its components, the grammar of an ability and how its "
                 f"{cat.system.figure_title} is computed."),
        "sections": [{**_EMPTY, **s} for s in sections if s is not None],
    }
