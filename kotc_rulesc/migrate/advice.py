"""What the migration report tells the player about a card it decided: a printed figure that is not the
target edition's, one already wrong in its own edition, a legal replacement for a redacted component, and
what to do with a card kept as it was (``remedy``) — each checked by judging the card so changed.
Each takes the :class:`~kotc_rulesc.migrate.plan.Migrator` (``m``) for its view, target, words and judge."""

from __future__ import annotations

from typing import Any

from ..model import edition_number, ordinal
from ..outcomes import outcome_word
from ..text import normalize
from .rewrite import map_sentences

__all__ = ["MARK", "without_mark", "rendered", "figure_notes", "remedy", "printed_cost_notes", "replacement"]

#: the field a card that does not end legal is marked with (replaced on every migration)
MARK = "migration"


def without_mark(card: dict, fields: dict[str, Any]) -> dict:
    """A copy of ``card`` to judge: without the marker, ``fields`` set."""
    out = {k: v for k, v in card.items() if k != MARK}
    out.update(fields)
    return out


def rendered(comp: Any, values: dict[str, Any]) -> str | None:
    """The text of ``comp`` (a successor, a replacement) with ``values``; None when one is missing."""
    if not set(comp.text.variables) <= set(values):
        return None
    return comp.text.render({v: values[v] for v in comp.text.variables})


def figure_notes(m: Any, j: Any, source: int) -> tuple[str, ...]:
    """Say so when a legal card's printed figure is not what the target edition's formulas give: its
    design edition's stands where the target's rulebook lists every case that prunes a card."""
    own = j.breakdown["total"] if j.breakdown else None  # by the target's formulas (j.cost: the card's)
    if j.printed_cost is None or own is None or j.printed_cost == own:
        return ()
    n = m.target
    return (f"its printed {j.figure} {j.printed_cost} stays: by the {ordinal(n)} edition's formulas it is "
            f"{own}, but the {ordinal(n)} rulebook's lists, which name every case in which a card is "
            f"{outcome_word('banned', m.words)}, name none that does so to this card (its {j.figure} is its "
            f"design edition's, the {ordinal(source)})",)


def remedy(m: Any, card: Any, j: Any, status: str, reissue: str | None = None, replacement: Any = None) -> str | None:
    """What the player can do with a card kept as it was, to use it in the target edition (``reissue``:
    what ``--reissue`` would change on it)."""
    n = m.target
    redesign = f"redesign it under the {ordinal(n)} edition's guide"
    if status == "unknown":
        return None  # (no source says whether it may be used: nothing to do but wait for one)
    if status == "error":
        return "correct what the reasons name, and migrate it again"
    if reissue:
        return f"migrate it with --reissue to have it re-issued: {reissue}; or {redesign}"
    if replacement:
        return f"print the suggested replacement instead, or {redesign}"
    fix = _printed_fix(m, card, j)
    if fix:
        said = " and ".join(f"the Edition Indicator {v} (`edition: {v}`)" if k == "edition" else f"the {k} {v}"
                            for k, v in fix.items())
        return f"print {said} on it: it is then a legal card of the {ordinal(n)} edition"
    return redesign


def _printed_fix(m: Any, card: Any, j: Any) -> dict[str, Any]:
    """The printed fields that make a card kept as it was legal in the target edition, where only they
    keep it out: the Edition Indicator the rulebook requires (a card without one whose text reads as the
    target's), a wrong printed figure; checked by judging the card so printed.  Empty: none does."""
    codes = {r.code for r in j.reasons}
    if not isinstance(card, dict) or j.cost is None or not codes & {"invalid", "cost-mismatch"}:
        return {}
    fix: dict[str, Any] = {}
    if "invalid" in codes and card.get("edition") is None:
        fix["edition"] = edition_number(m.target)
    if card.get(j.figure) != j.cost:
        fix[j.figure] = j.cost
    if fix and m.judge(without_mark(card, fix), m.target, m.view).status == "legal":
        return fix
    # where the target's rulebook keeps a card's design-edition figure (a formula changed since, in no
    # list), that figure is the one to print
    design = card.get("edition")
    if j.figure in fix and type(design) is int and design < edition_number(m.target) and design in m.view.keys:
        fix[j.figure] = m.judge(without_mark(card, {}), design, m.view).cost
        if fix[j.figure] is not None and m.judge(without_mark(card, fix), m.target, m.view).status == "legal":
            return fix
    return {}


def printed_cost_notes(m: Any, card: dict, source: int, new_cost: int | None) -> tuple[str, ...]:
    """Say so when the printed cost was already wrong in the card's own edition."""
    catalog = m.view.catalog(source)
    figure = catalog.system.figure
    printed = card.get(figure)
    if type(printed) is not int or source == m.target and new_cost is None or not catalog.catalog_known:
        return ()
    j = m.judge(card, source, m.view)
    if any(r.code == "cost-mismatch" for r in j.reasons) and j.cost is not None:
        was = f"the card cost {j.cost}" if figure == "cost" else f"its {figure} was {j.cost}"  # English has the verb
        note = f"the printed {figure} {printed} was already wrong in the {ordinal(source)} edition ({was} there)"
        if new_cost is not None:
            note += f"; re-issued at {new_cost}"
        return (note,)
    return ()


def replacement(m: Any, probe: dict, j: Any) -> dict[str, Any] | None:
    """A legal card with each redacted component replaced by the one the data declares."""
    if j.parsed is None:
        return None
    comps = m.view.catalog(m.target).by_id()
    swaps: dict[str, str] = {}
    parts = []
    for use in j.parsed.uses():
        state = use.state
        if state is None or state.status != "redacted":
            continue
        rep = comps.get(state.replacement) if state.replacement else None
        if rep is None:
            return None
        new = rendered(rep, {**use.values, **state.replacement_binds})
        if new is None:
            return None
        swaps[use.sentence] = new
        parts.append({"component": use.component, "replacement": rep.id, "old": use.sentence, "new": new})
    if not swaps:
        return None
    text = map_sentences(probe["text"], lambda _, raw: swaps.get(normalize(raw)))
    candidate = {**probe, "text": text, "edition": edition_number(m.target)}
    figure = m.view.catalog(m.target).system.figure
    candidate.pop(figure, None)
    verdict = m.judge(candidate, m.target, m.view)
    if verdict.status != "legal" or verdict.cost is None:
        return None
    return {"text": text, figure: verdict.cost, "edition": edition_number(m.target), "components": parts, "figure": figure}
