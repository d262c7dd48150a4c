"""The sections of the docs site's rendered pages: each page's table of contents, and the
full-text search index of them all.

Both are read from the HTML the templates and the Markdown renderer wrote — every ``<h2>``,
``<h3>`` and ``<h4>`` carries an ``id`` — so that the contents reach every section a page has, whatever page
it is (an edition of any card-building system, a changelog, a topic page), and the search finds
every word a reader can see.  The index is a script (``search-index.js``) rather than a JSON
file: a page opened from ``file://`` may load a script beside it but may not fetch a file.
Everything is deterministic: pages in the order given, sections in page order.
"""

from __future__ import annotations

import json
import re
from html import escape
from html.parser import HTMLParser
from typing import Iterable

__all__ = ["TOC_PLACEHOLDER", "add_toc", "headings", "search_index"]

#: where a page's table of contents goes (base.html.j2 writes it; :func:`add_toc` fills it)
TOC_PLACEHOLDER = '<nav class="toc" id="toc" aria-label="On this page"></nav>'

_HEADING = re.compile(r'<h([2-4]) id="([^"]+)"[^>]*>(.*?)</h\1>', re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def _text(html: str) -> str:
    from html import unescape

    return _SPACE.sub(" ", unescape(_TAG.sub("", html))).strip()


def headings(html: str) -> list[tuple[int, str, str]]:
    """``(level, id, title)`` of every ``<h2>``, ``<h3>`` and ``<h4>`` with an id, in page order."""
    return [(int(level), ident, _text(inner)) for level, ident, inner in _HEADING.findall(html)]


def add_toc(html: str, minimum: int = 3) -> str:
    """The page with its table of contents filled in: every h2, the h3s under each and the h4s
    under those, nested.  A page of fewer than ``minimum`` sections gets none (the placeholder is
    removed)."""
    if TOC_PLACEHOLDER not in html:
        return html
    found = headings(html)
    if len(found) < minimum:
        return html.replace(TOC_PLACEHOLDER + "\n", "").replace(TOC_PLACEHOLDER, "")
    lines = ['<nav class="toc" id="toc" aria-label="On this page">', "<details open>", "<summary>On this page</summary>", "<ol>"]
    depth = [found[0][0]]  # the heading level of each open list
    for level, ident, title in found:
        level = max(level, depth[0])
        if level > depth[-1]:  # a deeper heading: a list inside the last item
            lines[-1] = lines[-1].removesuffix("</li>")
            lines.append("<ol>")
            depth.append(level)
        while level < depth[-1]:
            lines.append("</ol></li>")
            depth.pop()
        lines.append(f'<li><a href="#{escape(ident)}">{escape(title)}</a></li>')
    lines += ["</ol></li>"] * (len(depth) - 1)
    lines += ["</ol>", "</details>", "</nav>", '<a class="to-toc" href="#toc" aria-label="Back to the contents">↑ Contents</a>']
    return html.replace(TOC_PLACEHOLDER, "\n".join(lines))


class _Sections(HTMLParser):
    """The text of ``<main>``, cut at every heading with an id (navigation and scripts left out)."""

    SKIP = {"nav", "script", "style", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_main = 0
        self.skip = 0
        self.heading: list[str] | None = None
        self.sections: list[list] = [["", "", []]]  # [id, title, words]

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "main":
            self.in_main += 1
        elif tag in self.SKIP:
            self.skip += 1
        elif tag in ("h1", "h2", "h3", "h4") and self.in_main and not self.skip:
            ident = dict(attrs).get("id")
            if ident or tag == "h1":
                self.sections.append([ident or "", "", []])
                self.heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main -= 1
        elif tag in self.SKIP:
            self.skip -= 1
        elif tag in ("h1", "h2", "h3", "h4") and self.heading is not None:
            self.sections[-1][1] = _SPACE.sub(" ", "".join(self.heading)).strip()
            self.heading = None

    def handle_data(self, data: str) -> None:
        if not self.in_main or self.skip:
            return
        if self.heading is not None:
            self.heading.append(data)
        else:
            self.sections[-1][2].append(data)


def search_index(pages: Iterable[tuple[str, str, str]]) -> str:
    """``search-index.js``: for ``(file, title, html)`` of each page, its sections as
    ``[page, anchor, heading, text]``, assigned to ``window.KOTC_SEARCH_INDEX``."""
    listed: list[list[str]] = []
    sections: list[list] = []
    for number, (file, title, html) in enumerate(pages):
        listed.append([file, title])
        parser = _Sections()
        parser.feed(html)
        parser.close()
        for ident, heading, words in parser.sections:
            text = _SPACE.sub(" ", "".join(words)).strip()
            if text or heading:
                sections.append([number, ident, heading or title, text])
    data = json.dumps({"pages": listed, "sections": sections}, ensure_ascii=False, separators=(",", ":"))
    # (a "</script>" or U+2028 inside the data could end or break the script: escaped)
    data = data.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return ("// Generated by kotc-rulesc (docs_sections.py): the docs site's search index. Do not edit.\n"
            f"window.KOTC_SEARCH_INDEX = {data};\n")
