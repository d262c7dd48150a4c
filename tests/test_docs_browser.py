"""The generated documents in a real browser: headless Chromium opens every page — the index, every
edition, every changelog, and rule diffs — at 390 (a phone), 768 (a tablet), 1280 and 1920 px, and
no page is wider than the window (``scrollWidth <= innerWidth``).  The index puts the current
edition first, above the fold on a phone.

``tools/test.sh`` installs Chromium (Debian's ``chromium``) where the machine lacks it and can
install it; only where it cannot is this skipped, with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browser import Browser, find_chromium
from loaded import view_of

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


def _unavailable() -> str:
    return os.environ.get("KOTC_BROWSER_UNAVAILABLE") or (
        "no Chromium on this machine: `bash tools/test.sh` installs Debian's chromium where it can "
        "(as root with apt-get); or set KOTC_CHROMIUM to a Chromium or Chrome executable"
    )


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip(_unavailable())
    with Browser.launch() as b:
        yield b


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


def test_no_page_is_wider_than_the_window(browser, pages):
    page = browser.new_page()
    overflowing = []
    for path in pages:
        page.goto(path)
        for width in WIDTHS:
            page.set_width(width)
            seen = page.evaluate(MEASURE)
            assert seen["innerWidth"] == width
            if seen["scrollWidth"] > seen["innerWidth"]:
                overflowing.append(f"{path.name} at {width} px: {seen['scrollWidth']} px wide; " + "; ".join(seen["wide"]))
    assert not overflowing, "\n".join(overflowing)


def test_the_index_shows_the_current_edition_first_on_a_phone(browser):
    from kotc_rulesc.model import ordinal
    from kotc_rulesc.tables import TablesView

    current = TablesView().newest_with_catalog()
    page = browser.new_page()
    page.set_width(390, 844)
    page.goto(DOCS / "index.html")
    first = page.evaluate("""(() => {
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
