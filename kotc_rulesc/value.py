"""``Value``: the base of the small value classes — equal, hashed and shown by their fields.

A value class is an ordinary ``__slots__`` class whose fields are its ``__init__``'s parameters; a
``@dataclass`` costs about a millisecond a class at import, which the one-card commands cannot spend.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["EMPTY", "Value"]

#: the default of a mapping field: empty, and shared, so no one may change it
EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Value:
    __slots__ = ()
    #: the fields: ``__init__``'s parameters, in order
    fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:  # (a base of values, without fields of its own, has none)
            code = cls.__init__.__code__
            cls.fields = code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]

    def _field_values(self) -> tuple:
        """The fields' values (a private name: a value class may have a field called ``values``)."""
        return tuple(getattr(self, name) for name in self.fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._field_values() == other._field_values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._field_values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.fields)})"

    def replace(self, **changes: Any) -> Any:
        """A copy with ``changes`` (field → value)."""
        return type(self)(**{**{n: getattr(self, n) for n in self.fields}, **changes})
