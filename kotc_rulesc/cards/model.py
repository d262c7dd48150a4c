"""What a card reads as: component uses, abilities, and the reasons a card is judged by.

A printed card is a plain ``dict`` (as read from the collection, extra fields
kept); parsing it against one edition's catalog gives a :class:`ParsedCard`:
the caveat and abilities, each component sentence identified as a :class:`Use`
of a catalog component with its variable values.
"""

from __future__ import annotations

from typing import Any

from ..catalog import ComponentState
from ..model import When, ordinal
from ..record import field, record

#: the reason codes of a judgement (ARCHITECTURE.md, "Cards")
REASON_CODES = (
    "invalid",
    "redacted",
    "over-limit",
    "cost-revised",
    "clean-slate",
    "unknown-text",
    "malformed",
    "cost-mismatch",
    "unknown-fact",
)
def when_phrase(when: When | None, preposition: str = "in") -> str:
    """ "in the 9th edition", "since the 9th edition", or "at an edition no source gives (after the 6th, by the 11th)"."""
    if when is None:
        return "at an edition no source gives"
    if when.edition is not None:
        return f"{preposition} the {ordinal(when.edition)} edition"
    bounds = f"after the {ordinal(when.after)}, by the {ordinal(when.by)}" if when.after is not None else f"by the {ordinal(when.by)}"
    return f"at an edition no source gives ({bounds})"


#: the codes that mean the card cannot be read at all
ERROR_CODES = frozenset({"malformed", "unknown-text"})
#: the codes that ban a readable card
BAN_CODES = frozenset({"invalid", "redacted", "over-limit", "cost-revised", "clean-slate", "cost-mismatch"})


@record(frozen=True)
class Reason:
    """Why a card is not simply legal: a code, a message, the edition and sources it rests on."""

    code: str
    message: str
    edition: int | None
    sources: tuple[str, ...] = ()
    field: str | None = None  # the card field it is about: "offense", "text", "text[2]" (paragraph 2)…
    #: what to print instead (the paragraph, or the field's value) where the rules say exactly what:
    #: a warning's always, a malformed text's when one rule was broken ("two arrows between activation
    #: costs": "… and …→")
    instead: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "code": self.code,
            "message": self.message,
            "edition": self.edition,
            "sources": list(self.sources),
            "field": self.field,
        }
        if self.instead is not None:
            out["instead"] = self.instead
        return out


#: the codes of a warning: a *should* (or "recommended") rule of the guides that a card breaks; it stays
#: legal, and the warning says what to print instead (Judgement.warnings)
WARNING_CODES = ("agreement", "variation", "capitals", "tutorial")


@record
class Use:
    """One component sentence on a card.

    ``component`` is the component id; ``values`` its variable values in the
    current wording (an old wording's bound values included); ``sentence`` the
    printed sentence (normalized); ``wording`` the current concrete text it reads
    as; ``old_wording`` the earlier template it was printed in (``None`` when it
    is printed in the current wording)."""

    component: str
    kind: str
    values: dict[str, int]
    sentence: str
    wording: str
    old_wording: str | None
    notes: list[str] = field(default_factory=list)
    state: ComponentState | None = None  # the component as it stands in the edition parsed against
    #: the wording as the card may print it under its system's variations (what was matched), and the
    #: form each of its choices was printed in: (segment, form); the printed wording's own values
    reading: Any = None
    choices: tuple[tuple[int, int], ...] = ()
    #: plural forms printed where a value is 1 (the agreement rule: "'cards' should be 'card' for x = 1")
    agreement: tuple[str, ...] = ()
    printed_values: dict[str, int] = field(default_factory=dict)
    #: a target selection's number of targets, as its text says (System.targets): 1, the variable that
    #: counts them ("x"), or None (more than one, or not a target selection)
    selects: int | str | None = None
    listed_upper: bool = False  # the guide lists the wording with a capital first letter


@record
class Ability:
    """One ability paragraph: its name (``None`` if unnamed), its components in order and, where
    the system has sub-abilities (the 12th's), the components of each (one sentence each)."""

    name: str | None
    uses: list[Use]  # every component, in order
    paragraph: int  # 1-based paragraph (line) of the card text
    subs: list[list[Use]] = field(default_factory=list)  # its sub-abilities' components, where the system has them

    def of_kind(self, kind: str) -> Use | None:
        return next((u for u in self.uses if u.kind == kind), None)


@record
class ParsedCard:
    card_part: Use | None  # a card-level component (the 1st–11th's caveat), its own first paragraph
    abilities: list[Ability]
    no_abilities: bool  # the card says its type's text for no abilities ("This card has no abilities.")
    card_part_paragraph: int | None = None  # 1-based paragraph (line) of the card-level component
    empty_text: str | None = None  # its type's text for no abilities
    #: the *should* rules the text breaks (codes WARNING_CODES), each with the paragraph to print instead
    warnings: list[Reason] = field(default_factory=list)
    #: paragraph (1-based line) → the paragraph as the rules prescribe it, where it differs
    prescribed: dict[int, str] = field(default_factory=dict)

    def located_uses(self) -> list[tuple[int | None, Use]]:
        """Every component use with its paragraph, the card-level one first."""
        out: list[tuple[int | None, Use]] = [(self.card_part_paragraph, self.card_part)] if self.card_part else []
        return out + [(a.paragraph, u) for a in self.abilities for u in a.uses]

    def uses(self) -> list[Use]:
        """Every component use, the card-level one first."""
        return ([self.card_part] if self.card_part else []) + [u for a in self.abilities for u in a.uses]

    def text(self) -> str:
        """The card text in current wordings, one paragraph per line."""
        lines = []
        if self.card_part:
            lines.append(self.card_part.wording)
        for a in self.abilities:
            body = " ".join(u.wording for u in a.uses)
            lines.append(f"{a.name}: {body}" if a.name else body)
        if self.no_abilities and self.empty_text:
            lines.append(self.empty_text)
        return "\n".join(lines)
