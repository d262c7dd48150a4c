"""What a draft leaves to the maintainer, each with the sentence it rests on: where the documents
leave a question open, the draft takes the cautious reading (a possible rewording drafted as a new
component and a removal, the system inherited, a parameter left out) and says so here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..documents.guide import CARD_TEXTS
from ..documents.parameters import PARAMETERS
from ..model import ordinal
from .review import brief

__all__ = ["Decision", "decide"]


@dataclass(frozen=True)
class Decision:
    topic: str  # what it is about, a few words
    drafted: str  # what the draft says for now, and what to decide
    quotes: tuple[str, ...] = ()  # the sentences it rests on (brief)


def _sources(imp) -> list[Decision]:
    missing = [s for s in imp.sources if s not in imp.rules.sources]
    if not missing:
        return []
    base = imp.rules.editions[0].file.rsplit("/", 1)[-1]
    return [Decision("sources", f"{' and '.join(missing)} are cited but not declared: add them to {base}'s `sources:` "
                     "(file and title), or `check` reports every citation")]


def _catalog(imp) -> list[Decision]:
    ch, n = imp.changes, imp.n
    out = []
    if ch.clean_slate:
        out.append(Decision("clean slate", f"drafted `clean_slate: true` and `catalog: whole`: every older card is "
                            "pruned and nothing of the earlier catalog carries over; no `successors:` (no document "
                            "says which component takes the place of which)",
                            (brief(imp.page.sentence(r"is considered to be a clean slate edition") or ""),)))
    for q in ch.questions:
        cands = "; ".join(f"{c.component} (“{c.text}”, {c.similarity:.2f} alike)" for c in q.candidates)
        out.append(Decision("uncertain match", f"is “{q.entry.clean_text}” a rewording of {cands}? Drafted as a new "
                            f"component ({q.id}) beside the removal of the old; if it is a rewording, write the "
                            "text revision the draft's comment shows instead"))
    for r in ch.reworded:
        if r.into:
            out.append(Decision("two texts into one", f"{r.component.id} (“{r.component.text}”) is refurbished into "
                                f"the text of {r.into}: drafted `into: {r.into}` (the component the guide prints the new "
                                "text in the place of keeps its id); check which id should live on",
                                (f"“{r.row.old}” → “{r.row.new}”",)))
        if len(r.rows) > 1:
            out.append(Decision("two rows, one text", f"{r.component.id}: {len(r.rows)} rows of the table apply to "
                                f"“{r.component.text}”; the revision names the first (`row:` takes one)",
                                tuple(f"“{row.old}” → “{row.new}”" for row in r.rows)))
    drafts = [item for items in imp.page.lists.drafts.values() for item in items]
    for r in ch.removed:
        named = f"the rulebook's Redacted list names it (“{r.listed[0]}”)" if r.listed else "no list in force names it"
        drafted = [d for d in drafts if str(r.component.text).rstrip(".;:→").casefold() in d.casefold()]
        if drafted and not r.listed:
            named += f"; a draft inside an HTML comment, not in force, does: “{brief(drafted[0], 120)}”"
        out.append(Decision("removed", f"{r.component.id} (“{r.component.text}”) is not in the {ordinal(n)} guide; "
                            f"drafted as a redaction ({named}): confirm it was dropped, not reworded"
                            + (f" (new texts alike: {', '.join(f'“{c.text}” {c.similarity:.2f}' for c in r.candidates)})" if r.candidates else "")))
    for r in ch.reformulated:
        if r.level is not None and r.level[1] != n:
            out.append(Decision("level revision", f"{r.component.id}: the guide changes its formula "
                                f"({r.component.formula.notation() if r.component.formula else 'unknown'} → {r.entry.formula}), "
                                f"but the Revised Levels entry names the {ordinal(r.level[1])} edition: drafted `listed: false`",
                                (f"“{r.level[0]}” ({ordinal(r.level[1])} Edition)",)))
    for what, why in ch.unexplained:
        out.append(Decision("not explained", f"{what}: {why}"))
    for c, e in ch.ultra_changed:
        out.append(Decision("Ultra Points", f"{c.id}: the guide marks it [+{e.ultra}], the {ordinal(n - 1)} {c.ultra}; "
                            "no kind of change records a new Ultra Points value: decide how to encode it", (brief(e.raw),)))
    return out


def _kinds(imp) -> list[Decision]:
    out = []
    system = imp.prev.system
    for k in system.kinds if system else ():
        entries = [e for e in imp.guide.entries if e.kind == k.id]
        if k.title not in imp.guide.sections:
            out.append(Decision("a kind gone", f"the guide has no section “{k.title}”: the {ordinal(imp.n - 1)}'s system "
                                "still declares the kind (restate `system: kinds` without it)"))
        elif k.role != "none" and entries and all(e.formula is None for e in entries):
            out.append(Decision("formulas", f"no text of “{k.title}” prints a formula, but the {ordinal(imp.n - 1)}'s "
                                f"system gives the kind the role {k.role}: drafted `formula: unknown` (restate `system: "
                                "kinds` with `role: none` if its texts carry none now)"))
        elif e := next((e for e in entries if e.sets and (k.role != "sets" or e.sets != k.variable)), None):
            out.append(Decision("formulas", f"texts of “{k.title}” print “{e.sets} = …”, but the {ordinal(imp.n - 1)}'s "
                                f"system gives the kind the role {k.role}" + (f" ({k.variable})" if k.variable else "")
                                + ": drafted the formulas as printed; restate `system: kinds` if the kind now sets "
                                f"{e.sets}", (brief(e.raw),)))
        elif k.role == "none" and any(e.formula is not None for e in entries):
            out.append(Decision("formulas", f"texts of “{k.title}” print formulas, but the {ordinal(imp.n - 1)}'s system "
                                "gives the kind none (role: none): the formulas are in the draft's comments only"))
    for block in imp.guide.outline.blocks:
        if block.in_force and CARD_TEXTS in block.path[:-1] and block.lists() and block.title not in imp.guide.sections:
            out.append(Decision("a section not read", f"“{block.title}” under “{CARD_TEXTS}” is no kind of the "
                                f"{ordinal(imp.n - 1)}'s system: its items are not read (declare the kind in `system: kinds`)"))
    return out


def _prose(imp) -> list[Decision]:
    rv = imp.review
    if not rv.compared:
        return [Decision("card-building rules", "no previous guide was given, so the guide's rules were not compared "
                         f"with the {ordinal(imp.n - 1)}'s: `system:` and `card_cost:` are inherited unread")]
    out = []
    if imp.agreement:
        rule = imp.guide_sentence(r"should be changed to singular")
        words = ", ".join(f"“{plural}” (in “{text}”)" for plural, (_, text) in imp.agreement.items())
        out.append(Decision("system: agreement", f"{words} follow(s) a variable, and the system does not yet make "
                            "it agree with its number: drafted `system: agreement` restated with it", (f"“{brief(rule or '')}”",)))
    for keys, changes in rv.by_keys():
        quotes = tuple(f"{'now' if c.status == 'new' else 'was'}: “{brief(c.sentence.text, 120)}”" for c in changes[:2])
        names = ", ".join(f"`{k}`" for k in keys if k != "card_cost")
        where = " and ".join(x for x in ("the level rule (`card_cost:`)" if "card_cost" in keys else "",
                                         f"`system:` {names}" if names else "") if x)
        out.append(Decision("card_cost" if keys == ("card_cost",) else "system: " + ", ".join(k for k in keys),
                            f"{len(changes)} sentence(s) on {where} changed since the {ordinal(imp.n - 1)} guide "
                            "(quoted beside it below): inherited as it was; restate it if they change it", quotes))
    return out


def _rulebook(imp) -> list[Decision]:
    out = []
    before = imp.prev.rulebook
    if before is not None:
        for key in (k for k in PARAMETERS if k != "sections"):  # (the lists' titles have defaults)
            if getattr(before, key) not in (None, (), {}) and key not in imp.params:
                out.append(Decision("rulebook", f"`{key}`: the {ordinal(imp.n - 1)} rulebook states it, this one's "
                                    "sentence for it was not found: left out (unknown)"))
        if before.notes:
            out.append(Decision("rulebook notes", f"the {ordinal(imp.n - 1)}'s file has {len(before.notes)} notes "
                                "summarising its rulebook; none are drafted (write this edition's)"))
    return out


def decide(imp) -> list[Decision]:
    """Every decision the draft of ``imp`` leaves to the maintainer, in the order the header lists them."""
    return [*_sources(imp), *_catalog(imp), *_kinds(imp), *_prose(imp), *_rulebook(imp)]
