"""A bounded memo: two generations of at most ``limit`` entries each.

A hit in the old generation moves the entry to the new one; when the new generation is full it
becomes the old one and the oldest entries are dropped.  Frequently used entries therefore stay,
memory stays bounded whatever the input size, and each operation is one or two dictionary look-ups.
"""

from __future__ import annotations

from typing import Any, Hashable

__all__ = ["Memo"]


class Memo:
    __slots__ = ("limit", "_new", "_old")

    def __init__(self, limit: int):
        self.limit = limit
        self._new: dict = {}
        self._old: dict = {}

    def get(self, key: Hashable) -> Any:
        """The value, or ``None`` when the key is not remembered."""
        value = self._new.get(key)
        if value is None:
            value = self._old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        if len(self._new) >= self.limit:
            self._old, self._new = self._new, {}
        self._new[key] = value

    def __contains__(self, key: Hashable) -> bool:
        return key in self._new or key in self._old

    def __len__(self) -> int:
        return len(self._new) + len(self._old)
