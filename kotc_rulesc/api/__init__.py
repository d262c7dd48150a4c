"""kotc-rulesc's Python API: what the commands print, as values (docs/api.md is the reference).

    >>> from kotc_rulesc import api
    >>> v = api.judge({"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."})
    >>> v.status, v.figure, v.value
    ('legal', 'level', 2)

The module's functions use one shared :class:`Rules` of the bundled rules.  An edition is ``17``, ``"17"``
or ``"11-pre"``; left out, the current one (the 17th).  Importing the API loads no more than judging one
card does: the engine is imported when a function first needs it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Iterable

from ..model import EditionKey, parse_edition_key
from .results import Check, Reason, Verdict

__all__ = [
    "CardSystem", "CardType", "Check", "Component", "Deck", "Edition", "EditionError", "Kind", "Migration", "Reason",
    "Rules", "Stat", "UnknownText", "Verdict", "Wording",
    "check", "components", "current", "documents", "editions", "judge", "migrate", "nearest", "rules", "system", "wording",
]


#: the values of :mod:`kotc_rulesc.api.values`, imported when first named (PEP 562)
_VALUES = frozenset({"CardSystem", "CardType", "Component", "Edition", "Kind", "Migration", "Stat", "UnknownText", "Wording"})


def __getattr__(name: str) -> Any:
    if name in _VALUES:
        from . import values

        return getattr(values, name)
    if name == "Deck":  # a collection judged as one deck: the engine's own verdict
        from ..cards.deck import DeckVerdict

        return DeckVerdict
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those imported when first named: what ``dir()``, ``help()`` and a notebook's
    completion list."""
    return sorted(set(globals()) | set(__all__))


class EditionError(ValueError):
    """An edition the rules do not have (or not an edition at all)."""


class Rules:
    """The rules to judge cards by: ``Rules()`` the bundled ones, ``Rules(folder)`` a rules folder
    (:class:`~kotc_rulesc.errors.ProblemsFound` when they do not load).  Threads may share one: the
    engine's memos are not thread-safe, so it judges one card at a time."""

    def __init__(self, rules_dir: str | Path | None = None):
        from ..cards.rules_source import get_view

        self.view = get_view(None if rules_dir is None else str(rules_dir))
        self._lock = threading.RLock()

    def current(self) -> EditionKey:
        """The newest edition whose components are known: the default edition."""
        return self.view.newest_with_catalog()

    def key(self, edition: Any = None) -> EditionKey:
        """The edition's key (``17``, ``"11-pre"``; of an :class:`Edition`, its ``key``) as the rules know it;
        :class:`EditionError` if they do not."""
        if edition is None:
            return self.current()
        if not isinstance(edition, (int, str)):
            from .values import Edition

            edition = edition.key if isinstance(edition, Edition) else edition
        try:
            key = parse_edition_key(edition)
        except ValueError as exc:
            raise EditionError(str(exc)) from None
        if key not in self.view.keys:
            raise EditionError(f"the rules have no edition {edition!r}: they have {', '.join(map(str, self.view.keys))}")
        return key

    def editions(self) -> list[Edition]:
        """Every edition, in order (the main line, the 11th's pre-release after the 10th)."""
        from .values import Edition

        with self._lock:
            return [Edition.of(self.view, key) for key in self.view.keys]

    def edition(self, edition: Any = None) -> Edition:
        from .values import Edition

        with self._lock:
            return Edition.of(self.view, self.key(edition))

    def system(self, edition: Any = None) -> CardSystem:
        """How cards are built in the edition: card types, stats, figure, kinds, what the rulebook asks."""
        from .values import CardSystem

        with self._lock:
            return CardSystem.of(self.view.catalog(self.key(edition)))

    def documents(self) -> dict[str, str]:
        """Each document a reason may cite (its ``sources``) → its title."""
        with self._lock:
            view = self.view
            sources = view.sources if hasattr(view, "sources") else view.rules.sources  # (the tables, or YAML)
            return {sid: s.title for sid, s in sources.items()}

    def components(self, edition: Any = None, kind: str | None = None) -> list[Component]:
        """The edition's components (of one ``kind``), redacted ones included; none where no source gives them."""
        from .values import Component

        with self._lock:
            catalog = self.view.catalog(self.key(edition))
            kinds = catalog.system.kind_ids if catalog.system is not None else ()
            if kind is not None and kinds and kind not in kinds:
                raise ValueError(f"the {self.edition(catalog.edition).name} edition has no kind {kind!r}: "
                                 f"its kinds are {', '.join(kinds)}")
            return [Component.of(c, catalog.system) for c in catalog.components or () if kind is None or c.kind == kind]

    def wording(self, component: str, values: dict[str, int] | None = None, edition: Any = None,
                opening: bool = True) -> Wording:
        """The component's text as a card prints it for ``values`` (each 1 where not given), in the form the
        edition's card-writing rules prescribe, capitalized where it is ``opening`` a sentence."""
        from .values import Wording

        if values is not None and not isinstance(values, Mapping):
            raise TypeError(f"values maps slots of the text to whole numbers ({{'x': 2}}), not {_kind(values)}")
        with self._lock:
            catalog = self.view.catalog(self.key(edition))
            comp = catalog.by_id().get(component)
            if comp is None:
                raise KeyError(f"the {self.edition(catalog.edition).name} edition has no component {component!r}")
            stray = sorted(set(values or ()) - set(comp.text.variables))
            if stray:
                slots = ", ".join(f"[{v}]" for v in comp.text.variables) or "none"
                raise ValueError(f"{component!r} has no slot for {', '.join(stray)}: its text's slots are {slots}")
            wrong = {var: v for var, v in (values or {}).items() if type(v) is bool or not isinstance(v, int) or v < 1}
            if wrong:
                raise ValueError(f"{component!r}: " + "; ".join(f"[{var}] is {v!r}" for var, v in sorted(wrong.items()))
                                 + "; variables are positive whole numbers (1 or more)")
            given = {var: (values or {}).get(var, 1) for var in comp.text.variables}
            return Wording.of(comp, given, opening, catalog, self.view)

    def nearest(self, sentence: str, edition: Any = None, n: int = 3) -> list[Component]:
        """The edition's components nearest to ``sentence`` (what an unknown text's reason suggests)."""
        from .values import nearest

        if not isinstance(sentence, str):
            raise TypeError(f"sentence is a card's sentence, a string (\"Draw 2 cards.\"), not {_kind(sentence)}")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n is how many components to give: a whole number, 1 or more (got {n!r})")
        with self._lock:
            return nearest(sentence, self.view.catalog(self.key(edition)), n)

    def judge(self, card: Any, edition: Any = None) -> Verdict:
        """A card (a mapping of its fields) judged in the edition: what ``cost`` and ``check-cards`` say of it."""
        from ..cards.legality import judge_input

        with self._lock:
            key = self.key(edition)
            return Verdict(judge_input(_card_input(0, card), key, self.view), self.view.catalog(key))

    def check(self, cards: str | Path | Iterable[Any], edition: Any = None, deck: bool = False,
              each: Callable[[Verdict], Any] | None = None, keep: bool = True) -> Check:
        """Every card of a collection judged as ``check-cards`` judges it: ``cards`` is a file (read under the
        input policy: :class:`~kotc_rulesc.reading.policy.InputError`) or the cards themselves.  ``each`` is
        called with every verdict as it is made; ``keep=False`` keeps none (constant memory)."""
        from ..cards.collection import read_collection
        from ..cards.legality import CardJudge
        from ..cards.report import Tally

        if isinstance(cards, (Mapping, bytes, bytearray)) or not isinstance(cards, (str, os.PathLike, Iterable)):
            raise TypeError(f"cards is a collection file's path or the cards themselves (an iterable of mappings), "
                            f"not {_kind(cards)}" + ("" if not isinstance(cards, Mapping) else
                                                     ': give its ["cards"]' if "cards" in cards else ": give [card] for one card"))
        if isinstance(cards, str) and "\n" in cards and not os.path.exists(cards):
            raise ValueError("cards is a collection file's path, not its text (this one holds a line break and names "
                             "no file): write the text to a file and give its path, or give the cards themselves")
        with self._lock:
            key = self.key(edition)
            catalog = self.view.catalog(key)
            items = read_collection(os.fspath(cards)) if isinstance(cards, (str, os.PathLike)) else \
                (_card_input(i, card) for i, card in enumerate(cards))
            judge_card = CardJudge(key, self.view)  # (each distinct card judged once)
            tally = Tally(deck)
            verdicts = []
            for item in items:
                j = judge_card(item)
                tally.add(j)
                if keep or each is not None:
                    v = Verdict(j, catalog)
                    if each is not None:
                        each(v)
                    if keep:
                        verdicts.append(v)
            return Check(key, verdicts, tally.summary(), tally.deck_verdict(catalog), catalog.rulebook)

    def deck(self, cards: str | Path | Iterable[Any], edition: Any = None) -> Deck:
        """The collection judged as one deck (``check-cards --deck``): its size, its Ultra Points."""
        return self.check(cards, edition, deck=True).deck

    def migrate(self, card: Any, to: Any = None, assume: Any = None, reissue: bool = False) -> Migration:
        """What ``migrate --to`` does to the card; ``assume`` is the edition of a card without an Edition
        Indicator (``--from``: :class:`EditionError` where it is needed and not given)."""
        from ..migrate.edit import edit_dict
        from ..migrate.plan import MARK, Migrator, NeedsFrom, path_refusal
        from ..migrate.report import Record, outcome
        from .values import Migration

        with self._lock:
            target, source = self.key(to), None if assume is None else self.key(assume)
            refusal = None if source is None else path_refusal(self.view, source, target, "assume",
                                                               f"assume={source!r}", f"to={target!r}")
            if refusal is not None:  # (as ``migrate --from`` refuses it)
                raise EditionError(refusal)
            migrator = Migrator(self.view, target, source, reissue=reissue)
            card = dict(card) if isinstance(card, Mapping) else card
            if not isinstance(card, dict):  # (as migrate reports a collection's entry that is no card)
                record = Record(0, None, None, None, False, f"{_kind(card)}, not a card (a mapping of fields)")
                entry = record.to_json(migrator.words)
                return Migration(0, None, "error", entry["outcome"], None, target, False, False, None, card,
                                 [Reason("malformed", record.problem, None, (), None)], [], None, entry["remedy"],
                                 record, dict(migrator.words))
            try:
                d = migrator.decide(card)
            except NeedsFrom:
                raise EditionError("the card bears no Edition Indicator: give the edition it was designed for (assume=…)") from None
            new = edit_dict(card, d) if d.status != "unchanged" or MARK in card else None
            name = card.get("name") if isinstance(card.get("name"), str) else None
            record = Record(0, None, name, d, new is not None)
            return Migration(0, name, d.status, outcome(record.outcome, migrator.words), d.source, d.target, d.assumed,
                             new is not None, d.text, new if new is not None else card, list(d.reasons), list(d.notes),
                             d.replacement, d.remedy, record, dict(migrator.words))


def _kind(value: Any) -> str:
    """What a value is, as the card reader names it ("null", "a string", "bytes")."""
    from ..cards.fields import kind_of

    return kind_of(value)


def _card_input(index: int, card: Any) -> Any:
    """A card given as a value, as the collection reader gives it (any mapping read as a dict; not a
    mapping: an unreadable card, as ``check-cards`` says of a collection's entry)."""
    from ..cards.collection import CardInput, not_a_card

    if isinstance(card, CardInput):
        return card
    if isinstance(card, Mapping):
        return CardInput(index, card if isinstance(card, dict) else dict(card), [], None)
    return not_a_card("<cards>", index, card, None)


_shared: Rules | None = None
_shared_lock = threading.Lock()


def rules() -> Rules:
    """The bundled rules, loaded once and shared by the module's functions."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Rules()
        return _shared


# the module's functions: each the method of the shared rules() (with its own signature, for help())


def editions() -> list[Edition]:
    """Every edition of the bundled rules (:meth:`Rules.editions`)."""
    return rules().editions()


def current() -> EditionKey:
    """The edition every command judges in by default: the newest whose components are known."""
    return rules().current()


def system(edition: Any = None) -> CardSystem:
    """How cards are built in the edition (:meth:`Rules.system`)."""
    return rules().system(edition)


def documents() -> dict[str, str]:
    """The documents the rules cite, by id (:meth:`Rules.documents`)."""
    return rules().documents()


def components(edition: Any = None, kind: str | None = None) -> list[Component]:
    """The edition's components (:meth:`Rules.components`)."""
    return rules().components(edition, kind)


def wording(component: str, values: dict[str, int] | None = None, edition: Any = None, opening: bool = True) -> Wording:
    """A component's text for values (:meth:`Rules.wording`)."""
    return rules().wording(component, values, edition, opening)


def nearest(sentence: str, edition: Any = None, n: int = 3) -> list[Component]:
    """The components nearest to a sentence (:meth:`Rules.nearest`)."""
    return rules().nearest(sentence, edition, n)


def judge(card: Any, edition: Any = None) -> Verdict:
    """A card judged, with its figure (:meth:`Rules.judge`)."""
    return rules().judge(card, edition)


def check(cards: str | Path | Iterable[Any], edition: Any = None, deck: bool = False,
          each: Callable[[Verdict], Any] | None = None, keep: bool = True) -> Check:
    """A collection judged, card by card and as a deck (:meth:`Rules.check`)."""
    return rules().check(cards, edition, deck, each, keep)


def migrate(card: Any, to: Any = None, assume: Any = None, reissue: bool = False) -> Migration:
    """What migrating a card does (:meth:`Rules.migrate`)."""
    return rules().migrate(card, to, assume, reissue)
