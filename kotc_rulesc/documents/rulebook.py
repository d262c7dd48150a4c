"""A Rulebook's lists of changed cards (refurbished texts, redacted texts, revised limits, costs and
levels) under the titles the editions gave them, and the clean slate edition it declares.  A section
inside an HTML comment is a draft: kept apart, never read as rules.  A revised text keeps the PDF
rulebooks' ``~~struck~~`` and ``**bold**`` marks in ``old_marked`` and ``new_marked``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from .guide import DocumentError, clean, edition_of
from .outline import Block, Outline, read_outline, sentences

__all__ = ["SECTION_KEYS", "Row", "RulebookLists", "RulebookPage", "read_rulebook", "list_item", "CLEAN_SLATE"]

#: a section title as printed → the list it holds
SECTION_KEYS = {
    "Revised Ability Text": "revised",  # 2nd–12th
    "Redacted Ability Text (Banned Cards)": "redacted",  # 2nd–10th
    "Redacted Ability Text": "redacted",  # 11th–12th (commented out)
    "Revised Variable Limits": "limits",  # 6th–10th
    "Revised Costs": "costs",  # 9th–12th
    "Refurbished Card Texts": "revised",  # 13th on
    "Redacted Card Texts": "redacted",
    "Revised Cost Texts": "costs",
    "Revised Levels": "levels",  # 16th on
}

_EDITION_NOTE = re.compile(r"^(?P<text>.+?)\s*\*?\((?P<edition>\d+)(?:st|nd|rd|th) Edition\)\*?$")
_LIMIT = re.compile(r"^(?P<text>.+?)\s*\{(?P<limit>[^{}]+)\}$")
#: "13th Edition is considered to be a clean slate edition, meaning …"
CLEAN_SLATE = re.compile(r"(\d+)(?:st|nd|rd|th) Edition is considered to be a clean slate edition")


def unmark(text: str) -> str:
    """Without the ~~struck~~ and **bold** marks (the words kept)."""
    return text.replace("~~", "").replace("**", "")


def _unquote(text: str) -> str:
    text = text.strip()
    return text[1:-1] if len(text) >= 2 and text[0] == '"' and text[-1] == '"' else text


class Row(NamedTuple):
    """A revised text: the original and the new, as the list prints them (marked: with ~~ and **)."""

    old: str
    new: str
    old_marked: str
    new_marked: str


@dataclass
class RulebookLists:
    """The lists in force, and the drafts (sections inside comments: not in force)."""

    revised: list[Row] = field(default_factory=list)
    redacted: list[tuple[str, int | None]] = field(default_factory=list)  # (text, the edition it names)
    limits: list[tuple[str, str]] = field(default_factory=list)  # (text, "x≤14")
    costs: list[tuple[str, int]] = field(default_factory=list)  # (text, revision edition)
    levels: list[tuple[str, int]] = field(default_factory=list)  # (text, revision edition): "Revised Levels"
    sections: dict[str, str] = field(default_factory=dict)  # list key → its title, for the sections in force
    drafts: dict[str, list[str]] = field(default_factory=dict)  # title → its items as printed, for the commented-out ones
    draft_sections: dict[str, str] = field(default_factory=dict)  # list key → title, for the commented-out ones


def list_item(key: str, item: str | tuple[str, ...], out: RulebookLists) -> None:
    """Add one printed item (a list item's text, or a table row's cells) to the list ``key``."""
    if isinstance(item, tuple):
        if key != "revised" or len(item) != 2:
            raise DocumentError(f"a table row in a {key} list: {item!r}")
        parts = [clean(cell) for cell in item]
    else:
        item = clean(item)
        if item == "N/A":
            return
        parts = item.split("→")
    if key == "revised":
        if len(parts) != 2:
            raise DocumentError(f"a revised text without one arrow: {item!r}")
        old, new = (_unquote(p) for p in parts)
        out.revised.append(Row(unmark(old), unmark(new), old, new))
    elif key == "limits":
        m = _LIMIT.match(item)
        if not m:
            raise DocumentError(f"cannot read the variable limit {item!r}")
        out.limits.append((_unquote(m.group("text")), m.group("limit").replace(" ", "")))
    elif m := _EDITION_NOTE.match(item):
        getattr(out, key).append((_unquote(m.group("text")), int(m.group("edition"))))
    elif key == "redacted":
        out.redacted.append((_unquote(item), None))
    else:
        raise DocumentError(f"cannot read the {key} entry {item!r} (a text and its edition, as “text” (16th Edition))")


def _items(block: Block, in_force: bool) -> list[str | tuple[str, ...]]:
    out: list[str | tuple[str, ...]] = []
    for part in block.lists(True) + block.lists(False):
        out += [i.text for i in part.items if i.in_force == in_force]
    for table in block.tables(in_force):
        out += [row for row in table.rows if any(row)]
    return out


@dataclass
class RulebookPage:
    edition: int | None  # the edition its title names: "Rulebook (17th Edition)"
    outline: Outline
    lists: RulebookLists
    lists_title: str | None  # the heading the lists stand under ("Refurbished and Pruned Cards")

    def in_force_text(self) -> str:
        return " ".join(p for b in self.outline.blocks if b.in_force for p in b.paragraphs())

    def clean_slate_edition(self) -> int | None:
        """The edition the rulebook declares a clean slate edition (in force), if any."""
        m = CLEAN_SLATE.search(self.in_force_text())
        return int(m.group(1)) if m else None

    def sentence(self, pattern: str) -> str | None:
        """The first sentence in force that contains ``pattern`` (a regular expression)."""
        rx = re.compile(pattern)
        for block in self.outline.blocks:
            if not block.in_force:
                continue
            texts = [*block.paragraphs(), *(i.text for part in block.lists() for it in part.items for i in (it, *it.descendants()))]
            for text in texts:
                for s in sentences(text):
                    if rx.search(s):
                        return s
        return None


def read_rulebook(html: str) -> RulebookPage:
    """A rulebook page's lists (in force and drafts) and outline."""
    outline = read_outline(html)
    lists = RulebookLists()
    lists_title = None
    for block in outline.blocks:
        key = SECTION_KEYS.get(block.title)
        if key is None:
            continue
        if len(block.path) > 1:
            lists_title = lists_title or block.path[-2]
        if block.in_force:
            lists.sections[key] = block.title
            for item in _items(block, True):
                list_item(key, item, lists)
        else:
            lists.draft_sections[key] = block.title
        drafts = _items(block, False)  # (a commented-out entry of a list in force, too)
        if drafts or not block.in_force:
            lists.drafts.setdefault(block.title, []).extend(" | ".join(d) if isinstance(d, tuple) else d for d in drafts)
    return RulebookPage(edition_of(outline, "Rulebook"), outline, lists, lists_title)
