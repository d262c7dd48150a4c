"""A bounded memo: two generations of at most ``limit`` entries each.

A hit in the old generation moves the entry to the new one; when the new
generation is full it becomes the old one and the oldest entries are dropped.
Frequently used entries therefore stay, memory stays bounded whatever the input
size, and each operation is one or two dictionary look-ups.  On a path taken once per
card, a caller looks in the newer generation first, ``memo.new.get(key) or memo.get(key)``
(the values being true): a hit there is all :meth:`Memo.get` would do, without its call."""

from __future__ import annotations

from typing import Any, Hashable

__all__ = ["Memo"]


class Memo:
    __slots__ = ("limit", "new", "old")

    def __init__(self, limit: int):
        self.limit = limit
        self.new: dict = {}
        self.old: dict = {}

    def get(self, key: Hashable) -> Any:
        """The value, or ``None`` when the key is not remembered."""
        value = self.new.get(key)
        if value is None:
            value = self.old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        if len(self.new) >= self.limit:
            self.old, self.new = self.new, {}
        self.new[key] = value

    def __contains__(self, key: Hashable) -> bool:
        return key in self.new or key in self.old

    def __len__(self) -> int:
        return len(self.new) + len(self.old)
