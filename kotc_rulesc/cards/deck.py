"""A collection judged as one deck: its size and its Ultra Points, by the edition's rulebook.

The rulebook states the deck's size ("The deck must contain 40–60 cards") and, from the 17th,
its Ultra Points ("The total amount of Ultra Points in the deck must be no greater than 10.");
a card's Ultra Points are the sum of its texts' "[+N]" (:func:`~kotc_rulesc.cards.cost.card_cost`
adds them up).  What the rulebook does not state is not checked, and said so.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..model import ordinal
from ..record import field, record

__all__ = ["DeckTally", "DeckVerdict", "judge_deck"]


@record
class DeckVerdict:
    cards: int
    ultra_points: int | None  # None: a card's Ultra Points could not be computed
    ultra_limit: int | None = None  # the rulebook's limit (None: the edition has none)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "ultra_points": self.ultra_points, "ultra_limit": self.ultra_limit, "legal": self.legal,
                "problems": list(self.problems), "notes": list(self.notes)}

    def text(self) -> str:
        ultra = "" if self.ultra_limit is None or self.ultra_points is None else f", {self.ultra_points} Ultra Points"
        lines = [f"deck: {self.cards} card{'s' if self.cards != 1 else ''}{ultra}: " + ("legal" if self.legal else "NOT LEGAL")]
        lines += [f"    {p}" for p in self.problems] + [f"    note: {n}" for n in self.notes]
        return "\n".join(lines)


class DeckTally:
    """What judging a deck needs of its cards, counted card after card (a collection of any size
    is judged as a deck in constant memory): how many, their Ultra Points, how many have none known."""

    def __init__(self) -> None:
        self.cards = 0
        self.ultra_points = 0
        self.unreadable = 0  # cards whose Ultra Points could not be computed

    def add(self, judgement: Any) -> None:
        self.cards += 1
        points = judgement.breakdown.get("ultra_points") if judgement.breakdown else None
        if points is None:
            self.unreadable += 1
        else:
            self.ultra_points += points

    def verdict(self, catalog: Any) -> DeckVerdict:
        """The deck made of every card added, in the judgements' edition (``catalog``)."""
        rulebook = catalog.rulebook
        n = catalog.edition
        ultra = None if self.unreadable else self.ultra_points
        verdict = DeckVerdict(self.cards, ultra, rulebook.deck_ultra_points if rulebook else None)
        if rulebook is None:
            verdict.notes.append(f"no source gives the {ordinal(n)} edition's rulebook: the deck's size is not checked")
            return verdict
        where = f"the {ordinal(rulebook.edition)} edition's rulebook ({', '.join(rulebook.sources)})"
        deck = rulebook.deck
        if deck is None:
            verdict.notes.append(f"{where} states no deck size")
        else:
            if deck.min is not None and self.cards < deck.min:
                verdict.problems.append(f"{self.cards} cards: {where} asks for at least {deck.min}")
            if deck.max is not None and self.cards > deck.max:
                verdict.problems.append(f"{self.cards} cards: {where} allows at most {deck.max}")
        if rulebook.deck_ultra_points is not None:
            limit = rulebook.deck_ultra_points
            if ultra is None:
                verdict.notes.append(f"the Ultra Points of {self.unreadable} card(s) could not be computed (unreadable cards): "
                                     f"the total is not checked against {where}'s limit of {limit}")
            elif ultra > limit:
                verdict.problems.append(f"{ultra} Ultra Points: {where} allows at most {limit} in a deck")
        return verdict


def judge_deck(judgements: Iterable[Any], catalog: Any) -> DeckVerdict:
    """The deck made of every judged card, in the judgements' edition (``catalog``)."""
    tally = DeckTally()
    for j in judgements:
        tally.add(j)
    return tally.verdict(catalog)
