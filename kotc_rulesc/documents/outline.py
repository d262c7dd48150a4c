"""A page of the game read as its outline: heading blocks, each with its paragraphs, lists and tables
in the order printed, every part in force or not (inside an HTML comment: a draft).

The guide's and the rulebook's readers read this outline rather than the tree.  A comment that holds
a heading opens a block not in force; what follows the comment belongs to the block before it again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .html import SKIP, Node, elements, inline_text, parse_html

__all__ = ["Item", "Paragraph", "ListPart", "Table", "Block", "Outline", "read_outline", "sentences",
           "table_rows"]

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_INLINE = frozenset({"a", "abbr", "var", "math", "em", "strong", "b", "i", "dfn", "cite", "sup", "sub", "span",
                     "code", "img", "br", "q", "small", "u", "s"})


@dataclass
class Item:
    """One list item: its own text, and the items of the lists nested in it."""

    text: str
    children: list["Item"] = field(default_factory=list)
    in_force: bool = True

    def descendants(self) -> list["Item"]:
        return [d for c in self.children for d in (c, *c.descendants())]


@dataclass
class Paragraph:
    text: str
    in_force: bool = True


@dataclass
class ListPart:
    items: list[Item]
    in_force: bool = True


@dataclass
class Table:
    header: tuple[str, ...] | None
    rows: list[tuple[str, ...]]
    in_force: bool = True


@dataclass
class Block:
    """The part of a page under one heading (up to the next heading of any level)."""

    path: tuple[str, ...]  # the heading titles from the top down to this block's own
    level: int  # 1 for <h1> … (0: before the first heading)
    in_force: bool = True  # False: the heading itself is inside a comment
    parts: list[Paragraph | ListPart | Table] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.path[-1] if self.path else ""

    def paragraphs(self, in_force: bool = True) -> list[str]:
        return [p.text for p in self.parts if isinstance(p, Paragraph) and p.in_force == in_force]

    def lists(self, in_force: bool = True) -> list[ListPart]:
        return [p for p in self.parts if isinstance(p, ListPart) and p.in_force == in_force]

    def tables(self, in_force: bool = True) -> list[Table]:
        return [p for p in self.parts if isinstance(p, Table) and p.in_force == in_force]


@dataclass
class Outline:
    blocks: list[Block]


def _items(node: Node, in_force: bool) -> list[Item]:
    items: list[Item] = []
    for child in elements(node):
        if child.tag == "li":
            item = Item(inline_text(child, skip=frozenset({"ul", "ol"})), [], in_force)
            for sub in _nested_lists(child):
                item.children.extend(_items(sub, in_force))
            items.append(item)
        elif child.tag in ("ul", "ol") and items:  # a list set directly in a list: the previous item's
            items[-1].children.extend(_items(child, in_force))
        elif child.tag == "#comment":
            items.extend(_items(child, False))
    return items


def _nested_lists(node: Node) -> list[Node]:
    out = []
    for child in elements(node):
        if child.tag in ("ul", "ol"):
            out.append(child)
        elif child.tag not in _INLINE:
            out.extend(_nested_lists(child))
    return out


def table_rows(table: Node) -> list[list[Node]]:
    """The rows of a table, each its cells; cells set outside any row (the 16th and 17th rulebooks'
    "<tr></tr>" and two stray "<td>"s) make a row, as a browser reads them."""
    rows: list[list[Node]] = []
    stray: list[Node] | None = None
    for child in elements(table):
        if child.tag in ("td", "th"):
            if stray is None:
                stray = []
                rows.append(stray)
            stray.append(child)
            continue
        stray = None
        if child.tag == "tr":
            rows.append([c for c in elements(child) if c.tag in ("td", "th")])
        elif child.tag in ("thead", "tbody", "tfoot"):
            rows.extend(table_rows(child))
    return [r for r in rows if r]


def _table(node: Node, in_force: bool) -> Table:
    rows = table_rows(node)
    header = None
    if rows and all(c.tag == "th" for c in rows[0]):
        header = tuple(inline_text(c) for c in rows.pop(0))
    return Table(header, [tuple(inline_text(c) for c in r) for r in rows], in_force)


class _Reader:
    def __init__(self) -> None:
        self.blocks = [Block((), 0)]
        self.stack: list[tuple[int, str]] = []
        self.pending: list[str] = []

    def add(self, part: Paragraph | ListPart | Table) -> None:
        self.blocks[-1].parts.append(part)

    def flush(self, in_force: bool) -> None:
        text = " ".join("".join(self.pending).split())
        self.pending = []
        if text:
            self.add(Paragraph(text, in_force))

    def walk(self, node: Node, in_force: bool) -> None:
        for child in node.children:
            if isinstance(child, str):
                self.pending.append(child)
                continue
            tag = child.tag
            if tag in SKIP:
                continue
            if tag in _INLINE:
                self.pending.append(f" {inline_text(child)} " if tag in ("math", "br") else inline_text(child))
                continue
            self.flush(in_force)
            if tag == "#comment":
                before, count = self.blocks[-1], len(self.blocks)
                self.walk(child, False)
                self.flush(False)
                if len(self.blocks) > count:  # the comment held a heading: what follows is the earlier block's
                    self.blocks.append(Block(before.path, before.level, before.in_force))
            elif tag in _HEADINGS:
                level, title = _HEADINGS[tag], inline_text(child)
                while self.stack and self.stack[-1][0] >= level:
                    self.stack.pop()
                self.stack.append((level, title))
                self.blocks.append(Block(tuple(t for _, t in self.stack), level, in_force))
            elif tag == "p":
                text = inline_text(child)
                if text:
                    self.add(Paragraph(text, in_force))
            elif tag in ("ul", "ol"):
                self.add(ListPart(_items(child, in_force), in_force))
            elif tag == "table":
                self.add(_table(child, in_force))
            else:  # a container: div, main, nav, section, body …
                self.walk(child, in_force)
                self.flush(in_force)


def read_outline(html: str) -> Outline:
    reader = _Reader()
    reader.walk(parse_html(html), True)
    reader.flush(True)
    return Outline([b for b in reader.blocks if b.parts or b.level])


#: a sentence ends at ". " (or ! ? and a closing quote or bracket after them) before a capital,
#: a quote or a bracket; "i.e." and "e.g." do not end one
_SENTENCE_END = re.compile(r"(?<!\bi\.e)(?<!\be\.g)(?<=[.!?])([”\")]*)\s+(?=[A-Z“\"(])")


def sentences(text: str) -> list[str]:
    """A paragraph's sentences, as printed (a quoted example stays in its sentence)."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append(text[start:m.end(1)].strip())
        start = m.end()
    out.append(text[start:].strip())
    return [s for s in out if s]
