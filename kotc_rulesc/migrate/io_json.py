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
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii
from typing import Any, Callable

from ..inputs import InputError, JsonProblem, JsonStream, blank_line, json_line, jsonl_lines, read_blocks
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


class Context:
    """Everything one process needs to migrate cards: the migrator and what to report."""

    def __init__(self, migrator: Migrator, report_format: str | None, attention_cap: int = 20):
        self.migrator = migrator
        self.report_format = report_format
        self.attention_cap = attention_cap
        #: JSONL lines already seen, but for the name (this process's own)
        self.lines = LineMemo()

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

#: how a line whose first field is the name starts, spaced or compact
_NAME_FIRST = (b'{"name": "', b'{"name":"')


def _name_cut(raw: bytes) -> tuple[int, int] | None:
    """Where the name's text is in a line that starts with the name (``{"name": "…"``), as
    ``(start, end)``, when that text is a plain name: printable ASCII, not blank, no escape —
    so that the JSON string is the name itself, and the rest of the line says all else."""
    start = 10 if raw.startswith(_NAME_FIRST[0]) else 9 if raw.startswith(_NAME_FIRST[1]) else 0
    if not start:
        return None
    end = raw.find(b'"', start)
    if end < 0:
        return None
    name = raw[start:end]
    if b"\\" in name or not name.isascii() or not name.strip() or not name.decode("ascii").isprintable():
        return None
    return start, end


class LineMemo:
    """What became of JSONL lines already seen, but for the name: a line whose first field is a plain
    name (:func:`_name_cut`) is remembered by the rest of its text, which decides everything else —
    whether the input policy takes it, the card's decisive fields, its decision and its output, in
    which the name is copied as it is.  The copies of a design in a collection differ by their names
    alone: each is then written without being decoded or encoded again.  Bounded (:class:`Memo`)."""

    __slots__ = ("_memo",)

    def __init__(self, limit: int = 4096):
        self._memo = Memo(limit)

    def get(self, key: bytes) -> tuple[Decision, bytes | None, bytes | None] | None:
        """``(decision, head, tail)``: the new line is ``head + name + tail``, or the line as it was
        when ``head`` is ``None``."""
        return self._memo.get(key)

    def put(self, key: bytes, name: bytes, decision: Decision, raw: bytes, new: bytes) -> None:
        if new is raw:
            self._memo.put(key, (decision, None, None))
            return
        start = 10 if new.startswith(_NAME_FIRST[0]) else 9 if new.startswith(_NAME_FIRST[1]) else 0
        if start and new.startswith(name + b'"', start):  # (a changed card keeps its name first)
            self._memo.put(key, (decision, new[:start], new[start + len(name):]))


def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes.  A block that is
    not UTF-8 text raises :class:`~kotc_rulesc.inputs.InputError` (the file cannot be read); a line
    the input policy refuses is one unreadable card, kept as it is."""
    lines = jsonl_lines(None, block, first_line, bom=False)  # the input policy: UTF-8 text without NUL bytes
    result = ctx.new_result()
    totals = result.totals
    migrator = ctx.migrator
    decide = migrator.decide
    seen = ctx.lines
    quiet = ctx.report_format is None
    attention = result.attention
    cap = ctx.attention_cap
    out: list[bytes] = []
    append = out.append
    index = first_index
    for number, raw in enumerate(lines, first_line):
        if blank_line(raw):
            append(raw)
            continue
        cut = _name_cut(raw)
        if cut is not None:
            key = raw[:cut[0]] + raw[cut[1]:]
            hit = seen.get(key)
            if hit is not None:  # a line seen before, but for the name
                d, head, tail = hit
                name = raw[cut[0]:cut[1]]
                append(raw if head is None else head + name + tail)
                if quiet and (d.legal or len(attention) >= cap):
                    totals.count(d.status, head is not None)
                else:
                    ctx.note(result, Record(index, number, name.decode("ascii"), d, head is not None))
                index += 1
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
        if cut is not None and migrator.key(card) is not None:
            seen.put(key, raw[cut[0]:cut[1]], d, raw, new)
        if quiet and (d.legal or len(attention) >= cap):
            totals.count(d.status, edited is not None)
        else:
            name = card.get("name")
            ctx.note(result, Record(index, number, name if isinstance(name, str) else None, d, edited is not None))
        index += 1
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
