"""A Card Building Guide page (the 11th edition on): its components, and the sentences of its rules.

A component is one item of a kind's list under "Card Texts": ``[+N] (formula) “text”`` (the Ultra
Points mark and the formula optional, ``t = …`` saying what it sets).  A list half read is a
:class:`DocumentError`: a draft must not be built on it.  The rest is prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from .html import DocumentError
from .outline import Block, Item, Outline, read_outline, sentences

__all__ = ["DocumentError", "GuideEntry", "Guide", "Sentence", "read_guide", "SECTIONS", "clean", "edition_of"]

#: the guides' component sections and the kinds they list (the importer passes its system's titles)
SECTIONS = {
    "Caveats": "caveat",
    "Activation Conditions": "condition",
    "Activation Costs": "cost",
    "Target Selections": "target",
    "Effects": "effect",
}
#: the heading the component sections sit under
CARD_TEXTS = "Card Texts"

_ULTRA = re.compile(r"^\[\+(?P<points>\d+)\]\s*")
_SETS = re.compile(r"^(?P<var>[a-z])\s*=\s*(?P<rhs>.+)$")
_TEXT = re.compile(r"^[“\"](?P<text>[^“”\"]+)[”\"]\s*(?P<rest>.*)$")
_LIMIT = re.compile(r"\{\s*\[?([xyz])\]?\s*≤\s*(\d+)\s*\}")
_EDITION = re.compile(r"\((\d+)(?:st|nd|rd|th) Edition\)")


def clean(text: str) -> str:
    """Straight quotes and apostrophes, single spaces: a text as the rules write it."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split())


def _balanced(s: str) -> int:
    """The index just after the parenthesised group that opens ``s``."""
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i + 1
    raise DocumentError(f"unbalanced parentheses in {s!r}")


@dataclass
class GuideEntry:
    """One component as the guide lists it."""

    section: str  # the section's title as printed: "Effects", "Ultra Effects"
    kind: str  # the kind the section lists
    formula: str | None  # the right-hand side in the guide's notation ("x/(y + 1)"); None where none is printed
    sets: str | None  # "t" for "(t = …)", "a" for "(a = …)"; None for a plain formula (or none)
    text: str  # the quoted text as printed, without the quotes
    ultra: int = 0  # N of an Ultra Points mark "[+N]"
    limits: dict[str, int] = field(default_factory=dict)
    raw: str = ""  # the item as read

    @property
    def clean_text(self) -> str:
        return clean(self.text)


@dataclass(frozen=True)
class Sentence:
    """A sentence of the guide's prose (or a list item that is not a component), where it stands."""

    path: tuple[str, ...]  # the headings above it
    text: str

    @property
    def section(self) -> str:
        return self.path[-1] if self.path else ""


def entry_of(item: Item, section: str, kind: str) -> GuideEntry | None:
    """The component an item states, or None when it does not have the component shape."""
    s = item.text.strip()
    ultra = 0
    m = _ULTRA.match(s)
    if m:
        ultra, s = int(m.group("points")), s[m.end():]
    formula = sets = None
    if s.startswith("("):
        end = _balanced(s)
        inner, s = s[1:end - 1].strip(), s[end:].strip()
        m = _SETS.match(inner)
        if m:
            sets, inner = m.group("var"), m.group("rhs").strip()
        formula = inner
    limits = {}
    while (m := _LIMIT.match(s)) is not None:  # {x ≤ 14} before the text, as the 8th–10th print it …
        limits[m.group(1)] = int(m.group(2))
        s = s[m.end():].strip()
    m = _TEXT.match(s)
    if not m:
        return None
    rest = m.group("rest")
    limits.update({v: int(n) for v, n in _LIMIT.findall(rest)})  # … or after it, as the 1st–7th
    if _LIMIT.sub("", rest).strip():
        return None
    return GuideEntry(section, kind, formula, sets, m.group("text"), ultra, limits, item.text)


@dataclass
class Guide:
    edition: int | None  # the edition its title names ("Card Building Guide (17th Edition)")
    outline: Outline
    entries: list[GuideEntry]
    sections: list[str]  # the component sections' titles, in order
    _component_items: set[int] = field(default_factory=set, repr=False)  # id() of the items that are components

    def section_paragraphs(self, title: str) -> list[str] | None:
        """The paragraphs of the section titled ``title`` (None: the guide has no such section)."""
        blocks = [b for b in self.outline.blocks if b.title == title and b.in_force]
        if not blocks:
            return None
        if len(blocks) > 1:
            raise DocumentError(f"the guide has {len(blocks)} sections titled {title!r}")
        return blocks[0].paragraphs()

    def prose(self) -> list[Sentence]:
        """Every sentence in force that no component accounts for: paragraphs, the items of other
        lists, table rows; the contents list is left out."""
        out = []
        for block in self.outline.blocks:
            if not block.in_force or block.title == "Contents" or not block.level:
                continue
            for part in block.parts:
                if not part.in_force:
                    continue
                if hasattr(part, "items"):
                    for item in part.items:
                        if id(item) not in self._component_items:
                            out += [Sentence(block.path, s) for i in (item, *item.descendants()) for s in sentences(i.text)]
                elif hasattr(part, "rows"):
                    out += [Sentence(block.path, " | ".join(row)) for row in part.rows]
                else:
                    out += [Sentence(block.path, s) for s in sentences(part.text)]
        return out


def edition_of(outline: Outline, document: str) -> int | None:
    """The edition a page's title names: "Card Building Guide (17th Edition)", "Rulebook (17th Edition)"."""
    for block in outline.blocks:
        if block.title.startswith(document):
            m = _EDITION.search(block.title)
            if m:
                return int(m.group(1))
    return None


def _component_section(block: Block, sections: Mapping[str, str]) -> tuple[str, str] | None:
    """(title, kind) when the block is a component section under "Card Texts" (or a sub-section of one)."""
    if CARD_TEXTS not in block.path[:-1]:
        return None
    title = block.title
    if title in sections:
        return title, sections[title]
    parent = block.path[-2]
    if parent in sections and title.endswith(" " + parent):
        return title, sections[parent]
    return None


def read_guide(html: str, sections: Mapping[str, str] = SECTIONS) -> Guide:
    """The guide's components in the guide's order, and its outline; ``sections`` maps a section
    title to the kind it lists."""
    outline = read_outline(html)
    entries: list[GuideEntry] = []
    titles: list[str] = []
    component_items: set[int] = set()
    for block in outline.blocks:
        found = _component_section(block, sections) if block.in_force else None
        if found is None:
            continue
        section, kind = found
        sub_section = section not in sections
        titles.append(section)
        component_lists = 0
        for part in block.lists():
            read = [entry_of(item, section, kind) for item in part.items]
            if all(e is None for e in read):
                for item in part.items:  # wording advice: no component may hide in it
                    if item.text.startswith("(") or _ULTRA.match(item.text):
                        raise DocumentError(f"{section}: cannot read the item {item.text!r}")
                continue
            if any(e is None for e in read):
                bad = [i.text for i, e in zip(part.items, read) if e is None]
                raise DocumentError(f"{section}: a list mixes components with other items: {bad!r}")
            component_lists += 1
            for item, entry in zip(part.items, read):
                if bool(entry.ultra) != sub_section:
                    raise DocumentError(f"{section}: {'an Ultra Points mark' if entry.ultra else 'no Ultra Points mark'} in {item.text!r}")
                component_items.add(id(item))
                entries.append(entry)
        if component_lists > 1:
            raise DocumentError(f"{section}: {component_lists} lists of components (one was expected)")
    if not entries:
        raise DocumentError(f"no component sections found under a heading {CARD_TEXTS!r} "
                            f"(looked for {', '.join(repr(t) for t in sections)})")
    return Guide(edition_of(outline, "Card Building Guide"), outline, entries, titles, component_items)
