"""Judgements and cost breakdowns as text and JSON (``check-cards`` and ``cost``)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable, Iterable

from ..citation import Citations
from ..memo import Memo
from ..model import ordinal
from ..outcomes import MISPRINTED, outcome_key, outcome_word as _word
from .legality import Judgement
from .model import Reason

STATUSES = ("legal", "banned", "error", "unknown")


class Tally:
    """A collection judged card after card, counted as ``check-cards`` and the API count it: statuses,
    the cards with warnings (a legal card may have them) and (``deck``) the deck; in constant memory."""

    def __init__(self, deck: bool = False):
        self.counts: Counter = Counter()
        self.warned = 0
        self.deck = None
        if deck:
            from .deck import DeckTally

            self.deck = DeckTally()

    def add(self, j: Judgement) -> None:
        self.counts[j.status] += 1
        if j.warnings:
            self.warned += 1
        if self.deck is not None:
            self.deck.add(j)

    def summary(self) -> dict[str, int]:
        counts = self.counts
        return {"cards": sum(counts[s] for s in STATUSES), **{s: counts[s] for s in STATUSES},
                "with_warnings": self.warned}

    def deck_verdict(self, catalog: Any) -> Any:
        """The deck's :class:`~kotc_rulesc.cards.deck.DeckVerdict` (None: not judged as a deck)."""
        return self.deck.verdict(catalog) if self.deck is not None else None


def summary(judgements: Iterable[Judgement]) -> dict[str, int]:
    """Counts by status, and of the cards with warnings."""
    tally = Tally()
    for j in judgements:
        tally.add(j)
    return tally.summary()


def summary_text(counts: dict[str, int], rulebook: Any = None, outcomes: Counter | None = None) -> str:
    """ "15 cards: 10 legal, 4 pruned, 1 invalid; 3 with warnings": each outcome in the edition's own word
    (``outcomes``: the cards counted by :func:`~kotc_rulesc.outcomes.outcome_key`, as :class:`CardTexts` counts)."""
    n = counts["cards"]
    misprinted = outcomes[MISPRINTED] if outcomes else 0
    words: Counter = Counter()  # (a word for two outcomes, "banned" up to the 12th, counts them once)
    for s in STATUSES:
        words[outcome_word(s, rulebook)] += counts[s] - (misprinted if s == "banned" else 0)
        if s == "banned":
            words[outcome_word(MISPRINTED, rulebook)] += misprinted
    parts = [f"{count} {word}" for word, count in words.items() if count]
    warned = counts.get("with_warnings", 0)
    tail = f"; {warned} with warnings" if warned else ""
    return f"{n} card{'s' if n != 1 else ''}: " + (", ".join(parts) if parts else "none") + tail


def _verdict_text(j: Judgement, rulebook: Any) -> str:
    """What follows the card's title: ": pruned — level 6, printed 3, 2 Ultra Points"."""
    cost = "not computed" if j.status == "error" else "unknown" if j.cost is None else str(j.cost)
    printed = "" if j.printed_cost is None else f", printed {j.printed_cost}"
    ultra = ""
    if j.counts_ultra and j.ultra_points is not None:  # the 17th: a deck holds at most 10
        ultra = f", {j.ultra_points} Ultra Point{'s' if j.ultra_points != 1 else ''}"
    return f": {outcome_word(j.status, rulebook, j.reasons)} — {j.figure} {cost}{printed}{ultra}"


def reason_line(r: Reason, cite: Citations | None = None) -> str:
    """A reason as a line says it: code, message, what to print instead (with ``cite``: its field and citation)."""
    fld = f" (field {r.field})" if cite is not None and r.field else ""
    instead = f'; print instead: "{r.instead}"' if r.instead is not None else ""
    return f"{r.code}{fld}: {r.message}{instead}" + (cite.reason(r) if cite is not None else "")


def warning_line(w: Reason, cite: Citations | None = None) -> str:
    """A warning as a line says it: the *should* rule broken, the text to reprint (with ``cite``, as reason_line)."""
    fld = f" (field {w.field})" if cite is not None and w.field else ""
    instead = f'; reprint as "{w.instead}"' if w.instead is not None else ""
    return f"warning: {w.code}{fld}: {w.message}{instead}" + (cite.reason(w) if cite is not None else "")


def _where(file: str | None, line: int | None) -> str:
    if not file:
        return ""
    return f"{file}:{line}: " if line else f"{file}: "


def outcome_word(status: str, rulebook: Any, reasons: Iterable[Reason] = ()) -> str:
    """The edition's own word for a judgement's status and ``reasons``: "pruned" for banned from the 13th on."""
    return _word(status, rulebook.terms if rulebook is not None else None, (r.code for r in reasons))


def card_json(j: Judgement, rulebook: Any) -> dict[str, Any]:
    """A card's entry in ``check-cards --format json``: the judgement's, with ``outcome`` (the edition's
    word for its ``status``, a machine code) after the status."""
    items = list(j.to_json().items())  # index, name, status, …
    return dict(items[:3] + [("outcome", outcome_word(j.status, rulebook, j.reasons))] + items[3:])


def cost_json(j: Judgement, edition: Any, figure: str, rulebook: Any = None) -> dict[str, Any]:
    """What ``cost --format json`` prints for one card (``figure``: "cost" up to the 10th, "level" on)."""
    entry = j.to_json()
    return {"index": j.index, "name": j.name, "edition": edition, figure: j.cost, f"printed_{figure}": j.printed_cost,
            **({"ultra_points": j.ultra_points} if j.counts_ultra else {}),
            "status": j.status, "outcome": outcome_word(j.status, rulebook, j.reasons), "breakdown": j.breakdown, "reasons": entry["reasons"],
            "warnings": entry["warnings"], "notes": j.notes}


def judgement_text(j: Judgement, cite: Citations, rulebook: Any = None, file: str | None = None,
                   said: tuple[str, ...] = ()) -> str:
    """One card: its outcome and figure, every reason (located) and note but those ``said`` already."""
    return CardTexts(file, cite, rulebook, said)(j)


#: distinct judgements whose words a writer keeps (as many as CardJudge remembers)
_KEPT = 8192


class CardTexts:
    """:func:`judgement_text` for card after card: what a judgement says but for which card it is and
    where is put into words once per distinct judgement (the copies of a design share its lists); the
    cards written counted by outcome (``outcomes``, for :func:`summary_text`)."""

    def __init__(self, file: str | None, cite: Citations, rulebook: Any = None, said: tuple[str, ...] = ()):
        self.file = file
        self.cite = cite
        self.rulebook = rulebook
        self.said = said
        self._words = Memo(_KEPT)  # id(reasons) → (reasons, notes, verdict, [(reason, text)], notes' lines, outcome)
        self.outcomes: Counter = Counter()

    def __call__(self, j: Judgement) -> str:
        kept = self._words
        words = kept.get(id(j.reasons))
        if words is None or words[0] is not j.reasons or words[1] is not j.notes:  # (kept alive here: ids stay theirs)
            cite = self.cite
            words = (j.reasons, j.notes, _verdict_text(j, self.rulebook),
                     [(r, reason_line(r, cite)) for r in j.reasons] + [(w, warning_line(w, cite)) for w in j.warnings],
                     [f"    note: {note}" for note in j.notes if note not in self.said],
                     outcome_key(j.status, (r.code for r in j.reasons)))
            kept.put(id(j.reasons), words)
        _, _, verdict, reasons, notes, key = words
        self.outcomes[key] += 1
        head = f"[{j.index + 1}] {j.name if j.name is not None else '(no name)'}{verdict}"
        if not reasons and not notes:
            return head
        file = self.file
        lines = [head]
        if not j.field_lines:  # every reason on the card's line (a JSONL card)
            where = f"    {_where(file, j.line)}"
            lines += [where + text for _, text in reasons]
        else:
            lines += [f"    {_where(file, j.line_of(r))}{text}" for r, text in reasons]
        lines += notes
        return "\n".join(lines)


class CheckJson:
    """``check-cards --format json`` written card after card, as ``json.dumps({"edition", "cards", "summary"[,
    "deck"]}, ensure_ascii=False, indent=2)`` writes it: each distinct judgement's entry is encoded once, its
    index, name and each reason's line filled in per card."""

    def __init__(self, write: Callable[[str], Any], edition: Any, rulebook: Any = None):
        self.write = write
        self.rulebook = rulebook
        self.empty = True
        self._entries = Memo(_KEPT)  # id(reasons) → (reasons, notes, pieces between the lines), as CardTexts keeps
        write('{\n  "edition": ' + _dumps(edition) + ',\n  "cards": [')

    def card(self, j: Judgement) -> None:
        reasons = j.reasons
        kept = self._entries.get(id(reasons))
        if kept is None or kept[0] is not reasons or kept[1] is not j.notes:
            kept = (reasons, j.notes, _entry_pieces(j, self.rulebook))
            self._entries.put(id(reasons), kept)
        pieces = kept[2]
        name = "null" if j.name is None else _json_string(j.name)
        head = f'{_AFTER if not self.empty else _FIRST}{{\n      "index": {j.index},\n      "name": {name},\n'
        if not j.field_lines:  # every reason on the card's line (a JSONL card), or none
            self.write(head + ("null" if j.line is None else str(j.line)).join(pieces))
        else:
            out = [head, pieces[0]]
            for r, piece in zip([*reasons, *j.warnings], pieces[1:]):
                line = j.line_of(r)
                out.append("null" if line is None else str(line))
                out.append(piece)
            self.write("".join(out))
        self.empty = False

    def end(self, summary: dict[str, int], deck: dict[str, Any] | None = None) -> None:
        out = ("]" if self.empty else "\n  ]") + ',\n  "summary": ' + _dumps(summary, 1)
        if deck is not None:
            out += ',\n  "deck": ' + _dumps(deck, 1)
        self.write(out + "\n}")


#: what comes before a card's entry: the first, and every other
_FIRST, _AFTER = "\n    ", ",\n    "
#: a string as ``json.dumps(…, ensure_ascii=False)`` writes it, without the call's overhead (once per card)
_json_string = json.encoder.encode_basestring


def _dumps(value: Any, level: int | None = None) -> str:
    """``value`` as ``json.dumps(…, ensure_ascii=False)`` writes it, or indented by 2 and nested ``level`` deep."""
    if level is None:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * level)


def _entry_pieces(j: Judgement, rulebook: Any) -> list[str]:
    """A card's entry after its name, nested in the document, cut where each reason's (and warning's) line
    goes: found as ``"line": NaN``, which no JSON string can hold and no other value is."""
    entry = card_json(j, rulebook)
    del entry["index"], entry["name"]
    for reason in entry["reasons"] + entry["warnings"]:
        reason["line"] = _NAN
    text = _dumps(entry, 2)[2:]  # (without its opening brace: the index and name come first)
    pieces = text.split('"line": NaN')
    assert len(pieces) == len(j.reasons) + len(j.warnings) + 1
    return [p + '"line": ' for p in pieces[:-1]] + pieces[-1:]


_NAN = float("nan")


#: a breakdown part's own keys; the others are the variables the ability set for its formula (t, a)
_PART_KEYS = ("component", "kind", "noun", "text", "formula", "values", "role", "says", "value", "ultra")


def _part_text(part: dict[str, Any]) -> str:
    ultra = f" [+{part['ultra']}]" if part.get("ultra") else ""  # its Ultra Points (the 17th's)
    head = f"      {part['noun']:<20} \"{part['text']}\"{ultra}"
    if part["role"] == "none":
        return head + " (no formula)"
    formula = part["formula"] if part["formula"] is not None else "unknown"
    value = part["value"] if part["value"] is not None else "unknown"
    items = [f"{k}={v}" for k, v in sorted(part["values"].items())]
    items += [f"{k}={'unknown' if v is None else v}" for k, v in part.items() if k not in _PART_KEYS]
    values = f" ({', '.join(items)})" if items else ""
    if part["role"].startswith("sets "):  # a target selection (a condition, the 11th's): it adds nothing itself
        var = part["role"][len("sets "):]
        return f"{head}\n      {'':<20} {var} = {formula}{values} = {value} (for its effects' formulas)"
    return f"{head}\n      {'':<20} {part.get('says', part['role'])} {formula}{values} = {value}"


def _scope_word(name: str, parts: str) -> str:
    """ "sub-ability level", "minion ability cost", "total relief": a rule's formula in its guide's words."""
    if name.endswith("_cost"):
        name = name[: -len("_cost")] + " " + parts
    return name.replace("sub_ability", "sub-ability").replace("_", " ")


def _values_line(entry: dict[str, Any], rule: dict[str, Any] | None, parts: str) -> str:
    """ "      total relief 3, ability cost 2": the rule's formulas of an ability or sub-ability, as computed."""
    names = [name for name in (rule or {}) if name not in ("edition", "stated", "sources") and name in entry]
    values = [f"{_scope_word(n, parts)} {entry[n]}" for n in names if entry[n] is not None]
    return "      " + ", ".join(values) if values else ""


def breakdown_text(j: Judgement) -> str:
    """The figure of one card (cost, level), per component and per ability (``kotc-rulesc cost``)."""
    b = j.breakdown
    figure = b["figure"] if b else "cost"
    head = f"{j.name or '(no name)'}: {figure} {j.cost if j.cost is not None else 'unknown'} in the {ordinal(j.edition or 0)} edition"
    if b is None:
        return head
    lines = [head]
    rule = b["rule"]
    stats = ", ".join(f"{name} {b.get(name)}" for name in b["stats"])
    lines.append(f"  {b['type']}: {stats}" if stats else f"  {b['type']}")
    for kind, noun in b["card_kinds"].items():
        if b.get(kind):
            lines.append(f"  {noun}")
            lines.append(_part_text(b[kind]))
    for i, ability in enumerate(b["abilities"], 1):
        lines.append(f"  ability {i}" + (f": {ability['name']}" if ability["name"] else "") + f" (paragraph {ability['paragraph']})")
        for part in ability["components"]:
            lines.append(_part_text(part))
        for k, sub in enumerate(ability.get("sub_abilities", ()), 1):
            lines.append(f"    sub-ability {k}")
            for part in sub["components"]:
                lines.append(_part_text(part))
            lines.append(_values_line(sub, rule, b.get("parts", "cost")))
        line = _values_line(ability, rule, b.get("parts", "cost"))
        lines.append(line[2:] if "sub_abilities" in ability else line)  # outdented under its sub-abilities
    if rule is not None:
        which = f"{b['type']}_cost"
        stated = "" if rule["stated"] else f" (the {ordinal(rule['edition'])} edition's rule)"
        total = b["total"] if b["total"] is not None else "unknown"
        lines.append(f"  {b['figure_title']} = {rule[which]} = {total}{stated}")
    if b.get("ultra_points"):
        lines.append(f"  Ultra Points: {b['ultra_points']} (the sum of its texts' [+N])")
    return "\n".join(line for line in lines if line)
