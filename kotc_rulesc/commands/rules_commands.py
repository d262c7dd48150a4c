"""``check``, ``editions`` and ``show``: the rules data itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..model import EditionKey
from .edition_arg import EDITION, check_known
from .rules_arg import RULES_OPTION, view_or_exit


@click.command()
@RULES_OPTION
def check(rules_dir: str | None) -> None:
    """Validate every rules file; list every problem as file:line:column: message.

    Checks the JSON Schema, then meaning: formulas and texts parse, formulas
    use only the variables their text has (t only in effects), events name
    known components, no delta is a no-op, no two texts of an edition read
    alike, and the editions form one ordered chain.

    Exit status: 0 when the rules are clean, 1 with the list of problems, 2
    when the rules cannot be read (no such directory, no rules files in it, a
    file that cannot be opened or does not parse: YAML syntax, or README's
    input policy — sizes, nesting, numbers, no aliases or duplicate keys).

    \b
    Examples:
      kotc-rulesc check
      kotc-rulesc check --rules my-rules
    """
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound, exit_code

    try:  # (rules the compiled tables answer for were checked when they were built)
        view = get_view(rules_dir, warn=False)
    except ProblemsFound as exc:
        for problem in exc.problems:
            click.echo(str(problem))
        click.echo(f"{len(exc.problems)} problem(s).")
        sys.exit(exit_code(exc.problems))
    files = view.rules_files()
    n = sum(count for _, _, count, _ in files)
    click.echo(f"ok: {len(files)} rules files, editions {view.first}–{view.last}, {n} components.")


@click.command()
@RULES_OPTION
def editions(rules_dir: str | None) -> None:
    """List the editions and what each changed, one line each.

    Editions without a rules file changed nothing that any source records.

    Exit status: 0, 1 when the rules have problems (`check` lists them), 2 when
    they cannot be read.

    \b
    Examples:
      kotc-rulesc editions
      kotc-rulesc editions --rules my-rules
    """
    from ..bundled import rules_dir as bundled_rules

    view = view_or_exit(rules_dir)
    root = Path(rules_dir) if rules_dir is not None else bundled_rules()
    files = {key: (name, summary) for key, name, _, summary in view.rules_files()}
    width = max(len(str(k)) for k in view.keys)
    for key in view.keys:
        if key not in files:
            click.echo(f"{key!s:>{width}}  (no recorded changes)")
        else:
            name, summary = files[key]
            click.echo(f"{key!s:>{width}}  {summary}  [{_shown(root / name)}]")


def _shown(path: Path) -> str:
    """A rules file as the loader names it: relative to the working directory where it can be."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


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

    Exit status: 0, 1 when the rules have problems, 2 for usage errors (an
    edition the rules do not know) or rules that cannot be read.

    \b
    Examples:
      kotc-rulesc show --edition 8
      kotc-rulesc show -e 11-pre
      kotc-rulesc show -e 17 --format json > catalog-17.json
    """
    from ..show import catalog_json, catalog_text

    view = view_or_exit(rules_dir)
    cat = view.catalog(check_known(view.keys, edition, "--edition"))
    if fmt == "json":
        click.echo(json.dumps(catalog_json(cat), ensure_ascii=False, indent=2))
    else:
        click.echo(catalog_text(cat), nl=False)


@click.command()
@click.argument("name", type=click.Choice(["edition", "collection"]), metavar="NAME")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=str), default=None, metavar="FILE",
              help="Write the schema to FILE instead of standard output.")
def schema(name: str, output: str | None) -> None:
    """Write out a JSON Schema: edition (a rules file) or collection (a card collection).

    Each schema's $id is a stable name, not an address: urn:kotc-rulesc:schema:edition
    and urn:kotc-rulesc:schema:collection. Editors validate a YAML file as you type
    against the schema its first line names (the YAML language server's modeline,
    a path relative to the file):

    \b
      # yaml-language-server: $schema=../kotc_rulesc/schemas/edition.schema.json

    Every bundled rules file and examples/collection.yaml carry one; in a rules
    checkout of your own, write the schema beside your rules and name it there.
    Exit status: 0, 2 for usage errors (NAME is edition or collection) or a
    FILE that cannot be written.

    \b
    Examples:
      kotc-rulesc schema edition
      kotc-rulesc schema edition -o rules/edition.schema.json
      kotc-rulesc schema collection -o collection.schema.json
    """
    from ..bundled import schema_path

    data = schema_path(name).read_bytes()
    if output is None or output == "-":
        click.echo(data.decode("utf-8"), nl=False)
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror}", err=True)
        sys.exit(2)
    click.echo(f"Wrote {output}: the {name} schema ({json.loads(data)['$id']}).")


COMMANDS = [check, editions, show, schema]
