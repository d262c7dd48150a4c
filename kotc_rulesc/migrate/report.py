"""The migration report: every card with its outcome and why, then totals that add up.

Each entry is rendered as soon as its card is decided and the totals come last, so a report over a
million cards never sits in memory.  Formats: ``text``, ``markdown`` and ``json``.  Outcomes are the
target rulebook's own words (:mod:`kotc_rulesc.outcomes`); the JSON also keeps the machine ``status``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..citation import Citations
from ..model import ordinal
from ..outcomes import MISPRINTED, outcome_key, outcome_word as outcome
from .plan import LEGAL, Decision, advice_json, reason_json

__all__ = ["Record", "Totals", "CardReport", "ReportWriter", "summary_line", "outcome"]

#: the outcomes in the order the totals count them (a banned card misprinted apart: its word is its own)
_OUTCOMES = ("rewritten", "reissued", "unchanged", "banned", MISPRINTED, "unknown", "error")
#: what the player can do with an entry that is not a card
_MALFORMED_REMEDY = "write the entry as a card (a mapping of its fields), and migrate it again"


@dataclass(slots=True)
class Record:
    """One card's outcome: where it is, what was decided, whether the output differs.  (Made for every
    card: slotted, and not frozen, which would slow its ``__init__``.)"""

    index: int  # from 0
    line: int | None
    name: str | None
    decision: Decision | None  # None: the entry is not a card (problem says why)
    changed: bool
    problem: str | None = None

    @property
    def status(self) -> str:
        return self.decision.status if self.decision is not None else "error"

    @property
    def legal(self) -> bool:
        return self.decision is not None and self.decision.legal

    @property
    def outcome(self) -> str:
        """What the card is counted and worded by (:func:`~kotc_rulesc.outcomes.outcome_key`)."""
        d = self.decision
        return outcome_key(d.status, (r.code for r in d.reasons)) if d is not None else "error"

    def to_json(self, words: dict[str, str] | None = None) -> dict[str, Any]:
        d = self.decision
        out: dict[str, Any] = {"index": self.index, "line": self.line, "name": self.name, "status": self.status,
                               "outcome": outcome(self.outcome, words), "changed": self.changed}
        if d is None:
            out["reasons"] = [{"code": "malformed", "edition": None, "sources": [], "message": self.problem}]
            out["remedy"] = _MALFORMED_REMEDY
            return out
        out.update({"from": d.source, "assumed_from": d.assumed, "to": d.target})
        if d.legal and d.rewrites:
            out["text"] = [r.to_json() for r in d.rewrites]
        if d.cost is not None:
            out[d.figure] = {"old": d.cost[0], "new": d.cost[1]}
        if d.edition is not None:
            out["edition"] = {"old": d.edition[0], "new": d.edition[1]}
        if d.reasons:
            out["reasons"] = [reason_json(r) for r in d.reasons]
        out.update(advice_json(d))
        return out


def _counted(status: str, changed: bool) -> tuple[str, ...]:
    """The JSON totals a card counts in."""
    keys = ["cards"] + (["changed"] if changed else [])
    if status in LEGAL:
        keys += (["migrated"] + (["reissued"] if status == "reissued" else [])) if changed else ["unchanged"]
    elif status == "error":
        keys.append("errors")
    else:
        keys += ["banned"] + (["unknown"] if status == "unknown" else [])
    return tuple(keys)


_COUNTED = {(s, c): _counted(s, c) for s in _OUTCOMES if s != MISPRINTED for c in (False, True)}
_KEYS = ("cards", "migrated", "reissued", "unchanged", "banned", "unknown", "errors", "changed", "prescribed")


@dataclass(slots=True)
class Totals:
    """Counts over the collection.  ``counts`` are the JSON's totals (``banned`` includes ``unknown``,
    ``migrated`` includes ``reissued`` and a legal card whose earlier marker was removed;
    ``changed``: the cards whose output differs); ``outcomes`` count each card once, by its outcome."""

    counts: Counter = field(default_factory=lambda: Counter(dict.fromkeys(_KEYS, 0)))
    outcomes: Counter = field(default_factory=lambda: Counter(dict.fromkeys(_OUTCOMES, 0)))

    def add(self, record: Record) -> None:
        for key in _COUNTED[record.status, record.changed]:
            self.counts[key] += 1
        self.outcomes[record.outcome] += 1
        if record.decision is not None and record.decision.warnings:
            self.counts["prescribed"] += 1  # written in the form the guide prescribes (it broke a should rule)

    def merge(self, other: "Totals") -> None:
        self.counts.update(other.counts)
        self.outcomes.update(other.outcomes)

    def __getitem__(self, key: str) -> int:
        return self.counts[key]

    @property
    def all_legal(self) -> bool:
        return self.counts["banned"] == 0 and self.counts["errors"] == 0


def summary_line(t: Totals, dry_run: bool = False, words: dict[str, str] | None = None) -> str:
    """ "15 cards: 6 refurbished, 4 unchanged, 5 pruned; 2 written as the guide prescribes; 11 changed in
    the output, 5 of them only marked": every card counted once, by its outcome in the target rulebook's
    words; then how many of them the output changes (a card kept as it was only by its migration mark)."""
    c = t.counts
    parts = [f"{count} {word}" for word, count in _worded(t, words).items()]
    prescribed = f"; {c['prescribed']} written as the guide prescribes" if c["prescribed"] else ""
    marked = c["changed"] - c["migrated"]  # (a legal card that changes is counted as migrated)
    changed = f"; {c['changed']} {'would change' if dry_run else 'changed'} in the output"
    if marked:
        changed += f", {marked} of them only marked"
    return f"{c['cards']} card{'s' if c['cards'] != 1 else ''}: {', '.join(parts) or 'none'}{prescribed}{changed}"


def _worded(t: Totals, words: dict[str, str] | None) -> Counter:
    """The cards counted by their outcome's word (one word for two outcomes, "banned" up to the 12th, once)."""
    out: Counter = Counter()
    for key, count in t.outcomes.items():
        if count:
            out[outcome(key, words)] += count
    return out


def _title(r: Record) -> str:
    """``[number] Name (line N)``, numbered from 1 as ``check-cards`` numbers a card."""
    name = f" {r.name}" if r.name else ""
    where = f" (line {r.line})" if r.line else ""
    return f"[{r.index + 1}]{name}{where}"


def attention_line(rec: Record, words: dict[str, str] | None = None) -> str:
    """One line for a card that does not end legal: ``[number] Name (line N): pruned — codes``, in the
    target rulebook's word, as the report says it."""
    d = rec.decision
    if d is None:
        return f"{_title(rec)}: error — {rec.problem}"
    codes = ", ".join(dict.fromkeys(r.code for r in d.reasons)) or d.status
    return f"{_title(rec)}: {outcome(rec.outcome, words)} — {codes}"


class CardReport:
    """Renders a card's entry in one format, in the words and citations of the migration to ``target``
    (``words``: its rulebook's terms; ``verbose``: the components' ids and every document id)."""

    def __init__(self, fmt: str, view: Any, target: Any, words: dict[str, str] | None = None, verbose: bool = False):
        self.fmt = fmt
        self.words = words or {}
        self.verbose = verbose
        self.cite = Citations(view, target, verbose)

    def __call__(self, record: Record) -> str:
        """The entry (``json``: the object, without a separator)."""
        if self.fmt == "json":
            return json.dumps(record.to_json(self.words), ensure_ascii=False)
        lines = self._lines(record)
        if self.fmt == "markdown":
            head, *rest = lines  # (each level of indentation a level of the list)
            items = [f"{'  ' * ((len(line) - len(line.lstrip())) // 4 - 1)}- {_md(line.strip())}\n" for line in rest]
            return f"### {_md(head)}\n\n" + ("".join(items) + "\n" if items else "")
        return "\n".join(lines) + "\n"

    def _status(self, r: Record) -> str:
        word = outcome(r.outcome, self.words)
        if not r.legal:
            return f"{word}, kept as it was"
        if r.status == "unchanged" and r.changed:
            return f"{word}; the migration mark of an earlier run removed"
        return word

    def _lines(self, r: Record) -> list[str]:
        """The entry as lines: the title, then each change, reason, note and the remedy (indented)."""
        d = r.decision
        if d is None:
            return [f"{_title(r)}: {self._status(r)}", f"    malformed: {r.problem}",
                    f"    what you can do: {_MALFORMED_REMEDY}"]
        source = ordinal(d.source) if d.source is not None else "edition unknown"
        assumed = ", assumed with --from" if d.assumed else ""
        lines = [f"{_title(r)}: {self._status(r)} ({source}{assumed} → {ordinal(d.target)})"]
        if d.legal:
            for rw in d.rewrites:
                lines.append(f'    paragraph {rw.line}: "{rw.old}" → "{rw.new}"')
                lines.append(f"        {self._why(rw)}")
            if d.cost is not None:
                lines.append(f"    {d.figure}: {d.cost[0] if d.cost[0] is not None else 'none'} → {d.cost[1]}")
            if d.edition is not None:
                lines.append(f"    Edition Indicator: {d.edition[0] if d.edition[0] is not None else 'none'} → {d.edition[1]}")
        for reason in d.reasons:
            fld = f" (field {reason.field})" if getattr(reason, "field", None) else ""
            lines.append(f"    {'because ' if d.legal else ''}{reason.code}{fld}: {reason.message}{self.cite.reason(reason)}")
        lines.extend(f"    note: {note}" for note in d.notes)
        if d.replacement:
            rep = d.replacement
            lines.append(f"    suggested legal replacement ({ordinal(rep['edition'])} edition, {rep['figure']} {rep[rep['figure']]}):")
            lines.extend(f"        {text_line}" for text_line in str(rep["text"]).splitlines())
        if d.remedy:
            lines.append(f"    what you can do: {d.remedy}")
        return lines

    def _why(self, rw: Any) -> str:
        """What a rewritten sentence follows: 'refurbished in the 16th edition: "summon [x] level [y] pawns."
        → "craft [x] level [y] pawns." [17th rulebook, Refurbished Card Texts]' (the rulebook's row where
        it is not the sentence itself; verbose: every time, with the component's id and every document)."""
        cite = self.cite
        if rw.successor:
            ids = f"{rw.component} → " if self.verbose else ""
            return f"{ids}its successor {rw.successor} across the {ordinal(rw.edition)} edition's clean slate" \
                   + cite.of(rw.sources, rw.edition, "lists")
        if rw.prescribed:  # a paragraph written in the form the guide prescribes (a should rule it broke)
            return (f"written as the {ordinal(rw.edition)} edition's guide prescribes: " + "; ".join(rw.prescribed)
                    + cite.of(rw.sources, rw.edition))
        verb = outcome("rewritten", self.words) if rw.listed else "reworded (no rulebook list names it)"
        when = (f"the {ordinal(rw.edition)} edition" if rw.edition is not None
                else f"an edition no source gives (by the {ordinal(rw.by)})")
        wording = ""
        if rw.wording and (self.verbose or rw.wording[0].casefold() != rw.old.casefold()
                           or rw.wording[1].casefold() != rw.new.casefold()):
            wording = f': "{rw.wording[0]}" → "{rw.wording[1]}"'
        if self.verbose:
            return f"{verb} in {when}{wording} ({rw.component}) [{', '.join(rw.sources) or 'no source'}]"
        return f"{verb} in {when}{wording}" + cite.of(rw.sources, rw.edition, "revised" if rw.listed else None)


def _md(text: str) -> str:
    """Text as Markdown shows it: what would be a tag, an entity, emphasis, code or a table's bar escaped."""
    return re.sub(r"([\\`*_<>&|])", r"\\\1", text)


class ReportWriter:
    """Writes a report to ``stream``: :meth:`begin`, then card entries, then :meth:`end`."""

    def __init__(self, stream: TextIO, fmt: str, words: dict[str, str] | None = None):
        self.stream = stream
        self.fmt = fmt
        self.words = words or {}
        self._first = True

    def begin(self, collection: str, target: int, assume: int | None, dry_run: bool) -> None:
        if self.fmt == "json":
            head = {"collection": collection, "to": target, "from": assume, "dry_run": dry_run}
            self.stream.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "cards": [')
        else:
            title = f"Migration of {collection} to the {ordinal(target)} edition"
            dry = " (dry run: nothing written)" if dry_run else ""
            self.stream.write(f"# {_md(title)}{dry}\n\n" if self.fmt == "markdown" else f"{title}{dry}\n\n")

    def entry(self, rendered: str) -> None:
        """A card entry rendered by a :class:`CardReport` in this writer's format."""
        if self.fmt == "json":
            self.stream.write(("\n  " if self._first else ",\n  ") + rendered)
        else:
            self.stream.write(rendered + ("\n" if self.fmt == "text" else ""))
        self._first = False

    def end(self, totals: Totals, dry_run: bool = False) -> None:
        if self.fmt == "json":
            self.stream.write(("\n" if not self._first else "") + '], "totals": ' + json.dumps(totals.counts) + "}\n")
        elif self.fmt == "markdown":
            shown = list(_worded(totals, self.words).items())
            head = ["cards", *(word for word, _ in shown)]
            row = [totals.counts["cards"], *(count for _, count in shown)]
            self.stream.write(f"## Totals\n\n| {' | '.join(head)} |\n|{'---:|' * len(head)}\n| {' | '.join(map(str, row))} |\n")
        else:
            self.stream.write(f"Totals: {summary_line(totals, dry_run, self.words)}\n")
