"""A bounded memo of two generations: a hit in the old one moves to the new one; when the new one is full
it becomes the old one. Used entries stay, memory stays bounded, each operation is a dictionary look-up or two."""

from __future__ import annotations

from typing import Any, Callable, Hashable

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

    def remember(self, key: Hashable, compute: Callable[[Any], Any]) -> Any:
        """The value of ``key``, remembered or ``compute(key)`` (then remembered)."""
        value = self.get(key)
        if value is None:
            value = compute(key)
            self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        if len(self._new) >= self.limit:
            self._old, self._new = self._new, {}
        self._new[key] = value

    def __len__(self) -> int:
        return len(self._new) + len(self._old)
