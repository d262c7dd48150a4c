"""The rules as the CLI runs on them: catalogs and passes served from the compiled tables.

:class:`TablesView` implements :class:`~kotc_rulesc.view.RulesView` over the package
that ``kotc-rulesc build`` writes (``generated/kotc_tables``), so commands that judge or
migrate cards parse no YAML and import neither ruamel.yaml nor jsonschema.  Each
edition's module is imported the first time its catalog is asked for.

The tables are made of the engine's own classes: an edition module's ``CATALOG`` *is* a
:class:`~kotc_rulesc.catalog.Catalog` (texts are :class:`~kotc_rulesc.text.Template`,
formulas :class:`~kotc_rulesc.formula.CompiledFormula` running the generated functions)
and a pass module's ``STEP`` a :class:`~kotc_rulesc.passes.Pass`.  The package carries
copies of the core modules for use without kotc-rulesc (``_core/``); loading it here,
:func:`share_core` lends it kotc-rulesc's own modules instead, so nothing is converted
and there is one engine.  ``Catalog.declared`` holds the facts of the edition's own rules
file but not its event lists: the passes carry those.

This module imports only the standard library and kotc_rulesc's own stdlib-only
modules (record, text, formula, model, changes, catalog, passes) — never the loader, nor the
replay that folds the rules (fold, history).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .catalog import Catalog
from .formula import CompiledFormula
from .model import EditionKey, Source, edition_number
from .passes import Pass
from .passes import path as passes_path

__all__ = ["CORE_MODULES", "VALUE_MODULES", "TABLES_PACKAGE", "CompiledFormula", "TablesMissing", "TablesView", "load_package", "share_core"]

#: the package ``kotc-rulesc build`` writes under generated/
TABLES_PACKAGE = "kotc_tables"

#: the core modules the tables are made of, shipped in their ``_core/`` (standard library only;
#: they import one another)
CORE_MODULES = (
    "record", "text", "formula", "model", "wordiff", "wording", "changes", "catalog", "history", "fold", "passes",
)
#: those the tables' values are instances of (every module ``_runtime`` imports from, and what
#: those import): the ones :func:`share_core` lends; the replay's (fold, history …) are not needed
VALUE_MODULES = ("record", "text", "formula", "model", "changes", "catalog", "passes")


class TablesMissing(ImportError):
    """The compiled tables cannot be imported (not built, or not installed)."""


def share_core(package: str) -> None:
    """Before ``package`` (a tables package) is imported: make the ``_core`` modules its values
    are made of kotc-rulesc's own, so that they are instances of the classes the CLI uses
    (``build --check`` keeps the copies identical to them)."""
    for module in VALUE_MODULES:
        sys.modules.setdefault(f"{package}._core.{module}", importlib.import_module(f"kotc_rulesc.{module}"))


def load_package(directory: str | Path, name: str | None = None) -> ModuleType:
    """Import a generated tables package from ``directory`` (e.g. a build's ``--out``/kotc_tables)
    under ``name`` (default: a private name derived from the path), without touching
    ``sys.path``.  Its modules import one another relatively, so any name works."""
    directory = Path(directory).resolve()
    init = directory / "__init__.py"
    if not init.is_file():
        raise TablesMissing(f"no generated tables in {directory} (run `kotc-rulesc build`)")
    if name is None:
        import hashlib

        name = "_kotc_tables_" + hashlib.sha256(str(directory).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    share_core(name)
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(directory)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


class TablesView:
    """A :class:`~kotc_rulesc.view.RulesView` over the compiled tables package."""

    def __init__(self, package: ModuleType | str = TABLES_PACKAGE):
        if isinstance(package, str):
            try:
                share_core(package)
                package = importlib.import_module(package)
            except ImportError as exc:
                raise TablesMissing(
                    f"the compiled tables ({package}) cannot be imported: {exc}; "
                    "run `kotc-rulesc build` (and install the project) or pass --rules DIR"
                ) from exc
        self.package = package
        self.first: int = package.FIRST
        self.last: int = package.LAST
        self.keys: tuple = tuple(package.EDITIONS)
        self.newest: int = max(edition_number(k) for k in self.keys)
        self.generator: str = package.GENERATOR
        self.inputs: tuple[tuple[str, str], ...] = package.INPUTS
        self._passes: list[Pass] | None = None
        self._catalogs: dict[EditionKey, Catalog] = {}

    @classmethod
    def from_directory(cls, directory: str | Path) -> "TablesView":
        """The tables of a build output directory (``--out DIR``) or of its package directory."""
        directory = Path(directory)
        if (directory / TABLES_PACKAGE / "__init__.py").is_file():
            directory = directory / TABLES_PACKAGE
        return cls(load_package(directory))

    # -- RulesView --------------------------------------------------------

    def catalog(self, n: EditionKey) -> Catalog:
        cat = self._catalogs.get(n)
        if cat is None:  # (asked for per judged card: the module look-up is done once)
            if n not in self.keys:
                raise ValueError(f"edition {n} is not in the tables ({', '.join(map(str, self.keys))})")
            cat = self._catalogs[n] = self.package.edition(n).CATALOG
        return cat

    def path(self, source: EditionKey, target: EditionKey) -> list[Pass] | None:
        return passes_path(self.passes(), self.resolve(source), self.resolve(target))

    def resolve(self, key: EditionKey) -> EditionKey:
        """The edition of the file that holds ``key``'s state (see RuleSet.resolve)."""
        files = self.package.RULES_FILES
        if key in files or not isinstance(key, int):
            return key
        return max(k for k in files if isinstance(k, int) and k <= key)

    def passes(self) -> list[Pass]:
        if self._passes is None:
            self._passes = list(self.package.steps())
        return self._passes

    def newest_with_catalog(self) -> int:
        return self.package.NEWEST_WITH_CATALOG

    def type_aliases(self) -> dict[str, str]:
        return self.package.TYPE_ALIASES  # (compiled: no edition module is loaded for them)

    def decisive_fields(self) -> tuple[str, ...]:
        return self.package.DECISIVE_FIELDS  # (compiled: no edition module is loaded for them)

    # -- extras -------------------------------------------------------------

    @property
    def sources(self) -> dict[str, Source]:
        return {sid: Source(sid, file, title) for sid, (file, title) in self.package.SOURCES.items()}

    def edition_module(self, n: int) -> ModuleType:
        """The generated module of edition ``n``."""
        return self.package.edition(n)
