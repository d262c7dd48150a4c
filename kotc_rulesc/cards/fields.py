"""The printed fields of a card, checked and typed: name, type, edition, figure (cost, level), stats, text;
one ``malformed`` reason per problem, naming the field.  Other fields (flavor, artist…) are left alone."""

from __future__ import annotations

import re
from typing import Any

from ..text import MAX_DIGITS
from ..value import Value
from .model import Reason

_LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))

class CardFields(Value):
    """The fields of a card the engine reads, each as read (None: missing or invalid)."""

    __slots__ = ("name", "type", "printed_type", "edition", "cost", "stats", "paragraphs")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, name: str | None, type: str | None, printed_type: str | None, edition: int | None,
                 cost: int | None, stats: dict[str, int], paragraphs: list[tuple[int, str]] | None):
        self.name = name
        self.type = type  # a card type of the system ("creature", "spell"); None when missing or invalid
        self.printed_type = printed_type  # as printed (a later edition's word for the type stays as printed)
        self.edition = edition  # the Edition Indicator; None: the card has none
        self.cost = cost  # the printed figure (the system's: resource cost, level); None: not given
        self.stats = stats  # the type's printed stats (offense, defense), those that are valid
        self.paragraphs = paragraphs  # (1-based line of the text, paragraph); blank lines skipped


#: how a message names a value's kind (the first that it is)
_KINDS = ((bool, "a boolean"), (int, "a whole number"), (float, "a decimal number"), (str, "a string"),
          ((list, tuple), "a list"), (dict, "a mapping"))


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    return next((name for types, name in _KINDS if isinstance(value, types)), type(value).__name__)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_text(stats: Any) -> str:
    bounds = {(st.min, st.max) for st in stats}
    if len(bounds) == 1:
        lo, hi = next(iter(bounds))
        names = " and ".join(st.name for st in stats)
        if lo is not None and hi is not None:
            return f"{names} are whole numbers from {lo} to {hi}"
        if lo is not None:
            return f"{names} are whole numbers no lower than {lo}"
    return ", ".join(f"{st.name} {_span(st.min, st.max)}" for st in stats)


def _span(lo: int | None, hi: int | None) -> str:
    """ "from 0 to 20", "no lower than 0", "no higher than 20" (a bound no source gives is left out)"""
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    return f"no lower than {lo}" if lo is not None else f"no higher than {hi}" if hi is not None else "of any value"


def read_fields(card: Any, system: Any, edition: Any, last_edition: int | None = None, sources: tuple[str, ...] = (),
                aliases: dict[str, str] | None = None) -> tuple[CardFields, list[Reason]]:
    """The fields of ``card`` by the card-building ``system``; ``edition`` is the edition judged, ``sources``
    the card-building rules', ``aliases`` other editions' words for a type (minion)."""
    problems: list[Reason] = []
    types = {t.id: t for t in system.types}
    aliases = {w: t for w, t in (aliases or {}).items() if t in types and w not in types}
    names = " or ".join(types)

    def bad(fld: str | None, message: str, rule_sources: tuple[str, ...] = ()) -> None:
        problems.append(Reason("malformed", message, edition, rule_sources, fld))

    out = CardFields(None, None, None, None, None, {}, None)
    if not isinstance(card, dict):
        bad(None, f"a card is a mapping of fields (name, type, text, …), not {kind_of(card)}")
        return out, problems

    def other_case(fld: str) -> str | None:
        """The key printed for ``fld`` in another case ("Level"), which is no field (the decision memo keys
        a card by such keys too: :class:`~kotc_rulesc.cards.decisive.DecisionMemo`)."""
        if card.get(fld) is not None:
            return None
        return next((k for k in card if isinstance(k, str) and k != fld and k.lower() == fld), None)

    def found(fld: str) -> str:
        """The key a missing field ``fld`` was printed as, in another case."""
        key = other_case(fld)
        return f" (found '{key}': field names are lowercase, write '{fld}')" if key is not None else ""

    name = card.get("name")
    if name is None:  # (present and null, a card is decided alone as when it is absent: DecisionMemo.key)
        bad("name", ("'name' is null: the card's name is a non-empty string (in YAML, quote a name "
                     "that reads as null: name: \"Null\")" if "name" in card
                     else "missing field 'name' (the card's name)") + found("name"))
    elif not isinstance(name, str) or not name.strip():
        quote = (" (a name that reads as a number, true or false is written in quotes: name: \"1984\")"
                 if isinstance(name, (bool, int, float)) else "")
        bad("name", f"'name' must be a non-empty string, not {kind_of(name)}{quote}" if not isinstance(name, str) else "'name' is empty")
    else:
        out.name = name

    kind = card.get("type")
    if kind is None:
        bad("type", f"missing field 'type': {names}" + found("type"))
    elif not isinstance(kind, str):
        bad("type", f"'type' must be the string {names}, not {kind_of(kind)}")
    elif kind.strip().lower() not in types and kind.strip().lower() not in aliases:
        also = "".join(f" ({w} is another edition's word for {t})" for w, t in sorted(aliases.items()))
        bad("type", f"unknown type {kind!r}: a card is a {' or a '.join(types)}{also}")
    else:
        out.printed_type = kind.strip().lower()
        out.type = aliases.get(out.printed_type, out.printed_type)

    for fld in ("edition", system.figure):  # (optional fields: one printed in another case is not read, say so)
        if (key := other_case(fld)) is not None and card[key] is not None:  # (left empty: nothing unread)
            bad(key, f"'{key}' is no field of a card: field names are lowercase, write '{fld}'")
    ed = card.get("edition")
    if ed is not None:
        if not _whole(ed):
            bad("edition", f"'edition' (the Edition Indicator) must be a whole number such as 11, or null when the card has none, not {kind_of(ed)}")
        elif ed < 1:
            bad("edition", f"'edition' (the Edition Indicator) must be 1 or more, not {ed}")
        elif last_edition is not None and ed > last_edition:
            bad("edition", f"Edition Indicator {ed} is later than any edition the rules know (the last is {last_edition})")
        else:
            out.edition = ed

    figure = system.figure
    printed = card.get(figure)
    if printed is not None:
        if not _whole(printed):
            bad(figure, f"'{figure}' (the printed {system.figure_title}) must be a whole number, not {kind_of(printed)}")
        elif printed < 0:
            bad(figure, f"'{figure}' (the printed {system.figure_title}) cannot be negative ({printed})")
        else:
            out.cost = printed

    owners: dict[str, list[str]] = {}
    for t in system.types:
        for st in t.stats:
            owners.setdefault(st.name, []).append(t.id)
    own = types[out.type].stats if out.type else ()
    for stat, holders in owners.items():
        value = card.get(stat)
        decl = next((st for st in own if st.name == stat), None)
        if decl is None:
            if out.type is not None and value is not None:
                holder = types[holders[0]]
                bad(stat, f"a {out.type} has no {stat} (found {stat}: {value!r}); only {' and '.join(h + 's' for h in holders)} "
                          f"have {' and '.join(st.name for st in holder.stats)}", sources)
            continue
        lo, hi = decl.min, decl.max
        span = _span(lo, hi) if lo is not None else ""
        if value is None:
            bad(stat, f"missing field '{stat}': a {out.type}'s {stat} is a whole number {span}".rstrip() + found(stat), sources)
            continue
        if not _whole(value):
            bad(stat, f"'{stat}' must be a whole number {span}, not {kind_of(value)} ({value!r})".replace("  ", " "), sources)
        elif (lo is not None and value < lo) or (hi is not None and value > hi):
            bad(stat, f"{stat} {value} is out of range: {_range_text(own)}", sources)
        else:
            out.stats[stat] = value

    text = card.get("text")
    if text is None:
        # what its type prints for no ability: the guide's text, or nothing (a 17th minion may have none)
        own = types.get(out.type) if out.type is not None else None
        empty = own.empty_text if own is not None else next((t.empty_text for t in system.types if t.empty_text), None)
        hint = f" (\"{empty}\" for none)" if empty else \
            f" (text: \"\" for a {own.id} without abilities)" if own is not None and own.abilities_min == 0 else ""
        bad("text", f"missing field 'text': the ability text, one paragraph per line{hint}" + found("text"))
    elif not isinstance(text, str):
        bad("text", f"'text' must be a string (one paragraph per line), not {kind_of(text)}")
    else:
        paragraphs = [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        long = [(i, m) for i, line in paragraphs for m in _LONG_NUMBER.finditer(line)]
        for i, m in long:  # the input policy's limit on a number (a longer one fills no [x])
            bad(f"text[{i}]", f"a number of {len(m.group())} digits (at most {MAX_DIGITS})")
        out.paragraphs = None if long else paragraphs
    return out, problems
