"""Equality, hashing and ``repr`` by ``__slots__``, for the small value classes of the card engine.

Those classes sit on the one-card path: they are ordinary classes with ``__slots__`` and an explicit
``__init__``, since a ``@dataclass`` writes and compiles its methods when its class is defined (about a
millisecond a class).  What they share is only this: two values of one class are equal when their
slots are, a value hashes as its slots do, and shows them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Value"]


class Value:
    __slots__ = ()

    def _values(self) -> tuple:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"
