"""The Markdown a reader sees: the README (the front page) and the docs site's topic pages (docs/*.md),
where the reference moved from the README (issue 26). Tests that hold a page to what the commands do
read it from here."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def page(name: str) -> str:
    """``docs/NAME.md`` (``README`` for the front page)."""
    return (ROOT / "README.md" if name == "README" else DOCS / f"{name}.md").read_text(encoding="utf-8")


def every_page() -> list[tuple[str, str]]:
    """``(name, text)`` of the README and of every topic page."""
    return [("README", page("README"))] + [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(DOCS.glob("*.md"))]
