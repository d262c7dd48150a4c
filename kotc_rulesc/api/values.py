"""The API's values other than a card's verdict (editions, systems, components, wordings, migrations),
each a frozen dataclass made from the engine's objects here.  Imported when first needed: judging a
card defines no dataclass (``tests/test_api.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from ..model import EditionKey, edition_number, ordinal

__all__ = ["CardSystem", "CardType", "Component", "Edition", "Kind", "Migration", "Stat", "UnknownText", "Wording"]


def _plain(value: Any) -> Any:
    """A value as JSON has it: a dataclass as an object of its fields, a tuple as a list."""
    if isinstance(value, _Value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class _Value:
    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True, slots=True)
class Edition(_Value):
    """One edition: ``key`` is how commands name it (``17``, ``"11-pre"``), ``number`` what an Edition
    Indicator compares with."""

    key: EditionKey
    number: int
    name: str  # "17th", "11th pre-release"
    pre_release: bool
    catalog_known: bool  # False: no source gives its components (cards cannot be read against it)
    figure: str  # what its cards print and the engine computes: "cost" (1st–10th) or "level"
    current: bool  # the newest edition whose catalog is known: what every command judges in by default

    @classmethod
    def of(cls, view: Any, key: EditionKey) -> Edition:
        number, catalog = edition_number(key), view.catalog(key)
        pre = not isinstance(key, int)
        return cls(key, number, f"{ordinal(number)} pre-release" if pre else ordinal(key), pre,
                   catalog.catalog_known, catalog.system.figure, key == view.newest_with_catalog())


@dataclass(frozen=True, slots=True)
class Stat(_Value):
    """A printed stat of a card type, named as the edition names it (``offense``; ``sp``)."""

    name: str
    min: int | None
    max: int | None


@dataclass(frozen=True, slots=True)
class CardType(_Value):
    id: str  # "minion", "spell"
    stats: tuple[Stat, ...]
    abilities_min: int
    abilities_max: int | None  # None: any number
    names: str  # its abilities' NAME: in capitals — "required", "optional" or "none"
    empty_text: str | None  # what a card of this type without abilities prints


@dataclass(frozen=True, slots=True)
class Kind(_Value):
    """A kind of component (``target``…): its guide section's title, its noun on a card, what its
    formula does (``relief``, ``cost``, ``sets``, ``none``) and where it sits."""

    id: str
    noun: str
    title: str
    role: str
    place: str  # "card" (its own paragraph), "ability" or "sub_ability"
    types: tuple[str, ...]  # the card types that may use it (empty: every type)
    min: int
    max: int | None


#: the rulebook's word on the printed Edition Indicator, as the API names it
_INDICATOR = {True: "printed", "required": "required", False: "none"}


@dataclass(frozen=True, slots=True)
class CardSystem(_Value):
    """How cards are built in one edition, from its ``system:`` and its rulebook.  ``edition_indicator``:
    ``"required"``, ``"printed"``, ``"none"`` or ``None`` (no source says); ``deck``: its size
    ``(min, max)``; ``ultra_points``: the most a deck may hold (``None``: no such limit)."""

    edition: EditionKey
    figure: str  # "cost" or "level": the card's field
    figure_title: str  # how the guide names it: "resource cost", "level"
    types: tuple[CardType, ...]
    kinds: tuple[Kind, ...]  # in the guide's order
    ability: tuple[str, ...]  # the kinds of an ability, in order
    sub_ability: tuple[str, ...]  # those of a sub-ability (none: the system has no sub-abilities)
    edition_indicator: str | None
    deck: tuple[int | None, int | None] | None
    ultra_points: int | None
    words: dict[str, str]  # the rulebook's own words ("banned" → "pruned", "creature" → "minion")
    sources: tuple[str, ...]

    @classmethod
    def of(cls, catalog: Any) -> CardSystem:
        system, rulebook = catalog.system, catalog.rulebook
        deck = rulebook.deck if rulebook is not None else None
        return cls(
            catalog.edition, system.figure, system.figure_title,
            tuple(CardType(t.id, tuple(Stat(s.name, s.min, s.max) for s in t.stats), t.abilities_min, t.abilities_max,
                           t.names, t.empty_text) for t in system.types),
            tuple(Kind(k.id, k.noun, k.title, k.role, k.place, tuple(k.types), k.min, k.max) for k in system.kinds),
            tuple(system.ability), tuple(system.sub_ability),
            _INDICATOR.get(rulebook.edition_indicator) if rulebook is not None else None,
            (deck.min, deck.max) if deck is not None else None,
            rulebook.deck_ultra_points if rulebook is not None else None,
            dict(rulebook.terms) if rulebook is not None else {},
            tuple(system.sources),
        )


@dataclass(frozen=True, slots=True)
class Component(_Value):
    """A component as it stands in one edition: its text as the guide prints it (``[x]``), its formula
    in the guide's notation (``None``: no source gives it), its limits, its Ultra Points."""

    id: str
    kind: str
    noun: str
    text: str
    variables: tuple[str, ...]
    formula: str | None
    limits: dict[str, int | None]
    ultra: int
    status: str  # "legal", "redacted", or "unknown" (redacted at an edition no source gives)
    sources: tuple[str, ...]

    @classmethod
    def of(cls, comp: Any, system: Any) -> Component:
        return cls(comp.id, comp.kind, system.noun(comp.kind), str(comp.text), tuple(comp.text.variables),
                   comp.formula.notation() if comp.formula is not None else None, dict(comp.limits), comp.ultra,
                   comp.status, tuple(comp.sources))


@dataclass(frozen=True, slots=True)
class Wording(_Value):
    """A component's text for given values, as a card prints it; ``spans["x"]``: where ``x`` is printed,
    as ``(start, end)`` offsets."""

    component: str
    text: str
    values: dict[str, int]
    spans: dict[str, tuple[tuple[int, int], ...]]

    @classmethod
    def of(cls, comp: Any, values: dict[str, int], opening: bool, catalog: Any, view: Any) -> Wording:
        """The engine's rendering read as a card's sentence and held against the card-writing rules, as
        ``check-cards`` warns and ``migrate`` writes; capitalized where it ``opening`` a sentence."""
        from ..cards.sentence import reader_of
        from ..cards.writing import Placed, Writing

        rendered = comp.text.render(values)
        reader = reader_of(catalog, view)
        use, _ = reader.read(rendered)
        template, text = comp.text, rendered
        if use is not None and use.component == comp.id:
            system = catalog.system
            placed = Placed(use, rendered)
            in_sub = bool(system.sub_ability) and system.kind(use.kind).place == "sub_ability"  # (as parse places it)
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
        return cls(comp.id, text, dict(values), {var: tuple(s) for var, s in spans.items()})


@dataclass(frozen=True, slots=True)
class UnknownText(_Value):
    """A sentence of a card that is no component of the edition, where it is, the nearest components."""

    field: str | None  # "text[2]": the card text's line 2
    paragraph: int | None
    sentence: str
    nearest: tuple[Component, ...]


def nearest(sentence: str, catalog: Any, n: int = 3) -> list[Component]:
    """The components nearest to ``sentence``: those an ``unknown-text`` reason's "did you mean" names."""
    from ..cards.unknown import closest

    by_text = {}
    for comp in catalog.components or ():
        by_text.setdefault(f'"{comp.text}"', comp)
    found = (by_text.get(said.removesuffix(" (redacted)")) for said in closest(sentence, catalog, n))
    return [Component.of(comp, catalog.system) for comp in found if comp is not None]


#: how an unknown-text reason begins: the sentence, quoted (cards/unknown.py, unknown_text)
_UNKNOWN = re.compile(r'"(?P<sentence>.*)" is not a component text of the ', re.S)
#: the components it suggests: ``; did you mean "A" or "B" (redacted)?`` (no component's text holds a quote)
_MEANT = re.compile(r'; did you mean ((?:"[^"]*"(?: \(redacted\))?(?: or )?)+)\?')


def unknown_texts(judgement: Any, catalog: Any) -> list[UnknownText]:
    """Each ``unknown-text`` reason of a judgement: its sentence (quoted first in its message), where it
    is, and the components its "did you mean" names (what the engine matched: the sentence, or the
    sentence without tutorial text inside it)."""
    by_text = {str(comp.text): comp for comp in catalog.components or ()}
    out = []
    for reason in judgement.reasons:
        m = _UNKNOWN.match(reason.message) if reason.code == "unknown-text" else None
        if m is not None:
            where = re.fullmatch(r"text\[(\d+)\]", reason.field or "")
            meant = _MEANT.search(reason.message, m.end())
            named = re.findall(r'"([^"]*)"', meant.group(1)) if meant else []
            out.append(UnknownText(reason.field, int(where.group(1)) if where else None, m.group("sentence"),
                                   tuple(Component.of(by_text[t], catalog.system) for t in named if t in by_text)))
    return out


@dataclass(frozen=True, slots=True)
class Migration:
    """What ``migrate`` does to one card: ``status`` is ``rewritten`` (from the 13th *refurbished*:
    ``outcome``), ``reissued``, ``unchanged``, or the card is kept as it was (``banned``, ``unknown``,
    ``error``) with every reason and a ``remedy``.  ``card`` is the card as it reads afterwards."""

    index: int
    name: str | None
    status: str
    outcome: str
    source: EditionKey | None  # the edition migrated from (None: unreadable)
    target: EditionKey
    assumed: bool  # the source edition was assumed (the card bears no Edition Indicator)
    changed: bool
    text: str | None  # the new text (None: the text does not change)
    card: Any
    reasons: list[Any]
    notes: list[str]
    replacement: dict[str, Any] | None
    remedy: str | None = None
    record: Any = field(default=None, compare=False, repr=False)  # the migrate report's Record
    words: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def legal(self) -> bool:
        return self.status in ("rewritten", "reissued", "unchanged")

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``migrate --report-format json``'s ``cards``."""
        return self.record.to_json(self.words)
