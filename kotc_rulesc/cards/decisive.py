"""The one memo of decisions about cards (a judgement, a migration), keyed by a card's decisive fields.

The card engine reads of a card only its type, Edition Indicator, text, each edition's figure and stats,
whether its name is one, and the keys that print one of those fields in another case ("Level", which it
says is no field): every copy of a design is decided once, by ``check-cards`` and ``migrate``.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from ..memo import Memo

__all__ = ["DecisionMemo"]

#: the exact types a decisive value may have in a key (True is not 1, nor is 1.0); others are decided alone
_PLAIN = frozenset((str, int, type(None)))


class DecisionMemo:
    """Decisions remembered by the card's decisive fields (``limit``: see :class:`~kotc_rulesc.memo.Memo`);
    ``hits`` and ``misses`` count the cards decided."""

    __slots__ = ("fields", "_names", "_memo", "hits", "misses")

    def __init__(self, view: Any, limit: int = 8192):
        self.fields = tuple(view.decisive_fields())
        self._names = frozenset(self.fields) | {"name"}
        self._memo = Memo(limit)
        self.hits = 0
        self.misses = 0

    def key(self, card: Any) -> tuple | None:
        """The decisive fields as a key; ``None`` for a card to decide alone (not a plain dict, no valid
        name, a decisive value not a string, a whole number or null)."""
        if type(card) is not dict:
            return None
        get = card.get
        name = get("name")
        if type(name) is not str or not name or name.isspace():
            return None
        key = tuple(map(get, self.fields))
        if not _PLAIN.issuperset(map(type, key)):
            return None
        names = self._names  # a field in another case ("Level") is judged, unless empty: part of the key
        cased = tuple((k, card[k] is None) for k in card if k not in names and type(k) is str and k.lower() in names)
        return key + cased if cased else key

    def decide(self, card: Any, compute: Callable[[Any], Any], design: Hashable = None) -> Any:
        """The decision for ``card``, remembered or ``compute(card)``.  ``design``: what decides the card as
        its decisive fields do (a JSONL line after its plain name), looked up first and remembered too."""
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
