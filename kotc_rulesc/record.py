"""Value classes whose methods are shared, not generated: ``@record``, the core's ``@dataclass``.

``@dataclass`` writes the source of an ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
``__hash__``, ``__setattr__``, ``__delattr__``) for each class and compiles it when the class is
defined: about a millisecond a class.  kotc-rulesc's core and card engine define some seventy
value classes, so a one-card ``check-cards`` spent more time defining classes than reading its
tables and judging the card.  ``@record`` gives a class the same behaviour with functions that
every record shares and that read the class's field list; defining a record costs microseconds.

A record is written and behaves as ``@dataclass`` would make it:

* its fields are its annotated names, in order; ``field(default=…)``,
  ``field(default_factory=…)``, ``field(compare=False)`` and ``field(repr=False)`` (dataclasses'
  own :func:`~dataclasses.field`) work as there, as does a plain ``= default``;
* ``Cls(…)`` takes the fields positionally or by name, the defaults filled in;
* ``==`` compares the compared fields of two records of the same class; a frozen record hashes
  them, a mutable one is unhashable;
* ``repr()`` is ``Cls(field=value, …)``;
* ``@record(frozen=True)``: assigning or deleting an attribute raises
  :class:`~dataclasses.FrozenInstanceError` (``functools.cached_property`` still works);
* ``@record(order=True)``: ``<``, ``<=``, ``>``, ``>=`` compare the same fields in order;
* a method the class body defines itself is kept.

:func:`field_names` and :func:`replace` stand in for ``dataclasses.fields`` and
``dataclasses.replace``.  A record does not inherit from another record (its fields would be
ambiguous).  Standard library only, as is all of the engine.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import attrgetter
from typing import Any, Callable

__all__ = ["FrozenInstanceError", "field", "field_names", "record", "replace"]


class _Spec:
    """What the shared methods read of one record class."""

    __slots__ = ("names", "defaults", "factories", "key", "shown")

    def __init__(self, names, defaults, factories, key, shown):
        self.names: tuple[str, ...] = names  # every field, in order
        self.defaults: dict[str, Any] = defaults  # field → its default, or its default factory
        self.factories: frozenset[str] = factories  # the fields whose default is a factory
        self.key: Callable[[Any], tuple] = key  # the compared fields' values, as a tuple
        self.shown: tuple[str, ...] = shown  # the fields repr() shows


def record(cls: type | None = None, /, *, frozen: bool = False, order: bool = False) -> Any:
    """Make ``cls`` a record (see the module docstring): ``@record``, ``@record(frozen=True)``."""

    def make(cls: type) -> type:
        _define(cls, frozen, order)
        return cls

    return make if cls is None else make(cls)


def field_names(obj: Any) -> tuple[str, ...]:
    """The fields of a record or record class, in order."""
    return obj.__record__.names


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the record ``obj`` with ``changes`` (field → new value).  The other fields' values
    are shared, as ``dataclasses.replace`` shares them, and nothing else is copied (a cached property
    is computed afresh); written straight into the copy, not through ``__init__``: the card engine
    copies a judgement per card this way."""
    names = obj.__record__.names
    values = obj.__dict__
    copy = object.__new__(obj.__class__)
    fresh = copy.__dict__  # (written directly: a frozen record refuses setattr)
    fresh.update(values)
    if len(fresh) != len(names):  # a cached property's value besides the fields: the fields alone
        fresh.clear()
        for name in names:
            fresh[name] = values[name]
    fresh.update(changes)
    if len(fresh) != len(names):
        unknown = next(name for name in changes if name not in names)
        raise TypeError(f"{type(obj).__name__}() got an unexpected keyword argument {unknown!r}")
    return copy


def _tuple_of(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """A function that gives an object's attributes ``names`` as a tuple (attrgetter gives a
    lone value for one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _define(cls: type, frozen: bool, order: bool) -> None:
    if any(hasattr(base, "__record__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__name__}: a record cannot inherit from a record")
    names: list[str] = []
    defaults: dict[str, Any] = {}
    factories: set[str] = set()
    compared: list[str] = []
    shown: list[str] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else field(default=value)
        if spec.default is not MISSING:
            default = spec.default
            if type(default).__hash__ is None:  # a list, dict or set shared by every instance
                raise ValueError(f"{cls.__name__}.{name}: mutable default {type(default).__name__}; use default_factory")
            defaults[name] = default
            setattr(cls, name, default)
        elif spec.default_factory is not MISSING:
            defaults[name] = spec.default_factory
            factories.add(name)
            delattr(cls, name)  # (the Field): an instance always has its own value
        elif defaults:
            raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
        names.append(name)
        if spec.compare:
            compared.append(name)
        if spec.repr:
            shown.append(name)
    cls.__record__ = _Spec(tuple(names), defaults, frozenset(factories), _tuple_of(tuple(compared)), tuple(shown))
    methods: dict[str, Any] = {"__init__": _init, "__repr__": _repr, "__eq__": _eq}
    if frozen:
        methods.update(__setattr__=_frozen, __delattr__=_frozen)
    if order:
        methods.update(__lt__=_lt, __le__=_le, __gt__=_gt, __ge__=_ge)
    for name, method in methods.items():
        if name not in cls.__dict__:
            setattr(cls, name, method)
    if cls.__dict__.get("__hash__") is None:  # (None too when the body defines __eq__ alone)
        cls.__hash__ = _hash if frozen else None  # type: ignore[assignment]  # mutable: unhashable
    cls.__match_args__ = tuple(names)


# -- the shared methods -------------------------------------------------------------------------


def _init(self, *args: Any, **kwargs: Any) -> None:
    spec = self.__record__
    names = spec.names
    if len(args) == len(names):  # (the tables build most of their records so)
        self.__dict__.update(zip(names, args))
        return
    if len(args) > len(names):
        raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, {len(args)} given")
    values = self.__dict__  # (written directly: a frozen record refuses setattr)
    values.update(zip(names, args))
    for name in names[len(args):]:
        if name in kwargs:
            values[name] = kwargs.pop(name)
        elif name in spec.defaults:
            default = spec.defaults[name]
            values[name] = default() if name in spec.factories else default
        else:
            raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
    if kwargs:
        name = next(iter(kwargs))
        how = "multiple values for" if name in names else "an unexpected keyword"
        raise TypeError(f"{type(self).__name__}() got {how} argument {name!r}")


def _repr(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record__.shown)
    return f"{type(self).__qualname__}({shown})"


def _eq(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__record__.key
        return key(self) == key(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(self.__record__.key(self))


def _frozen(self, name: str, *value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to or delete {name!r}: {type(self).__name__} is frozen")


def _lt(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return self.__record__.key(self) < other.__record__.key(other)
    return NotImplemented


def _le(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return self.__record__.key(self) <= other.__record__.key(other)
    return NotImplemented


def _gt(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return self.__record__.key(self) > other.__record__.key(other)
    return NotImplemented


def _ge(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return self.__record__.key(self) >= other.__record__.key(other)
    return NotImplemented
