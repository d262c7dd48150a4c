"""Apply a decision to a card mapping: set the changed fields, add, replace or remove the marker.

Only the fields a migration changes are touched; every other field keeps its value
and its place.  A field the card did not have (an Edition Indicator on a card of the
6th-edition layout, a cost) goes where a card designer would put it: after the
nearest field that precedes it in the usual order (name, type, edition, the
figure — cost or level —, the stats, text).  The marker goes last, or stays where an earlier run put it.
"""

from __future__ import annotations

from typing import Any, Callable

from .plan import MARK, Decision

__all__ = ["planned", "edit_dict", "insert_position", "FIELD_ORDER"]

#: where a field a migration adds goes: after the fields before it here, before those after it; the
#: figure a re-issue sets ("cost", "level": not listed) goes right after the Edition Indicator
FIELD_ORDER = ("name", "type", "edition", "text")
_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def planned(card: dict, decision: Decision, plain: Callable[[Any], Any] = lambda v: v,
            mark_form: Callable[[dict], Any] = lambda m: m) -> tuple[dict[str, Any], Any]:
    """``(updates, mark)``: the fields whose value changes, and what becomes of the marker —
    a dict to set, ``None`` to remove it, ``...`` to leave it as it is.  ``plain`` turns the
    card's own value types (ruamel's) into plain ones for the comparison, and ``mark_form``
    gives the marker as the format writes it."""
    updates = {k: v for k, v in decision.updates().items() if not _same(plain(card.get(k, _MISSING)), v)}
    current = card.get(MARK, _MISSING)
    if decision.legal:
        mark = None if current is not _MISSING else ...
    else:
        wanted = mark_form(decision.mark)
        mark = wanted if current is _MISSING or plain(current) != wanted else ...
    return updates, mark


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
    if decision.legal and MARK not in card:  # the common case: set fields, nothing about the marker
        changed = [k for k, v in decision.updates().items() if not _same(card.get(k, _MISSING), v)]
        if not changed:
            return None
        if all(k in card for k in changed):
            new = card.copy()
            for k in changed:
                new[k] = decision.updates()[k]
            return new
    updates, mark = planned(card, decision)
    if not updates and mark is ...:
        return None
    items = [(k, updates.pop(k) if k in updates else v) for k, v in card.items()]
    if mark is None:
        items = [(k, v) for k, v in items if k != MARK]
    elif mark is not ...:
        if MARK in card:
            items = [(k, mark if k == MARK else v) for k, v in items]
        else:
            items.append((MARK, mark))
    for key, value in updates.items():  # fields the card did not have
        keys = [k for k, _ in items]
        items.insert(insert_position(keys, key), (key, value))
    return dict(items)
