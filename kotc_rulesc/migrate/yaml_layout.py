"""A YAML collection's layout, read fast: each node's plain value and its place in the text.

``migrate`` rewrites a YAML collection by patching the changed cards' lines
(:mod:`kotc_rulesc.migrate.io_yaml`).  For that it needs every card's plain values,
to decide the card, and where each of its fields is in the text, to rewrite only
what changes.  :func:`read_layout` reads both in one pass over a YAML parser's
events — ruamel.yaml's C parser (libyaml, from ``ruamel.yaml.clib``) where it is
installed, its pure-Python parser otherwise — into a light tree of positioned
nodes: no comments, no round-trip types.

It takes the plain subset of YAML that card collections are written in, and
declines (returns ``None``) everything else: an anchor, an alias, a tag, a
directive, a second document, a key twice, a key that is not text or a number,
nesting deeper than the input policy allows, a value that is not text, a number,
a boolean or null, an integer longer than the policy allows, a lone surrogate, a
tab, a carriage return or another character that YAML and Python count lines by
differently — and every syntax error.  A declined document is read as before,
by the input policy's :func:`~kotc_rulesc.inputs.load_yaml`, which either takes
it or says, located, why not: every refusal keeps its one message.

Scalars are typed as ruamel.yaml's round-trip loader types them (YAML 1.2), by
its own resolver, and converted to plain values as
:func:`kotc_rulesc.cards.collection._plain` converts its types.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..inputs import MAX_DEPTH, MAX_DIGITS

__all__ = ["Scalar", "Collection", "read_layout", "parser_kind", "BLOCK_STYLES"]

#: scalar styles whose text runs over lines of their own (``|`` literal, ``>`` folded)
BLOCK_STYLES = ("|", ">")
#: characters that make the light reading decline: YAML's other line breaks (which Python's
#: line counting and YAML's disagree on), tabs (where the two parsers' rules differ), a byte-order
#: mark inside the text, and lone surrogates
_DECLINE = re.compile("[\r\t\x85\u2028\u2029\ufeff\ud800-\udfff]")


class Scalar:
    """A scalar: its plain value, its style (``""`` plain, ``'``, ``"``, ``|``, ``>``), and
    where it is: ``start``/``end`` offsets in the text, ``line``/``end_line`` (0-based)."""

    __slots__ = ("value", "style", "start", "end", "line", "column", "end_line")

    def __init__(self, value: Any, style: str, start: Any, end: Any):
        self.value = value
        self.style = style
        self.start = start.index
        self.line = start.line
        self.column = start.column
        self.end = end.index
        self.end_line = end.line


class Collection:
    """A mapping (``keys`` holds its key scalars) or a sequence: its plain value (a dict or a
    list), its nodes (``items``), whether it is written in flow style (``{…}``, ``[…]``), and
    where it starts; ``end`` is where a flow collection ends (after its closing bracket)."""

    __slots__ = ("value", "keys", "items", "flow", "start", "line", "column", "end", "end_line")

    def __init__(self, mapping: bool, flow: bool, start: Any):
        self.value: Any = {} if mapping else []
        self.keys: list[Scalar] | None = [] if mapping else None
        self.items: list[Any] = []
        self.flow = bool(flow)
        self.start = start.index
        self.line = start.line
        self.column = start.column
        self.end = self.end_line = None

    @property
    def mapping(self) -> bool:
        return self.keys is not None


class _Decline(Exception):
    """The light reading does not take this document."""


# --------------------------------------------------------------------------- the parser


def _c_parser() -> Any:
    try:
        from ruamel.yaml.cyaml import CParser
    except ImportError:
        return None
    return CParser


def parser_kind() -> str:
    """``"libyaml"`` when the C parser is installed, else ``"pure"`` (for the benchmark's report)."""
    return "libyaml" if _c_parser() is not None else "pure"


def _events(text: str) -> Iterator[Any]:
    parser = _c_parser()
    if parser is None:
        from ruamel.yaml import YAML

        yield from YAML(typ="safe", pure=True).parse(text)
        return
    p = parser(text)
    get = p.get_event
    while True:
        event = get()
        yield event
        if type(event).__name__ == "StreamEndEvent":
            return


# --------------------------------------------------------------------------- scalars

_STR = "tag:yaml.org,2002:str"


class _Scalars:
    """Plain scalars typed as ruamel.yaml's round-trip loader types them (YAML 1.2); remembered,
    since a collection repeats its keys and many of its values."""

    def __init__(self) -> None:
        from ruamel.yaml.nodes import ScalarNode
        from ruamel.yaml.resolver import VersionedResolver

        self._node = ScalarNode
        self._resolve = VersionedResolver().resolve
        self._known: dict[str, Any] = {}

    def plain(self, raw: str) -> Any:
        known = self._known
        if raw in known:
            return known[raw]
        tag = self._resolve(self._node, raw, (True, False))
        if tag == _STR:
            value: Any = raw
        else:
            value = _construct(tag, raw)
        if len(known) > 65536:
            known.clear()
        known[raw] = value
        return value


def _construct(tag: Any, raw: str) -> Any:
    """A plain scalar of a type other than text, as ruamel.yaml's round-trip constructor builds
    it and :func:`~kotc_rulesc.cards.collection._plain` converts it; :class:`_Decline` for the
    types collections do not use (timestamps, merge keys…)."""
    kind = str(tag).rpartition(":")[2]
    if kind == "null":
        return None
    if kind == "bool":
        return raw.lower() == "true"
    if kind == "int":
        body = raw.replace("_", "")
        sign = -1 if body[:1] == "-" else 1
        body = body.lstrip("+-")
        base = {"0b": 2, "0x": 16, "0o": 8}.get(body[:2].lower(), 10)
        digits = body[2:] if base != 10 else body
        if len(digits) > MAX_DIGITS:  # the policy refuses it, with its message
            raise _Decline()
        return sign * int(digits, base)
    if kind == "float":
        body = raw.replace("_", "").lower()
        sign = -1.0 if body[:1] == "-" else 1.0
        body = body.lstrip("+-")
        if body == ".inf":
            return sign * float("inf")
        if body == ".nan":
            return float("nan")
        return sign * float(body)
    raise _Decline()


# --------------------------------------------------------------------------- composing


def read_layout(text: str) -> Any:
    """The document's root node (a :class:`Collection` or a :class:`Scalar`), or ``None`` when
    the light reading declines it (see the module's docstring)."""
    if _DECLINE.search(text):
        return None
    from ruamel.yaml.error import YAMLError

    try:
        return _compose(_events(text))
    except (_Decline, YAMLError, ValueError):
        return None


def _compose(events: Iterator[Any]) -> Any:
    scalars = _Scalars()
    stack: list[Collection] = []
    root: Any = None
    documents = 0
    pending_key: list[Any] = []  # per open mapping: its key waiting for a value, or None

    def attach(node: Any) -> None:
        nonlocal root
        if not stack:
            if root is not None:
                raise _Decline()
            root = node
            return
        parent = stack[-1]
        if parent.keys is None:
            parent.items.append(node)
            parent.value.append(node.value)
            return
        key = pending_key[-1]
        if key is None:  # a key
            if not isinstance(node, Scalar):
                raise _Decline()  # a complex key
            k = node.value
            if type(k) is not str and type(k) is not int:
                raise _Decline()  # converted by str() when read as before: not worth the risk
            if k in parent.value or any(other.value == k for other in parent.keys if type(other.value) is not type(k)):
                raise _Decline()  # a key twice (or keys equal across types): the policy says it
            parent.keys.append(node)
            pending_key[-1] = node
            return
        parent.items.append(node)
        parent.value[key.value] = node.value
        pending_key[-1] = None

    for event in events:
        name = type(event).__name__
        if name == "ScalarEvent":
            if event.anchor is not None or event.tag is not None:
                raise _Decline()
            raw = event.value
            value = scalars.plain(raw) if event.style in ("", None) else raw
            attach(Scalar(value, event.style or "", event.start_mark, event.end_mark))
        elif name in ("MappingStartEvent", "SequenceStartEvent"):
            if event.anchor is not None or event.tag is not None:
                raise _Decline()
            if len(stack) >= MAX_DEPTH:
                raise _Decline()
            stack.append(Collection(name == "MappingStartEvent", event.flow_style, event.start_mark))
            pending_key.append(None)
        elif name in ("MappingEndEvent", "SequenceEndEvent"):
            node = stack.pop()
            if pending_key.pop() is not None:
                raise _Decline()  # cannot happen: a key always has a value
            if node.flow:
                node.end = event.end_mark.index
                node.end_line = event.end_mark.line
            attach(node)
        elif name == "DocumentStartEvent":
            documents += 1
            if documents > 1 or getattr(event, "version", None) or getattr(event, "tags", None):
                raise _Decline()
        elif name == "AliasEvent":
            raise _Decline()
        elif name not in ("StreamStartEvent", "StreamEndEvent", "DocumentEndEvent"):
            raise _Decline()
    return root
