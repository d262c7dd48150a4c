"""The draft rules file of an imported edition, in the form and order of the hand-written ones: a
header saying what changed and what needs the maintainer's decision, then every change, each citing
``guide-NN`` or ``rulebook-NN`` and briefly quoting its words.  Strings are written as JSON strings
(valid YAML double-quoted scalars), so nothing needs escaping by hand.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from ..documents.parameters import PARAMETERS
from ..formula import FormulaError, parse_formula
from ..history.change import quoted
from ..model import ordinal
from .review import brief

__all__ = ["draft_text"]


def _flow(value: Any) -> str:
    """A value as YAML flow: {min: 2, recommended: [2, 8]}, ["Deck", "Grave"], true."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value if re.fullmatch(r"[a-z]+", value) else quoted(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k if re.fullmatch(r'[A-Za-z_]+', k) else quoted(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(_flow(v) for v in value) + "]"


def _comment(text: str, prefix: str = "# ", cont: str | None = None) -> list[str]:
    """``text`` as comment lines of at most 100 characters: the first begins with ``prefix``, the
    others with ``cont`` (default: the same)."""
    cont = prefix if cont is None else cont
    return textwrap.wrap(" ".join(text.split()), 100, initial_indent=prefix, subsequent_indent=cont,
                         break_long_words=False, break_on_hyphens=False) or [prefix]


def _formula_line(imp, entry) -> list[str]:
    """The ``formula:`` line of a new component (none for a kind whose texts carry no formula)."""
    kind = imp.prev.system.kind(entry.kind) if imp.prev.system else None
    if kind is not None and kind.role == "none":
        return [f"    # the guide prints ({entry.formula}); the kind carries no formula (role: none)"] if entry.formula else []
    if entry.formula is None:
        return ["    formula: unknown  # the guide prints no formula"]
    try:
        parse_formula(entry.formula)
    except FormulaError as exc:
        return [f"    formula: unknown  # the guide prints ({entry.formula}), which does not read as a formula: {exc}"]
    return [f"    formula: {quoted(entry.formula)}  # {quoted(brief(entry.raw, 120))}"]


def _header(imp, option: str) -> list[str]:
    n, ch = imp.n, imp.changes
    counts = ch.counts()
    lines = [
        *_comment(f"Edition {n}: a DRAFT, written by `kotc-rulesc import-edition {n}` from the {ordinal(n)} Card Building "
                  f"Guide and Rulebook ({imp.guide_id}, {imp.rulebook_id}), as a "
                  + ("clean slate." if ch.clean_slate else f"delta over the {ordinal(n - 1)} (its catalog folded from the rules).")),
        f"# Review it, then: kotc-rulesc check{option} && kotc-rulesc diff {n - 1} {n}{option} && kotc-rulesc build{option}",
        f"# What the {ordinal(n)} changed, read against the {ordinal(n - 1)}:",
        *_comment(f"the guide lists {len(imp.guide.entries)} texts: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v) + ";",
                  "# - ", "#   "),
        *_comment(f"the rulebook's Refurbished Card Texts: {len(imp.page.lists.revised)} row(s) in force; Revised Levels: "
                  f"{len(imp.page.lists.levels)} entr{'y' if len(imp.page.lists.levels) == 1 else 'ies'} in force"
                  + (f"; drafts (HTML comments, not in force): {', '.join(imp.page.lists.drafts)}." if imp.page.lists.drafts else "."),
                  "# - ", "#   "),
    ]
    if imp.decisions:
        lines.append(f"# NEEDS A MAINTAINER'S DECISION ({len(imp.decisions)}), each with the words it rests on:")
        for i, d in enumerate(imp.decisions, 1):
            quotes = f" — {'; '.join(d.quotes)}" if d.quotes else ""
            lines += _comment(f"{i}. [{d.topic}] {d.drafted}{quotes}", "# ", "#    ")
    else:
        lines.append("# Nothing is left for a maintainer's decision beyond reviewing the draft.")
    return lines


#: at most this many changed sentences are quoted beside a key (the report has every one)
_QUOTED = 12


def _system(imp) -> list[str]:
    groups = [(keys, changes) for keys, changes in imp.review.by_keys() if keys != ("card_cost",)]
    lines = []
    if groups:
        restated = " (`agreement` restated below)" if imp.agreement else " (not restated)"
        lines += [f"# system: inherited from the {ordinal(imp.n - 1)}{restated}. REVIEW: the guide's sentences on these keys",
                  f"# changed since the {ordinal(imp.n - 1)} guide (now: in this guide; was: only in the earlier one):"]
        for keys, changes in groups:
            lines.append(f"#   {', '.join(k for k in keys if k != 'card_cost')}:")
            for c in changes[:_QUOTED]:
                lines += _comment(f"{'now' if c.status == 'new' else 'was'}: {quoted(brief(c.sentence.text))}", "#     ", "#       ")
            if len(changes) > _QUOTED:
                lines.append(f"#     … and {len(changes) - _QUOTED} more (the report lists every one)")
    if imp.agreement:
        agreement = imp.prev.system.agreement
        nouns = {**dict(agreement.nouns), **{p: s for p, (s, _) in imp.agreement.items()}}
        # the rule's own sentence where this guide still prints it, else the guide's sentence that says it
        sentence = imp.guide_sentence(re.escape(agreement.quote)) or imp.guide_sentence(r"should be changed to singular")
        lines += ["system:", f"  source: {imp.guide_id}",
                  *_comment(f"REVIEW: {', '.join(quoted(p) for p in imp.agreement)} follow(s) a variable in a new text; "
                            f"{quoted(brief(sentence or ''))}: the agreeing words are the {ordinal(imp.n - 1)}'s and "
                            f"{'these' if len(imp.agreement) > 1 else 'this one'}", "  # "),
                  "  agreement:", f"    modal: {agreement.modal}", f"    source: {_flow([imp.guide_id])}",
                  f"    quote: {quoted(sentence or agreement.quote)}",
                  f"    nouns: {_flow(nouns)}", f"    verbs: {_flow(dict(agreement.verbs))}"]
        lines += [f"    qualifiers: {_flow(list(agreement.qualifiers))}"] if agreement.qualifiers else []
        lines += [f"    stops: {_flow(list(agreement.stops))}"] if agreement.stops else []
    return lines + [""] if lines else []


def _components(imp) -> list[str]:
    new = imp.changes.new
    if not new:
        return ["components: []", ""]
    lines = ["components:"]
    section = None
    for item in new:
        e = item.entry
        if e.section != section:
            section = e.section
            lines.append(f"  # {section} ({imp.guide_id}, in the guide's order)")
        if item.candidates:
            asked = ", ".join(f"{c.component} ({quoted(c.text)}, {c.similarity:.2f} alike)" for c in item.candidates)
            lines += _comment(f"QUESTION: is this a rewording of {asked}? "
                              "Drafted as a new component, the old one as removed (redactions:). If it is a rewording, "
                              "delete this entry and that redaction, and write under text_revisions:", "  # ")
            lines += [f"  #   - component: {item.candidates[0].component}", f"  #     text: {quoted(e.clean_text)}",
                      "  #     listed: false", f"  #     source: {imp.guide_id}"]
        lines += [f"  - id: {item.id}", f"    kind: {e.kind}", f"    text: {quoted(e.clean_text)}", *_formula_line(imp, e)]
        if e.limits:
            lines.append(f"    limits: {_flow(e.limits)}")
        if e.ultra:
            lines.append(f"    ultra: {e.ultra}" + ("" if e.formula else f"  # {quoted(brief(e.raw, 120))}"))
        lines.append(f"    source: {imp.guide_id}")
    return lines + [""]


def _text_revisions(imp) -> list[str]:
    reworded = imp.changes.reworded
    if not reworded:
        return []
    order = {id(e): i for i, e in enumerate(imp.guide.entries)}
    rows = imp.page.lists.revised
    listed = sorted((r for r in reworded if r.row is not None and not r.into), key=lambda r: (rows.index(r.row), order[id(r.entry)]))
    for r in sorted((r for r in reworded if r.into), key=lambda r: rows.index(r.row)):  # after the revision of the text it takes
        at = next((i for i, x in enumerate(listed) if x.component.id == r.into), len(listed) - 1)
        listed.insert(at + 1, r)
    unlisted = sorted((r for r in reworded if r.row is None), key=lambda r: order[id(r.entry)])
    lines = ["# The rulebook's Refurbished Card Texts table (in force): \"Any card containing any exact original text",
             "# indicated here is refurbished as shown.\" Each row rewords the texts of the catalog that contain its",
             "# original text; a rewording no table lists is `listed: false`.", "text_revisions:"]
    current = None
    for r in listed + unlisted:
        head = f"  # Row “{r.row.old}” → “{r.row.new}”" if r.row else "  # UNLISTED: the guide changes this wording; no rulebook lists it."
        if head != current:
            lines.append(head)
            current = head
        lines += [f"  - component: {r.component.id}  # was: {quoted(str(r.component.text))}",
                  f"    text: {quoted(r.entry.clean_text)}  # {imp.guide_id}: {quoted(brief(r.entry.raw, 120))}"]
        missing = sorted(set(re.findall(r"\[([a-z])\]", r.entry.clean_text)) - set(re.findall(r"\[([a-z])\]", str(r.component.text))))
        if missing:
            lines.append(f"    # REVIEW: the new text has [{'], ['.join(missing)}] the old lacks: add `binds:` (what old cards stand for)")
        if r.row is not None:
            lines.append(f"    row: {{old: {quoted(r.row.old)}, new: {quoted(r.row.new)}}}")
            if r.into:
                lines.append(f"    into: {r.into}  # the same new text: the two components become one")
            lines.append(f"    source: [{imp.guide_id}, {imp.rulebook_id}]")
        else:
            lines += ["    listed: false  # in no Refurbished Card Texts table",
                      f"    note: {quoted('UNLISTED: the guide changes this wording; no rulebook lists it.')}",
                      f"    source: {imp.guide_id}"]
    return lines + [""]


def _list(key: str, entries: list[list[str]]) -> list[str]:
    """A list of the rules file (``redactions:`` …), one entry's lines after another; nothing when empty."""
    return [f"{key}:", *(line for entry in entries for line in entry), ""] if entries else []


def _redactions(imp) -> list[str]:
    ch = imp.changes
    removed = [[f"  - component: {r.component.id}  # {quoted(str(r.component.text))}",
                "    notes: [" + quoted(f"the rulebook's Redacted list names it: “{r.listed[0]}”" if r.listed else
                                    f"REVIEW: the {ordinal(imp.n)} guide no longer lists it, and no list in force names it") + "]",
                f"    source: {f'[{imp.guide_id}, {imp.rulebook_id}]' if r.listed else imp.guide_id}"] for r in ch.removed]
    again = [[f"  - component: {c.id}  # {quoted(str(c.text))}",
              f"    note: {quoted(f'redacted before, listed again by the {ordinal(imp.n)} guide')}",
              f"    source: {imp.guide_id}"] for c, _ in ch.reinstated]
    return _list("redactions", removed) + _list("reinstatements", again)


def _formula_change(imp, r) -> list[str]:
    was = r.component.formula.notation() if r.component.formula else "unknown"
    new = r.entry.formula if r.entry.formula is not None else "unknown"
    said = f"was: {was}; {imp.guide_id}: {quoted(brief(r.entry.raw, 100))}"
    lines = [f"  - component: {r.component.id}  # {quoted(r.entry.clean_text)}"]
    if r.listed:
        return lines + [f"    formula: {quoted(new)}  # {said}; Revised Levels: {quoted(r.level[0])} ({ordinal(r.level[1])} Edition)",
                        f"    source: [{imp.guide_id}, {imp.rulebook_id}]"]
    note = f"The {ordinal(imp.n)} guide changes the formula; no rulebook list names the change, so it prunes no card designed before."
    return lines + [f"    formula: {quoted(new)}  # {said}", "    listed: false  # no Revised Levels entry of this edition names it",
                    f"    note: {quoted(note)}", f"    source: {imp.guide_id}"]


def _cost_revisions(imp) -> list[str]:
    ch = imp.changes
    levels = imp.page.lists.levels or imp.page.lists.costs
    order = {id(e): i for i, e in enumerate(imp.guide.entries)}
    listed = sorted((r for r in ch.reformulated if r.listed), key=lambda r: levels.index(r.level))
    unlisted = sorted((r for r in ch.reformulated if not r.listed), key=lambda r: order[id(r.entry)])
    limits = [[f"  - component: {c.id}  # was: {_flow(dict(c.limits)) if c.limits else '{no limit}'}",
               f"    limits: {_flow(e.limits)}", f"    source: {imp.guide_id}"] for c, e in ch.relimited]
    return _list("cost_revisions", [_formula_change(imp, r) for r in listed + unlisted]) + _list("limit_revisions", limits)


def _card_cost(imp) -> list[str]:
    rule = imp.prev.cost_rule
    by_key = imp.review.by_key()
    if rule is None:
        return []
    if "card_cost" in by_key:
        lines = [f"# card_cost: inherited from the {ordinal(rule.edition)} (not restated). REVIEW: the guide's Level section changed:"]
        for c in by_key["card_cost"]:
            lines += _comment(f"{'now' if c.status == 'new' else 'was'}: {quoted(brief(c.sentence.text))}", "#   ", "#     ")
        return lines + [""]
    if not imp.review.section_unchanged("Level") or imp.guide.section_paragraphs("Level") is None:
        return []
    lines = [f"# How a card's level is computed in the {ordinal(imp.n)} edition: its guide's \"Level\" section is word for",
             f"# word the {ordinal(imp.n - 1)} guide's, so the rule is restated as it stands.",
             "card_cost:", f"  source: {imp.guide_id}"]
    lines += [f"  {name}: {quoted(f.notation())}" for name, f in rule.parts()]
    return lines + [""]


def _rulebook(imp) -> list[str]:
    params = imp.params
    lines = [f"# Rulebook parameters of the {ordinal(imp.n)} edition, each read from the sentence quoted beside it.",
             "rulebook:", f"  source: {imp.rulebook_id}"]
    for key in PARAMETERS:
        fact = params.get(key)
        if fact is None:
            continue
        if key == "keywords":
            lines.append("  keywords:  # the headings of its \"Keywords\" section, in order")
            lines += [f"    - {quoted(k)}" for k in fact.value]
            continue
        quote = "  # " + " ".join(quoted(brief(q, 150)) for q in fact.quotes) if fact.quotes else ""
        lines.append(f"  {key}: {_flow(fact.value)}{quote}")
    lines.append("")
    lists = imp.page.lists
    notes = []
    for title, items in lists.drafts.items():
        notes.append(f"- “{title}” (COMMENTED OUT in the rulebook: not in force, not encoded): "
                     + ("; ".join(brief(i, 120) for i in items) if items else "no entry"))
    for text, edition in lists.levels:
        if edition != imp.n:
            notes.append(f"- Revised Levels: “{text}” ({ordinal(edition)} Edition) — an earlier edition's, encoded in its file")
    if notes:
        lines.append(f"# The {ordinal(imp.n)} rulebook's lists beyond what is drafted above:")
        for note in notes:
            lines += _comment(note, "# ", "#   ")
    return lines


def draft_text(imp, modeline: str | None = None, option: str = "") -> str:
    """The draft rules file of ``imp`` (:class:`~kotc_rulesc.importer.Import`); ``option`` is how the commands
    its header names find these rules (`` --rules DIR``, or nothing for the checkout's own)."""
    lines = [modeline] if modeline else []
    lines += _header(imp, option)
    lines += [f"edition: {imp.n}", f"follows: {imp.n - 1}", f"source: [{imp.guide_id}, {imp.rulebook_id}]"]
    if imp.changes.clean_slate:
        said = imp.page.sentence(r"is considered to be a clean slate edition") or ""
        lines += [f"clean_slate: true  # {imp.rulebook_id}: {quoted(brief(said, 150))}",
                  "catalog: whole  # the components below are its whole catalog: nothing earlier carries over"]
    lines.append("")
    lines += _system(imp)
    lines += _components(imp)
    lines += _text_revisions(imp)
    lines += _redactions(imp)
    lines += _cost_revisions(imp)
    lines += _card_cost(imp)
    lines += _rulebook(imp)
    return "\n".join(lines).rstrip("\n") + "\n"
