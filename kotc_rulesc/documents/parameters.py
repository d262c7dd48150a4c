"""A rulebook's parameters, each with the sentence it is read from: players, deck and reserves,
starting hand and HP, the deck's Ultra Points, the Edition Indicator, the lists' titles and whether
they are exhaustive, what a level revision does to older cards, the words of the game (terms), the
zones, an ability's layout and the keywords.

Each is read from the sentence the 11th–17th rulebooks state it in (the patterns below); a
parameter whose sentence the rulebook does not have is not read (``None``: the draft leaves it
out, so that it is unknown, never guessed).  The values are the ``rulebook:`` keys of a rules
file (``rules/README.md``, "Rulebook parameters").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .rulebook import RulebookPage

__all__ = ["Fact", "read_parameters", "DEFAULT_TITLES", "PARAMETERS"]

#: the parameters read, in the order a rules file's ``rulebook:`` writes them
PARAMETERS = ("players", "deck", "reserves", "starting_hand", "starting_hitpoints", "sections", "deck_ultra_points",
              "edition_indicator", "exhaustive_lists", "cost_revised", "terms", "zones", "ability_layout", "keywords")

#: the lists' titles where a rulebook does not name its own (the 1st–12th's): rules' Rulebook.sections
DEFAULT_TITLES = {
    "lists": "Revised and Banned Cards",
    "revised": "Revised Ability Text",
    "redacted": "Redacted Ability Text (Banned Cards)",
    "limits": "Revised Variable Limits",
    "costs": "Revised Costs",
}


@dataclass(frozen=True)
class Fact:
    """A parameter's value and the sentences it rests on."""

    value: Any
    quotes: tuple[str, ...]


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") else word


def _number(page: RulebookPage, pattern: str) -> Fact | None:
    s = page.sentence(pattern)
    if s is None:
        return None
    return Fact(int(re.search(pattern, s).group(1)), (s,))


def _list_after(page: RulebookPage, pattern: str) -> tuple[list[str], str] | None:
    """The items of the list that follows the paragraph ending in ``pattern``'s sentence."""
    rx = re.compile(pattern)
    for block in page.outline.blocks:
        if not block.in_force:
            continue
        seen = None
        for part in block.parts:
            if getattr(part, "text", None) is not None and part.in_force and rx.search(part.text):
                seen = rx.search(part.text).group(0)
            elif seen is not None and hasattr(part, "items"):
                return [i.text for i in part.items if i.in_force], seen
    return None


def read_parameters(page: RulebookPage, nouns: Mapping[str, str] = {}) -> dict[str, Fact]:
    """The parameters the rulebook states; ``nouns`` maps a kind's noun ("activation condition")
    to its id, for the ability's layout."""
    out: dict[str, Fact] = {}

    s = page.sentence(r"can be played by \d+ or more players")
    if s:
        players: dict[str, Any] = {"min": int(re.search(r"by (\d+) or more", s).group(1))}
        quotes = [s]
        rec = page.sentence(r"preferably between \d+ and \d+")
        if rec:
            players["recommended"] = [int(x) for x in re.search(r"between (\d+) and (\d+)", rec).groups()]
            if rec != s:
                quotes.append(rec)
        out["players"] = Fact(players, tuple(quotes))

    s = page.sentence(r"[Tt]he deck must contain \d+\s*[–-]\s*\d+ cards")
    if s:
        lo, hi = re.search(r"contain (\d+)\s*[–-]\s*(\d+) cards", s).groups()
        out["deck"] = Fact({"min": int(lo), "max": int(hi)}, (s,))

    s = page.sentence(r"reserves can contain up to \d+ cards")
    if s:
        out["reserves"] = Fact({"min": 0, "max": int(re.search(r"up to (\d+) cards", s).group(1))}, (s,))

    fact = _number(page, r"(?i)\b(?:draw|take the) (\d+) cards\b")
    if fact:
        out["starting_hand"] = fact
    fact = _number(page, r"begins? the game with (\d+) \w+")
    if fact:
        out["starting_hitpoints"] = fact
    s = page.sentence(r"no more than \d+ Ultra Points|Ultra Points in the deck must be no greater than \d+")
    if s:
        out["deck_ultra_points"] = Fact(int(re.search(r"(\d+)", s).group(1)), (s,))

    titles = {**{k: v for k, v in page.lists.draft_sections.items()}, **page.lists.sections}
    if "levels" in titles:  # the 16th's "Revised Levels" stands where the "Revised Cost Texts" stood
        titles["costs"] = titles.pop("levels")
    if page.lists_title:
        titles["lists"] = page.lists_title
    titles = {k: titles[k] for k in DEFAULT_TITLES if k in titles}
    differ = {k: v for k, v in titles.items() if DEFAULT_TITLES.get(k) != v}
    if differ:
        out["sections"] = Fact(titles, ())

    invalid = page.sentence(r"no Edition Indicator is invalid")
    shown = page.sentence(r"Edition Indicator")
    if invalid:
        out["edition_indicator"] = Fact("required", (invalid,))
    elif shown:
        out["edition_indicator"] = Fact(True, (shown,))

    s = page.sentence(r"exhaustively lists all cases")
    if s:
        out["exhaustive_lists"] = Fact(True, (s,))
    if "levels" in page.lists.sections or "costs" in page.lists.sections:
        s = page.sentence(r"whose design edition is older than the (?:revision|cost revision) edition .* is pruned")
        if s:
            out["cost_revised"] = Fact("prune", (s,))
        else:
            s = page.sentence(r"MUST indicate an edition number no less than the cost revision edition")
            if s:
                out["cost_revised"] = Fact("reissue", (s,))

    terms: dict[str, str] = {}
    quotes: list[str] = []
    s = page.sentence(r"types of cards in Keeper of the Cards: \w+, and \w+")
    if s:
        first, second = re.search(r": (\w+), and (\w+)", s).groups()
        terms.update(creature=_singular(first), spell=_singular(second))
        quotes.append(s)
    s = page.sentence(r"^The (?:level|resource cost) of the card\.$")
    if s:
        terms["cost"] = re.search(r"The (level|resource cost)", s).group(1)
        quotes.append(s)
    s = page.sentence(r"begins? the game with \d+ \w+")
    if s:
        terms["hitpoints"] = re.search(r"with \d+ (\w+)", s).group(1)
        quotes.append(s)
    s = page.sentence(r"the card is \w+ – meaning the card's outdated text")
    if s:
        terms["revised"] = re.search(r"the card is (\w+) – meaning the card's outdated", s).group(1)
        m = re.search(r"or the card is (\w+) – meaning it is no longer", s)
        if m:
            terms["banned"] = m.group(1)
        quotes.append(s)
    if terms:
        out["terms"] = Fact(terms, tuple(quotes))

    found = _list_after(page, r"The zones are as follows:")
    if found:
        out["zones"] = Fact([item.split(":", 1)[0].strip() for item in found[0]], (found[1],))
    if "zones" in out and not any("reserve" in z.lower() for z in out["zones"].value) and "reserves" not in out:
        if not re.search(r"\breserves\b", page.in_force_text()):
            out["reserves"] = Fact({"min": 0, "max": 0}, (f"{found[1]} (no reserves among them; no sentence in force mentions reserves)",))

    found = _list_after(page, r"Each ability is composed of the following components in the following order:")
    if found:
        layout = []
        for item in found[0]:
            label = item.split(":", 1)[0].strip()
            label = re.sub(r"\s*\(.*\)$", "", label).lower()
            layout.append("name" if label == "ability name" else nouns.get(label, label))
        out["ability_layout"] = Fact(layout, (found[1],))

    keywords = [b.title for b in page.outline.blocks if b.in_force and len(b.path) > 1 and b.path[-2] == "Keywords"]
    if keywords:
        out["keywords"] = Fact(keywords, ())
    return out
