"""An HTML page of the game (the 11th edition on) as a tree, its text as a reader sees it, and its
MathML formulas in the guide's own notation (as ``../shared/sources/README.md`` describes it).

The tree closes what a browser closes implicitly where the pages leave it open (a ``<li>`` without
``</li>``), and holds each HTML comment as a ``#comment`` subtree: the pages keep drafts there.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["Node", "parse_html", "raw_text", "inline_text", "math_notation", "elements", "DocumentError", "MAX_DEPTH"]

#: elements nested at most this deep (the pages nest a dozen): deeper is refused, as deep YAML is
MAX_DEPTH = 200


class DocumentError(ValueError):
    """A page the reader cannot read as the guides and rulebooks are written."""

#: elements that never hold content
_VOID = frozenset({"meta", "link", "br", "img", "hr", "input", "col", "base", "area", "source", "wbr"})
#: an open <p> ends where one of these starts (HTML5: "a p element's end tag may be omitted if …")
_CLOSES_P = frozenset({"p", "ul", "ol", "div", "table", "nav", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"})
#: what an implied end tag stops at: a new <li> closes an open <li> of the same list, and so on
_IMPLIED = {"li": ("ul", "ol"), "tr": ("table", "tbody", "thead", "tfoot"), "td": ("tr", "table"), "th": ("tr", "table")}
_SUPERSCRIPTS = {"2": "²", "3": "³"}
_INVISIBLE_TIMES = "\u2062"


class Node:
    """An element (or ``#root``, ``#comment``) and its children: nodes and strings, in order."""

    __slots__ = ("tag", "attrs", "children", "parent", "depth")

    def __init__(self, tag: str, attrs: dict[str, str | None] | None = None, parent: "Node | None" = None):
        self.tag = tag
        self.attrs = attrs or {}
        self.children: list[Node | str] = []
        self.parent = parent
        self.depth = parent.depth + 1 if parent is not None else 0


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#root")

    def _close_implied(self, tag: str) -> None:
        stops = _IMPLIED.get(tag)
        if stops:
            closes = ("td", "th") if tag in ("td", "th") else (tag,)
            node: Node | None = self.current
            while node is not None and node.tag not in stops and node.tag != "#root":
                if node.tag in closes:
                    self.current = node.parent or self.root
                    return
                node = node.parent
        if tag in _CLOSES_P and self.current.tag == "p":
            self.current = self.current.parent or self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._close_implied(tag)
        node = Node(tag, dict(attrs), self.current)
        if node.depth > MAX_DEPTH:
            raise DocumentError(f"elements nested more than {MAX_DEPTH} deep (line {self.getpos()[0]})")
        self.current.children.append(node)
        if tag not in _VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None:  # (a stray end tag is ignored, as a browser does)
            self.current = node.parent or self.root

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)

    def handle_comment(self, data: str) -> None:
        node = Node("#comment", None, self.current)
        node.children = parse_html(data).children
        for child in elements(node):
            child.parent = node
        self.current.children.append(node)


def parse_html(text: str) -> Node:
    """The page as a tree (``#root``); entities are decoded."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def elements(node: Node) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node)]


def raw_text(node: Node | str) -> str:
    return node if isinstance(node, str) else "".join(raw_text(c) for c in node.children)


# -- MathML ------------------------------------------------------------------------------------


def _has_operator(s: str) -> bool:
    """Does ``s`` have an operator outside parentheses (so that a fraction bar must bracket it)?"""
    depth = 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "+-=\u2212 /":
            return True
    return False


def _simple(s: str) -> bool:
    return bool(re.fullmatch(r"[0-9.]+|[A-Za-z]", s))


def _math(node: Node | str) -> str:
    if isinstance(node, str):
        return ""  # the layout's whitespace between elements
    tag = node.tag
    if tag in ("mi", "mn", "mtext"):
        return raw_text(node).strip()
    if tag == "mo":
        op = raw_text(node).strip()
        if op in (_INVISIBLE_TIMES, ""):
            return _INVISIBLE_TIMES
        if op in ("+", "-", "=", "\u2212", "\u00d7", "\u2264", "\u2265", "<", ">"):
            return f" {'-' if op == chr(0x2212) else op} "
        return op
    if tag == "mfrac":
        top, bottom = (_math(c).strip() for c in elements(node))
        top = f"({top})" if _has_operator(top) else top
        bottom = bottom if _simple(bottom) else f"({bottom})"
        return f"\x01{top}/{bottom}\x02"  # a fraction's bounds, for the row it stands in
    if tag == "msup":
        base, power = (_math(c).strip() for c in elements(node))
        base = base if _simple(base) else f"({base})"
        return base + (_SUPERSCRIPTS.get(power) or f"^{power if _simple(power) else f'({power})'}")
    parts = [_math(c) for c in elements(node)]  # math, mrow: a row
    out = []
    for i, part in enumerate(parts):
        if part.startswith("\x01") and part.endswith("\x02"):
            times = (i > 0 and parts[i - 1] == _INVISIBLE_TIMES) or (i + 1 < len(parts) and parts[i + 1] == _INVISIBLE_TIMES)
            part = f"({part[1:-1]})" if times else part[1:-1]  # 2·(x/3), never 2x/3 read otherwise
        out.append(part)
    return "".join(p for p in out if p != _INVISIBLE_TIMES)


def math_notation(node: Node) -> str:
    """A ``<math>`` element in the guide's notation, with the page's own parentheses:
    ``(t = x/(y + 1))``, ``(a(x + t)/12)``, ``(ax²)``."""
    s = _math(node).replace("\x01", "").replace("\x02", "")
    return re.sub(r"\s+", " ", s).strip().replace("( ", "(").replace(" )", ")")


# -- text --------------------------------------------------------------------------------------

#: elements whose text is not the page's (the head's title and scripts)
SKIP = frozenset({"head", "script", "style", "title"})


def inline_text(node: Node | str, skip: frozenset[str] = frozenset()) -> str:
    """What a reader reads in ``node``: a ``<var>x</var>`` as ``[x]``, a formula in the guide's
    notation, whitespace collapsed; comments and elements whose tag is in ``skip`` left out."""
    parts: list[str] = []

    def walk(n: Node | str) -> None:
        if isinstance(n, str):
            parts.append(n)
        elif n.tag in SKIP or n.tag in skip or n.tag == "#comment":
            return
        elif n.tag == "var":
            parts.append(f"[{' '.join(raw_text(n).split())}]")
        elif n.tag == "math":
            parts.append(f" {math_notation(n)} ")
        elif n.tag == "br":
            parts.append(" ")
        elif n.tag != "img":
            for c in n.children:
                walk(c)

    walk(node)
    return " ".join("".join(parts).split())
