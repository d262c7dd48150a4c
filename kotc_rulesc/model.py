"""The rules as declared: edition keys, and the editions with the components and events they record.

What :mod:`kotc_rulesc.loader` builds from ``rules/*.yaml`` and :mod:`kotc_rulesc.fold` folds into
each edition's catalog; texts and formulas come parsed, and ``None`` stands for *unknown*.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Mapping, Union

from .formula import Formula
from .text import Template
from .value import EMPTY, Value

Tristate = Literal["yes", "no", "unknown"]

#: An edition: a number on the main line (``10``), or a pre-release branch's label (``"11-pre"``).
EditionKey = Union[int, str]

def edition_number(key: EditionKey) -> int:
    """The edition a key is (a pre-release of): 10 → 10, "11-pre" → 11."""
    if isinstance(key, int):
        return key
    return int(str(key).split("-", 1)[0])


def is_pre_release(key: EditionKey) -> bool:
    return isinstance(key, str)


def pre_release_key(number: int) -> str:
    return f"{number}-pre"


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


def ordinal(n: EditionKey) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st…; "11-pre" → "11th pre-release"."""
    if is_pre_release(n):
        return f"{ordinal(edition_number(n))} pre-release"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Where(Value):
    """A place in a rules file (1-based line and column), and where each key of the entry there
    stands: ``keys`` holds (path, line, column), the path a key (``"text"``: its value), a key inside
    a mapping value (``"row.old"``), or either followed by ``":"`` for the key itself."""

    __slots__ = ("file", "line", "column", "keys")

    def __init__(self, file: str, line: int = 0, column: int = 0, keys: tuple[tuple[str, int, int], ...] = ()) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.keys = keys

    def at(self, path: str) -> tuple[int, int]:
        """(line, column) of ``path`` (see the class docstring); (0, 0) where unknown."""
        return next(((line, column) for p, line, column in self.keys if p == path), (0, 0))


class When(Value):
    """When an event happened: a known edition, or *at or before* ``by`` (and after ``after``)."""

    __slots__ = ("edition", "by", "after")

    def __init__(self, edition: int | None, by: int, after: int | None = None) -> None:
        self.edition = edition  # None: unknown
        self.by = by  # the edition (number) of the file that records it
        self.after = after

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


class ComponentDecl(Value):

    __slots__ = ("id", "kind", "text", "formula", "limits", "sources", "where", "notes", "ultra")

    def __init__(self, id: str, kind: str, text: Template, formula: Formula | None, limits: dict[str, int | None],
                 sources: tuple[str, ...], where: Where, notes: tuple[str, ...] = (), ultra: int = 0) -> None:
        self.id = id
        self.kind = kind
        self.text = text
        self.formula = formula
        self.limits = limits
        self.sources = sources
        self.where = where
        self.notes = notes
        self.ultra = ultra  # its Ultra Points value (the 17th's "[+1]"); 0 for a text with none


class Disagreement(Value):
    """Two documents that say different things; recorded, shown, never silently resolved."""

    __slots__ = ("edition", "note", "sources", "component")

    def __init__(self, edition: EditionKey, note: str, sources: tuple[str, ...],
                 component: str | None = None) -> None:
        self.edition = edition
        self.note = note
        self.sources = sources
        self.component = component


class Range(Value):

    __slots__ = ("min", "max", "recommended")

    def __init__(self, min: int | None = None, max: int | None = None,
                 recommended: tuple[int, int] | None = None) -> None:
        self.min = min
        self.max = max
        self.recommended = recommended

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


#: what the 1st–12th rulebooks title their lists (a later rulebook names its own: ``Rulebook.sections``)
LIST_TITLES = {
    "lists": "Revised and Banned Cards",
    "revised": "Revised Ability Text",
    "redacted": "Redacted Ability Text (Banned Cards)",
    "limits": "Revised Variable Limits",
    "costs": "Revised Costs",
}


class Rulebook(Value):
    """Rulebook parameters as one rulebook states them; ``None`` where it is silent."""

    __slots__ = ("edition", "sources", "players", "deck", "reserves", "starting_hand", "starting_hitpoints",
                 "deck_ultra_points", "sections", "edition_indicator", "cost_revised", "exhaustive_lists", "terms",
                 "zones", "ability_layout", "keywords", "notes")

    def __init__(self, edition: EditionKey, sources: tuple[str, ...], players: Range | None = None,
                 deck: Range | None = None, reserves: Range | None = None, starting_hand: int | None = None,
                 starting_hitpoints: int | None = None, deck_ultra_points: int | None = None,
                 sections: Mapping[str, str] = EMPTY, edition_indicator: bool | str | None = None,
                 cost_revised: str | None = None, exhaustive_lists: bool | None = None,
                 terms: Mapping[str, str] = EMPTY, zones: tuple[str, ...] = (), ability_layout: tuple[str, ...] = (),
                 keywords: tuple[str, ...] = (), notes: tuple[str, ...] = ()) -> None:
        self.edition = edition
        self.sources = sources
        self.players = players
        self.deck = deck
        self.reserves = reserves
        self.starting_hand = starting_hand
        self.starting_hitpoints = starting_hitpoints
        self.deck_ultra_points = deck_ultra_points  # a deck's Ultra Points at most (the 17th: 10)
        self.sections = sections  # the titles of its lists ("revised", "costs" …): where silent, the 1st–12th's
        self.edition_indicator = edition_indicator  # True: cards print one; "required": a card without one is invalid
        # a card older than a cost revision of a text it uses: "reissue" (it must bear a later Edition
        # Indicator), "prune" (nothing cures it)
        self.cost_revised = cost_revised
        # True: its lists name every refurbished and pruned card (the 13th on), so a card keeps the level
        # its design edition gave it unless a list prunes it
        self.exhaustive_lists = exhaustive_lists
        self.terms = terms
        self.zones = zones
        self.ability_layout = ability_layout
        self.keywords = keywords
        self.notes = notes


class CostRule(Value):
    """How a card's figure is computed: named formulas, in the order the rules file gives them.

    A formula named ``<scope>_cost`` computes a scope's figure: ``sub_ability_cost``,
    ``ability_cost``, or ``<type>_cost`` for a card of that type.  Any other name is a helper of
    the scope whose ``_cost`` formula follows it (``total_relief`` before ``ability_cost``)."""

    __slots__ = ("edition", "sources", "formulas", "scopes")

    def __init__(self, edition: EditionKey, sources: tuple[str, ...],
                 formulas: tuple[tuple[str, Formula], ...]) -> None:
        self.edition = edition  # the edition whose documents state it
        self.sources = sources
        self.formulas = formulas
        #: scope → its formulas in order, its ``_cost`` last (a helper after the last belongs to none)
        self.scopes: dict[str, list[tuple[str, Formula]]] = {}
        pending: list[tuple[str, Formula]] = []
        for name, f in formulas:
            pending.append((name, f))
            if name.endswith("_cost"):
                self.scopes[name[: -len("_cost")]] = pending
                pending = []

    def parts(self) -> list[tuple[str, Formula]]:
        return list(self.formulas)

    def scope(self, scope: str) -> list[tuple[str, Formula]]:
        return self.scopes.get(scope, [])


class Source(Value):

    __slots__ = ("id", "file", "title")

    def __init__(self, id: str, file: str, title: str) -> None:
        self.id = id
        self.file = file
        self.title = title


class EditionDecl(Value):
    """One rules file: what one edition changed."""

    __slots__ = ("number", "file", "base", "follows", "sources", "components", "events", "disagreements", "clean_slate",
                 "catalog_known", "catalog_whole", "successors", "rulebook", "card_cost", "notes", "name", "pre_release",
                 "system", "guide_order")

    def __init__(self, number: int, file: str, base: bool, follows: EditionKey | None, sources: tuple[str, ...],
                 components: tuple[ComponentDecl, ...] = (), events: tuple[Any, ...] = (),
                 disagreements: tuple[Disagreement, ...] = (), clean_slate: bool = False, catalog_known: bool = True,
                 catalog_whole: bool = False, successors: tuple[Any, ...] = (), rulebook: Rulebook | None = None,
                 card_cost: CostRule | None = None, notes: tuple[str, ...] = (), name: str | None = None,
                 pre_release: bool = False, system: Any = None,
                 guide_order: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> None:
        self.number = number  # the edition number (11 for the 11th's pre-release)
        self.file = file
        self.base = base
        self.follows = follows
        self.sources = sources
        self.components = components
        self.events = events  # its history events (kotc_rulesc.history), kind after kind, each in file order
        self.disagreements = disagreements
        self.clean_slate = clean_slate
        self.catalog_known = catalog_known
        self.catalog_whole = catalog_whole  # its components are its whole catalog: nothing earlier carries over
        self.successors = successors  # its clean slate's successors (history.Successor)
        self.rulebook = rulebook  # the rulebook in force: its file's over the line's (None: no source gives one)
        self.card_cost = card_cost
        self.notes = notes
        self.name = name
        self.pre_release = pre_release
        self.system = system  # the card-building system (system.System) from this edition on, if it changed
        self.guide_order = guide_order  # (kind, component ids): its guide's order where not the one inherited

    @property
    def rulebook_stated(self) -> bool:
        """Does its own file state the rulebook (rather than inherit the line's)?"""
        return self.rulebook is not None and self.rulebook.edition == self.key

    def of_kind(self, kind: type) -> tuple:
        """Its events of one kind, in file order."""
        return tuple(ev for ev in self.events if type(ev) is kind)

    @property
    def key(self) -> EditionKey:
        """How the edition is named: 10, or "11-pre" for a pre-release."""
        return pre_release_key(self.number) if self.pre_release else self.number


class RuleSet(Value):
    """Every edition, with the sources they cite: a tree, as Alembic's revisions are — the main line
    1, 2, 3 …, and pre-release branches (``11-pre``) that follow a main-line edition; ``editions`` is
    in file order (a pre-release just before its edition)."""

    __slots__ = ("editions", "sources", "directory", "history")

    def __init__(self, editions: tuple[EditionDecl, ...], sources: dict[str, Source], directory: str) -> None:
        self.editions = editions
        self.sources = sources
        self.directory = directory
        self.history: Any = None  # the history replayed (fold.Replay), kept by the loader or the first fold

    @property
    def keys(self) -> list[EditionKey]:
        """Every edition's key, in file order: 1 … 10, "11-pre", 11, 12 …"""
        return [e.key for e in self.editions]

    @property
    def main_line(self) -> list[EditionDecl]:
        return [e for e in self.editions if not e.pre_release]

    @property
    def first(self) -> int:
        return self.editions[0].number

    @property
    def last(self) -> int:
        """The newest edition of the main line."""
        return self.main_line[-1].number

    def edition(self, key: EditionKey) -> EditionDecl | None:
        return next((e for e in self.editions if e.key == key), None)

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
        """Every rulebook's words for a card type, both ways ("minion" for creature and back), so that
        a card written in one edition's words reads in another's."""
        types = {t.id for e in self.editions if e.system is not None for t in e.system.types}
        aliases: dict[str, str] = {}
        for rulebook in (e.rulebook for e in self.editions if e.rulebook is not None):
            for term, word in rulebook.terms.items():
                if word != term and (term in types or word.lower() in types):
                    aliases.setdefault(word.lower(), term)
                    aliases.setdefault(term.lower(), word.lower())
        return aliases

    def decisive_fields(self) -> tuple[str, ...]:
        """The card fields the card engine reads in some edition (type, edition, text, each system's
        figure and stats): what :mod:`kotc_rulesc.cards.decisive` keys its memo by."""
        fields = ["type", "edition", "text"]
        for e in self.editions:
            if e.system is not None:
                for name in (e.system.figure, *(st.name for t in e.system.types for st in t.stats)):
                    if name not in fields:
                        fields.append(name)
        return tuple(fields)

    def newest_with_catalog(self) -> int:
        """The newest main-line edition whose component catalog is declared: the default edition of
        cost, check-cards and migrate's target."""
        return max((e.number for e in self.main_line if e.catalog_known), default=self.first)
