"""Read a card collection: YAML or JSON ``{"cards": [...]}``, or JSONL (one card per line).

Accepted shapes (documented in ``schemas/collection.schema.json``):

* a mapping with a ``cards`` list (other top-level keys are kept out of the way);
* a bare list of cards;
* a single card mapping (for ``kotc-rulesc cost card.yaml``);
* JSONL: one card object per line, blank lines skipped.

The format comes from the extension (``.yaml``/``.yml``, ``.json``, ``.jsonl``/``.ndjson``)
or, otherwise (and for ``-``, standard input), from the content.  JSON and JSONL are
read with the standard library only; ruamel.yaml is imported for YAML alone.

A file that cannot be read at all (missing, binary, not UTF-8, empty, a YAML or
JSON syntax error, no cards list) raises :class:`CollectionError` with a located
:class:`~kotc_rulesc.errors.Problem`.  Problems of one card (a JSONL line that is not
JSON, an entry that is not a mapping) travel with that card's :class:`CardInput`, so
that a bad card never stops the others.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

from ..errors import Problem

__all__ = ["CardInput", "CollectionError", "read_collection", "collection_schema"]


@dataclass
class CardInput:
    index: int  # 0-based position in the collection
    card: dict | None  # None when the entry cannot be read as a card
    problems: list[Problem]
    line: int | None  # 1-based line where the card starts, when known
    field_lines: dict[str, int] = field(default_factory=dict)  # field (and "text[i]" paragraph) → line


class CollectionError(Exception):
    """The whole file cannot be read; ``problem`` says where and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def collection_schema() -> dict:
    """The JSON Schema of the collection format, as shipped in the package."""
    from importlib import resources

    return json.loads(resources.files("kotc_rulesc").joinpath("schemas/collection.schema.json").read_text())


_CARD_KEYS = ("name", "type", "text")


def _fail(file: str, message: str, line: int = 0, column: int = 0, hint: str | None = None) -> CollectionError:
    return CollectionError(Problem(file, line, column, message, hint))


def _display(path_or_dash: str | Path) -> str:
    return "<stdin>" if str(path_or_dash) == "-" else str(path_or_dash)


def _open(path_or_dash: str | Path) -> BinaryIO:
    if str(path_or_dash) == "-":
        return sys.stdin.buffer
    display = str(path_or_dash)
    try:
        return open(path_or_dash, "rb")
    except IsADirectoryError:
        raise _fail(display, "is a directory, not a collection file") from None
    except OSError as exc:
        raise _fail(display, f"cannot read the file: {exc.strerror or exc}") from None


def _check_bytes(display: str, raw: bytes, complete: bool = True) -> str:
    """``raw`` as text, or :class:`CollectionError` when it is binary, not UTF-8 or empty.
    ``complete`` is False for the first chunk of a streamed file (it may end inside a character)."""
    if b"\x00" in raw:
        raise _fail(display, "the file is binary (it contains NUL bytes), not a YAML, JSON or JSONL collection")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if complete or exc.start < len(raw) - 4:
            line = raw[: exc.start].count(b"\n") + 1
            raise _fail(display, f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})", line, 0,
                        "save it as UTF-8; a collection is YAML, JSON or JSONL") from None
        text = raw[: exc.start].decode("utf-8-sig")
    if complete and not text.strip():
        raise _fail(display, "the file is empty", hint='a collection is {"cards": [...]} in YAML or JSON, or JSONL with one card per line')
    return text


def _read_text(path_or_dash: str | Path) -> tuple[str, str]:
    """(display name, text) or :class:`CollectionError`."""
    display = _display(path_or_dash)
    stream = _open(path_or_dash)
    try:
        raw = stream.read()
    except OSError as exc:
        raise _fail(display, f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return display, _check_bytes(display, raw)


#: a collection's format by its file name's extension (else it is sniffed from the content)
FORMAT_BY_SUFFIX = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def _format(path_or_dash: str | Path, text: str) -> str:
    by_suffix = FORMAT_BY_SUFFIX.get(Path(str(path_or_dash)).suffix.lower())
    if by_suffix:
        return by_suffix
    stripped = text.lstrip()
    if stripped[:1] in "{[":
        try:
            json.loads(stripped)
            return "json"
        except json.JSONDecodeError:
            pass
        lines = [line for line in stripped.splitlines() if line.strip()]
        if len(lines) > 1 and 2 * sum(_is_object(line) for line in lines) >= len(lines):
            return "jsonl"
        return "json"
    return "yaml"


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def read_collection(path_or_dash: str | Path) -> Iterator[CardInput]:
    """The cards of a collection, one :class:`CardInput` each, in order.

    Raises :class:`CollectionError` (on the first ``next()``) when the file cannot be read.
    A ``.jsonl``/``.ndjson`` file is streamed line by line (its first 64 KiB are checked
    first); other files are read whole."""
    if Path(str(path_or_dash)).suffix.lower() in (".jsonl", ".ndjson"):
        yield from _jsonl_stream(path_or_dash)
        return
    display, text = _read_text(path_or_dash)
    fmt = _format(path_or_dash, text)
    if fmt == "jsonl":
        yield from _jsonl(display, text)
    elif fmt == "json":
        yield from _json(display, text)
    else:
        yield from _yaml(display, text)


# --------------------------------------------------------------------------- shapes


def _entries(display: str, data: Any, line_of_top: int | None = None) -> tuple[list[Any], str]:
    """The list of card entries in ``data`` and how they were found ("cards", "list", "card")."""
    if isinstance(data, list):
        return data, "list"
    if isinstance(data, dict):
        if "cards" in data:
            cards = data["cards"]
            if not isinstance(cards, list):
                raise _fail(display, f"'cards' must be a list of cards, not {type(cards).__name__}", line_of_top or 0)
            return cards, "cards"
        if any(k in data for k in _CARD_KEYS):
            return [data], "card"
        raise _fail(display, 'no cards: expected a mapping with a "cards" list, a list of cards, or one card', line_of_top or 0,
                    hint='e.g. {"cards": [{"name": "Insight", "type": "spell", "edition": 6, "text": "Draw 1 card."}]}')
    raise _fail(display, f'no cards: expected {{"cards": [...]}}, not {type(data).__name__}', line_of_top or 0)


def _not_a_card(display: str, index: int, entry: Any, line: int | None) -> CardInput:
    kind = "null" if entry is None else type(entry).__name__
    return CardInput(index, None, [Problem(display, line or 0, 0, f"card {index} is {kind}, not a mapping of fields (name, type, text, …)")], line)


def _jsonl_stream(path: str | Path) -> Iterator[CardInput]:
    display = _display(path)
    with _open(path) as stream:
        head = stream.read(65536)
        _check_bytes(display, head, complete=len(head) < 65536)
        if not head.strip():
            raise _fail(display, "the file is empty", hint="JSONL has one card object per line")
        if head.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark
            head = head[3:]
        rest = stream if len(head) >= 65533 else iter(())
        yield from _jsonl(display, _lines(head, rest))


def _lines(head: bytes, rest: Iterable[bytes]) -> Iterator[str]:
    """Decoded lines of ``head`` and then of the binary stream ``rest`` (a line may span both)."""

    def decode(line: bytes) -> str:
        return line.rstrip(b"\r").decode("utf-8", errors="replace")

    complete, newline, tail = head.rpartition(b"\n")
    if newline:
        yield from (decode(line) for line in complete.split(b"\n"))
    else:
        tail = head
    for chunk in rest:  # a binary file iterates by lines, each ending with b"\n"
        tail += chunk
        if tail.endswith(b"\n"):
            yield decode(tail[:-1])
            tail = b""
    if tail:
        yield decode(tail)


def _jsonl(display: str, text: str | Iterable[str]) -> Iterator[CardInput]:
    index = 0
    lines = text.splitlines() if isinstance(text, str) else text
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            card = json.loads(line)
        except json.JSONDecodeError as exc:
            yield CardInput(index, None, [Problem(display, lineno, exc.colno, f"card {index}: invalid JSON: {exc.msg}")], lineno)
        else:
            if isinstance(card, dict):
                yield CardInput(index, card, [], lineno, {k: lineno for k in card})
            else:
                yield _not_a_card(display, index, card, lineno)
        index += 1


def _json(display: str, text: str) -> Iterator[CardInput]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":
            yield from _jsonl(display, text)  # several JSON values, one per line: JSONL under another name
            return
        raise _fail(display, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    entries, how = _entries(display, data)
    try:
        lines = _JsonLines(text).card_lines(how)
    except (ValueError, IndexError, StopIteration):  # positions are a courtesy; the data is already read
        lines = []
    for index, entry in enumerate(entries):
        line, field_lines = lines[index] if index < len(lines) else (None, {})
        if isinstance(entry, dict):
            yield CardInput(index, entry, [], line, field_lines)
        else:
            yield _not_a_card(display, index, entry, line)


class _JsonLines:
    """Lines of the cards in a JSON text (the json module keeps no positions)."""

    def __init__(self, text: str):
        self.s = text
        self.decoder = json.JSONDecoder()

    def line(self, i: int) -> int:
        return self.s.count("\n", 0, i) + 1

    def ws(self, i: int) -> int:
        while i < len(self.s) and self.s[i] in " \t\r\n":
            i += 1
        return i

    def members(self, i: int) -> tuple[list[tuple[str, int, int]], int]:
        """(key, start of value, line of key) of the object at ``i``; and the end."""
        out = []
        i = self.ws(i + 1)
        while self.s[i] != "}":
            key_line = self.line(i)
            key, i = self.decoder.raw_decode(self.s, i)
            i = self.ws(self.ws(i) + 1)  # past ':'
            out.append((key, i, key_line))
            _, i = self.decoder.raw_decode(self.s, i)
            i = self.ws(i)
            if self.s[i] == ",":
                i = self.ws(i + 1)
        return out, i + 1

    def elements(self, i: int) -> list[int]:
        starts = []
        i = self.ws(i + 1)
        while self.s[i] != "]":
            starts.append(i)
            _, i = self.decoder.raw_decode(self.s, i)
            i = self.ws(i)
            if self.s[i] == ",":
                i = self.ws(i + 1)
        return starts

    def card(self, i: int) -> tuple[int, dict[str, int]]:
        if self.s[i] != "{":
            return self.line(i), {}
        members, _ = self.members(i)
        return self.line(i), {key: line for key, _, line in members}

    def card_lines(self, how: str) -> list[tuple[int, dict[str, int]]]:
        start = self.ws(0)
        if how == "card":
            return [self.card(start)]
        if how == "cards":
            members, _ = self.members(start)
            start = next(pos for key, pos, _ in members if key == "cards")
        return [self.card(i) for i in self.elements(start)]


def _plain(node: Any) -> Any:
    """ruamel's round-trip types → plain dict, list, str, int, float, bool."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def _yaml(display: str, text: str) -> Iterator[CardInput]:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.scalarstring import LiteralScalarString

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = (exc.problem or "syntax error").strip().split("\n")[0]
        if exc.context and "duplicate" not in message:
            message = f"{exc.context.strip()}: {message}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise _fail(display, f"YAML error: {message}", line, col) from None
    except YAMLError as exc:
        raise _fail(display, f"YAML error: {exc}") from None
    if data is None:
        raise _fail(display, "the file holds no data (only comments?)", hint='a collection is {"cards": [...]}')
    top_line = data.lc.line + 1 if hasattr(data, "lc") and data.lc.line is not None else 0
    entries, how = _entries(display, data, top_line)
    for index, entry in enumerate(entries):
        line = None
        if how != "card" and hasattr(entries, "lc"):
            line = entries.lc.item(index)[0] + 1
        elif how == "card":
            line = top_line or 1
        if not isinstance(entry, dict):
            yield _not_a_card(display, index, entry, line)
            continue
        field_lines: dict[str, int] = {}
        if hasattr(entry, "lc"):
            if line is None:
                line = entry.lc.line + 1
            for key in entry:
                field_lines[str(key)] = entry.lc.key(key)[0] + 1
            text_value = entry.get("text")
            if isinstance(text_value, LiteralScalarString) and "text" in field_lines:
                for i in range(1, text_value.count("\n") + 2):
                    field_lines[f"text[{i}]"] = field_lines["text"] + i
        yield CardInput(index, _plain(entry), [], line, field_lines)
