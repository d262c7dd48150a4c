"""What a card's judgement depends on, and the one memo of decisions keyed by it.

The card engine reads of a card only its *decisive* fields: the type, the Edition
Indicator, the text, and each edition's figure (cost, level) and stats (offense,
defense; sp, hp) — :func:`~kotc_rulesc.cards.fields.read_fields`,
:func:`~kotc_rulesc.cards.parse.parse_card`, :func:`~kotc_rulesc.cards.cost.card_cost` —
and of the name only whether it is one (a string that is not blank).  A field that is
absent reads as one that is null.  The name itself, flavor, artist, an earlier run's
migration marker and any field the rules do not know change nothing.  So a judgement of a
card in an edition (``check-cards``), and what migrating it to an edition does
(``migrate``: its text rewritten, then judged), are the same for every card that agrees
on the decisive fields, and a collection holding many copies of a design is decided once
per design.  :class:`DecisionMemo` is that memo for both commands.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

from ..memo import Memo

__all__ = ["DecisionMemo"]

T = TypeVar("T")
#: the types a decisive value may have to be part of a key: exact types, so that True is not 1
#: (nor 1.0, which a float would make equal); anything else is decided on its own
_PLAIN = frozenset((str, int, type(None)))


class DecisionMemo:
    """Decisions about cards (a judgement, a migration), remembered by the card's decisive fields.

    ``limit`` bounds the number of distinct cards remembered (two generations of that many,
    :class:`~kotc_rulesc.memo.Memo`).  ``hits`` and ``misses`` count the cards decided."""

    __slots__ = ("fields", "_memo", "hits", "misses")

    def __init__(self, view: Any, limit: int = 8192):
        self.fields = tuple(view.decisive_fields())  # (compiled into the tables: no catalog is loaded)
        self._memo = Memo(limit)
        self.hits = 0
        self.misses = 0

    def key(self, card: Any) -> tuple | None:
        """The decisive fields of ``card`` as a key, or ``None`` when the card is unusual enough to be
        decided on its own: not a plain ``dict``, no valid name, a decisive value that is not a string,
        a whole number or null."""
        if type(card) is not dict:
            return None
        get = card.get
        name = get("name")
        if type(name) is not str or not name or name.isspace():
            return None
        key = tuple(map(get, self.fields))
        return key if _PLAIN.issuperset(map(type, key)) else None

    def decide(self, card: Any, compute: Callable[[Any], T], design: Hashable = None) -> T:
        """The decision for ``card``: remembered, or ``compute(card)`` (then remembered).  ``design``:
        what the reader knows of the card that decides it as its decisive fields do (a JSONL line's text
        after its plain name, the same for every copy of a design): looked up first, then remembered too."""
        memo = self._memo
        if design is not None:
            hit = memo.get(design)
            if hit is not None:
                self.hits += 1
                return hit
        key = self.key(card)
        hit = memo.get(key) if key is not None else None
        if hit is None:
            self.misses += 1
            hit = compute(card)
            if key is not None:
                memo.put(key, hit)
        else:
            self.hits += 1
        if design is not None:
            memo.put(design, hit)
        return hit

    def __len__(self) -> int:
        return len(self._memo)
