"""JSON and JSONL collections, card by card, in constant memory.

* **JSONL** is read in blocks of whole lines; every line is one card.  A line whose
  card does not change is written back byte for byte; a changed card is written
  in the line's own style (compact or spaced separators, escaped or raw Unicode).
  Blank lines and lines that are not JSON objects are kept as they are.
* **JSON** (``{"cards": [...]}``, a bare list of cards, or a single card) is read by
  :class:`JsonStream`, an incremental reader: :meth:`json.JSONDecoder.raw_decode`
  over a buffered read decodes one card at a time, and everything between the
  cards (the other top-level keys, spacing, commas) passes through untouched.  A
  changed card is re-indented like the original.

The work on the cards themselves (:func:`jsonl_block`, :func:`json_cards`) takes
plain bytes and strings and returns the same, so that :mod:`kotc_rulesc.migrate.jobs`
can run it in other processes.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Iterator

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


class Unreadable(Exception):
    """The collection cannot be read as a whole (a JSON syntax error, no cards list)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        where = f"line {line}" + (f", column {column}" if column else "") + ": " if line else ""
        super().__init__(where + message)
        self.message = message
        self.line = line
        self.column = column

    def __reduce__(self):  # travels back from a worker process intact
        return (Unreadable, (self.message, self.line, self.column))


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

_decode = json.JSONDecoder().decode


def jsonl_block(ctx: Context, block: bytes, first_index: int, first_line: int) -> BlockResult:
    """Migrate a block of whole JSONL lines; ``output`` is the block's new bytes."""
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    result = ctx.new_result()
    counts = result.totals.counts
    decide = ctx.migrator.decide
    quiet = ctx.report_format is None
    out: list = []
    append = out.append
    index = first_index
    lines = text.split("\n") if text is not None else block.split(b"\n")
    for n, raw in enumerate(lines):
        if not raw or raw.isspace():
            append(raw)
            continue
        try:
            card = _decode(raw) if text is not None else _loads(raw)
        except ValueError as exc:
            append(raw)
            problem = f"not a JSON object: {getattr(exc, 'msg', None) or exc}"
            ctx.note(result, Record(index, first_line + n, None, None, False, problem))
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
        elif text is not None:
            append(dumps_line(new, raw))
        else:
            append(dumps_line(new, raw.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape"))
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
    result.output = "\n".join(out).encode("utf-8") if text is not None else b"\n".join(out)
    return result


def count_cards(block: bytes) -> int:
    """The number of JSONL cards (non-blank lines) in a block."""
    lines = block.count(b"\n") + (0 if block.endswith(b"\n") or not block else 1)
    if block.count(b"\n{") + block.startswith(b"{") == lines:
        return lines  # every line starts a JSON object: no blank line (the common case, counted at C speed)
    return len(_NONBLANK.findall(block))


def read_blocks(fp: BinaryIO, size: int = 1 << 20, first: int | None = None) -> Iterator[bytes]:
    """Whole lines, about ``size`` bytes at a time (starting at ``first`` bytes and doubling up to
    ``size``, so that the first results come back soon); the last block may lack a final newline."""
    rest = b""
    step = min(first or size, size)
    while True:
        chunk = fp.read(step)
        step = min(2 * step, size)
        if not chunk:
            if rest:
                yield rest
            return
        chunk = rest + chunk
        cut = chunk.rfind(b"\n")
        if cut < 0:
            rest = chunk
            continue
        rest = chunk[cut + 1:]
        yield chunk[: cut + 1]


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


class JsonStream:
    """An incremental reader of one JSON collection.

    :meth:`events` yields ``("raw", text)`` for everything around the cards, to be
    copied as it is, and ``("card", raw, value, line, base)`` for each card: its
    exact text, its decoded value, its first line and the indentation of that line."""

    MAX_VALUE = 64 << 20  # a single value larger than this is not a card collection

    def __init__(self, fp: BinaryIO, chunk: int = 1 << 16):
        self.fp = fp
        self.chunk = chunk
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.json = json.JSONDecoder()
        self.buf = ""
        self.pos = 0
        self.keep = 0  # text before this position has been passed on
        self.eof = False
        self._line = 1  # the line at _lpos
        self._lpos = 0

    # -- buffer -------------------------------------------------------------

    def _fill(self, want: int | None = None) -> bool:
        if self.eof:
            return False
        if self.keep > (1 << 20):
            drop = self.keep
            self._line += self.buf.count("\n", self._lpos, drop) if self._lpos < drop else 0
            self._lpos = max(self._lpos - drop, 0) if self._lpos >= drop else 0
            self.buf = self.buf[drop:]
            self.pos -= drop
            self.keep = 0
        data = self.fp.read(max(self.chunk, want or 0))
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise Unreadable(f"the file is not UTF-8 text ({exc.reason})") from None
        if not data:
            self.eof = True
        self.buf += text
        return bool(data)

    def line_at(self, p: int) -> int:
        if p >= self._lpos:
            self._line += self.buf.count("\n", self._lpos, p)
            self._lpos = p
            return self._line
        return self._line - self.buf.count("\n", p, self._lpos)

    def _peek(self) -> str:
        while self.pos >= len(self.buf):
            if not self._fill():
                return ""
        return self.buf[self.pos]

    def _ws(self) -> None:
        while True:
            buf = self.buf
            p = self.pos
            n = len(buf)
            while p < n and buf[p] in " \t\r\n":
                p += 1
            self.pos = p
            if p < n or not self._fill():
                return

    def _value(self) -> tuple[Any, int, int]:
        """Decode the value at ``pos``: (value, start, end)."""
        start = self.pos
        want = self.chunk
        while True:
            try:
                value, end = self.json.raw_decode(self.buf, start)
            except json.JSONDecodeError as exc:
                if self.eof:
                    raise Unreadable(f"invalid JSON: {exc.msg}", self.line_at(exc.pos), exc.pos - self.buf.rfind("\n", 0, exc.pos)) from None
            else:
                if end < len(self.buf) or self.eof:
                    self.pos = end
                    return value, start, end
            if len(self.buf) - start > self.MAX_VALUE:
                raise Unreadable("a single JSON value larger than 64 MB; is this a card collection?", self.line_at(start))
            want *= 2
            self._fill(want)
            start = self.pos  # _fill may have moved the buffer

    def _expect(self, char: str, what: str) -> None:
        self._ws()
        if self._peek() != char:
            got = self._peek() or "the end of the file"
            raise Unreadable(f"expected {what}, found {got!r}", self.line_at(self.pos))
        self.pos += 1

    def _raw(self, upto: int | None = None) -> tuple[str, str]:
        end = self.pos if upto is None else upto
        text = self.buf[self.keep:end]
        self.keep = end
        return ("raw", text)

    def _base(self, start: int) -> str:
        ls = self.buf.rfind("\n", 0, start)
        prefix = self.buf[ls + 1:start]
        return prefix[: len(prefix) - len(prefix.lstrip(" \t"))]

    # -- structure ------------------------------------------------------------

    def events(self) -> Iterator[tuple]:
        self._ws()
        c = self._peek()
        if c == "[":
            yield from self._cards()
        elif c == "{":
            yield from self._top_object()
        elif c == "":
            raise Unreadable("the file is empty")
        else:
            raise Unreadable(f'expected {{"cards": [...]}} or a list of cards, found {c!r}', self.line_at(self.pos))
        self._ws()
        if self._peek():
            raise Unreadable("extra data after the collection", self.line_at(self.pos))
        yield self._raw(len(self.buf))

    def _cards(self) -> Iterator[tuple]:
        """The array at ``pos``, one card at a time."""
        self.pos += 1  # '['
        self._ws()
        if self._peek() == "]":
            self.pos += 1
            return
        while True:
            self._ws()
            start = self.pos
            line = self.line_at(start)
            base = self._base(start)
            yield self._raw(start)
            value, start, end = self._value()
            yield ("card", self.buf[start:end], value, line, base)
            self.keep = end
            self._ws()
            c = self._peek()
            if c == ",":
                self.pos += 1
                continue
            if c == "]":
                self.pos += 1
                return
            raise Unreadable(f"expected ',' or ']' after a card, found {c or 'the end of the file'!r}", self.line_at(self.pos))

    def _top_object(self) -> Iterator[tuple]:
        first = self.pos
        self.pos += 1  # '{'
        found = False
        keys: list[str] = []
        while True:
            self._ws()
            c = self._peek()
            if c == "}":
                self.pos += 1
                break
            if c != '"':
                raise Unreadable(f"expected a key, found {c or 'the end of the file'!r}", self.line_at(self.pos))
            key, _, _ = self._value()
            keys.append(key)
            self._expect(":", "':'")
            self._ws()
            if key == "cards" and not found:
                if self._peek() != "[":
                    raise Unreadable("'cards' must be a list of cards", self.line_at(self.pos))
                found = True
                yield from self._cards()
            else:
                self._value()
            self._ws()
            c = self._peek()
            if c == ",":
                self.pos += 1
            elif c != "}":
                raise Unreadable(f"expected ',' or '}}', found {c or 'the end of the file'!r}", self.line_at(self.pos))
        if found:
            return
        if any(k in keys for k in ("name", "type", "text")):  # a single card
            raw = self.buf[first:self.pos]
            value = json.loads(raw)
            yield self._raw(first)
            yield ("card", raw, value, self.line_at(first), self._base(first))
            self.keep = self.pos
            return
        raise Unreadable('no cards: expected {"cards": [...]}, a list of cards, or one card', self.line_at(first))
