"""The published documents of every edition, rendered from the rules (issue 6).

:func:`render_docs` returns every page as ``{path relative to generated/docs/: text}``;
``kotc-rulesc build`` writes them.  Per edition N (every edition from the first to
the last, with or without a rules file of its own):

* ``edition-NN.html`` / ``.md`` — the Card Building Guide's component lists in the
  guide's notation (``(3x/2) {x ≤ 7} "text"``, redacted components struck out, the
  history notes under each), the card-cost rule (rendered from the same formula
  trees the engine evaluates), the rulebook's "Revised and Banned Cards" lists
  (revised texts with removed words struck and added words in bold), and the
  rulebook's parameters and terms;
* ``changelog-NN.html`` / ``.md`` — what that edition changed (its migration pass);

and ``index.html`` / ``index.md`` linking them all; the topic pages (``docs/*.md``, rendered by
:mod:`docs_topics`), a "How to build a card" page per card-building system
(:mod:`docs_building`), and the search: ``search.js`` (``templates/search.js``) and
``search-index.js`` (:mod:`docs_sections`, which also writes each page's table of contents).
The HTML pages are standalone (the style sheet is inline, no network), readable on a phone,
printable, and work from ``file://``.

The lists come from the data; the prose around them is ours, in
``templates/``.  Rendering is deterministic: no clock, sorted iteration, ``\\n``
line ends.  Every string from the data is escaped (HTML by jinja2's autoescape,
Markdown by :func:`md_escape`), and characters no document may hold (NUL, other
control characters) are shown as U+FFFD.
"""

from __future__ import annotations

import os
import re
from html import unescape
from pathlib import Path
from typing import Any, Iterable

import jinja2
from markupsafe import Markup

from .diff import (
    OPTIONAL_PARAMETERS,
    PARAMETERS,
    RuleDiff,
    card_cost_changes,
    notes as diff_notes,
    rulebook_changes,
    show_value,
    value_line,
)
from .bundled import templates_dir
from .citation import LIST_TITLES
from .docs_building import building_groups, building_view
from .docs_sections import TOC_PLACEHOLDER, add_toc, search_index
from .docs_topics import topics
from .fold import Catalog, ComponentState
from .docs_markup import finalize_html, finalize_md, formula_html, html_marked, md_escape, md_marked
from .model import EditionKey, RuleSet, When, edition_number, is_pre_release, ordinal
from .system import kind_titles
from . import prose
from .history import CLEAN_SLATE, KINDS, edition_summary
from .history.change import describe_when, formula_text, limits_text
from .fold import derive_passes
from .passes import Pass
from .show import rulebook_lists, rulebook_params_json
from .view import FoldedRules
from .wordiff import word_diff

__all__ = ["render_docs", "render_diff", "TEMPLATES", "md_escape", "formula_html"]

#: the jinja2 templates and the style sheet (a source checkout's templates/, or a wheel's copy)
TEMPLATES = templates_dir()

GENERATED_NOTE = "Generated from the rules data by kotc-rulesc. Do not edit: change rules/ and rebuild."

def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The templates compiled once, kept in ``$KOTC_RULESC_CACHE`` or ``$XDG_CACHE_HOME/kotc-rulesc``
    (``KOTC_RULESC_CACHE=off``: none).

    Compiling the templates is about half a second of every build; jinja2 keys each compiled
    template by its name and a checksum of its source (and jinja2's own version), so an entry is
    never stale, only missed.  A cache directory that cannot be made: no cache, and no error."""
    setting = os.environ.get("KOTC_RULESC_CACHE")
    if setting == "off":
        return None
    where = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kotc-rulesc"
    try:
        (where / "templates").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(where / "templates"))


def environments() -> dict[str, jinja2.Environment]:
    """``{"html": …, "md": …}``: the two template environments, each escaping its own way."""
    loader = jinja2.FileSystemLoader(str(TEMPLATES))
    common = dict(loader=loader, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                  undefined=jinja2.StrictUndefined, bytecode_cache=_bytecode_cache())
    html = jinja2.Environment(autoescape=True, finalize=finalize_html, **common)
    html.filters["marked"] = html_marked
    html.filters["formula"] = formula_html
    md = jinja2.Environment(autoescape=False, finalize=finalize_md, **common)
    md.filters["marked"] = md_marked
    md.filters["formula"] = lambda f: f.notation()
    for env in (html, md):
        env.globals.update(ordinal=ordinal, note=GENERATED_NOTE, site_nav=[], page_file="")
    html.globals["toc"] = Markup(TOC_PLACEHOLDER)
    return {"html": html, "md": md}


# --------------------------------------------------------------------------- view models


def _component_view(c: ComponentState, system: Any = None) -> dict[str, Any]:
    history = [f"Revised from: “{w.text}” ({describe_when(w.replaced_in)})" if w.listed else
               f"Reworded from: “{w.text}” ({describe_when(w.replaced_in)}, in no rulebook list)" for w in c.wordings]
    history += [f"Cost Revised ({describe_when(ch.when)}); was: {formula_text(ch.was)}" if ch.listed else
                f"Formula changed ({describe_when(ch.when)}, in no rulebook list: it prunes no card); was: {formula_text(ch.was)}"
                for ch in c.cost_changes]
    history += [
        f"Limit Revised ({describe_when(ch.when)}): {limits_text(ch.now)}; was: {limits_text(ch.was) or 'no limit'}"
        for ch in c.limit_changes
    ]
    history += [
        f"Redacted ({describe_when(red)}), reinstated ({describe_when(rei)})" + (f": {note}" if note else "")
        for red, rei, _, note in c.reinstated
    ]
    history += [f"Documents disagree ({', '.join(d.sources)}): {d.note}" for d in c.disagreements]
    if c.status == "redacted":
        status_note = f"Redacted ({describe_when(c.redacted)})"
    elif c.status == "unknown":
        status_note = f"Status unknown: redacted at an edition no source gives ({describe_when(c.redacted)})"
    else:
        status_note = ""
    kind = system.kind(c.kind) if system is not None and c.kind in system.kind_ids else None
    formula = formula_text(c.formula, system, c.kind)
    if kind is not None and kind.shows_variable and c.formula is not None:
        formula = f"{kind.variable} = {formula}"  # as the guide prints it: "(t = x)"
    return {
        "id": c.id,
        "kind": c.kind,
        "formula": None if kind is not None and kind.role == "none" else formula,  # (the guide prints none)
        "limits": limits_text(c.limits),
        "ultra": c.ultra,
        "text": str(c.text),
        "status": c.status,
        "status_note": status_note,
        "history": history,
    }


def in_guide_order(rules: RuleSet, key: EditionKey, components: list[ComponentState]) -> list[ComponentState]:
    """One kind's components in the order the edition's guide lists them: the last ``guide_order``
    its lineage gives for that kind, then the others as the catalog holds them (newer ones last)."""
    if not components:
        return []
    order: tuple[str, ...] = ()
    for decl in rules.lineage(key):
        order = dict(decl.guide_order).get(components[0].kind, order)
    rank = {cid: i for i, cid in enumerate(order)}
    return sorted(components, key=lambda c: rank.get(c.id, len(rank)))


def _kinds(rules: RuleSet, cat: Catalog) -> list[dict[str, Any]]:
    """Each kind's section: its components in the guide's order, the ultra ones (the 17th's "[+1]"
    texts) in a sub-section of their own, as the guide prints them ("Ultra Effects")."""
    out = []
    for kind, title in kind_titles(cat.system).items():
        listed = in_guide_order(rules, cat.edition, [c for c in cat.components or () if c.kind == kind])
        if listed:
            views = [_component_view(c, cat.system) for c in listed]
            out.append({"kind": kind, "title": title, "intro": prose.kind_intro(cat.system, kind),
                        "components": [v for v in views if not v["ultra"]], "ultra": [v for v in views if v["ultra"]]})
    return out


def _limit_display(compact: str) -> str:
    """show.py's ``x≤14, y≤unknown`` as the rulebooks print it: ``{x ≤ 14, y ≤ unknown}``."""
    return "{" + compact.replace("≤", " ≤ ") + "}"


def _edition(n: int | None) -> When | None:
    return When(n, n) if n is not None else None


def _rulebook_section(cat: Catalog) -> dict[str, Any] | None:
    """The "Revised and Banned Cards" lists of one edition (as :func:`show.rulebook_lists`
    derives them); ``None`` when its catalog is unknown."""
    if not cat.catalog_known:
        return None
    lists = rulebook_lists(cat)
    # the lists give edition numbers; an undated event's window comes from the catalog
    comps = [c for c in cat.components or () if c.status != "unknown"]
    redacted = {str(c.text): c.redacted for c in comps if c.status == "redacted"}
    revised = {str(w.text): w.replaced_in for c in comps for w in c.wordings}
    limits = {str(c.text): [ch.when for ch in c.limit_changes] for c in comps}
    costs = {str(c.text): [ch for ch in c.cost_changes if ch.listed][-1].when for c in comps if any(ch.listed for ch in c.cost_changes)}
    return {
        "refurbished": [
            {"old": r["old"], "new": r["new"], "edition": describe_when(_edition(r["edition"])),
             "texts": [word_diff(t["old"], t["new"]) for t in r["texts"]]}
            for r in lists["refurbished"]
        ],
        "revised": [{"words": word_diff(r["old"], r["new"]), "edition": describe_when(revised.get(r["old"]))} for r in lists["revised_text"]],
        "unlisted": [{"words": word_diff(r["old"], r["new"]), "edition": describe_when(revised.get(r["old"]))} for r in lists["unlisted_text"]],
        "redacted": [{"text": r["text"], "edition": describe_when(redacted.get(r["text"]))} for r in lists["redacted"]],
        "limits": [
            {"text": r["text"], "limit": _limit_display(r["limit"]), "edition": describe_when(limits[r["text"]].pop(0))}
            for r in lists["revised_limits"]
        ],
        "costs": [{"text": r["text"], "edition": describe_when(costs.get(r["text"]))} for r in lists["revised_costs"]],
    }


def _cost_rule(cat: Catalog) -> dict[str, Any] | None:
    rule = cat.cost_rule
    if rule is None:
        return None
    return {
        "parts": [{"name": name, "formula": f, "notation": f.notation()} for name, f in rule.parts()],
        "stated": cat.cost_rule_stated,
        "rule_of": rule.edition,
        "sources": list(rule.sources),
    }


def _parameters(cat: Catalog) -> dict[str, Any] | None:
    rb = cat.rulebook
    if rb is None:
        return None
    params = rulebook_params_json(cat) or {}
    rows = []
    for name, label in PARAMETERS:
        value = params.get(name)
        if name in OPTIONAL_PARAMETERS and value is None:
            continue  # a rule of later rulebooks only: not "unknown" where the game had no such thing
        rows.append({"name": name, "label": label, "value": show_value(value if value != [] else None)})
    return {
        "rows": rows,
        "terms": [{"name": k, "value": v} for k, v in rb.terms.items()],
        "notes": list(rb.notes),
        "sources": list(rb.sources),
    }


#: the game's site (its public repository kotc-game/kotc-game.github.io, published), where each
#: source document is: ``sources/NN/…`` of the rules' source files is the page or PDF the
#: transcription was made from (../shared/sources/README.md, "Provenance": ``old/NN/…``)
GAME_SITE = "https://kotc-game.github.io/"
_SITE_PATHS = {  # (transcription, up to the 10th: a PDF; from the 11th: a page)
    "card-building-guide.txt": ("card_building_guide.pdf", "cardbuilding.html"),
    "rulebook.txt": ("rules.pdf", "rulebook.html"),
}


def site_address(file: str) -> str | None:
    """Where the game's site publishes the document a source file transcribes, or ``None`` (the
    seeds, which the site does not hold)."""
    m = re.fullmatch(r"sources/(\d\d)/([\w-]+\.txt)", file)
    if not m or m.group(2) not in _SITE_PATHS:
        return None
    pdf, page = _SITE_PATHS[m.group(2)]
    return f"{GAME_SITE}old/{m.group(1)}/{pdf if int(m.group(1)) <= 10 else page}"


def _sources(rules: RuleSet, ids: Iterable[str]) -> list[dict[str, str | None]]:
    out = []
    for sid in sorted(set(ids)):
        src = rules.sources.get(sid)
        file = src.file if src else ""
        out.append({"id": sid, "title": src.title if src else sid, "file": file, "url": site_address(file)})
    return out


def _edition_sources(rules: RuleSet, cat: Catalog) -> list[dict[str, str]]:
    ids: list[str] = []
    for c in cat.components or ():
        ids.extend(c.sources)
    if cat.rulebook:
        ids.extend(cat.rulebook.sources)
    if cat.cost_rule:
        ids.extend(cat.cost_rule.sources)
    return _sources(rules, ids)


def _nav(rules: RuleSet, n: EditionKey) -> dict[str, Any]:
    keys = rules.all_keys
    i = keys.index(n)
    return {"prev": keys[i - 1] if i > 0 else None, "next": keys[i + 1] if i + 1 < len(keys) else None}


def _earlier(rules: RuleSet, n: EditionKey) -> list[EditionKey]:
    """The editions before ``n`` on its line, newest first (for a pre-release: its parent's line)."""
    decl = rules.edition(n)
    top = edition_number(decl.follows) if decl is not None and decl.pre_release else edition_number(n) - 1
    return [k for k in reversed(rules.all_keys) if isinstance(k, int) and k <= top]


def _edition_view(rules: RuleSet, cat: Catalog) -> dict[str, Any]:
    n = cat.edition
    decl = rules.edition(n)
    return {
        "n": n,
        "title": f"{ordinal(n)} Edition",
        "decl": decl,
        "summary": edition_summary(decl) if decl else None,
        "nav": _nav(rules, n),
        "clean_slate": cat.clean_slate,
        "catalog_known": cat.catalog_known,
        "newest_with_catalog": rules.newest_with_catalog(),
        "kinds": _kinds(rules, cat),
        "count": len(cat.components or ()),
        "cost_rule": _cost_rule(cat),
        "guide_intro": prose.guide_intro(cat.system),
        "ultra_intro": prose.ultra_intro(cat.system, cat.rulebook.deck_ultra_points if cat.rulebook else None),
        "cost_intro": prose.cost_intro(cat.system),
        "figure_heading": cat.system.figure_title.capitalize(),  # "Resource cost", "Level"
        "sections": {**LIST_TITLES, **(cat.rulebook.sections if cat.rulebook else {})},
        "lists": _rulebook_section(cat),
        "parameters": _parameters(cat),
        "sources": _edition_sources(rules, cat),
    }


def _row(c: Any, titles: dict[str, str], when: When | None = None) -> dict[str, Any]:
    """A change as a docs row: its text or marked words, what changed, its kind's title (and when)."""
    return {"text": c.text, "words": c.words, "detail": c.detail, "kind": titles.get(c.kind, c.kind),
            "when": describe_when(when) if when is not None else None, "section": c.section}


def _changelog_view(rules: RuleSet, view: FoldedRules, step: Pass | None, n: int) -> dict[str, Any]:
    decl = rules.edition(n)
    out: dict[str, Any] = {
        "n": n,
        "title": f"{ordinal(n)} Edition: what changed",
        "decl": decl,
        "summary": edition_summary(decl) if decl else None,
        "nav": _nav(rules, n),
        "base": bool(decl and decl.base),
        "count": len(decl.components) if decl else 0,
        "events": [],  # per event kind: {heading, intro, rows}
        "new": [],
        "clean_slate": bool(step and step.clean_slate),
        "catalog_known": view.catalog(n).catalog_known,
        "clean_slate_sentence": None,
        "parameters": [],
        "terms": [],
        "rulebook_stated": bool(decl and decl.rulebook_stated),
        "rulebook_before": None,
        "card_cost": [],
        "card_cost_stated": bool(decl and decl.card_cost),
        "card_cost_before": None,
        "possible": _possible(rules, n),
    }
    if step is not None and decl is not None:
        comps = rules.components()
        titles = kind_titles(view.catalog(step.source).system, view.catalog(n).system)
        for kind in KINDS:  # each kind describes its own events (kotc_rulesc.history)
            rows = [_row(kind.describe(item, comps), titles, ev.when)
                    for item, ev in zip(getattr(step, kind.pass_field), decl.of_kind(kind))]
            if rows:
                out["events"].append({"key": kind.key, "heading": kind.heading, "intro": kind.intro, "rows": rows})
        if step.successors:  # the clean slate's own rows, before the kinds' (kotc_rulesc.history)
            rows = [_row(CLEAN_SLATE.describe(comps[a], comps[b]), titles) for a, b in step.successors]
            out["events"].insert(0, {"key": CLEAN_SLATE.key, "heading": CLEAN_SLATE.heading, "intro": CLEAN_SLATE.intro, "rows": rows})
        if step.clean_slate:
            out["clean_slate_sentence"] = CLEAN_SLATE.sentence(n)
    if decl is not None and not decl.base:
        out["new"] = [_component_view(_declared_state(c), view.catalog(n).system) for c in decl.components]
    if decl is not None and (decl.rulebook_stated or decl.card_cost):
        this = view.catalog(n)
        if decl.rulebook_stated:
            before = _latest(rules, view, n, lambda cat: cat.rulebook is not None)
            if before is not None:
                out["rulebook_before"] = before.edition
                params, terms = rulebook_changes(before, this)
                out["parameters"] = [value_line(v) for v in params]
                out["terms"] = [value_line(v) for v in terms]
        if decl.card_cost:
            before = _latest(rules, view, n, lambda cat: cat.cost_rule_stated)
            if before is not None:
                out["card_cost_before"] = before.edition
                out["card_cost"] = [value_line(v) for v in card_cost_changes(before, this)]
    return out


def _latest(rules: RuleSet, view: FoldedRules, n: int, test) -> Catalog | None:
    for m in _earlier(rules, n):
        cat = view.catalog(m)
        if test(cat):
            return cat
    return None


def _declared_state(c: Any) -> ComponentState:
    """A newly declared component as it reads in the edition that declares it."""
    return ComponentState(c.id, c.kind, c.text, c.formula, dict(c.limits), "legal", None, (), (), (), c.sources, ultra=c.ultra)


def _possible(rules: RuleSet, n: int) -> list[dict[str, str]]:
    """Undated events that may (or may not) have happened in edition ``n``: no source says."""
    out = []
    comps = rules.components()
    for decl in rules.editions:
        for word, events in ((f"{kind.noun} of", decl.of_kind(kind)) for kind in KINDS):
            for e in events:
                w = e.when
                if w.edition is None and (w.after is None or w.after < edition_number(n)) and edition_number(n) < w.by:
                    text = str(comps[e.component].text) if e.component in comps else e.component
                    out.append({"what": word, "text": text, "when": describe_when(w)})
    return out


def _index_view(rules: RuleSet, view: FoldedRules) -> dict[str, Any]:
    current = rules.newest_with_catalog()  # the edition the commands judge in by default
    editions = []
    for n in rules.all_keys:
        decl = rules.edition(n)
        cat = view.catalog(n)
        editions.append(
            {
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
            }
        )
    # the current edition first (above the fold on a phone), then the others newest first
    editions = sorted(reversed(editions), key=lambda ed: not ed["current"])
    return {"editions": editions, "sources": _sources(rules, rules.sources)}


# --------------------------------------------------------------------------- pages


def _page_key(n: EditionKey) -> str:
    return f"{edition_number(n):02d}" + ("-pre" if is_pre_release(n) else "")


def edition_name(n: EditionKey) -> str:
    return f"edition-{_page_key(n)}"


def changelog_name(n: EditionKey) -> str:
    return f"changelog-{_page_key(n)}"


def building_name(n: EditionKey) -> str:
    return f"building-{_page_key(n)}"


def render_docs(rules: RuleSet) -> dict[str, str]:
    """Every page of ``generated/docs/``: ``{relative path: exact contents}``, sorted by path."""
    envs = environments()
    view = FoldedRules(rules)
    steps = {p.target: p for p in derive_passes(rules)}
    pages: dict[str, str] = {}
    current = rules.newest_with_catalog()
    groups = building_groups([view.catalog(n) for n in rules.all_keys])
    # (the current edition's system has the page a link can name in any release: building.html)
    building = {k: "building" if current in keys else building_name(keys[0]) for keys, _ in groups for k in keys}
    names = {"edition": edition_name, "changelog": changelog_name, "building": building.__getitem__}
    pages_topics = topics()
    nav = [{"file": "index.html", "title": "Home"},
           {"file": f"{edition_name(current)}.html", "title": f"{ordinal(current)} Edition"},
           {"file": f"{building[current]}.html", "title": "Build a card"}]
    nav += [{"file": f"{t.name}.html", "title": t.title} for t in pages_topics]
    index = _index_view(rules, view)
    for fmt, env in envs.items():
        common = {"fmt": fmt, "names": names, "first": rules.first, "last": rules.last}
        if fmt == "html":
            common["site_nav"] = nav
        page = f"index.{fmt}"
        pages[page] = env.get_template(f"index.{fmt}.j2").render(**common, **index, topics=pages_topics, page_file=page)
        for n in rules.all_keys:
            ev = _edition_view(rules, view.catalog(n))
            page = f"{edition_name(n)}.{fmt}"
            pages[page] = env.get_template(f"edition.{fmt}.j2").render(**common, e=ev, page_file=page)
            cv = _changelog_view(rules, view, steps.get(n), n)
            page = f"{changelog_name(n)}.{fmt}"
            pages[page] = env.get_template(f"changelog.{fmt}.j2").render(**common, c=cv, page_file=page)
        if fmt == "html":
            for topic in pages_topics:
                page = f"{topic.name}.html"
                pages[page] = env.get_template("topic.html.j2").render(**common, t=topic, page_file=page)
            for keys, cat in groups:
                page = f"{building[keys[0]]}.html"
                bv = {**building_view(keys, cat), "sources": _sources(rules, cat.system.sources)}
                pages[page] = env.get_template("building.html.j2").render(**common, b=bv, page_file=page)
    pages = {path: _lf(add_toc(text) if path.endswith(".html") else text) for path, text in pages.items()}
    pages["search-index.js"] = search_index(_search_order(pages, rules, current, pages_topics, [b for b in building.values()]))
    pages["search.js"] = (TEMPLATES / "search.js").read_text(encoding="utf-8")
    return {path: _lf(text) for path, text in sorted(pages.items())}


def _search_order(pages: dict[str, str], rules: RuleSet, current: EditionKey, pages_topics: list, buildings: list[str]):
    """The HTML pages as the search lists its finds: the front page and the topic pages, how to build
    a card (the current system first), the editions from the current one back, then their changelogs."""
    keys = [current] + [k for k in reversed(rules.all_keys) if k != current]
    files = ["index.html"] + [f"{t.name}.html" for t in pages_topics]
    files += list(dict.fromkeys([f"{n}.html" for n in [b for b in reversed(buildings)]]))
    files += [f"{edition_name(k)}.html" for k in keys] + [f"{changelog_name(k)}.html" for k in keys]
    for file in files:
        title = re.search(r"<title>(.*?) · ", pages[file])
        yield file, unescape(title.group(1)) if title else file, pages[file]


def _lf(text: str) -> str:
    text = text.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def render_diff(d: RuleDiff, fmt: str) -> str:
    """A rule diff as a standalone HTML page (``fmt="html"``) or Markdown (``"md"``)."""
    env = environments()[fmt]
    sections = []
    for key, title, items in d.component_sections():
        if not items:
            continue
        rows = [_row(c, d.kind_titles) for c in items]
        sections.append({"key": key, "title": title, "rows": rows})
    values = [
        (title, [value_line(v) for v in items])
        for title, items in (("Card-building system", d.system), ("Rulebook parameters", d.parameters), ("Terms", d.terms),
                             ("Card-cost rule", d.card_cost))
        if items
    ]
    ctx = {
        "fmt": fmt,
        "d": d,
        "title": f"{ordinal(d.a)} Edition → {ordinal(d.b)} Edition",
        "notes": diff_notes(d),
        "sections": sections,
        "values": values,
    }
    return _lf(env.get_template(f"diff.{fmt}.j2").render(**ctx))

