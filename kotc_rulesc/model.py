"""The rules as declared: editions and the events they record, checked and parsed.

This is what :mod:`kotc_rulesc.loader` builds from ``rules/*.yaml`` and what
:mod:`kotc_rulesc.fold` folds into the catalog of one edition.  Texts and formulas
are already parsed (:class:`~kotc_rulesc.text.Template`,
:class:`~kotc_rulesc.formula.Formula`); ``None`` stands for *unknown*.
"""

from __future__ import annotations

from functools import cached_property
from typing import Iterable, Literal, Union

import re

from .formula import Formula
from .record import field, record
from .text import Template

Tristate = Literal["yes", "no", "unknown"]

#: An edition as the rules and the CLI name it: a number on the main line (``10``), or the
#: label of a pre-release branch (``"11-pre"``: a pre-release of the 11th, following another
#: edition).  Edition Indicators printed on cards are always plain numbers.
EditionKey = Union[int, str]

PRE_RELEASE_SUFFIX = "-pre"


def edition_number(key: EditionKey) -> int:
    """The edition a key is (a pre-release of): 10 → 10, "11-pre" → 11."""
    if isinstance(key, int):
        return key
    return int(str(key).split("-", 1)[0])


def is_pre_release(key: EditionKey) -> bool:
    return isinstance(key, str)


def pre_release_key(number: int) -> str:
    return f"{number}{PRE_RELEASE_SUFFIX}"


def parse_edition_key(text: str | int) -> EditionKey:
    """ "10" → 10, "11-pre" → "11-pre"; ValueError otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    raw = str(text).strip().lower()
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?(-pre)?", raw)
    if not m or int(m.group(1)) < 1:
        raise ValueError(f"{text!r} is not an edition: write a number (10) or a pre-release (11-pre)")
    n = int(m.group(1))
    return pre_release_key(n) if m.group(2) else n


@record(frozen=True)
class Where:
    """A place in a rules file (1-based line and column)."""

    file: str
    line: int = 0
    column: int = 0


@record(frozen=True)
class When:
    """When an event happened: a known edition, or *at or before* ``by`` (and after ``after``)."""

    edition: int | None  # None: unknown
    by: int  # the edition (number) of the file that records it
    after: int | None = None

    def happened_by(self, n: EditionKey) -> Tristate:
        """Had the event happened by edition ``n`` (on the line of the file recording it)?"""
        n = edition_number(n)
        if self.edition is not None:
            return "yes" if self.edition <= n else "no"
        if n >= self.by:
            return "yes"
        if self.after is not None and n <= self.after:
            return "no"
        return "unknown"

    def describe(self) -> str:
        if self.edition is not None:
            return ordinal(self.edition)
        if self.after is not None:
            return f"unknown edition (after the {ordinal(self.after)}, by the {ordinal(self.by)})"
        return f"unknown edition (by the {ordinal(self.by)})"


@record(frozen=True)
class ComponentDecl:
    id: str
    kind: str
    text: Template
    formula: Formula | None
    limits: dict[str, int | None]
    sources: tuple[str, ...]
    introduced: int  # the edition whose file declares it (the base: unknown introduction)
    where: Where
    notes: tuple[str, ...] = ()
    ultra: int = 0  # its Ultra Points value (the 17th's "[+1]"); 0 for a text with none


@record(frozen=True)
class TextRevision:
    component: str
    text: Template
    binds: dict[str, int]  # values the old wording stands for (it had no such variable)
    when: When
    sources: tuple[str, ...]
    where: Where
    #: the new wording's formula, when the guide prints a new one with it (not a cost
    #: revision: the old wording, read with ``binds``, costs what it cost)
    formula: Formula | None = None
    note: str | None = None  # e.g. that no document lists the revision
    #: the component whose text the new text is: this one becomes part of it (its wordings read as
    #: that one), as a rulebook refurbishes two texts into one
    into: str | None = None
    #: the row of the rulebook's Refurbished Card Texts table it follows: (original text, new text),
    #: phrases of the old and new wordings ("in-play card" → "on-field minion"); None: a revision no
    #: table lists as a row (every revision before the 14th's tables, and the unlisted ones)
    row: tuple[str, str] | None = None
    #: False: no rulebook list names the rewording (an older card reads as the new wording, and
    #: migrate keeps its text as printed: the lists are exhaustive)
    listed: bool = True


@record(frozen=True)
class Reinstatement:
    """A component an earlier edition's document redacted and this edition's lists as legal."""

    component: str
    when: When
    sources: tuple[str, ...]
    where: Where
    note: str | None = None


@record(frozen=True)
class Disagreement:
    """Two documents that say different things; recorded, shown, never silently resolved."""

    edition: EditionKey
    note: str
    sources: tuple[str, ...]
    component: str | None = None


@record(frozen=True)
class Redaction:
    component: str
    when: When
    sources: tuple[str, ...]
    where: Where
    replacement: str | None = None
    replacement_binds: dict[str, int] = field(default_factory=dict)


@record(frozen=True)
class CostRevision:
    component: str
    formula: Formula | None
    when: When
    sources: tuple[str, ...]
    where: Where
    #: False: the guide changes the formula but no rulebook list names it — the rulebooks list
    #: "exhaustively" what prunes a card, so an older card is not pruned by it
    listed: bool = True
    note: str | None = None


@record(frozen=True)
class LimitRevision:
    component: str
    limits: dict[str, int | None]
    when: When
    sources: tuple[str, ...]
    where: Where


@record(frozen=True)
class Successor:
    component: str
    successor: str
    binds: dict[str, int]
    sources: tuple[str, ...]


@record(frozen=True)
class Range:
    min: int | None = None
    max: int | None = None
    recommended: tuple[int, int] | None = None

    def describe(self) -> str:
        if self.min is not None and self.min == self.max:
            text = f"exactly {self.min}"
        elif self.min is not None and self.max is not None:
            text = f"{self.min}–{self.max}"
        elif self.min is not None:
            text = f"{self.min} or more"
        elif self.max is not None:
            text = f"up to {self.max}"
        else:
            text = "unknown"
        if self.recommended:
            text += f" (recommended {self.recommended[0]}–{self.recommended[1]})"
        return text


@record(frozen=True)
class Rulebook:
    """Rulebook parameters as one rulebook states them; ``None`` where it is silent."""

    edition: EditionKey
    sources: tuple[str, ...]
    players: Range | None = None
    deck: Range | None = None
    reserves: Range | None = None
    starting_hand: int | None = None
    starting_hitpoints: int | None = None
    deck_ultra_points: int | None = None  # a deck's Ultra Points at most (the 17th: 10)
    #: what the rulebook titles its lists: "lists" (the section: "Refurbished and Pruned Cards"),
    #: "revised", "redacted", "limits", "costs" ("Revised Levels"); where it is silent, the 1st–12th's
    sections: dict[str, str] = field(default_factory=dict)
    edition_indicator: bool | str | None = None  # True: cards print one; "required": a card without one is invalid
    #: what becomes of a card whose edition is older than a cost revision of a text it uses:
    #: "reissue" (it must bear a later Edition Indicator: re-issued, it may be used), "prune" (it is
    #: out: nothing cures it); None where the rulebook does not say
    cost_revised: str | None = None
    #: True: its lists of refurbished and pruned cards name every case (the 13th on: "This section
    #: exhaustively lists all cases in which cards are refurbished or pruned."), so a card keeps the
    #: level its design edition gave it unless a list prunes it
    exhaustive_lists: bool | None = None
    terms: dict[str, str] = field(default_factory=dict)
    zones: tuple[str, ...] = ()
    ability_layout: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


#: what a kind's formula does: adds to the figure (cost), reduces it (relief), gives other formulas a
#: variable (sets, as a target selection sets t; from the published 11th an activation condition sets
#: a), or nothing (none: its texts carry no formula)
KIND_ROLES = ("relief", "cost", "sets", "none")
#: where a kind's components stand: a paragraph of their own, inside an ability, inside a sub-ability
KIND_PLACES = ("card", "ability", "sub_ability")
#: how a card-writing rule binds, as its document words it: ``must`` (a card that breaks it is malformed:
#: the guides' "must", and what they state as a fact or an instruction, "are connected", "use the text"),
#: ``should`` (the guides' "should", "recommended": a card that breaks it is legal, with a warning that
#: says what to print instead), ``may`` (the guides' "can", "may": either form is right)
MODALS = ("must", "should", "may")


@record(frozen=True)
class KindDecl:
    """A kind of component: its section of the guide and what its formula does."""

    id: str  # the id prefix of its components, e.g. "condition"
    title: str  # the guide's section title, e.g. "Activation Conditions"
    noun: str  # how a card's text names one, e.g. "activation condition"
    role: str  # one of KIND_ROLES
    place: str = "ability"  # one of KIND_PLACES
    types: tuple[str, ...] = ()  # the card types that may use it (empty: every type)
    max: int | None = 1  # per ability, sub-ability or card (its place); None: any number
    min: int = 0
    variable: str | None = None  # role "sets": the variable it sets
    default: Formula | None = None  # role "sets": its value when the ability has no such component
    #: what the guide calls what its formula does to the figure: "cost", "relief" (1st–11th), "level
    #: increase", "level decrease" (the 12th on); None: the role's name
    word: str | None = None
    #: role "sets": the guide prints its formula as the variable it sets, "(t = x)" (the 11th on);
    #: the 1st–10th print the bare formula, "(x)", which "become[s] the variable “t”"
    shows_variable: bool = False

    @property
    def role_word(self) -> str:
        """ "level increase", "relief", "sets t" — its formula's effect in its guide's words."""
        if self.role == "sets":
            return f"sets {self.variable}"
        return self.word or self.role


@record(frozen=True)
class Agreement:
    """The words that agree with a variable's number ("[x] cards" prints "1 card"), and how the guide
    words the rule (``modal``: should, "should be changed to singular")."""

    modal: str
    sources: tuple[str, ...]
    quote: str
    nouns: tuple[tuple[str, str], ...]  # (plural, singular)
    verbs: tuple[tuple[str, str], ...] = ()  # ("are", "is")
    #: phrases in which a variable qualifies the word before it, "[n]" standing for the variable ("level
    #: [n] or lower"): the noun after one is counted by the variable before it ("[x] level [y] or lower
    #: enemy creatures": "creatures" agrees with x); a variable in one before which none stands counts
    #: nothing ("all level [x] or lower on-field minions")
    qualifiers: tuple[str, ...] = ()
    #: words that end what a variable counts: "[x] damage to targets" counts damage, not targets
    stops: tuple[str, ...] = ()


@record(frozen=True)
class Variation:
    """Words a card prints in place of a component's own where ``when`` holds ("one-target": the
    ability's, or from the 12th the sub-ability's, target selection can never select more than one):
    ``forms`` maps the catalog's words ("the targets") to what the card prints instead, the first
    prescribed ("the target"), any other an alternative that keeps the rule too ("it").  Printed where
    ``when`` does not hold, the words are not the component's: malformed."""

    modal: str  # "should": the catalog's words where the variation applies are a warning; "may": either
    sources: tuple[str, ...]
    quote: str
    kinds: tuple[str, ...]  # the kinds whose texts it changes
    forms: tuple[tuple[str, tuple[str, ...]], ...]
    when: str = "one-target"


@record(frozen=True)
class Join:
    """What joins a component of kind ``after`` to the next of kind ``before`` in an ability, in place of
    the first one's end mark ``end``: one of ``words`` (", also "), or a coordinated list ``series``
    (two, between, last: " and " between two, ", " … ", and " between three or more).  ``modal`` "must":
    consecutive ones are joined so (two arrows between them are malformed); "may": joined or not."""

    modal: str
    sources: tuple[str, ...]
    quote: str
    after: str
    before: str
    end: str
    words: tuple[str, ...] = ()
    series: tuple[str, str, str] | None = None
    #: the text after the join starts lowercase (the 11th guide's examples: "…, then draw 2 cards.");
    #: either case reads
    lower: bool = False

    @property
    def joining(self) -> tuple[str, ...]:
        """Every string it joins with (a series' three, or its words)."""
        return tuple(dict.fromkeys(self.series)) if self.series else self.words

    def describe(self) -> str:
        """ "joined ' and ' (two), ', ' … ', and ' (three or more)" / "joined ', also '" """
        if self.series:
            two, between, last = self.series
            return f"joined {two!r} (two), {between!r} … {last!r} (three or more)"
        return "joined " + " or ".join(repr(w) for w in self.words)


@record(frozen=True)
class Capitals:
    """The first letter of a text of ``kinds``: capitalized where it opens its ability (its sub-ability,
    for a kind placed there), as the guide lists it where it follows another component there."""

    modal: str
    sources: tuple[str, ...]
    quote: str
    kinds: tuple[str, ...]


@record(frozen=True)
class Naming:
    """How an ability is named: at the beginning of its paragraph, followed by a colon, ``case`` "upper"
    (in all capital letters) or "any"; which types' abilities may or must be named is each type's
    ``names``."""

    modal: str
    sources: tuple[str, ...]
    quote: str
    case: str = "upper"


@record(frozen=True)
class Tutorial:
    """Tutorial text a card may add: a sentence in parentheses (``modal``: must) and in italics
    (``italics``: its modal, should; written ``*(…)*`` or ``_(…)_`` in a card's text)."""

    modal: str
    sources: tuple[str, ...]
    quote: str
    italics: str | None = None


@record(frozen=True)
class TargetCount:
    """How a target selection (a component of ``kind``) says how many cards it may select: the variable after one of
    ``counted`` ("up to") counts them; a text with one of ``single`` ("this card") selects one; any other
    ("all level [x] or lower …") may select more than one."""

    sources: tuple[str, ...]
    kind: str  # the kind of the target selections
    counted: tuple[str, ...]
    single: tuple[str, ...] = ()


@record(frozen=True)
class StatDecl:
    """A number a card type prints besides the figure (offense, defense)."""

    name: str
    min: int | None = None
    max: int | None = None

    def describe(self) -> str:
        """ "offense 0–99", "sp ≥ 0", "hp" """
        if self.min is not None and self.max is not None:
            return f"{self.name} {self.min}–{self.max}"
        return f"{self.name} ≥ {self.min}" if self.min is not None else self.name


@record(frozen=True)
class CardTypeDecl:
    id: str  # e.g. "creature"
    stats: tuple[StatDecl, ...] = ()
    abilities_min: int = 0
    abilities_max: int | None = None  # None: any number
    empty_text: str | None = None  # what a card of this type prints when it has no ability
    names: str = "optional"  # its abilities' NAME: in capitals — "required", "optional" or "none"
    #: how the guide words its ``empty_text``: "must" ("use the text"), "may" (it may print it or nothing)
    empty_modal: str = "must"

    @property
    def names_note(self) -> str:
        """ ", named" / ", unnamed" / "" — what its abilities' names are, for a listing."""
        return {"required": ", named", "none": ", unnamed"}.get(self.names, "")


@record(frozen=True)
class System:
    """How cards are built in an edition: card types, component kinds, ability grammar, figure.

    The engine knows no card type, stat or kind by name: it reads them here."""

    edition: EditionKey  # the edition whose file last changed it
    sources: tuple[str, ...]
    figure: str  # the printed figure, e.g. "cost" (1st–10th) or "level"
    figure_title: str  # how the guide names it, e.g. "resource cost"
    types: tuple[CardTypeDecl, ...]
    kinds: tuple[KindDecl, ...]  # in the guide's section order
    ability: tuple[str, ...]  # the order of kinds within an ability
    sub_ability: tuple[str, ...] = ()  # the order of kinds within a sub-ability (none: no sub-abilities)
    #: what the guide calls an ability's (sub-ability's) figure: "cost" ("ability cost", 1st–11th) or
    #: "level" ("sub-ability level", the 12th on)
    parts: str = "cost"
    # the card-writing rules, each with its sentence (rules/README.md, "Card-writing rules"):
    agreement: Agreement | None = None  # singular forms for 1
    variations: tuple[Variation, ...] = ()  # "up to" removed, "the target" for "the targets" …
    joins: tuple[Join, ...] = ()  # ", also " in place of the arrow …
    capitals: tuple[Capitals, ...] = ()  # an opening text's first letter
    naming: Naming | None = None  # how abilities are named (None: they are not)
    tutorial: Tutorial | None = None  # tutorial text (None: a card has none)
    targets: TargetCount | None = None  # how a target selection says how many it selects

    @property
    def plurals(self) -> tuple[tuple[str, str], ...]:
        """The nouns that agree with a variable: (plural, singular)."""
        return self.agreement.nouns if self.agreement else ()

    @property
    def verbs(self) -> tuple[tuple[str, str], ...]:
        """The verbs that agree with a variable: ("are", "is")."""
        return self.agreement.verbs if self.agreement else ()

    @cached_property
    def capitals_of(self) -> dict[str, Capitals]:
        """Each kind a capitals rule governs → that rule."""
        return {kind: rule for rule in reversed(self.capitals) for kind in rule.kinds}

    @cached_property
    def join_ends(self) -> dict[str, tuple[str, ...]]:
        """What joins two of its components (", also ") → the end marks it may replace ("→", ".")."""
        return join_ends(self.joins)

    def joins_between(self, after: str, before: str) -> Join | None:
        """The join of a component of kind ``after`` to the next one, of kind ``before`` (None: none)."""
        return next((j for j in self.joins if j.after == after and j.before == before), None)

    def kind(self, kind_id: str) -> KindDecl:
        for k in self.kinds:
            if k.id == kind_id:
                return k
        raise KeyError(kind_id)

    @property
    def kind_ids(self) -> tuple[str, ...]:
        return tuple(k.id for k in self.kinds)

    def card_type(self, type_id: str) -> CardTypeDecl | None:
        return next((t for t in self.types if t.id == type_id), None)

    def noun(self, kind_id: str) -> str:
        return self.kind(kind_id).noun

    @property
    def set_variables(self) -> dict[str, KindDecl]:
        """The variables kinds set (``t``, ``a``) → the kind that sets each."""
        return {k.variable: k for k in self.kinds if k.role == "sets" and k.variable}

    def kinds_at(self, place: str, card_type: str | None = None) -> tuple[KindDecl, ...]:
        """The kinds whose components stand at ``place`` (usable by ``card_type``, if given)."""
        return tuple(k for k in self.kinds if k.place == place and (card_type is None or not k.types or card_type in k.types))

    def rule_scopes(self) -> tuple[str, ...]:
        """The scopes its card-cost rule must compute: sub-ability (if any), ability, each card type."""
        return (("sub_ability",) if self.sub_ability else ()) + ("ability",) + tuple(t.id for t in self.types)

    def rule_overrides(self) -> tuple[str, ...]:
        """The scopes a rule may add: ``<type>_ability``, the abilities of that card type when their
        rule differs (the 14th's "If the ability is a minion ability and its level is less than 1")."""
        return tuple(f"{t.id}_ability" for t in self.types)

    def rule_inputs(self, scope: str) -> dict[str, str]:
        """The names a card-cost formula of ``scope`` may read → what each stands for.

        Per kind at that place: ``<kind>_relief`` (the sum of its reliefs) or ``<kind>_costs``
        (the list of its costs); in an ability, ``sub_ability_costs`` when the system has
        sub-abilities; in a card, its type's stats, ``ability_costs`` and ``ability_cost`` (the
        first ability's)."""
        if scope in self.rule_overrides():
            scope = "ability"
        place = "card" if scope not in ("sub_ability", "ability") else scope
        out: dict[str, str] = {}
        for k in self.kinds_at(place, scope if place == "card" else None):
            if k.role == "relief":
                out[f"{k.id}_relief"] = f"the sum of its {k.noun}s' reliefs"
            elif k.role == "cost":
                out[f"{k.id}_costs"] = f"its {k.noun}s' costs (a list)"
        if scope == "ability" and self.sub_ability:
            out["sub_ability_costs"] = "its sub-abilities' costs (a list)"
        if place == "card":
            ctype = self.card_type(scope)
            for st in ctype.stats if ctype else ():
                out[st.name] = f"the card's {st.name}"
            out["ability_costs"] = "its abilities' costs (a list)"
            out["ability_cost"] = "its (first) ability's cost"
        return out


def join_ends(joins: Iterable[Join]) -> dict[str, tuple[str, ...]]:
    """What joins two components (", also ") → the end marks it may replace ("→", ".")."""
    out: dict[str, tuple[str, ...]] = {}
    for j in joins:
        for word in j.joining:
            out[word] = tuple(dict.fromkeys(out.get(word, ()) + (j.end,)))
    return out


def kind_titles(*systems: System | None) -> dict[str, str]:
    """Each kind's section title, from the systems given (a later one wins)."""
    out: dict[str, str] = {}
    for system in systems:
        for k in system.kinds if system else ():
            out[k.id] = k.title
    return out


#: the scopes a card-cost formula can compute, innermost first; a card type's id is the card's scope
RULE_SCOPES = ("sub_ability", "ability")


@record(frozen=True)
class CostRule:
    """How a card's figure is computed: named formulas, in the order the rules file gives them.

    A formula named ``<scope>_cost`` computes a scope's figure: ``sub_ability_cost``,
    ``ability_cost``, or ``<type>_cost`` for a card of that type.  Any other name is a helper of
    the scope whose ``_cost`` formula follows it (``total_relief`` before ``ability_cost``)."""

    edition: EditionKey  # the edition whose documents state it
    sources: tuple[str, ...]
    formulas: tuple[tuple[str, Formula], ...]

    def parts(self) -> list[tuple[str, Formula]]:
        return list(self.formulas)

    def formula(self, name: str) -> Formula | None:
        return dict(self.formulas).get(name)

    def scopes(self) -> dict[str, list[tuple[str, Formula]]]:
        """scope → its formulas in order (helpers first, its ``_cost`` last); a helper after the
        last ``_cost`` formula belongs to no scope and is left out (the loader reports it)."""
        return self._scopes

    @cached_property
    def _scopes(self) -> dict[str, list[tuple[str, Formula]]]:  # (asked for per costed ability)
        out: dict[str, list[tuple[str, Formula]]] = {}
        pending: list[tuple[str, Formula]] = []
        for name, f in self.formulas:
            pending.append((name, f))
            if name.endswith("_cost"):
                out[name[: -len("_cost")]] = pending
                pending = []
        return out

    def scope(self, scope: str) -> list[tuple[str, Formula]]:
        return self.scopes().get(scope, [])


@record(frozen=True)
class Source:
    id: str
    file: str
    title: str


@record(frozen=True)
class EditionDecl:
    """One rules file: what one edition changed."""

    number: int  # the edition number (11 for the 11th's pre-release)
    file: str
    base: bool
    follows: EditionKey | None
    sources: tuple[str, ...]
    components: tuple[ComponentDecl, ...] = ()
    text_revisions: tuple[TextRevision, ...] = ()
    redactions: tuple[Redaction, ...] = ()
    cost_revisions: tuple[CostRevision, ...] = ()
    limit_revisions: tuple[LimitRevision, ...] = ()
    reinstatements: tuple[Reinstatement, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    clean_slate: bool = False
    catalog_known: bool = True
    catalog_whole: bool = False  # its components are its whole catalog: nothing earlier carries over
    successors: tuple[Successor, ...] = ()
    rulebook: Rulebook | None = None
    card_cost: CostRule | None = None
    notes: tuple[str, ...] = ()
    name: str | None = None
    pre_release: bool = False
    system: System | None = None  # the card-building system from this edition on, if it changed
    #: (kind, component ids): the order in which this edition's guide lists a kind's components,
    #: where it is not the order inherited (the docs' order; the engine has none)
    guide_order: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def key(self) -> EditionKey:
        """How the edition is named: 10, or "11-pre" for a pre-release."""
        return pre_release_key(self.number) if self.pre_release else self.number


@record(frozen=True)
class RuleSet:
    """Every edition, with the sources they cite.

    The editions form a tree, as Alembic's revisions do: the main line 1, 2, 3 … (each file
    follows the one before), and pre-release branches (``11-pre``) that follow a main-line
    edition.  ``editions`` is in file order (a pre-release just before its edition)."""

    editions: tuple[EditionDecl, ...]
    sources: dict[str, Source]
    directory: str
    #: the history replayed (a :class:`kotc_rulesc.fold.Replay`: every catalog and pass), kept by
    #: the loader that replayed it while reading, or by the first fold of a rule set built otherwise
    history: object = field(default=None, compare=False, repr=False)

    @property
    def keys(self) -> list[EditionKey]:
        """Every edition's key, in file order: 1 … 10, "11-pre", 11, 12 …"""
        return [e.key for e in self.editions]

    @property
    def main_line(self) -> list[EditionDecl]:
        return [e for e in self.editions if not e.pre_release]

    @property
    def numbers(self) -> list[int]:
        """The main line's editions."""
        return [e.number for e in self.main_line]

    @property
    def first(self) -> int:
        return self.editions[0].number

    @property
    def last(self) -> int:
        """The newest edition of the main line."""
        return self.main_line[-1].number

    def edition(self, key: EditionKey) -> EditionDecl | None:
        for e in self.editions:
            if e.key == key:
                return e
        return None

    def resolve(self, key: EditionKey) -> EditionKey | None:
        """The edition whose file holds ``key``'s state: ``key`` itself, or for a main-line number
        no file declares (an edition that changed nothing), the newest main-line file before it;
        ``None`` for an edition outside the rules."""
        if self.edition(key) is not None:
            return key
        if isinstance(key, int) and self.first <= key <= self.last:
            return max(e.number for e in self.main_line if e.number <= key)
        return None

    def lineage(self, key: EditionKey) -> list[EditionDecl]:
        """The files from the base to ``key``, following ``follows``; [] if ``key`` is unknown."""
        by_key = {e.key: e for e in self.editions}
        chain: list[EditionDecl] = []
        resolved = self.resolve(key)
        decl = by_key.get(resolved) if resolved is not None else None
        while decl is not None:
            chain.append(decl)
            decl = by_key.get(decl.follows) if decl.follows is not None else None
        return chain[::-1]

    @property
    def all_keys(self) -> list[EditionKey]:
        """Every edition the rules can fold, in order: each main-line number from the first to the
        last (an edition without a file changed nothing), each pre-release before its edition."""
        keys: list[EditionKey] = []
        pre = {e.number: e.key for e in self.editions if e.pre_release}
        for n in range(self.first, self.last + 1):
            if n in pre:
                keys.append(pre[n])
            keys.append(n)
        keys += [k for n, k in sorted(pre.items()) if n > self.last]
        return keys

    def components(self) -> dict[str, ComponentDecl]:
        return {c.id: c for e in self.editions for c in e.components}

    def type_aliases(self) -> dict[str, str]:
        """Every rulebook's words for a card type, both ways (:func:`term_aliases`)."""
        types = {t.id for e in self.editions if e.system is not None for t in e.system.types}
        return term_aliases((e.rulebook for e in self.editions), types)

    def decisive_fields(self) -> tuple[str, ...]:
        """The card fields the card engine reads in some edition: type, Edition Indicator, text, and
        each card-building system's figure (cost, level) and its card types' stats (offense, sp…) —
        what :mod:`kotc_rulesc.cards.decisive` keys its memo of decisions by."""
        fields = ["type", "edition", "text"]
        for e in self.editions:
            if e.system is not None:
                for name in (e.system.figure, *(st.name for t in e.system.types for st in t.stats)):
                    if name not in fields:
                        fields.append(name)
        return tuple(fields)

    def newest_with_catalog(self) -> int:
        """The newest main-line edition whose component catalog is declared (the default edition
        of cost and check-cards, and of migrate's target): an edition whose catalog no source
        gives does not hide a later one that declares its own (a clean slate's whole catalog)."""
        return max((e.number for e in self.main_line if e.catalog_known), default=self.first)


def ordinal(n: EditionKey) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st…; "11-pre" → "11th pre-release"."""
    if is_pre_release(n):
        return f"{ordinal(edition_number(n))} pre-release"
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def term_aliases(rulebooks: Iterable[Rulebook | None], types: set[str]) -> dict[str, str]:
    """The rulebooks' words for a card type ("minion" for creature and back), from their terms:
    a card written in one edition's words reads in another's.  ``types``: every card type of
    every system (a rulebook's terms also name its figure, hitpoints, "pruned" for banned …)."""
    aliases: dict[str, str] = {}
    for rulebook in rulebooks:
        for term, word in (rulebook.terms if rulebook else {}).items():
            # both ways: "minion" reads as creature where creature is a type, and back
            if word != term and (term in types or word.lower() in types):
                aliases.setdefault(word.lower(), term)
                aliases.setdefault(term.lower(), word.lower())
    return aliases
