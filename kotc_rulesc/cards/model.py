"""What a card reads as: a :class:`ParsedCard` of :class:`Ability`\\ s of :class:`Use`\\ s (each component
sentence identified in one edition's catalog), and the :class:`Reason`\\ s a card is judged by."""

from __future__ import annotations

from typing import Any

from ..catalog import ComponentState
from ..model import When, ordinal
from ..value import Value

#: the reason codes of a judgement, each explained in legality.py: those that mean the card cannot be read
ERROR_CODES = frozenset({"malformed", "unknown-text"})
#: the codes that ban a readable card
BAN_CODES = frozenset({"invalid", "redacted", "over-limit", "cost-revised", "clean-slate", "cost-mismatch"})


def when_phrase(when: When | None, preposition: str = "in") -> str:
    """ "in the 9th edition", "since the 9th edition", or "at an edition no source gives (after the 6th, by the 11th)"."""
    if when is None:
        return "at an edition no source gives"
    if when.edition is not None:
        return f"{preposition} the {ordinal(when.edition)} edition"
    bounds = f"after the {ordinal(when.after)}, by the {ordinal(when.by)}" if when.after is not None else f"by the {ordinal(when.by)}"
    return f"at an edition no source gives ({bounds})"


class Reason(Value):
    """Why a card is not simply legal: a code, a message, the edition and sources it rests on."""

    __slots__ = ("code", "message", "edition", "sources", "field", "instead")

    def __init__(self, code: str, message: str, edition: int | None, sources: tuple[str, ...] = (),
                 field: str | None = None, instead: str | None = None):
        self.code = code
        self.message = message
        self.edition = edition
        self.sources = sources
        self.field = field  # the card field it is about: "offense", "text", "text[2]" (paragraph 2)…
        self.instead = instead  # what to print instead, where the rules say exactly what

    def to_json(self) -> dict[str, Any]:
        out = {"code": self.code, "message": self.message, "edition": self.edition, "sources": list(self.sources),
               "field": self.field}
        if self.instead is not None:
            out["instead"] = self.instead
        return out


class Use(Value):
    """One component sentence on a card: the component, its values in the current wording (an old
    wording's bound values included), the printed ``sentence``, the current ``wording`` it reads as and
    the earlier template it was printed in (``old_wording``, None: the current one)."""

    __slots__ = ("component", "kind", "values", "sentence", "wording", "old_wording", "notes", "state", "reading",
                 "choices", "agreement", "printed_values", "selects", "listed_upper")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, component: str, kind: str, values: dict[str, int], sentence: str, wording: str,
                 old_wording: str | None, notes: list[str] | None = None, state: ComponentState | None = None,
                 reading: Any = None, choices: tuple[tuple[int, int], ...] = (), agreement: tuple[str, ...] = (),
                 printed_values: dict[str, int] | None = None, selects: int | str | None = None,
                 listed_upper: bool = False):
        self.component = component
        self.kind = kind
        self.values = values
        self.sentence = sentence
        self.wording = wording
        self.old_wording = old_wording
        self.notes = [] if notes is None else notes
        self.state = state  # the component as it stands in the edition parsed against
        #: the wording as the card may print it under its system's variations, and the form each of its
        #: choices was printed in: (segment, form); the printed wording's own values
        self.reading = reading
        self.choices = choices
        self.agreement = agreement  # plural forms printed where a value is 1 (the agreement rule)
        self.printed_values = {} if printed_values is None else printed_values
        #: a target selection's number of targets as its text says: 1, its variable ("x"), or None
        self.selects = selects
        self.listed_upper = listed_upper  # the guide lists the wording with a capital first letter


class Ability(Value):
    """One ability paragraph: its name (``None`` if unnamed), its components in order and, where
    the system has sub-abilities (the 12th's), the components of each."""

    __slots__ = ("name", "uses", "paragraph", "subs")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, name: str | None, uses: list[Use], paragraph: int, subs: list[list[Use]] | None = None):
        self.name = name
        self.uses = uses
        self.paragraph = paragraph  # 1-based paragraph (line) of the card text
        self.subs = [] if subs is None else subs


class ParsedCard(Value):
    """A card's text as read: its card-level component, its abilities, what its rules warn of."""

    __slots__ = ("card_part", "abilities", "no_abilities", "card_part_paragraph", "empty_text", "warnings", "prescribed")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, card_part: Use | None, abilities: list[Ability], no_abilities: bool,
                 card_part_paragraph: int | None = None, empty_text: str | None = None,
                 warnings: list[Reason] | None = None, prescribed: dict[int, str] | None = None):
        self.card_part = card_part  # a card-level component (the 1st–11th's caveat), its own first paragraph
        self.abilities = abilities
        self.no_abilities = no_abilities  # the card says its type's text for no abilities
        self.card_part_paragraph = card_part_paragraph
        self.empty_text = empty_text  # its type's text for no abilities
        #: the *should* rules the text breaks (codes agreement, variation, capitals, tutorial)
        self.warnings = [] if warnings is None else warnings
        #: paragraph (1-based line) → the paragraph as the rules prescribe it, where it differs
        self.prescribed = {} if prescribed is None else prescribed

    def in_states(self, states: dict[str, ComponentState]) -> "ParsedCard":
        """The same reading, each component as it stands in another edition (``states``: id → state)."""
        moved = {id(u): u.replace(state=states[u.component]) for u in self.uses()}
        return ParsedCard(moved[id(self.card_part)] if self.card_part else None,
                          [Ability(a.name, [moved[id(u)] for u in a.uses], a.paragraph, [[moved[id(u)] for u in s] for s in a.subs])
                           for a in self.abilities],
                          self.no_abilities, self.card_part_paragraph, self.empty_text, self.warnings, self.prescribed)

    def located_uses(self) -> list[tuple[int | None, Use]]:
        """Every component use with its paragraph, the card-level one first."""
        out: list[tuple[int | None, Use]] = [(self.card_part_paragraph, self.card_part)] if self.card_part else []
        return out + [(a.paragraph, u) for a in self.abilities for u in a.uses]

    def uses(self) -> list[Use]:
        """Every component use, the card-level one first."""
        return [u for _, u in self.located_uses()]

    def text(self) -> str:
        """The card text in current wordings, one paragraph per line."""
        lines = [self.card_part.wording] if self.card_part else []
        for a in self.abilities:
            body = " ".join(u.wording for u in a.uses)
            lines.append(f"{a.name}: {body}" if a.name else body)
        if self.no_abilities and self.empty_text:
            lines.append(self.empty_text)
        return "\n".join(lines)
