"""The engine's objects turned into the API's results, and what the API reads of the engine that it
does not yet say in a public function.

The API stands on the engine's entry points — :func:`~kotc_rulesc.cards.legality.judge`,
:class:`~kotc_rulesc.cards.legality.CardJudge`, :func:`~kotc_rulesc.cards.collection.read_collection`,
:class:`~kotc_rulesc.cards.deck.DeckTally`, :class:`~kotc_rulesc.migrate.plan.Migrator` and
:func:`~kotc_rulesc.migrate.edit.edit_dict` — and on the catalogs of the rules view.  Three things
it needs are not entry points yet, and are read here alone, each in one function, so that the
engine can offer them without the API changing (and :func:`wording_of` holds one sentence against
the card-writing rules as the parser holds a paragraph, with the parser's own reader and
:class:`~kotc_rulesc.cards.writing.Writing`):

* :func:`nearest` — the components nearest to an unknown sentence: the card parser's own
  suggestions (``unknown.closest``, what an ``unknown-text`` reason's "did you mean" names);
* :func:`unknown_texts` — which sentence a ``unknown-text`` reason is about (its message quotes
  it first; a reason does not carry it as a field);
* :func:`warnings_of` — the warnings of a verdict (a judgement has none before issue 24).
"""

from __future__ import annotations

import re
from typing import Any

from ..model import edition_number, ordinal
from .values import CardSystem, CardType, Component, Edition, Kind, Stat, UnknownText, Wording

__all__ = ["component_of", "edition_of", "nearest", "sources_of", "system_of", "unknown_texts", "wording_of"]


def edition_of(view: Any, key: Any) -> Edition:
    catalog = view.catalog(key)
    pre = not isinstance(key, int)
    return Edition(key, edition_number(key), f"{ordinal(edition_number(key))} pre-release" if pre else ordinal(key), pre,
                   catalog.catalog_known, catalog.system.figure, key == view.newest_with_catalog())


_INDICATOR = {True: "printed", "required": "required", False: "none"}


def system_of(catalog: Any) -> CardSystem:
    """What a card form of the catalog's edition asks for, from its ``system:`` and its rulebook."""
    system = catalog.system
    rulebook = catalog.rulebook
    deck = rulebook.deck if rulebook is not None else None
    return CardSystem(
        edition=catalog.edition,
        figure=system.figure,
        figure_title=system.figure_title,
        types=tuple(CardType(t.id, tuple(Stat(s.name, s.min, s.max) for s in t.stats), t.abilities_min, t.abilities_max,
                             t.names, t.empty_text) for t in system.types),
        kinds=tuple(Kind(k.id, k.noun, k.title, k.role, k.place, tuple(k.types), k.min, k.max) for k in system.kinds),
        ability=tuple(system.ability),
        sub_ability=tuple(system.sub_ability),
        edition_indicator=_INDICATOR.get(rulebook.edition_indicator) if rulebook is not None else None,
        deck=(deck.min, deck.max) if deck is not None else None,
        ultra_points=rulebook.deck_ultra_points if rulebook is not None else None,
        words=dict(rulebook.terms) if rulebook is not None else {},
        sources=tuple(system.sources),
    )


def component_of(comp: Any, system: Any) -> Component:
    return Component(comp.id, comp.kind, system.noun(comp.kind), str(comp.text), tuple(comp.text.variables),
                     comp.formula.notation() if comp.formula is not None else None, dict(comp.limits), comp.ultra,
                     comp.status, tuple(comp.sources))


def sources_of(view: Any) -> dict[str, str]:
    """Each document the rules cite → its title ("rulebook-17" → "Rulebook, 17th Edition")."""
    sources = view.sources if hasattr(view, "sources") else view.rules.sources  # (the tables, or folded rules)
    return {sid: s.title for sid, s in sources.items()}


def wording_of(comp: Any, values: dict[str, int], opening: bool, catalog: Any, view: Any) -> Wording:
    """The component's text for ``values`` as the edition's card-writing rules prescribe it: the engine's
    rendering (singular forms where a value is 1) read as a card's sentence and held against the rules
    of its ``system:`` by :class:`~kotc_rulesc.cards.writing.Writing` — the one path ``check-cards``
    warns by and ``migrate`` writes by ("Target 1 on-field minion;" where the 12th–17th guides say
    "up to" should go; kept where the 11th's says it can, and before) — its first letter as the place
    asks: capitalized where it opens a sentence, lowercase after another component in the same sentence."""
    from ..cards.sentence import reader_of
    from ..cards.writing import Placed, Writing

    rendered = comp.text.render(values)
    reader = reader_of(catalog, view)
    use, _ = reader.read(rendered)
    template, text = comp.text, rendered
    if use is not None and use.component == comp.id:
        system = catalog.system
        placed = Placed(use, rendered)
        in_sub = bool(system.sub_ability) and system.kind(use.kind).place == "sub_ability"  # (as the parser places it)
        writing = Writing(system, reader.card_joins(catalog.edition).joins, [placed], [[placed]] if in_sub else [])
        writing.check()
        template, text = use.reading, writing.prescribed(rendered) or rendered
    m = re.fullmatch(template.regex(), text, re.IGNORECASE)  # (the rules may have capitalized it)
    spans: dict[str, list[tuple[int, int]]] = {}
    for name, span in sorted((m.groupdict() if m else {}).items(), key=lambda item: m.span(item[0])):
        var = name[:1]
        if name[1:].isdigit() and var in values:  # a slot ("x3"), not an agreeing word ("a4") or a choice ("c1")
            spans.setdefault(var, []).append(m.span(name))
    if text[:1].isalpha():
        text = (text[0].upper() if opening else text[0].lower()) + text[1:]
    return Wording(comp.id, text, dict(values), {var: tuple(s) for var, s in spans.items()})


def nearest(sentence: str, catalog: Any, n: int = 3) -> list[Any]:
    """The components of ``catalog`` nearest to ``sentence``, as the card parser suggests them."""
    from ..cards.unknown import closest as _closest  # (the parser's suggestions; see the module's docstring)

    by_text = {}
    for comp in catalog.components or ():
        by_text.setdefault(f'"{comp.text}"', comp)
    out = []
    for said in _closest(sentence, catalog, n):
        comp = by_text.get(said.removesuffix(" (redacted)"))
        if comp is not None:
            out.append(comp)
    return out


#: how an unknown-text reason begins: the sentence, quoted (cards/unknown.py, unknown_text)
_UNKNOWN = re.compile(r'"(?P<sentence>.*)" is not a component text of the ', re.S)


def unknown_texts(judgement: Any, catalog: Any) -> list[UnknownText]:
    """Each ``unknown-text`` reason of a judgement: its sentence, where it is, the nearest components."""
    out = []
    for reason in judgement.reasons:
        if reason.code != "unknown-text":
            continue
        m = _UNKNOWN.match(reason.message)
        if m is None:
            continue
        sentence = m.group("sentence")
        where = re.fullmatch(r"text\[(\d+)\]", reason.field or "")
        out.append(UnknownText(reason.field, int(where.group(1)) if where else None, sentence,
                               tuple(component_of(c, catalog.system) for c in nearest(sentence, catalog))))
    return out
