"""How a command is told where the rules are (``--rules DIR``), and how it stops when they have
problems: shared by the rules, card, doc, build and migrate commands, so that none of them
imports another command's module for it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from ..model import RuleSet
    from ..view import RulesView

RULES_OPTION = click.option(
    "--rules",
    "rules_dir",
    type=click.Path(file_okay=False, path_type=str),
    default=None,
    help="The rules directory (default: the bundled rules/).",
)


def exit_with_problems(problems: list) -> NoReturn:
    """Print every problem of the rules to standard error and exit: 2 when the rules cannot be
    read at all (no such folder, a file that cannot be opened), 1 for problems in the data."""
    from ..errors import exit_code

    for problem in problems:
        click.echo(str(problem), err=True)
    code = exit_code(problems)
    if code == 1:
        click.echo(f"{len(problems)} problem(s) in the rules; run `kotc-rulesc check` after fixing them.", err=True)
    sys.exit(code)


def load_or_exit(rules_dir: str | None) -> RuleSet:
    """Read the rules' YAML, or print every problem and exit (:func:`exit_with_problems`)."""
    from ..errors import ProblemsFound
    from ..loader import load_rules

    try:
        return load_rules(rules_dir)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)


def view_or_exit(rules_dir: str | None) -> RulesView:
    """The rules, from the compiled tables when they answer for them (:mod:`~kotc_rulesc.cards.rules_source`),
    or print every problem and exit (:func:`exit_with_problems`)."""
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound

    try:
        return get_view(rules_dir, warn=False)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)
