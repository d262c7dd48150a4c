"""Read a card collection: YAML or JSON ``{"cards": [...]}``, or JSONL (one card per line).

Accepted shapes (documented in ``schemas/collection.schema.json``):

* a mapping with a ``cards`` list (other top-level keys are kept out of the way);
* a bare list of cards;
* a single card mapping (for ``kotc-rulesc cost card.yaml``);
* JSONL: one card object per line, blank lines skipped.

The format comes from the extension (``.yaml``/``.yml``, ``.json``, ``.jsonl``/``.ndjson``)
or, otherwise (and for ``-``, standard input), from the content.  JSON and JSONL are
read with the standard library only; ruamel.yaml is imported for YAML alone.

Everything is read under the input policy (:mod:`kotc_rulesc.inputs`, the same
reader ``migrate`` uses).  A file that cannot be read at all (missing, binary, not
UTF-8, empty, a YAML or JSON syntax error or anything else the policy refuses, no
cards list) raises :class:`CollectionError` with a located
:class:`~kotc_rulesc.errors.Problem`.  Problems of one card (a JSONL line that is not
JSON or breaks a content rule, an entry that is not a mapping) travel with that card's
:class:`CardInput`, so that a bad card never stops the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from ..errors import Problem
from ..memo import Memo
from ..inputs import (
    FORMAT_BY_SUFFIX,
    Input,
    InputError,
    JsonProblem,
    JsonStream,
    blank_line,
    detect_format,
    json_keys,
    json_line,
    jsonl_lines,
    load_yaml,
    plain_name_at,
    open_input,
    read_blocks,
    yaml_text,
)
from ..record import field, record

__all__ = ["CardInput", "CollectionError", "read_collection", "collection_schema", "FORMAT_BY_SUFFIX"]

#: a collection that cannot be read (the input policy's :class:`~kotc_rulesc.inputs.InputError`)
CollectionError = InputError


@record
class CardInput:
    index: int  # 0-based position in the collection
    card: dict | None  # None when the entry cannot be read as a card
    problems: list[Problem]
    line: int | None  # 1-based line where the card starts, when known
    #: field (and "text[i]" paragraph) → line; a field not in it is on the card's line (every field
    #: of a JSONL card)
    field_lines: Mapping[str, int] = field(default_factory=dict)
    #: a JSONL card whose line repeats an earlier one but for a plain name: one object shared by
    #: all those cards (the same in every field but the name), so that what depends on the
    #: other fields alone (a judgement) is known for all of them at once; otherwise ``None``
    design: dict | None = None


def collection_schema() -> dict:
    """The JSON Schema of the collection format, as shipped in the package."""
    from importlib import resources

    return json.loads(resources.files("kotc_rulesc").joinpath("schemas/collection.schema.json").read_text())


_CARD_KEYS = ("name", "type", "text")


def _fail(file: str, message: str, line: int = 0, column: int = 0, hint: str | None = None) -> CollectionError:
    return CollectionError(message, line, column, file, hint)


def read_collection(path_or_dash: str | Path) -> Iterator[CardInput]:
    """The cards of a collection, one :class:`CardInput` each, in order.

    Raises :class:`CollectionError` (on the first ``next()``) when the file cannot be read
    under the input policy (:mod:`kotc_rulesc.inputs`).  JSONL is streamed line by line
    (a line that cannot be read is one card's problem; an encoding error or an overlong
    line stops the file, wherever it is); a YAML or JSON file is one document, read whole
    before its first card is returned."""
    with open_input(path_or_dash) as inp:
        fmt = detect_format(inp.name, inp.head())
        if fmt == "jsonl":
            yield from _jsonl(inp)
        elif fmt == "json":
            yield from list(_json(inp))
        else:
            yield from _yaml(inp.display, yaml_text(inp))


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


#: plain cards (no list or mapping in a field) of JSONL lines read, by the text after their plain name
_READ = 4096
#: the field lines of a JSONL card: none of its own, every field is on the card's line
_ONE_LINE: Mapping[str, int] = MappingProxyType({})
_FLAT = frozenset((str, int, float, bool, type(None)))


def _jsonl(inp: Input) -> Iterator[CardInput]:
    """A JSONL line that is another copy of one read before, but for its name
    (:func:`~kotc_rulesc.inputs.plain_name_at`), is the same card but for its name: it is not decoded
    again (the cards remembered are plain: each copy is a card of its own)."""
    display = inp.display
    index = 0
    line = 1
    read = Memo(_READ)
    for block in read_blocks(inp, display=display):
        for lineno, raw in enumerate(jsonl_lines(display, block, line), line):
            start, end = plain_name_at(raw)
            if start:
                rest = raw[end:]
                known = read.new.get(rest) or read.get(rest)  # (the newer generation first: at once)
                if known is not None and known[0] == start:
                    design = known[1]
                    card = design.copy()
                    card["name"] = raw[start:end].decode("ascii")
                    yield CardInput(index, card, [], lineno, _ONE_LINE, design)
                    index += 1
                    continue
            elif blank_line(raw):
                continue
            try:
                card = json_line(raw)
            except JsonProblem as exc:
                yield CardInput(index, None, [Problem(display, lineno, exc.pos + 1, f"card {index}: {exc.message}")], lineno)
            else:
                if isinstance(card, dict):
                    design = None
                    if start and _FLAT.issuperset(map(type, card.values())):
                        design = card.copy()
                        read.put(raw[end:], (start, design))
                    yield CardInput(index, card, [], lineno, _ONE_LINE, design)
                else:
                    yield _not_a_card(display, index, card, lineno)
            index += 1
        line += block.count(b"\n")
    if index == 0:
        raise _fail(display, "the file is empty", hint="JSONL has one card object per line")


def _json(inp: Input) -> Iterator[CardInput]:
    display = inp.display
    index = 0
    for event in JsonStream(inp, display=display).events():
        if event[0] != "card":
            continue
        _, raw, value, line, _ = event
        if isinstance(value, dict):
            lines = {key: line + raw.count("\n", 0, at) for key, at in json_keys(raw)}
            yield CardInput(index, value, [], line, lines)
        else:
            yield _not_a_card(display, index, value, line)
        index += 1


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


def yaml_cards(yaml: Any, text: str, display: str) -> tuple[Any, list, str]:
    """A YAML collection read under the input policy with the ruamel.yaml instance ``yaml``:
    (the document, its card entries, their shape: "cards", "list" or "card")."""
    if not text.strip():
        raise _fail(display, "the file is empty", hint='a collection is {"cards": [...]} in YAML or JSON, or JSONL with one card per line')
    data = load_yaml(yaml, text, display)
    if data is None:
        raise _fail(display, "the file holds no data (only comments?)", hint='a collection is {"cards": [...]}')
    entries, how = _entries(display, data, _top_line(data))
    return data, entries, how


def _top_line(data: Any) -> int:
    """The line a YAML document's data starts on (0 for a scalar)."""
    return data.lc.line + 1 if hasattr(data, "lc") and data.lc.line is not None else 0


def _yaml(display: str, text: str) -> Iterator[CardInput]:
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    from ..yaml_rt_fast import load as load_fast

    data = load_fast(text, preserve_quotes=False)  # the round trip's values, read by libyaml; None where it declines
    if data is None:
        data, entries, how = yaml_cards(YAML(typ="rt"), text, display)
    else:
        entries, how = _entries(display, data, _top_line(data))
    top_line = _top_line(data)
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
