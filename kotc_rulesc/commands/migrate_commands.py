"""``migrate``: move a card collection to a later edition, with a report of what changed and why."""

from __future__ import annotations

import sys

import click

from .edition_arg import EDITION, describe_keys

__all__ = ["COMMANDS", "migrate"]


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


@click.command(context_settings={"max_content_width": 100})
@click.argument("collection", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option("--to", "target", type=EDITION, default=None, metavar="N",
              help="The edition to migrate to (default: the current one, the 17th: the newest whose component "
                   "catalog is declared); an earlier one by its number, or 11-pre (`kotc-rulesc editions` lists them).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=str), default=None, metavar="OUT",
              help="Write the migrated collection to OUT, a file ('-': standard output, the default); never COLLECTION itself.")
@click.option("--in-place", is_flag=True, help="Replace COLLECTION itself, keeping the original as COLLECTION.bak "
              "(a run that changes no card replaces neither; a second run on the same file meanwhile refuses).")
@click.option("--from", "assume", type=EDITION, default=None, metavar="E",
              help="The edition of cards that bear no Edition Indicator, as the 1st–8th layouts print none. Not needed "
                   "for the 17th (from the 13th a card without one is invalid: kept and marked).")
@click.option("--reissue", is_flag=True,
              help="Re-issue a card the 17th prunes because a text it uses had its level revised after its design "
                   "edition (Revised Levels): its level recomputed and its Edition Indicator set to 17, when every "
                   "other text on it is valid in the 17th. Without it such a card is kept as it was and marked.")
@click.option("--strict", is_flag=True,
              help="Exit 1 also when a card had to be written in the form the guide prescribes: it broke a rule the "
                   "guides word as should (\"the words “up to” should be removed\"); such a card is written so in any case.")
@click.option("--report", type=click.Path(dir_okay=False, allow_dash=True, path_type=str), default=None, metavar="FILE",
              help="Write the full report to FILE ('-': standard output, when the collection does not go there); "
                   "neither COLLECTION nor OUT.")
@click.option("--report-format", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True,
              help="The format of the report.")
@click.option("--verbose", "-v", is_flag=True,
              help="In the report, name each component by its id and cite every document a reason rests on "
                   "(by default one compact citation: \"17th rulebook, Refurbished Card Texts\").")
@click.option("--dry-run", is_flag=True, help="Write nothing; print the report of what would change (to standard output unless --report).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=None, hidden=True,
              help="Deprecated and ignored (migrate runs in one process); removed in the next release.")
@click.option("--rules", "rules_dir", type=click.Path(file_okay=False, path_type=str), default=None, metavar="DIR",
              help="Fold the rules in DIR instead of the compiled tables.")
def migrate(collection, target, output, in_place, assume, reissue, strict, report, report_format, verbose, dry_run, jobs,
            rules_dir):
    """Migrate the cards of COLLECTION (YAML, JSON or JSONL; '-' for standard
    input) to edition N — the current one, the 17th, unless --to says another.

    Each card goes from its design edition (its Edition Indicator, the
    'edition' field) to N as N's rulebook says. In the 17th: the texts the
    Refurbished Card Texts lists are refurbished on the card, in edition order
    (its level and Edition Indicator stay); a card that is pruned — by the
    13th's clean slate, by a Revised Levels entry after its design edition,
    for a redacted text or for bearing no Edition Indicator — is kept exactly
    as it was and marked with a 'migration' field: its outcome, every reason,
    what you can do; so is an invalid one, whose printed level alone is wrong
    (the rulebook's lists, of "all cases" in which a card is pruned, name no
    such card). --reissue re-issues a card pruned for a revised level instead
    (level recomputed, Edition Indicator 17) when every other text on it is
    valid in the 17th. A card that ends legal is written in the form the
    guide prescribes ("Target 1 on-field minion;").

    Older editions: up to the 11th's pre-release a card whose cost was
    revised is re-issued, and cards of the 1st–8th layouts bear no Edition
    Indicator: give their edition with --from.

    The output keeps the input's format — YAML its comments and layout, JSON
    and JSONL streamed card by card — and is written whole or not at all;
    migrating it again changes nothing. The report lists every card with its
    outcome and why; without --report a summary goes to standard error (with
    --dry-run, the report to standard output). The players' guide
    (`kotc-rulesc docs`) says what happens to each card, and why.

    Exit status: 0 when every card ends legal, 1 when any card is pruned,
    invalid or banned, of unknown legality or unreadable (with --strict: or
    written in the prescribed form), 2 for usage errors, an unreadable
    collection, a card without an Edition Indicator and no --from where N
    needs one, and an output that cannot be written.

    \b
    Examples:
      kotc-rulesc migrate examples/mixed-collection.yaml -o mixed-17.yaml --report -
      kotc-rulesc migrate examples/mixed-collection.yaml --reissue --dry-run
      kotc-rulesc migrate my-cards.jsonl --in-place --report report.md --report-format markdown
      kotc-rulesc migrate examples/collection.yaml --from 6 --to 11-pre -o migrated.yaml --report -
    """
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound, interrupt_status
    from ..migrate.io_json import MissingFrom
    from ..migrate.plan import path_refusal
    from ..migrate.run import Options, UsageError, run
    from ..output import Changed, OutputError
    from ..reading.policy import InputError
    from .rules_arg import exit_with_problems

    if in_place and collection == "-":
        _fail("--in-place needs a collection file, not standard input")
    if in_place and output is not None:
        _fail("give either --in-place or -o/--output, not both")
    if jobs is not None:  # scripts written for 0.1 still run, and are told
        click.echo("Warning: --jobs is deprecated and has no effect: migrate runs in one process, fast enough for "
                   "any collection (CHANGELOG); it will be removed in the next release.", err=True)
    try:
        view = get_view(rules_dir)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)
    if target is None:
        target = view.newest_with_catalog()
    for flag, key in (("--to", target), ("--from", assume)):
        if key is not None and key not in view.keys:
            _fail(f"{flag} {key}: the rules know editions {describe_keys(view.keys)}")
    refusal = None if assume is None else path_refusal(view, assume, target, "--from", f"--from {assume}", f"--to {target}")
    if refusal is not None:
        _fail(refusal)

    opts = Options(collection, target, assume=assume, output=output, in_place=in_place, dry_run=dry_run, report=report,
                   report_format=report_format, reissue=reissue, strict=strict, verbose=verbose)
    kept = "" if collection == "-" else f", {collection} is as it was"
    try:
        code = run(opts, view)
    except UsageError as exc:
        _fail(str(exc))
    except MissingFrom as exc:
        _fail(exc.describe())
    except InputError as exc:  # the input policy's, located
        _fail(str(exc.located("<stdin>" if collection == "-" else collection)))
    except OutputError as exc:  # a full disk, an I/O error: the temporary files are gone, the input untouched
        where = "standard output" if exc.filename == "<stdout>" else exc.filename
        _fail(f"cannot write {where}: {exc.strerror}; nothing was written{kept}")
    except Changed as exc:
        _fail(f"{exc} changed while it was being migrated (another program wrote it): nothing was written; run again")
    except KeyboardInterrupt as exc:  # ^C or SIGTERM: the temporary files are gone, the input untouched
        _fail(f"interrupted: nothing was written{kept}", interrupt_status(exc))
    sys.exit(code)


COMMANDS = [migrate]
