"""Which component a printed sentence is: one edition's catalog as the card engine reads it.

A sentence's skeleton (numbers masked; one per singular/plural form) finds its candidates in one look-up —
current wordings, then earlier ones, each as a card may print it under the system's variations — and the
template's match reads the values.  An earlier wording reads as the current one (with its bound values).
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from ..catalog import Catalog, ComponentState
from ..history.text_revision import Wording
from ..memo import Memo
from ..system import Join, System, join_ends
from ..text import Choice, Slot, Template, TemplateMatch, normalize, opening_forms, skeleton
from .model import Use, when_phrase

__all__ = ["CardJoins", "CatalogReader", "clauses", "read_clauses", "read_sentence", "reader_of", "variations_of"]

#: what ends a clause: ":" or ";" and the space after it, or "→" (and any space after it)
CLAUSE_END = re.compile(r"(?<=[:;])\s+|(?<=→)\s*")
#: sentences a reader remembers: two generations of at most this many each
SENTENCES_KEPT = 4096


class Entry:
    """A wording of a component in the index: the text it matches, as a card may print it."""

    __slots__ = ("comp", "template", "binds", "wording", "reading", "selects")

    def __init__(self, comp: ComponentState, template: Template, binds: dict[str, int], wording: Wording | None,
                 reading: Template, selects: int | str | None):
        self.comp = comp
        self.template = template  # the wording this entry matches (current or earlier)
        self.binds = binds  # values an earlier wording stands for in the current text
        self.wording = wording  # None: the current wording
        self.reading = reading  # the wording as a card may print it (its system's variations)
        self.selects = selects  # a target selection's number of targets (_selects)


class CardJoins:
    """The joins a card may print, what each replaces, the pattern that splits a sentence into clauses
    with them, and the most clauses one component text (of ``texts``) spans."""

    __slots__ = ("joins", "ends", "pattern", "longest")

    def __init__(self, joins: tuple[Join, ...], ends: dict[str, tuple[str, ...]], texts: Any):
        self.joins = joins
        self.ends = ends
        self.pattern = clause_pattern(tuple(ends))
        self.longest = max((len(clauses(text, self.pattern)) for text in texts), default=1)


def clause_pattern(joins: tuple[str, ...]) -> re.Pattern:
    """What ends a clause: ":", ";" or "→" and the space after it, or one of ``joins`` (longest first)."""
    return re.compile(CLAUSE_END.pattern + "".join("|" + re.escape(j) for j in sorted(joins, key=len, reverse=True)))


def clauses(sentence: str, pattern: re.Pattern = CLAUSE_END) -> list[tuple[str, str]]:
    """The clauses of a sentence, each with the separator that follows it (a space after ":",
    ";" or "→", or a join such as ", also " that replaced the clause's end mark)."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in pattern.finditer(sentence):
        if m.end() == pos or m.start() == len(sentence):
            continue
        out.append((sentence[pos:m.start()], m.group(0)))
        pos = m.end()
    out.append((sentence[pos:], ""))
    return [(c, sep) for c, sep in out if c]


class CatalogReader:
    """One edition's catalog as the card engine reads it, and what it derives from it once: the index of
    its texts, the sentences read, the joins a card may print by its design edition, the matchers that
    find what an unknown text is near.  ``view`` (optional) gives the values later revisions bind."""

    def __init__(self, catalog: Catalog, view: Any = None):
        self.catalog = catalog
        self.view = view
        self._sentences = Memo(SENTENCES_KEPT)  # raw sentence → (Use or None, problems)
        self._joins: dict[int | None, CardJoins] = {}  # design edition → the joins its cards may print

    @cached_property
    def index(self) -> dict[str, list[Entry]]:
        """skeleton → entries, current wordings before earlier ones."""
        index: dict[str, list[Entry]] = {}
        system = self.catalog.system
        targets = system.targets if system is not None else None
        components = self.catalog.components or ()
        wordings = [(comp, comp.text, {}, None) for comp in components]
        wordings += [(comp, w.text, dict(w.binds), w) for comp in components for w in comp.wordings]
        for comp, template, binds, wording in wordings:
            reading = template.vary(variations_of(system, comp.kind))
            selects = _selects(reading, targets) if targets is not None and comp.kind == targets.kind else None
            for key in reading.skeletons():
                index.setdefault(key, []).append(Entry(comp, template, binds, wording, reading, selects))
        return index

    def lookup(self, sentence: str) -> tuple[Entry | None, TemplateMatch | None]:
        """The first entry whose reading matches ``sentence``, with its match (or ``(None, None)``)."""
        for entry in self.index.get(skeleton(sentence), ()):
            m = entry.reading.match(sentence)
            if m is not None:
                return entry, m
        return None, None

    def read(self, raw: str) -> tuple[Use | None, list[str]]:
        """:func:`read_sentence` of ``raw``, each sentence read once (the :class:`Use` is shared: nobody
        modifies it)."""
        use, problems = self._sentences.remember(raw, self._read)
        return use, list(problems)

    def card_joins(self, design: int | None) -> CardJoins:
        """The joins a card of design edition ``design`` may print: its edition's, and where the rulebook
        keeps a card as its design edition made it (``exhaustive_lists``) those of the editions from its
        design edition on (the 13th's ", also " between activation costs, which the 14th made " and ")."""
        joins = self._joins.get(design)
        if joins is not None:
            return joins
        catalog, view = self.catalog, self.view
        out, ends = catalog.system.joins, catalog.system.join_ends
        rulebook = catalog.rulebook
        if (view is not None and rulebook is not None and rulebook.exhaustive_lists and design is not None
                and design < catalog.number and design in view.keys
                and (catalog.clean_slate is None or design >= catalog.clean_slate)):
            out = list(out)
            for p in view.path(design, catalog.edition) or ():
                out += [j for j in view.catalog(p.source).system.joins if j not in out]
            out = tuple(out)
            ends = join_ends(out)
        texts = (str(entry.template) for entries in self.index.values() for entry in entries)
        joins = self._joins[design] = CardJoins(out, ends, texts)
        return joins

    @cached_property
    def matchers(self) -> list[tuple[ComponentState, Any]]:
        """A difflib matcher per component, its skeleton the second sequence (which difflib indexes once)."""
        import difflib  # (only an unknown text needs it)

        return [(comp, difflib.SequenceMatcher(None, "", comp.text.skeleton)) for comp in self.catalog.components or ()]

    def _read(self, raw: str) -> tuple[Use | None, list[str]]:
        sentence = normalize(raw)
        for form in opening_forms(sentence):  # as printed, or with its opening letter lowercase
            entry, m = self.lookup(form)
            if entry is not None:
                break
        else:
            return None, []
        problems = [f'"{sentence}": {c}' for c in m.conflicts]
        for var, value in m.values.items():
            if value < 1:
                problems.append(f'"{sentence}": [{var}] is {value}; variables are positive whole numbers (1 or more)')
        for wrong in m.misnumbered:  # the singular where the number is not 1: not the component's text
            right = entry.reading.render(m.values, dict(m.choices))
            right = (right[:1].upper() if sentence[:1].isupper() else right[:1].lower()) + right[1:]
            problems.append(f'"{sentence}": {wrong}; print "{right}"')
        if problems:
            return None, problems
        comp = entry.comp
        values = {**m.values, **entry.binds}
        if comp.formula is not None and not (comp.formula.variables - {"t"}) <= set(values):
            values = {**self._later_binds(comp.id, comp.text), **values}
        wording = comp.text.render(values)
        notes = []
        if sentence != raw.strip():
            notes.append(f'read "{raw.strip()}" as "{sentence}" (typographic quotes and spacing are forgiven)')
        old = None
        if entry.wording is not None:
            old = str(entry.template)
            if any(form for _, form in m.choices):  # the current wording in the forms the card chose ("on the target")
                wording = in_forms(comp, entry.reading, dict(m.choices), values, self.catalog.system) or wording
            w = entry.wording
            bound = ", ".join(f"{k} = {v}" for k, v in sorted(entry.binds.items()))
            notes.append(f'"{sentence}" is an earlier wording, revised {when_phrase(w.replaced_in)}; '
                         f'it reads as "{wording}"' + (f" ({bound})" if bound else ""))
        return Use(comp.id, comp.kind, values, sentence, wording, old, notes, comp,
                   entry.reading, m.choices, m.disagreements, dict(m.values), entry.selects,
                   str(entry.reading)[:1].isupper()), []

    def _later_binds(self, comp_id: str, wording: Template) -> dict[str, int]:
        """Values a wording stands for through the later revisions that bind them ("Activate when you take
        damage." costs x/5, a later revision binds x = 5): the passes carry them, an earlier fold does not."""
        binds: dict[str, int] = {}
        if self.view is None:
            return binds
        current = str(wording)
        for p in self.view.passes():
            for rw in p.rewrites:
                if rw.component == comp_id and str(rw.old) == current:
                    for var, value in rw.binds.items():
                        binds.setdefault(var, value)
                    current = str(rw.new)
        return binds


def reader_of(catalog: Catalog, view: Any = None) -> CatalogReader:
    """The reader of ``catalog``: the one ``view`` keeps for it, or one of its own for a catalog the view
    did not make (or no view)."""
    if view is None:
        return CatalogReader(catalog)
    readers = view.readers
    reader = readers.get(catalog.edition)
    if reader is not None and reader.catalog is catalog:
        return reader
    reader = CatalogReader(catalog, view)
    if catalog.edition in view.keys and view.catalog(catalog.edition) is catalog:
        readers[catalog.edition] = reader
    return reader


def read_sentence(raw: str, catalog: Catalog, view: Any = None) -> tuple[Use | None, list[str]]:
    """Match one printed sentence: the :class:`Use` (with its notes), or ``None`` and the problems (a
    variable not a positive whole number, printed with two values…); ``(None, [])`` for an unknown one."""
    return reader_of(catalog, view).read(raw)


def read_clauses(sentence: str, reader: CatalogReader,
                 joins: CardJoins) -> tuple[list[tuple[Use, str, str]] | None, str, list[str]]:
    """The uses of a sentence of several components, each ending in ":", ";", "→" or "." or joined to the
    next by a join, with what is printed of it and what follows it; or (None, the first clause no component
    reads, its problems).  Longest spans first: a component may itself contain ";" or ":"."""
    parts = clauses(sentence, joins.pattern)
    ends = joins.ends
    out: list[tuple[Use, str, str]] = []
    i = 0
    while i < len(parts):
        for span in range(min(len(parts) - i, joins.longest), 0, -1):
            raw = "".join(c + sep for c, sep in parts[i:i + span - 1]) + parts[i + span - 1][0]
            last_sep = parts[i + span - 1][1]
            # after another component a text the guide prints capitalized ("Draw [x] cards.", the
            # 11th's) starts lowercase: ", then draw 2 cards."
            forms = [raw] + ([raw[0].upper() + raw[1:]] if i > 0 and raw[:1].islower() else [])
            # a join's own end marks first, then the others' (a join between kinds no rule joins so is
            # read, and reported where the joins are checked)
            marks = ends.get(last_sep)
            marks = tuple(dict.fromkeys(marks + tuple(m for ms in ends.values() for m in ms))) if marks else ("",)
            for text in (form + end for form in forms for end in marks):
                use, problems = reader.read(text)
                if use is not None:
                    break
            if use is not None:
                break
        if use is None:
            return None, parts[i][0], problems
        out.append((use, raw, last_sep))
        i += span
    return out, sentence, []


def variations_of(system: System | None, kind: str) -> list[tuple[int, tuple[tuple[str, tuple[str, ...]], ...]]]:
    """The system's variations that change texts of ``kind``: (their number, their forms)."""
    return [(i, v.forms) for i, v in enumerate(system.variations if system is not None else ()) if kind in v.kinds]


def in_forms(comp: ComponentState, reading: Template, choices: dict[int, int], values: dict[str, int],
              system: System, text: Template | None = None) -> str | None:
    """The component's current text (or ``text``, a wording of it) with each varied piece in the form the card
    printed in an earlier wording (the n-th place a rule varies in each, in order); None when the two do not
    vary alike."""
    text = comp.text if text is None else text
    current = text.vary(variations_of(system, comp.kind))
    old = [(seg.rule, choices.get(i, 0)) for i, seg in enumerate(reading.segments) if isinstance(seg, Choice)]
    places = [i for i, seg in enumerate(current.segments) if isinstance(seg, Choice)]
    if len(places) != len(old) or not set(text.variables) <= set(values):
        return None
    if any(current.segments[i].rule != rule for i, (rule, _) in zip(places, old)):
        return None
    return current.render(values, {i: form for i, (_, form) in zip(places, old)})


def _selects(reading: Template, targets: Any) -> int | str | None:
    """How many cards a target selection may select, as its text says and the system's ``targets``
    reads it: 1 for a text with a single phrase ("this card"), the variable after a counted phrase ("up
    to [x]": "x"), ``None`` for more than one or no number ("all level [x] or lower …")."""
    text = str(reading).lower()
    if any(single.lower() in text for single in targets.single):
        return 1
    before = ""
    for seg in reading.segments:
        if isinstance(seg, Slot):
            if any(before.rstrip().lower().endswith(c.lower()) for c in targets.counted):
                return seg.var
            before = ""
        else:
            before += seg.forms[0] if isinstance(seg, Choice) else getattr(seg, "text", getattr(seg, "plural", ""))
    return None
