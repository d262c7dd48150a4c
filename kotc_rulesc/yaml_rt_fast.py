"""YAML as ruamel.yaml's round-trip loader gives it, read by libyaml: rules files and card collections.

The loader (:mod:`kotc_rulesc.loader`) locates every problem by the round-trip types'
positions (``.lc``) and the quoting of a scalar (a double-quoted text's column is one past its
quote).  Composing those with ruamel.yaml's pure-Python parser is most of the time of reading a
rules directory.  :func:`load` builds the very same values — ``CommentedMap`` and
``CommentedSeq`` with the same ``.lc`` lines and columns, quoted and block texts as ruamel.yaml's
``*ScalarString`` types, plain integers, booleans and nulls — from the fast event reader of
:mod:`kotc_rulesc.migrate.yaml_layout` (libyaml's events), without comments
or flow styles, which nothing reads.

It takes the plain subset that rules files are written in and declines (``None``) everything
else, as :func:`~kotc_rulesc.migrate.yaml_layout.read_layout` declines (anchors, aliases, tags,
directives, duplicate keys, depth past the policy, long integers, tabs, syntax errors…), and an
empty value too (the two parsers place it differently).  A number that the round trip keeps as
it is written (a float; an integer in another base, with ``_`` or a leading zero) is built by
ruamel.yaml's own round-trip constructor.  A declined file is read by the input policy's
round-trip :func:`~kotc_rulesc.inputs.load_yaml`, which either takes it or says, located, why
not: every message stays the one it was.  Card collections (:mod:`kotc_rulesc.cards.collection`)
are read the same way, without ``preserve_quotes``.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from .migrate.yaml_layout import Collection, Scalar, read_layout

__all__ = ["load"]

#: an integer the round trip reads as a plain ``int`` (others keep their layout: a ScalarInt; even ``0``)
_PLAIN_INT = re.compile(r"[-+]?[1-9][0-9]*\Z")
_STYLED = {'"': DoubleQuotedScalarString, "'": SingleQuotedScalarString,
           "|": LiteralScalarString, ">": FoldedScalarString}
#: without ``preserve_quotes`` the round trip reads a quoted text as a plain ``str``
_UNQUOTED = {**_STYLED, '"': str, "'": str}


class _Decline(Exception):
    """The fast reading does not take this document."""


def load(text: str, preserve_quotes: bool = True) -> Any:
    """The document's data as ``YAML(typ="rt")`` loads it, with ``preserve_quotes`` as given
    (comments and flow styles aside), or ``None`` when the fast reading declines it (or it holds
    no data)."""
    root = read_layout(text)
    if root is None:
        return None
    try:
        return _value(root, text, _STYLED if preserve_quotes else _UNQUOTED)
    except _Decline:
        return None


def _value(node: Any, text: str, styled: dict) -> Any:
    if node.__class__ is Scalar:
        return _scalar(node, text, styled)
    if node.__class__ is not Collection:  # pragma: no cover - read_layout builds only these
        raise _Decline()
    if node.mapping:
        out: Any = CommentedMap()
        data: dict = {}
        for key_node, value_node in zip(node.keys, node.items):
            key = _scalar(key_node, text, styled)
            out[key] = _value(value_node, text, styled)
            data[key] = [key_node.line, key_node.column, value_node.line, value_node.column]
    else:
        out = CommentedSeq()
        data = {}
        for i, item in enumerate(node.items):
            out.append(_value(item, text, styled))
            data[i] = [item.line, item.column]
    if data:  # as ruamel.yaml keeps them: none until an entry is added
        out.lc.data = data
    out.lc.line, out.lc.col = node.line, node.column
    return out


def _scalar(node: Scalar, text: str, styled: dict) -> Any:
    if node.style:
        return styled[node.style](node.value)
    if node.start == node.end:  # an empty value: the round trip places it where the next token is
        raise _Decline()
    value = node.value
    cls = value.__class__
    if cls is str or value is None or cls is bool:
        return value
    if cls is int and _PLAIN_INT.match(text, node.start, node.end):
        return value
    if cls is int or cls is float:  # a number the round trip keeps as written: its own constructor's
        return _number(text[node.start:node.end], cls is int)
    raise _Decline()  # pragma: no cover - read_layout types no other plain scalar


_CONSTRUCTOR: list[Any] = []


def _number(raw: str, integer: bool) -> Any:
    """``raw`` as ruamel.yaml's round-trip constructor builds it (a ScalarInt, ScalarFloat…)."""
    if not _CONSTRUCTOR:
        from ruamel.yaml import YAML

        _CONSTRUCTOR.append(YAML(typ="rt").constructor)
    from ruamel.yaml.nodes import ScalarNode

    constructor = _CONSTRUCTOR[0]
    if integer:
        return constructor.construct_yaml_int(ScalarNode("tag:yaml.org,2002:int", raw))
    return constructor.construct_yaml_float(ScalarNode("tag:yaml.org,2002:float", raw))
