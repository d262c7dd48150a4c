"""Where the commands get the rules from: the compiled tables when they answer for the rules
folder, else its YAML, read and folded.

The tables answer for a rules folder when they were built by this kotc-rulesc from its files as
they are now (the inputs the tables name, by hash).  An installed kotc-rulesc's bundled rules are
its ``kotc_tables`` package, built from the very files it ships; a source checkout's are its
``generated/`` beside ``rules/``, and a ``--rules DIR``'s the ``generated/`` beside ``DIR`` (a rules
checkout laid out like this repository).  Read from the tables, a command parses no YAML and
imports neither ruamel.yaml nor jsonschema.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (view.py's FoldedRules needs the replay, which the tables do not)
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
    out = default_out_dir(rules_dir)
    view = TablesView.from_directory(out / TABLES_PACKAGE)
    if view.generator != GENERATOR or _stale(view.inputs, Path(rules_dir) if rules_dir else bundled_rules()):
        raise TablesMissing(f"{'rules/' if rules_dir is None else rules_dir} changed since the tables were built")
    return view


def _stale(built: tuple[tuple[str, str], ...], rules_dir: Path) -> bool:
    """Do the rules files (and the schema) differ from the ones the tables were built from?"""
    from ..outdir import inputs

    def by_file(pairs) -> dict[str, str]:
        return {name.rsplit("/", 1)[-1]: sha for name, sha in pairs}

    try:
        return by_file(built) != by_file(inputs(rules_dir, templates=False))
    except OSError:  # no such folder: the loader says so
        return True


def get_view(rules_dir: str | None = None, warn: bool = True) -> RulesView:
    """The rules as a :class:`~kotc_rulesc.view.RulesView`; raises
    :class:`~kotc_rulesc.errors.ProblemsFound` when the YAML does not load.  ``warn``: say on
    standard error when the bundled rules are read from YAML (the tables missing or stale)."""
    from ..tables import TablesMissing

    try:
        return tables_for(rules_dir)
    except TablesMissing as exc:
        if warn and rules_dir is None:
            print(f"kotc-rulesc: {exc}; reading rules/ instead (run `kotc-rulesc build`)", file=sys.stderr)
    from ..loader import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read
    from ..view import FoldedRules

    return FoldedRules(load_rules(rules_dir))
