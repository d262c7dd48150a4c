"""The rules' values that :mod:`kotc_rulesc.api` answers with: editions, card-building systems,
components, wordings, unknown texts, migrations — each a frozen dataclass with its JSON form.

None of them is made on the one-card path of ``check-cards`` or ``cost`` (the judging results are
:mod:`kotc_rulesc.api.results`'s ``__slots__`` classes): this module is imported when an answer first
needs it, so that importing the API defines no dataclass (``tests/test_api.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import EditionKey

__all__ = ["CardSystem", "CardType", "Component", "Edition", "Kind", "Migration", "Stat", "UnknownText", "Wording"]


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of the rules: ``key`` is how commands name it (``17``, or ``"11-pre"`` for the
    11th's pre-release), ``number`` what an Edition Indicator compares with."""

    key: EditionKey
    number: int
    name: str  # "17th", "11th pre-release"
    pre_release: bool
    catalog_known: bool  # False: no source gives its components (cards cannot be read against it)
    figure: str  # what its cards print and the engine computes: "cost" (1st–10th) or "level"
    current: bool  # the newest edition whose catalog is known: what every command judges in by default

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "number": self.number, "name": self.name, "pre_release": self.pre_release,
                "catalog_known": self.catalog_known, "figure": self.figure, "current": self.current}


@dataclass(frozen=True, slots=True)
class Stat:
    """A printed stat of a card type, named as the edition names it (``offense``; ``sp``)."""

    name: str
    min: int | None
    max: int | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "min": self.min, "max": self.max}


@dataclass(frozen=True, slots=True)
class CardType:
    """A card type of an edition's card-building system, as its ``system:`` data declares it."""

    id: str  # "minion", "spell"
    stats: tuple[Stat, ...]
    abilities_min: int
    abilities_max: int | None  # None: any number
    names: str  # its abilities' NAME: in capitals — "required", "optional" or "none"
    empty_text: str | None  # what a card of this type without abilities prints

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "stats": [s.to_json() for s in self.stats], "abilities_min": self.abilities_min,
                "abilities_max": self.abilities_max, "names": self.names, "empty_text": self.empty_text}


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of component (``condition``, ``target``…): how the guide titles its section, how a card's
    text names one, what its formula does (``relief``, ``cost``, ``sets``, ``none``) and where it sits."""

    id: str
    noun: str
    title: str
    role: str
    place: str  # "card" (its own paragraph), "ability" or "sub_ability"
    types: tuple[str, ...]  # the card types that may use it (empty: every type)
    min: int
    max: int | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "noun": self.noun, "title": self.title, "role": self.role, "place": self.place,
                "types": list(self.types), "min": self.min, "max": self.max}


@dataclass(frozen=True, slots=True)
class CardSystem:
    """How cards are built in one edition: what a card form asks for, read from the rules' data.

    ``edition_indicator`` is the rulebook's word on the printed Edition Indicator: ``"required"``
    (a card without one is invalid), ``"printed"`` (cards print one), ``"none"`` (the card layout has
    none) or ``None`` (no source says).  ``deck`` is the deck's size ``(min, max)``, ``ultra_points``
    the most Ultra Points a deck may hold (``None``: the edition has no such limit)."""

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

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition, "figure": self.figure, "figure_title": self.figure_title,
            "types": [t.to_json() for t in self.types], "kinds": [k.to_json() for k in self.kinds],
            "ability": list(self.ability), "sub_ability": list(self.sub_ability),
            "edition_indicator": self.edition_indicator, "deck": list(self.deck) if self.deck else None,
            "ultra_points": self.ultra_points, "words": dict(self.words), "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class Component:
    """A component as it stands in one edition: its text as the guide prints it (``[x]`` for a
    variable), its formula in the guide's notation (``None``: no source gives it), its limits
    (``{"x": 3}``; a ``None`` limit is one no source gives), its Ultra Points (the 17th's ``[+1]``)."""

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

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "noun": self.noun, "text": self.text, "variables": list(self.variables),
                "formula": self.formula, "limits": dict(self.limits), "ultra": self.ultra, "status": self.status,
                "sources": list(self.sources)}


@dataclass(frozen=True, slots=True)
class Wording:
    """A component's text for given values, as a card prints it, and where each value stands in it
    (``spans["x"]``: ``(start, end)`` offsets, one per place the variable is printed)."""

    component: str
    text: str
    values: dict[str, int]
    spans: dict[str, tuple[tuple[int, int], ...]]

    def to_json(self) -> dict[str, Any]:
        return {"component": self.component, "text": self.text, "values": dict(self.values),
                "spans": {var: [list(s) for s in spans] for var, spans in self.spans.items()}}


@dataclass(frozen=True, slots=True)
class UnknownText:
    """A sentence of a card that is no component of the edition (reason ``unknown-text``), where it
    is, and the components nearest to it (the engine's suggestions, nearest first)."""

    field: str | None  # "text[2]": the card text's line 2
    paragraph: int | None
    sentence: str
    nearest: tuple[Component, ...]

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "paragraph": self.paragraph, "sentence": self.sentence,
                "nearest": [c.to_json() for c in self.nearest]}


@dataclass(frozen=True, slots=True)
class Migration:
    """What ``migrate`` does to one card: ``status`` is ``rewritten`` (the rulebooks from the 13th say
    *refurbished*: ``outcome``), ``reissued``, ``unchanged``, or the card is kept as it was —
    ``banned`` (*pruned*), ``unknown``, ``error`` — with every reason.  ``card`` is the card as it
    reads after the migration (for a card kept as it was, with its ``migration`` marker), ``text``
    its new text (``None``: the text does not change); ``remedy`` what the player can do with a card
    kept as it was ("migrate it with --reissue …", "redesign it under the 17th edition's guide")."""

    index: int
    name: str | None
    status: str
    outcome: str
    source: EditionKey | None  # the edition migrated from (None: unreadable)
    target: EditionKey
    assumed: bool  # the source edition was assumed (the card bears no Edition Indicator)
    changed: bool
    text: str | None
    card: Any
    reasons: list[Any]
    notes: list[str]
    replacement: dict[str, Any] | None
    remedy: str | None = None  # for a card kept as it was: what the player can do to have it in the edition
    record: Any = field(default=None, compare=False, repr=False)  # the migrate report's Record
    words: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def legal(self) -> bool:
        return self.status in ("rewritten", "reissued", "unchanged")

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``migrate --report-format json``'s ``cards``."""
        return self.record.to_json(self.words)
