"""YAML collections migrated by splicing: the changed values are written in place, every other byte is copied.

A changed value goes where the old one was (an end-of-line comment keeps its column), a new field where
:func:`~kotc_rulesc.migrate.edit.insert_position` puts it, each written by ruamel.yaml (:class:`Writer`) in
the document's indentation and the style of the value it replaces: a diff shows exactly what changed.
"""

from __future__ import annotations

import codecs
import io
import json
import re
from typing import Any

from ..cards.collection import yaml_entries
from ..cards.fields import kind_of
from ..reading.policy import check_line_lengths, decode
from ..reading.yaml_reader import BLOCK_STYLES, Collection, Scalar
from .edit import insert_position, planned
from .io_json import BlockResult, Context, MissingFrom
from .plan import MARK
from .report import Record, Totals

_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # YAML's line breaks, as libyaml counts lines
_ODD_BREAKS = frozenset("\r\x85\u2028\u2029")
_COMMENT_AFTER = re.compile(r"( *)#")  # an end-of-line comment after a value
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*( +#[^\r\n]*)?")
_ESCAPE = re.compile(r"\\[xuU]")  # a character escaped in a text in double quotes
_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[^\s#:'\"-][^:#]*|'[^']*'|\"[^\"]*\"):(?P<rest>.*)$")


def migrate_yaml(ctx: Context, data: bytes, display: str) -> BlockResult:
    """Migrate a YAML collection; ``output`` is the new bytes (the input itself when nothing changed)."""
    text = decode(display, data)
    check_line_lengths(display, data)
    splice = _Splice(ctx, text)
    yaml_entries(text, display, splice.card)
    if splice.missing is not None:
        raise splice.missing  # (once the document proved readable: an error in it comes first)
    result = splice.result
    result.cards = splice.count
    if not splice.patches:
        result.output = data
        return result
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    result.output = bom + _spliced(text, 0, len(text), splice.patches).encode("utf-8")
    return result


def _spliced(body: str, start: int, end: int, patches: list[tuple[int, int, str]]) -> str:
    """``body[start:end]`` with the patches ``(start, end, new text)`` made."""
    out, at = [], start
    for first, last, new in sorted(patches, key=lambda p: p[:2]):
        out.append(body[at:first])
        out.append(new)
        at = last
    out.append(body[at:end])
    return "".join(out)


def _line_start(body: str, offset: int) -> int:
    at = body.rfind("\n", 0, offset)
    if _ODD_BREAKS.isdisjoint(body[at + 1:offset]):
        return at + 1
    return max(body.rfind(c, at + 1, offset) for c in _ODD_BREAKS) + 1


def _own_line(body: str, key: Any) -> bool:
    """Whether ``key`` starts its line (nothing but spaces before it)."""
    return not body[_line_start(body, key.start):key.start].strip(" ")


def _line_end(body: str, offset: int) -> int:
    """The offset after the line break that ends the line holding ``offset`` (or the text's end)."""
    m = _BREAK.search(body, offset)
    return m.end() if m else len(body)


def _leaf_end(body: str, node: Any) -> int:
    """Where ``node``'s text ends: a block collection's at its last leaf, a block scalar's at the end
    of its last line of content (the blank lines after it are its own only when it keeps them, ``|+``:
    then before its last line break, as for the others)."""
    while isinstance(node, Collection) and not node.flow:
        node = node.items[-1]
    if isinstance(node, Collection) or node.style not in BLOCK_STYLES:
        return node.end
    if "+" in body[node.start + 1:node.start + 3]:
        last = [m.start() for m in _BREAK.finditer(body, node.start, node.end)]
        return last[-1] if last and _line_end(body, last[-1]) == node.end else node.end
    at = node.end
    while at > node.start and body[at - 1] in " \r\n":
        at -= 1
    m = _BREAK.search(body, at, node.end)
    return m.start() if m else node.end


def _comment_kept(body: str, end: int, column: int, written: str) -> tuple[int, str]:
    """(how many spaces to replace, the spaces that give an end-of-line comment after ``end`` its column
    again after ``written``, at least one); ``(0, "")`` without a comment."""
    comment = _COMMENT_AFTER.match(body, end, _line_end(body, end))
    if not comment:
        return 0, ""
    last = written.rsplit("\n", 1)
    now = (column if len(last) == 1 else 0) + len(last[-1])
    original = end - _line_start(body, end) + len(comment.group(1))
    return len(comment.group(1)), " " * max(original - now, 1)


def _indented(text: str, indent: str, first: bool) -> str:
    """``text`` with its non-empty lines (the first one when ``first``) indented by ``indent``."""
    if not indent:
        return text
    return "\n".join((indent + line if line and (i or first) else line) for i, line in enumerate(text.split("\n")))


class _Splice:
    """One document being migrated: the patches ``(start, end, new text)`` made card by card."""

    def __init__(self, ctx: Context, body: str):
        self.ctx = ctx
        self.body = body
        self.result = BlockResult(0, Totals())
        self.count = 0
        self.patches: list[tuple[int, int, str]] = []
        self.missing: MissingFrom | None = None  # a card without an Edition Indicator, and no --from
        m = _BREAK.search(body)
        self.newline = m.group() if m else "\n"
        self.writers: dict[bool, Writer] = {}  # (ruamel.yaml only once a card changes)

    def writer(self, node: Collection) -> "Writer":
        """The writer of ``node``'s card: escaping what is not ASCII where its text does (``"Tith\\xE9"``)."""
        text = self.body[node.start:node.end]
        escaped = text.isascii() and _ESCAPE.search(text) is not None
        if escaped not in self.writers:
            self.writers[escaped] = Writer(self.body, escaped)
        return self.writers[escaped]

    def card(self, index: int, node: Any) -> None:
        """Decide the card read at ``index`` and patch it."""
        self.count += 1
        if self.missing is not None:
            return  # the run stops there, once the whole document has been read
        ctx = self.ctx
        line = node.line + 1
        if not isinstance(node, Collection) or not node.mapping:
            ctx.note(self.result, Record(index, line, None, None, False,
                                         f"{kind_of(node.value)}, not a card (a mapping of fields)"))
            return
        card = node.value
        try:
            decision = ctx.decide(card, index, line)
        except MissingFrom as exc:
            self.missing = exc
            return
        updates, mark = planned(card, decision, yaml_mark)
        changed = bool(updates) or mark is not ...
        if changed:
            edits = self.edits(node, updates, mark)
            if self.newline != "\n":
                edits = [(s, e, t.replace("\n", self.newline)) for s, e, t in edits]
            if node.flow:
                edits = [self.flow_card(node, edits)]
            self.patches.extend(edits)
        name = card.get("name")
        ctx.note(self.result, Record(index, line, name if isinstance(name, str) else None, decision, changed))

    def edits(self, node: Collection, updates: dict, mark: Any) -> list[tuple[int, int, str]]:
        """The card's patches: values replaced, fields inserted, the marker set or removed."""
        body, write, flow = self.body, self.writer(node), node.flow
        indent = " " * node.column
        names: list[Any] = [key.value for key in node.keys]
        slots: list[Any] = list(range(len(names)))  # in the card's order: a field's number, or (key, new text)
        edits = []
        for key, value in updates.items():
            if key in names:
                i = names.index(key)
                edits.append(self.replaced(write, node.keys[i], node.items[i], value, indent, flow))
                continue
            at = insert_position([str(names[s]) if isinstance(s, int) else s[0] for s in slots], key)
            written = write.value(value, "", flow)
            slots.insert(at, (key, f"{key}: {written}" if flow or written else f"{key}:"))
        if mark is None and MARK in names:
            edits.append(self.removed(node, names.index(MARK)))
        elif mark is not None and mark is not ...:
            if MARK in names:
                i = names.index(MARK)
                key, old = node.keys[i], node.items[i]
                if flow:
                    edits.append((old.start, old.end, write.value(mark, "", True, marker=True)))
                else:
                    own = _own_line(body, key)
                    edits.append((_line_start(body, key.start) if own else key.start,
                                  _line_end(body, _leaf_end(body, old)), _indented(write.mark(mark), indent, own)))
            else:
                written = write.value(mark, "", True, marker=True) if flow else write.mark(mark)
                slots.append((MARK, f"{MARK}: {written}" if flow else written))
        return edits + self.inserted(node, slots, indent)

    def replaced(self, write: "Writer", key: Scalar, old: Any, value: Any, indent: str,
                 flow: bool) -> tuple[int, int, str]:
        """The patch that writes ``value`` in place of the value ``old`` of ``key``."""
        body = self.body
        style = old.style if isinstance(old, Scalar) and isinstance(value, str) else ""
        written = _indented(write.value(value, style, flow), indent, False)
        if isinstance(old, Collection) and not old.flow:  # a block value: the new one goes after the key
            colon = body.find(":", key.end)
            return colon + 1, _line_end(body, _leaf_end(body, old)), " " + written + "\n"
        if old.style in BLOCK_STYLES:
            header = _BLOCK_HEADER.match(body, old.start)
            if header and header.group(1):  # a comment after the indicator stays there
                head, _, rest = written.partition("\n")
                written = head + header.group(1) + "\n" + rest
            return old.start, _leaf_end(body, old), written
        spaces, kept = _comment_kept(body, old.end, old.column, written)
        if not written and not kept and not flow:  # null, as ruamel.yaml writes it: "key:", no space left after the colon
            return body.find(":", key.end) + 1, old.end, ""
        return old.start, old.end + spaces, written + kept

    def removed(self, node: Collection, i: int) -> tuple[int, int, str]:
        """The patch that removes field ``i`` (the marker)."""
        body, key = self.body, node.keys[i]
        if node.flow:
            if i:
                return node.items[i - 1].end, node.items[i].end, ""
            return key.start, node.keys[1].start if len(node.keys) > 1 else node.items[0].end, ""
        if i == 0:  # on the dash's line: the next field moves up
            return key.start, node.keys[1].start if len(node.keys) > 1 else _leaf_end(body, node.items[0]), ""
        return _line_start(body, key.start), _line_end(body, _leaf_end(body, node.items[i])), ""

    def inserted(self, node: Collection, slots: list, indent: str) -> list[tuple[int, int, str]]:
        """The patches that insert the new fields in ``slots``, each before the next field of the card's own."""
        body, flow = self.body, node.flow
        out = []
        pending: list[str] = []
        for slot in slots + [len(node.keys)]:
            if not isinstance(slot, int):
                pending.append(slot[1])
                continue
            if not pending:
                continue
            if slot < len(node.keys):  # before field ``slot``
                key = node.keys[slot]
                if flow:
                    out.append((key.start, key.start, "".join(f"{p}, " for p in pending)))
                elif not _own_line(body, key):
                    out.append((key.start, key.start, "".join(_indented(p, indent, i > 0) + "\n" for i, p in
                                                              enumerate(pending)) + indent))
                else:
                    at = _line_start(body, key.start)
                    out.append((at, at, "".join(_indented(p, indent, True) + "\n" for p in pending)))
            elif flow:  # after the last field
                at = node.items[-1].end if node.items else node.start + 1
                out.append((at, at, "".join((", " if node.items or i else "") + p for i, p in enumerate(pending))))
            else:
                at = _line_end(body, _leaf_end(body, node))
                lead = "" if body[at - 1:at] in ("\n", "\r", "\x85", "\u2028", "\u2029") else "\n"
                out.append((at, at, lead + "".join(_indented(p, indent, True) + ("" if p.endswith("\n") else "\n")
                                                   for p in pending)))
            pending = []
        return out

    def flow_card(self, node: Collection, edits: list[tuple[int, int, str]]) -> tuple[int, int, str]:
        """A flow card's edits as one patch, an end-of-line comment after it kept at its column."""
        body = self.body
        written = _spliced(body, node.start, node.end, edits)
        spaces, kept = _comment_kept(body, node.end, node.column, written)
        return node.start, node.end + spaces, written + kept


def detect_indent(text: str) -> tuple[int, int, int]:
    """``(mapping, sequence, offset)`` as ruamel's ``YAML.indent`` takes them, read from the text:
    how far a nested mapping's keys are indented, and where a list's dashes and items sit."""
    mapping = sequence = offset = None
    level = None  # (offset, item) of the first list at its key's own column ("cards:" then "- name:")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for i, ln in enumerate(lines[:-1]):
        m = _KEY_LINE.match(ln)
        if not m or m.group("rest").split("#")[0].strip():
            continue  # not "key:" opening a block
        col = len(m.group("indent")) + len(m.group("dash") or "")
        body = lines[i + 1].lstrip(" ")
        ind = len(lines[i + 1]) - len(body)
        if ind <= col:
            if level is None and body.startswith("- "):
                level = ind - len(m.group("indent")), body
        elif body.startswith("- "):
            if sequence is None:
                offset = ind - col
                sequence = offset + len(body) - len(body[1:].lstrip(" "))
        elif mapping is None and _KEY_LINE.match(lines[i + 1]):
            mapping = ind - col
        if mapping is not None and sequence is not None:
            break
    if sequence is None and level is not None:
        offset, body = level
        sequence = offset + len(body) - len(body[1:].lstrip(" "))
    mapping = mapping or 2
    if sequence is None:
        sequence, offset = mapping, 0
    return mapping, max(sequence, offset + 2), offset or 0


def yaml_mark(value: Any, key: str | None = None) -> Any:
    """The marker as YAML writes it: an edition no source gives is ``unknown``, as in rules/."""
    if isinstance(value, dict):
        return {k: yaml_mark(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [yaml_mark(v) for v in value]
    if value is None and key == "edition":
        return "unknown"
    return value


def _flow_list(key: str | None, value: list) -> bool:
    """The marker's lists written in flow style: its sources, and lists of plain values."""
    return key == "sources" or all(not isinstance(v, (dict, list, str)) for v in value)


class Writer:
    """Values as ruamel.yaml's dump writes them in the document ``text``'s indentation, never re-wrapped;
    remembered, since a collection repeats its designs."""

    def __init__(self, text: str, escaped: bool = False):
        from ruamel.yaml import YAML

        self.yaml = YAML(typ="rt")
        self.yaml.allow_unicode = not escaped
        self.yaml.width = 1 << 16  # never re-wrap long lines
        mapping, sequence, offset = detect_indent(text)
        self.yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
        self._written: dict[Any, str] = {}

    def _node(self, value: Any, style: str, marker: bool, key: str | None = None) -> Any:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import (DoubleQuotedScalarString, FoldedScalarString, LiteralScalarString,
                                              SingleQuotedScalarString)

        if isinstance(value, dict):
            out = CommentedMap()
            for k, v in value.items():
                out[k] = self._node(v, "", marker, k)
            return out
        if isinstance(value, list):
            seq = CommentedSeq(self._node(v, "", marker) for v in value)
            if marker and _flow_list(key, value):
                seq.fa.set_flow_style()
            return seq
        styled = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString, "|": LiteralScalarString,
                  ">": FoldedScalarString}.get(style)
        return styled(value) if styled and isinstance(value, str) else value

    def _dump(self, value: Any, style: str, flow: bool, marker: bool) -> str:
        from ruamel.yaml.comments import CommentedMap

        node = CommentedMap()
        node["k"] = self._node(value, style, marker)
        if flow:
            node.fa.set_flow_style()
        buf = io.StringIO()
        self.yaml.dump(node, buf)
        out = buf.getvalue()
        if flow:
            return out[len("{k:"):out.rindex("}")].strip(" ")
        if out.endswith("\n...\n"):  # the end of a document after a block kept open ("|+")
            out = out[:-4]
        return out[len("k: "):-1] if out.startswith("k: ") else out[len("k:"):-1]  # (a block or null: "k:")

    def value(self, value: Any, style: str = "", flow: bool = False, marker: bool = False) -> str:
        """``value`` as written after ``key: `` at column 0 (``flow``: in a flow mapping), a text in ``style``;
        ``marker``: lists in the marker's flow style."""
        memo = (style, flow, marker, json.dumps(value) if marker else (type(value), value))
        written = self._written.get(memo)
        if written is None:
            written = self._dump(value, style, flow, marker)
            if len(self._written) > 8192:
                self._written.clear()
            self._written[memo] = written
        return written

    def mark(self, mark: dict) -> str:
        """The marker's lines at column 0, each entry written alone (the same as among others): entries
        recur across markers far more than whole markers do."""
        lines = [MARK + ":"]
        for key, value in mark.items():
            if not isinstance(value, list) or not value or _flow_list(key, value):
                lines.append(self.value({key: value}, "", False, True))
                continue
            for i, item in enumerate(value):  # a block list item by item, the same alone as among others
                written = self.value({key: [item]}, "", False, True)  # "\n  key:\n    - item"
                lines.append(written if i == 0 else written[written.index("\n", 1):])
        return "".join(lines) + "\n"
