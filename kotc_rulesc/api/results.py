"""What :mod:`kotc_rulesc.api` answers: plain value objects, each with its JSON form.

Every class here is a record (:mod:`kotc_rulesc.record`): written and behaving as a ``@dataclass``
(fields, equality, ``repr``, :func:`~kotc_rulesc.record.replace`), without the millisecond a class
``@dataclass`` spends at import — the CLI's one-card path, which will call this API, defines no
``@dataclass`` (``tests/test_startup_imports.py``).  A result that the CLI also prints as JSON keeps
the engine's own object it was made from (a field that is neither compared nor shown) and writes
its JSON with the function the CLI writes it with, so that the two cannot drift.
"""

from __future__ import annotations

from typing import Any

from ..cards.model import Reason
from ..model import EditionKey
from ..record import field, record

__all__ = [
    "CardSystem",
    "CardType",
    "Check",
    "Component",
    "Deck",
    "Edition",
    "Kind",
    "Migration",
    "Reason",
    "Stat",
    "UnknownText",
    "Verdict",
    "Wording",
]


@record(frozen=True)
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


@record(frozen=True)
class Stat:
    """A printed stat of a card type, named as the edition names it (``offense``; ``sp``)."""

    name: str
    min: int | None
    max: int | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "min": self.min, "max": self.max}


@record(frozen=True)
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


@record(frozen=True)
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


@record(frozen=True)
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


@record(frozen=True)
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


@record(frozen=True)
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


@record(frozen=True)
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


@record
class Verdict:
    """A card judged in one edition.

    ``status`` is ``legal``, ``banned``, ``error`` (the card cannot be read: ``malformed``,
    ``unknown-text``) or ``unknown`` (legality rests on a fact no source gives); ``outcome`` is the
    rulebook's own word for it ("pruned" for banned from the 13th).  ``value`` is the card's figure —
    its ``figure`` is ``cost`` up to the 10th, ``level`` from the published 11th — computed in the
    edition (``None``: unknown or unreadable), ``printed`` the figure the card prints.  Every reason
    names its code, message, the edition and the documents it rests on, and the card field it is
    about; ``warnings`` are the rules a card should keep and does not (it stays legal), each with the
    text to print ``instead``.  ``breakdown`` is the figure per ability, sub-ability
    and component (formula, values, result), as ``cost --format json`` prints it; ``ultra_points`` the
    sum of the card's texts' ``[+N]``.

    :meth:`to_json` is the card's entry in ``check-cards --format json``, :meth:`cost_json` what
    ``cost --format json`` prints for it."""

    index: int
    name: str | None
    edition: EditionKey
    status: str
    outcome: str
    figure: str
    value: int | None
    printed: int | None
    reasons: list[Reason]
    warnings: list[Any]
    notes: list[str]
    breakdown: dict[str, Any] | None
    ultra_points: int | None
    line: int | None
    unknown: list[UnknownText] = field(default_factory=list)
    judgement: Any = field(default=None, compare=False, repr=False)  # the engine's Judgement

    @property
    def legal(self) -> bool:
        return self.status == "legal"

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``check-cards --format json`` (its reasons located by line)."""
        return self.judgement.to_json()

    def cost_json(self) -> dict[str, Any]:
        """What ``cost --format json`` prints for the card."""
        from ..cards.report import cost_json

        return cost_json(self.judgement, self.edition, self.figure)


@record
class Deck:
    """A collection judged as one deck, by the rulebook: its size and, from the 17th, its Ultra Points.
    ``problems`` say why it is not legal; ``notes`` what could not be checked."""

    cards: int
    ultra_points: int | None  # None: some card's could not be computed
    ultra_limit: int | None
    legal: bool
    problems: list[str]
    notes: list[str]
    verdict: Any = field(default=None, compare=False, repr=False)  # the engine's DeckVerdict

    def to_json(self) -> dict[str, Any]:
        """The ``deck`` of ``check-cards --deck --format json``."""
        return self.verdict.to_json()

    def text(self) -> str:
        """As ``check-cards --deck`` prints it."""
        return self.verdict.text()


@record
class Check:
    """Every card of a collection judged in one edition (``check-cards``), and the deck (``--deck``)."""

    edition: EditionKey
    verdicts: list[Verdict]
    summary: dict[str, int]  # cards, and how many are legal, banned, error, unknown
    deck: Deck | None = None

    @property
    def legal(self) -> bool:
        """Every card legal, and the deck where it was judged (``check-cards``' exit status 0)."""
        return self.summary["cards"] == self.summary["legal"] and (self.deck is None or self.deck.legal)

    def to_json(self) -> dict[str, Any]:
        """What ``check-cards --format json`` prints, as a value."""
        out = {"edition": self.edition, "cards": [v.to_json() for v in self.verdicts], "summary": dict(self.summary)}
        if self.deck is not None:
            out["deck"] = self.deck.to_json()
        return out

    def json_text(self) -> str:
        """What ``check-cards --format json`` prints, to the character (without the final newline);
        the verdicts kept (``check(…, keep=True)``)."""
        from ..cards.report import CheckJson

        pieces: list[str] = []
        document = CheckJson(pieces.append, self.edition)
        for v in self.verdicts:
            document.card(v.judgement)
        document.end(dict(self.summary), self.deck.to_json() if self.deck is not None else None)
        return "".join(pieces)


@record
class Migration:
    """What ``migrate`` does to one card: ``status`` is ``rewritten`` (the rulebooks from the 13th say
    *refurbished*: ``outcome``), ``reissued``, ``unchanged``, or the card is kept as it was —
    ``banned`` (*pruned*), ``unknown``, ``error`` — with every reason.  ``card`` is the card as it
    reads after the migration (for a card kept as it was, with its ``migration`` marker), ``text``
    its new text (``None``: the text does not change)."""

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
    record: Any = field(default=None, compare=False, repr=False)  # the migrate report's Record
    words: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def legal(self) -> bool:
        return self.status in ("rewritten", "reissued", "unchanged")

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``migrate --report-format json``'s ``cards``."""
        return self.record.to_json(self.words)
