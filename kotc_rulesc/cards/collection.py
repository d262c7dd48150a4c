"""Read a card collection (``schemas/collection.schema.json``): YAML or JSON ``{"cards": [...]}``, a bare
list, one card, or JSONL, under the input policy as ``migrate`` reads it.  A file that cannot be read raises
``InputError``; a problem of one card travels with that card's :class:`CardInput`.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

from ..errors import Problem
from ..memo import Memo
from ..reading.json_reader import JsonProblem, JsonStream, json_keys, json_line, plain_name_at
from ..reading.policy import (Input, InputError, blank_line, detect_format, jsonl_lines, no_cards_hint, open_input,
                              read_blocks, yaml_text)
from ..reading.yaml_reader import Collection, read_yaml
from ..value import Value
from .fields import kind_of

__all__ = ["CardInput", "read_collection", "yaml_entries", "collection_schema"]


class CardInput(Value):
    """One entry of a collection: the card (None: it cannot be read as one, ``problems`` say why), and where it is."""

    __slots__ = ("index", "card", "problems", "line", "field_lines", "design")
    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __init__(self, index: int, card: dict | None, problems: list[Problem], line: int | None,
                 field_lines: Mapping[str, int] | None = None, design: bytes | None = None):
        self.index = index  # 0-based position in the collection
        self.card = card
        self.problems = problems
        self.line = line  # 1-based line where the card starts, when known
        #: field (and "text[i]" paragraph) → line; a field not in it is on the card's line
        self.field_lines = {} if field_lines is None else field_lines
        #: a JSONL card written with a plain name first: the rest of its line, the same for every copy of its
        #: design (what a judgement depends on); otherwise ``None``
        self.design = design


def collection_schema() -> dict:
    """The JSON Schema of the collection format, as shipped in the package."""
    from ..bundled import schema_path

    return json.loads(schema_path("collection").read_text(encoding="utf-8"))


def read_collection(path_or_dash: str | Path) -> Iterator[CardInput]:
    """The cards of a collection, one :class:`CardInput` each, in order; :class:`InputError` (on the first
    ``next()``) when the file cannot be read.  JSONL is streamed; a YAML or JSON file is read whole first."""
    with open_input(path_or_dash) as inp:
        fmt = detect_format(inp.name, inp.head())
        if fmt == "jsonl":
            yield from _jsonl(inp)
        elif fmt == "json":
            yield from list(_json(inp))
        else:
            yield from _yaml(inp.display, yaml_text(inp))


def not_a_card(display: str, index: int, entry: Any, line: int | None) -> CardInput:
    """A collection's entry that is no mapping (or a JSONL line that is a collection): an unreadable card, saying what it is."""
    what = whole_collection(entry) or f"{kind_of(entry)}, not a mapping of fields (name, type, text, …)"
    return CardInput(index, None, [Problem(display, line or 0, 0, f"card {index + 1} is {what}")], line)

_CARD_KEYS = ("name", "type", "text")


def whole_collection(entry: Any) -> str | None:
    """What a JSONL line holding a whole collection (``{"cards": [...]}``, no card's field) is, else ``None``."""
    if isinstance(entry, dict) and isinstance(entry.get("cards"), list) and not any(k in entry for k in _CARD_KEYS):
        return 'a whole collection ({"cards": [...]}), not a card: JSONL has one card per line (name a JSON file .json)'
    return None


def yaml_entries(text: str, display: str, entry: Callable[[int, Any], None]) -> None:
    """Read the YAML collection ``text``, handing each entry (its index, its node) to ``entry`` as it is read."""
    if not text.strip():
        raise InputError("the file is empty", file=display,
                         hint='a collection is {"cards": [...]} in YAML or JSON, or JSONL with one card per line')
    root = read_yaml(text, display, entry)
    if root is None:
        raise InputError("the file holds no data (only comments?)", file=display, hint='a collection is {"cards": [...]}')
    data = root.value
    if isinstance(data, dict) and "cards" in data:
        if not isinstance(data["cards"], list):  # (a list's entries went to ``entry``, the list stays)
            raise InputError(f"'cards' must be a list of cards, not {kind_of(data['cards'])}",
                             root.line + 1, 0, display)
    elif isinstance(data, dict) and any(k in data for k in _CARD_KEYS):
        entry(0, root)
    elif isinstance(data, dict):
        raise InputError('no cards: expected a mapping with a "cards" list, a list of cards, or one card', root.line + 1,
                         0, display, no_cards_hint(data))
    elif not isinstance(data, list):
        raise InputError(f'no cards: expected {{"cards": [...]}}, not {kind_of(data)}', 0, 0, display)


def _yaml(display: str, text: str) -> list[CardInput]:
    cards: list[CardInput] = []

    def entry(index: int, node: Any) -> None:
        line = node.line + 1
        if not isinstance(node, Collection) or not node.mapping:
            cards.append(not_a_card(display, index, node.value, line))
            return
        lines = {str(key.value): key.line + 1 for key in node.keys}
        if "text" in lines:
            value = node.items[list(node.value).index("text")]
            if isinstance(value.value, str) and value.style == "|":
                for i in range(1, value.value.count("\n") + 2):
                    lines[f"text[{i}]"] = lines["text"] + i
        cards.append(CardInput(index, node.value, [], line, lines))

    yaml_entries(text, display, entry)
    return cards

#: plain cards (no list or mapping in a field) of JSONL lines read, by the text after their plain name
_READ = 4096
#: the field lines of a JSONL card: none of its own, every field is on the card's line
_ONE_LINE: Mapping[str, int] = MappingProxyType({})
_FLAT = frozenset((str, int, float, bool, type(None)))


def _jsonl(inp: Input) -> Iterator[CardInput]:
    """A JSONL line that is a copy of a flat card read before but for its plain name is not decoded again."""
    display = inp.display
    index = 0
    line = 1
    read = Memo(_READ)
    for block in read_blocks(inp, display=display):
        for lineno, raw in enumerate(jsonl_lines(display, block, line), line):
            start, end = plain_name_at(raw)
            if start:
                rest = raw[end:]
                known = read.get(rest)
                if known is not None and known[0] == start:
                    card = known[1].copy()
                    card["name"] = raw[start:end].decode("ascii")
                    yield CardInput(index, card, [], lineno, _ONE_LINE, rest)
                    index += 1
                    continue
            elif blank_line(raw):
                continue
            try:
                card = json_line(raw)
            except JsonProblem as exc:
                yield CardInput(index, None, [Problem(display, lineno, exc.pos + 1, f"card {index + 1}: {exc.message}")], lineno)
            else:
                if isinstance(card, dict) and not whole_collection(card):
                    design = None
                    if start and _FLAT.issuperset(map(type, card.values())):
                        design = raw[end:]
                        read.put(design, (start, card.copy()))
                    yield CardInput(index, card, [], lineno, _ONE_LINE, design)
                else:
                    yield not_a_card(display, index, card, lineno)
            index += 1
        line += block.count(b"\n")
    if index == 0:
        raise InputError("the file is empty", file=display, hint="JSONL has one card object per line")


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
            yield not_a_card(display, index, value, line)
        index += 1
