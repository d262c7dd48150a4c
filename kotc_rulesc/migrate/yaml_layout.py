"""A YAML collection's layout, read fast: each node's plain value and its place in the text.

``migrate`` rewrites a YAML collection by patching the changed cards' lines
(:mod:`kotc_rulesc.migrate.io_yaml`).  For that it needs every card's plain values,
to decide the card, and where each of its fields is in the text, to rewrite only
what changes.  :func:`read_cards` reads both in one pass over a YAML parser's
events — ruamel.yaml's C parser (libyaml, from ``ruamel.yaml.clib``) where it is
installed, its pure-Python parser otherwise — into light trees of positioned
nodes, no comments, no round-trip types, handed over a card at a time
(:func:`read_layout` keeps the whole tree).

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
from typing import Any, Callable

from ..inputs import MAX_DEPTH, MAX_DIGITS

__all__ = ["Scalar", "Collection", "CardList", "read_layout", "read_cards", "parser_kind", "BLOCK_STYLES"]

#: scalar styles whose text runs over lines of their own (``|`` literal, ``>`` folded)
BLOCK_STYLES = ("|", ">")
#: characters that make the light reading decline: YAML's other line breaks (which Python's
#: line counting and YAML's disagree on), tabs (where the two parsers' rules differ), a byte-order
#: mark inside the text, and lone surrogates
_DECLINE = re.compile("[\r\t\x85\u2028\u2029\ufeff\ud800-\udfff]")
#: a block scalar's header as both parsers read it: indicators, then a comment after a space, or nothing
_BLOCK_HEADER = re.compile(r"[|>][-+1-9]{0,2}(?: +#[^\n]*)? *(?:\n|\Z)")


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


class _EntryFailed(Exception):
    """The caller's handling of an entry raised (its exception is the cause)."""


# --------------------------------------------------------------------------- the parser


_PARSER: list[Any] = []


def _c_parser() -> Any:
    """libyaml's parser as ruamel.yaml wraps it, or ``None`` where ``ruamel.yaml.clib`` is missing."""
    if not _PARSER:
        try:
            from ruamel.yaml.cyaml import CParser
        except ImportError:
            CParser = None
        _PARSER.append(CParser)
    return _PARSER[0]


def parser_kind() -> str:
    """``"libyaml"`` when the C parser is installed, else ``"pure"`` (for the benchmark's report)."""
    return "libyaml" if _c_parser() is not None else "pure"


def _next_event(text: str) -> Any:
    """A function that returns the text's next parsing event."""
    parser = _c_parser()
    if parser is None:
        from ruamel.yaml import YAML

        return iter(YAML(typ="safe", pure=True).parse(text)).__next__
    return parser(text).get_event


# --------------------------------------------------------------------------- scalars

_STR = "tag:yaml.org,2002:str"


class _Scalars:
    """Plain scalars typed as ruamel.yaml's round-trip loader types them (YAML 1.2); remembered,
    since a collection repeats its keys and many of its values."""

    def __init__(self) -> None:
        from ruamel.yaml.nodes import ScalarNode
        from ruamel.yaml.resolver import VersionedResolver

        resolver = VersionedResolver()
        self._node = ScalarNode
        self._resolve = resolver.resolve
        #: the first characters of the texts the resolver may read as something else than text
        self._special = frozenset(k for k in resolver.versioned_resolver if k)
        self._known: dict[str, Any] = {}

    def plain(self, raw: str) -> Any:
        if raw and raw[0] not in self._special:
            return raw  # no resolver starts with this character: text
        known = self._known
        if raw in known:
            return known[raw]
        tag = self._resolve(self._node, raw, (True, False))
        value: Any = raw if tag == _STR else _construct(tag, raw)
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


def _plain_block(text: str, node: Scalar) -> bool:
    """A block scalar both parsers read alike: a header of indicators (and a comment after a space),
    and no blank line before its first line indented more than that line — libyaml takes ``|#`` and
    such lines, ruamel.yaml refuses them."""
    header = _BLOCK_HEADER.match(text, node.start)
    if not header:
        return False
    at = header.end()
    widest = 0
    while at < node.end:
        eol = text.find("\n", at, node.end)
        line = text[at: node.end if eol < 0 else eol]
        if line.strip():
            return widest <= len(line) - len(line.lstrip(" "))
        widest = max(widest, len(line))
        if eol < 0:
            break
        at = eol + 1
    return widest == 0



def read_layout(text: str) -> Any:
    """The document's root node (a :class:`Collection` or a :class:`Scalar`), or ``None`` when
    the light reading declines it (see the module's docstring)."""
    if _DECLINE.search(text):
        return None
    from ruamel.yaml.error import YAMLError

    try:
        return _compose(text, _next_event(text))
    except (_Decline, YAMLError, ValueError):
        return None


class CardList:
    """A collection's list of cards as :func:`read_cards` read it: ``"cards"`` (the list of a
    top-level ``cards:`` key) or ``"list"`` (the document is the list); the offset at which each
    entry starts, and the last entry's node."""

    def __init__(self, shape: str):
        self.shape = shape
        self.starts: list[int] = []
        self.last: Any = None


def read_cards(text: str, entry: Callable[[int, Any], None]) -> CardList | None:
    """Read the collection ``text``, handing each entry of its card list to ``entry`` (its index, its
    node) as soon as it is read — the entries are not kept, so memory does not grow with the
    collection.  ``None`` when the light reading declines the document, when it is not a block list
    of cards at column 0 (or under a top-level ``cards:``), or when that list is empty; ``entry`` may
    have been called for entries before the point where it declined."""
    if _DECLINE.search(text):
        return None
    from ruamel.yaml.error import YAMLError

    cards: list[CardList] = []
    try:
        root = _compose(text, _next_event(text), entry, cards)
    except (_Decline, YAMLError, ValueError):
        return None
    except _EntryFailed as failed:
        raise failed.__cause__ from None
    if not cards or not isinstance(root, Collection) or root.flow or root.column != 0 or not cards[0].starts:
        return None
    return cards[0]


def _compose(text: str, next_event: Any, entry: Callable[[int, Any], None] | None = None,
             cards: list | None = None) -> Any:
    """The tree the events make (one pass, no recursion: nesting is counted against the policy).
    With ``entry``, the entries of the card list go to it instead of into the tree, and the
    :class:`CardList` is appended to ``cards``."""
    from ruamel.yaml import events as ev

    scalar_event, mapping_start, sequence_start = ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent
    ends = (ev.MappingEndEvent, ev.SequenceEndEvent)
    plain = _Scalars().plain
    stack: list[Collection] = []
    keys: list[Any] = []  # per open mapping: its key waiting for a value, or None
    root: Any = None
    documents = 0
    listed: Collection | None = None  # the card list, once its start is read
    found: CardList | None = None
    while True:
        event = next_event()
        cls = event.__class__
        if cls is scalar_event:
            if event.anchor is not None or event.tag is not None:
                raise _Decline()
            style = event.style or ""
            raw = event.value
            node: Any = Scalar(plain(raw) if not style else raw, style, event.start_mark, event.end_mark)
            if style in BLOCK_STYLES and not _plain_block(text, node):
                raise _Decline()
        elif cls is mapping_start or cls is sequence_start:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise _Decline()
            opened = Collection(cls is mapping_start, event.flow_style, event.start_mark)
            if entry is not None and cls is sequence_start and listed is None and (
                    not stack or len(stack) == 1 and stack[0].keys is not None and keys[0] is not None
                    and keys[0].value == "cards"):
                if opened.flow:
                    raise _Decline()  # a flow list of cards: left to the round trip
                listed = opened
                found = CardList("list" if not stack else "cards")
                cards.append(found)
            stack.append(opened)
            keys.append(None)
            continue
        elif cls in ends:
            node = stack.pop()
            if keys.pop() is not None:
                raise _Decline()  # cannot happen: a key always has a value
            if node.flow:
                node.end = event.end_mark.index
                node.end_line = event.end_mark.line
        elif cls.__name__ == "DocumentStartEvent":
            documents += 1
            if documents > 1 or getattr(event, "version", None) or getattr(event, "tags", None):
                raise _Decline()
            continue
        elif cls.__name__ in ("StreamStartEvent", "DocumentEndEvent"):
            continue
        elif cls.__name__ == "StreamEndEvent":
            return root
        else:  # an alias
            raise _Decline()
        # the node is complete: it goes into its parent
        if not stack:
            if root is not None:
                raise _Decline()
            root = node
            continue
        parent = stack[-1]
        if parent is listed:  # an entry of the card list: handed over, not kept
            found.starts.append(node.start)
            found.last = node
            try:
                entry(len(found.starts) - 1, node)
            except Exception as exc:  # the caller's own: not a reason to decline
                raise _EntryFailed() from exc
            continue
        if parent.keys is None:
            parent.items.append(node)
            parent.value.append(node.value)
            continue
        key = keys[-1]
        if key is None:  # a key
            k = node.value
            if node.__class__ is not Scalar or (type(k) is not str and type(k) is not int):
                raise _Decline()  # a complex key, or one read as before only through str(): not worth the risk
            if k in parent.value:
                raise _Decline()  # a key twice: the policy says so
            parent.keys.append(node)
            keys[-1] = node
            continue
        parent.items.append(node)
        parent.value[key.value] = node.value
        keys[-1] = None
