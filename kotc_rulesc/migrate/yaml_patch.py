"""A YAML collection migrated by patching the changed cards' lines, the rest of the text untouched.

Loading a whole collection with ruamel.yaml's round-trip loader and dumping it
again costs milliseconds per card, and memory in proportion.  Here the
collection is read once, fast, by :func:`~kotc_rulesc.migrate.yaml_layout.read_cards`
(every card's plain values and where its fields are, a card at a time), each card is decided as the
JSON migration decides it (:class:`~kotc_rulesc.migrate.plan.Migrator`, whose memo
decides identical designs once), and only a changed card's text is rewritten:

* **a patched card**: a field that changes gets its new value where the old one
  was (the rest of its line, an end-of-line comment at its column, kept); a field
  the card did not have gets a line of its own where
  :func:`~kotc_rulesc.migrate.edit.insert_position` puts it; the marker's lines
  go after the card's last field, before the blank lines and comments that
  follow the card.  New values are written by ruamel.yaml's rules, in the style
  of the value they replace (:class:`~kotc_rulesc.migrate.yaml_write.Writer`), so
  the card reads exactly as a round trip of the whole document would write it;
* **a card round-tripped alone**: a card that is not a plain block mapping (a
  flow mapping ``{…}``, a quoted key, a comment after a block scalar's ``|``…) is
  loaded, edited and dumped by ruamel.yaml on its own — its lines and the
  comments that follow it — with the whole collection's indentation
  (:func:`~kotc_rulesc.migrate.yaml_edit.edit_map`, as before).

Every other byte is copied: a diff of input and output shows exactly what the
migration changed.  :func:`patch_collection` returns ``None`` for a document it
does not take (the light reading declines it, its shape is not a list of cards,
a card's own round trip does not fit back in place); the caller then migrates
it by a round trip of the whole document, as before.
"""

from __future__ import annotations

import re
from typing import Any

from ..inputs import InputError, load_yaml
from .edit import insert_position, planned
from .io_json import BlockResult, Context, MissingFrom
from .plan import MARK
from .report import Record
from .yaml_edit import edit_map, yaml_mark
from .yaml_layout import BLOCK_STYLES, CardList, Collection, Scalar, read_cards
from .yaml_write import LONGEST, Writer

__all__ = ["patch_collection"]

_DASH = re.compile(r" *- +")  # what precedes a card's first key on its line
_COMMENT_AFTER = re.compile(r"( *)#")  # an end-of-line comment after a value
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]* *")  # a block scalar's indicator line, no comment


class _Unpatchable(Exception):
    """The document is to be migrated by a round trip of the whole of it."""


class _RoundTripCard(Exception):
    """This card is to be round-tripped alone."""


def _identity(value: Any) -> Any:
    return value


def _indented(text: str, indent: str, first: bool) -> str:
    """``text`` with its non-empty lines (the first one when ``first``) indented by ``indent``."""
    if not indent:
        return text
    lines = text.split("\n")
    return "\n".join((indent + line if line and (i or first) else line) for i, line in enumerate(lines))


def _tree_of(node: Any) -> Any:
    """A layout node as :meth:`~kotc_rulesc.migrate.yaml_write.Writer.flow` takes it."""
    if isinstance(node, Scalar):
        return ("s", node.value, node.style)
    if node.mapping:
        return ("m", [(key.value, _tree_of(item)) for key, item in zip(node.keys, node.items)])
    return ("l", [_tree_of(item) for item in node.items])


def _tree(value: Any) -> Any:
    """A plain value (the marker) as :meth:`~kotc_rulesc.migrate.yaml_write.Writer.flow` takes it."""
    if isinstance(value, dict):
        return ("m", [(key, _tree(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("l", [_tree(item) for item in value])
    return ("s", value, "")


# --------------------------------------------------------------------------- positions


def _comment_kept(body: str, end: int, column: int, written: str, tail: str) -> str:
    """``tail`` (the text after a value that ended at ``end``, now ``written`` from ``column``) with
    an end-of-line comment at its column, or one space after a value that now reaches past it."""
    comment = _COMMENT_AFTER.match(tail)
    if not comment:
        return tail
    last = written.rsplit("\n", 1)
    now = (column if len(last) == 1 else 0) + len(last[-1])
    original = end - _line_start(body, end) + len(comment.group(1))
    return " " * max(original - now, 1) + tail[comment.end() - 1:]


def _line_start(body: str, offset: int) -> int:
    return body.rfind("\n", 0, offset) + 1


def _line_end(body: str, offset: int) -> int:
    """The offset after the line break that ends the line holding ``offset`` (or the text's end)."""
    at = body.find("\n", offset)
    return len(body) if at < 0 else at + 1


def _leaf_end(body: str, node: Any) -> int:
    """The offset just after the last character of ``node``'s last leaf: where ruamel.yaml keeps
    what follows the node (a block collection's last value, recursively; a flow collection's closing
    bracket; a block scalar's last content line)."""
    while isinstance(node, Collection) and not node.flow:
        node = node.items[-1]
    if isinstance(node, Collection):
        return node.end
    if node.style in BLOCK_STYLES:
        at = node.end
        while at > node.start and body[at - 1] in " \n":
            at -= 1
        return at
    return node.end


# --------------------------------------------------------------------------- the collection


class _Patching:
    """One document being patched: its text, its cards as they are read, and the patches made so far."""

    def __init__(self, ctx: Context, body: str):
        self.ctx = ctx
        self.body = body
        self.result = ctx.new_result()
        self.cards: CardList | None = None  # once the whole document is read
        self.prefix = ""  # what a card's lines are loaded under, alone: "cards:\n", or nothing (a bare list)
        self._writer: Writer | None = None
        self.patches: list[tuple[int, int, str]] = []
        self.alone: list[tuple[int, int, Any, Any]] = []  # cards to round-trip alone: (patch, index, node, decision)
        self.missing: MissingFrom | None = None  # a card without an Edition Indicator, and no --from

    @property
    def writer(self) -> Writer:
        if self._writer is None:
            self._writer = Writer(self.body)
        return self._writer

    def region_end(self, index: int) -> int:
        """Where the lines of card ``index`` end: at the next entry's line, or, for the last, after
        the blank lines and comments that follow it."""
        body = self.body
        starts = self.cards.starts
        if index + 1 < len(starts):
            return _line_start(body, starts[index + 1])
        at = _line_end(body, _leaf_end(body, self.cards.last))
        while at < len(body):
            nxt = _line_end(body, at)
            stripped = body[at:nxt].strip()
            if stripped and not stripped.startswith("#"):
                break
            at = nxt
        return at

    # -- one card ---------------------------------------------------------------

    def card(self, index: int, node: Any) -> None:
        """Decide the card read at ``index`` and patch it (or leave it to be round-tripped alone
        once the document is read)."""
        if self.missing is not None:
            return  # the run stops there, once the whole document has been read
        try:
            self._card(index, node)
        except MissingFrom as exc:
            self.missing = exc  # said when the document proves readable: an error in it comes first

    def _card(self, index: int, node: Any) -> None:
        ctx = self.ctx
        line = node.line + 1
        if not isinstance(node, Collection) or not node.mapping:
            kind = "null" if node.value is None else type(node.value).__name__
            ctx.note(self.result, Record(index, line, None, None, False, f"a {kind}, not a card (a mapping of fields)"))
            return
        card = node.value
        decision = ctx.decide(card, index, line)
        updates, mark = planned(card, decision, _identity, yaml_mark)
        changed = bool(updates) or mark is not ...
        if changed:
            try:
                self.patches.append(self.patch(node, decision, updates, mark))
            except _RoundTripCard:
                self.alone.append((len(self.patches), index, node, decision))
                self.patches.append(None)
        name = card.get("name")
        ctx.note(self.result, Record(index, line, name if isinstance(name, str) else None, decision, changed))

    def patch(self, node: Collection, decision: Any, updates: dict, mark: Any) -> tuple[int, int, str]:
        """(start, end, new text) of a plain block card with ``updates`` and ``mark`` applied, or
        :class:`_RoundTripCard`."""
        body = self.body
        if node.flow:
            return self.patch_flow(node, decision, updates, mark)
        column = node.column
        start = _line_start(body, node.start)
        if not _DASH.fullmatch(body, start, node.start):
            raise _RoundTripCard()
        keys = node.keys
        for i, key in enumerate(keys):
            if type(key.value) is not str or key.style or key.end_line != key.line or key.column != column:
                raise _RoundTripCard()
            if i and body.rfind("\n", 0, key.start) != key.start - column - 1:
                raise _RoundTripCard()  # something before the key on its line ("? key")
        # the card's lines, a segment per field: its key's line up to the next key's line; the last one
        # ends with the line of the card's last leaf (what follows stays where it is)
        bounds = [start] + [key.start - column for key in keys[1:]]
        end = _line_end(body, _leaf_end(body, node))
        bounds.append(end)
        names = [key.value for key in keys]
        where = {name: j for j, name in enumerate(names)}  # a field's place among the card's own
        texts = [body[bounds[i]:bounds[i + 1]] for i in range(len(keys))]
        indent = " " * column
        write = self.writer
        for key, value in updates.items():
            if key in where:
                i = names.index(key)
                texts[i] = self._replaced(texts[i], bounds[i], node.items[where[key]], value, indent)
                continue
            at = insert_position(names, key)
            if at == 0:
                raise _RoundTripCard()
            if at == len(names) and not texts[-1].endswith("\n"):
                texts[-1] += "\n"
            written = write.value(value, "")
            line = indent + key + ":" + (" " + _indented(written, indent, False) if written else "") + "\n"
            names.insert(at, key)
            texts.insert(at, line)
            bounds.insert(at, -1)  # not in the text
        if mark is None and MARK in names:
            i = names.index(MARK)
            if i != len(names) - 1 or i == 0 or not self._ends_with_leaf(texts[i - 1], bounds[i - 1], node, names[i - 1]):
                raise _RoundTripCard()
            del names[i], texts[i], bounds[i]
        elif mark is not None and mark is not ...:
            lines = _indented(write.mark(decision, mark), indent, True)
            if MARK in names:
                i = names.index(MARK)
                j = where[MARK]
                old = node.items[j]
                if i != len(names) - 1 or not isinstance(old, Collection) or not old.mapping or old.flow \
                        or body[keys[j].end:_line_end(body, keys[j].end)].strip() != ":":
                    raise _RoundTripCard()  # not last, not a block mapping, or a comment after its key
                texts[i] = lines
            else:
                if not texts[-1].endswith("\n"):
                    texts[-1] += "\n"
                names.append(MARK)
                texts.append(lines)
                bounds.append(-1)
        return start, end, "".join(texts)

    def patch_flow(self, node: Collection, decision: Any, updates: dict, mark: Any) -> tuple[int, int, str]:
        """A card written as a flow mapping on one line, patched: when it reads exactly as ruamel.yaml
        would write it, it is written again with the changes, by the same rules."""
        body = self.body
        write = self.writer
        names = [key.value for key in node.keys]
        trees = [_tree_of(item) for item in node.items]
        try:
            if write.flow(("m", list(zip(names, trees)))) != body[node.start:node.end]:
                raise _RoundTripCard()  # spaced, quoted or numbered otherwise: left to ruamel.yaml
            styles = {key.value: (item.style if isinstance(item, Scalar) else "") for key, item in zip(node.keys, node.items)}
            for key, value in updates.items():
                tree = ("s", value, styles.get(key, "") if isinstance(value, str) else "")
                if key in names:
                    trees[names.index(key)] = tree
                else:
                    at = insert_position(names, key)
                    names.insert(at, key)
                    trees.insert(at, tree)
            if mark is None and MARK in names:
                i = names.index(MARK)
                del names[i], trees[i]
            elif mark is not None and mark is not ...:
                if MARK in names:
                    trees[names.index(MARK)] = _tree(mark)
                else:
                    names.append(MARK)
                    trees.append(_tree(mark))
            written = write.flow(("m", list(zip(names, trees))))
        except ValueError:
            raise _RoundTripCard() from None
        end = _line_end(body, node.end)
        tail = _comment_kept(body, node.end, node.column, written, body[node.end:end])
        return node.start, end, written + tail

    def _ends_with_leaf(self, text: str, at: int, node: Collection, name: str) -> bool:
        """Whether a field's segment ends with the line of its value's last leaf (nothing after it)."""
        if at < 0:
            return True
        value = node.items[[k.value for k in node.keys].index(name)]  # (an original field: at >= 0)
        return at + len(text) == _line_end(self.body, _leaf_end(self.body, value))

    def _replaced(self, text: str, at: int, old: Any, value: Any, indent: str) -> str:
        """A field's segment ``text`` (at offset ``at``) with its value ``old`` replaced by ``value``;
        ``indent`` is the key's column (a block scalar's lines are indented from it)."""
        if not isinstance(old, Scalar) or (isinstance(value, str) and len(value) > LONGEST):
            raise _RoundTripCard()
        body = self.body
        written = _indented(self.writer.value(value, old.style if isinstance(value, str) else ""), indent, False)
        if old.style in BLOCK_STYLES:
            header_end = body.find("\n", old.start)
            if header_end < 0 or not _BLOCK_HEADER.fullmatch(body, old.start, header_end):
                raise _RoundTripCard()  # a comment after the indicator
            kept = old.value.rstrip("\n")
            if not kept or kept[-1] == " " or old.value.endswith("\n\n"):
                raise _RoundTripCard()  # where its last line ends is not plain to see
            return text[: old.start - at] + written + text[_leaf_end(body, old) - at:]
        return text[: old.start - at] + written + _comment_kept(body, old.end, old.column, written, text[old.end - at:])

    def round_trip(self, index: int, node: Any, decision: Any) -> tuple[int, int, str]:
        """(start, end, new text) of card ``index`` loaded, edited and dumped alone by ruamel.yaml,
        with the lines that follow it."""
        body = self.body
        start = _line_start(body, node.start)
        end = self.region_end(index)
        lead = body[start:node.start]
        yaml = self.writer.yaml
        try:
            doc = load_yaml(yaml, self.prefix + body[start:end], "<card>")
        except InputError:
            raise _Unpatchable() from None
        entries = doc["cards"] if self.prefix else doc
        if len(entries) != 1:
            raise _Unpatchable()
        edit_map(entries[0], decision)
        out = self.writer.dump(doc)
        if not out.startswith(self.prefix) or not out[len(self.prefix):].startswith(lead.rstrip(" ")):
            raise _Unpatchable()  # the card would not sit in its place as it is indented
        return start, end, out[len(self.prefix):]


# --------------------------------------------------------------------------- the entry point


def patch_collection(ctx: Context, body: str) -> BlockResult | None:
    """Migrate the YAML collection ``body`` by patching its changed cards; ``output`` is the new
    text, or ``None`` when no card changes.  ``None`` when the document is left to a round trip of
    the whole of it."""
    doc = _Patching(ctx, body)
    cards = read_cards(body, doc.card)
    if cards is None:
        return None  # a single card, no data, an error…: read as before
    if doc.missing is not None:
        raise doc.missing
    doc.cards = cards
    doc.prefix = "cards:\n" if cards.shape == "cards" else ""
    try:
        for at, index, node, decision in doc.alone:
            doc.patches[at] = doc.round_trip(index, node, decision)
    except _Unpatchable:
        return None
    result = doc.result
    result.cards = len(cards.starts)
    if not doc.patches:
        result.output = None
        return result
    out = []
    at = 0
    for start, end, text in doc.patches:
        out.append(body[at:start])
        out.append(text)
        at = end
    out.append(body[at:])
    result.output = "".join(out)
    return result
