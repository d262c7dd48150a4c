"""``check``, ``editions`` and ``show``: the rules data itself."""

from __future__ import annotations

import json
import sys

import click

from .edition_arg import EDITION

from ..history import edition_summary
from ..model import EditionKey, RuleSet, ordinal

RULES_OPTION = click.option(
    "--rules",
    "rules_dir",
    type=click.Path(file_okay=False, path_type=str),
    default=None,
    help="The rules directory (default: the bundled rules/).",
)


def load_or_exit(rules_dir: str | None) -> RuleSet:
    """Load the rules, or print every problem and exit 1."""
    from ..errors import ProblemsFound
    from ..loader import load_rules  # ruamel.yaml and jsonschema load only when the YAML is read

    try:
        return load_rules(rules_dir)
    except ProblemsFound as exc:
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        click.echo(f"{len(exc.problems)} problem(s) in the rules; run `kotc-rulesc check` after fixing them.", err=True)
        sys.exit(1)


def edition_or_exit(rules: RuleSet, edition: EditionKey) -> EditionKey:
    from .edition_arg import check_known

    return check_known(rules.all_keys, edition, "--edition")


@click.command()
@RULES_OPTION
def check(rules_dir: str | None) -> None:
    """Validate every rules file; list every problem as file:line:column: message.

    Checks the JSON Schema, then meaning: formulas and texts parse, formulas
    use only the variables their text has (t only in effects), events name
    known components, no delta is a no-op, no two texts of an edition read
    alike, and the editions form one ordered chain. Exit 0 when clean, 1 with
    the list of problems.
    """
    from ..loader import check_rules

    rules, problems = check_rules(rules_dir)
    if problems:
        for problem in problems:
            click.echo(str(problem))
        click.echo(f"{len(problems)} problem(s).")
        sys.exit(1)
    assert rules is not None
    n = sum(len(e.components) for e in rules.editions)
    click.echo(f"ok: {len(rules.editions)} rules files, editions {rules.first}–{rules.last}, {n} components.")


@click.command()
@RULES_OPTION
def editions(rules_dir: str | None) -> None:
    """List the editions and what each changed, one line each.

    Editions without a rules file changed nothing that any source records.
    """
    rules = load_or_exit(rules_dir)
    width = max(len(str(k)) for k in rules.all_keys)
    for key in rules.all_keys:
        decl = rules.edition(key)
        if decl is None:
            click.echo(f"{key!s:>{width}}  (no recorded changes)")
        else:
            click.echo(f"{key!s:>{width}}  {edition_summary(decl)}  [{decl.file}]")


@click.command()
@click.option("--edition", "-e", type=EDITION, required=True,
              help="The edition to show: a number (10), or a pre-release (11-pre).")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)
@RULES_OPTION
def show(edition: EditionKey, fmt: str, rules_dir: str | None) -> None:
    """Show the component catalog as it stood in one edition.

    Folds the history of every edition up to EDITION: current wording,
    formula, limits and status of each component, with its revisions so far,
    the rulebook's revised/redacted lists, its parameters and the card-cost
    rule. Unknown facts print as "unknown" (JSON null).
    """
    from ..fold import fold
    from ..show import catalog_json, catalog_text

    rules = load_or_exit(rules_dir)
    edition_or_exit(rules, edition)
    cat = fold(rules, edition)
    if fmt == "json":
        click.echo(json.dumps(catalog_json(cat), ensure_ascii=False, indent=2))
    else:
        click.echo(catalog_text(cat, rules), nl=False)


COMMANDS = [check, editions, show]
