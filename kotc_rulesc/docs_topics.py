"""The docs site's topic pages: ``docs/*.md`` (which read well on a forge too) rendered by markdown-it-py, each
heading with a forge's id (so that the contents and the search reach it), a link to ``NAME.md`` to ``NAME.html``.
"""

from __future__ import annotations

import re
from typing import Any

from .bundled import docs_dir

#: the order of the site's navigation; any other ``docs/*.md`` follows, by name
ORDER = ("players", "workbench", "collections", "maintainers", "api", "input-policy", "contributing", "benchmarks")

_LOCAL_MD = re.compile(r"^(?![a-z][a-z0-9+.-]*:)([^#?]*)\.md(#.*)?$", re.I)


class Topic:
    """One topic page: its name (``players``), its title (its first heading) and its HTML: ``head``
    (the title and the paragraph under it, above the page's contents) and ``body`` (the rest)."""

    def __init__(self, name: str, title: str, html: str):
        self.name = name
        self.title = title
        m = re.match(r"(?s)(<h1[^>]*>.*?</h1>\n(?:<p>.*?</p>\n)?)(.*)", html)
        self.head, self.body = (m.group(1), m.group(2)) if m else ("", html)


def slug(text: str, taken: set[str]) -> str:
    """A heading's id: its words lowercased and joined by hyphens (``Exit codes`` → ``exit-codes``),
    made unique on its page with ``-2``, ``-3``…"""
    base = re.sub(r"[^\w\s-]", "", text.lower()).strip()
    base = re.sub(r"[\s_]+", "-", base) or "section"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


def _markdown() -> Any:
    from markdown_it import MarkdownIt  # (build only: the docs command never renders)

    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")

    def heading_ids(state: Any) -> None:
        taken: set[str] = set()
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                token.attrSet("id", slug(tokens[i + 1].content, taken))
            elif token.type == "inline":
                for child in token.children or ():
                    if child.type == "link_open":
                        href = str(child.attrGet("href") or "")
                        m = _LOCAL_MD.match(href)
                        if m:
                            child.attrSet("href", f"{m.group(1)}.html{m.group(2) or ''}")

    md.core.ruler.push("kotc_heading_ids", heading_ids)
    return md


def topics() -> list[Topic]:
    """Every ``docs/*.md``, rendered, in the site's order (:data:`ORDER`, then by name)."""
    folder = docs_dir()
    if not folder.is_dir():
        return []
    md = _markdown()
    files = sorted(folder.glob("*.md"), key=lambda p: (ORDER.index(p.stem) if p.stem in ORDER else len(ORDER), p.stem))
    out = []
    for path in files:
        env: dict[str, Any] = {}
        tokens = md.parse(path.read_text(encoding="utf-8").replace("\r\n", "\n"), env)
        heads = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"]
        title = heads[0] if heads else path.stem.replace("-", " ").capitalize()
        out.append(Topic(path.stem, title, md.renderer.render(tokens, md.options, env)))
    return out
