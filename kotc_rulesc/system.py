"""The card-building system of an edition, as data: card types and their stats, component kinds,
the ability grammar, the printed figure, and the card-writing rules (must, should, may).

``system:`` in the rules states it; the engine knows no card type, stat or kind by name: it reads them here.
"""

from __future__ import annotations

from typing import Iterable

from .formula import Formula
from .model import EditionKey
from .value import Value


class KindDecl(Value):
    """A kind of component: its section of the guide and what its formula does."""

    __slots__ = ("id", "title", "noun", "role", "place", "types", "max", "min", "variable", "default", "word",
                 "shows_variable", "absent")

    def __init__(self, id: str, title: str, noun: str, role: str, place: str = "ability", types: tuple[str, ...] = (),
                 max: int | None = 1, min: int = 0, variable: str | None = None, default: Formula | None = None,
                 word: str | None = None, shows_variable: bool = False, absent: tuple[str, ...] = ()) -> None:
        self.id = id  # the id prefix of its components, e.g. "condition"
        self.title = title  # the guide's section title, e.g. "Activation Conditions"
        self.noun = noun  # how a card's text names one, e.g. "activation condition"
        # what its formula does: adds to the figure ("cost"), reduces it ("relief"), gives other formulas a
        # variable ("sets", as a target selection sets t), or nothing ("none": its texts carry no formula)
        self.role = role
        self.place = place  # where its components stand: "card" (a paragraph), "ability" or "sub_ability"
        self.types = types  # the card types that may use it (empty: every type)
        self.max = max  # per ability, sub-ability or card (its place); None: any number
        self.min = min
        self.variable = variable  # role "sets": the variable it sets
        self.default = default  # role "sets": its value when the ability has no such component
        # what the guide calls what its formula does to the figure: "cost", "relief" (1st–11th), "level
        # increase", "level decrease" (the 12th on); None: the role's name
        self.word = word
        # role "sets": the guide prints its formula as the variable it sets, "(t = x)" (the 11th on);
        # the 1st–10th print the bare formula, "(x)", which "become[s] the variable “t”"
        self.shows_variable = shows_variable
        # role "sets", no default: the documents that allow a scope without one (the 13th-17th rulebooks: a
        # sub-ability without a target selection "has no targets"), its variable then given by none (unknown)
        self.absent = absent

    @property
    def role_word(self) -> str:
        """ "level increase", "relief", "sets t" — its formula's effect in its guide's words."""
        if self.role == "sets":
            return f"sets {self.variable}"
        return self.word or self.role


class WritingRule(Value):
    """A card-writing rule, bound as its document words it (``modal``): "must" (a card that breaks it is
    malformed: the guides' "must", and what they state as a fact or an instruction), "should" ("should",
    "recommended": legal, with a warning that says what to print instead) or "may" ("can", "may": either
    form is right); ``sources`` and ``quote`` the sentence that says so."""

    __slots__ = ("modal", "sources", "quote")

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str) -> None:
        self.modal = modal
        self.sources = sources
        self.quote = quote


class Agreement(WritingRule):
    """The words that agree with a variable's number ("[x] cards" prints "1 card")."""

    __slots__ = ("nouns", "verbs", "qualifiers", "stops")

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, nouns: tuple[tuple[str, str], ...],
                 verbs: tuple[tuple[str, str], ...] = (), qualifiers: tuple[str, ...] = (),
                 stops: tuple[str, ...] = ()) -> None:
        super().__init__(modal, sources, quote)
        self.nouns = nouns  # (plural, singular)
        self.verbs = verbs  # ("are", "is")
        # phrases in which a variable qualifies the word before it ("level [n] or lower"), and words that end
        # what a variable counts ("[x] damage to targets"): see kotc_rulesc.text.parse_template
        self.qualifiers = qualifiers
        self.stops = stops


class Variation(WritingRule):
    """Words a card prints in place of a component's own where ``when`` holds ("one-target": the
    ability's, or from the 12th the sub-ability's, target selection can never select more than one):
    ``forms`` maps the catalog's words ("the targets") to what the card prints instead, the first
    prescribed ("the target"), any other an alternative that keeps the rule too ("it").  Printed where
    ``when`` does not hold, the words are not the component's: malformed.  ``modal`` "should": the
    catalog's words where the variation applies are a warning; "may": either."""

    __slots__ = ("kinds", "forms", "when")

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, kinds: tuple[str, ...],
                 forms: tuple[tuple[str, tuple[str, ...]], ...], when: str = "one-target") -> None:
        super().__init__(modal, sources, quote)
        self.kinds = kinds  # the kinds whose texts it changes
        self.forms = forms
        self.when = when


class Join(WritingRule):
    """What joins a component of kind ``after`` to the next of kind ``before`` in an ability, in place of
    the first one's end mark ``end``: one of ``words`` (", also "), or a coordinated list ``series``
    (two, between, last: " and " between two, ", " … ", and " between three or more).  ``modal`` "must":
    consecutive ones are joined so (two arrows between them are malformed); "may": joined or not."""

    __slots__ = ("after", "before", "end", "words", "series", "lower")

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, after: str, before: str, end: str,
                 words: tuple[str, ...] = (), series: tuple[str, str, str] | None = None,
                 lower: bool = False) -> None:
        super().__init__(modal, sources, quote)
        self.after = after
        self.before = before
        self.end = end
        self.words = words
        self.series = series
        # the text after the join starts lowercase (the 11th guide's examples: "…, then draw 2 cards.");
        # either case reads
        self.lower = lower

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


class Capitals(WritingRule):
    """The first letter of a text of ``kinds``: capitalized where it opens its ability (its sub-ability,
    for a kind placed there), as the guide lists it where it follows another component there."""

    __slots__ = ("kinds",)

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, kinds: tuple[str, ...]) -> None:
        super().__init__(modal, sources, quote)
        self.kinds = kinds


class Naming(WritingRule):
    """How an ability is named: at the beginning of its paragraph, followed by a colon, ``case`` "upper"
    (in all capital letters) or "any"; which types' abilities may or must be named is each type's
    ``names``."""

    __slots__ = ("case",)

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, case: str = "upper") -> None:
        super().__init__(modal, sources, quote)
        self.case = case


class Tutorial(WritingRule):
    """Tutorial text a card may add: a sentence in parentheses (``modal``: must) and in italics
    (``italics``: its modal, should; written ``*(…)*`` or ``_(…)_`` in a card's text)."""

    __slots__ = ("italics",)

    def __init__(self, modal: str, sources: tuple[str, ...], quote: str, italics: str | None = None) -> None:
        super().__init__(modal, sources, quote)
        self.italics = italics


class TargetCount(Value):
    """How a target selection (a component of ``kind``) says how many cards it may select: the variable after one of
    ``counted`` ("up to") counts them; a text with one of ``single`` ("this card") selects one; any other
    ("all level [x] or lower …") may select more than one."""

    __slots__ = ("sources", "kind", "counted", "single")

    def __init__(self, sources: tuple[str, ...], kind: str, counted: tuple[str, ...],
                 single: tuple[str, ...] = ()) -> None:
        self.sources = sources
        self.kind = kind  # the kind of the target selections
        self.counted = counted
        self.single = single


class StatDecl(Value):
    """A number a card type prints besides the figure (offense, defense)."""

    __slots__ = ("name", "min", "max")

    def __init__(self, name: str, min: int | None = None, max: int | None = None) -> None:
        self.name = name
        self.min = min
        self.max = max

    def describe(self) -> str:
        """ "offense 0–99", "sp ≥ 0", "hp" """
        if self.min is not None and self.max is not None:
            return f"{self.name} {self.min}–{self.max}"
        return f"{self.name} ≥ {self.min}" if self.min is not None else self.name


class CardTypeDecl(Value):

    __slots__ = ("id", "stats", "abilities_min", "abilities_max", "empty_text", "names", "empty_modal")

    def __init__(self, id: str, stats: tuple[StatDecl, ...] = (), abilities_min: int = 0,
                 abilities_max: int | None = None, empty_text: str | None = None, names: str = "optional",
                 empty_modal: str = "must") -> None:
        self.id = id  # e.g. "creature"
        self.stats = stats
        self.abilities_min = abilities_min
        self.abilities_max = abilities_max  # None: any number
        self.empty_text = empty_text  # what a card of this type prints when it has no ability
        self.names = names  # its abilities' NAME: in capitals — "required", "optional" or "none"
        # how the guide words its ``empty_text``: "must" ("use the text"), "may" (it may print it or nothing)
        self.empty_modal = empty_modal

    @property
    def names_note(self) -> str:
        """ ", named" / ", unnamed" / "" — what its abilities' names are, for a listing."""
        return {"required": ", named", "none": ", unnamed"}.get(self.names, "")


class System(Value):
    """How cards are built in an edition: card types, component kinds, ability grammar, figure."""

    __slots__ = ("edition", "sources", "figure", "figure_title", "types", "kinds", "ability", "sub_ability", "parts",
                 "agreement", "variations", "joins", "capitals", "naming", "tutorial", "targets", "capitals_of",
                 "join_ends")

    def __init__(self, edition: EditionKey, sources: tuple[str, ...], figure: str, figure_title: str,
                 types: tuple[CardTypeDecl, ...], kinds: tuple[KindDecl, ...], ability: tuple[str, ...],
                 sub_ability: tuple[str, ...] = (), parts: str = "cost", agreement: Agreement | None = None,
                 variations: tuple[Variation, ...] = (), joins: tuple[Join, ...] = (), capitals: tuple[Capitals, ...] = (),
                 naming: Naming | None = None, tutorial: Tutorial | None = None, targets: TargetCount | None = None) -> None:
        self.edition = edition  # the edition whose file last changed it
        self.sources = sources
        self.figure = figure  # the printed figure, e.g. "cost" (1st–10th) or "level"
        self.figure_title = figure_title  # how the guide names it, e.g. "resource cost"
        self.types = types
        self.kinds = kinds  # in the guide's section order
        self.ability = ability  # the order of kinds within an ability
        self.sub_ability = sub_ability  # the order of kinds within a sub-ability (none: no sub-abilities)
        # what the guide calls an ability's (sub-ability's) figure: "cost" ("ability cost", 1st–11th) or
        # "level" ("sub-ability level", the 12th on)
        self.parts = parts
        # the card-writing rules, each with its sentence (rules/README.md, "Card-writing rules"):
        self.agreement = agreement  # singular forms for 1
        self.variations = variations  # "up to" removed, "the target" for "the targets" …
        self.joins = joins  # ", also " in place of the arrow …
        self.capitals = capitals  # an opening text's first letter
        self.naming = naming  # how abilities are named (None: they are not)
        self.tutorial = tutorial  # tutorial text (None: a card has none)
        self.targets = targets  # how a target selection says how many it selects
        #: each kind a capitals rule governs → that rule
        self.capitals_of: dict[str, Capitals] = {kind: rule for rule in reversed(capitals) for kind in rule.kinds}
        #: what joins two of its components (", also ") → the end marks it may replace ("→", ".")
        self.join_ends: dict[str, tuple[str, ...]] = join_ends(joins)

    @property
    def plurals(self) -> tuple[tuple[str, str], ...]:
        """The nouns that agree with a variable: (plural, singular)."""
        return self.agreement.nouns if self.agreement else ()

    @property
    def verbs(self) -> tuple[tuple[str, str], ...]:
        """The verbs that agree with a variable: ("are", "is")."""
        return self.agreement.verbs if self.agreement else ()

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
    return {k.id: k.title for system in systems if system for k in system.kinds}
