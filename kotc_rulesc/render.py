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

and ``index.html`` / ``index.md`` linking them all.  The HTML pages are standalone
(the style sheet is inline), readable on a phone and printable.

The lists come from the data; the prose around them is ours, in
``templates/``.  Rendering is deterministic: no clock, sorted iteration, ``\\n``
line ends.  Every string from the data is escaped (HTML by jinja2's autoescape,
Markdown by :func:`md_escape`), and characters no document may hold (NUL, other
control characters) are shown as U+FFFD.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

import jinja2
from markupsafe import Markup, escape

from .diff import (
    OPTIONAL_PARAMETERS,
    PARAMETERS,
    RuleDiff,
    card_cost_changes,
    describe_when,
    formula_text,
    limits_text,
    notes as diff_notes,
    rulebook_changes,
    show_value,
    value_line,
)
from .bundled import templates_dir
from .fold import Catalog, ComponentState
from .formula import BinOp, Call, Formula, Neg, Num, Pow, Var
from .model import EditionKey, RuleSet, When, edition_number, is_pre_release, kind_titles, ordinal
from . import prose
from .history import CLEAN_SLATE, KINDS, edition_summary
from .fold import derive_passes
from .passes import Pass
from .show import rulebook_lists, rulebook_params_json
from .view import FoldedRules
from .wordiff import Runs, word_diff

__all__ = ["render_docs", "render_diff", "TEMPLATES", "md_escape", "formula_html"]

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
    if isinstance(value, Markup):
        return value
    if isinstance(value, str):
        return _clean(value)
    return value


def _finalize_md(value: Any) -> Any:
    if isinstance(value, Markup):
        return str(value)
    if value is None:
        return ""
    if isinstance(value, str):
        return md_escape(value)
    return md_escape(str(value))


def _html_marked(runs: Runs) -> Markup:
    return Markup(runs.html(lambda s: str(escape(_clean(s)))))


def _md_marked(runs: Runs) -> Markup:
    return Markup(runs.markdown(md_escape))


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The templates compiled once, kept beside the rules cache (``KOTC_RULESC_CACHE``).

    Compiling the templates is about half a second of every build; jinja2 keys each compiled
    template by its name and a checksum of its source (and jinja2's own version), so an entry is
    never stale, only missed.  No cache directory (``KOTC_RULESC_CACHE=off``) or one that cannot
    be made: no cache, and no error."""
    from .rules_cache import cache_dir

    where = cache_dir()
    if where is None:
        return None
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
    html = jinja2.Environment(autoescape=True, finalize=_finalize_html, **common)
    html.filters["marked"] = _html_marked
    html.filters["formula"] = formula_html
    md = jinja2.Environment(autoescape=False, finalize=_finalize_md, **common)
    md.filters["marked"] = _md_marked
    md.filters["formula"] = lambda f: f.notation()
    for env in (html, md):
        env.globals.update(ordinal=ordinal, note=GENERATED_NOTE)
    return {"html": html, "md": md}


# --------------------------------------------------------------------------- formulas as HTML

_HTML_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


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
        if node.name == "ceil":
            return f"⌈{args[0]}⌉"
        if node.name == "floor":
            return f"⌊{args[0]}⌋"
        if node.name == "sum":
            return f"Σ&#8239;{args[0]}"
        return f"{node.name}({', '.join(args)})"
    assert isinstance(node, BinOp)
    prec = _HTML_PREC[node.op]
    if node.op == "/":
        # a stacked fraction needs no parentheses inside; the hidden slash is for copy and speech
        text = (
            f'<span class="frac"><span class="num">{_node_html(node.left, 0)}</span>'
            f'<span class="sr"> / </span><span class="den">{_node_html(node.right, 0)}</span></span>'
        )
        return text
    left = _node_html(node.left, prec)
    right = _node_html(node.right, prec + (node.op == "-"))
    if node.op == "*":
        text = f"{left}{right}" if isinstance(node.right, Var) and len(node.right.name) == 1 else f"{left} × {right}"
    else:
        text = f"{left} {'−' if node.op == '-' else '+'} {right}"
    return f"({text})" if prec < parent else text


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
    return {
        "id": c.id,
        "kind": c.kind,
        "formula": formula_text(c.formula, system, c.kind),
        "limits": limits_text(c.limits),
        "ultra": c.ultra,
        "text": str(c.text),
        "status": c.status,
        "status_note": status_note,
        "history": history,
    }


def _kinds(cat: Catalog) -> list[dict[str, Any]]:
    out = []
    for kind, title in kind_titles(cat.system).items():
        items = [_component_view(c, cat.system) for c in cat.components or () if c.kind == kind]
        if items:
            out.append({"kind": kind, "title": title, "intro": prose.kind_intro(cat.system, kind), "components": items})
    return out


#: the titles of the rulebook lists where a rulebook gives none (the 1st–12th rulebooks' own)
LIST_TITLES = {
    "lists": "Revised and Banned Cards",
    "revised": "Revised Ability Text",
    "redacted": "Redacted Ability Text (Banned Cards)",
    "limits": "Revised Variable Limits",
    "costs": "Revised Costs",
}


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


def _sources(rules: RuleSet, ids: Iterable[str]) -> list[dict[str, str]]:
    out = []
    for sid in sorted(set(ids)):
        src = rules.sources.get(sid)
        out.append({"id": sid, "title": src.title if src else sid, "file": src.file if src else ""})
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
        "kinds": _kinds(cat),
        "count": len(cat.components or ()),
        "cost_rule": _cost_rule(cat),
        "guide_intro": prose.guide_intro(cat.system),
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
        "rulebook_stated": bool(decl and decl.rulebook),
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
                    for item, ev in zip(getattr(step, kind.pass_field), getattr(decl, kind.key))]
            if rows:
                out["events"].append({"key": kind.key, "heading": kind.heading, "intro": kind.intro, "rows": rows})
        if step.successors:  # the clean slate's own rows, before the kinds' (kotc_rulesc.history)
            rows = [_row(CLEAN_SLATE.describe(comps[a], comps[b]), titles) for a, b in step.successors]
            out["events"].insert(0, {"key": CLEAN_SLATE.key, "heading": CLEAN_SLATE.heading, "intro": CLEAN_SLATE.intro, "rows": rows})
        if step.clean_slate:
            out["clean_slate_sentence"] = CLEAN_SLATE.sentence(n)
    if decl is not None and not decl.base:
        out["new"] = [_component_view(_declared_state(c), view.catalog(n).system) for c in decl.components]
    if decl is not None and (decl.rulebook or decl.card_cost):
        this = view.catalog(n)
        if decl.rulebook:
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
    return ComponentState(c.id, c.kind, c.text, c.formula, dict(c.limits), "legal", None, (), (), (), c.sources)


def _possible(rules: RuleSet, n: int) -> list[dict[str, str]]:
    """Undated events that may (or may not) have happened in edition ``n``: no source says."""
    out = []
    comps = rules.components()
    for decl in rules.editions:
        for word, events in ((f"{kind.noun} of", getattr(decl, kind.key)) for kind in KINDS):
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


def render_docs(rules: RuleSet) -> dict[str, str]:
    """Every page of ``generated/docs/``: ``{relative path: exact contents}``, sorted by path."""
    envs = environments()
    view = FoldedRules(rules)
    steps = {p.target: p for p in derive_passes(rules)}
    pages: dict[str, str] = {}
    names = {"edition": edition_name, "changelog": changelog_name}
    index = _index_view(rules, view)
    for fmt, env in envs.items():
        common = {"fmt": fmt, "names": names, "first": rules.first, "last": rules.last}
        pages[f"index.{fmt}"] = env.get_template(f"index.{fmt}.j2").render(**common, **index)
        for n in rules.all_keys:
            ev = _edition_view(rules, view.catalog(n))
            pages[f"{edition_name(n)}.{fmt}"] = env.get_template(f"edition.{fmt}.j2").render(**common, e=ev)
            cv = _changelog_view(rules, view, steps.get(n), n)
            pages[f"{changelog_name(n)}.{fmt}"] = env.get_template(f"changelog.{fmt}.j2").render(**common, c=cv)
    return {path: _lf(text) for path, text in sorted(pages.items())}


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

