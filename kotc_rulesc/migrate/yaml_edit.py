"""A card of a YAML collection edited in place, round trip: comments, key order and quoting kept.

The collection (or, when it is patched, the one card) is loaded with ruamel.yaml's
round-trip loader, the card mapping is edited in place — only the fields the
migration changes — and dumped with the indentation detected in the input
(:func:`round_trip_yaml`).

Two details keep the diff honest:

* a changed string keeps its style (a literal block stays a literal block, a
  quoted string keeps its quotes);
* ruamel attaches the blank lines and comments that follow a card to the card's
  last field; when the marker is added after it (or removed), they are moved to
  the new last field, so they stay between the cards where they were.

ruamel.yaml is imported here, and this module only when a collection is YAML.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString, ScalarString
from ruamel.yaml.tokens import CommentToken

from ..cards.collection import _plain as plain  # ruamel's round-trip types → plain dict, list, str, int…
from .edit import insert_position, planned
from .plan import MARK

__all__ = ["round_trip_yaml", "detect_indent", "edit_map", "mark_node", "yaml_mark", "plain"]

_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[^\s#:'\"-][^:#]*|'[^']*'|\"[^\"]*\"):(?P<rest>.*)$")


def detect_indent(text: str) -> tuple[int, int, int]:
    """``(mapping, sequence, offset)`` as ruamel's ``YAML.indent`` takes them, read from the text:
    how far a nested mapping's keys are indented, and where a list's dashes and items sit."""
    mapping = sequence = offset = None
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for i, ln in enumerate(lines[:-1]):
        m = _KEY_LINE.match(ln)
        if not m or m.group("rest").split("#")[0].strip():
            continue  # not "key:" opening a block
        col = len(m.group("indent")) + (len(m.group("dash")) if m.group("dash") else 0)
        nxt = lines[i + 1]
        ind = len(nxt) - len(nxt.lstrip(" "))
        if ind <= col:
            continue
        body = nxt.lstrip(" ")
        if body.startswith("- "):
            if sequence is None:
                dash = len(body) - len(body[1:].lstrip(" "))
                offset = ind - col
                sequence = offset + dash
        elif mapping is None and _KEY_LINE.match(nxt):
            mapping = ind - col
        if mapping is not None and sequence is not None:
            break
    if sequence is None:  # "cards:" followed by "- name:" at the same column
        for i, ln in enumerate(lines[:-1]):
            m = _KEY_LINE.match(ln)
            nxt = lines[i + 1]
            if m and not m.group("rest").split("#")[0].strip() and nxt.lstrip(" ").startswith("- "):
                col = len(m.group("indent"))
                ind = len(nxt) - len(nxt.lstrip(" "))
                body = nxt.lstrip(" ")
                offset = ind - col
                sequence = offset + len(body) - len(body[1:].lstrip(" "))
                break
    mapping = mapping or 2
    if sequence is None:
        sequence, offset = mapping, 0
    return mapping, max(sequence, offset + 2), offset or 0


def round_trip_yaml(text: str) -> YAML:
    """A round-trip ruamel.yaml instance that writes as ``text`` is written: its indentation, its
    ``---``, quotes kept, long lines never re-wrapped."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap long lines
    mapping, sequence, offset = detect_indent(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    if text.lstrip("\ufeff").startswith("---"):
        yaml.explicit_start = True
    return yaml


# --------------------------------------------------------------------------- comments after the last field


def _is_block(value: Any) -> bool:
    return isinstance(value, (CommentedMap, CommentedSeq)) and len(value) > 0 and not value.fa.flow_style()


def _last_slot(node: Any) -> tuple[Any, Any]:
    """The container and key (or index) of the last leaf of a block node: where ruamel keeps the
    blank lines and comments that follow the node."""
    while True:
        key = next(reversed(node)) if isinstance(node, CommentedMap) else len(node) - 1
        value = node[key]
        if _is_block(value):
            node = value
            continue
        return node, key


def _pos(container: Any) -> int:
    return 2 if isinstance(container, CommentedMap) else 0


def _take_tail(node: Any) -> str:
    """Detach the lines that follow ``node``'s last leaf (keeping its end-of-line comment)."""
    if not _is_block(node):
        return ""
    container, key = _last_slot(node)
    slot = container.ca.items.get(key)
    pos = _pos(container)
    if not slot or slot[pos] is None:
        return ""
    token = slot[pos]
    if isinstance(container[key], (LiteralScalarString, FoldedScalarString)):
        slot[pos] = None
        return _spelled_out(token)
    eol, newline, tail = token.value.partition("\n")
    if eol.strip():
        token.value = eol + newline
    else:
        slot[pos] = None
    return tail


def _give_tail(node: Any, tail: str) -> None:
    """Attach ``tail`` (blank lines, comments) after ``node``'s last leaf."""
    if not tail or not _is_block(node):
        return
    container, key = _last_slot(node)
    pos = _pos(container)
    slot = container.ca.items.setdefault(key, [None, None, None, None] if pos == 2 else [None, None])
    token = slot[pos]
    if isinstance(container[key], (LiteralScalarString, FoldedScalarString)):
        slot[pos] = CommentToken((_spelled_out(token) if token is not None else "") + tail, CommentMark(0), None)
    else:  # after the leaf's own end-of-line comment, which stays at its column
        value = (token.value if token is not None else "\n") + tail
        slot[pos] = CommentToken(value, CommentMark(token.start_mark.column if token is not None else 0), None)


def _spelled_out(token: Any) -> str:
    """The lines that follow a block scalar, with the indentation of the first one, which ruamel
    keeps as the token's column, written out: they keep their column wherever they go."""
    value = token.value
    if value.startswith("\n") or not value.strip():
        return value
    return " " * token.start_mark.column + value


# --------------------------------------------------------------------------- editing a card


def _styled(old: Any, new: Any) -> Any:
    """``new`` in the scalar style of ``old`` (a literal block stays one, quotes stay)."""
    if isinstance(new, str) and isinstance(old, ScalarString):
        styled = type(old)(new)
        return styled
    return new


def yaml_mark(value: Any, key: str | None = None) -> Any:
    """The marker as YAML writes it: an edition no source gives is ``unknown``, as in rules/."""
    if isinstance(value, dict):
        return {k: yaml_mark(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [yaml_mark(v) for v in value]
    if value is None and key == "edition":
        return "unknown"
    return value


def mark_node(value: Any, key: str | None = None) -> Any:
    """The marker as round-trip nodes: its lists of sources and of plain values in flow style."""
    if isinstance(value, dict):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = mark_node(v, k)
        return out
    if isinstance(value, list):
        seq = CommentedSeq(mark_node(v) for v in value)
        if key == "sources" or all(not isinstance(v, (dict, list, str)) for v in value):
            seq.fa.set_flow_style()
        return seq
    return value


def edit_map(card: CommentedMap, decision: Any) -> bool:
    """Apply ``decision`` to a round-trip card mapping; ``True`` if it changed."""
    updates, mark = planned(card, decision, plain, yaml_mark)
    if not updates and mark is ...:
        return False
    for key, value in updates.items():
        if key in card:
            card[key] = _styled(card[key], value)
        else:
            _insert(card, insert_position([str(k) for k in card], key), key, value)
    if mark is None:
        if MARK in card:
            last = next(reversed(card)) == MARK
            tail = _take_tail(card) if last else ""
            del card[MARK]
            _give_tail(card, tail)
    elif mark is not ...:
        node = mark_node(mark)
        if MARK in card:
            old = card[MARK]
            tail = _take_tail(old) if next(reversed(card)) == MARK else ""
            card[MARK] = node
            _give_tail(node, tail)
        else:
            _insert(card, len(card), MARK, node)
    return True


def _insert(card: CommentedMap, position: int, key: str, value: Any) -> None:
    if position >= len(card):
        tail = _take_tail(card)
        card[key] = value
        if _is_block(value):
            _give_tail(value, tail)
        else:
            _give_tail(card, tail)
    else:
        card.insert(position, key, value)
