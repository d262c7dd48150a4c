"""Where the card commands get the rules from.

Without ``--rules`` they run on the compiled tables in ``generated/`` (the
``kotc_tables`` package written by ``kotc-rulesc build``): no YAML is parsed, and
ruamel.yaml and jsonschema are never imported.  With ``--rules DIR`` that
directory is loaded and folded in memory, as ``check`` and ``show`` do.

In a source checkout, if ``rules/`` no longer matches the hashes its ``generated/``
tables were built from, or the tables are missing, the rules are folded from the YAML instead
(correct, only slower), with a warning saying to run ``kotc-rulesc build``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (view.py's FoldedRules needs the replay, which the tables do not)
    from ..view import RulesView


def _checkout_rules_dir(view) -> Path | None:
    """``rules/`` of the source checkout, when the tables in use are its ``generated/``."""
    from ..bundled import generated_dir, rules_dir

    generated = generated_dir()
    package_file = getattr(view.package, "__file__", None)
    if generated is None or not package_file or Path(package_file).resolve().parent.parent != generated:
        return None
    return rules_dir()


def tables_are_stale(inputs: tuple[tuple[str, str], ...], rules_dir: Path) -> bool:
    """Do the rules files in ``rules_dir`` differ from the ones the tables were built from?"""
    import hashlib  # (only a source checkout's tables are checked: an installed kotc-rulesc never needs it)

    built = {name.rsplit("/", 1)[-1]: digest for name, digest in inputs if name.endswith((".yaml", ".yml"))}
    present = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in rules_dir.iterdir()
        if p.suffix in (".yaml", ".yml") and p.is_file()
    }
    return built != present


def _warn(message: str) -> None:
    print(f"kotc-rulesc: {message}", file=sys.stderr)


def get_view(rules_dir: str | None = None) -> RulesView:
    """The rules as a :class:`~kotc_rulesc.view.RulesView`; raises
    :class:`~kotc_rulesc.errors.ProblemsFound` when folded rules do not load."""
    if rules_dir is None:
        from ..tables import TablesMissing, TablesView

        try:
            view = TablesView()
        except TablesMissing:
            _warn("the compiled tables are missing; reading rules/ instead (run `kotc-rulesc build`)")
        else:
            checkout = _checkout_rules_dir(view)
            if checkout is None or not tables_are_stale(view.inputs, checkout):
                return view
            _warn("rules/ changed since the tables were built; reading rules/ instead (run `kotc-rulesc build`)")

    from ..rules_cache import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read
    from ..view import FoldedRules

    return FoldedRules(load_rules(rules_dir))
