"""JSON and JSONL collections, card by card, in constant memory.

* **JSONL** is read in blocks of whole lines; every line is one card.  A line whose
  card does not change is written back byte for byte; a changed card is written
  in the line's own style (compact or spaced separators, escaped or raw Unicode).
  Blank lines and lines that are not JSON objects are kept as they are.  A line the
  same as one seen before but for the card's name is written from memory, without
  being decoded, decided or encoded again (:func:`jsonl_block`).
* **JSON** (``{"cards": [...]}``, a bare list of cards, or a single card) is read by
  :class:`~kotc_rulesc.inputs.JsonStream`, the input policy's incremental reader:
  :meth:`json.JSONDecoder.raw_decode` over a buffered read decodes one card at a
  time, and everything between the cards (the other top-level keys, spacing, commas)
  passes through untouched.  A changed card is re-indented like the original.
* Both are read under the input policy (:mod:`kotc_rulesc.inputs`): a block that is
  not UTF-8 text stops the run; a JSONL line the policy refuses is one unreadable
  card, kept as it is.

The work on the cards themselves (:func:`jsonl_block`, :func:`json_cards`) takes
plain bytes and strings and returns the same, so that :mod:`kotc_rulesc.migrate.jobs`
can run it in other processes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii
from typing import Any, Callable

from ..inputs import InputError, JsonProblem, JsonStream, blank_line, json_line, jsonl_lines, plain_name_at, read_blocks
from ..memo import Memo
from .edit import edit_dict
from .plan import MARK, Decision, Migrator, NeedsFrom
from .report import Record, Totals, render_card

__all__ = [
    "Context",
    "BlockResult",
    "MissingFrom",
    "Unreadable",
    "jsonl_block",
    "json_cards",
    "JsonStream",
    "read_blocks",
    "count_cards",
]

_loads = json.loads
_NONBLANK = re.compile(rb"^[ \t\r\f\v]*[^\s]", re.M)


#: the collection cannot be read as a whole (the input policy's error; exit status 2)
Unreadable = InputError


class MissingFrom(Exception):
    """A card without an Edition Indicator, and no ``--from``."""

    def __init__(self, index: int, line: int | None, name: Any):
        what = f"card [{index}]" + (f' "{name}"' if isinstance(name, str) and name else "") + (f" (line {line})" if line else "")
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
    learned: list = field(default_factory=list)  # decisions made for this block (with --jobs: shared)
    room: int = 0  # how many cards needing attention it lists at most (set by Context.new_result)


class Context:
    """Everything one process needs to migrate cards: the migrator and what to report."""

    def __init__(self, migrator: Migrator, report_format: str | None, attention_cap: int = 20):
        self.migrator = migrator
        self.report_format = report_format
        self.attention_cap = attention_cap
        #: JSONL lines already seen, but for the name (this process's own: :func:`jsonl_block`)
        self.lines = Memo(4096)

    def new_result(self, room: int | None = None) -> BlockResult:
        """An empty result, listing at most ``room`` cards needing attention (default: the cap)."""
        return BlockResult(0, Totals(), room=self.attention_cap if room is None else min(room, self.attention_cap))

    def note(self, result: BlockResult, rec: Record) -> None:
        result.totals.add(rec)
        if self.report_format is not None and rec.notable:
            result.entries.append(render_card(rec, self.report_format, self.migrator.words))
        if not rec.legal and len(result.attention) < result.room:
            result.attention.append(attention_line(rec, self.migrator.words))

    def decide(self, card: dict, index: int, line: int | None) -> Decision:
        try:
            return self.migrator.decide(card)
        except NeedsFrom:
            raise MissingFrom(index, line, card.get("name")) from None


def attention_line(rec: Record, words: dict[str, str] | None = None) -> str:
    """One line for a card that does not end legal: ``[index] Name (line N): banned — codes``."""
    name = f" {rec.name}" if rec.name else ""
    where = f" (line {rec.line})" if rec.line else ""
    d = rec.decision
    if d is None:
        return f"[{rec.index}]{name}{where}: error — {rec.problem}"
    codes = ", ".join(dict.fromkeys(r.code for r in d.reasons)) or d.status
    status = (words or {}).get(d.status, d.status)  # "pruned" for banned where the rulebook says so
    return f"[{rec.index}]{name}{where}: {status} — {codes}"


# --------------------------------------------------------------------------- writing a changed card


def _encoder(escaped: bool, spaced: bool) -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=escaped, separators=…)``: the same text from the standard
    library's C encoder, made once (``json.dumps`` with arguments makes one per call, and checks
    for cycles, which decoded JSON cannot have)."""
    item, key = (", ", ": ") if spaced else (",", ":")
    if c_make_encoder is None:  # pragma: no cover - a Python without the C accelerator
        return json.JSONEncoder(ensure_ascii=escaped, separators=(item, key)).encode
    encode = c_make_encoder(None, json.JSONEncoder().default, encode_basestring_ascii if escaped else encode_basestring,
                            None, key, item, False, False, True)
    return lambda value: "".join(encode(value, 0))


# one encoder per style
_ENCODERS = {(escaped, spaced): _encoder(escaped, spaced) for escaped in (False, True) for spaced in (False, True)}


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

#: what a card counts as in the totals, numbered: (status, changed)
_OUTCOMES = [(status, changed) for status in ("rewritten", "reissued", "unchanged", "banned", "unknown", "error")
             for changed in (False, True)]
_OUTCOME = {outcome: number for number, outcome in enumerate(_OUTCOMES)}


def _seen(raw: bytes, start: int, end: int, d: Decision, new: bytes) -> tuple | None:
    """What :func:`jsonl_block` remembers of the line ``raw``, whose plain name is ``raw[start:end]``,
    migrated to ``new``: ``(start, decision, legal, head, tail, outcome)`` — the line of another copy,
    the same but for its name, becomes ``head + name + tail`` (or stays as it is when ``head`` is
    ``None``); ``outcome`` numbers what it counts as.  ``None`` where the name is not first in ``new``."""
    if new is raw:
        return start, d, d.legal, None, None, _OUTCOME[d.status, False]
    name = raw[start:end]
    at, _ = plain_name_at(new)  # (a changed card keeps its name first: the same name, plain)
    if not at:  # pragma: no cover
        return None
    return start, d, d.legal, new[:at], new[at + len(name):], _OUTCOME[d.status, True]


def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int, room: int | None = None) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes; ``room``: how many
    cards needing attention the caller still lists (default: ``ctx.attention_cap``), so that a full
    list costs nothing more per card.  A block that is
    not UTF-8 text raises :class:`~kotc_rulesc.inputs.InputError` (the file cannot be read); a line
    the input policy refuses is one unreadable card, kept as it is.

    Lines already seen but for the name (:func:`~kotc_rulesc.inputs.plain_name_at`) are not decoded
    again: the rest of such a line decides all else — whether the input policy takes it, the card's
    decisive fields, its decision, and its new text, in which the name is copied as it is (a changed
    card keeps its name first).  The copies of a design in a collection differ by their names alone:
    each copy after the first is written without being decoded, decided or encoded again.  They are
    remembered (``ctx.lines``, a bounded :class:`~kotc_rulesc.memo.Memo`) by the text after the name,
    with where the name starts (the spaced or compact style)."""
    lines = jsonl_lines(None, block, first_line, bom=False)  # the input policy: UTF-8 text without NUL bytes
    result = ctx.new_result(room)
    migrator = ctx.migrator
    decide = migrator.decide
    seen = ctx.lines
    quiet = ctx.report_format is None
    attention = result.attention
    cap = result.room
    tally = [0] * len(_OUTCOMES)  # cards only counted, by outcome
    out: list[bytes] = []
    append = out.append
    index = first_index
    for number, raw in enumerate(lines, first_line):
        start, end = plain_name_at(raw)
        if start:
            hit = seen.new.get(raw[end:]) or seen.get(raw[end:])  # (the memo's newer generation first: at once)
            if hit is not None and hit[0] == start:  # the line was seen before, but for the name
                _, d, legal, head, tail, outcome = hit
                append(raw if head is None else head + raw[start:end] + tail)
                if quiet and (legal or len(attention) >= cap):
                    tally[outcome] += 1
                else:
                    ctx.note(result, Record(index, number, raw[start:end].decode("ascii"), d, head is not None))
                index += 1
                continue
        elif not raw.startswith(b"{") and blank_line(raw):
            append(raw)
            continue
        try:
            card = json_line(raw)
        except JsonProblem as exc:
            append(raw)
            ctx.note(result, Record(index, number, None, None, False, exc.message))
            index += 1
            continue
        if type(card) is not dict:
            append(raw)
            ctx.note(result, Record(index, number, None, None, False,
                                    f"a JSON {type(card).__name__}, not a card (a JSON object)"))
            index += 1
            continue
        try:
            d = decide(card)
        except NeedsFrom:
            raise MissingFrom(index, number, card.get("name")) from None
        edited = None if d.status == "unchanged" and MARK not in card else edit_dict(card, d)
        new = raw if edited is None else dumps_line(edited, raw)
        append(new)
        if start and migrator.key(card) is not None:  # (a card decided on its own is not remembered either)
            remembered = _seen(raw, start, end, d, new)
            if remembered is not None:
                seen.put(raw[end:], remembered)
        if quiet and ((d.legal and not d.warnings) or len(attention) >= cap):  # (warned: counted by Totals.add)
            tally[_OUTCOME[d.status, edited is not None]] += 1
        else:
            name = card.get("name")
            ctx.note(result, Record(index, number, name if isinstance(name, str) else None, d, edited is not None))
        index += 1
    for (status, changed), cards in zip(_OUTCOMES, tally):
        if cards:
            result.totals.count(status, changed, cards)
    result.cards = index - first_index
    result.output = b"\n".join(out)
    return result


def count_cards(block: bytes) -> int:
    """The number of JSONL cards (non-blank lines) in a block."""
    lines = block.count(b"\n") + (0 if block.endswith(b"\n") or not block else 1)
    if block.count(b"\n{") + block.startswith(b"{") == lines:
        return lines  # every line starts a JSON object: no blank line (the common case, counted at C speed)
    return len(_NONBLANK.findall(block))


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
