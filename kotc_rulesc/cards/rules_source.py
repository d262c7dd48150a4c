"""Where the card commands get the rules from: the one place to change when the
compiled tables in ``generated/`` replace the in-memory fold of ``rules/*.yaml``."""

from __future__ import annotations

from ..view import RulesView


def get_view(rules_dir: str | None = None) -> RulesView:
    """The rules as a :class:`~kotc_rulesc.view.RulesView`; raises
    :class:`~kotc_rulesc.errors.ProblemsFound` when the rules do not load."""
    from ..loader import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read
    from ..view import FoldedRules

    return FoldedRules(load_rules(rules_dir))
