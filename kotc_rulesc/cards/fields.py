"""The printed fields of a card, checked: name, type, edition, cost, offense, defense, text.

A card is a plain mapping as read from a collection.  :func:`read_fields`
checks each field the card engine needs and returns them typed, with one
``malformed`` :class:`~kotc_rulesc.cards.model.Reason` per problem, naming the
field.  Fields it does not know (flavor, artist, image, notes…) are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model import Reason

#: the printed card types; "minion" is the 12th edition's word for a creature
TYPES = {"creature": "creature", "spell": "spell", "minion": "creature"}
#: offense and defense are whole numbers in this range (Card Building Guide)
STAT_RANGE = (0, 99)


@dataclass
class CardFields:
    name: str | None
    type: str | None  # "creature" or "spell"; None when missing or invalid
    printed_type: str | None  # as printed ("minion" stays "minion")
    edition: int | None  # the Edition Indicator; None: the card has none
    cost: int | None  # the printed cost; None: not given
    offense: int | None
    defense: int | None
    paragraphs: list[tuple[int, str]] | None  # (1-based line of the text, paragraph); blank lines skipped


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_fields(card: Any, edition: int | None, last_edition: int | None = None, sources: tuple[str, ...] = ()) -> tuple[CardFields, list[Reason]]:
    """Check and type the fields of ``card``; ``edition`` is the edition judged (for the reasons),
    ``sources`` the sources of the card-building rules (offense/defense range)."""
    problems: list[Reason] = []

    def bad(fld: str | None, message: str, rule_sources: tuple[str, ...] = ()) -> None:
        problems.append(Reason("malformed", message, edition, rule_sources, fld))

    out = CardFields(None, None, None, None, None, None, None, None)
    if not isinstance(card, dict):
        bad(None, f"a card is a mapping of fields (name, type, text, …), not {_kind_of(card)}")
        return out, problems

    name = card.get("name")
    if "name" not in card or name is None:
        bad("name", "missing field 'name' (the card's name)")
    elif not isinstance(name, str) or not name.strip():
        bad("name", f"'name' must be a non-empty string, not {_kind_of(name)}" if not isinstance(name, str) else "'name' is empty")
    else:
        out.name = name

    kind = card.get("type")
    if "type" not in card or kind is None:
        bad("type", "missing field 'type': creature or spell")
    elif not isinstance(kind, str):
        bad("type", f"'type' must be the string creature or spell, not {_kind_of(kind)}")
    elif kind.strip().lower() not in TYPES:
        bad("type", f"unknown type {kind!r}: a card is a creature or a spell (minion is the 12th edition's word for creature)")
    else:
        out.printed_type = kind.strip().lower()
        out.type = TYPES[out.printed_type]

    ed = card.get("edition")
    if ed is not None:
        if not _whole(ed):
            bad("edition", f"'edition' (the Edition Indicator) must be a whole number such as 11, or null when the card has none, not {_kind_of(ed)}")
        elif ed < 1:
            bad("edition", f"'edition' (the Edition Indicator) must be 1 or more, not {ed}")
        elif last_edition is not None and ed > last_edition:
            bad("edition", f"Edition Indicator {ed} is later than any edition the rules know (the last is {last_edition})")
        else:
            out.edition = ed

    cost = card.get("cost")
    if cost is not None:
        if not _whole(cost):
            bad("cost", f"'cost' (the printed resource cost) must be a whole number, not {_kind_of(cost)}")
        elif cost < 0:
            bad("cost", f"'cost' (the printed resource cost) cannot be negative ({cost})")
        else:
            out.cost = cost

    lo, hi = STAT_RANGE
    for stat in ("offense", "defense"):
        value = card.get(stat)
        if out.type == "spell":
            if value is not None:
                bad(stat, f"a spell has no {stat} (found {stat}: {value!r}); only creatures have offense and defense", sources)
            continue
        if value is None:
            if out.type == "creature":
                bad(stat, f"missing field '{stat}': a creature's {stat} is a whole number from {lo} to {hi}", sources)
            continue
        if not _whole(value):
            bad(stat, f"'{stat}' must be a whole number from {lo} to {hi}, not {_kind_of(value)} ({value!r})", sources)
        elif not lo <= value <= hi:
            bad(stat, f"{stat} {value} is out of range: offense and defense are whole numbers from {lo} to {hi}", sources)
        else:
            setattr(out, stat, value)

    text = card.get("text")
    if "text" not in card or text is None:
        bad("text", "missing field 'text': the ability text, one paragraph per line (\"This card has no abilities.\" for none)")
    elif not isinstance(text, str):
        bad("text", f"'text' must be a string (one paragraph per line), not {_kind_of(text)}")
    else:
        out.paragraphs = [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
    return out, problems
