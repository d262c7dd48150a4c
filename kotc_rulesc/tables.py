"""The compiled tables: each edition's catalog and each step's pass as plain Python literals.

``kotc-rulesc build`` writes them (:mod:`kotc_rulesc.codegen`) with :func:`to_data`; :class:`TablesView`
reads them back with :func:`from_data`, an edition at its first use, so that judging a card reads no YAML.
A value (:class:`~kotc_rulesc.value.Value`) is the dict of its fields not at their default, read back by
the types its ``__init__`` declares (a field added to a class reaches the tables without a change here);
a template is its segments (a literal text, ``("x",)`` a slot, ``("x", "cards", "card")`` a word that
agrees with x), a formula its guide notation.
"""

from __future__ import annotations

import collections.abc
import importlib
import importlib.util
import sys
import typing
from functools import lru_cache
from pathlib import Path
from types import ModuleType, UnionType
from typing import Any, Callable

from . import __version__
from .catalog import Catalog
from .formula import Formula, parse_formula
from .model import EditionKey, Source, edition_number
from .passes import Pass
from .passes import path as passes_path
from .text import Agree, Lit, Slot, Template
from .value import Value

__all__ = ["FORMAT", "GENERATOR", "TABLES_PACKAGE", "TablesMissing", "TablesView", "from_data", "to_data"]

#: the package ``kotc-rulesc build`` writes under generated/
TABLES_PACKAGE = "kotc_tables"
#: bumped when the layout of the tables changes: tables of another format are not read
FORMAT = 3
GENERATOR = f"kotc-rulesc {__version__} (tables format {FORMAT})"


class TablesMissing(ImportError):
    """The compiled tables cannot be read (not built, not installed, or of another format)."""


# --------------------------------------------------------------------------- values ↔ data


def to_data(value: Any) -> Any:
    """``value`` as literal data (see the module docstring)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Template):
        return tuple(s.text if isinstance(s, Lit) else (s.var,) if isinstance(s, Slot) else (s.var, s.plural, s.singular)
                     for s in value.segments)
    if isinstance(value, Formula):
        return value.notation()
    if isinstance(value, (tuple, list)):
        return tuple(to_data(v) for v in value)
    if isinstance(value, collections.abc.Mapping):
        return {k: to_data(v) for k, v in value.items()}
    if not isinstance(value, Value):
        raise TypeError(f"no literal form for a {type(value).__name__}")
    init, fields = type(value).__init__, type(value).fields
    defaults = dict(zip(fields[len(fields) - len(init.__defaults__ or ()):], init.__defaults__ or ()))
    defaults.update(init.__kwdefaults__ or {})
    return {name: to_data(getattr(value, name)) for name in fields
            if not (name in defaults and _is_default(getattr(value, name), defaults[name]))}


def _is_default(value: Any, default: Any) -> bool:
    """Is ``value`` its field's default?  (False is not 0; a dict is a mapping field's empty default.)"""
    return value == default and (type(value) is type(default) or isinstance(default, collections.abc.Mapping))


def from_data(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` (a value class, or a field type such as ``tuple[When, ...]``)
    that :func:`to_data` wrote as ``data``."""
    decode = _decoder(kind)
    return data if decode is None else decode(data)


@lru_cache(maxsize=None)  # (a text recurs in a component's history and in edition after edition: one value)
def _template(data: tuple) -> Template:
    return Template(tuple(Lit(s) if isinstance(s, str) else Slot(s[0]) if len(s) == 1 else Agree(*s) for s in data))


@lru_cache(maxsize=None)
def _decoder(kind: Any) -> Callable[[Any], Any] | None:
    """The decoder of a type (``None``: the data is the value: scalars, and containers of them)."""
    if kind is Template:
        return _template
    if kind is Formula:
        return lru_cache(maxsize=None)(parse_formula)  # (so does a formula)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is None and isinstance(kind, type) and issubclass(kind, Value):
        return _value_decoder(kind)
    if origin is typing.Literal or kind in (int, str, bool, type(None)):
        return None
    if origin in (typing.Union, UnionType):
        decoders = [d for d in map(_decoder, args) if d is not None]
        if not decoders:
            return None
        if len(decoders) > 1:
            raise TypeError(f"{kind}: the tables cannot tell its kinds apart")
        inner = decoders[0]
        return lambda data: None if data is None else inner(data)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = _decoder(args[0])
        return None if inner is None else lambda data: tuple(map(inner, data))
    if origin is tuple:
        parts = [_decoder(a) for a in args]
        if not any(parts):
            return None
        return lambda data: tuple(v if d is None else d(v) for d, v in zip(parts, data))
    if origin in (dict, collections.abc.Mapping):
        inner = _decoder(args[1])
        return None if inner is None else lambda data: {k: inner(v) for k, v in data.items()}
    raise TypeError(f"no literal form for {kind!r}")


def _value_decoder(cls: type) -> Callable[[dict], Any]:
    """A value from the dict of its fields, each read by the type its class declares (looked up the
    first time the field is met: one left at its default costs nothing)."""
    module = vars(sys.modules[cls.__module__])
    annotations = cls.__init__.__annotations__
    fields: dict[str, Callable[[Any], Any] | None] = {}

    def decode(data: dict) -> Any:
        values = dict(data)
        for name, value in data.items():
            try:
                field = fields[name]
            except KeyError:
                hint = annotations[name]
                field = fields[name] = _decoder(eval(hint, module) if isinstance(hint, str) else hint)
            if field is not None:
                values[name] = field(value)
        return cls(**values)

    return decode


# --------------------------------------------------------------------------- the view


class TablesView:
    """A :class:`~kotc_rulesc.view.RulesView` over a compiled tables package: each edition's
    catalog built from its data the first time it is asked for."""

    def __init__(self, package: ModuleType | str = TABLES_PACKAGE):
        if isinstance(package, str):
            try:
                package = importlib.import_module(package)
            except ImportError as exc:
                raise TablesMissing(
                    f"the compiled tables ({package}) cannot be imported: {exc}; "
                    "run `kotc-rulesc build` (and install the project) or pass --rules DIR"
                ) from exc
        if getattr(package, "FORMAT", None) != FORMAT:
            raise TablesMissing(f"the tables in {package.__name__} are of another format; run `kotc-rulesc build`")
        self.package = package
        self.first: int = package.FIRST
        self.last: int = package.LAST
        self.keys: tuple = tuple(package.EDITIONS)
        self.newest: int = max(edition_number(k) for k in self.keys)
        self.generator: str = package.GENERATOR
        self.inputs: tuple[tuple[str, str], ...] = package.INPUTS
        self._passes: list[Pass] | None = None
        self._catalogs: dict[EditionKey, Catalog] = {}
        self.readers: dict = {}  # (the card engine's, view.RulesView)

    @classmethod
    def from_directory(cls, directory: str | Path) -> "TablesView":
        """The tables of a build output directory (``--out DIR``) or of its package directory, imported
        under a name of their own, without touching ``sys.path``."""
        directory = Path(directory)
        if (directory / TABLES_PACKAGE / "__init__.py").is_file():
            directory = directory / TABLES_PACKAGE
        directory = directory.resolve()
        init = directory / "__init__.py"
        if not init.is_file():
            raise TablesMissing(f"the compiled tables are missing (no {init})")
        import hashlib  # (only tables found by their folder: the installed ones are imported by name)

        name = "_kotc_tables_" + hashlib.sha256(str(directory).encode()).hexdigest()[:12]
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(directory)])
            sys.modules[name] = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(sys.modules[name])
            except BaseException:
                del sys.modules[name]
                raise
        return cls(sys.modules[name])

    def _module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package.__name__}.{name}")

    def catalog(self, n: EditionKey) -> Catalog:
        cat = self._catalogs.get(n)
        if cat is None:  # (asked for per judged card: built once)
            if n not in self.keys:
                raise ValueError(f"edition {n} is not in the tables ({', '.join(map(str, self.keys))})")
            cat = self._catalogs[n] = from_data(Catalog, self._module(self.package.EDITION_MODULES[n]).CATALOG)
        return cat

    def passes(self) -> list[Pass]:
        if self._passes is None:
            self._passes = [from_data(Pass, self._module(name).PASS) for name in self.package.STEP_MODULES]
        return self._passes

    def path(self, source: EditionKey, target: EditionKey) -> list[Pass] | None:
        return passes_path(self.passes(), self.resolve(source), self.resolve(target))

    def resolve(self, key: EditionKey) -> EditionKey:
        """The edition of the file that holds ``key``'s state (see RuleSet.resolve)."""
        files = self.package.RULES_FILES
        if key in files or not isinstance(key, int):
            return key
        return max(k for k in files if isinstance(k, int) and k <= key)

    def newest_with_catalog(self) -> int:
        return self.package.NEWEST_WITH_CATALOG

    def type_aliases(self) -> dict[str, str]:
        return self.package.TYPE_ALIASES

    def decisive_fields(self) -> tuple[str, ...]:
        return self.package.DECISIVE_FIELDS

    def rules_files(self) -> list[tuple[EditionKey, str, int, str]]:
        return [(key, *facts) for key, facts in self.package.RULES_FILES.items()]

    @property
    def sources(self) -> dict[str, Source]:
        return {sid: Source(sid, file, title) for sid, (file, title) in self.package.SOURCES.items()}
