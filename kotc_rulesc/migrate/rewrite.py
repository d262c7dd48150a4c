"""Run the migration passes over a card's text, sentence by sentence.

A card's text is one paragraph per line: an optional ability name in capitals
followed by a colon, then sentences, each ending with a period.  Every sentence
goes through the passes ``E+1 … N`` in order (:meth:`~kotc_rulesc.passes.Pass.rewrite`);
a revised wording comes out in the next wording, with the values the revision
binds and the singular forms its numbers call for.  Whatever no rewrite touches —
names, spacing, typographic quotes of unrevised sentences, lines that are not
component text — is kept character for character, so that a migrated card differs
from the original exactly where a wording was revised.

Clean-slate passes are not handled here: whether a card survives one depends on
what its components are, which :mod:`kotc_rulesc.migrate.plan` reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..passes import Pass, Rewrite
from ..text import normalize, opening_forms, skeleton
from .memo import Memo

__all__ = ["TextRewrite", "LineRewriter", "split_line"]

# The same reading of a paragraph as the card parser's (kotc_rulesc.cards.parse):
# "NAME:" in capitals, then sentences ending with a period.
_NAME = re.compile(r"^(?P<lead>\s*)(?P<name>[A-Z0-9][A-Z0-9 '\u2019&,!?\-]*?\s*:\s*)(?P<rest>.*)$", re.S)
_SENTENCE_END = re.compile(r"(?<=\.)(\s+)")
# the clauses of a sentence, as the card parser reads them from the 11th on: a component ending in
# ":", ";" or "→" shares its sentence with what follows it
_CLAUSE_END = re.compile(r"(?<=[:;])\s+|(?<=→)\s*(?=\S)")


@dataclass(frozen=True)
class TextRewrite:
    """One revised wording rewritten: where, from what, to what, by which edition and sources."""

    line: int  # 1-based line of the card text
    old: str  # the sentence as printed (normalized)
    new: str  # the sentence in the later wording
    component: str
    edition: int | None  # the edition of the revision (None: no source gives it)
    by: int  # the edition by which it had happened
    sources: tuple[str, ...]
    successor: str | None = None  # a clean slate's successor component that replaced ``component``

    @classmethod
    def of(cls, line: int, old: str, new: str, rw: Rewrite) -> "TextRewrite":
        return cls(line, old, new, rw.component, rw.edition, rw.by, tuple(rw.sources))

    def to_json(self) -> dict:
        out = {
            "line": self.line,
            "old": self.old,
            "new": self.new,
            "component": self.component,
            "edition": self.edition,
            "by": self.by,
            "sources": list(self.sources),
        }
        if self.successor is not None:
            out["successor"] = self.successor
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


class LineRewriter:
    """Rewrites lines of card text through a fixed run of passes, remembering each distinct line
    and sentence.

    The memory is bounded (:class:`~kotc_rulesc.migrate.memo.Memo`): a collection of any size
    shares a few thousand distinct sentences, and a new one costs a few regular expression
    matches."""

    def __init__(self, passes: Sequence[Pass], limit: int = 20000):
        self.passes = [p for p in passes if p.rewrites]
        # per pass, the rewrites by the skeleton of their old wording: a sentence can only match
        # a wording with the same skeleton, so one look-up rules out every other rewrite
        self._index: list[dict[str, list[Rewrite]]] = []
        for p in self.passes:
            index: dict[str, list[Rewrite]] = {}
            for rw in p.rewrites:
                for key in rw.old.skeletons():
                    index.setdefault(key, []).append(rw)
            self._index.append(index)
        self._lines = Memo(limit)
        self._sentences = Memo(limit)

    def sentence(self, sentence: str) -> tuple[str | None, list[tuple[str, str, Rewrite]]]:
        """The sentence after every pass (``None`` when no pass changed it) and the steps taken."""
        hit = self._sentences.get(sentence)
        if hit is None:
            hit = self._sentence(sentence)
            self._sentences.put(sentence, hit)
        return hit[0], list(hit[1])

    def _sentence(self, sentence: str) -> tuple[str | None, tuple[tuple[str, str, Rewrite], ...]]:
        steps: list[tuple[str, str, Rewrite]] = []
        current = normalize(sentence)
        changed = False
        for index in self._index:
            # in the pass's order: the first that matches, as Pass.rewrite; a text the guide prints
            # lowercase ("draw [x] cards.") is capitalized where it opens its ability, and stays so
            for form in opening_forms(current):
                rw, new = next(((rw, new) for rw in index.get(skeleton(form), ()) if (new := rw.apply(form)) is not None),
                               (None, None))
                if rw is not None:
                    new = new[:1].upper() + new[1:] if form != current else new
                    steps.append((current, new, rw))
                    current, changed = new, True
                    break
        if not changed and len(parts := _CLAUSE_END.split(current)) > 1:
            # a sentence of several components (the 11th on): each clause on its own
            out, seps = [], _CLAUSE_END.findall(current)
            for i, clause in enumerate(parts):
                new, taken = self._sentence(clause) if clause else (None, ())
                out.append(new if new is not None else clause)
                steps.extend(taken)
                changed = changed or new is not None
                if i < len(seps):
                    out.append(seps[i])
            current = "".join(out)
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
                new, taken = self.sentence(core)
                if new is not None:
                    pieces[i:i + span] = [raw.replace(core, new, 1)] + [""] * (span - 1)
                    steps.extend(taken)
                    changed = True
                    break
            i += 2
        return (prefix + "".join(pieces) if changed else line), tuple(steps)

    def line(self, line: str) -> tuple[str, tuple[tuple[str, str, Rewrite], ...]]:
        """The rewritten line and its steps ``(old sentence, new sentence, rewrite)``."""
        hit = self._lines.get(line)
        if hit is None:
            hit = self._line(line)
            self._lines.put(line, hit)
        return hit

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
