"""Word-level differences between two wordings, marked as the 11th rulebook marks a revision: removed words
struck (``~~a~~``), added ones in bold (``**at least 1**``); also as HTML and as ``[-…-]``/``{+…+}`` text.

Read off the rulebook: words compare without the punctuation that ends them, and a period that moved to the
end of an added clause belongs to it ("destroyed **by paying this card's resource cost.**"); a marked run that
is a whole parenthetical keeps its parentheses unmarked ("(**excluding this card**)"); adjacent marked words,
with the spaces between them, are one run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import groupby
from typing import Callable, Iterable, Literal

from .text import normalize

Mark = Literal["same", "removed", "added"]

_CHUNK = re.compile(r"(\S+)(\s*)")
_END_PUNCT = re.compile(r"[.,;:!?]+$")


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of one side's text, and whether it was kept, removed or added."""

    text: str
    mark: Mark


class Runs(tuple):
    """One side of a word diff: its runs in order.  ``str(runs)`` is the plain text."""

    def __str__(self) -> str:
        return "".join(r.text for r in self)

    @property
    def changed(self) -> bool:
        return any(r.mark != "same" for r in self)

    def marked(self) -> list[str]:
        """The texts of the marked runs, in order."""
        return [r.text for r in self if r.mark != "same"]

    def render(self, escape: Callable[[str], str], removed: tuple[str, str], added: tuple[str, str]) -> str:
        marks = {"same": ("", ""), "removed": removed, "added": added}
        return "".join(marks[r.mark][0] + escape(r.text) + marks[r.mark][1] for r in self)

    def markdown(self, escape: Callable[[str], str] = lambda s: s) -> str:
        """``~~struck~~`` and ``**bold**``, the rulebooks' own marks (``escape`` each piece)."""
        return self.render(escape, ("~~", "~~"), ("**", "**"))

    def html(self, escape: Callable[[str], str]) -> str:
        """``<del>`` and ``<ins>`` around the marked runs; ``escape`` makes the text HTML-safe."""
        return self.render(escape, ("<del>", "</del>"), ("<ins>", "</ins>"))

    def text(self) -> str:
        """For a terminal: ``[-removed-]`` and ``{+added+}``, as ``git diff --word-diff`` prints them."""
        return self.render(lambda s: s, ("[-", "-]"), ("{+", "+}"))


@dataclass(frozen=True, slots=True)
class WordDiff:
    """Two wordings, each as its runs."""

    old: Runs
    new: Runs

    @property
    def changed(self) -> bool:
        return self.old.changed or self.new.changed


@dataclass(slots=True)
class _Chunk:
    """A word of one side, as it is compared and marked."""

    word: str  # the word as printed, with its punctuation
    space: str  # the whitespace after it
    key: str  # what is compared: quotes straightened, end punctuation dropped
    tail: str  # the end punctuation dropped from the key
    mark: Mark = "same"


def _chunks(text: str) -> tuple[str, list[_Chunk]]:
    lead = text[: len(text) - len(text.lstrip())]
    out = []
    for m in _CHUNK.finditer(text, len(lead)):
        word = m.group(1)
        plain = normalize(word)
        tail = _END_PUNCT.search(plain)
        key = plain[: tail.start()] if tail and tail.start() > 0 else plain
        out.append(_Chunk(word, m.group(2), key, plain[len(key):]))
    return lead, out


def _run_end(chunks: list[_Chunk], i: int) -> _Chunk:
    """The last chunk of the marked run that starts at ``i``."""
    mark = chunks[i].mark
    while i + 1 < len(chunks) and chunks[i + 1].mark == mark:
        i += 1
    return chunks[i]


def _absorbed(bare: _Chunk, side: list[_Chunk], k: int, punctuated: _Chunk) -> bool:
    """Did the end punctuation of ``punctuated`` move to the end of the marked run that
    follows its counterpart ``bare`` (``side[k]``)? ("destroyed." → "destroyed **by … cost.**")"""
    if bare.tail or k + 1 >= len(side) or side[k + 1].mark == "same":
        return False
    return _run_end(side, k + 1).tail == punctuated.tail


def _align(old: list[_Chunk], new: list[_Chunk]) -> None:
    import difflib  # (only a reading diff needs it, not a judged card)

    matcher = difflib.SequenceMatcher(None, [c.key for c in old], [c.key for c in new], autojunk=False)
    pairs = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(i1, i2), range(j1, j2)))
            continue
        for i in range(i1, i2):
            old[i].mark = "removed"
        for j in range(j1, j2):
            new[j].mark = "added"
    for i, j in pairs:
        a, b = old[i], new[j]
        if a.tail == b.tail:
            continue
        if not (_absorbed(b, new, j, a) or _absorbed(a, old, i, b)):
            a.mark, b.mark = "removed", "added"


def _runs(lead: str, chunks: Iterable[_Chunk]) -> Runs:
    runs: list[Run] = [Run(lead, "same")] if lead else []

    def push(text: str, mark: Mark) -> None:
        if not text:
            return
        if runs and runs[-1].mark == mark:
            runs[-1] = Run(runs[-1].text + text, mark)
        else:
            runs.append(Run(text, mark))

    for mark, group in groupby(chunks, key=lambda c: c.mark):
        *inner, last = group
        text = "".join(c.word + c.space for c in inner) + last.word
        if mark != "same" and _whole_parenthetical(text):
            push("(", "same")
            push(text[1:-1], mark)
            push(")", "same")
        else:
            push(text, mark)
        push(last.space, "same")
    return Runs(runs)


def _whole_parenthetical(text: str) -> bool:
    if len(text) < 3 or text[0] != "(" or text[-1] != ")":
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def word_diff(old: str, new: str) -> WordDiff:
    """Mark the words of ``old`` that ``new`` removed and the words of ``new`` that it added."""
    lead_old, old_chunks = _chunks(old)
    lead_new, new_chunks = _chunks(new)
    _align(old_chunks, new_chunks)
    return WordDiff(_runs(lead_old, old_chunks), _runs(lead_new, new_chunks))
