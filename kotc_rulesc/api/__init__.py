"""kotc-rulesc's Python API: the editions, their components, a card's figure and verdict, how it reads
in a later edition, and a deck — what the commands print, as values.

    >>> from kotc_rulesc import api
    >>> v = api.judge({"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."})
    >>> v.status, v.figure, v.value
    ('legal', 'level', 2)

:class:`Rules` is the rules to judge by: the bundled rules (the compiled tables, no YAML read), or a
rules folder (``Rules("path/to/rules")``, folded as ``--rules DIR`` folds it).  The module's
functions use one shared :class:`Rules` of the bundled rules (:func:`rules`).  An edition is given
as the commands take it: ``17``, ``"17"`` or ``"11-pre"``; left out, it is the newest edition whose
components are known (the 17th), as for every command.

Every answer is a plain value (:mod:`kotc_rulesc.api.results` for a card's verdict, a collection's
check and a deck; :mod:`kotc_rulesc.api.values` for the rest); those the CLI prints as JSON have
the very same JSON (``to_json()``): :meth:`Verdict.to_json` is a card of ``check-cards --format
json``, :meth:`Verdict.cost_json` is ``cost --format json``, :meth:`Check.to_json` the whole
``check-cards --format json`` (``--deck``: with its ``deck``), :meth:`Migration.to_json` a card of
``migrate --report-format json``.  docs/api.md is the reference, with examples.

Importing this module loads no more than judging one card does: the card engine is imported
when a function first needs it.  A :class:`Rules` may be shared by threads (it judges one card at
a time).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from ..model import EditionKey, parse_edition_key
from .results import Check, Deck, Reason, Verdict

__all__ = [
    "CardSystem", "CardType", "Check", "Component", "Deck", "Edition", "EditionError", "Kind", "Migration", "Reason",
    "Rules", "Stat", "UnknownText", "Verdict", "Wording",
    "check", "components", "current", "documents", "editions", "judge", "migrate", "nearest", "rules", "system", "wording",
]


#: the values answered by :mod:`kotc_rulesc.api.values`, imported when first named (PEP 562): judging a
#: card defines none of their classes
_VALUES = frozenset({"CardSystem", "CardType", "Component", "Edition", "Kind", "Migration", "Stat", "UnknownText", "Wording"})


def __getattr__(name: str) -> Any:
    if name in _VALUES:
        from . import values

        return getattr(values, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class EditionError(ValueError):
    """An edition the rules do not have (or not an edition at all)."""


class Rules:
    """The rules to judge cards by: ``Rules()`` the bundled ones, ``Rules(folder)`` a rules folder.

    Raises :class:`~kotc_rulesc.errors.ProblemsFound` (every problem, located) when a folder's rules
    do not load."""

    def __init__(self, rules_dir: str | Path | None = None):
        from ..cards.rules_source import get_view

        self.view = get_view(None if rules_dir is None else str(rules_dir))
        self._lock = threading.RLock()
        self._documents: dict[str, str] | None = None

    # -- the editions ----------------------------------------------------------------------

    @property
    def current(self) -> EditionKey:
        """The newest edition whose components are known: the default edition."""
        return self.view.newest_with_catalog()

    def key(self, edition: Any = None) -> EditionKey:
        """The edition's key (``17``, ``"11-pre"``) as the rules know it; :class:`EditionError` if they do not."""
        if edition is None:
            return self.current
        try:
            key = parse_edition_key(edition) if not isinstance(edition, int) or isinstance(edition, bool) else edition
        except (TypeError, ValueError) as exc:
            raise EditionError(f"{edition!r} is not an edition ({exc})") from None
        if key not in self.view.keys:
            raise EditionError(f"the rules have no edition {edition!r}: they have {', '.join(map(str, self.view.keys))}")
        return key

    def editions(self) -> list[Edition]:
        """Every edition, in order (the main line, the 11th's pre-release after the 10th)."""
        from .adapters import edition_of

        with self._lock:
            return [edition_of(self.view, key) for key in self.view.keys]

    def edition(self, edition: Any = None) -> Edition:
        from .adapters import edition_of

        with self._lock:
            return edition_of(self.view, self.key(edition))

    def system(self, edition: Any = None) -> CardSystem:
        """How cards are built in the edition: card types and their stats, the figure, the kinds of
        component and their order, what the rulebook asks of a card and a deck."""
        from .adapters import system_of

        with self._lock:
            return system_of(self.view.catalog(self.key(edition)))

    def documents(self) -> dict[str, str]:
        """Each document a reason may cite (its ``sources``) → its title."""
        from .adapters import sources_of

        with self._lock:
            if self._documents is None:
                self._documents = sources_of(self.view)
            return dict(self._documents)

    # -- components --------------------------------------------------------------------------

    def components(self, edition: Any = None, kind: str | None = None) -> list[Component]:
        """The edition's components (of one ``kind``, e.g. ``"target"``), in the catalog's order;
        redacted ones included (``status``).  Empty where no source gives the catalog."""
        from .adapters import component_of

        with self._lock:
            catalog = self.view.catalog(self.key(edition))
            return [component_of(c, catalog.system) for c in catalog.components or () if kind is None or c.kind == kind]

    def wording(self, component: str, values: dict[str, int] | None = None, edition: Any = None,
                opening: bool = True) -> Wording:
        """The component's text as a card prints it for ``values`` (each variable 1 where not given), in
        the form the edition's card-writing rules prescribe (what ``migrate`` writes: "Target 1 on-field
        minion;" in the 17th), capitalized where it ``opening`` a sentence, lowercase after another component."""
        from .adapters import wording_of

        with self._lock:
            catalog = self.view.catalog(self.key(edition))
            comp = catalog.by_id().get(component)
            if comp is None:
                raise KeyError(f"the {self.edition(catalog.edition).name} edition has no component {component!r}")
            given = {var: int((values or {}).get(var, 1)) for var in comp.text.variables}
            return wording_of(comp, given, opening, catalog, self.view)

    def nearest(self, sentence: str, edition: Any = None, n: int = 3) -> list[Component]:
        """The edition's components nearest to ``sentence`` (what an unknown text's reason suggests)."""
        from .adapters import component_of, nearest

        with self._lock:
            catalog = self.view.catalog(self.key(edition))
            return [component_of(c, catalog.system) for c in nearest(sentence, catalog, n)]

    # -- cards -------------------------------------------------------------------------------

    def judge(self, card: Any, edition: Any = None) -> Verdict:
        """A card (a mapping of its fields, as a collection holds it) judged in the edition, with its
        figure's breakdown: what ``cost`` and ``check-cards`` say of it."""
        from ..cards.legality import judge

        with self._lock:
            key = self.key(edition)
            return Verdict(judge(card, key, self.view), self.view.catalog(key))

    def check(self, cards: str | Path | Iterable[Any], edition: Any = None, deck: bool = False,
              each: Callable[[Verdict], Any] | None = None, keep: bool = True) -> Check:
        """Every card of a collection judged in the edition, as ``check-cards`` judges it; ``cards`` is
        a collection file (YAML, JSON, JSONL: read under the input policy, as the CLI reads it —
        :class:`~kotc_rulesc.reading.policy.InputError` when it cannot be) or the cards themselves (mappings,
        or the :class:`~kotc_rulesc.cards.collection.CardInput`\\ s the collection reader gives).  With
        ``deck``, the collection is also judged as one deck.

        ``each(verdict)`` is called for every card as it is judged; with ``keep=False`` the result holds
        no verdicts (its summary and deck only): a collection of any size is judged in constant memory,
        a JSONL file streamed, as ``check-cards`` judges it."""
        from ..cards.collection import read_collection
        from ..cards.legality import CardJudge
        from ..cards.report import Tally

        with self._lock:
            key = self.key(edition)
            catalog = self.view.catalog(key)
            items = read_collection(cards) if isinstance(cards, (str, Path)) else \
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
            deck_verdict = tally.deck_verdict(catalog)
            return Check(key, verdicts, tally.summary(), Deck(deck_verdict) if deck_verdict is not None else None,
                         catalog.rulebook)

    def deck(self, cards: str | Path | Iterable[Any], edition: Any = None) -> Deck:
        """The collection judged as one deck (``check-cards --deck``): its size, its Ultra Points."""
        return self.check(cards, edition, deck=True).deck

    def migrate(self, card: Any, to: Any = None, assume: Any = None, reissue: bool = False) -> Migration:
        """What ``migrate --to`` does to the card: its text refurbished, re-issued, unchanged, or the card
        kept as it was (pruned, unknown, unreadable) with every reason.  ``assume`` is the edition of a
        card without an Edition Indicator (``--from``; without it such a card is judged as it is where
        the target's rulebook requires one, and otherwise raises :class:`EditionError`)."""
        from ..migrate.edit import edit_dict
        from ..migrate.plan import MARK, Migrator, NeedsFrom
        from ..migrate.report import Record, outcome
        from .values import Migration

        with self._lock:
            target = self.key(to)
            migrator = Migrator(self.view, target, None if assume is None else self.key(assume), reissue=reissue)
            try:
                d = migrator.decide(card)
            except NeedsFrom:
                raise EditionError("the card bears no Edition Indicator: give the edition it was designed for (assume=…)") from None
            new = edit_dict(card, d) if isinstance(card, dict) and (d.status != "unchanged" or MARK in card) else None
            name = card.get("name") if isinstance(card, dict) else None
            name = name if isinstance(name, str) else None
            record = Record(0, None, name, d, new is not None)
            return Migration(0, name, d.status, outcome(d.status, migrator.words), d.source, d.target, d.assumed,
                             new is not None, d.text, new if new is not None else card, list(d.reasons), list(d.notes),
                             d.replacement, d.remedy, record, dict(migrator.words))


def _card_input(index: int, card: Any) -> Any:
    """A card given as a value, as the collection reader gives it: an entry that is not a mapping is
    an unreadable card, as in a file."""
    from ..cards.collection import CardInput
    from ..errors import Problem

    if isinstance(card, CardInput):
        return card
    if isinstance(card, dict):
        return CardInput(index, card, [], None)
    kind = "null" if card is None else type(card).__name__
    return CardInput(index, None, [Problem("<cards>", 0, 0, f"card {index + 1} is {kind}, not a mapping of fields (name, type, text, …)")], None)


_shared: Rules | None = None
_shared_lock = threading.Lock()


def rules() -> Rules:
    """The bundled rules, loaded once and shared by the module's functions."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Rules()
        return _shared


def editions() -> list[Edition]:
    """Every edition of the bundled rules (:meth:`Rules.editions`)."""
    return rules().editions()


def current() -> EditionKey:
    """The edition every command judges in by default: the newest whose components are known."""
    return rules().current


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
