"""Apply a decision to a card mapping: set the changed fields, add, replace or remove the marker.

Every other field keeps its value and its place.  A field the card did not have goes where a card
designer would put it (:data:`FIELD_ORDER`); the marker goes last, or stays where an earlier run put it.
"""

from __future__ import annotations

from typing import Any, Callable

from .plan import MARK, Decision

__all__ = ["planned", "edit_dict", "insert_position", "FIELD_ORDER"]

#: where a field a migration adds goes: after the fields before it here, before those after it; the
#: figure a re-issue sets ("cost", "level": not listed) goes right after the Edition Indicator
FIELD_ORDER = ("name", "type", "edition", "text")
_MISSING = object()


def planned(card: dict, decision: Decision,
            mark_form: Callable[[dict], Any] = lambda m: m) -> tuple[dict[str, Any], Any]:
    """``(updates, mark)``: the fields whose value changes, and what becomes of the marker — a dict to
    set, ``None`` to remove it, ``...`` to leave it as it is (``mark_form``: as the format writes it)."""
    updates = {k: v for k, v in decision.updates().items()
               if not (type(card.get(k, _MISSING)) is type(v) and card.get(k) == v)}
    current = card.get(MARK, _MISSING)
    if decision.legal:
        return updates, None if current is not _MISSING else ...
    wanted = mark_form(decision.mark)
    return updates, wanted if current is _MISSING or current != wanted else ...


def insert_position(keys: list[str], key: str) -> int:
    """Where a new field ``key`` goes among ``keys``."""
    # a figure (not in FIELD_ORDER) goes where the Edition Indicator's successor would
    at = FIELD_ORDER.index(key) if key in FIELD_ORDER else FIELD_ORDER.index("edition") + 1
    before, after = FIELD_ORDER[:at], FIELD_ORDER[at + (key in FIELD_ORDER):]
    for i in range(len(keys) - 1, -1, -1):
        if keys[i] in before:
            return i + 1
    for i, k in enumerate(keys):
        if k in after:
            return i
    return len(keys) - (1 if keys and keys[-1] == MARK else 0)


def edit_dict(card: dict, decision: Decision) -> dict | None:
    """A new plain dict with the decision applied, or ``None`` when the card does not change."""
    updates, mark = planned(card, decision)
    if not updates and mark is ...:
        return None
    items = []
    for k, v in card.items():
        if k != MARK:
            items.append((k, updates.pop(k, v)))
        elif mark is not None:
            items.append((k, v if mark is ... else mark))
    if mark is not None and mark is not ... and MARK not in card:
        items.append((MARK, mark))
    for key, value in updates.items():  # fields the card did not have
        items.insert(insert_position([k for k, _ in items], key), (key, value))
    return dict(items)
