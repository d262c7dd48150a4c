"""How a command is told where the rules are (``--rules DIR``), and how it stops when they have
problems: shared by the rules, card, doc, build and migrate commands, so that none of them
imports another command's module for it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from ..model import RuleSet

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
    """Load the rules, or print every problem and exit (:func:`exit_with_problems`)."""
    from ..errors import ProblemsFound
    from ..rules_cache import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read

    try:
        return load_rules(rules_dir)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)
