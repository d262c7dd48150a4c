"""New values and markers written exactly as ruamel.yaml writes them in a round trip, mostly without a dump.

A patched card (:mod:`kotc_rulesc.migrate.yaml_patch`) must read as a round trip
of the whole document would have written it: the same scalar styles, quotes,
escapes, block indicators and indentation.  :class:`Writer` writes a field's new
value and a card's marker with the document's settings
(:func:`~kotc_rulesc.migrate.yaml_edit.round_trip_yaml`).

A dump through ruamel.yaml costs a millisecond or more, so the common cases are
written here directly, by ruamel.yaml's own rules: its emitter's
``analyze_scalar`` judges each text, and the choice among plain, single-quoted,
double-quoted and literal follows ``Emitter.choose_scalar_style`` for a value in a
block mapping (or an item of a flow list); the layout of the marker's nested
mappings and lists follows the indentation the document was read with.  Anything
else — a folded block, a text that starts with a space, a line long enough to be
wrapped, an empty mapping — is dumped by ruamel.yaml itself, and remembered.
``tests/test_migrate_yaml.py`` holds the two ways equal, text by text.
"""

from __future__ import annotations

import io
import re
from typing import Any

from ..memo import Memo
from .plan import MARK
from .yaml_edit import mark_node, round_trip_yaml

__all__ = ["Writer"]

#: texts longer than this are dumped (ruamel.yaml wraps a line past its width, counted from the
#: column a value starts at; the width is 65536)
LONGEST = 1 << 14
_STR = "tag:yaml.org,2002:str"
_BREAKS = re.compile("[\x85\u2028\u2029]")
#: what a double-quoted scalar escapes (``Emitter.write_double_quoted`` with ``allow_unicode``)
_ESCAPED = re.compile('["\\\\\x85\u2028\u2029\ufeff]|[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]')
_ESCAPES = {"\0": "0", "\x07": "a", "\x08": "b", "\x09": "t", "\x0a": "n", "\x0b": "v", "\x0c": "f", "\x0d": "r",
            "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\xa0": "_", "\u2028": "L", "\u2029": "P"}
_SIMPLE_KEY = re.compile(r"[a-z][a-z_]*")


class _Dump(Exception):
    """Outside what :class:`Writer` writes directly: dump it."""


def _escape(m: re.Match) -> str:
    ch = m.group()
    if ch in _ESCAPES:
        return "\\" + _ESCAPES[ch]
    if ch <= "\xff":
        return "\\x%02X" % ord(ch)
    if ch <= "\uffff":
        return "\\u%04X" % ord(ch)
    return "\\U%08X" % ord(ch)


class Writer:
    """Values and markers as ruamel.yaml writes them with the settings of the document ``text``,
    at column 0; what is dumped is remembered, since a collection repeats its designs."""

    def __init__(self, text: str):
        from ruamel.yaml import YAML
        from ruamel.yaml.comments import CommentedMap
        from ruamel.yaml.nodes import ScalarNode
        from ruamel.yaml.scalarstring import (DoubleQuotedScalarString, FoldedScalarString,
                                              LiteralScalarString, SingleQuotedScalarString)

        self.yaml = round_trip_yaml(text)
        self.yaml.explicit_start = False
        self.map_indent = self.yaml.map_indent
        self.seq_indent = self.yaml.sequence_indent
        self.seq_offset = self.yaml.sequence_dash_offset
        self._map = CommentedMap
        self._styles = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString,
                        "|": LiteralScalarString, ">": FoldedScalarString}
        self._analyze = YAML(typ="rt").emitter.analyze_scalar  # the emitter's own judgement of a text
        resolve = self.yaml.resolver.resolve
        self._reads_as_text = lambda s: str(resolve(ScalarNode, s, (True, False))) == _STR
        self._dumped: Memo = Memo(4096)
        self._scalars: Memo = Memo(8192)
        self._marks: Memo = Memo(1024)

    # -- through ruamel.yaml ----------------------------------------------------

    def dump(self, node: Any) -> str:
        buf = io.StringIO()
        self.yaml.dump(node, buf)
        return buf.getvalue()

    def _dumped_value(self, value: Any, style: str) -> str:
        memo_key = (style, type(value), value)
        hit = self._dumped.get(memo_key)
        if hit is None:
            if isinstance(value, str) and style in self._styles:
                value = self._styles[style](value)
            node = self._map()
            node["k"] = value
            out = self.dump(node)
            if out.endswith("\n...\n"):  # the end of a document after a block kept open ("|+")
                out = out[:-4]
            hit = out[3:-1] if out.startswith("k: ") else out[2:-1]  # after "k: " ("k:" alone for null)
            self._dumped.put(memo_key, hit)
        return hit

    # -- a value ----------------------------------------------------------------

    def value(self, value: Any, style: str = "") -> str:
        """``value`` as written after ``key: `` in a block mapping, continuation lines indented from
        column 0: in ``style`` when it is text (a quoted string stays quoted, a block stays a block;
        ``""``: as ruamel.yaml chooses), else as ruamel.yaml writes its type."""
        try:
            return self._value(value, style, 0)
        except _Dump:
            return self._dumped_value(value, style)

    def _value(self, value: Any, style: str, column: int) -> str:
        """``value`` in a block mapping whose keys are at ``column``."""
        kind = type(value)
        if kind is int:
            return str(value)
        if kind is not str:
            raise _Dump()
        if style == "|":
            return self._literal(value, column + self.map_indent)
        if style not in ("", "'", '"'):
            raise _Dump()
        return self._scalar(value, style, flow=False)

    def _scalar(self, text: str, style: str, flow: bool) -> str:
        """A scalar on one line: ``Emitter.choose_scalar_style`` for a value in a block mapping
        (``flow``: in a flow mapping or list), then the writer of the style chosen; remembered."""
        memo_key = (text, style, flow)
        hit = self._scalars.get(memo_key)
        if hit is None:
            hit = self._choose(text, style, flow)
            self._scalars.put(memo_key, hit)
        return hit

    def _choose(self, text: str, style: str, flow: bool) -> str:
        if not text or len(text) > LONGEST or _BREAKS.search(text):
            raise _Dump()
        if style == '"':
            return self._double(text)
        analysis = self._analyze(text)
        if not style:
            plain = analysis.allow_flow_plain if flow else analysis.allow_block_plain
            if plain and self._reads_as_text(text):
                return text
            if "'" in text or "\n" in text:
                return self._double(text)
        if analysis.allow_single_quoted and "\n" not in text:
            return "'" + text.replace("'", "''") + "'"
        if analysis.allow_single_quoted:
            raise _Dump()  # single-quoted over lines
        return self._double(text)

    @staticmethod
    def _double(text: str) -> str:
        return '"' + _ESCAPED.sub(_escape, text) + '"'

    def _literal(self, text: str, indent: int) -> str:
        """A literal block (``Emitter.write_literal``) whose lines are indented to ``indent``."""
        if not text or text[0] in " \n" or len(text) > LONGEST or _BREAKS.search(text):
            raise _Dump()
        if not text.endswith("\n"):
            hint = "-"
        elif len(text) == 1 or text[-2] == "\n":
            hint = "+"
        else:
            hint = ""
        pad = " " * indent
        body = text[:-1] if text.endswith("\n") else text
        return "|" + hint + "\n" + "\n".join(pad + line if line else "" for line in body.split("\n"))

    # -- flow style ---------------------------------------------------------------

    def flow(self, tree: Any) -> str:
        """A node in flow style, as ruamel.yaml writes a flow mapping ``{…}`` or list ``[…]`` on one
        line: ``tree`` is ``("s", value, style)``, ``("m", [(key, tree)…])`` or ``("l", [tree…])``.
        :class:`ValueError` for what is not written directly."""
        try:
            text = self._flow(tree)
        except _Dump:
            raise ValueError("not written directly") from None
        if len(text) > LONGEST:
            raise ValueError("long enough to be wrapped")
        return text

    def _flow(self, tree: Any) -> str:
        kind = tree[0]
        if kind == "s":
            value, style = tree[1], tree[2]
            if type(value) is int:
                return str(value)
            if type(value) is not str or style not in ("", "'", '"'):
                raise _Dump()
            return self._scalar(value, style, flow=True)
        if kind == "m":
            parts = []
            for key, value in tree[1]:
                if type(key) is not str or self._scalar(key, "", flow=True) != key:
                    raise _Dump()  # a key that is not plain
                parts.append(f"{key}: {self._flow(value)}")
            return "{" + ", ".join(parts) + "}"
        items = []
        for item in tree[1]:
            if item[0] == "m" and len(item[1]) == 1:
                raise _Dump()  # a one-entry mapping in a flow list may lose its braces
            items.append(self._flow(item))
        return "[" + ", ".join(items) + "]"

    # -- the marker -------------------------------------------------------------

    def mark(self, decision: Any, mark: dict) -> str:
        """The marker's lines (``migration:`` and the mapping under it), at column 0, for ``decision``."""
        hit = self._marks.get(id(decision))
        if hit is None or hit[0] is not decision:
            try:
                text = MARK + ":\n" + self._mapping(mark, self.map_indent)
            except _Dump:
                node = self._map()
                node[MARK] = mark_node(mark)
                text = self.dump(node)
            hit = (decision, text)  # the decision is kept: its id stays its own
            self._marks.put(id(decision), hit)
        return hit[1]

    def _mapping(self, mapping: dict, column: int, first: str | None = None) -> str:
        """The lines of a block mapping whose keys are at ``column``; ``first``: what stands before
        its first key on the first line instead of the indentation (a list item's dash)."""
        if not mapping:
            raise _Dump()
        out = []
        pad = " " * column
        for key, value in mapping.items():
            if type(key) is not str or not _SIMPLE_KEY.fullmatch(key):
                raise _Dump()
            lead = first if first is not None and not out else pad
            if isinstance(value, dict):
                out.append(f"{lead}{key}:\n" + self._mapping(value, column + self.map_indent))
            elif isinstance(value, list):
                out.append(lead + self._list(key, value, column))
            elif value is None:
                out.append(f"{lead}{key}:\n")
            else:
                out.append(f"{lead}{key}: {self._value(value, '', column)}\n")
        return "".join(out)

    def _list(self, key: str, items: list, column: int) -> str:
        """``key:`` and a list, in flow style where the marker writes it so (``mark_node``)."""
        if key == "sources" or all(not isinstance(v, (dict, list, str)) for v in items):
            written = []
            for item in items:
                if type(item) is int:
                    written.append(str(item))
                elif type(item) is str:
                    written.append(self._scalar(item, "", flow=True))
                else:
                    raise _Dump()
            return f"{key}: [" + ", ".join(written) + "]\n"
        if not items:
            raise _Dump()
        out = [f"{key}:\n"]
        dash = " " * (column + self.seq_offset) + "-" + " " * (self.seq_indent - self.seq_offset - 1)
        for item in items:
            if isinstance(item, dict):
                out.append(self._mapping(item, column + self.seq_indent, dash))
            elif type(item) is str:
                out.append(dash + self._value(item, "", column + self.seq_indent) + "\n")
            else:
                raise _Dump()
        return "".join(out)
