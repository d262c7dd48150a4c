"""What an unknown text is near: the components of its edition most like it (difflib's ratio of their
skeletons), and, where it is a component of another edition, what became of it.
"""

from __future__ import annotations

import heapq
import re
from typing import Any

from ..catalog import Catalog
from ..model import EditionKey, edition_number, is_pre_release, ordinal
from ..text import skeleton
from .model import Reason, when_phrase
from .sentence import CatalogReader, Entry, reader_of

__all__ = ["closest", "elsewhere", "unknown_text"]

def closest(sentence: str, catalog: Catalog, n: int = 3, view: Any = None, least: float = 0.4) -> list[str]:
    """The components whose skeletons are most like the sentence's, quoted ("(redacted)" where it is): the
    best, and up to ``n`` if each is at least 0.6 alike; none under ``least``."""
    key = skeleton(sentence)
    matchers = reader_of(catalog, view).matchers
    if key.isupper():  # a text in capitals ("DRAW 2 CARDS."): held against the components in capitals
        matchers = [(comp, type(m)(None, "", comp.text.skeleton.upper())) for comp, m in matchers]
    scored = []
    best: list[float] = []  # the n best ratios so far (a heap: best[0] the least of them)
    for comp, matcher in matchers:
        matcher.set_seq1(key)
        # the quick ratios bound the ratio: a component under 0.4, or under the n best so far, is none of them
        bar = best[0] if len(best) == n and best[0] > least else least
        if matcher.real_quick_ratio() < bar or matcher.quick_ratio() < bar:
            continue
        ratio = matcher.ratio()
        scored.append((ratio, comp))
        if len(best) < n:
            heapq.heappush(best, ratio)
        elif ratio > best[0]:
            heapq.heapreplace(best, ratio)
    scored.sort(key=lambda item: -item[0])
    out = []
    for ratio, comp in scored[:n]:
        if ratio < 0.6 and (out or ratio < least):
            break
        mark = " (redacted)" if comp.status == "redacted" else ""
        out.append(f'"{comp.text}"{mark}')
    return out


def _editions_text(editions: list[EditionKey]) -> str:
    """"8th–10th editions", and a pre-release by name ("… and the 11th pre-release")."""
    runs: list[list[int]] = []
    for k in editions:
        if is_pre_release(k):
            continue
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    parts = [ordinal(r[0]) if len(r) == 1 else f"{ordinal(r[0])}–{ordinal(r[-1])}" for r in runs]
    branches = [ordinal(k) for k in editions if is_pre_release(k)]
    if not parts:
        return " and the ".join(branches)
    text = ", ".join(parts) + (" edition" if len(parts) == 1 and len(runs[0]) == 1 else " editions")
    return "".join([text, *(f" and the {b}" for b in branches)])


def elsewhere(sentence: str, n: EditionKey, view: Any) -> str | None:
    """What the sentence is in other editions (a pre-release too), as seen from edition ``n`` (``None``: nothing)."""
    found: dict[str, list[tuple[EditionKey, Entry, Any]]] = {}
    for k in view.keys:
        if k == n:
            continue
        cat = view.catalog(k)
        if not cat.catalog_known:
            continue
        entry, m = reader_of(cat, view).lookup(sentence)
        if entry is not None:
            found.setdefault(entry.comp.id, []).append((k, entry, m))
    if not found:
        return None
    here = view.catalog(n).by_id()
    parts = []
    for comp_id, hits in found.items():
        editions = [k for k, _, _ in hits]
        text = f"it is {comp_id} in the {_editions_text(editions)}"
        now = here.get(comp_id)
        if now is None:
            later = edition_number(n) + (0 if is_pre_release(n) else 1)  # the first main-line edition after n
            if min(map(edition_number, editions)) >= later:
                text += f", not yet in the catalog of the {ordinal(n)}"
            else:
                text += f", no longer in the catalog of the {ordinal(n)}"
        else:
            k, entry, m = hits[0]
            values = {**m.values, **entry.binds}
            later = view.catalog(max(editions, key=edition_number)).by_id()[comp_id]
            history = [f"revised {when_phrase(w.replaced_in)}" for w in later.wordings if w.replaced_in.happened_by(n) == "no"]
            if history:
                text += " (" + ", ".join(dict.fromkeys(history)) + ")"
            text += f'; in the {ordinal(n)} it reads "{now.text.render(values)}"'
            if now.status == "redacted":
                text += f" and is redacted ({when_phrase(now.redacted, 'since')})"
            elif now.status == "unknown":
                text += " and may already be redacted (redacted at an edition no source gives)"
        redacted_in = [k for k, e, _ in hits if e.comp.status == "redacted"]
        if redacted_in and (now is None or now.status == "legal"):
            first = view.catalog(redacted_in[0]).by_id()[comp_id].redacted
            text += f"; redacted {when_phrase(first)}"
        parts.append(text)
    return "; ".join(parts)


def unknown_text(sentence: str, reader: CatalogReader, fld: str, sources: tuple[str, ...], hint: str = "",
                 near: str | None = None) -> Reason:
    """The ``unknown-text`` problem of a sentence no component reads; ``hint`` (what it may be meant as)
    follows when it is no text of another edition either; ``near``: what to suggest components for (the
    sentence without the tutorial text inside it), else the sentence."""
    n = reader.catalog.edition
    message = f'"{sentence}" is not a component text of the {ordinal(n)} edition'
    # a document's own example that its catalog does not list: what the rules record of it, not a near text
    quoted = re.compile("(“|: )" + re.escape(sentence) + "”", re.IGNORECASE)
    said = next((d for d in reader.catalog.disagreements if d.edition == n and quoted.search(d.note)), None)
    close = closest(near or sentence, reader.catalog, view=reader.view, least=0.4 if said is None else 0.6)
    if close:
        message += "; did you mean " + " or ".join(close) + "?"
    if said is not None:  # (only texts much alike beside it)
        message += ("" if message.endswith("?") else ".") + f" A recorded disagreement: {said.note}"
        return Reason("unknown-text", message, n, tuple(dict.fromkeys(sources + tuple(said.sources))), fld)
    other = elsewhere(sentence, n, reader.view) if reader.view is not None else None
    if other:
        message += f" Elsewhere: {other}."
    elif hint:
        message += ("" if message.endswith("?") else ".") + " " + hint
    return Reason("unknown-text", message, n, sources, fld)
