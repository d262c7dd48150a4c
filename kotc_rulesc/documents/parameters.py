"""A rulebook's parameters (the ``rulebook:`` keys of a rules file), each with the sentence it is read
from.  A parameter whose sentence the rulebook does not have is not read: the draft leaves it out,
so that it is unknown, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from ..model import LIST_TITLES
from .rulebook import RulebookPage

__all__ = ["Fact", "read_parameters", "PARAMETERS"]

#: the parameters read, in the order a rules file's ``rulebook:`` writes them
PARAMETERS = ("players", "deck", "reserves", "starting_hand", "starting_hitpoints", "sections", "deck_ultra_points",
              "edition_indicator", "exhaustive_lists", "cost_revised", "terms", "zones", "ability_layout", "keywords")

@dataclass(frozen=True)
class Fact:
    """A parameter's value and the sentences it rests on."""

    value: Any
    quotes: tuple[str, ...]


def _match(page: RulebookPage, pattern: str) -> tuple[re.Match | None, str]:
    """``pattern`` matched in the first sentence in force it is found in, and that sentence."""
    s = page.sentence(pattern)
    return (re.search(pattern, s), s) if s else (None, "")


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

    m, s = _match(page, r"can be played by (\d+) or more players")
    if m:
        players: dict[str, Any] = {"min": int(m[1])}
        quotes = [s]
        rec, said = _match(page, r"preferably between (\d+) and (\d+)")
        if rec:
            players["recommended"] = [int(rec[1]), int(rec[2])]
            if said != s:
                quotes.append(said)
        out["players"] = Fact(players, tuple(quotes))
    m, s = _match(page, r"[Tt]he deck must contain (\d+)\s*[–-]\s*(\d+) cards")
    if m:
        out["deck"] = Fact({"min": int(m[1]), "max": int(m[2])}, (s,))
    m, s = _match(page, r"reserves can contain up to (\d+) cards")
    if m:
        out["reserves"] = Fact({"min": 0, "max": int(m[1])}, (s,))
    m, s = _match(page, r"(?i)\b(?:draw|take the) (\d+) cards\b")
    if m:
        out["starting_hand"] = Fact(int(m[1]), (s,))
    hitpoints, hp_sentence = _match(page, r"begins? the game with (\d+) (\w+)")
    if hitpoints:
        out["starting_hitpoints"] = Fact(int(hitpoints[1]), (hp_sentence,))
    m, s = _match(page, r"no more than \d+ Ultra Points|Ultra Points in the deck must be no greater than \d+")
    if m:
        out["deck_ultra_points"] = Fact(int(re.search(r"\d+", s)[0]), (s,))

    titles = {**page.lists.draft_sections, **page.lists.sections}
    if "levels" in titles:  # the 16th's "Revised Levels" stands where the "Revised Cost Texts" stood
        titles["costs"] = titles.pop("levels")
    if page.lists_title:
        titles["lists"] = page.lists_title
    titles = {k: titles[k] for k in LIST_TITLES if k in titles}
    if any(LIST_TITLES[k] != v for k, v in titles.items()):
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
        if s := page.sentence(r"whose design edition is older than the (?:revision|cost revision) edition .* is pruned"):
            out["cost_revised"] = Fact("prune", (s,))
        elif s := page.sentence(r"MUST indicate an edition number no less than the cost revision edition"):
            out["cost_revised"] = Fact("reissue", (s,))

    terms: dict[str, str] = {}
    quotes = []
    m, s = _match(page, r"types of cards in Keeper of the Cards: (\w+), and (\w+)")
    if m:
        terms.update(creature=m[1].removesuffix("s"), spell=m[2].removesuffix("s"))
        quotes.append(s)
    m, s = _match(page, r"^The (level|resource cost) of the card\.$")
    if m:
        terms["cost"] = m[1]
        quotes.append(s)
    if hitpoints:
        terms["hitpoints"] = hitpoints[2]
        quotes.append(hp_sentence)
    m, s = _match(page, r"the card is (\w+) – meaning the card's outdated text")
    if m:
        terms["revised"] = m[1]
        banned = re.search(r"or the card is (\w+) – meaning it is no longer", s)
        if banned:
            terms["banned"] = banned[1]
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
