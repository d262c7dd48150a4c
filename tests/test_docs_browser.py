"""The docs site in a real browser: headless Chromium (driven by Playwright, tests/support/browser.py) opens
every page — the index, the topic pages, how to build a card, every edition, every changelog, and
rule diffs — at 390 (a phone), 768 (a tablet), 1280 and 1920 px, and no page is wider than the
window (``scrollWidth <= innerWidth``).  The index puts the current edition first, above the fold
on a phone; the search finds a component's edition pages as its words are typed, and a link of a
page's contents scrolls to its section, at every width.

``tools/test.sh`` installs Chromium (Debian's ``chromium``) where the machine lacks it and can
install it; only where it cannot is this skipped, with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.loaded import view_of

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "generated" / "docs"
WIDTHS = (390, 768, 1280, 1920)
#: rule diffs rendered as `kotc-rulesc diff A B --format html` renders them
DIFFS = (("6", "11-pre"), ("10", "11"), ("16", "17"))

MEASURE = r"""
(() => {
  const width = window.innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  const wide = [];
  // (the elements past the edge are looked for only on a page wider than the window: they name it)
  for (const el of scrollWidth > width ? document.body.querySelectorAll('*') : []) {
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 && box.width > 0 && wide.length < 4) {
      const name = el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '');
      wide.push(`${name} (right edge ${Math.round(box.right)}): ${(el.textContent || '').trim().slice(0, 50)}`);
    }
  }
  return {scrollWidth, innerWidth: width, wide};
})()
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> list[Path]:
    """Every generated HTML page, and the diffs (written where the docs' style would be)."""
    from kotc_rulesc.diff import diff_editions
    from kotc_rulesc.model import parse_edition_key
    from kotc_rulesc.render import render_diff
    from kotc_rulesc.view import FoldedRules

    out = tmp_path_factory.mktemp("diffs")
    view = view_of()
    diffs = []
    for a, b in DIFFS:
        path = out / f"diff-{a}-{b}.html"
        path.write_text(render_diff(diff_editions(view, parse_edition_key(a), parse_edition_key(b)), "html"), encoding="utf-8")
        diffs.append(path)
    found = sorted(DOCS.glob("*.html"))
    assert len(found) > 2 * 17, "the docs pages are missing: run kotc-rulesc build"
    return found + diffs


def test_no_page_is_wider_than_the_window(tab, pages):
    overflowing = []
    for n, path in enumerate(pages):
        tab.goto(path.as_uri())
        # (the widths there and back in turn: a page opens at the width the one before ended at, which
        # is measured first, without resizing the window to it again)
        for width in WIDTHS[::-1] if n % 2 else WIDTHS:
            tab.set_viewport_size({"width": width, "height": 900})
            seen = tab.evaluate(MEASURE)
            assert seen["innerWidth"] == width
            if seen["scrollWidth"] > seen["innerWidth"]:
                overflowing.append(f"{path.name} at {width} px: {seen['scrollWidth']} px wide; " + "; ".join(seen["wide"]))
    assert not overflowing, "\n".join(overflowing)


def test_the_index_shows_the_current_edition_first_on_a_phone(tab):
    from kotc_rulesc.model import ordinal
    from kotc_rulesc.tables import TablesView

    current = TablesView().newest_with_catalog()
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.goto((DOCS / "index.html").as_uri())
    first = tab.evaluate("""(() => {
      const li = document.querySelector('ul.editions > li');
      const box = li.getBoundingClientRect();
      return {title: li.querySelector('.title a').textContent, current: li.classList.contains('current'),
              tag: (li.querySelector('.tag.current') || {}).textContent || null, bottom: box.top + 80, fold: innerHeight};
    })()""")
    assert first["title"] == f"{ordinal(current)} Edition"
    assert first["current"] and first["tag"] == "current edition"
    assert first["bottom"] < first["fold"], "the current edition is below the fold on a phone"


def test_the_index_lists_the_current_edition_first_and_marks_it():
    """The same, without a browser: the page itself (and its Markdown twin) put it first."""
    from kotc_rulesc.model import ordinal
    from kotc_rulesc.tables import TablesView

    current = ordinal(TablesView().newest_with_catalog())
    html = (DOCS / "index.html").read_text()
    first = html.split('<ul class="editions">', 1)[1].split("</li>", 1)[0]
    assert '<li class="current">' in first and f">{current} Edition</a>" in first
    assert '<span class="tag current">current edition</span>' in first
    assert html.count('class="current"') == 1
    table = [line for line in (DOCS / "index.md").read_text().splitlines() if line.startswith("| [")]
    assert table[0].startswith(f"| [{current} Edition]") and "(current edition)" in table[0]
    assert table[-1].startswith("| [1st Edition]")


@pytest.mark.parametrize("width", WIDTHS)
def test_typing_a_components_words_finds_its_edition_pages(tab, width):
    """The search box of any page: the words of a 17th-edition component (an Ultra effect) find the
    17th's page, at its section, and the words of an old one find every edition that lists it."""
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto((DOCS / "players.html").as_uri())
    tab.fill("#search", "Undying Counters")
    tab.wait_for_selector("#search-results li a")
    links = tab.eval_on_selector_all("#search-results li a", "els => els.map(a => a.getAttribute('href'))")
    assert "edition-17.html#effect-ultra" in links, links
    assert any(link.startswith("changelog-17.html") for link in links), links
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    tab.fill("#search", "draw cards")
    tab.wait_for_selector("#search-results li a[href^='edition-16.html']")
    links = tab.eval_on_selector_all("#search-results li a", "els => els.map(a => a.getAttribute('href'))")
    editions = {link.split("#")[0] for link in links if link.startswith("edition-")}
    assert {"edition-17.html", "edition-16.html", "edition-09.html"} <= editions, links
    tab.click("#search-results li a[href^='edition-17.html']")
    tab.wait_for_load_state()
    assert tab.url.split("/")[-1].startswith("edition-17.html")
    tab.fill("#search", "no such words anywhere")
    tab.wait_for_selector("text=Nothing found")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_contents_link_scrolls_to_its_section(tab, width):
    """The 17th's page is long (tens of screens on a phone): its contents reach every section, and a
    link of them brings its section to the top of the window; the back-to-contents link returns."""
    tab.set_viewport_size({"width": width, "height": 800})
    tab.goto((DOCS / "edition-17.html").as_uri())
    ids = tab.eval_on_selector_all("main :is(h2,h3,h4)[id]", "els => els.map(e => e.id)")
    listed = tab.eval_on_selector_all("#toc a", "els => els.map(a => a.getAttribute('href').slice(1))")
    assert ids == listed
    for target in ("effect-ultra", "revised-and-banned", "sources"):
        tab.click(f"#toc a[href='#{target}']")
        top = tab.evaluate(f"document.getElementById('{target}').getBoundingClientRect().top")
        assert -2 <= top <= 80 or tab.evaluate("innerHeight + scrollY >= document.documentElement.scrollHeight - 2"), (target, top)
    tab.click("a.to-toc")
    assert abs(tab.evaluate("document.getElementById('toc').getBoundingClientRect().top")) <= 80
