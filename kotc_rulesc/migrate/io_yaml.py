"""YAML collections: comments, key order, quoting and unknown fields kept; only the changed cards rewritten.

A collection is migrated by patching the changed cards' lines
(:mod:`kotc_rulesc.migrate.yaml_patch`): it is read once, fast, every card is
decided from its plain values, and only a changed card's text is rewritten —
every other byte is copied.  A document outside what the patcher reads (see
:mod:`kotc_rulesc.migrate.yaml_layout`: an anchor, a tag, a single card, a
syntax error…) is migrated as before, by a round trip of the whole document
(:mod:`kotc_rulesc.migrate.yaml_edit`), which also gives every refusal of the
input policy its located message.  Both ways, a file in which no card changes is
written back byte for byte, so a diff of input and output shows exactly what the
migration changed.

ruamel.yaml is imported here only, and this module only when a collection is YAML.
"""

from __future__ import annotations

import io

from ruamel.yaml.comments import CommentedMap

from ..cards.collection import yaml_cards
from ..inputs import check_line_lengths, decode
from .io_json import BlockResult, Context
from .report import Record
from .yaml_edit import detect_indent, edit_map, plain, round_trip_yaml
from .yaml_patch import patch_collection

__all__ = ["migrate_yaml", "plain", "detect_indent"]


def migrate_yaml(ctx: Context, data: bytes, display: str) -> BlockResult:
    """Migrate a YAML collection; ``output`` is the new bytes (the input itself when nothing changed)."""
    text = decode(display, data, bom=False)
    check_line_lengths(display, data)
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    result = patch_collection(ctx, body)
    if result is None:
        return round_trip(ctx, data, body, display)
    result.output = data if result.output is None else (("\ufeff" if bom else "") + result.output).encode("utf-8")
    return result


def round_trip(ctx: Context, data: bytes, body: str, display: str) -> BlockResult:
    """Migrate the collection by a round trip of the whole document through ruamel.yaml."""
    bom = data.startswith(b"\xef\xbb\xbf")
    yaml = round_trip_yaml(body)
    doc, entries, how = yaml_cards(yaml, body, display)  # the same reading as check-cards and cost
    if how == "card":
        entries = None  # a single card

    result = ctx.new_result()
    changed_any = False
    cards = [(0, doc)] if entries is None else list(enumerate(entries))
    for index, entry in cards:
        if entries is None:
            line = doc.lc.line + 1
        else:
            line = entries.lc.item(index)[0] + 1
        if not isinstance(entry, CommentedMap):
            kind = "null" if entry is None else type(plain(entry)).__name__
            ctx.note(result, Record(index, line, None, None, False, f"a {kind}, not a card (a mapping of fields)"))
            continue
        card = plain(entry)
        d = ctx.decide(card, index, line)
        changed = edit_map(entry, d)
        changed_any = changed_any or changed
        name = card.get("name")
        ctx.note(result, Record(index, line, name if isinstance(name, str) else None, d, changed))
    result.cards = len(cards)
    if not changed_any:
        result.output = data
        return result
    buf = io.StringIO()
    yaml.dump(doc, buf)
    result.output = (("\ufeff" if bom else "") + buf.getvalue()).encode("utf-8")
    return result
