"""Every page of ``generated/docs/`` from the rules, through the jinja2 templates in ``templates/``.

The lists come from the data, the prose around them is ours (``templates/``, :mod:`prose`). Rendering is
deterministic (no clock, sorted iteration, ``\\n`` line ends). Every string from the data is escaped (HTML by
jinja2's autoescape, Markdown by :func:`md_escape`), control characters shown as U+FFFD. The HTML pages are
standalone: inline style sheet, no network, they work from ``file://``.
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import jinja2
from markupsafe import Markup, escape

from .bundled import templates_dir
from .citation import as_of
from .diff import OPTIONAL_PARAMETERS, PARAMETERS, RuleDiff, card_cost_changes, notes as diff_notes, rulebook_changes
from .diff import show_value, value_line
from .docs_building import building_groups, building_sources, building_view
from .docs_sections import TOC_PLACEHOLDER, add_toc, search_index
from .docs_topics import topics
from .fold import Catalog, ComponentState, derive_passes
from .formula import BinOp, Call, Formula, Neg, Num, Pow, Var
from .history import CLEAN_SLATE, KINDS, edition_summary
from .history.change import describe_when, formula_text, limits_text
from .model import LIST_TITLES, EditionKey, RuleSet, When, edition_number, is_pre_release, ordinal
from .passes import Pass
from . import prose
from .show import edition_disagreements, history_lines, rulebook_lists, rulebook_params_json
from .system import kind_titles
from .view import FoldedRules
from .wordiff import word_diff

#: the jinja2 templates and the style sheet (a source checkout's templates/, or a wheel's copy)
TEMPLATES = templates_dir()

GENERATED_NOTE = "Generated from the rules data by kotc-rulesc. Do not edit: change rules/ and rebuild."


# --------------------------------------------------------------------------- escaping

# C0/C1 controls other than tab and line feed, and noncharacters: no HTML document may hold them
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_MD_SPECIAL = re.compile(r"[\\`*_~<>&|#\[\]]")
_SLOT = re.compile(r"\[[xyz]\]")


def _clean(text: str) -> str:
    return _FORBIDDEN.sub("\ufffd", text)


def md_escape(text: str) -> str:
    """Markdown-safe text: special characters backslash-escaped, except the guide's own
    ``[x]`` slots, which stay readable; a line break inside a text becomes ``<br>``."""
    out = []
    pos = 0
    for m in _MD_SPECIAL.finditer(text):
        if m.start() < pos:
            continue
        slot = _SLOT.match(text, m.start())
        if slot and not text.startswith(("(", "[", ":"), slot.end()):
            out.append(text[pos : slot.end()])
            pos = slot.end()
            continue
        out.append(text[pos : m.start()] + "\\" + m.group(0))
        pos = m.end()
    out.append(text[pos:])
    return "<br>".join(_NEWLINE.split(_clean("".join(out))))


def _finalize_html(value: Any) -> Any:
    return value if isinstance(value, Markup) or not isinstance(value, str) else _clean(value)


def _finalize_md(value: Any) -> str:
    if isinstance(value, Markup):
        return str(value)
    return "" if value is None else md_escape(str(value))


# --------------------------------------------------------------------------- formulas as HTML

_HTML_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
_CALLS = {"ceil": "⌈{}⌉", "floor": "⌊{}⌋", "sum": "Σ&#8239;{}"}


def formula_html(f: Formula | None) -> Markup:
    """A formula as HTML: stacked fractions, superscript powers, ⌈ceil⌉, Σ sum, × where
    the guide juxtaposes names; the plain notation rides along for copying (``title``)."""
    if f is None:
        return Markup('<span class="formula unknown">unknown</span>')
    return Markup('<span class="formula" title="{}">{}</span>').format(f.notation(), Markup(_node_html(f.tree, 0)))


def _node_html(node: Any, parent: int) -> str:
    if isinstance(node, Num):
        return str(escape(Formula(Num(Fraction(node.value))).notation()))
    if isinstance(node, Var):
        return f"<var>{escape(node.name)}</var>"
    if isinstance(node, Neg):
        return "−" + _node_html(node.operand, 3)
    if isinstance(node, Pow):
        return f"{_node_html(node.base, 4)}<sup>{node.exponent}</sup>"
    if isinstance(node, Call):
        args = [_node_html(a, 0) for a in node.args]
        form = _CALLS.get(node.name)
        return form.format(args[0]) if form else f"{node.name}({', '.join(args)})"
    assert isinstance(node, BinOp)
    prec = _HTML_PREC[node.op]
    if node.op == "/":
        # a stacked fraction needs no parentheses inside; the hidden slash is for copy and speech
        return (f'<span class="frac"><span class="num">{_node_html(node.left, 0)}</span>'
                f'<span class="sr"> / </span><span class="den">{_node_html(node.right, 0)}</span></span>')
    left = _node_html(node.left, prec)
    right = _node_html(node.right, prec + (node.op == "-"))
    if node.op == "*":
        text = f"{left}{right}" if isinstance(node.right, Var) and len(node.right.name) == 1 else f"{left} × {right}"
    else:
        text = f"{left} {'−' if node.op == '-' else '+'} {right}"
    return f"({text})" if prec < parent else text


# --------------------------------------------------------------------------- templates


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The compiled templates (half a build's time), kept in ``$KOTC_RULESC_CACHE`` (``off``: none) or
    ``$XDG_CACHE_HOME/kotc-rulesc``; jinja2 keys each by its source's checksum, so none is ever stale."""
    setting = os.environ.get("KOTC_RULESC_CACHE")
    if setting == "off":
        return None
    where = Path(setting or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kotc-rulesc")
    try:
        (where / "templates").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # (no cache, and no error)
    return jinja2.FileSystemBytecodeCache(str(where / "templates"))


def environments() -> dict[str, jinja2.Environment]:
    """``{"html": …, "md": …}``: the two template environments, each escaping its own way."""
    common = dict(loader=jinja2.FileSystemLoader(str(TEMPLATES)), keep_trailing_newline=True, trim_blocks=True,
                  lstrip_blocks=True, undefined=jinja2.StrictUndefined, bytecode_cache=_bytecode_cache())
    html = jinja2.Environment(autoescape=True, finalize=_finalize_html, **common)
    html.filters.update(marked=lambda runs: Markup(runs.html(lambda s: str(escape(_clean(s))))), formula=formula_html)
    md = jinja2.Environment(autoescape=False, finalize=_finalize_md, **common)
    md.filters.update(marked=lambda runs: Markup(runs.markdown(md_escape)), formula=lambda f: f.notation())
    for env in (html, md):
        env.globals.update(ordinal=ordinal, note=GENERATED_NOTE, site_nav=[], page_file="")
    html.globals["toc"] = Markup(TOC_PLACEHOLDER)
    return {"html": html, "md": md}


# --------------------------------------------------------------------------- view models


# Records, not dicts: jinja2 looks ``c.status`` up as an attribute first (a dict's: a caught error)
ComponentView = NamedTuple("ComponentView", [("id", str), ("formula", "str | None"), ("limits", str), ("ultra", int),
                                             ("text", str), ("status", str), ("status_note", str), ("history", list)])
Link = NamedTuple("Link", [("file", str), ("title", str)])
Source = NamedTuple("Source", [("title", str), ("file", str), ("url", "str | None")])


def _component_view(c: ComponentState, system: Any) -> ComponentView:
    status_note = {"redacted": "Redacted ({})",
                   "unknown": "Status unknown: redacted at an edition no source gives ({})"}.get(c.status, "")
    kind = system.kind(c.kind) if system is not None and c.kind in system.kind_ids else None
    formula = formula_text(c.formula, system, c.kind)
    if kind is not None and kind.shows_variable and c.formula is not None:
        formula = f"{kind.variable} = {formula}"  # as the guide prints it: "(t = x)"
    return ComponentView(c.id, None if kind is not None and kind.role == "none" else formula,
                         limits_text(c.limits), c.ultra, str(c.text), c.status,
                         status_note.format(describe_when(c.redacted)), history_lines(c, docs=True))


def _kinds(rules: RuleSet, cat: Catalog) -> list[dict[str, Any]]:
    """Each kind's section, its components in the order of the last ``guide_order`` its lineage gives (the
    others after them, as the catalog holds them); the ultra ones ("[+1]") in a sub-section of their own."""
    orders: dict[str, tuple[str, ...]] = {}
    for decl in rules.lineage(cat.edition):
        orders.update(decl.guide_order)
    out = []
    for kind, title in kind_titles(cat.system).items():
        comps = [c for c in cat.components or () if c.kind == kind]
        if not comps:
            continue
        rank = {cid: i for i, cid in enumerate(orders.get(kind, ()))}
        views = [_component_view(c, cat.system) for c in sorted(comps, key=lambda c: rank.get(c.id, len(rank)))]
        out.append({"kind": kind, "title": title, "intro": prose.kind_intro(cat.system, kind),
                    "components": [v for v in views if not v.ultra], "ultra": [v for v in views if v.ultra]})
    return out


def _rulebook_section(cat: Catalog) -> dict[str, Any] | None:
    """The "Revised and Banned Cards" lists (:func:`show.rulebook_lists`); ``None`` when the catalog is unknown."""
    if not cat.catalog_known:
        return None
    lists = rulebook_lists(cat, describe_when)

    def reworded(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"words": word_diff(r["old"], r["new"]), "edition": r["edition"]} for r in rows]

    return {
        "refurbished": [{**r, "texts": [word_diff(t["old"], t["new"]) for t in r["texts"]]}
                        for r in lists["refurbished"]],
        "revised": reworded(lists["revised_text"]),
        "unlisted": reworded(lists["unlisted_text"]),
        "redacted": lists["redacted"],
        # (show's "x≤14" as the rulebooks print it: "{x ≤ 14}")
        "limits": [{**r, "limit": "{" + r["limit"].replace("≤", " ≤ ") + "}"}
                   for r in lists["revised_limits"]],
        "costs": lists["revised_costs"],
    }


def _parameters(cat: Catalog) -> dict[str, Any] | None:
    rb = cat.rulebook
    if rb is None:
        return None
    params, rows = rulebook_params_json(cat), []
    for name, label in PARAMETERS:
        value = params.get(name)
        if value is not None or name not in OPTIONAL_PARAMETERS:  # (a later rulebooks' rule: not unknown before)
            rows.append({"label": label, "value": show_value(value if value != [] else None)})
    return {"rows": rows, "terms": [{"name": k, "value": v} for k, v in rb.terms.items()], "notes": list(rb.notes)}


#: the game's site, where it publishes each document a source file transcribes (up to the 10th a PDF,
#: then a page; ../shared/sources/README.md, "Provenance")
GAME_SITE = "https://kotc-game.github.io/"
_SITE_PATHS = {"card-building-guide.txt": ("card_building_guide.pdf", "cardbuilding.html"),
               "rulebook.txt": ("rules.pdf", "rulebook.html")}


def site_address(file: str) -> str | None:
    """Where the game's site publishes the document ``file`` transcribes; ``None`` for the seeds."""
    m = re.fullmatch(r"sources/(\d\d)/([\w-]+\.txt)", file)
    if not m or m.group(2) not in _SITE_PATHS:
        return None
    pdf, page = _SITE_PATHS[m.group(2)]
    return f"{GAME_SITE}old/{m.group(1)}/{pdf if int(m.group(1)) <= 10 else page}"


def _sources(rules: RuleSet, ids: Iterable[str]) -> list[Source]:
    out = []
    for sid in sorted(set(ids)):
        src = rules.sources.get(sid)
        file = src.file if src else ""
        out.append(Source(src.title if src else sid, file, site_address(file)))
    return out


def _head(rules: RuleSet, n: EditionKey, title: str) -> dict[str, Any]:
    """What an edition's page and its changelog both show first: the edition, its file's summary, its neighbours."""
    decl, keys = rules.edition(n), rules.all_keys
    i = keys.index(n)
    return {"n": n, "title": title, "decl": decl, "summary": edition_summary(decl) if decl else None,
            "nav": {"prev": keys[i - 1] if i > 0 else None, "next": keys[i + 1] if i + 1 < len(keys) else None}}


def _edition_view(rules: RuleSet, cat: Catalog) -> dict[str, Any]:
    n, rb = cat.edition, cat.rulebook
    sources = [s for c in cat.components or () for s in c.sources]
    sources += [*(rb.sources if rb else ()), *(cat.cost_rule.sources if cat.cost_rule else ())]
    sources = as_of(sources, n)  # (the documents written by this edition: a later one only confirms)
    return {
        **_head(rules, n, f"{ordinal(n)} Edition"),
        "clean_slate": cat.clean_slate,
        "catalog_known": cat.catalog_known,
        "newest_with_catalog": rules.newest_with_catalog(),
        "kinds": _kinds(rules, cat),
        "count": len(cat.components or ()),
        "cost_rule": None if cat.cost_rule is None else {
            "parts": [{"name": name, "formula": f} for name, f in cat.cost_rule.parts()],
            "stated": cat.cost_rule_stated, "rule_of": cat.cost_rule.edition},
        "guide_intro": prose.guide_intro(cat.system),
        "ultra_intro": prose.ultra_intro(cat.system, rb.deck_ultra_points if rb else None),
        "cost_intro": prose.cost_intro(cat.system),
        "figure_heading": cat.system.figure_title.capitalize(),  # "Resource cost", "Level"
        "sections": {**LIST_TITLES, **(rb.sections if rb else {})},
        "lists": _rulebook_section(cat),
        "parameters": _parameters(cat),
        "disagreements": edition_disagreements(cat),
        "sources": _sources(rules, sources),
    }


def _row(c: Any, titles: dict[str, str], when: When | None = None) -> dict[str, Any]:
    """A change as a docs row: its text or marked words, what changed, its kind's title (and when)."""
    return {"text": c.text, "words": c.words, "detail": c.detail, "kind": titles.get(c.kind, c.kind),
            "when": describe_when(when) if when is not None else None}


def _latest(rules: RuleSet, view: FoldedRules, n: int, test) -> Catalog | None:
    """The newest catalog before ``n`` on its line (for a pre-release: its parent's) that passes ``test``."""
    decl = rules.edition(n)
    top = edition_number(decl.follows) if decl is not None and decl.pre_release else edition_number(n) - 1
    for k in reversed(rules.all_keys):
        if isinstance(k, int) and k <= top and test(view.catalog(k)):
            return view.catalog(k)
    return None


def _changelog_view(rules: RuleSet, view: FoldedRules, step: Pass | None, n: int) -> dict[str, Any]:
    decl, this = rules.edition(n), view.catalog(n)
    events = []  # the clean slate's successors, then each kind's events as the kind describes them
    if step is not None and decl is not None:
        comps = rules.components()
        titles = kind_titles(view.catalog(step.source).system, this.system)
        sections = [(CLEAN_SLATE, [_row(CLEAN_SLATE.describe(comps[a], comps[b]), titles) for a, b in step.successors])]
        for kind in KINDS:
            items = zip(getattr(step, kind.pass_field), decl.of_kind(kind))
            sections.append((kind, [_row(kind.describe(item, comps), titles, ev.when) for item, ev in items]))
        events = [{"heading": kind.heading, "intro": kind.intro, "rows": rows} for kind, rows in sections if rows]
    rulebook_before = decl and decl.rulebook_stated and _latest(rules, view, n, lambda cat: cat.rulebook is not None)
    params, terms = rulebook_changes(rulebook_before, this) if rulebook_before else ([], [])
    cost_before = decl and decl.card_cost and _latest(rules, view, n, lambda cat: cat.cost_rule_stated)
    new = [ComponentState(c.id, c.kind, c.text, c.formula, dict(c.limits), "legal", None, (), (), (), c.sources,
                          ultra=c.ultra) for c in (decl.components if decl is not None and not decl.base else ())]
    return {
        **_head(rules, n, f"{ordinal(n)} Edition: what changed"),
        "base": bool(decl and decl.base),
        "count": len(decl.components) if decl else 0,
        "events": events,
        "new": [_component_view(c, this.system) for c in new],
        "clean_slate": bool(step and step.clean_slate),
        "catalog_known": this.catalog_known,
        "clean_slate_sentence": CLEAN_SLATE.sentence(n, this.rulebook) if decl is not None and step and step.clean_slate else None,
        "parameters": [value_line(v) for v in params],
        "terms": [value_line(v) for v in terms],
        "rulebook_stated": bool(decl and decl.rulebook_stated),
        "rulebook_before": rulebook_before.edition if rulebook_before else None,
        "card_cost": [value_line(v) for v in card_cost_changes(cost_before, this)] if cost_before else [],
        "card_cost_stated": bool(decl and decl.card_cost),
        "card_cost_before": cost_before.edition if cost_before else None,
        "disagreements": edition_disagreements(this, components=True),  # (all the summary counts)
        "possible": _possible(rules, n),
    }


def _possible(rules: RuleSet, n: int) -> list[dict[str, str]]:
    """Undated events that may (or may not) have happened in edition ``n``: no source says."""
    out = []
    comps = rules.components()
    for decl in rules.editions:
        for kind in KINDS:
            for e in decl.of_kind(kind):
                w = e.when
                if w.edition is None and (w.after is None or w.after < edition_number(n)) and edition_number(n) < w.by:
                    text = str(comps[e.component].text) if e.component in comps else e.component
                    out.append({"what": f"{kind.noun} of", "text": text, "when": describe_when(w)})
    return out


def _index_view(rules: RuleSet, view: FoldedRules) -> dict[str, Any]:
    current = rules.newest_with_catalog()  # the edition the commands judge in by default
    editions = []
    for n in rules.all_keys:
        decl, cat = rules.edition(n), view.catalog(n)
        editions.append({
            "n": n,
            "title": f"{ordinal(n)} Edition",
            "file": decl.file.rsplit("/", 1)[-1] if decl else None,
            "summary": edition_summary(decl) if decl else "no recorded changes",
            "catalog_known": cat.catalog_known,
            "clean_slate": cat.clean_slate == n,
            "rulebook": cat.rulebook is not None,
            "redacted": sum(1 for c in cat.components or () if c.status == "redacted"),
            "legal": sum(1 for c in cat.components or () if c.status == "legal"),
            "current": n == current,
        })
    # the current edition first (above the fold on a phone), then the others newest first
    editions = sorted(reversed(editions), key=lambda ed: not ed["current"])
    return {"editions": editions, "sources": _sources(rules, rules.sources)}


# --------------------------------------------------------------------------- pages


def _page(prefix: str, n: EditionKey) -> str:
    """``edition-11``, ``changelog-11-pre``: a page's name (without its extension)."""
    return f"{prefix}-{edition_number(n):02d}" + ("-pre" if is_pre_release(n) else "")


def render_docs(rules: RuleSet) -> dict[str, str]:
    """Every page of ``generated/docs/``: ``{relative path: exact contents}``, sorted by path."""
    view = FoldedRules(rules)
    steps = {p.target: p for p in derive_passes(rules)}
    current = rules.newest_with_catalog()
    groups = building_groups([view.catalog(n) for n in rules.all_keys])
    # (the current edition's system has the page a link can name in any release: building.html)
    building = {k: "building" if current in keys else _page("building", keys[0]) for keys, _ in groups for k in keys}
    names = {"edition": partial(_page, "edition"), "changelog": partial(_page, "changelog"),
             "building": building.__getitem__}
    pages_topics = topics()
    nav = [Link("index.html", "Home"), Link(f"{_page('edition', current)}.html", f"{ordinal(current)} Edition"),
           Link(f"{building[current]}.html", "Build a card")]
    nav += [Link(f"{t.name}.html", t.title) for t in pages_topics]
    index = _index_view(rules, view)
    # (each edition's views once, for both formats)
    editions = [(n, _edition_view(rules, view.catalog(n)), _changelog_view(rules, view, steps.get(n), n))
                for n in rules.all_keys]
    pages: dict[str, str] = {}
    envs = environments()
    envs["html"].globals["site_nav"] = nav
    for fmt, env in envs.items():
        common = {"names": names, "first": rules.first, "last": rules.last}

        def page(name: str, template: str, **context: Any) -> None:
            pages[name] = env.get_template(template).render(**common, **context, page_file=name)

        page(f"index.{fmt}", f"index.{fmt}.j2", **index, topics=pages_topics)
        for n, edition, changelog in editions:
            page(f"{_page('edition', n)}.{fmt}", f"edition.{fmt}.j2", e=edition)
            page(f"{_page('changelog', n)}.{fmt}", f"changelog.{fmt}.j2", c=changelog)
        if fmt == "html":
            for topic in pages_topics:
                page(f"{topic.name}.html", "topic.html.j2", t=topic)
            for keys, cats in groups:
                page(f"{building[keys[0]]}.html", "building.html.j2",
                     b={**building_view(keys, cats[0], cats), "sources": _sources(rules, building_sources(cats))})
    pages = {path: add_toc(text) if path.endswith(".html") else text for path, text in pages.items()}
    # the search lists its finds: the front page, the topic pages, how to build a card (the current system
    # first), the editions from the current one back, then their changelogs
    keys = [current] + [k for k in reversed(rules.all_keys) if k != current]
    files = ["index.html"] + [f"{t.name}.html" for t in pages_topics]
    files += [f"{b}.html" for b in dict.fromkeys(reversed(building.values()))]
    files += [f"{_page('edition', k)}.html" for k in keys] + [f"{_page('changelog', k)}.html" for k in keys]

    def titled(file: str) -> tuple[str, str, str]:
        title = re.search(r"<title>(.*?) · ", pages[file])
        return file, unescape(title.group(1)) if title else file, pages[file]

    pages["search-index.js"] = search_index([titled(file) for file in files])
    pages["search.js"] = (TEMPLATES / "search.js").read_text(encoding="utf-8")
    return {path: _lf(text) for path, text in sorted(pages.items())}


def _lf(text: str) -> str:
    text = text.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def render_diff(d: RuleDiff, fmt: str) -> str:
    """A rule diff as a standalone HTML page (``fmt="html"``) or Markdown (``"md"``)."""
    sections = [{"key": key, "title": title, "rows": [_row(c, d.kind_titles) for c in items]}
                for key, title, items in d.component_sections() if items]
    values = [(title, [value_line(v) for v in items]) for title, items in d.value_sections() if items]
    title = f"{ordinal(d.a)} Edition → {ordinal(d.b)} Edition"
    return _lf(environments()[fmt].get_template(f"diff.{fmt}.j2").render(
        d=d, title=title, notes=diff_notes(d), sections=sections, values=values))
