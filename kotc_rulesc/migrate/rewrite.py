"""Run the migration passes over a card's text, sentence by sentence.

A paragraph is an optional ability name in capitals and a colon, then sentences ending with a period;
each sentence goes through the passes ``E+1 … N`` in order.  Whatever no rewrite touches is kept
character for character, so a migrated card differs from the original exactly where a wording was
revised.  A revision no rulebook list names (``listed: false``) is reported but not made.  Clean-slate
passes depend on what the components are: :mod:`kotc_rulesc.migrate.plan` handles them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..cards.sentence import clause_pattern, clauses
from ..passes import Pass, Rewrite
from ..text import Choice, Template, normalize, opening_forms, skeleton
from ..memo import Memo

__all__ = ["TextRewrite", "LineRewriter", "split_line", "map_sentences"]

# The same reading of a paragraph as the card parser's (kotc_rulesc.cards.parse):
# "NAME:" in capitals, then sentences ending with a period.
_NAME = re.compile(r"^(?P<lead>\s*)(?P<name>[A-Z0-9][A-Z0-9 '\u2019&,!?\-]*?\s*:\s*)(?P<rest>.*)$", re.S)
_SENTENCE_END = re.compile(r"(?<=\.)(\s+)")


@dataclass(frozen=True)
class TextRewrite:
    """One revised wording rewritten: where, from what, to what, by which edition and sources."""

    line: int  # 1-based line of the card text
    old: str  # the sentence as printed (normalized)
    new: str  # the sentence in the later wording
    component: str | None  # None: a paragraph written in the form the guide prescribes (``prescribed``)
    edition: int | None  # the edition of the revision (None: no source gives it)
    by: int  # the edition by which it had happened
    sources: tuple[str, ...]
    successor: str | None = None  # a clean slate's successor component that replaced ``component``
    wording: tuple[str, str] | None = None  # the component's wording before and after, as the guides print it
    listed: bool = True  # False: no rulebook list names it; the card keeps ``old`` (``new``: the guide's)
    prescribed: tuple[str, ...] = ()  # the *should* rules the printed paragraph broke, as the warnings say

    @classmethod
    def of(cls, line: int, old: str, new: str, rw: Rewrite) -> "TextRewrite":
        return cls(line, old, new, rw.component, rw.edition, rw.by, tuple(rw.sources), None,
                   (str(rw.old), str(rw.new)), rw.listed)

    def to_json(self) -> dict:
        out = {"line": self.line, "old": self.old, "new": self.new, "component": self.component,
               "edition": self.edition, "by": self.by, "sources": list(self.sources)}
        if self.successor is not None:
            out["successor"] = self.successor
        if self.wording is not None:
            out["wording"] = {"old": self.wording[0], "new": self.wording[1]}
        if not self.listed:
            out["listed"] = False
        if self.prescribed:
            out["prescribed"] = list(self.prescribed)
        return out


def split_line(line: str) -> tuple[str, list[str]]:
    """``(prefix, pieces)``: the leading space and ability name (``""`` when none), then the
    rest of the line cut into sentences and the spaces between them, alternately
    (``pieces[0::2]`` are sentences, ``pieces[1::2]`` separators).  ``prefix + "".join(pieces)``
    is the line again."""
    prefix = ""
    m = _NAME.match(line)
    if m and any(c.isalpha() for c in m.group("name")):
        prefix = m.group("lead") + m.group("name")
        line = m.group("rest")
    return prefix, _SENTENCE_END.split(line)


def map_sentences(text: str, new_of: Callable[[int, str], str | None]) -> str:
    """``text`` with each sentence replaced for which ``new_of(paragraph number, sentence stripped)``
    gives a new one; everything else kept as it is."""
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        prefix, pieces = split_line(line)
        for i in range(0, len(pieces), 2):
            raw = pieces[i].strip()
            new = new_of(number, raw) if raw else None
            if new is not None:
                pieces[i] = pieces[i].replace(raw, new, 1)
        lines[number - 1] = prefix + "".join(pieces)
    return "\n".join(lines)


def _first_word(text: str) -> str:
    return text.split(None, 1)[0].lower() if text.strip() else ""


def _letter_forms(sentence: str) -> tuple[str, ...]:
    """The sentence as printed, then with its first letter in the other case (the guides' rule: a
    text's first letter is capitalized where it opens its ability or sub-ability, and only there)."""
    forms = opening_forms(sentence)
    if len(forms) == 1 and sentence[:1].islower():
        return sentence, sentence[0].upper() + sentence[1:]
    return forms


def _apply(rw: Rewrite, old: Template, new: Template, sentence: str) -> str | None:
    """``sentence`` rewritten by ``rw`` (:meth:`Rewrite.apply <kotc_rulesc.history.text_revision.Rewrite.apply>`), read
    as a card may print the old wording (``old``, its reading) and written in the same forms (``new``:
    "it" stays "it", "Target 1" stays without "up to"); None when it is not that wording."""
    m = old.match(sentence)
    if m is None or m.conflicts:
        return None
    printed = {old.segments[i].forms[0].lower(): form for i, form in m.choices}
    choices = {i: printed.get(seg.forms[0].lower(), 0) for i, seg in enumerate(new.segments) if isinstance(seg, Choice)}
    return new.render({**m.values, **rw.binds}, choices)


def _first_letter_as(printed: str, new: str) -> str:
    """``new`` with its first letter in the case of ``printed``'s: where the text stands says which."""
    if printed[:1].isupper():
        return new[:1].upper() + new[1:]
    if printed[:1].islower():
        return new[:1].lower() + new[1:]
    return new


class LineRewriter:
    """Rewrites lines of card text through a fixed run of passes, remembering each distinct line,
    sentence and span of clauses (bounded: a collection of any size shares a few thousand).

    ``unlisted``: also make the rewordings no rulebook list names (a card re-issued in the target
    edition prints its wordings).  ``joins``: what may join two components in place of the first
    one's end mark (", also " → "→"); ``variations``: the forms a card may print a wording in."""

    def __init__(self, passes: Sequence[Pass], limit: int = 20000, unlisted: bool = False,
                 joins: dict[str, tuple[str, ...]] | None = None, variations: Sequence[Any] = ()):
        self.passes = [p for p in passes if p.rewrites]
        self.unlisted = unlisted
        self.joins = dict(joins or {})
        self._separator = clause_pattern(tuple(self.joins))
        # the most clauses an old wording spans (its own ", " or ": " inside): no longer span can match
        self._span = max((len(self._clauses(str(rw.old))) for p in self.passes for rw in p.rewrites), default=1)
        # per pass, the rewrites by the skeleton of their old wording (each as a card may print it
        # under the variations): one look-up rules out every other rewrite
        self._index: list[dict[str, list[tuple[Rewrite, Template, Template]]]] = []
        firsts: set[str] = set()
        for p in self.passes:
            index: dict[str, list[tuple[Rewrite, Template, Template]]] = {}
            for rw in p.rewrites:
                rules = [(i, v.forms) for i, v in enumerate(variations) if rw.kind in v.kinds]
                old, new = rw.old.vary(rules), rw.new.vary(rules)
                for key in old.skeletons():
                    index.setdefault(key, []).append((rw, old, new))
                    firsts.add(_first_word(key))
            self._index.append(index)
        self._any = frozenset(key for index in self._index for key in index)
        # the first words of the old wordings: a span of clauses that starts with another matches none
        # (None: some wording starts with a variable, so any word may)
        self._firsts = None if any(w.startswith("#") for w in firsts) else frozenset(firsts)
        self._lines = Memo(limit)
        self._sentences = Memo(limit)
        self._wholes = Memo(limit)

    def sentence(self, sentence: str) -> tuple[str | None, tuple[tuple[str, str, Rewrite], ...]]:
        """The sentence after every pass (``None`` when no pass changed it) and the steps taken."""
        return self._sentences.remember(sentence, self._sentence)

    def _sentence(self, sentence: str) -> tuple[str | None, tuple[tuple[str, str, Rewrite], ...]]:
        current = normalize(sentence)
        new, steps = self._whole(current)
        if steps:
            return new, steps
        clauses = self._clauses(current)
        if len(clauses) < 2:
            return None, ()
        # a sentence of several components (the 11th on): components ending in ":", ";" or "→", or
        # joined to the next (", also " in place of the end mark "→"); longest spans of clauses
        # first, as the card parser reads them (a component may itself contain ", " or ":")
        out: list[str] = []
        taken_all: list[tuple[str, str, Rewrite]] = []
        changed = False
        i = 0
        while i < len(clauses):
            hit = self._span_at(clauses, i)
            if hit is None:
                out.append(clauses[i][0] + clauses[i][1])
                i += 1
                continue
            span, raw, new, taken = hit
            out.append((new if new is not None else raw) + clauses[i + span - 1][1])
            taken_all.extend(taken)
            changed = changed or new is not None
            i += span
        return ("".join(out) if changed else None), tuple(taken_all)

    def _span_at(self, clauses: list[tuple[str, str]], i: int) -> tuple | None:
        """The longest span of clauses from the ``i``-th that a pass reads as one component:
        ``(span, raw, new or None, steps)``; None when there is none."""
        if self._firsts is not None and _first_word(clauses[i][0]) not in self._firsts:
            return None  # no old wording starts so
        for span in range(min(len(clauses) - i, self._span), 0, -1):
            raw = "".join(c + sep for c, sep in clauses[i:i + span - 1]) + clauses[i + span - 1][0]
            for end in self.joins.get(clauses[i + span - 1][1], ("",)):
                new, taken = self._whole(raw + end)
                if new is not None and end:
                    new = new[:-len(end)] if new.endswith(end) else None
                    taken = taken if new is not None else ()
                if taken:
                    return span, raw, new, taken
        return None

    def _clauses(self, sentence: str) -> list[tuple[str, str]]:
        """The clauses of a sentence as the card parser reads them (from the 11th on), each with the
        separator after it; the whole sentence as one when they do not make it up again."""
        out = clauses(sentence, self._separator)
        return out if "".join(c + sep for c, sep in out) == sentence else [(sentence, "")]

    def _whole(self, current: str) -> tuple[str | None, tuple[tuple[str, str, Rewrite], ...]]:
        """The sentence (or span of clauses) read as one component through every pass."""
        return self._wholes.remember(current, self._whole_afresh)

    def _whole_afresh(self, current: str) -> tuple[str | None, tuple[tuple[str, str, Rewrite], ...]]:
        steps: list[tuple[str, str, Rewrite]] = []
        changed = False
        if not any(skeleton(form) in self._any for form in _letter_forms(current)):
            return None, ()
        for index in self._index:
            # in the pass's order: the first that matches, as Pass.rewrite; a text the guide prints
            # lowercase ("draw [x] cards.") is capitalized where it opens its ability, one it prints
            # capitalized ("Target up to [x] …;") is lowercase after a join, and each stays so
            for form in _letter_forms(current):
                rw, new = next(((rw, new) for rw, old, later in index.get(skeleton(form), ())
                                if (new := _apply(rw, old, later, form)) is not None), (None, None))
                if rw is not None:
                    new = _first_letter_as(current, new)
                    if new == current:
                        break  # only its first letter: where the text stands says which (no change)
                    steps.append((current, new, rw))
                    if rw.listed or self.unlisted:  # (a rewording no rulebook list names is reported, not made)
                        current, changed = new, True
                    break
        return (current if changed else None), tuple(steps)

    def _line(self, line: str) -> tuple[str, tuple[tuple[str, str, Rewrite], ...]]:
        if not self.passes or not line.strip():
            return line, ()
        prefix, pieces = split_line(line)
        steps: list[tuple[str, str, Rewrite]] = []
        changed = False
        i = 0
        while i < len(pieces):
            # a wording of two sentences (the 1st edition's counter effects) before one
            for span in (3, 1) if i + 2 < len(pieces) else (1,):
                raw = "".join(pieces[i:i + span])
                core = raw.strip()
                if not core:  # (a type's text for no abilities is no component: nothing rewrites it)
                    break
                # two sentences: only as one wording (a sentence of clauses is read alone, below)
                new, taken = self._whole(core) if span > 1 else self.sentence(core)
                if new is not None:
                    pieces[i:i + span] = [raw.replace(core, new, 1)] + [""] * (span - 1)
                    steps.extend(taken)
                    changed = True
                    break
                if taken:  # only rewordings no rulebook list names: the sentence stays as printed
                    steps.extend(taken)
                    break
            i += 2
        return (prefix + "".join(pieces) if changed else line), tuple(steps)

    def line(self, line: str) -> tuple[str, tuple[tuple[str, str, Rewrite], ...]]:
        """The rewritten line and its steps ``(old sentence, new sentence, rewrite)``."""
        return self._lines.remember(line, self._line)

    def text(self, text: str) -> tuple[str, list[TextRewrite]]:
        """The rewritten card text (the same string when nothing changed) and its rewrites."""
        lines = text.split("\n")
        out: list[TextRewrite] = []
        changed = False
        for number, line in enumerate(lines, 1):
            new, steps = self.line(line)
            if steps:
                changed = True
                lines[number - 1] = new
                out.extend(TextRewrite.of(number, old, after, rw) for old, after, rw in steps)
        return ("\n".join(lines) if changed else text), out
