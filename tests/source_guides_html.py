"""Read the 11th–17th Card Building Guides' components from their transcriptions, apart from the rules data.

The sources live in ``../shared/sources/NN/card-building-guide.txt`` beside the repository
(NN = 11..17), converted from the HTML next to them (see that folder's README for the notation):
``#`` headings, ``- `` list items (nested lists indented two spaces), ``<var>x</var>`` written
``[x]``, MathML linearised inside the source's own parentheses at the start of an item
(``(2x)``, ``(t = x/(y + 1))``, ``(a = 1/6)``, ``(a(x + t)/4)``, ``(ax^2/12)``), and HTML comments
rendered as ``[commented out in the source: …]`` (one line) or as a block from a line
``[commented out in the source:`` to a line ``]``.  What is inside a comment is NOT in force and
is skipped.  (No guide of 11–17 actually contains a comment; the reader still honours them.)

Structure of the guides, as read here:

* The component lists sit under ``### Card Texts``, one list per section heading: ``#### Caveats``
  (11th only), ``#### Activation Conditions``, ``#### Activation Costs``, ``#### Target
  Selections``, ``#### Effects``; the 17th adds ``##### Ultra Activation Conditions``,
  ``##### Ultra Activation Costs``, ``##### Ultra Target Selections``, ``##### Ultra Effects``,
  each a sub-heading of the plain section.
* A component item is ``- [+N] (formula) “text”``: the ultra marker ``[+N]`` (17th, ultra
  sections only; literal text in the HTML, not a ``<var>``), the formula and the quoted text, in
  that order; the marker and the formula are optional (the 12th–17th activation conditions print
  no formula at all, the 17th ultra activation conditions print only the marker).  Nothing
  follows the closing quote.
* Sub-items indented under a component are notes (11th: "Suggested tutorial text: …" under
  “Berzerker.”).
* Other lists in a component section are wording advice, not components: the Effects sections
  of 11–17 have a "substitutions are recommended" list whose items merely *begin* with a quote
  (“Each target” and “the targets” should be replaced with …).  They are recognised by structure
  (a list is a component list when every item has the component shape; a section must have
  exactly one such list and no list may mix the two shapes) — anything else raises.
* The Contents list (``- 2. Card Texts`` / ``  - a. Caveats``) and the "Constructing Abilities"
  enumerations are not under a component heading and are never read.

What this reads is what the tests compare the rules data with, entry by entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from source_guides import KIND_HEADINGS, SOURCES, _balanced  # noqa: F401 - the same sections, paths, formula groups

EDITIONS = range(11, 18)

#: the heading the component sections sit under
CARD_TEXTS = "Card Texts"

#: the heading of the level rule (the same in 11–17)
LEVEL_HEADINGS = ("Level",)

#: the heading of the Ultra Points rules (17th)
ULTRA_HEADING = "Ultra Points"

_HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$")
_ITEM = re.compile(r"^(?P<indent> *)- (?P<body>.*)$")
_COMMENT_ONE_LINE = re.compile(r"^\s*(?:- (?:[0-9A-Za-z]+\. )?)?\[commented out in the source: .*\]\s*$")
_COMMENT_OPEN = re.compile(r"^(?P<indent>\s*)(?:- (?:[0-9A-Za-z]+\. )?)?\[commented out in the source:\s*$")
_ULTRA = re.compile(r"^\[\+(?P<points>\d+)\]\s*")
_SETS = re.compile(r"^(?P<var>[ta])\s*=\s*(?P<rhs>.+)$")
_TEXT = re.compile(r"^“(?P<text>[^“”]+)”$")


def document(edition: int, name: str = "card-building-guide.txt") -> str:
    """The document below its transcription header (everything after the first line of only '=')."""
    path = SOURCES / f"{edition:02d}" / name
    if not path.exists():
        pytest.skip(f"source document {path} is not available")
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line and set(line) == {"="}:
            return "\n".join(lines[i + 1:]) + "\n"
    raise ValueError(f"{path}: no transcription header ending in a line of '='")


def clean(text: str) -> str:
    """Straight quotes and apostrophes, single spaces."""
    text = (text.replace("\u2019", "'").replace("\u2018", "'")
            .replace("\u201c", '"').replace("\u201d", '"'))
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class HtmlGuideEntry:
    section: str  # heading title as printed: "Effects", "Ultra Effects", …
    kind: str  # "caveat" | "condition" | "cost" | "target" | "effect"
    formula: str | None  # right-hand side, spaces removed: "x/(y+1)", "1/6", "a(x+t)/4"; None if none printed
    sets: str | None  # "t" / "a" for "(t = …)" / "(a = …)", None for a plain formula (or none)
    text: str  # the quoted text without the quotes, exactly as printed
    ultra: int = 0  # N of a "[+N]" marker (17th ultra sections), else 0
    notes: list[str] = field(default_factory=list)  # sub-items as printed ("Suggested tutorial text: …")
    raw: str = ""  # the source line(s) of the item, its notes included

    @property
    def clean_text(self) -> str:
        return clean(self.text)


# ---------------------------------------------------------------- outline of the document


def _lines_in_force(edition: int) -> list[str]:
    """The document's lines with every commented-out part removed (blank lines kept)."""
    out: list[str] = []
    close: str | None = None  # the line that ends the comment block being skipped
    for line in document(edition).splitlines():
        if close is not None:
            if line.rstrip() == close:
                close = None
            continue
        m = _COMMENT_OPEN.match(line)
        if m:
            close = m.group("indent") + "]"
            continue
        if _COMMENT_ONE_LINE.match(line):
            continue
        out.append(line)
    if close is not None:
        raise ValueError(f"{edition}th guide: unterminated comment block")
    return out


@dataclass
class _Item:
    body: str  # the item's own text (continuation lines joined with a space)
    lines: list[str]  # its source lines, notes included
    notes: list[str] = field(default_factory=list)


@dataclass
class _Block:
    """A heading-delimited part of the document: its heading path, paragraphs and lists."""

    path: tuple[str, ...]  # heading titles from the top ("Keeper of the Cards", …, "Effects")
    level: int
    paragraphs: list[str] = field(default_factory=list)
    lists: list[list[_Item]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.path[-1] if self.path else ""


def _outline(edition: int) -> list[_Block]:
    """Split the document (in force) into heading blocks of paragraphs and top-level lists."""
    blocks = [_Block((), 0)]
    stack: list[tuple[int, str]] = []
    in_list = False  # the previous non-blank line belongs to a list (items continue it)
    for line in _lines_in_force(edition):
        block = blocks[-1]
        if not line.strip():  # a list never holds a blank line: it ends the list
            in_list = False
            continue
        m = _HEADING.match(line)
        if m:
            level, title = len(m.group(1)), m.group(2)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            blocks.append(_Block(tuple(t for _, t in stack), level))
            in_list = False
            continue
        m = _ITEM.match(line)
        if m:
            depth = len(m.group("indent"))
            if depth == 0:
                if not in_list:
                    block.lists.append([])
                block.lists[-1].append(_Item(m.group("body"), [line]))
                in_list = True
            elif depth == 2 and in_list:  # a sub-item: a note of the item above
                item = block.lists[-1][-1]
                item.notes.append(m.group("body"))
                item.lines.append(line)
            elif depth > 2 and in_list:  # deeper: part of the last note
                item = block.lists[-1][-1]
                if not item.notes:
                    raise ValueError(f"{edition}th guide: sub-item without a parent note: {line!r}")
                item.notes[-1] += " " + m.group("body")
                item.lines.append(line)
            else:
                raise ValueError(f"{edition}th guide: indented item outside a list: {line!r}")
            continue
        if in_list and line.startswith("  "):  # continuation of an item (or of its last note)
            item = block.lists[-1][-1]
            if item.notes:
                item.notes[-1] += " " + line.strip()
            else:
                item.body += " " + line.strip()
            item.lines.append(line)
            continue
        block.paragraphs.append(line)
        in_list = False
    return blocks


# ---------------------------------------------------------------- components


def _component(item: _Item, section: str, kind: str) -> HtmlGuideEntry | None:
    """The component an item states, or None if it does not have the component shape."""
    s = item.body.strip()
    ultra = 0
    m = _ULTRA.match(s)
    if m:
        ultra, s = int(m.group("points")), s[m.end():]
    formula = sets = None
    if s.startswith("("):
        end = _balanced(s, 0)
        inner, s = s[1:end - 1].strip(), s[end:].strip()
        m = _SETS.match(inner)
        if m:
            sets, inner = m.group("var"), m.group("rhs")
        formula = inner.replace(" ", "")
    m = _TEXT.match(s)
    if not m:
        return None
    return HtmlGuideEntry(section, kind, formula, sets, m.group("text"), ultra, list(item.notes),
                          "\n".join(item.lines))


def _component_section(block: _Block) -> tuple[str, str] | None:
    """(section title, kind) if the block is a component section under "Card Texts"."""
    if CARD_TEXTS not in block.path[:-1]:
        return None
    title = block.title
    base = title.removeprefix("Ultra ")
    if base not in KIND_HEADINGS:
        return None
    if title != base and (len(block.path) < 2 or block.path[-2] != base):
        raise ValueError(f"ultra section {title!r} is not a sub-section of {base!r}: {block.path}")
    return title, KIND_HEADINGS[base]


def guide_entries(edition: int) -> list[HtmlGuideEntry]:
    """Every component (in force) the edition's guide lists, in the guide's order."""
    if edition not in EDITIONS:
        raise ValueError(f"the HTML guides are the 11th–17th, not {edition}")
    out: list[HtmlGuideEntry] = []
    for block in _outline(edition):
        found = _component_section(block)
        if found is None:
            continue
        section, kind = found
        component_lists = 0
        for items in block.lists:
            entries = [_component(item, section, kind) for item in items]
            if all(e is None for e in entries):
                for item in items:  # wording advice; make sure no component hides in it
                    if item.body.startswith("(") or _ULTRA.match(item.body):
                        raise ValueError(f"{edition}th guide, {section}: unreadable item {item.body!r}")
                continue
            if any(e is None for e in entries):
                bad = [i.body for i, e in zip(items, entries) if e is None]
                raise ValueError(f"{edition}th guide, {section}: list mixes components with {bad!r}")
            component_lists += 1
            for e in entries:
                ultra_section = section.startswith("Ultra ")
                if bool(e.ultra) != ultra_section:
                    raise ValueError(f"{edition}th guide, {section}: ultra marker mismatch in {e.raw!r}")
                if e.sets is not None and (e.sets, kind) not in (("t", "target"), ("a", "condition")):
                    raise ValueError(f"{edition}th guide, {section}: {e.sets} = … in {e.raw!r}")
                out.append(e)
        if component_lists != 1:
            raise ValueError(f"{edition}th guide, {section}: {component_lists} component lists")
    return out


def component_sections(edition: int) -> list[str]:
    """The component section titles of the guide, in order ("Caveats", …, "Ultra Effects")."""
    return [found[0] for found in map(_component_section, _outline(edition)) if found]


# ---------------------------------------------------------------- rules in prose


def _section_paragraphs(edition: int, titles: tuple[str, ...]) -> list[str] | None:
    blocks = _outline(edition)
    hits = [b for b in blocks if b.title in titles]
    if not hits:
        return None
    if len(hits) > 1:
        raise ValueError(f"{edition}th guide: {len(hits)} sections titled {titles}")
    block = hits[0]
    if block.lists:
        raise ValueError(f"{edition}th guide: unexpected list in section {block.title!r}")
    return list(block.paragraphs)


def level_rule_paragraphs(edition: int) -> list[str]:
    """The paragraphs of the guide's "Level" section, as printed (how a card's level is computed)."""
    paragraphs = _section_paragraphs(edition, LEVEL_HEADINGS)
    if not paragraphs:
        raise ValueError(f"{edition}th guide: no level section ({LEVEL_HEADINGS})")
    return paragraphs


def ultra_rules(edition: int) -> list[str]:
    """The paragraphs of the "Ultra Points" section (17th: deck maximum etc.); [] before."""
    paragraphs = _section_paragraphs(edition, (ULTRA_HEADING,))
    if paragraphs is None:
        if "Ultra" in "\n".join(_lines_in_force(edition)):
            raise ValueError(f"{edition}th guide mentions Ultra Points without an {ULTRA_HEADING!r} section")
        return []
    return paragraphs


if __name__ == "__main__":  # python tests/source_guides_html.py: print every guide's list
    from collections import Counter

    for n in EDITIONS:
        entries = guide_entries(n)
        counts = Counter(e.section for e in entries)
        with_formula = sum(e.formula is not None for e in entries)
        print(f"== {n}: {len(entries)} entries ({with_formula} with a formula): "
              + ", ".join(f"{s} {counts[s]}" for s in component_sections(n)))
        for e in entries:
            formula = "" if e.formula is None else f"({e.sets + '=' if e.sets else ''}{e.formula})"
            print(f"  {e.kind:9} {f'[+{e.ultra}]' if e.ultra else '':4} {formula:14} {e.text!r}"
                  + "".join(f"\n{'':16}note: {note!r}" for note in e.notes))
        for p in level_rule_paragraphs(n):
            print("  level:", p)
        for p in ultra_rules(n):
            print("  ultra:", p)
