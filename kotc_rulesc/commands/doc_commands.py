"""``diff``, ``new-edition`` and ``docs``: comparing editions, starting the next one, reading the docs."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import click

from .edition_arg import EDITION
from .rules_arg import RULES_OPTION, load_or_exit, rules_to_extend, view_or_exit


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
    by word), whose formula changed (with the cost on x=2, y=2, z=2, t=1; a
    variable a rewording added, at the value old cards read it as) or whose
    limits changed; the card-building system; rulebook parameters and terms;
    the card-cost rule; clean slates crossed. Any A < B, not only neighbours. A diff runs forwards
    only: for A > B it stops with a usage error (run `diff B A`).

    Exit status: 0, 1 when the rules have problems, 2 for usage errors (A not
    before B, an edition the rules do not know) or rules that cannot be read.

    \b
    Examples:
      kotc-rulesc diff 6 11-pre
      kotc-rulesc diff 8 9 --format markdown
      kotc-rulesc diff 10 11 --format json
      kotc-rulesc diff 16 17 --format html > diff-16-17.html
    """
    from ..diff import DiffOrderError, diff_editions, diff_text

    view = view_or_exit(rules_dir)
    try:
        d = diff_editions(view, a, b)
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
@click.option("--force", is_flag=True,
              help="Replace an existing file for EDITION that holds nothing beyond a skeleton.")
@click.option("--discard-changes", is_flag=True,
              help="With --force: also replace a file that records changes (it is kept as FILE.bak).")
def new_edition(edition: int, rules_dir: str | None, force: bool, discard_changes: bool) -> None:
    """Write the commented skeleton rules/edition-NN.yaml of the next edition.

    EDITION must follow the last edition in the rules. The file is valid as
    written (every list empty) and its comments show how to record each kind
    of change. Its first line names the edition schema, as the other rules
    files do, so that editors validate it as you type.

    An existing file is never replaced without --force, and --force replaces
    only a file with nothing beyond a skeleton: a file with any line the fresh
    skeleton does not have (a recorded change, a note) is replaced only with
    --discard-changes as well, and is first copied to edition-NN.yaml.bak
    (.bak.1, .bak.2, … when that exists). The file is written to a temporary
    file beside it and renamed into place: a full disk or a read-only folder
    leaves the rules as they were.

    Exit status: 0 written, 2 for usage errors (not the next edition, a file
    in the way, a missing rules directory) or a file that cannot be written,
    1 when the rules have problems.

    \b
    Examples:
      kotc-rulesc new-edition 18
      kotc-rulesc new-edition 18 --rules my-rules
      kotc-rulesc new-edition 18 --force                     # redo an untouched skeleton
      kotc-rulesc new-edition 18 --force --discard-changes   # start over; the old file becomes .bak
    """
    from ..loader import check_rules
    from ..scaffold import ScaffoldError, plan_scaffold

    if discard_changes and not force:
        raise click.UsageError("--discard-changes goes with --force")
    directory = rules_to_extend(rules_dir)
    option = f" --rules {shlex.quote(rules_dir)}" if rules_dir is not None else ""
    try:
        plan = plan_scaffold(directory, edition, force, lambda d: load_or_exit(str(d)), option)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    from ..output import check_target, write_file  # (the one writer)

    others = [(str(p), "another rules file") for p in sorted(directory.glob("*.y*ml")) if p != plan.path]
    check_target(plan.path, others, rules_ok=True)  # (before anything is read or written: never a FIFO)
    line, schema_written = _schema_line(directory, plan.path)
    text = f"{line}\n{plan.text}"
    backup = None
    if plan.overwrite:  # (decided before anything is written: a refusal leaves the folder as it was)
        backup = _set_aside(plan.path, text, discard_changes)
    if schema_written is not None:
        from ..bundled import schema_path

        write_file(schema_written, schema_path("edition").read_bytes())
    if backup is not None:
        write_file(backup, plan.path.read_bytes())
    write_file(plan.path, text.encode("utf-8"), others, rules_ok=True)
    _, problems = check_rules(directory)
    if problems:  # the skeleton is valid by construction; say so loudly if it is not
        for problem in problems:
            click.echo(str(problem), err=True)
        click.echo(f"{plan.path} was written, but the rules now have {len(problems)} problem(s).", err=True)
        sys.exit(1)
    verb = "Replaced" if plan.overwrite else "Wrote"
    click.echo(f"{verb} {plan.path}: edition {edition}, following edition {plan.follows}.")
    if schema_written is not None:
        click.echo(f"Wrote {schema_written} beside it, which its first line names, for editors.")
    if backup is not None:
        click.echo(f"The file it replaced is kept as {backup}.")
    click.echo(f"Fill it in, then: kotc-rulesc check{option} && kotc-rulesc diff {plan.follows} {edition}{option}")


def _schema_line(directory: Path, path: Path) -> tuple[str, Path | None]:
    """The skeleton's first line, naming a schema that resolves from ``directory``: the one the other
    rules files name, when it is there; else the edition schema, to be written beside the rules
    (returned as the second value) where it is not already."""
    from ..bundled import schema_path
    from ..modeline import modeline, resolves, skeleton_modeline

    line = skeleton_modeline(directory, exclude=path)
    if line is not None and resolves(line, directory):
        return line, None
    beside = directory / schema_path("edition").name
    return modeline(beside.name), None if os.path.lexists(beside) else beside


def _set_aside(path: Path, skeleton: str, discard_changes: bool) -> Path | None:
    """Before ``path`` is replaced by ``skeleton``: nothing to do when it holds no line the
    skeleton does not (returns ``None``); else, with ``discard_changes``, a free ``.bak`` name
    to copy it to; without, a usage error naming what would be lost."""
    backup = Path(f"{path}.bak")
    n = 0
    while os.path.lexists(backup):
        n += 1
        backup = Path(f"{path}.bak.{n}")
    try:
        old = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        if not discard_changes:
            raise click.UsageError(f"{path} cannot be read ({exc}); --force alone never replaces it: "
                                   "add --discard-changes to replace it (it is kept as a .bak)") from None
        if isinstance(exc, OSError):  # (not even as bytes, to be kept)
            raise click.UsageError(f"{path} cannot be read ({exc.strerror}) to keep it as {backup.name}: "
                                   "nothing was replaced") from None
        return backup
    ours = set(skeleton.splitlines())
    beyond = [(i, line) for i, line in enumerate(old.splitlines(), 1) if line.strip() and line not in ours]
    if beyond and not discard_changes:
        first, text = beyond[0]
        raise click.UsageError(
            f"{path} holds {len(beyond)} line(s) beyond the skeleton (the first, line {first}: {text.strip()!r}); "
            "--force alone never replaces them: add --discard-changes to replace the file "
            f"(it is kept as {path.name}.bak)"
        )
    return backup if beyond else None


@click.command()
@click.option("--open", "open_", is_flag=True, help="Open the docs' front page in a web browser.")
def docs(open_: bool) -> None:
    """Print where the docs are (or open them): the players' and maintainers'
    guides, every edition's rules, how to build a card, full-text search.

    The docs are HTML pages that kotc-rulesc carries: they work offline, from
    file://, in any browser. --open opens the front page with the system's web
    browser (Python's webbrowser module; BROWSER names another).

    Exit status: 0, 2 when the docs are missing (a checkout whose generated/
    has not been built: run `kotc-rulesc build`) or no browser can be opened.

    \b
    Examples:
      kotc-rulesc docs
      kotc-rulesc docs --open
    """
    from ..bundled import site_dir

    index = site_dir() / "index.html"
    if not index.is_file():
        click.echo(f"error: the docs are not built here ({index} is missing): run `kotc-rulesc build`", err=True)
        sys.exit(2)
    uri = index.resolve().as_uri()
    if not open_:
        click.echo(f"The docs: {uri}")
        click.echo(f"(open it in a browser, or run `kotc-rulesc docs --open`; the pages are in {index.parent})")
        return
    import webbrowser

    if not webbrowser.open(uri):
        click.echo(f"error: no web browser could be opened; the docs are at {uri}", err=True)
        sys.exit(2)
    click.echo(f"Opened {uri}")


COMMANDS = [diff, new_edition, docs]
