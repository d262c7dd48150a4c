"""JSON and JSONL collections, card by card, in constant memory.

* **JSONL** is read in blocks of whole lines; every line is one card.  A line whose
  card does not change is written back byte for byte; a changed card is written
  in the line's own style (compact or spaced separators, escaped or raw Unicode).
  Blank lines and lines that are not JSON objects are kept as they are.
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
from typing import Any

from ..inputs import InputError, JsonProblem, JsonStream, decode, json_line, read_blocks
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


class Context:
    """Everything one process needs to migrate cards: the migrator and what to report."""

    def __init__(self, migrator: Migrator, report_format: str | None, attention_cap: int = 20):
        self.migrator = migrator
        self.report_format = report_format
        self.attention_cap = attention_cap

    def new_result(self) -> BlockResult:
        return BlockResult(0, Totals())

    def note(self, result: BlockResult, rec: Record) -> None:
        result.totals.add(rec)
        if self.report_format is not None and rec.notable:
            result.entries.append(render_card(rec, self.report_format, self.migrator.words))
        if not rec.legal and len(result.attention) < self.attention_cap:
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

# one encoder per style: json.dumps with arguments would build a new encoder for every card
_ENCODERS = {
    (escaped, spaced): json.JSONEncoder(ensure_ascii=escaped, separators=(", ", ": ") if spaced else (",", ":")).encode
    for escaped in (False, True)
    for spaced in (False, True)
}


def _style(raw: str | bytes) -> tuple[bool, bool]:
    """(escaped Unicode, spaced separators) as in ``raw``, one card's original text."""
    if isinstance(raw, bytes):
        return raw.isascii() and b"\\u" in raw, b'": ' in raw
    return raw.isascii() and "\\u" in raw, '": ' in raw


def dumps_line(card: dict, raw: str) -> str:
    """A card as one JSONL line, in the style of its original line ``raw``."""
    out = _ENCODERS[_style(raw)](card)
    return out + "\r" if raw.endswith("\r") else out


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

def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes.  A block that is
    not UTF-8 text raises :class:`~kotc_rulesc.inputs.InputError` (the file cannot be read); a line
    the input policy refuses is one unreadable card, kept as it is."""
    text = decode(None, block, first_line, bom=False)
    result = ctx.new_result()
    counts = result.totals.counts
    decide = ctx.migrator.decide
    quiet = ctx.report_format is None
    out: list = []
    append = out.append
    index = first_index
    for n, raw in enumerate(text.split("\n")):
        if not raw or raw.isspace():
            append(raw)
            continue
        try:
            card = json_line(raw)
        except JsonProblem as exc:
            append(raw)
            ctx.note(result, Record(index, first_line + n, None, None, False, exc.message))
            index += 1
            continue
        if type(card) is not dict:
            append(raw)
            ctx.note(result, Record(index, first_line + n, None, None, False,
                                    f"a JSON {type(card).__name__}, not a card (a JSON object)"))
            index += 1
            continue
        try:
            d = decide(card)
        except NeedsFrom:
            raise MissingFrom(index, first_line + n, card.get("name")) from None
        status = d.status
        if status == "unchanged" and MARK not in card:  # the common cases, kept cheap
            append(raw)
            counts["cards"] += 1
            counts["unchanged"] += 1
            index += 1
            continue
        new = edit_dict(card, d)
        if new is None:
            append(raw)
        else:
            append(dumps_line(new, raw))
        if quiet and d.legal:
            counts["cards"] += 1
            if new is not None:
                counts["changed"] += 1
                counts["migrated"] += 1
                if status == "reissued":
                    counts["reissued"] += 1
            else:
                counts["unchanged"] += 1
        else:
            name = card.get("name")
            ctx.note(result, Record(index, first_line + n, name if isinstance(name, str) else None, d, new is not None))
        index += 1
    result.cards = index - first_index
    result.output = "\n".join(out).encode("utf-8")
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
