"""The rendered documents: the seed documents' lists exactly, valid HTML, escaped text, stable bytes.

The Markdown and the HTML of an edition page are read back into the same plain structure
(components with formula, limits, text, status and history; the four rulebook lists with the
~~struck~~ and **bold** words of each revised text) and compared with what kotc_rulesc.documents
reads from the Card Building Guide and the rulebooks in ../shared/seeds.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import html5lib
import pytest

from kotc_rulesc.formula import parse_formula
from kotc_rulesc.loader import load_rules
from kotc_rulesc.render import formula_html, md_escape, render_docs
from kotc_rulesc.text import normalize

from support.game_documents import seed_guide_entries, seed_rulebook_lists
from support.loaded import rules_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
NS = "{http://www.w3.org/1999/xhtml}"
KINDS = {"Caveats": "caveat", "Activation Conditions": "condition", "Activation Costs": "cost", "Target Selections": "target", "Effects": "effect"}
ONLY_IN_THE_RULEBOOK = "You may re-roll up to [x] dice in the current chain up to [y] times each."
#: the 2nd guide rewords the 1st's counter effects without a "Revised from" note (see edition-02.yaml)
SILENT = ". You can remove"
UNMARKED_IN_THE_11TH = "You may re-roll up to [x] dice for the rest of this turn (excluding the current chain) up to [y] times each."


def real_rules():
    return rules_of(ROOT / "rules")


@pytest.fixture(scope="module")
def docs() -> dict[str, str]:
    return render_docs(real_rules())


@pytest.fixture(scope="module")
def mini_docs() -> dict[str, str]:
    return render_docs(rules_of(FIXTURES / "mini_rules"))


# --------------------------------------------------------------------------- reading pages back


def unescape_md(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def split_formula(item: str) -> tuple[str, str]:
    """'(3x/2) {x ≤ 7} “…”' → ('3x/2', '{x ≤ 7} “…”'): the formula's own parentheses may nest."""
    assert item.startswith("("), item
    depth = 0
    for i, ch in enumerate(item):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return item[1:i], item[i + 1 :].lstrip()
    raise AssertionError(item)


def limits_of(text: str) -> dict:
    return {var: None if n == "unknown" else int(n) for var, n in re.findall(r"([xyz]) ≤ (\d+|unknown)", text)}


def component(kind: str, head: str, struck: bool, status: str, history: list[str]) -> dict:
    formula, rest = (None, head) if head.startswith("“") else split_formula(head)  # (a kind the guide prints no formula for)
    m = re.fullmatch(r"(?:(\{[^}]*\}) )?“(.*)”", rest)
    assert m, rest
    red = re.fullmatch(r"Redacted \((\d+)\w\w Edition\)", status)
    return {
        "kind": kind,
        "formula": formula,
        "limits": limits_of(m.group(1) or ""),
        "text": normalize(m.group(2)),
        "struck": struck,
        "status": status,
        "redacted": int(red.group(1)) if red else None,
        "revised_from": [(normalize(a), int(b)) for a, b in (re.fullmatch(r"Revised from: “(.*)” \((\d+)\w\w Edition\)", h).groups() for h in history if h.startswith("Revised from"))],
        "cost_revised": [(int(a), b) for a, b in (re.fullmatch(r"Cost Revised \((\d+)\w\w Edition\); was: (.*)", h).groups() for h in history if h.startswith("Cost Revised"))],
        "limit_notes": [h for h in history if h.startswith("Limit Revised")],
    }


def section_lines(md: str, start: str, end: str) -> list[str]:
    lines = md.splitlines()
    i = lines.index(start)
    j = lines.index(end, i)
    return lines[i + 1 : j]


def md_components(md: str) -> list[dict]:
    out, kind, item = [], None, None
    end = next(line for line in md.splitlines() if line in ("## Resource cost", "## Level"))  # the figure's section
    for line in section_lines(md, "## Components", end) + ["### end"]:
        if line.startswith("#### Ultra "):  # (a kind's ultra texts: the same kind)
            continue
        if line.startswith("### ") or line.startswith("- "):
            if item:
                out.append(component(*item))
                item = None
        if line.startswith("### "):
            kind = KINDS.get(line[4:])
        elif line.startswith("- "):
            m = re.fullmatch(r"- (~~)?(?:\[\+\d+\] )?(.*”)(?:~~)?(?: (.*))?", unescape_md(line))
            head = m.group(2).removesuffix("~~")
            item = [kind, head, bool(m.group(1)), m.group(3) or "", []]
        elif line.startswith("  - ") and item:
            item[4].append(unescape_md(line[4:]))
    return out


def md_lists(md: str) -> dict[str, list]:
    body = section_lines(md, "## Revised and Banned Cards", "## Rulebook parameters and terms")
    lists: dict[str, list] = {}
    name = None
    for line in body:
        if line.startswith("### "):
            name = {"### Revised Ability Text": "revised", "### Redacted Ability Text (Banned Cards)": "redacted", "### Revised Variable Limits": "limits", "### Revised Costs": "costs"}[line]
            lists[name] = []
        elif line.startswith("- ") and name and line != "- N/A":
            lists[name].append(unescape_md(line[2:]))
    return lists


def parse_html(page: str) -> ET.Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    return parser.parse(page)


def marked_text(el: ET.Element) -> str:
    """The element's text with <del> as ~~…~~ and <ins> as **…**."""
    out = [el.text or ""]
    for child in el:
        inner = marked_text(child)
        tag = child.tag.removeprefix(NS)
        out.append(f"~~{inner}~~" if tag == "del" else f"**{inner}**" if tag == "ins" else inner)
        out.append(child.tail or "")
    return "".join(out)


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def html_components(page: str) -> list[dict]:
    root = parse_html(page)
    out = []
    for sec in by_class(root, "section", "kind"):
        kind = sec.find(NS + "h3").get("id")
        for li in by_class(sec, "li", "component"):
            struck = li.find(NS + "del") is not None
            holder = li.find(NS + "del") if struck else li
            head = " ".join("".join(s.itertext()) for s in holder if s.tag == NS + "span" and s.get("class") != "ultra")
            status = "".join(s.itertext()) if (s := next(iter(by_class(li, "span", "status")), None)) is not None else ""
            history = ["".join(h.itertext()) for h in li.iter(NS + "li") if h is not li]
            out.append(component(kind, head, struck, status, history))
    return out


def html_lists(page: str) -> dict[str, list]:
    root = parse_html(page)
    section = next(s for s in root.iter(NS + "section") if (h := s.find(NS + "h2")) is not None and h.get("id") == "revised-and-banned")
    lists: dict[str, list] = {}
    name = None
    for el in section:
        if el.tag == NS + "h3":
            name = {"revised-text": "revised", "redacted-text": "redacted", "revised-limits": "limits", "revised-costs": "costs"}[el.get("id")]
            lists[name] = []
        elif el.tag == NS + "ul" and name:
            for li in el:
                if name == "revised":
                    old, new = (marked_text(by_class(li, "span", c)[0]) for c in ("old", "new"))
                    rest = "".join(by_class(li, "span", "edition-note")[0].itertext())
                    lists[name].append(f"{old} → {new} {rest}")
                else:
                    lists[name].append("".join(li.itertext()))
    return lists


def parse_list_items(lists: dict[str, list]) -> dict[str, list]:
    """Each list's items as the seed reader gives them."""
    revised = []
    for item in lists["revised"]:
        pair, _edition = item.rsplit(" (", 1)
        old, new = (normalize(s).strip('"') for s in pair.split(" → "))
        revised.append((old.replace("~~", ""), new.replace("**", ""), old, new))
    redacted = [normalize(i.rsplit(" (", 1)[0]).strip('"') for i in lists["redacted"]]
    limits = []
    for item in lists["limits"]:
        m = re.fullmatch(r"“(.*)” (\{.*\}) \((.*)\)", item)
        limits.append((normalize(m.group(1)), m.group(2).replace(" ", "")[1:-1]))
    costs = []
    for item in lists["costs"]:
        m = re.fullmatch(r"“(.*)” \((\d+)\w\w Edition\)", item)
        costs.append((normalize(m.group(1)), int(m.group(2))))
    return {"revised": revised, "redacted": redacted, "limits": limits, "costs": costs}


# --------------------------------------------------------------------------- the 11th and the 6th


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_11th_pre_release_lists_exactly_the_guides_components(docs, fmt):
    page = docs[f"edition-11-pre.{fmt}"]
    rendered = md_components(page) if fmt == "md" else html_components(page)
    guide = seed_guide_entries()
    assert len(guide) == 108
    expected = sorted(
        (g.kind, g.formula, sorted(g.limits.items()), normalize(g.text), g.redacted, [(normalize(t), e) for t, e in g.revised_from], g.cost_revised)
        for g in guide
    )
    shown = [c for c in rendered if c["text"] != ONLY_IN_THE_RULEBOOK]
    for c in shown:  # the 2nd guide's silent rewordings: revisions no guide notes
        c["revised_from"] = [(t, e) for t, e in c["revised_from"] if SILENT not in t]
    for c in shown:  # the 1st guide prints (1/2), the later ones (0.5): the same formula
        c["formula"] = "0.5" if c["formula"] == "1/2" else c["formula"]
    assert sorted((c["kind"], c["formula"], sorted(c["limits"].items()), c["text"], c["redacted"], c["revised_from"], c["cost_revised"]) for c in shown) == expected
    for c in shown:  # struck out exactly when redacted
        assert c["struck"] == (c["redacted"] is not None), c["text"]
    # the one component the seeds' 11th guide leaves out and its rulebook's Redacted list names:
    # the 2nd–10th guides give its formula and date
    (extra,) = [c for c in rendered if c["text"] == ONLY_IN_THE_RULEBOOK]
    assert extra["kind"] == "effect" and extra["formula"] == "xy" and extra["struck"]
    assert extra["status"] == "Redacted (7th Edition)"
    assert ONLY_IN_THE_RULEBOOK in [t for t, _ in seed_rulebook_lists("rulebook-11th.txt").redacted]
    # our own note on limits: exactly the components whose limits the 6th rulebook lists
    noted = sorted(c["text"] for c in rendered if c["limit_notes"])
    assert noted == sorted(t for t, _ in seed_rulebook_lists("rulebook-6th.txt").limits)


def same_lists(docs: dict[str, str], n, fmt: str, seed_name: str) -> tuple[dict, dict, dict]:
    """The rendered lists of edition ``n`` and the seed rulebook's: the same items (texts, limits,
    editions); returns (ours, seed, {old text: (our marked old, our marked new)})."""
    page = docs[f"edition-{n:02d}.{fmt}" if isinstance(n, int) else f"edition-{n}.{fmt}"]
    ours = parse_list_items(md_lists(page) if fmt == "md" else html_lists(page))
    ours["revised"] = [r for r in ours["revised"] if SILENT not in r[0]]  # no rulebook lists those
    lists = seed_rulebook_lists(seed_name)
    seed = {"redacted": [t for t, _ in lists.redacted], "limits": lists.limits, "costs": lists.costs, "revised": lists.revised}
    assert sorted(ours["redacted"]) == sorted(seed["redacted"])
    assert sorted(ours["limits"]) == sorted(seed["limits"])
    assert sorted((o, n) for o, n, _, _ in ours["revised"]) == sorted((o, n) for o, n, _, _ in seed["revised"])
    return ours, seed, {o: (om, nm) for o, _, om, nm in ours["revised"]}


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_11th_pre_release_prints_the_seeds_11th_rulebooks_four_lists(docs, fmt):
    ours, seed, marked = same_lists(docs, "11-pre", fmt, "rulebook-11th.txt")
    assert ours["limits"] == []  # printed as N/A
    assert sorted(ours["costs"]) == sorted(seed["costs"])
    for old, _, old_marked, new_marked in seed["revised"]:
        ours_old, ours_new = marked[old]
        assert ours_new == normalize(new_marked), old
        if old == UNMARKED_IN_THE_11TH:
            # the rulebook strikes nothing here, though "(excluding the current chain)" is gone
            assert old_marked == old and ours_old == old.replace("(excluding the current chain)", "(~~excluding the current chain~~)")
        else:
            assert ours_old == normalize(old_marked), old


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_6th_edition_prints_the_6th_rulebooks_three_lists(docs, fmt):
    ours, seed, marked = same_lists(docs, 6, fmt, "rulebook-6th.txt")
    assert len(ours["limits"]) == 6
    eleventh = {o: normalize(om) for o, _, om, _ in seed_rulebook_lists("rulebook-11th.txt").revised}
    for old, _, old_marked, new_marked in seed["revised"]:
        ours_old, ours_new = marked[old]
        assert ours_new == normalize(new_marked), old  # the same bold words
        # the 6th rulebook strikes nothing at all; the 11th strikes the same revisions' removed
        # words, and so do we
        assert "~~" not in old_marked
        assert ours_old == eleventh[old], old
    assert ours["costs"] == []  # the 6th has no cost revisions yet (printed as N/A)


def test_the_12th_edition_page_shows_its_system_and_level_rule(docs):
    md = docs["edition-12.md"]
    assert "**Clean Slate Edition.**" in md
    assert "No source states the card-cost rule for the 12th Edition" not in md
    assert "| creature | minion |" in md and "| hitpoints | HP |" in md
    for said in ("## Level\n", "sub_ability_cost = sum(effect_costs)", "minion_cost = max(0, ceil(sp + hp/5)) + sum(ability_costs)",
                 "for each sub-ability, then each ability, then the card",
                 "(x/2) “self-exhaust [x] resources→”", "- “When you take damage:”\n", "(t = x) “Target up to [x] in-play cards;”",
                 "A sub-ability may have one target selection."):
        assert said in md, said
    html = docs["edition-12.html"]
    assert "Clean Slate Edition." in html and 'class="component' in html and "sub_ability_cost" in html


def test_editions_without_a_rulebook_show_its_parameters_as_unknown(docs):
    md = docs["edition-08.md"]  # the 8th's only rulebook file is the 7th's
    assert "The 8th Edition's rulebook parameters and terms are unknown" in md
    assert "No source states the card-cost rule for the 8th Edition" not in md  # its guide does
    assert "| Starting hitpoints | 60 |" in docs["edition-06.md"]
    assert "- ~~(xy) “You may re-roll up to [x] dice in the current chain up to [y] times each.”~~ Redacted (7th Edition)" in md
    # the 7th's redaction that the 8th lifts: both documents, shown
    assert "Redacted (7th Edition), reinstated (8th Edition)" in md and "Documents disagree (guide-08, rulebook-07)" in md


def test_the_index_links_every_edition_and_its_changelog(docs):
    for fmt in ("md", "html"):
        index = docs[f"index.{fmt}"]
        for n in [*(f"{n:02d}" for n in range(1, 13)), "11-pre"]:
            assert f"edition-{n}.{fmt}" in index and f"changelog-{n}.{fmt}" in index
    assert "| [11th pre-release Edition](edition-11-pre.md)" in docs["index.md"]


def test_changelogs_say_what_each_edition_changed(docs):
    c8 = docs["changelog-08.md"]
    assert "- “Activate when ~~another~~ of your cards in play is destroyed.” → “Activate when **at least 1** of your cards in play (**excluding this card**) is destroyed.”" in c8
    assert "old cards read as x = 1; the new wording: “Activate when at least \\[x\\]" not in c8  # slots stay readable
    assert "the new wording: “Activate when at least [x] of your cards in play (excluding this card) are destroyed.”" in c8
    assert "## Perhaps in this edition" not in c8  # every date is known
    c9 = docs["changelog-09.md"]
    assert "- “Draw [x] cards.”: 4x → 2x (x=2: 8 → 4) (Effects; 9th Edition)" in c9
    assert "~~" not in c9.split("## Redacted")[0]  # no rewordings in the 9th
    c11 = docs["changelog-11.md"]  # the published 11th: a clean slate with levels
    assert "**Clean slate.**" in c11 and "- cost: resource cost → level" in c11
    c12 = docs["changelog-12.md"]
    assert "**Clean slate.**" in c12 and "- creature: creature → minion" in c12
    assert "## Reworded" not in docs["changelog-05.md"] and "## New components" not in docs["changelog-05.md"] and "(added name)" in docs["changelog-05.md"]  # ability names
    assert "is the base of the rules data" in docs["changelog-01.md"]


def test_every_edition_and_changelog_page_has_both_formats(docs):
    keys = [*(f"{n:02d}" for n in EDITIONS), "11-pre"]
    expected = {"index.html", "index.md"} | {f"{p}-{n}.{f}" for p in ("edition", "changelog") for n in keys for f in ("html", "md")}
    assert {p for p in docs if p.startswith(("index.", "edition-", "changelog-"))} == expected
    # besides them: the topic pages (docs/*.md), how to build a card, and the search
    topics = {f"{p.stem}.html" for p in (ROOT / "docs").glob("*.md")}
    building = {p for p in docs if p.startswith("building")}
    assert set(docs) - expected == topics | building | {"search.js", "search-index.js"}
    assert "building.html" in building  # the current edition's system, at a name a link can keep
    assert list(docs) == sorted(docs)


# --------------------------------------------------------------------------- form


def test_rendering_is_deterministic_to_the_byte(docs):
    again = render_docs(real_rules())
    assert again == docs
    sources = "".join(p.read_text() for p in (ROOT / "docs").glob("*.md"))
    for path, text in docs.items():
        assert text.endswith("\n") and "\r" not in text, path
        for date in re.findall(r"\d{4}-\d\d-\d\d", text):  # (no clock: a date is one the docs' sources give)
            assert date in sources, f"{path} holds a date"


def test_compiled_templates_are_kept_and_render_the_same_bytes(docs, monkeypatch, tmp_path):
    """The jinja2 bytecode cache (``KOTC_RULESC_CACHE``) saves compiling the templates on the
    next build; what it renders is what a build without any cache renders."""
    monkeypatch.setenv("KOTC_RULESC_CACHE", str(tmp_path))
    first = render_docs(real_rules())  # compiles the templates and keeps them
    kept = sorted(p.name for p in (tmp_path / "templates").iterdir())
    assert kept and all(name.endswith(".cache") for name in kept)
    assert render_docs(real_rules()) == first == docs  # read back from the cache
    monkeypatch.setenv("KOTC_RULESC_CACHE", "off")
    assert render_docs(real_rules()) == docs


def shown_text(el: ET.Element) -> str:
    """An element's text as a browser shows it, its navigation and scripts left out."""
    out = [el.text or ""]
    for child in el:
        if child.tag.removeprefix(NS) not in ("nav", "script", "style", "template"):
            out.append(shown_text(child))
        out.append(child.tail or "")
    return "".join(out)


def test_every_html_page_parses_without_errors(docs, mini_docs):
    """… and the search's reading (docs_sections' regexes) finds every word a browser shows in <main>, no other."""
    from kotc_rulesc.docs_sections import sections

    for pages in (docs, mini_docs, render_docs(rules_of(FIXTURES / "nasty_rules"))):
        for path, text in pages.items():
            if path.endswith(".html"):
                parser = html5lib.HTMLParser(strict=True)
                main = next(parser.parse(text).iter(NS + "main"))
                assert parser.errors == [], path
                read = "".join(heading + words for _, heading, words in sections(text))
                assert "".join(read.split()) == "".join(shown_text(main).split()), path


def test_html_pages_are_standalone_responsive_and_printable(docs):
    page = docs["edition-11.html"]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "@media print" in page and "@media (max-width:" in page
    assert "<link" not in page and "http" not in page.split("<main")[0]
    # one script, beside the page (the search): nothing from the network
    assert re.findall(r"<script[^>]*>", page) == ['<script src="search.js">']
    assert re.findall(r'src="([^"]*)"', page) == ["search.js"]


HOSTILE = """\
edition: 1
base: true
sources:
  g: {file: "g<1>.txt", title: "The <b>Guide</b> & co"}
source: g
system:
  source: g
  figure: {name: cost, title: resource cost}
  types: [{id: spell, abilities: {min: 1, max: 1}}]
  kinds: [{id: effect, title: Effects, noun: effect, role: cost, max: any, min: 1}]
  ability: [effect]
components:
  - id: effect-hostile
    kind: effect
    text: "Deal [x] <script>alert(1)</script> & **bold** ~~gone~~ `code` | pipe link](http://x) damage."
    formula: "2x"
    source: g
  - id: effect-line
    kind: effect
    text: "Draw [x] cards\\nthen # rest \\u0000 end."
    formula: "x"
    source: g
"""

HOSTILE_2 = """\
edition: 2
follows: 1
source: g
text_revisions:
  - component: effect-hostile
    text: "Deal [x] <script>alert(2)</script> & **bold** damage."
"""


def test_texts_from_the_data_are_escaped_in_both_formats(tmp_path):
    (tmp_path / "edition-01.yaml").write_text(HOSTILE)
    (tmp_path / "edition-02.yaml").write_text(HOSTILE_2)
    pages = render_docs(load_rules(tmp_path))
    html = pages["edition-02.html"]
    assert "<script>" not in html and "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "The &lt;b&gt;Guide&lt;/b&gt; &amp; co" in html
    assert "\x00" not in html and "\ufffd" in pages["edition-01.html"]
    parser = html5lib.HTMLParser(strict=True)
    parser.parse(html)
    md = pages["edition-01.md"]
    assert "Deal [x] \\<script\\>alert(1)\\</script\\> \\& \\*\\*bold\\*\\* \\~\\~gone\\~\\~ \\`code\\` \\| pipe link\\](http://x) damage." in md
    assert "Draw [x] cards<br>then \\# rest \ufffd end." in md
    assert md_escape("Target up to [x] cards.") == "Target up to [x] cards."


def test_formulas_render_as_html_from_their_trees():
    assert formula_html(parse_formula("y²/x")) == (
        '<span class="formula" title="y²/x"><span class="frac"><span class="num"><var>y</var><sup>2</sup></span>'
        '<span class="sr"> / </span><span class="den"><var>x</var></span></span></span>'
    )
    assert "⌈" in formula_html(parse_formula("max(1, ceil(ability_cost))"))
    assert "<var>x</var> − (<var>y</var> − <var>z</var>)" in formula_html(parse_formula("x - (y - z)"))
    assert '<span class="num"><var>x</var> + <var>t</var></span>' in formula_html(parse_formula("(x+t)/2"))
    assert "<var>x</var><var>t</var>" in formula_html(parse_formula("4xt"))
    assert formula_html(None) == '<span class="formula unknown">unknown</span>'


# --------------------------------------------------------------------------- snapshots


#: the main-line editions of the bundled rules (edition-NN.yaml)
EDITIONS = sorted(int(p.stem.split("-")[1]) for p in (Path(__file__).resolve().parent.parent / "rules").glob("edition-[0-9][0-9].yaml"))


@pytest.mark.parametrize("n", EDITIONS)
def test_edition_page_snapshot(docs, n, snapshot):
    """A maintainer who edits rules/ reviews here which rule lines move in which edition."""
    assert docs[f"edition-{n:02d}.md"] == snapshot


@pytest.mark.parametrize("n", EDITIONS)
def test_changelog_page_snapshot(docs, n, snapshot):
    assert docs[f"changelog-{n:02d}.md"] == snapshot


MINI_LINES = [
    "- ~~(x) {x ≤ 14} “Pay [x] hitpoints.”~~ Redacted (3rd Edition)",
    "  - Limit Revised (edition unknown: by the 2nd Edition): {x ≤ 14}; was: {x ≤ unknown}",
    "- “Activate when you take damage.” → “Activate when you take **at least 5** damage.” (2nd Edition)",
    "- “This creature cannot attack.” (3rd Edition)",
    "  - Cost Revised (3rd Edition); was: 1",
]


def test_mini_rules_render_every_kind_of_event(mini_docs):
    lines = mini_docs["edition-03.md"].splitlines()
    assert [line for line in MINI_LINES if line not in lines] == []


def test_templates_are_found_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURES / "mini_rules", tmp_path / "r")
    assert "index.html" in render_docs(load_rules(tmp_path / "r"))


# --------------------------------------------------------------------------- the site (issue 26)


def test_every_section_of_every_page_is_in_its_contents(docs):
    """A page's contents reach every h2, h3 and h4 (the 17th's page is tens of screens on a phone)."""
    from kotc_rulesc.docs_sections import headings

    for path, page in docs.items():
        if not path.endswith(".html"):
            continue
        found = headings(page)
        if len(found) < 3:
            assert 'id="toc"' not in page, path
            continue
        toc = page.split('<nav class="toc" id="toc"', 1)[1].split("</nav>", 1)[0]
        assert re.findall(r'href="#([^"]+)"', toc) == [ident for _, ident, _ in found], path
        assert len(set(ident for _, ident, _ in found)) == len(found), f"{path}: an id twice"


def test_the_search_index_holds_every_pages_sections(docs):
    import json

    script = docs["search-index.js"]
    assert script.startswith("// Generated by kotc-rulesc") and "</" not in script
    index = json.loads(script.split("window.KOTC_SEARCH_INDEX = ", 1)[1].rstrip(";\n"))
    files = [f for f, _ in index["pages"]]
    assert files[0] == "index.html" and files[1] == "players.html"
    assert files.index("edition-17.html") < files.index("edition-16.html") < files.index("edition-01.html")
    assert set(files) == {p for p in docs if p.endswith(".html")}
    sections = {(files[s[0]], s[1]): s for s in index["sections"]}
    ultra = sections[("edition-17.html", "effect-ultra")]
    assert ultra[2] == "Ultra Effects" and "Undying Counters" in ultra[3]
    assert "Draw [x] cards." in sections[("edition-09.html", "effect")][3]
    assert "Exit codes" == sections[("input-policy.html", "exit-codes")][2]


def test_the_17th_page_lists_its_texts_as_its_guide_does(docs):
    """Its sections' names, their order, "(t = x)", and the Ultra sub-sections with their [+N] first
    (the 17th Card Building Guide's "Ultra Target Selections": "[+2] (t = x) “Target all level…”")."""
    md = docs["edition-17.md"]
    titles = [line for line in md.splitlines() if line.startswith(("### ", "#### "))][:8]
    assert titles == ["### Activation Conditions", "#### Ultra Activation Conditions", "### Activation Costs",
                      "#### Ultra Activation Costs", "### Target Selections", "#### Ultra Target Selections",
                      "### Effects", "#### Ultra Effects"]
    targets = section_lines(md, "### Target Selections", "#### Ultra Target Selections")
    assert [line for line in targets if line.startswith("- ")][:3] == [
        "- (t = 1) “Target this card;”", "- (t = x) “Target up to [x] cards in the current chain;”",
        "- (t = x) “Target up to [x] on-field minions;”"]
    assert "- [+2] (t = x) “Target all level [x] or lower on-field minions;”" in md
    assert "- [+1] “When this card is summoned (ghost-play):”" in md  # (no formula: the guide prints none)
    assert "(no formula)" not in md
    assert "- [+1] (x/4) “pay [x] HP→”" in docs["changelog-17.md"]  # the changelog keeps the marks
    assert '<span class="ultra" title="Ultra Points">[+1]</span> <span class="formula">(x/4)</span>' in docs["changelog-17.html"]
    assert "- (x) “Target up to [x] cards in play.”" in docs["edition-10.md"]  # the 10th prints no "t ="


def test_the_source_documents_link_to_the_games_site(docs):
    page = docs["edition-17.html"]
    assert '<a href="https://kotc-game.github.io/old/17/cardbuilding.html">Card Building Guide, 17th Edition</a>' in page
    assert '<a href="https://kotc-game.github.io/old/17/rulebook.html">Rulebook, 17th Edition</a>' in page
    assert '<a href="https://kotc-game.github.io/old/06/card_building_guide.pdf">' in docs["edition-06.html"]
    assert '<a href="https://kotc-game.github.io/old/06/rules.pdf">' in docs["edition-06.html"]
    assert "[Card Building Guide, 17th Edition](https://kotc-game.github.io/old/17/cardbuilding.html)" in docs["edition-17.md"]
    # the seeds are not on the site: no link
    assert "<li>Card Building Guide, 11th Edition pre-release (seeds)" in docs["edition-11-pre.html"]


def test_an_edition_page_cites_no_document_written_after_it(docs):
    # the rules cite every document that states a fact (edition-07.yaml: the 7th's texts with the 8th-11th
    # guides and rulebooks that list them too); the 8th's page cites what was written by the 8th
    sources = docs["edition-08.md"].split("## Sources", 1)[1]
    assert "Card Building Guide, 8th Edition" in sources and "Rulebook, 7th Edition" in sources
    for later in ("Guide, 9th", "Guide, 10th", "Guide, 11th", "Rulebook, 9th", "Rulebook, 10th", "Rulebook, 11th"):
        assert later not in sources, later
    sources = docs["edition-15.md"].split("## Sources", 1)[1]
    assert "Rulebook, 15th Edition" in sources and "16th" not in sources and "17th" not in sources
    # the pre-release cites its own documents, not the published 11th's; the published 11th cites both
    assert "Card Building Guide, 11th Edition pre-release" in docs["edition-11-pre.md"].split("## Sources", 1)[1]
    assert "Card Building Guide, 11th Edition]" not in docs["edition-11-pre.md"].split("## Sources", 1)[1]


def test_a_formula_printed_with_a_new_wording_is_said_where_the_8th_is_described(docs):
    # edition-08.yaml: five conditions reworded with [x] and a formula (x, x/5), old cards reading x = 1 or 5
    from kotc_rulesc.show import catalog_text
    from support.loaded import view_of

    said = "Revised from: “Activate when you take damage.” (8th Edition)\n  - Formula printed with the new wording " \
           "(8th Edition): 1 → x/5, the same cost for old cards"
    assert said in docs["edition-08.md"] and said in docs["edition-09.md"]
    row = next(line for line in docs["changelog-08.md"].splitlines() if line.startswith("- “Activate when you take"))
    assert row.endswith("; formula 1 → x/5, the same cost for old cards)")
    assert docs["changelog-08.md"].count("formula 1 → x, the same cost for old cards") == 4
    shown = catalog_text(view_of().catalog(8))
    assert ('Revised from: "Activate when a card in your deck is destroyed." (8th)\n'
            "      Formula printed with the new wording (8th): 1 → x, the same cost for old cards\n") in shown
    assert shown.count("Formula printed with the new wording") == 5
    # a rewording that prints no formula says nothing of one
    assert "by paying this card's resource cost.\"\n      Revised from: \"Activate when this card in your hand is destroyed.\" (8th)\n  " in shown


def test_how_to_build_a_card_is_written_from_the_system(docs):
    page = docs["building.html"]  # the current edition's system
    assert "How to build a card: 15th–17th Editions" in page
    for said in ("A minion prints sp ≥ 0 and hp ≥ 0 and has any number of abilities, each named in capitals",
                 "Target Selections: A sub-ability may have one target selection.",
                 "A sub-ability is one sentence, made of these parts in this order:", "cards → card",
                 "“the targets” → “the target” or “it”", "Must: two activation costs are joined by “and” (two)",
                 "minion_cost", "sub_ability_costs: its sub-abilities"):
        assert said in page, said
    assert "resource cost" in docs["building-01.html"] and "creature" in docs["building-01.html"]
    assert "Caveats" in docs["building-11.html"] and "sets the variable a" in docs["building-11.html"]
    # every edition's page links its system's page
    assert '<a href="building.html">How to build a card in the 17th Edition</a>' in docs["edition-17.html"]
    assert '<a href="building-11.html">' in docs["edition-11.html"]


def test_the_topic_pages_are_the_docs_markdown(docs):
    page = docs["input-policy.html"]
    assert '<h1 id="input-policy-and-exit-codes">Input policy and exit codes</h1>' in page
    assert '<h2 id="exit-codes">Exit codes</h2>' in page and '<h2 id="input-policy">Input policy</h2>' in page
    assert '<a href="collections.html">' in docs["players.html"]  # a link to another page's .md: its page
    nav = docs["edition-03.html"].split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r'href="([^"]+)"', nav) == ["index.html", "edition-17.html", "building.html", "players.html",
                                                  "workbench.html", "collections.html", "maintainers.html", "api.html",
                                                  "input-policy.html", "contributing.html", "benchmarks.html"]


@pytest.mark.parametrize("edition", [*range(1, 18), "11-pre"])
def test_every_edition_page_lists_each_section_in_its_guides_order(docs, edition):
    """Each kind's texts, as the page lists them, in the order of the edition's own Card Building
    Guide (needs the game's documents: docs/contributing.md, "The game's documents")."""
    from support.game_documents import guide_entries

    from kotc_rulesc.documents.guide import clean

    if edition == "11-pre":
        guide = [(g.kind, g.text) for g in seed_guide_entries()]
        page = docs["edition-11-pre.md"]
    else:
        guide = [(g.kind, g.text) for g in guide_entries(edition)]
        page = docs[f"edition-{edition:02d}.md"]
    listed: dict[str, list[str]] = {}
    for c in md_components(page):
        listed.setdefault(c["kind"], []).append(clean(c["text"]))
    for kind in {k for k, _ in guide}:
        want = [clean(normalize(t)) for k, t in guide if k == kind]
        got = [t for t in listed.get(kind, []) if t in want]
        assert got == want, f"{edition}: {kind}: add its guide's order (guide_order) to the edition's rules file"


def test_a_changelog_says_none_where_the_rulebook_before_has_no_such_rule(docs):
    """The 16th rulebook has no Ultra Points: the 17th's changelog says "(none) → 10", not "unknown"."""
    assert "- Ultra Points per deck (at most): (none) → 10" in docs["changelog-17.md"]
    assert "- Cards older than a cost revision of one of their texts: (none) → prune" in docs["changelog-16.md"]


@pytest.mark.parametrize("n, count", [(11, 3), (12, 2), (13, 4)])
def test_the_edition_page_and_changelog_list_the_disagreements_the_edition_records(docs, n, count):
    """The pages said "N recorded disagreements" and listed those about no one component nowhere."""
    for page in (f"edition-{n}", f"changelog-{n}"):
        md = docs[f"{page}.md"].split("## Disagreements between documents\n", 1)[1].split("\n## ", 1)[0]
        assert md.count("\n- ") == count and md.count(f"(guide-{n}") == count, page
        assert f"(guide-{n})" in md
        html = docs[f"{page}.html"].split("Disagreements between documents</h2>", 1)[1].split("</ul>", 1)[0]
        assert html.count("<li>") == count, page
    assert "Only 1 target selection can be used per ability" in docs[f"edition-{n}.md"] or n == 11


def test_the_building_pages_say_ultra_points_cite_each_guide_and_name_each_input_once(docs):
    """building.html ("15th–17th") never mentioned the 17th guide's "Ultra Points" section, cited the 15th
    guide alone, and every page listed ability_costs and ability_cost once per card type."""
    page = docs["building.html"]
    ultra = page.split('<h2 id="ultra">Ultra Points</h2>', 1)[1].split("</section>", 1)[0]
    assert "In the 17th Edition, some texts" in ultra and "at most 10 Ultra Points" in ultra
    sources = page.split('<h2 id="sources">', 1)[1]
    for title in ("Card Building Guide, 15th Edition", "Card Building Guide, 16th Edition",
                  "Card Building Guide, 17th Edition", "Rulebook, 17th Edition"):
        assert title in sources
    for name, text in docs.items():
        if name.startswith("building") and "The names in these formulas" in text:
            names = re.findall(r"<li>(\w+): ", text.split("The names in these formulas", 1)[1].split("</ul>", 1)[0])
            assert names and len(names) == len(set(names)), name
            assert ('id="ultra"' in text) == (name == "building.html"), name


def test_each_changelog_lists_as_many_disagreements_as_its_summary_counts(docs):
    """changelog-07 said "1 recorded disagreement" (about a component) and listed none: each changelog
    lists every disagreement its edition's file records, one about a component after its text."""
    counted = 0
    for name, text in docs.items():
        if name.startswith("changelog-") and name.endswith(".md"):
            m = re.search(r"(\d+) recorded disagreements?", text.split("\n## ", 1)[0])
            items = text.split("## Disagreements between documents\n", 1)[1].split("\n## ", 1)[0].split("\n---")[0].count("\n- ") if m else 0
            assert items == (int(m.group(1)) if m else 0), name
            counted += bool(m)
    assert counted >= 10
    assert "- “Activate when this card as a resource is destroyed.”: The 7th guide strikes" in docs["changelog-07.md"]
