"""Collections given to the workbench: read by the CLI's one reader (from a private temporary copy
named as the file was), written back by ``migrate``'s writers fed the page's edits as a migration's
decisions, so that only the edited cards change.  A field the user cleared becomes ``null``; an earlier
migration's marker goes when the edited card is legal.
"""

from __future__ import annotations

import codecs
import io
import json
import re
import secrets
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..reading.policy import HEAD, InputError, detect_format
from ..migrate.io_json import Context, json_collection, jsonl_block
from ..migrate.plan import MARK, Decision

__all__ = ["Collections", "Held"]

#: collections the workbench holds at once (the oldest is let go)
KEPT = 8


@dataclass(frozen=True)
class _Edit(Decision):
    """A card's edit, as the migration writers take a decision: the fields it sets."""

    fields: dict[str, Any] = field(default_factory=dict)

    def updates(self) -> dict[str, Any]:
        return self.fields


class _EditContext(Context):
    """The writers' context, deciding each card by the page's edits (``None``: unchanged)."""

    def __init__(self, edits: dict[int, _Edit | None]):
        # what the writers read of a migrator: no words (no report), no key (edits go by index: no card is
        # remembered by its content)
        super().__init__(SimpleNamespace(words={}, key=lambda card: None), None, attention_cap=0)
        self.edits = edits

    def decide(self, card: dict, index: int, line: int | None) -> Decision:
        return self.edits.get(index) or _kept(card)


def _kept(card: dict, fields: dict[str, Any] | None = None) -> _Edit:
    """An edit that sets ``fields`` (none: the card is left as it is) and keeps the card's marker."""
    if MARK in card:  # (a decision that is not legal, its marker the card's own: the writers leave it)
        return _Edit("banned", None, 0, False, mark=card[MARK], fields=fields or {})
    return _Edit("rewritten" if fields else "unchanged", None, 0, False, fields=fields or {})


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: what the page sends back of a value it was sent (a YAML date came as text)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def edit_of(original: dict, edited: dict, legal: bool) -> _Edit | None:
    """The edit that makes ``original`` read as ``edited`` (``None``: they are the same card).  A
    changed text keeps the final line break of the original (a YAML block keeps its ``|``)."""
    fields: dict[str, Any] = {}
    for key, value in edited.items():
        if key == MARK:
            continue
        if key == "text" and isinstance(value, str) and isinstance(original.get("text"), str) \
                and original["text"].endswith("\n") and not value.endswith("\n"):
            value += "\n"
        if key not in original or not _same(original[key], value):
            fields[key] = value
    for key in original:
        if key not in edited and key != MARK and original[key] is not None:
            fields[key] = None
    if not fields:
        return None
    if legal:  # (a legal decision: the writers remove an earlier migration's marker)
        return _Edit("rewritten", None, 0, False, fields=fields)
    return _kept(original, fields)


@dataclass
class Held:
    """One collection the workbench holds: its name, its bytes, its format, its cards as read."""

    id: str
    name: str
    data: bytes
    format: str
    cards: list[Any]  # the CardInputs read

    def written(self, edits: dict[int, _Edit | None]) -> bytes:
        """The collection with ``edits`` made, written as ``migrate`` writes: only edited cards change."""
        ctx = _EditContext(edits)
        if self.format == "yaml":
            from ..migrate.io_yaml import migrate_yaml  # (ruamel.yaml: YAML collections only)

            return migrate_yaml(ctx, self.data, self.name).output
        bom = codecs.BOM_UTF8 if self.data.startswith(codecs.BOM_UTF8) else b""  # (kept, as migrate keeps it)
        data = self.data.removeprefix(bom)
        if self.format == "jsonl":
            return bom + jsonl_block(ctx, data, 0, 1).output
        return bom + "".join(text for _, text in json_collection(ctx, io.BytesIO(data), self.name)).encode("utf-8")


_SAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


class Collections:
    """The collections opened in this workbench, by id (a random token), the newest :data:`KEPT`."""

    def __init__(self) -> None:
        self._held: dict[str, Held] = {}
        self._lock = threading.Lock()

    def open(self, name: str, data: bytes) -> Held:
        """Read ``data``, a collection file named ``name``, as the CLI reads it; :class:`InputError`
        when the input policy refuses it."""
        from ..cards.collection import read_collection

        base = _SAFE_NAME.sub("_", Path(name.replace("\\", "/")).name).strip(" .") or "collection"
        with tempfile.TemporaryDirectory(prefix="kotc-workbench-", ignore_cleanup_errors=True) as folder:
            path = Path(folder) / base
            path.write_bytes(data)
            try:
                cards = list(read_collection(str(path)))
            except InputError as exc:
                exc.file = base if exc.file == str(path) else exc.file
                raise
        fmt = detect_format(base, data[:HEAD])
        held = Held(secrets.token_urlsafe(12), base, data, fmt, cards)
        with self._lock:
            self._held[held.id] = held
            while len(self._held) > KEPT:
                del self._held[next(iter(self._held))]
        return held

    def get(self, collection_id: str) -> Held | None:
        with self._lock:
            return self._held.get(collection_id)
