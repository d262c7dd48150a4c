"""The catalog of one edition as JSON-ready data and as text (``kotc-rulesc show``); its rulebook lists
derived as the rulebooks print them, for components not redacted by then."""

from __future__ import annotations

from typing import Any, Callable

from .citation import as_of
from .fold import Catalog, ComponentState
from .history import CLEAN_SLATE
from .history.change import describe_when, formula_text, limits_text
from .model import When, ordinal
from .system import System, kind_titles


def _limit_text(limits: dict[str, int | None]) -> str:
    return ", ".join(f"{v}≤{'unknown' if n is None else n}" for v, n in sorted(limits.items()))


def component_json(c: ComponentState) -> dict[str, Any]:
    return {
        "id": c.id,
        "kind": c.kind,
        "text": str(c.text),
        "formula": c.formula.notation() if c.formula else None,
        "limits": dict(sorted(c.limits.items())),
        "ultra": c.ultra,
        "status": c.status,
        "redacted_in": c.redacted.edition if c.redacted and c.status != "legal" else None,
        "revised_from": [{"text": str(w.text), "edition": w.replaced_in.edition, "binds": dict(sorted(w.binds.items())),
                          **({} if w.listed else {"listed": False})} for w in c.wordings],
        "cost_revised": [{"edition": ch.when.edition, "was": ch.was.notation() if ch.was else None,
                          **({} if ch.listed else {"listed": False})} for ch in c.cost_changes],
        "limits_revised": [{"edition": ch.when.edition, "limits": _limit_text(ch.now)} for ch in c.limit_changes],
        "reinstated": [{"redacted_in": red.edition, "edition": rei.edition, "sources": list(src), "note": note}
                       for red, rei, src, note in c.reinstated],
        "disagreements": [{"note": d.note, "sources": list(d.sources), "recorded_in": d.edition} for d in c.disagreements],
        "sources": list(c.sources),
    }


def history_lines(c: ComponentState, docs: bool = False) -> list[str]:
    """A component's earlier wordings, formulas and limits, reinstatements and disagreements, a line
    each: as ``show`` prints them, or (``docs``) in the docs site's quotes, dates and limits."""
    when = describe_when if docs else When.describe
    quote, aside = ("“{}”", ", ") if docs else ('"{}"', "; ")
    limits = limits_text if docs else lambda lim: "{" + _limit_text(lim) + "}"
    lines = []
    for w in c.wordings:
        unlisted = "" if w.listed else f"{aside}in no rulebook list"
        lines.append(f"{'Revised' if w.listed else 'Reworded'} from: {quote.format(w.text)} "
                     f"({when(w.replaced_in)}{unlisted})")
        lines += w.formula_note(when(w.replaced_in))
    for ch in c.cost_changes:
        said = "Cost Revised" if ch.listed else "Formula changed"
        unlisted = "" if ch.listed else f"{aside}in no rulebook list: it prunes no card"
        lines.append(f"{said} ({when(ch.when)}{unlisted}); was: {formula_text(ch.was)}")
    for ch in c.limit_changes:
        was = limits(ch.was) if ch.was else "no limit"
        lines.append(f"Limit Revised ({when(ch.when)}): {limits(ch.now)}; was: {was}")
    for red, rei, _, note in c.reinstated:
        noted = f": {note}" if note and docs else ""
        lines.append(f"Redacted ({when(red)}), reinstated ({when(rei)}){noted}")
    lines += [f"Documents disagree ({', '.join(d.sources)}): {d.note}" for d in c.disagreements]
    return lines


#: the rulebook's lists, in the order ``show`` gives them
_LISTS = ("refurbished", "revised_text", "unlisted_text", "redacted", "revised_limits", "revised_costs")


def rulebook_lists(cat: Catalog, when: Callable[[When | None], Any] = lambda w: w and w.edition
                   ) -> dict[str, list[dict[str, Any]]]:
    """The rulebook's "Revised and Banned Cards" lists for this edition (each event's edition as
    ``when`` gives it).

    A revision that follows a row of a Refurbished Card Texts table (the 14th on) is listed as the
    rulebook lists it: the row, once, with the texts it reworded; a revision no list names
    (``listed: false``) is in ``unlisted_text``, not in a rulebook list."""
    lists: dict[str, list[dict[str, Any]]] = {name: [] for name in _LISTS}
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for c in cat.components or ():
        if c.status == "unknown":
            continue  # may or may not be redacted yet: in no list rather than in a wrong one
        if c.status == "redacted":
            lists["redacted"].append({"text": str(c.text), "edition": when(c.redacted)})
            continue
        for w in c.wordings:
            texts = {"old": w.text.render({}), "new": w.replaced_by.render(w.step_binds)}
            if w.row is not None:  # (a table row is dated by an edition, never by a window)
                dated = w.replaced_in if w.replaced_in.edition is not None else None
                new_row = {"old": w.row[0], "new": w.row[1], "edition": when(dated), "texts": []}
                row = rows.setdefault(w.row, new_row)
                row["texts"].append(texts)
            else:
                revised = lists["revised_text" if w.listed else "unlisted_text"]
                revised.append({**texts, "edition": when(w.replaced_in)})
        lists["revised_limits"] += [{"text": str(c.text), "limit": _limit_text(ch.now),
                                     "edition": when(ch.when)} for ch in c.limit_changes]
        listed = [ch for ch in c.cost_changes if ch.listed]  # (an unlisted change is in no rulebook list)
        if listed:
            lists["revised_costs"].append({"text": str(c.text), "edition": when(listed[-1].when)})
    key = lambda item: (item.get("old") or item.get("text")).casefold()  # noqa: E731 - the rulebooks sort alphabetically
    for row in rows.values():
        row["texts"].sort(key=key)
    lists["refurbished"] = list(rows.values())
    return {name: sorted(items, key=key) for name, items in lists.items()}


def rulebook_params_json(cat: Catalog) -> dict[str, Any] | None:
    rb = cat.rulebook
    if rb is None:
        return None

    def rng(r):
        if r is None:
            return None
        return {"min": r.min, "max": r.max, "recommended": list(r.recommended) if r.recommended else None}

    return {
        "sources": list(rb.sources),
        "players": rng(rb.players),
        "deck": rng(rb.deck),
        "reserves": rng(rb.reserves),
        "starting_hand": rb.starting_hand,
        "starting_hitpoints": rb.starting_hitpoints,
        "deck_ultra_points": rb.deck_ultra_points,
        "sections": dict(rb.sections),
        "edition_indicator": rb.edition_indicator,
        "cost_revised": rb.cost_revised,
        "exhaustive_lists": rb.exhaustive_lists,
        "terms": dict(rb.terms),
        "zones": list(rb.zones),
        "ability_layout": list(rb.ability_layout),
        "keywords": list(rb.keywords),
        "notes": list(rb.notes),
    }


def cost_rule_json(cat: Catalog) -> dict[str, Any] | None:
    rule = cat.cost_rule
    if rule is None:
        return None
    return {
        "stated": cat.cost_rule_stated,
        "stated_in": rule.edition,
        "sources": list(rule.sources),
        **{name: f.notation() for name, f in rule.parts()},
    }


def _cited(rule: Any) -> dict[str, Any]:
    return {"modal": rule.modal, "sources": list(rule.sources), "quote": rule.quote}


def writing_rules_json(system: System) -> dict[str, Any]:
    """The card-writing rules of a system, each with its modal, sources and quote (``show``, ``diff``)."""
    a, t, n, tu = system.agreement, system.targets, system.naming, system.tutorial
    return {
        "agreement": None if a is None else {**_cited(a), "nouns": dict(a.nouns), "verbs": dict(a.verbs),
                                             "qualifiers": list(a.qualifiers), "stops": list(a.stops)},
        "targets": None if t is None else {"sources": list(t.sources), "kind": t.kind, "counted": list(t.counted),
                                           "single": list(t.single)},
        "variations": [{**_cited(v), "kinds": list(v.kinds), "forms": {k: list(f) for k, f in v.forms}, "when": v.when}
                       for v in system.variations],
        "joins": [{**_cited(j), "after": j.after, "before": j.before, "end": j.end, "words": list(j.words),
                   "series": dict(zip(("two", "between", "last"), j.series)) if j.series else None, "lower": j.lower}
                  for j in system.joins],
        "capitals": [{**_cited(c), "kinds": list(c.kinds)} for c in system.capitals],
        "naming": None if n is None else {**_cited(n), "case": n.case},
        "tutorial": None if tu is None else {**_cited(tu), "italics": tu.italics},
    }


def system_json(system: System | None) -> dict[str, Any] | None:
    """The card-building system as ``show --format json`` prints it (None: unknown)."""
    if system is None:
        return None
    return {
        "stated_in": system.edition,
        "sources": list(system.sources),
        "figure": {"name": system.figure, "title": system.figure_title, "parts": system.parts},
        "types": [{"id": t.id, "stats": [{"name": s.name, "min": s.min, "max": s.max} for s in t.stats],
                   "abilities": {"min": t.abilities_min, "max": t.abilities_max}, "empty_text": t.empty_text,
                   "empty_modal": t.empty_modal if t.empty_text else None, "names": t.names} for t in system.types],
        "kinds": [{"id": k.id, "title": k.title, "noun": k.noun, "role": k.role, "word": k.role_word, "place": k.place,
                   "types": list(k.types), "min": k.min, "max": k.max, "variable": k.variable,
                   "default": k.default.notation() if k.default is not None else None} for k in system.kinds],
        "ability": list(system.ability),
        "sub_ability": list(system.sub_ability),
        **writing_rules_json(system),
    }


def writing_rules_text(system: System, edition: Any = None) -> list[str]:
    """The card-writing rules, one line each: what the rule does, its modal and sources (those written by
    ``edition``, where the rules of one edition are shown: :func:`~kotc_rulesc.citation.as_of`)."""
    noun = system.noun
    lines = []

    def line(what: str, rule: Any, modal: str | None = None) -> None:
        lines.append(f"    {what} ({modal or rule.modal}; {', '.join(as_of(rule.sources, edition))})")

    if system.agreement is not None:
        a = system.agreement
        line(f"singular for 1: {', '.join(f'{p}/{s}' for p, s in a.nouns + a.verbs)}", a)
    for v in system.variations:
        forms = "; ".join(f'"{k.strip()}" → ' + (" or ".join(f'"{f}"' if f else "nothing" for f in fs)) for k, fs in v.forms)
        when = " where the targets can never be more than one" if v.when == "one-target" else ""
        line(f"{' and '.join(noun(k) + 's' for k in v.kinds)}: {forms}{when}", v)
    for j in system.joins:
        line(f"{noun(j.after)} → {noun(j.before)}: {j.describe()} in place of its \"{j.end}\""
             + (" (the next text lowercase)" if j.lower else ""), j)
    for c in system.capitals:
        line(f"{' and '.join(noun(k) + 's' for k in c.kinds)}: first letter capitalized where it opens its place", c)
    if system.naming is not None:
        line("ability names: " + ("in capitals" if system.naming.case == "upper" else "in any case") + ", then a colon",
             system.naming)
    if system.tutorial is not None:
        t = system.tutorial
        if t.italics:  # (each modal after its own words: "in parentheses (must), in italics (should; …)")
            line(f"tutorial text in parentheses ({t.modal}), in italics", t, t.italics)
        else:
            line("tutorial text in parentheses", t)
    return (["  card-writing rules:"] + lines) if lines else []


def system_text(system: System | None, edition: Any = None) -> list[str]:
    """The card-building system in a few lines, for ``show`` (of ``edition``)."""
    if system is None:
        return ["Card-building system: unknown"]
    lines = [f"Card-building system ({', '.join(as_of(system.sources, edition))}; the card's figure: {system.figure_title}):"]
    for t in system.types:
        stats = ", ".join(s.describe() for s in t.stats)
        count = (f"exactly {t.abilities_min}" if t.abilities_min == t.abilities_max
                 else f"{t.abilities_min} or more" if t.abilities_max is None else f"{t.abilities_min}–{t.abilities_max}")
        empty = (f'; without abilities it {"prints" if t.empty_modal == "must" else "may print"} "{t.empty_text}"'
                 if t.empty_text else "")
        lines.append(f"  {t.id}: {stats + '; ' if stats else ''}{count} abilit{'y' if count == 'exactly 1' else 'ies'}{t.names_note}{empty}")
    for k in system.kinds:
        where = {"card": "a paragraph of its own", "ability": "in an ability", "sub_ability": "in a sub-ability"}[k.place]
        only = f", {', '.join(k.types)} only" if k.types else ""
        many = "any number" if k.max is None else f"at most {k.max}"
        role = f"sets {k.variable}" + (f" (default {k.default.notation()})" if k.default is not None else "") if k.role == "sets" else k.role_word
        lines.append(f"  {k.title} ({k.noun}): {role}, {where}{only}, {many}{', at least ' + str(k.min) if k.min else ''}")
    sub = f" → sub-abilities, one sentence each ({' → '.join(system.kind(k).noun for k in system.sub_ability)})" if system.sub_ability else ""
    lines.append(f"  an ability: {' → '.join(system.kind(k).noun for k in system.ability)}{sub}")
    lines += writing_rules_text(system, edition)
    return lines


def catalog_json(cat: Catalog) -> dict[str, Any]:
    """The JSON of ``kotc-rulesc show --format json``."""
    return {
        "edition": cat.edition,
        "catalog_known": cat.catalog_known,
        "clean_slate": bool(cat.declared and cat.declared.clean_slate),
        "pre_release": bool(cat.declared and cat.declared.pre_release),
        "follows": cat.declared.follows if cat.declared else None,
        "components": [component_json(c) for c in cat.components] if cat.components is not None else None,
        "rulebook": {
            **(rulebook_lists(cat) if cat.components is not None else dict.fromkeys(_LISTS)),
            "parameters": rulebook_params_json(cat),
        },
        "card_cost": cost_rule_json(cat),
        "system": system_json(cat.system),
        "disagreements": [{"component": d.component, "note": d.note, "sources": list(d.sources),
                           "recorded_in": d.edition} for d in cat.disagreements],
    }


def edition_disagreements(cat: Catalog, components: bool = False) -> list[tuple[str, str]]:
    """(sources, note) of each disagreement this edition's own file records about no one component (those
    about a component are in its history; with ``components``, they too, after its text): "guide-12",
    "The 12th guide's Target Selections section says …"."""
    texts = {c.id: str(c.text) for c in cat.components or ()} if components else {}
    return [(", ".join(d.sources), (f"“{texts[d.component]}”: " if d.component in texts else "") + d.note)
            for d in cat.disagreements if d.edition == cat.edition and (d.component is None or d.component in texts)]


#: what the rulebook's rule on cards older than a cost revision of one of their texts says (Rulebook.cost_revised)
_COST_REVISED = {
    "reissue": "must bear a later Edition Indicator (migrate re-issues them)",
    "prune": "pruned (migrate keeps them as they were; --reissue re-issues them)",
}


def catalog_text(cat: Catalog) -> str:
    """A readable listing of the catalog, grouped by kind as the guide is."""
    lines = [f"Keeper of the Cards — {ordinal(cat.edition)} Edition"]
    if cat.declared and cat.declared.pre_release:
        lines.append(f"A pre-release of the {ordinal(cat.number)} Edition, following the {ordinal(cat.declared.follows)}: "
                     "a branch beside the main line.")
    if cat.declared and cat.declared.clean_slate:
        rule = CLEAN_SLATE.rule(cat.edition, cat.rulebook)
        lines.append(f"Clean-slate edition: {rule or f'every card without an Edition Indicator of the {ordinal(cat.edition)} or later is banned'}.")
    if cat.components is None:
        lines.append("Component catalog: unknown (no source gives this edition's Card Building Guide).")
    else:
        for kind, title in kind_titles(cat.system).items():
            comps = [c for c in cat.components if c.kind == kind]
            if not comps:
                continue
            lines += ["", title]
            for c in comps:
                limits = f" {{{_limit_text(c.limits)}}}" if c.limits else ""
                ultra = f" [+{c.ultra}]" if c.ultra else ""
                redacted = ordinal(c.redacted.edition) if c.redacted and c.redacted.edition else "edition unknown"
                mark = {"legal": "", "redacted": f"  [REDACTED {redacted}]",
                        "unknown": "  [status unknown: redacted at an unknown edition]"}[c.status]
                lines.append(f"  ({formula_text(c.formula, cat.system, kind)}){limits}{ultra} \"{c.text}\"{mark}")
                lines += [f"      {line}" for line in history_lines(c)]
    lines.append("")
    lines += system_text(cat.system, cat.edition)
    lines.append("")
    if cat.cost_rule is None:
        lines.append("Card-cost rule: unknown")
    else:
        note = "" if cat.cost_rule_stated else f"  (not stated for this edition; the {ordinal(cat.cost_rule.edition)} edition's rule is used)"
        lines.append(f"Card-cost rule{note}:")
        for name, f in cat.cost_rule.parts():
            lines.append(f"  {name} = {f.notation()}")
    rb = cat.rulebook
    lines.append("")
    if rb is None:
        lines.append("Rulebook parameters: unknown (no source gives this edition's rulebook)")
    else:
        lines.append(f"Rulebook parameters ({', '.join(as_of(rb.sources, cat.edition))}):")
        for label, value in (
            ("players", rb.players.describe() if rb.players else None),
            ("deck", rb.deck.describe() if rb.deck else None),
            ("reserves", rb.reserves.describe() if rb.reserves else None),
            ("starting hand", rb.starting_hand),
            ("starting hitpoints", rb.starting_hitpoints),
            *([("Ultra Points per deck", f"at most {rb.deck_ultra_points}")] if rb.deck_ultra_points is not None else []),
            ("Edition Indicator", None if rb.edition_indicator is None else
             "required (a card without one is invalid)" if rb.edition_indicator == "required" else ("yes" if rb.edition_indicator else "no")),
            *([("cards older than a cost revision", _COST_REVISED.get(rb.cost_revised, rb.cost_revised))]
              if rb.cost_revised is not None else []),
            *([("lists of revised and banned cards", "exhaustive (a card keeps its design edition's figure unless "
                "a list prunes it)")] if rb.exhaustive_lists else []),
            ("terms", ", ".join(f"{k} = {v}" for k, v in rb.terms.items()) or None),
            ("zones", ", ".join(rb.zones) or None),
            ("ability layout", " → ".join(rb.ability_layout) or None),
        ):
            lines.append(f"  {label}: {'unknown' if value is None else value}")
    disagree = edition_disagreements(cat)
    if disagree:
        lines += ["", f"Documents disagree (recorded for the {ordinal(cat.edition)} Edition):"]
        lines += [f"  ({sources}) {note}" for sources, note in disagree]
    return "\n".join(lines) + "\n"
