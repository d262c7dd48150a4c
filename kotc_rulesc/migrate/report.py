"""The migration report: per card what changed and why, banned cards with their reasons, totals.

The report streams like the collection: each card's entry is rendered as soon as
the card is decided, and the totals come last — so a report over a million cards never sits in memory.
Cards that end legal and unchanged are only counted.

Formats: ``text`` (for reading in a terminal), ``markdown`` (for an issue or a
pull request) and ``json`` (one object: ``collection``, ``to``, ``from``,
``dry_run``, ``cards`` — the entries — and ``totals``).

Every rewritten text names the revision it follows: the card's sentence before and
after, the component's wording before and after (a rulebook's row: "summon [x] level
[y] pawns." → "craft [x] level [y] pawns."), its edition and sources; every card
kept as it was names each reason with its edition and sources.  The words are the
target rulebook's where it has its own (``terms``: from the 13th a card is
"refurbished" or "pruned"); the JSON's ``status`` stays the migrator's code and
``outcome`` gives the rulebook's word.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..model import ordinal
from .plan import LEGAL, Decision, reason_json

__all__ = ["Record", "Totals", "render_card", "ReportWriter", "summary_line", "status_word", "outcome", "FORMATS"]

FORMATS = ("text", "markdown", "json")
_STATUS_WORDS = {
    "rewritten": "text rewritten",
    "reissued": "re-issued",
    "unchanged": "unchanged",
    "banned": "BANNED, kept as it was",
    "unknown": "UNKNOWN legality, kept as it was",
    "error": "ERROR, kept as it was",
}


def status_word(status: str, words: dict[str, str] | None = None) -> str:
    """How the report names a status: the target rulebook's word where it has one ("refurbished",
    "PRUNED, kept as it was"), else the migrator's ("text rewritten", "BANNED, kept as it was")."""
    words = words or {}
    if status == "rewritten" and "revised" in words:
        return words["revised"]
    if status == "banned" and "banned" in words:
        return f"{words['banned'].upper()}, kept as it was"
    return _STATUS_WORDS[status]


def outcome(status: str, words: dict[str, str] | None = None) -> str:
    """The rulebook's word for a status (JSON ``outcome``): "refurbished", "pruned", else the status."""
    words = words or {}
    return words.get({"rewritten": "revised", "banned": "banned"}.get(status, ""), status)


@dataclass
class Record:
    """One card's outcome: where it is, what was decided, whether the output differs."""

    index: int
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
    def notable(self) -> bool:
        """Worth an entry of its own in the report."""
        d = self.decision
        return d is None or self.changed or not d.legal or bool(d.notes)

    def to_json(self, words: dict[str, str] | None = None) -> dict[str, Any]:
        d = self.decision
        out: dict[str, Any] = {"index": self.index, "line": self.line, "name": self.name, "status": self.status,
                               "outcome": outcome(self.status, words), "changed": self.changed}
        if d is None:
            out["reasons"] = [{"code": "malformed", "edition": None, "sources": [], "message": self.problem}]
            return out
        out["from"] = d.source
        out["assumed_from"] = d.assumed
        out["to"] = d.target
        if d.legal and d.rewrites:
            out["text"] = [r.to_json() for r in d.rewrites]
        if d.cost is not None:
            out[d.figure] = {"old": d.cost[0], "new": d.cost[1]}
        if d.edition is not None:
            out["edition"] = {"old": d.edition[0], "new": d.edition[1]}
        if d.reasons:
            out["reasons"] = [reason_json(r) for r in d.reasons]
        if d.notes:
            out["notes"] = list(d.notes)
        if d.replacement:
            out["replacement"] = d.replacement
        return out


_KEYS = ("cards", "migrated", "reissued", "unchanged", "banned", "unknown", "errors", "changed", "prescribed")


def _counted(status: str, changed: bool) -> tuple[str, ...]:
    """The totals a card counts in."""
    keys = ["cards"] + (["changed"] if changed else [])
    if status in LEGAL:
        keys += (["migrated"] + (["reissued"] if status == "reissued" else [])) if changed else ["unchanged"]
    elif status == "error":
        keys.append("errors")
    else:
        keys += ["banned"] + (["unknown"] if status == "unknown" else [])
    return tuple(keys)


_COUNTED = {(s, c): _counted(s, c) for s in (*LEGAL, "banned", "unknown", "error") for c in (False, True)}


@dataclass
class Totals:
    """Counts over the collection; ``banned`` includes ``unknown``, ``migrated`` includes ``reissued``."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_KEYS, 0))

    def add(self, record: Record) -> None:
        self.count(record.status, record.changed)
        if record.decision is not None and record.decision.warnings:
            self.counts["prescribed"] += 1  # written in the form the guide prescribes (it broke a should rule)

    def count(self, status: str, changed: bool, cards: int = 1) -> None:
        """``cards`` cards of ``status`` (a decision's, or "error"), whose output differs from their input or not."""
        counts = self.counts
        for key in _COUNTED[status, changed]:
            counts[key] += cards

    def merge(self, other: "Totals") -> None:
        for k, v in other.counts.items():
            self.counts[k] += v

    def __getitem__(self, key: str) -> int:
        return self.counts[key]

    @property
    def all_legal(self) -> bool:
        return self.counts["banned"] == 0 and self.counts["errors"] == 0

    def to_json(self) -> dict[str, int]:
        return dict(self.counts)


def summary_line(t: Totals, dry_run: bool = False, words: dict[str, str] | None = None) -> str:
    c = t.counts
    migrated = f"{c['migrated']} migrated"
    if c["reissued"]:
        migrated += f" ({c['reissued']} re-issued)"
    banned = f"{c['banned']} {(words or {}).get('banned', 'banned')}"
    if c["unknown"]:
        banned += f" ({c['unknown']} of unknown legality)"
    verb = "would change" if dry_run else "changed"
    prescribed = f" ({c['prescribed']} written as the guide prescribes)" if c.get("prescribed") else ""
    return (f"{c['cards']} card{'s' if c['cards'] != 1 else ''}: {migrated}, {c['unchanged']} unchanged, {banned}, "
            f"{c['errors']} error{'s' if c['errors'] != 1 else ''}; {c['changed']} {verb}{prescribed}")


# --------------------------------------------------------------------------- one card


def _ed(n: int | None) -> str:
    return f"{ordinal(n)} edition" if n is not None else "edition unknown"


def _sources(sources) -> str:
    return ", ".join(sources) if sources else "no source"


def _when(edition: int | None, by: int) -> str:
    return f"the {ordinal(edition)} edition" if edition is not None else f"an edition no source gives (by the {ordinal(by)})"


def _title(r: Record) -> str:
    """``[index] Name (line N)``, as ``check-cards`` names a card."""
    name = f" {r.name}" if r.name else ""
    where = f" (line {r.line})" if r.line else ""
    return f"[{r.index}]{name}{where}"


def _path(d: Decision) -> str:
    src = ordinal(d.source) if d.source is not None else "unknown"
    if d.assumed:
        src += ", assumed with --from"
    return f"{src} → {ordinal(d.target)}"


def _reason_text(reason: Any) -> str:
    fld = f" (field {reason.field})" if getattr(reason, "field", None) else ""
    return f"{reason.code}{fld}: {reason.message} [{_ed(reason.edition)}; {_sources(reason.sources)}]"


def _rewrite_why(rw: Any, words: dict[str, str] | None = None, code: str = '"') -> str:
    """What a rewritten sentence follows: 'refurbished in the 16th edition: "summon [x] level [y]
    pawns." → "craft [x] level [y] pawns." (effect-summon-level-pawns) [guide-16, rulebook-16]'."""
    if rw.successor:
        return f"{rw.component} → its successor {rw.successor}, clean slate of the {ordinal(rw.edition)} [{_sources(rw.sources)}]"
    if rw.prescribed:  # a paragraph written in the form the guide prescribes (a should rule it broke)
        return (f"written as the {ordinal(rw.edition)} edition's guide prescribes: " + "; ".join(rw.prescribed)
                + f" [{_sources(rw.sources)}]")
    verb = (words or {}).get("revised", "revised") if rw.listed else "reworded (no rulebook list names it)"
    wording = f": {code}{rw.wording[0]}{code} → {code}{rw.wording[1]}{code}" if rw.wording else ""
    return f"{verb} in {_when(rw.edition, rw.by)}{wording} ({rw.component}) [{_sources(rw.sources)}]"


def _text_card(r: Record, words: dict[str, str] | None = None) -> str:
    d = r.decision
    if d is None:
        return f"{_title(r)}: {_STATUS_WORDS['error']}\n    malformed: {r.problem}\n"
    status = status_word(d.status, words)
    if d.status == "unchanged" and r.changed:
        status = "legal; the migration mark of an earlier run removed"
    lines = [f"{_title(r)}: {status} ({_path(d)})"]
    if d.legal:
        for rw in d.rewrites:
            lines.append(f'    line {rw.line}: "{rw.old}" → "{rw.new}"')
            lines.append(f"        {_rewrite_why(rw, words)}")
        if d.cost is not None:
            lines.append(f"    {d.figure}: {d.cost[0] if d.cost[0] is not None else 'none'} → {d.cost[1]}")
        if d.edition is not None:
            lines.append(f"    Edition Indicator: {d.edition[0] if d.edition[0] is not None else 'none'} → {d.edition[1]}")
    for reason in d.reasons:
        lines.append(f"    {'because ' if d.legal else ''}{_reason_text(reason)}")
    for note in d.notes:
        lines.append(f"    note: {note}")
    if d.replacement:
        rep = d.replacement
        lines.append(f"    suggested legal replacement ({ordinal(rep['edition'])} edition, {rep['figure']} {rep[rep['figure']]}):")
        lines.extend(f"        {text_line}" for text_line in str(rep["text"]).splitlines())
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _markdown_card(r: Record, words: dict[str, str] | None = None) -> str:
    d = r.decision
    title = _md(_title(r))
    if d is None:
        return f"### {title}: {_STATUS_WORDS['error']}\n\n- malformed: {_md(str(r.problem))}\n\n"
    status = status_word(d.status, words)
    if d.status == "unchanged" and r.changed:
        status = "legal; the migration mark of an earlier run removed"
    out = [f"### {title}: {status}", "", f"- editions: {_path(d)}"]
    if d.legal:
        for rw in d.rewrites:
            out.append(f"- line {rw.line}: `{rw.old}` → `{rw.new}` — {_md(_rewrite_why(rw, words, '`'))}")
        if d.cost is not None:
            out.append(f"- {d.figure}: {d.cost[0] if d.cost[0] is not None else 'none'} → **{d.cost[1]}**")
        if d.edition is not None:
            out.append(f"- Edition Indicator: {d.edition[0] if d.edition[0] is not None else 'none'} → **{d.edition[1]}**")
    for reason in d.reasons:
        fld = f" (field {reason.field})" if getattr(reason, "field", None) else ""
        out.append(f"- {'because ' if d.legal else ''}`{reason.code}`{fld}: {_md(reason.message)} "
                   f"[{_ed(reason.edition)}; {_sources(reason.sources)}]")
    for note in d.notes:
        out.append(f"- note: {_md(note)}")
    if d.replacement:
        rep = d.replacement
        out.append(f"- suggested legal replacement ({ordinal(rep['edition'])} edition, {rep['figure']} {rep[rep['figure']]}):")
        out.append("")
        out.append("  ```")
        out.extend(f"  {line}" for line in str(rep["text"]).splitlines())
        out.append("  ```")
    return "\n".join(out) + "\n\n"


def render_card(record: Record, fmt: str, words: dict[str, str] | None = None) -> str:
    """One card's entry in ``fmt`` (``json``: the object, without a separator); ``words``: the target
    rulebook's own words for the outcomes (:attr:`~kotc_rulesc.migrate.plan.Migrator.words`)."""
    if fmt == "json":
        return json.dumps(record.to_json(words), ensure_ascii=False)
    if fmt == "markdown":
        return _markdown_card(record, words)
    return _text_card(record, words)


# --------------------------------------------------------------------------- the whole report


#: what goes before a JSON report's card entry that is not the first
_JSON_SEPARATOR = ",\n  "


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
        elif self.fmt == "markdown":
            dry = " (dry run: nothing written)" if dry_run else ""
            self.stream.write(f"# Migration of {collection} to the {ordinal(target)} edition{dry}\n\n")
        else:
            dry = " (dry run: nothing written)" if dry_run else ""
            self.stream.write(f"Migration of {collection} to the {ordinal(target)} edition{dry}\n\n")

    def entry(self, rendered: str) -> None:
        """A card entry rendered by :func:`render_card` in this writer's format."""
        if self.fmt == "json":
            self.stream.write(("\n  " if self._first else _JSON_SEPARATOR) + rendered)
        else:
            self.stream.write(rendered + ("\n" if self.fmt == "text" else ""))
        self._first = False

    def end(self, totals: Totals, dry_run: bool = False) -> None:
        if self.fmt == "json":
            self.stream.write(("\n" if not self._first else "") + '], "totals": ' + json.dumps(totals.to_json()) + "}\n")
        elif self.fmt == "markdown":
            c = totals.counts
            banned = self.words.get("banned", "banned")
            self.stream.write(f"## Totals\n\n| cards | migrated | of which re-issued | unchanged | {banned} | of which unknown | errors |\n")
            self.stream.write("|---:|---:|---:|---:|---:|---:|---:|\n")
            self.stream.write(f"| {c['cards']} | {c['migrated']} | {c['reissued']} | {c['unchanged']} | {c['banned']} | "
                              f"{c['unknown']} | {c['errors']} |\n")
        else:
            self.stream.write(f"Totals: {summary_line(totals, dry_run, self.words)}\n")
