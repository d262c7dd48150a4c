"""``diff`` and ``new-edition``: comparing editions and starting the next one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .edition_arg import EDITION

from .rules_commands import RULES_OPTION, load_or_exit


@click.command()
@click.argument("a", type=EDITION)
@click.argument("b", type=EDITION)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "html", "json"]),
    default="text",
    show_default=True,
    help="text for a terminal ([-removed-] {+added+}), markdown (~~ **), a standalone html page, or json.",
)
@RULES_OPTION
def diff(a: int, b: int, fmt: str, rules_dir: str | None) -> None:
    """Show everything that differs between editions A and B (A before B).

    Components added, redacted, whose status became unknown, reworded (word
    by word), whose formula changed (with the cost on x=2, y=2, z=2, t=1) or
    whose limits changed; rulebook parameters and terms; the card-cost rule;
    clean slates crossed. Any A < B, not only neighbours. A diff runs forwards
    only: for A > B it stops with a usage error (run `diff B A`).

    \b
    Examples:
      kotc-rulesc diff 6 11-pre
      kotc-rulesc diff 8 9 --format markdown
      kotc-rulesc diff 10 11 --format json
    """
    from ..diff import DiffOrderError, diff_editions, diff_text
    from ..view import FoldedRules

    rules = load_or_exit(rules_dir)
    try:
        d = diff_editions(FoldedRules(rules), a, b)
    except DiffOrderError as exc:
        raise click.UsageError(str(exc)) from None
    if fmt == "json":
        click.echo(json.dumps(d.to_json(), ensure_ascii=False, indent=2))
    elif fmt == "text":
        click.echo(diff_text(d), nl=False)
    else:
        from ..render import render_diff  # jinja2 loads only for these formats

        click.echo(render_diff(d, "md" if fmt == "markdown" else "html"), nl=False)


@click.command("new-edition")
@click.argument("edition", type=int)
@RULES_OPTION
@click.option("--force", is_flag=True, help="Replace an existing file for EDITION with a fresh skeleton.")
def new_edition(edition: int, rules_dir: str | None, force: bool) -> None:
    """Write the commented skeleton rules/edition-NN.yaml of the next edition.

    EDITION must follow the last edition in the rules. The file is valid as
    written (every list empty) and its comments show how to record each kind
    of change. An existing file is never replaced without --force.

    \b
    Example:
      kotc-rulesc new-edition 13
    """
    from ..loader import check_rules, default_rules_dir
    from ..scaffold import ScaffoldError, plan_scaffold

    directory = Path(rules_dir) if rules_dir is not None else default_rules_dir()
    try:
        plan = plan_scaffold(directory, edition, force, lambda d: load_or_exit(str(d)))
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    plan.path.write_text(plan.text, encoding="utf-8")
    _, problems = check_rules(directory)
    if problems:  # the skeleton is valid by construction; say so loudly if it is not
        for problem in problems:
            click.echo(str(problem), err=True)
        click.echo(f"{plan.path} was written, but the rules now have {len(problems)} problem(s).", err=True)
        sys.exit(1)
    verb = "Replaced" if plan.overwrite else "Wrote"
    click.echo(f"{verb} {plan.path}: edition {edition}, following edition {plan.follows}.")
    click.echo(f"Fill it in, then: kotc-rulesc check && kotc-rulesc diff {plan.follows} {edition}")


COMMANDS = [diff, new_edition]
