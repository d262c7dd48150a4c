"""YAML under the input policy, read from libyaml's events (ruamel.yaml's public ``YAML(typ="safe").parse``).

One pass over the events builds positioned nodes and refuses, located, what the policy refuses.  Plain
scalars are typed by the YAML 1.2 resolver: null, booleans, integers, floats; all else (a date too) is text.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Callable

from .policy import MAX_DEPTH, MAX_DIGITS, InputError, line_column

#: scalar styles whose text runs over lines of their own
BLOCK_STYLES = ("|", ">")


class Scalar:
    """A scalar: its value, its style (``""`` plain, ``'``, ``"``, ``|``, ``>``) and where it is:
    ``start``/``end`` offsets in the text, ``line``/``column`` (0-based)."""

    __slots__ = ("value", "style", "start", "end", "line", "column")

    def __init__(self, value: Any, style: str, start: Any, end: Any):
        self.value = value
        self.style = style
        self.start, self.line, self.column = start.index, start.line, start.column
        self.end = end.index


class Collection:
    """A mapping (``keys``: its key scalars) or a sequence (``keys`` is None): its value, its nodes
    (``items``), whether it is in flow style (``{…}``, ``[…]``) and where it starts and ends."""

    __slots__ = ("value", "keys", "items", "flow", "start", "line", "column", "end")

    def __init__(self, value: Any, mapping: bool, flow: bool, start: Any):
        self.value = value
        self.keys: list[Scalar] | None = [] if mapping else None
        self.items: list[Any] = []
        self.flow = bool(flow)
        self.start, self.line, self.column = start.index, start.line, start.column
        self.end = 0

    @property
    def mapping(self) -> bool:
        return self.keys is not None


class Map(dict):
    """A mapping that knows its node (:func:`position`), for the rules loader."""

    __slots__ = ("node",)


class Seq(list):
    """A sequence that knows its node (:func:`position`), for the rules loader."""

    __slots__ = ("node",)


def position(data: Any, key: Any = None, of_key: bool = False) -> tuple[int, int, str]:
    """1-based (line, column) of ``data[key]`` (of its key with ``of_key``), or of ``data`` itself,
    and the style of the scalar there; (0, 0, "") where that is not known."""
    node = getattr(data, "node", None)
    if node is None:
        return 0, 0, ""
    if key is None:
        return node.line + 1, node.column + 1, ""
    try:
        i = key if node.keys is None else next(i for i, k in enumerate(node.keys) if k.value == key)
        found = node.keys[i] if of_key else node.items[i]
    except (StopIteration, IndexError, TypeError):
        return 0, 0, ""
    return found.line + 1, found.column + 1, getattr(found, "style", "")


def read_yaml(text: str, display: str, entry: Callable[[int, Any], None] | None = None,
              positioned: bool = False) -> Any:
    """The document's root node (``None`` for a document without data), or :class:`InputError`.  With
    ``entry``, the card list's entries go to ``entry(index, node)`` as they are read, not into the tree;
    ``positioned``: mappings and sequences are :class:`Map` and :class:`Seq`, else dicts and lists."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return _Composer(text, display, entry, positioned).compose(YAML(typ="safe").parse(text))
    except MarkedYAMLError as exc:
        raise _syntax_error(text, display, exc) from None
    except YAMLError as exc:  # the reader's: a character YAML does not allow
        line, column = line_column(text, getattr(exc, "position", 0) or 0)
        raise InputError(str(exc).strip().split("\n")[0] or "not YAML", line, column, display) from None


class _Composer:
    def __init__(self, text: str, display: str, entry: Callable[[int, Any], None] | None, positioned: bool):
        from ruamel.yaml.nodes import ScalarNode
        from ruamel.yaml.resolver import VersionedResolver

        self.text = text
        self.display = display
        self.entry = entry
        self.mapping_type, self.sequence_type = (Map, Seq) if positioned else (dict, list)
        self.positioned = positioned
        resolver = VersionedResolver()
        self._resolve, self._implicit = resolver.resolve, resolver.versioned_resolver  # (keyed by first character)
        self._node = ScalarNode
        self._typed: dict[str, Any] = {}  # plain scalars typed so far (a collection repeats many)

    def refuse(self, message: str, mark: Any, hint: str | None = None) -> InputError:
        return InputError(message, mark.line + 1, mark.column + 1, self.display, hint)

    def typed(self, raw: str, mark: Any, key: bool) -> Any:
        """A plain scalar's value, as the YAML 1.2 resolver types it (asked only where the first character may begin other than text)."""
        value = self._typed.get(raw, _UNKNOWN)
        if value is _UNKNOWN:
            kind = str(self._resolve(self._node, raw, (True, False))).rpartition(":")[2] if raw[:1] in self._implicit else "str"
            value = _READ.get(kind, str)(raw)
            if len(self._typed) < 65536:
                self._typed[raw] = value
        if value is _MERGE:
            if key:
                raise self.refuse("a YAML merge key (<<): merge keys are not allowed", mark,
                                  "write the fields out in the mapping")
            return raw
        if type(value) is int and len(raw) > MAX_DIGITS:
            digits = _digits(raw)
            if digits > MAX_DIGITS:
                raise self.refuse(f"an integer of {digits} digits (at most {MAX_DIGITS})", mark)
        return value

    def compose(self, events: Any) -> Any:
        from ruamel.yaml import events as ev

        scalar_event, mapping_start, sequence_start = ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent
        ends = (ev.MappingEndEvent, ev.SequenceEndEvent)
        stack: list[Collection] = []
        keys: list[Any] = []  # per open mapping: its key waiting for a value, or None
        root: Any = None
        documents = 0
        listed: Collection | None = None  # the card list whose entries go to ``entry``
        count = 0
        for event in events:
            cls = event.__class__
            if cls is scalar_event or cls is mapping_start or cls is sequence_start:
                if event.tag is not None:
                    tag = "!!" + event.tag[18:] if event.tag.startswith("tag:yaml.org,2002:") else event.tag
                    raise self.refuse(f"a YAML tag ({tag}): tags are not allowed", event.start_mark,
                                      "write the plain value")
            if cls is scalar_event:
                is_key = bool(stack) and stack[-1].keys is not None and keys[-1] is None
                value = self.typed(event.value, event.start_mark, is_key) if not event.style else event.value
                node: Any = Scalar(value, event.style or "", event.start_mark, event.end_mark)
            elif cls is mapping_start or cls is sequence_start:
                if len(stack) >= MAX_DEPTH:
                    raise self.refuse(f"nested more than {MAX_DEPTH} levels deep (mappings and lists)", event.start_mark)
                mapping = cls is mapping_start
                if stack and stack[-1].keys is not None and keys[-1] is None:
                    raise self.refuse("a mapping or a list as a key: keys are text", event.start_mark)
                value = self.mapping_type() if mapping else self.sequence_type()
                opened = Collection(value, mapping, event.flow_style, event.start_mark)
                if self.positioned:
                    value.node = opened
                if self.entry is not None and not mapping and listed is None and (not stack or (
                        len(stack) == 1 and keys[0] is not None and keys[0].value == "cards")):
                    listed = opened
                stack.append(opened)
                keys.append(None)
                continue
            elif cls in ends:
                node = stack.pop()
                keys.pop()
                node.end = event.end_mark.index
            elif cls.__name__ == "DocumentStartEvent":
                documents += 1
                if documents > 1:
                    raise self.refuse("a second YAML document: a file holds one", event.start_mark,
                                      "a collection is one list of cards; a rules file one edition")
                version = getattr(event, "version", None)
                if version and tuple(version) != (1, 2):
                    raise self.refuse(f"%YAML {'.'.join(map(str, version))}: kotc-rulesc reads YAML 1.2",
                                      event.start_mark, "remove the %YAML line")
                continue
            elif cls.__name__ == "AliasEvent":
                raise self.refuse(f"a YAML alias (*{event.anchor}): aliases are not allowed (write the value out)",
                                  event.start_mark)
            else:  # the stream's start and end, a document's end
                continue
            if not stack:
                root = node
                continue
            parent = stack[-1]
            if parent is listed:  # handed over, not kept
                self.entry(count, node)
                count += 1
            elif parent.keys is None:
                parent.items.append(node)
                parent.value.append(node.value)
            elif keys[-1] is None:  # a key
                key = node.value
                if type(key) not in (str, int, bool):
                    node.value = key = str(key)
                if key in parent.value:
                    raise self.refuse(f"duplicate key {key!r}", event.start_mark, "each key may appear once in a mapping")
                parent.keys.append(node)
                keys[-1] = node
            else:
                parent.items.append(node)
                parent.value[keys[-1].value] = node.value
                keys[-1] = None
        return root


_UNKNOWN = object()
_MERGE = object()


def _digits(raw: str) -> int:
    body = raw.replace("_", "").lstrip("+-")
    return len(body) - (2 if body[:2].lower() in ("0x", "0o", "0b") else 0)


def _integer(raw: str) -> int:
    body = raw.replace("_", "")
    sign = -1 if body[:1] == "-" else 1
    body = body.lstrip("+-")
    base = {"0b": 2, "0x": 16, "0o": 8}.get(body[:2].lower(), 10)
    if len(body) > MAX_DIGITS + 2:
        return 0  # refused by the caller, which counts the digits
    return sign * int(body[2:] if base != 10 else body, base)


def _float(raw: str) -> float:
    body = raw.replace("_", "").lower()
    return float(body.replace(".", "", 1) if body.lstrip("+-") in (".inf", ".nan") else body)


#: a plain scalar's value by the resolver's type for it; any other (str, a timestamp) is its text
_READ: dict[str, Callable[[str], Any]] = {"null": lambda raw: None, "bool": lambda raw: raw.lower() == "true",
                                          "int": _integer, "float": _float, "merge": lambda raw: _MERGE}


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")


def _syntax_error(text: str, display: str, exc: Any) -> InputError:
    """libyaml's error, located, in a player's words (:data:`_PLAIN_YAML`); an escape that names no
    character in the policy's words; an error not in the table keeps the parser's words."""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    if exc.problem and "escape" in exc.problem and mark is not None:
        at = text.rfind("\\", 0, mark.index + 1)
        escape = _ESCAPE.match(text, at)
        if escape:
            code = int(escape.group(1)[1:], 16)
            column -= mark.index - at
            if 0xD800 <= code <= 0xDFFF:
                return InputError(f"a UTF-16 surrogate escape \\{escape.group(1)}: not a Unicode character", line,
                                  column, display, "write the character itself, or \\U and its eight hex digits")
            return InputError(f"\\{escape.group(1)} is not a Unicode character (the last is \\U0010FFFF)", line,
                              column, display)
    if mark is not None and "\ufeff" in text[text.rfind("\n", 0, mark.index) + 1:mark.index + 1]:  # (files joined)
        bom = text.rfind("\ufeff", 0, mark.index + 1)
        return InputError("a byte-order mark (U+FEFF, which an editor does not show): remove it (one may start the "
                          "file only)", line, column - (mark.index - bom), display)
    plain = _PLAIN_YAML.get((exc.problem or "").strip())
    said = plain(text, exc) if plain is not None and exc.problem_mark is not None else None
    if said is not None:
        message, at = said
        return InputError(message, at.line + 1, at.column + 1, display)
    message = (exc.problem or "YAML syntax error").strip().split("\n")[0]
    if exc.context and exc.problem:
        message = f"{exc.context.strip()}: {message}"
    return InputError(f"invalid YAML: {message}", line, column, display)


# -- the parser's syntax errors in a player's words: by the error's ``problem`` (libyaml's fixed set, and
# the pure-Python parser's where it words one otherwise), each reading the text where the marks point.
# Each gives (message, the mark to locate it at), or None: the parser's own words.

def _line_of(text: str, mark: Any) -> str:
    start = text.rfind("\n", 0, mark.index) + 1
    end = text.find("\n", mark.index)
    return text[start:end if end >= 0 else len(text)]


def _where(mark: Any) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _unclosed_quote(text: str, exc: Any) -> tuple[str, Any] | None:
    opened = exc.context_mark
    if opened is None or "quoted" not in (exc.context or ""):
        return None
    quote = text[opened.index:opened.index + 1] or '"'
    return f"a quoted text opened here is never closed: add the closing {quote} where the text ends", opened


def _cannot_start(text: str, exc: Any) -> tuple[str, Any] | None:
    mark = exc.problem_mark
    c = text[mark.index:mark.index + 1]
    if c == "\t":
        return _tab(text, exc)
    if c:
        return f"a value cannot start with {c!r} (YAML keeps it for itself): put the value in quotes", mark
    return None


def _tab(text: str, exc: Any) -> tuple[str, Any]:
    return "a tab in the indentation: indent with spaces (YAML does not allow tabs there)", exc.problem_mark


def _no_colon(text: str, exc: Any) -> tuple[str, Any] | None:
    at = exc.context_mark or exc.problem_mark
    said = _line_of(text, at)[at.column:].strip()
    return f'"{said}" has no \':\' after its name: write a field as "name: value"', at


def _mapping_here(text: str, exc: Any) -> tuple[str, Any]:
    """A ':' the scanner cannot take: inside a value ("text: Draw: 1 card"), or under a line without
    its ':' or indented more than the field before it."""
    mark = exc.problem_mark
    head = _line_of(text, mark)[:mark.column]
    if re.search(r":\s", head):
        key = head.split(":", 1)[0].strip().lstrip("- ").strip()
        return f"a ': ' inside the value of {key!r}: put the value in quotes (\"…\")", mark
    prev, end = "", mark.index - mark.column - 1  # the line above that holds more than a comment
    while end > 0 and not prev:
        start = text.rfind("\n", 0, end) + 1
        prev = text[start:end].strip()
        prev, end = ("" if prev.startswith("#") else prev), start - 1
    if prev and not re.search(r":(\s|$)", prev):
        return f'a field under "{prev}", which has no \':\': write it "name: value"', mark
    return "this line is indented more than the field before it: indent the fields of one mapping alike", mark


def _not_expected(text: str, exc: Any) -> tuple[str, Any]:
    """The block parser expected a key or a '-' and found something else: a bracket that closes
    nothing, text after a quoted value, or a line indented unlike its neighbours."""
    mark = exc.problem_mark
    c = text[mark.index:mark.index + 1]
    if c in ("]", "}"):
        return f"a {c!r} that closes nothing: remove it (or open it with {'[' if c == ']' else '{'!r})", mark
    head = _line_of(text, mark)[:mark.column].rstrip()
    if head[-1:] in ("'", '"') and head.strip() != head[-1:]:
        return "more text after the closing quote: put the whole value in quotes", mark
    begun = exc.context_mark
    what = "list" if "collection" in (exc.context or "") else "mapping"
    since = f" that begins at {_where(begun)}" if begun is not None else ""
    return (f"this line does not line up with the {what}{since}: indent the fields of one card alike, "
            "and each card of a list with '- '"), mark


def _unclosed_flow(text: str, exc: Any) -> tuple[str, Any] | None:
    opened = exc.context_mark
    if opened is None or "flow" not in (exc.context or ""):
        return None
    bracket = text[opened.index:opened.index + 1]
    close = {"[": "]", "{": "}"}.get(bracket)
    if close is None:
        return None
    return (f"the {bracket!r} opened at {_where(opened)} is not closed here: add {close!r} after its last item "
            "(and ',' between items)"), exc.problem_mark


def _ends_in_flow(text: str, exc: Any) -> tuple[str, Any] | None:
    mark = exc.problem_mark
    if text[mark.index:].strip():
        return None
    return "the file ends inside brackets: close each '[' with ']' and each '{' with '}'", mark


def _unknown_escape(text: str, exc: Any) -> tuple[str, Any]:
    mark = exc.problem_mark
    at = text.rfind("\\", 0, mark.index + 1)
    escape = text[at:at + 2] if at >= 0 else "\\"
    return (f"{escape} is not an escape in a text in double quotes: write \\\\ for a backslash, or put the "
            "text in single quotes"), mark


def _short_escape(text: str, exc: Any) -> tuple[str, Any]:
    mark = exc.problem_mark
    at = text.rfind("\\", 0, mark.index + 1)
    return (f"the escape {text[at:mark.index + 1]} is cut short: \\x takes 2 hex digits, \\u 4 and \\U 8 "
            "(write \\\\ for a backslash)"), SimpleNamespace(line=mark.line, column=mark.column - (mark.index - at)) \
        if at >= 0 else mark


def _list_here(text: str, exc: Any) -> tuple[str, Any]:
    return ("a list item ('- ') where a value goes on: start the list on the next line, indented, or put the "
            "value in quotes"), exc.problem_mark


_PLAIN_YAML: dict[str, Callable[[str, Any], tuple[str, Any] | None]] = {
    "found unexpected end of stream": _unclosed_quote,
    "found unexpected document indicator": _unclosed_quote,
    "found unexpected document separator": _unclosed_quote,  # (the pure-Python parser)
    "found character that cannot start any token": _cannot_start,
    "found a tab character that violates indentation": _tab,
    "found a tab character where an indentation space is expected": _tab,
    "found character '\\t' that cannot start any token": _tab,  # (the pure-Python parser)
    "could not find expected ':'": _no_colon,
    "mapping values are not allowed in this context": _mapping_here,
    "mapping values are not allowed here": _mapping_here,  # (the pure-Python parser)
    "did not find expected key": _not_expected,
    "did not find expected '-' indicator": _not_expected,
    "did not find expected ',' or ']'": _unclosed_flow,
    "did not find expected ',' or '}'": _unclosed_flow,
    "did not find expected node content": _ends_in_flow,
    "found unknown escape character": _unknown_escape,
    "did not find expected hexdecimal number": _short_escape,
    "block sequence entries are not allowed in this context": _list_here,
    "sequence entries are not allowed here": _list_here,  # (the pure-Python parser)
}
