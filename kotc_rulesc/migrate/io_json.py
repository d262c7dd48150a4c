"""JSON and JSONL collections, card by card, in constant memory.

* **JSONL** is read in blocks of whole lines, a card a line.  An unchanged card's line is written back
  byte for byte, a changed one in the line's own style (compact or spaced, escaped or raw Unicode);
  blank lines and lines that are not JSON objects are kept.  A line the same as one seen before but
  for the name is written from memory, without being decoded, decided or encoded again.
* **JSON** (``{"cards": [...]}``, a bare list, or one card) is read by
  :class:`~kotc_rulesc.reading.json_reader.JsonStream` a card at a time; what lies between the cards
  passes through untouched, and a changed card is indented like the original.

Both under the input policy (:mod:`kotc_rulesc.reading`): a block that is not UTF-8 stops the run; a
JSONL line the policy refuses is one unreadable card, kept as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..memo import Memo
from ..reading.json_reader import JsonProblem, json_line, plain_name_at
from ..reading.policy import blank_line, jsonl_lines
from .edit import edit_dict
from .plan import MARK, Decision, Migrator, NeedsFrom
from .report import CardReport, Record, Totals, outcome

__all__ = ["Context", "BlockResult", "MissingFrom", "jsonl_block", "json_cards"]

_loads = json.loads


class MissingFrom(Exception):
    """A card without an Edition Indicator, and no ``--from``."""

    def __init__(self, index: int, line: int | None, name: Any):
        what = f"card [{index + 1}]" + (f' "{name}"' if isinstance(name, str) and name else "") + (f" (line {line})" if line else "")
        super().__init__(what)
        self.index, self.line, self.name = index, line, name

    def __reduce__(self):
        return (MissingFrom, (self.index, self.line, self.name))

    def describe(self) -> str:
        return (f"{self.args[0]} has no Edition Indicator (no 'edition' field): give --from E, the edition "
                "to assume for cards without one (for example --from 6 for cards of the 6th-edition layout)")


@dataclass
class BlockResult:
    """What a block of cards gave: its output and its share of the report."""

    cards: int
    totals: Totals
    entries: list[str] = field(default_factory=list)  # rendered report entries (when a full report is written)
    attention: list[str] = field(default_factory=list)  # one line per card that does not end legal (capped)
    output: Any = None  # bytes for JSONL, a list of str | None for JSON
    room: int = 0  # how many cards needing attention it lists at most (set by Context.new_result)


class Context:
    """Everything one process needs to migrate cards: the migrator and what to report."""

    def __init__(self, migrator: Migrator, report_format: str | None, attention_cap: int = 20, verbose: bool = False):
        self.migrator = migrator
        self.report_format = report_format
        #: renders each card's report entry (None: no report is written)
        self.render = None if report_format is None else \
            CardReport(report_format, migrator.view, migrator.target, migrator.words, verbose)
        self.attention_cap = attention_cap
        #: JSONL lines already seen, but for the name (this process's own: :func:`jsonl_block`)
        self.lines = Memo(4096)

    def new_result(self, room: int | None = None) -> BlockResult:
        """An empty result, listing at most ``room`` cards needing attention (default: the cap)."""
        return BlockResult(0, Totals(), room=self.attention_cap if room is None else min(room, self.attention_cap))

    def note(self, result: BlockResult, rec: Record) -> None:
        result.totals.add(rec)
        if self.render is not None:
            result.entries.append(self.render(rec))
        if not rec.legal and len(result.attention) < result.room:
            result.attention.append(attention_line(rec, self.migrator.words))

    def decide(self, card: dict, index: int, line: int | None) -> Decision:
        try:
            return self.migrator.decide(card)
        except NeedsFrom:
            raise MissingFrom(index, line, card.get("name")) from None


def attention_line(rec: Record, words: dict[str, str] | None = None) -> str:
    """One line for a card that does not end legal: ``[number] Name (line N): pruned — codes``, numbered
    from 1 and in the target rulebook's word, as the report says it."""
    name = f" {rec.name}" if rec.name else ""
    where = f" (line {rec.line})" if rec.line else ""
    d = rec.decision
    if d is None:
        return f"[{rec.index + 1}]{name}{where}: error — {rec.problem}"
    codes = ", ".join(dict.fromkeys(r.code for r in d.reasons)) or d.status
    return f"[{rec.index + 1}]{name}{where}: {outcome(d.status, words)} — {codes}"


# --------------------------------------------------------------------------- writing a changed card


#: ``json.dumps`` in each style a card's text may have (escaped Unicode, spaced separators), made once;
#: decoded JSON has no cycles to check for
_ENCODERS = {(escaped, spaced): json.JSONEncoder(ensure_ascii=escaped, check_circular=False,
                                                 separators=(", ", ": ") if spaced else (",", ":")).encode
             for escaped in (False, True) for spaced in (False, True)}


def _style(raw: str | bytes) -> tuple[bool, bool]:
    """(escaped Unicode, spaced separators) as in ``raw``, one card's original text."""
    if isinstance(raw, bytes):
        return raw.isascii() and b"\\u" in raw, b'": ' in raw
    return raw.isascii() and "\\u" in raw, '": ' in raw


def dumps_line(card: dict, raw: bytes) -> bytes:
    """A card as one JSONL line, in the style of its original line ``raw``."""
    out = _ENCODERS[_style(raw)](card).encode("utf-8")
    return out + b"\r" if raw.endswith(b"\r") else out


def dumps_element(card: dict, raw: str, base: str) -> str:
    """A card as an element of a JSON array, laid out like its original text ``raw``,
    whose first line is indented by ``base``."""
    escaped, spaced = _style(raw)
    if "\n" not in raw:
        return _ENCODERS[escaped, spaced](card)
    second = raw.split("\n", 2)[1]
    inner = second[: len(second) - len(second.lstrip(" \t"))]
    unit: Any = inner[len(base):] if inner.startswith(base) and len(inner) > len(base) else "  "
    if unit.strip(" ") == "":
        unit = len(unit)
    text = json.dumps(card, indent=unit, ensure_ascii=escaped)
    return text.replace("\n", "\n" + base)


# --------------------------------------------------------------------------- JSONL

def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int, room: int | None = None) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes; ``room``: how many
    cards needing attention the caller still lists (default: ``ctx.attention_cap``).  A block that is
    not UTF-8 text raises :class:`~kotc_rulesc.reading.policy.InputError`; a line the input policy
    refuses is one unreadable card, kept as it is.

    A line that repeats one seen before but for a plainly written name
    (:func:`~kotc_rulesc.reading.json_reader.plain_name_at`) is the same card but for its name: it is
    written from memory (``ctx.lines``, by the text after the name), the name copied in, without
    being decoded, decided or encoded again."""
    lines = jsonl_lines(None, block, first_line, bom=False)  # the input policy: UTF-8 text without NUL bytes
    result = ctx.new_result(room)
    seen = ctx.lines
    out: list[bytes] = []
    index = first_index
    for number, raw in enumerate(lines, first_line):
        start, end = plain_name_at(raw)
        hit = seen.get(raw[end:]) if start else None
        if hit is not None and hit[0] == start:  # (the name starts where it did: the same style)
            _, d, head, tail = hit
            out.append(raw if head is None else head + raw[start:end] + tail)
            ctx.note(result, Record(index, number, raw[start:end].decode("ascii"), d, head is not None))
            index += 1
            continue
        if not start and blank_line(raw):
            out.append(raw)
            continue
        try:
            card = json_line(raw)
        except JsonProblem as exc:
            card, problem = None, exc.message
        else:
            problem = None if type(card) is dict else f"a JSON {type(card).__name__}, not a card (a JSON object)"
        if problem is not None:
            out.append(raw)
            ctx.note(result, Record(index, number, None, None, False, problem))
            index += 1
            continue
        d = ctx.decide(card, index, number)
        edited = None if d.status == "unchanged" and MARK not in card else edit_dict(card, d)
        new = raw if edited is None else dumps_line(edited, raw)
        out.append(new)
        if start and ctx.migrator.key(card) is not None:  # (a card decided on its own is not remembered either)
            if new is raw:
                seen.put(raw[end:], (start, d, None, None))
            else:
                at, _ = plain_name_at(new)  # (a changed card keeps its name first: the same name, plain)
                if at:
                    seen.put(raw[end:], (start, d, new[:at], new[at + end - start:]))
        name = card.get("name")
        ctx.note(result, Record(index, number, name if isinstance(name, str) else None, d, edited is not None))
        index += 1
    result.cards = index - first_index
    result.output = b"\n".join(out)
    return result


# --------------------------------------------------------------------------- JSON


def json_cards(ctx: Context, items: list[tuple[str, Any, int | None, str]], first_index: int) -> BlockResult:
    """Migrate cards of a JSON collection: ``items`` are ``(raw text, value or None, line, base indent)``
    (the value is decoded from the raw text when ``None``); ``output`` lists the new text of each
    card, or ``None`` for a card that does not change."""
    result = ctx.new_result()
    outputs: list[str | None] = []
    index = first_index
    for raw, value, line, base in items:
        card = _loads(raw) if value is None else value
        if type(card) is not dict:
            outputs.append(None)
            ctx.note(result, Record(index, line, None, None, False, f"a JSON {type(card).__name__}, not a card (a JSON object)"))
            index += 1
            continue
        d = ctx.decide(card, index, line)
        new = None if d.status == "unchanged" and MARK not in card else edit_dict(card, d)
        outputs.append(None if new is None else dumps_element(new, raw, base))
        name = card.get("name")
        ctx.note(result, Record(index, line, name if isinstance(name, str) else None, d, new is not None))
        index += 1
    result.cards = index - first_index
    result.output = outputs
    return result
