"""A collection judged as one deck, by the edition's rulebook: its size and, from the 17th, its Ultra Points
(the sum of its cards' "[+N]").  A deck holds only legal cards (every guide and rulebook says so in its
words), so any other card makes it not legal; what the rulebook does not state is not checked, and said so;
where no source gives the rulebook at all (the 8th), the deck's legality is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..model import ordinal
from ..outcomes import outcome_word

__all__ = ["DeckTally", "DeckVerdict", "judge_deck"]


@dataclass(slots=True)  # (only --deck defines it)
class DeckVerdict:
    cards: int
    ultra_points: int | None  # None: a card's Ultra Points could not be computed
    ultra_limit: int | None = None  # the rulebook's limit (None: the edition has none)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    known: bool = True  # False: no source gives the rulebook that says what a deck holds (a note says so)

    @property
    def legal(self) -> bool | None:
        """False where a card may not be used or a rule is broken; else None (unknown) where no source gives
        the rulebook, as a card's figure no source gives is null in the JSON."""
        return False if self.problems else True if self.known else None

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "ultra_points": self.ultra_points, "ultra_limit": self.ultra_limit, "legal": self.legal,
                "problems": list(self.problems), "notes": list(self.notes)}

    def text(self) -> str:
        ultra = "" if self.ultra_limit is None or self.ultra_points is None else f", {self.ultra_points} Ultra Points"
        lines = [f"deck: {self.cards} card{'s' if self.cards != 1 else ''}{ultra}: " + (
            "legal" if self.legal else "NOT LEGAL" if self.problems else "legality unknown")]
        lines += [f"    {p}" for p in self.problems] + [f"    note: {n}" for n in self.notes]
        return "\n".join(lines)


#: how many of the cards that may not be used a verdict names (the others are counted)
NAMED = 5


class DeckTally:
    """What judging a deck needs of its cards, counted card after card in constant memory."""

    def __init__(self) -> None:
        self.cards = 0
        self.ultra_points = 0  # of the cards whose Ultra Points are known
        self.unreadable = 0  # cards whose Ultra Points could not be computed
        self.not_legal = 0  # cards that may not be used in a deck
        self.named: list[tuple[int, str, str, tuple[str, ...]]] = []  # (index, name, status, reason codes)

    def add(self, judgement: Any) -> None:
        self.cards += 1
        points = judgement.ultra_points if getattr(judgement, "counts_ultra", False) else None
        if points is None:
            points = judgement.breakdown.get("ultra_points") if judgement.breakdown else None
        if points is None:
            self.unreadable += 1
        else:
            self.ultra_points += points
        if judgement.status != "legal":
            self.not_legal += 1
            if len(self.named) < NAMED:
                codes = tuple(dict.fromkeys(r.code for r in judgement.reasons))
                name = judgement.name if judgement.name is not None else "(no name)"
                self.named.append((judgement.index, name, judgement.status, codes))

    def verdict(self, catalog: Any) -> DeckVerdict:
        """The deck made of every card added, in the judgements' edition (``catalog``)."""
        rulebook = catalog.rulebook
        n = catalog.edition
        ultra = None if self.unreadable else self.ultra_points
        verdict = DeckVerdict(self.cards, ultra, rulebook.deck_ultra_points if rulebook else None)
        if self.not_legal:
            more = f" and {self.not_legal - len(self.named)} more" if self.not_legal > len(self.named) else ""
            terms = rulebook.terms if rulebook is not None else None  # (numbered from 1, the outcome in the edition's word)
            named = ", ".join(f"[{i + 1}] {name} ({outcome_word(status, terms, codes)}: {', '.join(codes) or status})"
                              for i, name, status, codes in self.named)
            verdict.problems.append(
                f"{self.not_legal} card{'s' if self.not_legal != 1 else ''} that may not be used in a deck of the "
                f"{ordinal(n)} edition (a deck holds only legal cards): {named}{more}")
        if rulebook is None:
            verdict.known = False
            verdict.notes.append(f"no source gives the {ordinal(n)} edition's rulebook: what a deck holds (its size) is unknown")
            return verdict
        where = f"the {ordinal(rulebook.edition)} edition's rulebook ({', '.join(rulebook.sources)})"
        deck = rulebook.deck
        if deck is None:
            verdict.notes.append(f"{where} states no deck size")
        else:
            exactly = deck.min is not None and deck.min == deck.max  # ("must have exactly 40 cards", the 9th's)
            held = f"{self.cards} card{'s' if self.cards != 1 else ''}"
            if deck.min is not None and self.cards < deck.min:
                verdict.problems.append(f"{held}: {where} asks for {'exactly' if exactly else 'at least'} {deck.min}")
            if deck.max is not None and self.cards > deck.max:
                verdict.problems.append(f"{held}: {where} " + (f"asks for exactly {deck.max}" if exactly else
                                                                           f"allows at most {deck.max}"))
        if rulebook.deck_ultra_points is not None:
            limit = rulebook.deck_ultra_points
            if self.ultra_points > limit:
                least = "at least " if self.unreadable else ""
                verdict.problems.append(f"{least}{self.ultra_points} Ultra Points: {where} allows at most {limit} in a deck")
            elif self.unreadable:
                verdict.notes.append(f"the Ultra Points of {self.unreadable} card(s) could not be computed (their texts were "
                                     "not read: unreadable, or of a catalog a clean slate replaced): "
                                     f"the {self.ultra_points} of the others are within {where}'s limit of {limit}, "
                                     "the total is not known")
        return verdict


def judge_deck(judgements: Iterable[Any], catalog: Any) -> DeckVerdict:
    """The deck made of every judged card, in the judgements' edition (``catalog``)."""
    tally = DeckTally()
    for j in judgements:
        tally.add(j)
    return tally.verdict(catalog)
