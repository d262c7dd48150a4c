"""JSON and JSONL collections migrated card by card, in constant memory: an unchanged card's text is
copied byte for byte; in a changed one only what changes is written, in the card's own style (compact
or spaced, escaped or raw Unicode, indented like the original), the rest of its text kept byte for
byte; what lies between the cards passes through untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..cards.collection import whole_collection
from ..cards.fields import kind_of
from ..memo import Memo
from ..reading.json_reader import JsonProblem, JsonStream, json_line, json_members, plain_name_at
from ..reading.policy import blank_line, jsonl_lines
from .edit import edit_dict, insert_position, planned
from .plan import MARK, Decision, Migrator, NeedsFrom
from .report import CardReport, Record, Totals, attention_line


class MissingFrom(Exception):
    """A card without an Edition Indicator, and no ``--from``."""

    def __init__(self, index: int, line: int | None, name: Any):
        what = f"card [{index + 1}]" + (f' "{name}"' if isinstance(name, str) and name else "") + (f" (line {line})" if line else "")
        super().__init__(what)
        self.index, self.line, self.name = index, line, name

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
    unmarked: bool = False  # it lists an entry that is no card (which gets no 'migration' field)


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

    def note(self, result: BlockResult, rec: Record) -> None:
        result.totals.add(rec)
        if self.render is not None:
            result.entries.append(self.render(rec))
        if not rec.legal and len(result.attention) < self.attention_cap:
            result.attention.append(attention_line(rec, self.migrator.words))
            result.unmarked |= rec.decision is None

    def decide(self, card: dict, index: int, line: int | None) -> Decision:
        try:
            return self.migrator.decide(card)
        except NeedsFrom:
            raise MissingFrom(index, line, card.get("name")) from None


# --------------------------------------------------------------------------- writing a changed card


#: ``json.dumps`` in each style a card's text may have (escaped Unicode, spaced separators), made once;
#: decoded JSON has no cycles to check for
_ENCODERS = {(escaped, spaced): json.JSONEncoder(ensure_ascii=escaped, check_circular=False,
                                                 separators=(", ", ": ") if spaced else (",", ":")).encode
             for escaped in (False, True) for spaced in (False, True)}


def _style(raw: str) -> tuple[bool, bool]:
    """(escaped Unicode, spaced separators) as in ``raw``, one card's original text."""
    return raw.isascii() and "\\u" in raw, '": ' in raw


def _unit(raw: str, base: str) -> str:
    """The indent of one level in ``raw``, a card's text on several lines, indented ``base``."""
    second = raw.split("\n", 2)[1]
    inner = second[: len(second) - len(second.lstrip(" \t"))]
    return inner[len(base):] if inner.startswith(base) and len(inner) > len(base) else "  "


def _eol(raw: str) -> str:
    """The line end of ``raw``, a card's text on several lines: a CRLF file's stays CRLF."""
    return "\r\n" if "\r\n" in raw else "\n"


def dumps_element(card: dict, raw: str, base: str) -> str:
    """A card as an element of a JSON array, laid out like its original text ``raw`` (indented ``base``)."""
    escaped, spaced = _style(raw)
    if "\n" not in raw:
        return _ENCODERS[escaped, spaced](card)
    return json.dumps(card, indent=_unit(raw, base), ensure_ascii=escaped).replace("\n", _eol(raw) + base)


def edited_text(card: dict, d: Decision, raw: str, base: str = "") -> str | None:
    """``raw``, the text of ``card``, with the decision applied (``None``: the card does not change), in
    the card's own style (:func:`dumps_element`): a changed field's value is written anew, a new field
    inserted where :func:`insert_position` puts it, the marker added last, replaced or removed; every
    other byte of the card is kept, as the YAML writer keeps them (numbers, spacing, layout, order)."""
    updates, mark = planned(card, d)
    if not updates and mark is ...:
        return None
    members = json_members(raw)
    keys = [k for k, *_ in members if k != MARK or mark is not None]
    if not keys:  # nothing of the card's own to keep
        start, end = raw.index("{"), raw.rindex("}") + 1
        return raw[:start] + dumps_element(edit_dict(card, d), raw[start:end], base) + raw[end:]
    escaped, spaced = _style(raw)
    if "\n" in raw:  # a value one level in, as json.dumps(indent=) lays it out, in the card's line ends
        unit, eol = _unit(raw, base), _eol(raw)
        comma, colon = "," + eol + base + unit, ": "
        def encode(value: Any) -> str:
            return json.dumps(value, indent=unit, ensure_ascii=escaped).replace("\n", eol + base + unit)
    else:
        encode = _ENCODERS[escaped, spaced]
        comma, colon = (", ", ": ") if spaced else (",", ":")
    if mark is not ... and mark is not None:
        updates[MARK] = mark
        if MARK not in card:
            keys.append(MARK)
    for key in updates:
        if key not in card and key != MARK:
            keys.insert(insert_position(keys, key), key)
    edits = []
    at = {k: (i, key_at, start, end) for i, (k, key_at, start, end) in enumerate(members)}
    first = next(at[k][1] for k in keys if k in at)  # where the first field kept starts
    for k, (i, key_at, start, end) in at.items():
        if k in updates:
            edits.append((start, end, encode(updates[k])))
        elif k == MARK and mark is None:  # with the comma before it (after it, if it comes first)
            edits.append((members[i - 1][3], end, "") if i else (key_at, members[1][1], ""))
    after = None  # the last field kept before the one inserted
    for k in keys:
        if k in at:
            after = at[k][3]
            continue
        member = encode(k) + colon + encode(updates[k])
        edits.append((after, after, comma + member) if after is not None else (first, first, member + comma))
    out, pos = [], 0
    for start, end, text in sorted(edits, key=lambda e: e[:2]):
        out += raw[pos:start], text
        pos = end
    out.append(raw[pos:])
    return "".join(out)


# --------------------------------------------------------------------------- JSONL

def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes.  A line the input
    policy refuses is one unreadable card, kept.  A line the same as one seen before but for its plain
    name (:func:`plain_name_at`) is written from memory (``ctx.lines``), the name copied in."""
    lines = jsonl_lines(None, block, first_line, bom=False)  # the input policy: UTF-8 text without NUL bytes
    result = BlockResult(0, Totals())
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
            problem = (whole_collection(card) if type(card) is dict else f"{kind_of(card)}, not a card (a JSON object)")
        if problem is not None:
            out.append(raw)
            ctx.note(result, Record(index, number, None, None, False, problem))
            index += 1
            continue
        d = ctx.decide(card, index, number)
        text = None if d.status == "unchanged" and MARK not in card else edited_text(card, d, raw.decode("utf-8"))
        new = raw if text is None else text.encode("utf-8")
        out.append(new)
        if start and ctx.migrator.key(card) is not None:  # (a card decided on its own is not remembered either)
            if new is raw:
                seen.put(raw[end:], (start, d, None, None))
            else:
                at, _ = plain_name_at(new)  # (a changed card keeps its name first: the same name, plain)
                if at:
                    seen.put(raw[end:], (start, d, new[:at], new[at + end - start:]))
        name = card.get("name")
        ctx.note(result, Record(index, number, name if isinstance(name, str) else None, d, text is not None))
        index += 1
    result.cards = index - first_index
    result.output = b"\n".join(out)
    return result


# --------------------------------------------------------------------------- JSON


def json_cards(ctx: Context, items: list[tuple[str, Any, int | None, str]], first_index: int) -> BlockResult:
    """Migrate cards of a JSON collection, ``items`` of ``(raw text, value or None: decode it, line, base
    indent)``; ``output`` lists the new text of each card, ``None`` for one that does not change."""
    result = BlockResult(0, Totals())
    outputs: list[str | None] = []
    index = first_index
    for raw, value, line, base in items:
        card = json.loads(raw) if value is None else value
        if type(card) is not dict:
            outputs.append(None)
            ctx.note(result, Record(index, line, None, None, False, f"{kind_of(card)}, not a card (a JSON object)"))
            index += 1
            continue
        d = ctx.decide(card, index, line)
        new = None if d.status == "unchanged" and MARK not in card else edited_text(card, d, raw, base)
        outputs.append(new)
        name = card.get("name")
        ctx.note(result, Record(index, line, name if isinstance(name, str) else None, d, new is not None))
        index += 1
    result.cards = index - first_index
    result.output = outputs
    return result


def json_collection(ctx: Context, fp: Any, display: str | None,
                    batch: int = 2000) -> Iterator[tuple[BlockResult, str]]:
    """A JSON collection migrated ``batch`` cards at a time: each batch's result and its new text,
    what lies between the cards passed through as it is."""
    pieces: list = []  # raw text, or the number of a card in items
    items: list = []  # (raw, value, line, base indent)
    first = 0
    for event in JsonStream(fp, display=display).events():
        if event[0] == "raw":
            pieces.append(event[1])
            continue
        pieces.append(len(items))
        items.append(event[1:])
        if len(items) >= batch:
            yield _batch(ctx, pieces, items, first)
            first += len(items)
            pieces, items = [], []
    yield _batch(ctx, pieces, items, first)


def _batch(ctx: Context, pieces: list, items: list, first: int) -> tuple[BlockResult, str]:
    result = json_cards(ctx, items, first)
    new = result.output
    return result, "".join(p if isinstance(p, str) else new[p] or items[p][0] for p in pieces)
