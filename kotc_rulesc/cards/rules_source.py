"""Where the commands get the rules: the compiled tables when they were built from the rules folder's
files as they are now (by hash), else its YAML, read and folded.  An installed kotc-rulesc's tables ship
with its rules; a checkout's (or a ``--rules DIR``'s) are the ``generated/`` beside them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tables import TablesView
    from ..view import RulesView


def tables_for(rules_dir: str | None) -> TablesView:
    """The tables that answer for the rules in ``rules_dir`` (default: the bundled rules); raises
    :class:`~kotc_rulesc.tables.TablesMissing` saying why there are none."""
    from ..bundled import checkout_root, default_out_dir
    from ..bundled import rules_dir as bundled_rules
    from ..tables import GENERATOR, TABLES_PACKAGE, TablesMissing, TablesView

    if rules_dir is None and checkout_root() is None:
        return TablesView()  # (installed: the tables and the rules they were built from ship together)
    view = TablesView.from_directory(default_out_dir(rules_dir) / TABLES_PACKAGE)
    if view.generator != GENERATOR or _stale(view.inputs, Path(rules_dir) if rules_dir else bundled_rules()):
        raise TablesMissing(f"{'rules/' if rules_dir is None else rules_dir} changed since the tables were built")
    return view


def _stale(built: tuple[tuple[str, str], ...], rules_dir: Path) -> bool:
    """Do the rules files (and the schema) differ from the ones the tables were built from?"""
    from ..outdir import inputs

    try:
        now = inputs(rules_dir, templates=False)
    except OSError:  # no such folder: the loader says so
        return True
    return {name.rsplit("/", 1)[-1]: sha for name, sha in built} != {name.rsplit("/", 1)[-1]: sha for name, sha in now}


def get_view(rules_dir: str | None = None, warn: bool = True) -> RulesView:
    """The rules as a :class:`~kotc_rulesc.view.RulesView` (raises ``ProblemsFound`` when the YAML does not
    load); ``warn``: say on standard error when the bundled rules are read from YAML."""
    from ..tables import TablesMissing

    try:
        return tables_for(rules_dir)
    except TablesMissing as exc:
        if warn and rules_dir is None:
            print(f"kotc-rulesc: {exc}; reading rules/ instead (run `kotc-rulesc build`)", file=sys.stderr)
    from ..loader import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read
    from ..view import FoldedRules

    return FoldedRules(load_rules(rules_dir))
