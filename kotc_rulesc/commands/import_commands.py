"""``import-edition``: draft the next edition's rules file from its Card Building Guide and Rulebook."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import NoReturn

import click

from .rules_arg import RULES_OPTION, load_or_exit, rules_to_extend

__all__ = ["COMMANDS", "import_edition"]

_PAGE = click.Path(dir_okay=False, path_type=str)


def _fail(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


def _read_page(path: str) -> str:
    """An HTML page, read whole under the input policy (UTF-8, no NUL bytes, a bounded size)."""
    from ..reading.policy import MAX_YAML, InputError, decode, open_input

    try:
        with open_input(path) as inp:
            return decode(inp.display, inp.read_all(MAX_YAML, "a page of the game's documents (it is read whole)"))
    except InputError as exc:
        _fail(str(exc))


def _previous(page: str, edition: int) -> str | None:
    """The previous edition's page of the same name, where the documents are laid out by edition
    (``…/17/card-building-guide.html`` → ``…/16/card-building-guide.html``), if it exists."""
    path = Path(page)
    if path.parent.name != f"{edition:02d}":
        return None
    candidate = path.parent.parent / f"{edition - 1:02d}" / path.name
    return str(candidate) if candidate.is_file() else None


@click.command("import-edition", context_settings={"max_content_width": 100})
@click.argument("edition", type=int)
@click.option("--guide", required=True, type=_PAGE, metavar="GUIDE.html", help="The edition's Card Building Guide (its HTML page).")
@click.option("--rulebook", required=True, type=_PAGE, metavar="RULEBOOK.html", help="The edition's Rulebook (its HTML page).")
@click.option("--previous-guide", type=_PAGE, default=None, metavar="GUIDE.html",
              help="The edition before's guide, to find the card-building rules that changed (default: the "
                   "same file in the folder of the edition before, ../16/ beside ../17/, when there is one).")
@RULES_OPTION
@click.option("--force", is_flag=True, help="Replace an existing file for EDITION (the last one); it is kept as FILE.bak.")
@click.option("--report", default=None, type=click.Path(dir_okay=False, allow_dash=True, path_type=str), metavar="FILE",
              help="Also write a report: the changes by kind, the uncertain matches with their candidates, "
                   "every sentence no component accounts for (- for standard output).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="The report's format.")
def import_edition(edition: int, guide: str, rulebook: str, previous_guide: str | None, rules_dir: str | None,
                   force: bool, report: str | None, fmt: str) -> None:
    """Draft rules/edition-NN.yaml of the next edition from its two documents.

    Every component of the guide is held against the previous edition's
    catalog (the rules folded to EDITION - 1): new components, rewordings
    (by a row of the rulebook's Refurbished Card Texts table, else by
    wording, an uncertain match written as a question, never guessed),
    formula changes (a level revision where the Revised Levels table names
    it, `listed: false` where none does), limit changes, removals; the
    rulebook's parameters, each with its sentence; a clean slate where the
    rulebook declares one. Unchanged components are inherited, not
    repeated. The file's header lists what needs your decision, each with
    the words it rests on; the card-building rules whose sentences changed
    since the previous guide are quoted beside the `system:` keys they
    touch. Review the draft, then check, diff and build as for any rules
    file.

    The draft is written to a temporary file and renamed into place. An
    existing edition file is replaced only with --force (and kept as .bak);
    neither the draft nor the report may be one of the documents read, a
    directory, a FIFO or a device.

    Exit status: 0 written, 1 written but the rules now have problems
    (listed; the header says what to decide), 2 for usage errors or
    documents that cannot be read.

    \b
    Examples:
      # the 17th (the edition in play) over a copy of the rules that ends with the 16th
      kotc-rulesc import-edition 17 --rules my-rules \\
          --guide ../shared/sources/17/card-building-guide.html \\
          --rulebook ../shared/sources/17/rulebook.html --report import-17.txt
      kotc-rulesc check --rules my-rules && kotc-rulesc diff 16 17 --rules my-rules
      # the next edition, once its pages are published (the 17th's beside them: ../17/)
      kotc-rulesc import-edition 18 --guide 18/card-building-guide.html \\
          --rulebook 18/rulebook.html --report - --format json
    """
    from ..importer import ImportProblem, read_edition
    from ..importer.draft import draft_text
    from ..importer.report import report as render_report
    from ..loader import check_rules
    from ..output import OutputError, check_target, write_file
    from ..modeline import skeleton_modeline
    from ..model import ordinal
    from ..scaffold import ScaffoldError, rules_before, target_path

    directory = rules_to_extend(rules_dir)
    if previous_guide is None:
        previous_guide = _previous(guide, edition)
    inputs = [p for p in (guide, rulebook, previous_guide) if p is not None]
    target = target_path(directory, edition)
    read = [(name, "one of the documents read") for name in inputs]  # (outputs never destroy inputs)
    check_target(str(target), read, rules_ok=True)
    if report not in (None, "-"):
        rules_files = [(str(p), "a rules file") for p in sorted(directory.glob("*.yaml"))] if directory.is_dir() else []
        check_target(report, read + rules_files + [(str(target), "the draft")])
    try:
        rules, target, overwrite = rules_before(directory, edition, force, lambda d: load_or_exit(str(d)),
                                                "replace it with a new draft (the old one is kept as .bak)")
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    pages = [_read_page(p) for p in inputs]
    try:
        imp = read_edition(rules, edition, *pages)
    except ImportProblem as exc:
        _fail(str(exc))
    where = f" --rules {shlex.quote(rules_dir)}" if rules_dir is not None else ""
    text = draft_text(imp, skeleton_modeline(directory, exclude=target), where)
    try:
        write_file(target, text.encode("utf-8"), rules_ok=True, backup=overwrite)
        if report is not None:
            write_file(report, render_report(imp, fmt, str(target)).encode("utf-8"))
    except OutputError as exc:
        _fail(f"cannot write {exc.filename}: {exc.strerror}; nothing was written in its place")
    counts = ", ".join(f"{v} {k}" for k, v in imp.changes.counts().items() if v)
    out = sys.stderr if report == "-" else sys.stdout
    over = "a clean slate" if imp.changes.clean_slate else f"over the {ordinal(edition - 1)}"
    click.echo(f"{'Replaced' if overwrite else 'Wrote'} {target}: a draft of the {ordinal(edition)} edition, {over} ({counts}).", file=out)
    if previous_guide is None:
        click.echo("No previous guide found: the card-building rules were not compared (give --previous-guide).", file=out)
    click.echo(f"{len(imp.decisions)} decision(s) for you, listed in its header." if imp.decisions
               else "Nothing is left for your decision beyond reviewing it.", file=out)
    _, problems = check_rules(directory)
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        click.echo(f"{target} was written, but the rules now have {len(problems)} problem(s): "
                   "see the decisions in its header.", err=True)
        sys.exit(1)
    click.echo(f"Next: review it, then kotc-rulesc check{where} && kotc-rulesc diff {edition - 1} {edition}{where} "
               f"&& kotc-rulesc build{where}", file=out)


COMMANDS = [import_edition]
