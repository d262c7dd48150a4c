"""``check``, ``editions`` and ``show``: the rules data itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..model import EditionKey
from .edition_arg import EDITION, check_known
from .rules_arg import FORMAT_OPTION, RULES_OPTION, shown, view_or_exit


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="text for a terminal, or json: one document a program can read.")


@click.command()
@RULES_OPTION
@FORMAT
def check(rules_dir: str | None, fmt: str) -> None:
    """Validate every rules file; list every problem as file:line:column: message.

    Checks the JSON Schema, then meaning: formulas and texts parse, formulas
    use only the variables their text has (t only in effects), events name
    known components, no delta is a no-op, no two texts of an edition read
    alike, and the editions form one ordered chain.

    With --format json: {"ok", "editions", "files", "components", "problems":
    [{"file", "line", "column", "message", "hint"}]}, the same exit status.

    Exit status: 0 when the rules are clean, 1 with the list of problems, 2
    when the rules cannot be read (no such directory, no rules files in it, a
    file that cannot be opened or does not parse: YAML syntax, or the input
    policy — sizes, nesting, numbers, no aliases or duplicate keys).

    \b
    Examples:
      kotc-rulesc check
      kotc-rulesc check --rules my-rules
      kotc-rulesc check --rules my-rules --format json
    """
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound, exit_code

    try:  # (rules the compiled tables answer for were checked when they were built)
        view = get_view(rules_dir, warn=False)
    except ProblemsFound as exc:
        problems = exc.problems
        if fmt == "json":
            doc = {"ok": False, "editions": [], "files": 0, "components": 0,
                   "problems": [p.to_json() for p in problems]}
            click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            click.echo("".join(f"{problem}\n" for problem in problems) + f"{len(problems)} problem(s).")
        sys.exit(exit_code(problems))
    files = view.rules_files()
    n = sum(count for _, _, count, _ in files)
    if fmt == "json":
        doc = {"ok": True, "editions": list(view.keys), "files": len(files), "components": n, "problems": []}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    click.echo(f"ok: {len(files)} rules files, editions {view.first}–{view.last}, {n} components.")


@click.command()
@RULES_OPTION
@FORMAT
def editions(rules_dir: str | None, fmt: str) -> None:
    """List the editions and what each changed, one line each.

    Editions without a rules file changed nothing that any source records. An
    edition whose file gives no rulebook has its rulebook's parameters and
    terms unknown (as `diff` shows them); the line says so. With --format
    json: a list of {"edition", "file", "changes", "rulebook_unknown"}, the
    edition a number (the pre-release "11-pre"), as in `show` and `diff`.

    Exit status: 0, 1 when the rules have problems (`check` lists them), 2 when
    they cannot be read.

    \b
    Examples:
      kotc-rulesc editions
      kotc-rulesc editions --rules my-rules
      kotc-rulesc editions --format json
    """
    view = view_or_exit(rules_dir)
    files = {key: (name, summary) for key, name, _, summary in view.rules_files()}
    from ..bundled import rules_dir as bundled_rules

    root = Path(rules_dir) if rules_dir is not None else bundled_rules()
    rows = []
    for key in view.keys:
        cat = view.catalog(key)
        decl = cat.declared
        before = view.catalog(decl.follows) if decl is not None and decl.follows is not None else None
        # a rulebook no file gives is unknown (its parameters and terms: `diff` lists each change)
        lost = decl is not None and decl.rulebook is None and cat.rulebook is None and before is not None and before.rulebook is not None
        name, summary = files.get(key, (None, None))
        rows.append({"edition": key, "file": shown(root / name, name) if name else None, "changes": summary,
                     "rulebook_unknown": lost})
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    width = max(len(str(r["edition"])) for r in rows)
    for r in rows:
        if r["file"] is None:
            click.echo(f"{r['edition']!s:>{width}}  (no recorded changes)")
            continue
        note = "; no rulebook given: its parameters and terms are unknown" if r["rulebook_unknown"] else ""
        click.echo(f"{r['edition']!s:>{width}}  {r['changes']}{note}  [{r['file']}]")


@click.command()
@click.option("--edition", "-e", type=EDITION, required=True,
              help="The edition to show: a number (10), or a pre-release (11-pre).")
@FORMAT_OPTION
@RULES_OPTION
def show(edition: EditionKey, fmt: str, rules_dir: str | None) -> None:
    """Show the component catalog as it stood in one edition.

    Folds the history of every edition up to EDITION: current wording,
    formula, limits and status of each component, with its revisions so far;
    the card-building system, the card-cost rule, the rulebook's parameters
    and where the edition's documents disagree (JSON: also the rulebook's
    revised/redacted lists). Unknown facts print as "unknown" (JSON null).

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
    FILE is written to a temporary file beside it and renamed into place; it
    may not be a directory, a FIFO, a device or a rules file.

    Exit status: 0, 2 for usage errors (NAME is edition or collection) or a
    FILE that cannot be written or is refused.

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
    from ..output import write_file  # (the one writer: only this path writes a file)

    write_file(output, data, [(str(schema_path(name)), "the bundled schema itself")])
    click.echo(f"Wrote {output}: the {name} schema ({json.loads(data)['$id']}).")


@click.group("rules")
def rules_group() -> None:
    """The bundled rules themselves: `rules export DIR` writes them out, to
    work on anywhere (check, new-edition and build take --rules DIR).

    Exit status: as its command's (`rules export --help`).

    \b
    Examples:
      kotc-rulesc rules export my-kotc/rules
    """


@rules_group.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=str))
@click.option("--force", is_flag=True, help="Replace files of the same name in DIRECTORY.")
def rules_export(directory: str, force: bool) -> None:
    """Write the bundled rules into DIRECTORY, ready to edit and check anywhere.

    Writes every rules file (edition-NN.yaml), the rules' README.md and the
    edition schema beside them (edition.schema.json), and points each file's
    first line at that schema (# yaml-language-server: $schema=edition.schema.json)
    so that editors validate the files as you type. Name DIRECTORY rules/ inside
    a folder of its own: `build --rules DIR` writes the generated/ beside it.

    A file of the same name already in DIRECTORY is replaced only with --force
    (never one of the bundled files themselves); each file is written to a
    temporary file and renamed into place.

    Exit status: 0 written, 2 for a DIRECTORY that cannot be written or that
    holds files of the same names (without --force).

    \b
    Examples:
      kotc-rulesc rules export my-kotc/rules
      kotc-rulesc rules export my-kotc/rules --force
    """
    import re
    import shlex

    from ..bundled import rules_dir, schema_path
    from ..modeline import find_modeline, modeline

    source = rules_dir()
    schema = schema_path("edition")
    files = {p.name: p for p in sorted(source.iterdir()) if p.is_file() and p.suffix in (".yaml", ".md")}
    files[schema.name] = schema
    dest = Path(directory)
    clash = sorted(name for name in files if (dest / name).exists())
    if clash and not force:
        named = ", ".join(clash[:3]) + (f" and {len(clash) - 3} more" if len(clash) > 3 else "")
        raise click.UsageError(f"{directory} already holds files of the same names ({named}): pass --force to replace them")
    from ..output import write_file  # (the one writer)

    line = modeline(schema.name)
    sources = [(str(path), "a bundled rules file") for path in files.values()]
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for name, path in files.items():
            data = path.read_bytes()
            if path.suffix == ".yaml":  # its schema line, pointed at the schema beside it
                lines = data.decode("utf-8").split("\n")
                at = next((i for i, ln in enumerate(lines) if find_modeline(ln)), None)
                if at is None:
                    lines.insert(0, line)
                else:
                    lines[at] = line
                data = "\n".join(lines).encode("utf-8")
            write_file(dest / name, data, sources, rules_ok=True, within=dest)
    except OSError as exc:
        click.echo(f"error: cannot write {exc.filename or directory}: {exc.strerror}", err=True)
        sys.exit(2)
    numbers = [int(m.group(1)) for n in files if (m := re.fullmatch(r"edition-(\d+)\.yaml", n))]
    click.echo(f"Wrote {len([n for n in files if n.endswith('.yaml')])} rules files, README.md and {schema.name} to {directory}.")
    click.echo("Next, to check them and to start the next edition:")
    click.echo(f"  kotc-rulesc check --rules {shlex.quote(directory)}")
    click.echo(f"  kotc-rulesc new-edition {max(numbers) + 1} --rules {shlex.quote(directory)}")


COMMANDS = [check, editions, show, schema, rules_group]
