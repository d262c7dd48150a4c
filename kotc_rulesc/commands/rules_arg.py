"""``--rules DIR``, ``--format``, and how a command stops when the rules have problems: shared by commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from ..model import RuleSet
    from ..view import RulesView

RULES_OPTION = click.option("--rules", "rules_dir", type=click.Path(file_okay=False, path_type=str), default=None,
                            help="The rules directory (default: the bundled rules/).")
FORMAT_OPTION = click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


def exit_with_problems(problems: list) -> NoReturn:
    """Print every problem of the rules and exit: 2 when they cannot be read at all, else 1."""
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
    """The rules (the compiled tables when they answer for them), or print every problem and exit."""
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound

    try:
        return get_view(rules_dir, warn=False)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)


def shown(path: Path, otherwise: str | None = None) -> str:
    """``path`` as output names it: relative to the current directory when it lies below it, else
    ``otherwise`` (default: as given; a rules file by its name, never an installed package's path)."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path) if otherwise is None else otherwise


def rules_to_extend(rules_dir: str | None) -> Path:
    """The rules folder a command adds an edition to: ``--rules``, or the checkout's own rules/ (an
    installed kotc-rulesc's bundled rules are not the user's to extend: a usage error)."""
    from ..bundled import checkout_root
    from ..loader import default_rules_dir

    if rules_dir is None and checkout_root() is None:
        raise click.UsageError("the bundled rules of an installed kotc-rulesc are not yours to extend: "
                               "give --rules DIR (your rules checkout)")
    return Path(rules_dir) if rules_dir is not None else default_rules_dir()
