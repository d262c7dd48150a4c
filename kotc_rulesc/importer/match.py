"""Each component of a guide held against the previous edition's folded catalog: what changed, and
how sure the reading is.

An entry is a component of the catalog when its text is the same; else when a row of the rulebook's
Refurbished Card Texts table turns the component's text into it; else when the wordings are alike
(:func:`similarity` at least :data:`SURE` and best both ways by :data:`MARGIN`: an unlisted
rewording).  From :data:`MAYBE` on it is a question for the maintainer, drafted as a new component
and a removal, never guessed.  A clean slate makes every entry new.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..catalog import Catalog, ComponentState
from ..documents.guide import Guide, GuideEntry
from ..documents.rulebook import Row, RulebookPage
from ..formula import EVALUATION_ERRORS, FormulaError, parse_formula
from ..model import ordinal

__all__ = ["SURE", "MAYBE", "MARGIN", "similarity", "slug", "Candidate", "New", "Reworded", "Reformulated",
           "Removed", "Changes", "classify"]

#: a rewording this alike (and clearly the best match both ways) is read as the same component
SURE = 0.85
#: from this alike on, a possible rewording is asked about, not guessed
MAYBE = 0.6
#: how much better than the next candidate a sure match must be
MARGIN = 0.1

_STOP_WORDS = frozenset("when this is a an the your of on in up to and or after therein each from by any one must as".split())


def similarity(a: str, b: str) -> float:
    """How alike two wordings are, 0 to 1 (characters, case ignored: a capital is no rewording)."""
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold(), autojunk=False).ratio()


def slug(kind: str, text: str) -> str:
    """A component id as the rules name them: the kind, then the text's words that say what it is
    ("When this card is summoned (ghost-play):" → ``condition-card-summoned-ghost-play``)."""
    words = [w for w in re.split(r"[^a-z0-9]+", text.casefold()) if len(w) > 1 and w not in _STOP_WORDS]
    if words and words[0] == kind:
        words = words[1:]
    return "-".join([kind, *words[:8]])


def same_formula(a: str | None, b: str | None) -> bool:
    """Do two formulas give the same value everywhere we look (``1/2`` is ``0.5``)?  None: none printed."""
    if a is None or b is None:
        return a is None and b is None
    fa, fb = parse_formula(a), parse_formula(b)
    for x, y, t in ((1, 1, 1), (2, 3, 5), (7, 2, 3), (4, 9, Fraction(1, 2))):
        env = {"x": Fraction(x), "y": Fraction(y), "z": Fraction(3), "t": Fraction(t), "a": Fraction(2, 7)}
        try:
            if fa.evaluate(env) != fb.evaluate(env):
                return False
        except EVALUATION_ERRORS:
            return False
    return True


def _bare(text: str) -> str:
    """A text without its end mark, case ignored: how a Revised Levels entry quotes it."""
    return text.rstrip(".;:→ ").casefold()


@dataclass
class Candidate:
    component: str
    text: str
    similarity: float


@dataclass
class New:
    """A new component; with ``candidates``, a question: it may be a rewording of one of them."""

    id: str
    entry: GuideEntry
    candidates: list[Candidate] = field(default_factory=list)


@dataclass
class Reworded:
    component: ComponentState
    entry: GuideEntry
    row: Row | None = None  # the Refurbished row it follows; None: no list names it
    into: str | None = None  # two texts refurbished into one: the component whose text it now is
    similarity: float = 1.0
    rows: tuple[Row, ...] = ()  # every row that applies, when more than one does


@dataclass
class Reformulated:
    component: ComponentState
    entry: GuideEntry
    level: tuple[str, int] | None  # the Revised Levels entry that names it, if any
    listed: bool


@dataclass
class Removed:
    component: ComponentState
    listed: tuple[str, int | None] | None  # the Redacted entry in force that names it, if any
    candidates: list[Candidate] = field(default_factory=list)


@dataclass
class Changes:
    """What the guide and rulebook of edition ``n`` change against the previous catalog."""

    n: int
    clean_slate: bool
    new: list[New] = field(default_factory=list)
    reworded: list[Reworded] = field(default_factory=list)
    reformulated: list[Reformulated] = field(default_factory=list)
    removed: list[Removed] = field(default_factory=list)
    #: (the component, its entry) for a limit changed, a redaction lifted, Ultra Points changed
    relimited: list[tuple[ComponentState, GuideEntry]] = field(default_factory=list)
    reinstated: list[tuple[ComponentState, GuideEntry]] = field(default_factory=list)
    ultra_changed: list[tuple[ComponentState, GuideEntry]] = field(default_factory=list)
    unchanged: int = 0
    #: Revised Levels entries of this edition that name no formula the guide changed, and rows new in
    #: the table that reword no text of the catalog: (what, why)
    unexplained: list[tuple[str, str]] = field(default_factory=list)

    @property
    def questions(self) -> list[New]:
        return [x for x in self.new if x.candidates]

    def counts(self) -> dict[str, int]:
        return {
            "new": len(self.new) - len(self.questions),
            "reworded (listed)": sum(1 for r in self.reworded if r.row is not None),
            "reworded (unlisted)": sum(1 for r in self.reworded if r.row is None),
            "formula (listed)": sum(1 for r in self.reformulated if r.listed),
            "formula (unlisted)": sum(1 for r in self.reformulated if not r.listed),
            "limits": len(self.relimited),
            "removed": len(self.removed),
            "reinstated": len(self.reinstated),
            "uncertain": len(self.questions),
            "unchanged": self.unchanged,
        }


def _ids_taken(used: set[str], kind: str, text: str, n: int) -> str:
    base = slug(kind, text)
    cid, k = base, 1
    while cid in used:
        cid = f"{base}-{n:02d}" if k == 1 else f"{base}-{n:02d}-{k}"
        k += 1
    used.add(cid)
    return cid


def _apply_rows(text: str, rows: list[Row]) -> tuple[str, tuple[Row, ...]]:
    """The text as the table's rows refurbish it (each applied to the text as printed)."""
    applied = []
    out = text
    for row in rows:
        i = out.casefold().find(row.old.casefold())
        if i < 0:
            continue
        new = row.new
        if i == 0 and out[:1].isupper() and new[:1].islower():
            new = new[:1].upper() + new[1:]
        out = out[:i] + new + out[i + len(row.old):]
        applied.append(row)
    return out, tuple(applied)


def classify(prev: Catalog, guide: Guide, page: RulebookPage, n: int, used_ids: set[str]) -> Changes:
    """What the documents of edition ``n`` change against ``prev`` (the folded previous edition);
    ``used_ids`` every component id the rules have declared (a new id is never one of them)."""
    used = set(used_ids)
    entries = guide.entries
    changes = Changes(n, page.clean_slate_edition() == n)
    if changes.clean_slate:
        changes.new = [New(_ids_taken(used, e.kind, e.clean_text, n), e) for e in entries]
        return changes

    components = [c for c in prev.components or () if c.status != "unknown"]
    legal = [c for c in components if c.status == "legal"]
    free_entries = dict(enumerate(entries))
    free = {c.id: c for c in legal}
    by_text = {(c.kind, str(c.text)): c for c in legal}
    redacted = {(c.kind, str(c.text)): c for c in components if c.status == "redacted"}
    kept: list[tuple[ComponentState, GuideEntry]] = []
    matched: dict[int, str] = {}  # the component each entry is (its id)

    for i, e in list(free_entries.items()):  # the same text
        c = by_text.get((e.kind, e.clean_text))
        if c is not None and c.id in free:
            kept.append((c, e))
            matched[i] = c.id
            del free[c.id], free_entries[i]
        elif (e.kind, e.clean_text) in redacted:
            c = redacted[(e.kind, e.clean_text)]
            changes.reinstated.append((c, e))
            kept.append((c, e))
            matched[i] = c.id
            del free_entries[i]

    rows = page.lists.revised
    earlier_rows = {tuple(w.row) for c in prev.components or () for w in c.wordings if w.row}
    row_hits: dict[Row, int] = {}
    targets: dict[int, list[tuple[ComponentState, tuple[Row, ...]]]] = {}
    for c in list(free.values()):  # a row of the Refurbished Card Texts table
        new_text, applied = _apply_rows(str(c.text), rows)
        if not applied:
            continue
        for row in applied:
            row_hits[row] = row_hits.get(row, 0) + 1
        hit = next((i for i, e in free_entries.items() if e.kind == c.kind and e.clean_text == new_text), None)
        if hit is None:  # into a text that stays: the component keeps it
            other = by_text.get((c.kind, new_text))
            if other is not None and other.id not in free:
                hit = next(i for i, cid in matched.items() if cid == other.id)
        if hit is not None:
            targets.setdefault(hit, []).append((c, applied))
    for i, found in targets.items():
        e = entries[i]
        if i in free_entries:
            # two texts into one: the one the guide prints the new text in the place of keeps its id
            # (its neighbours in the guide are its neighbours in the catalog), else the closer wording
            found.sort(key=lambda item: (-_neighbours(prev, item[0], matched, i),
                                         -similarity(str(item[0].text), e.clean_text)))
            primary = found[0][0]
            matched[i] = primary.id
            del free_entries[i]
        else:
            primary = None
        for c, applied in found:
            into = None if c is primary else (primary.id if primary else matched[i])
            changes.reworded.append(Reworded(c, e, applied[0], into, similarity(str(c.text), e.clean_text), applied))
            del free[c.id]
        if primary is not None:
            kept.append((primary, e))
    for row in rows:
        if (row.old, row.new) in earlier_rows:
            continue
        if not row_hits.get(row):
            changes.unexplained.append((f"row “{row.old}” → “{row.new}”", "it is new in the table, and no text of "
                                        f"the {ordinal(n - 1)} catalog contains its original text"))
        for c, e in kept:  # (a text the guide prints as it was)
            if str(c.text) == e.clean_text and row.old.casefold() in e.clean_text.casefold():
                changes.unexplained.append((f"row “{row.old}” → “{row.new}”", f"it is new in the table, yet the guide "
                                            f"still prints “{e.clean_text}” ({c.id}): the documents disagree"))

    _by_similarity(changes, free_entries, free, kept, matched, used)

    for c in free.values():
        listed = next((r for r in page.lists.redacted if _bare(r[0]) == _bare(str(c.text))), None)
        cands = [q for q in (Candidate("", e.clean_text, similarity(str(c.text), e.clean_text)) for e in free_entries.values())
                 if q.similarity >= MAYBE]  # (their ids are the new components', given below)
        changes.removed.append(Removed(c, listed, sorted(cands, key=lambda q: -q.similarity)))
    for i, e in sorted(free_entries.items()):
        if not any(x.entry is e for x in changes.new):
            changes.new.append(New(_ids_taken(used, e.kind, e.clean_text, n), e))
        matched[i] = next(x.id for x in changes.new if x.entry is e)
        for q in (q for r in changes.removed for q in r.candidates if q.text == e.clean_text):
            q.component = matched[i]
    order = {id(e): i for i, e in enumerate(entries)}
    changes.new.sort(key=lambda x: order[id(x.entry)])
    _compare_kept(changes, kept, page, n)
    return changes


def _neighbours(prev: Catalog, c: ComponentState, matched: dict[int, str], i: int) -> int:
    """How many of the components the guide lists next to entry ``i`` stand next to ``c`` in the catalog."""
    order = [x.id for x in prev.components or () if x.kind == c.kind]
    k = order.index(c.id)
    beside = set(order[max(0, k - 1):k] + order[k + 1:k + 2])
    return sum(matched.get(j) in beside for j in (i - 1, i + 1))


def _by_similarity(changes: Changes, free_entries: dict[int, GuideEntry], free: dict[str, ComponentState],
                   kept: list, matched: dict[int, str], used: set[str]) -> None:
    """Rewordings no list names: sure ones kept, possible ones asked about."""
    scores = {(i, cid): similarity(str(c.text), e.clean_text)
              for i, e in free_entries.items() for cid, c in free.items() if c.kind == e.kind}

    for (i, cid) in sorted(scores, key=lambda p: -scores[p]):
        if i not in free_entries or cid not in free:
            continue
        s = scores[(i, cid)]
        if s < SURE:
            break
        rivals = [scores[p] for p in scores if p != (i, cid) and (p[0] == i or p[1] == cid)
                  and p[0] in free_entries and p[1] in free]
        if rivals and max(rivals) > s - MARGIN:
            continue
        c, e = free.pop(cid), free_entries.pop(i)
        changes.reworded.append(Reworded(c, e, None, None, s))
        matched[i] = cid
        kept.append((c, e))
    for i, e in sorted(free_entries.items()):
        cands = sorted((Candidate(cid, str(free[cid].text), s) for (j, cid), s in scores.items()
                        if j == i and cid in free and s >= MAYBE), key=lambda q: -q.similarity)
        if cands:
            changes.new.append(New(_ids_taken(used, e.kind, e.clean_text, changes.n), e, cands))


def _compare_kept(changes: Changes, kept: list[tuple[ComponentState, GuideEntry]], page: RulebookPage, n: int) -> None:
    levels = page.lists.levels or page.lists.costs
    named = set()
    for c, e in kept:
        old = c.formula.notation() if c.formula is not None else None
        try:
            same = same_formula(old, e.formula)
        except FormulaError:
            same = False
        if not same:
            level = next((lv for lv in levels if _bare(lv[0]) == _bare(e.clean_text)), None)
            if level is not None:
                named.add(level)
            changes.reformulated.append(Reformulated(c, e, level, level is not None and level[1] == n))
        if dict(c.limits) != e.limits:
            changes.relimited.append((c, e))
        if c.ultra != e.ultra:
            changes.ultra_changed.append((c, e))
        if same and dict(c.limits) == e.limits and c.ultra == e.ultra and str(c.text) == e.clean_text and c.status == "legal":
            changes.unchanged += 1
    for level in levels:
        if level[1] == n and level not in named:
            changes.unexplained.append((f"Revised Levels entry “{level[0]}” ({ordinal(n)} Edition)",
                                        "the guide prints the same formula for it as the previous edition (or no such text)"))
