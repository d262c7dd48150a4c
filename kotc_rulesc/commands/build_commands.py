"""``build``: compile rules/ into generated/ (the tables, the docs, the manifest)."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.option("--rules", "rules_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="The rules directory (default: the bundled rules/).")  # (not RULES_OPTION: no rules_arg for --help)
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="The output directory (default: generated/ beside the rules directory; "
                   "needed for the bundled rules of an installed kotc-rulesc).")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 naming every stale, missing or extra file if the output "
                   "does not match a fresh build.")
def build(rules_dir: str | None, out_dir: str | None, check: bool) -> None:
    """Compile the rules into the generated tables the CLI runs on.

    Writes, under the output directory: the Python package kotc_tables (plain
    data: one module per edition with its component catalog, card-cost rule,
    rulebook and card-building system; one per edition step with what it does
    to a card), the documentation pages (docs/), and MANIFEST.json naming every
    source file and generated file with its sha256. The tables are read with
    the Python standard library alone.

    The output is deterministic: the same rules give byte-identical files. Each
    file is replaced atomically and only when it changes; files the previous
    build wrote (its MANIFEST.json lists them) that this one no longer produces
    are removed, and nothing else: a file no build wrote is kept (and named),
    a link inside the output directory is never followed. A build that did not
    finish (killed, a full disk) is taken up by the next one.

    With --check nothing is written: exit 0 when the output is up to date, 1
    when a file is stale, missing or extra (CI runs this). Problems in the
    rules are listed as file:line:column and exit 1. Usage errors exit 2: rules
    that cannot be read, an output directory that is not a kotc-rulesc build
    (no MANIFEST.json of kotc-rulesc's in a folder that holds files) or cannot
    be written, a link or a file no build wrote in the way, or no --out for
    the bundled rules of an installed kotc-rulesc (its generated/ is the
    repository's).

    \b
    Examples:
      kotc-rulesc build
      kotc-rulesc build --check
      kotc-rulesc build --rules my-rules --out /tmp/tables
      kotc-rulesc build --check --rules rules           # in a rules checkout: rules/ and generated/
    """
    from ..bundled import checkout_root, default_out_dir
    from ..bundled import rules_dir as bundled_rules
    from .rules_arg import shown

    rules_path = Path(rules_dir) if rules_dir is not None else bundled_rules()
    out = Path(out_dir) if out_dir is not None else default_out_dir(rules_dir)
    if out is None:
        raise click.UsageError("the bundled rules of an installed kotc-rulesc have no generated/ to build into: "
                               "give --out DIR (or --rules DIR of a rules checkout, whose generated/ is beside it)")
    # an installed kotc-rulesc is the code its version names: a manifest naming it, today's inputs and
    # every file as it is needs no build (in a checkout the code may have changed: the check builds)
    if check and checkout_root() is None:
        from ..outdir import up_to_date  # (neither the code generators nor the YAML reader)

        if up_to_date(out, rules_path):
            click.echo(f"up to date: {shown(out)} (every file matches its MANIFEST.json, made from {shown(rules_path)} "
                       "as they are by this kotc-rulesc).")
            return
    from ..codegen import CodegenError, compare, generate, write
    from ..output import OutputError
    from .rules_arg import load_or_exit

    rules = load_or_exit(str(rules_path))
    try:
        files = generate(rules, rules_path)
    except CodegenError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)

    if check:
        drift = compare(out, files)
        if drift.clean:
            click.echo(f"up to date: {shown(out)} ({len(files)} files match {shown(rules_path)}).")
            return
        click.echo(f"{shown(out)} does not match {shown(rules_path)}:")
        for label, paths in (("stale", drift.stale), ("missing", drift.missing),
                             ("extra", drift.extra + drift.foreign)):
            for path in paths:
                click.echo(f"  {label:<8} {shown(out / path)}")
        count = len(drift.stale) + len(drift.missing) + len(drift.extra)
        hint = "kotc-rulesc build" + (f" --rules {rules_dir}" if rules_dir else "") + (f" --out {out_dir}" if out_dir else "")
        if count:
            click.echo(f"{count} file(s) to rebuild: run `{hint}`.")
        if drift.foreign:
            _foreign(shown(out), drift.foreign, "to remove by hand")
        sys.exit(1)

    try:
        drift = write(out, files)
    except OutputError as exc:  # (what cannot be written is refused by the writer, exit 2, in cli)
        click.echo(f"error: cannot write {exc.filename}: {exc.strerror}; the build did not finish: "
                   "run it again once that is fixed", err=True)
        sys.exit(2)
    changed = len(drift.stale) + len(drift.missing)
    click.echo(
        f"built {shown(out)} from {shown(rules_path)}: {changed} file(s) written, "
        f"{len(drift.extra)} removed, {len(drift.unchanged)} unchanged."
    )
    if drift.foreign:
        _foreign(shown(out), drift.foreign, "kept")


def _foreign(out: str, paths: list[str], what: str) -> None:
    """The files in the output folder that no build wrote: a build never removes them."""
    named = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    click.echo(f"{len(paths)} file(s) in {out} that no build wrote, {what} (a build removes only "
               f"what its MANIFEST.json lists): {named}", err=True)


COMMANDS = [build]
