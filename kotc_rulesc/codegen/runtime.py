"""What the generated tables are made of: kotc-rulesc's own core, shipped once.

The edition modules and the migration passes are values of the engine's own classes —
:class:`~kotc_rulesc.catalog.Catalog`, :class:`~kotc_rulesc.text.Template`,
:class:`~kotc_rulesc.passes.Pass`, … — not a mirror of them.  The build copies the
standard-library-only core modules (``CORE_MODULES``) into the package's ``_core/``, so
that a game engine, a bot or a web backend can use the tables without kotc-rulesc:

    >>> from kotc_tables import edition
    >>> draw = edition(2).BY_ID["effect-draw"]
    >>> draw.text.render({"x": 1})
    'Draw 1 card.'
    >>> draw.text.match("Draw 3 cards.").values
    {'x': 3}
    >>> draw.formula.evaluate({"x": 3})
    Fraction(6, 1)

When kotc-rulesc itself loads the tables (:class:`~kotc_rulesc.tables.TablesView`) it
lends them its own modules instead of the copies (``build --check`` keeps the copies
byte for byte the modules they were made from), so the CLI reads the tables with the one
engine it reads folded YAML with.  ``_runtime.py`` names what the generated modules use.
"""

from __future__ import annotations

import hashlib
from importlib import resources

from ..tables import CORE_MODULES
from .common import Input, header, module_docstring

#: the names the generated modules may use: name → (core module, name there)
RUNTIME_NAMES = {
    "Agree": ("text", "Agree"),
    "Lit": ("text", "Lit"),
    "Slot": ("text", "Slot"),
    "Template": ("text", "Template"),
    "normalize": ("text", "normalize"),
    "CompiledFormula": ("formula", "CompiledFormula"),
    "var": ("formula", "var"),
    "Agreement": ("model", "Agreement"),
    "Capitals": ("model", "Capitals"),
    "CardTypeDecl": ("model", "CardTypeDecl"),
    "CostRule": ("model", "CostRule"),
    "Disagreement": ("model", "Disagreement"),
    "EditionDecl": ("model", "EditionDecl"),
    "Join": ("model", "Join"),
    "KindDecl": ("model", "KindDecl"),
    "Naming": ("model", "Naming"),
    "Range": ("model", "Range"),
    "Rulebook": ("model", "Rulebook"),
    "StatDecl": ("model", "StatDecl"),
    "Successor": ("model", "Successor"),
    "System": ("model", "System"),
    "TargetCount": ("model", "TargetCount"),
    "Tutorial": ("model", "Tutorial"),
    "Variation": ("model", "Variation"),
    "When": ("model", "When"),
    "Catalog": ("catalog", "Catalog"),
    "ComponentState": ("catalog", "ComponentState"),
    "CostChange": ("changes", "CostChange"),
    "LimitChange": ("changes", "LimitChange"),
    "Wording": ("changes", "Wording"),
    "Ban": ("changes", "Ban"),
    "Reinstated": ("changes", "Reinstated"),
    "Rewrite": ("changes", "Rewrite"),
    "StepCostChange": ("changes", "StepCostChange"),
    "StepLimitChange": ("changes", "StepLimitChange"),
    "Pass": ("passes", "Pass"),
}


def _core_bytes(module: str) -> bytes:
    return resources.files("kotc_rulesc").joinpath(f"{module}.py").read_bytes()


def core_input(module: str) -> Input:
    return Input(f"kotc_rulesc/{module}.py", hashlib.sha256(_core_bytes(module)).hexdigest())


def core_sources() -> dict[str, tuple[str, list[Input]]]:
    """``_core/…``: path → (source, what it derives from): each core module with a header."""
    out: dict[str, tuple[str, list[Input]]] = {}
    inputs = [core_input(m) for m in CORE_MODULES]
    doc = (
        "kotc-rulesc's core, copied verbatim from the modules named in each file's header:\n"
        "the classes the tables are made of and the engine that reads them (text templates,\n"
        "formulas, the model, the folded catalog, the migration passes).  Standard library only.\n"
    )
    out["_core/__init__.py"] = (header("The core the tables are made of.", inputs) + module_docstring(doc), inputs)
    for module, source in zip(CORE_MODULES, inputs):
        text = _core_bytes(module).decode("utf-8")
        out[f"_core/{module}.py"] = (header(f"kotc_rulesc/{module}.py, copied verbatim.", [source]) + text, [source])
    return out


def runtime_source() -> tuple[str, list[Input]]:
    """``_runtime.py``: the core names the generated modules import, from ``_core``."""
    inputs = [core_input(m) for m in CORE_MODULES]
    by_module: dict[str, list[str]] = {}
    for name, (module, attr) in RUNTIME_NAMES.items():
        by_module.setdefault(module, []).append(name if name == attr else f"{attr} as {name}")
    doc = (
        "The names the generated modules use: kotc-rulesc's own classes, from _core/ (or, when\n"
        "kotc-rulesc loads the tables, from kotc-rulesc itself: the same code).\n"
    )
    lines = [header("The core names the tables use.", inputs), module_docstring(doc), "\n"]
    for module in CORE_MODULES:
        names = sorted(by_module.get(module, ()), key=str.lower)
        if not names:
            continue  # a core module the tables' values do not name (the history kinds)
        lines.append(f"from ._core.{module} import (\n" + "".join(f"    {n},\n" for n in names) + ")\n")
    lines.append("\n__all__ = [\n" + "".join(f'    "{n}",\n' for n in sorted(RUNTIME_NAMES, key=str.lower)) + "]\n")
    return "".join(lines), inputs
