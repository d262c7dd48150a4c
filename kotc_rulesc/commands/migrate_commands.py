"""``migrate``: move a card collection to a later edition, with a report of what changed and why."""

from __future__ import annotations

import sys

import click

from ..model import edition_number
from .edition_arg import EDITION, describe_keys

__all__ = ["COMMANDS", "migrate"]


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


@click.command(context_settings={"max_content_width": 100})
@click.argument("collection", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option("--to", "target", type=EDITION, default=None, metavar="N",
              help="The edition to migrate to: a number, or a pre-release such as 11-pre (default: the newest "
                   "edition whose component catalog is declared; `kotc-rulesc editions` lists them).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=str), default=None, metavar="OUT",
              help="Write the migrated collection to OUT, a file ('-': standard output, the default); never COLLECTION itself.")
@click.option("--in-place", is_flag=True, help="Replace COLLECTION itself, keeping the original as COLLECTION.bak "
              "(a second run on the same file meanwhile refuses).")
@click.option("--from", "assume", type=EDITION, default=None, metavar="E",
              help="The edition of cards that bear no Edition Indicator (required when the collection has such cards, "
                   "unless N's rulebook makes an Edition Indicator required: such a card is then invalid, kept and marked).")
@click.option("--reissue", is_flag=True,
              help="Re-issue a card that N's rulebook prunes because a text it uses had its cost (level) revised after "
                   "its design edition: its figure recomputed in N and its Edition Indicator set to N, when every other "
                   "text on it is valid in N. Without it such a card is kept as it was and marked (the rulebook's verdict).")
@click.option("--strict", is_flag=True,
              help="Exit 1 also when a card had to be written in the form its guide prescribes: it broke a rule the "
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
    """Migrate the cards of COLLECTION (YAML, JSON or JSONL; '-' for standard input) to edition N.

    Each card goes from its edition E — its Edition Indicator (the 'edition'
    field), or --from for cards without one — through the migration passes
    E+1 … N, and is then judged by the rules of N:

    \b
    - revised wording is rewritten to N's wording (bound values, singular forms),
      also a wording already revised before E — from the 13th on, each text the
      rulebooks' Refurbished Card Texts list (a card is "refurbished"), in
      edition order; a rewording no rulebook list names is kept as printed,
      with a note.  The Edition Indicator (the design edition) stays as
      printed: it names the edition whose costs the printed cost follows, and a
      wording erratum changes no cost (so migrating again changes nothing); a
      card already of edition N is judged only;
    - a card using a component whose cost was revised after E gets what the
      rulebook says: up to the 11th's pre-release ("MUST bear an Edition
      Indicator ... no less than the cost revision edition") it is re-issued,
      its cost recomputed under N and its Edition Indicator set to N; from the
      16th ("Revised Levels": a card "whose design edition is older than the
      revision edition ... is pruned") it is pruned — kept as it was and
      marked — unless --reissue asks for the re-issue, made only when every
      other text on the card is valid in N (the report says what it would be);
    - crossing a clean-slate edition bans (from the 13th: prunes) a card,
      unless the data declares a successor for every component it uses (the
      card is then re-issued); a card with no Edition Indicator where N's
      rulebook requires one is invalid: kept and marked, without --from;
    - a card that is banned for any other reason (redacted, over a limit, a
      wrong printed cost, text no edition knows, a fact no source gives) is kept
      exactly as it was and marked with a 'migration' field: status, from, to,
      every reason (code, edition — unknown in YAML, null in JSON when no
      source gives it —, sources, message) and, where the data declares one,
      a suggested legal replacement with its cost.  The field is replaced on
      every run and removed once the card is legal;
    - a printed cost that was already wrong in the card's own edition is
      reported; it is corrected only when the card is re-issued;
    - a card that ends legal is written in the form the target's guide
      prescribes: where it breaks a rule the guide words as should ("the
      words “up to” should be removed": "Target 1 on-field minion;", never
      "Target up to 1 on-field minion;"), the paragraph is written as the
      guide says and the report names the rule.
    - migrated in steps (--to 9, then --to 11-pre), a card re-issued in the
      first step keeps that step's Edition Indicator: it costs the same, and
      it is legal; a card that does not end legal is kept as it was in the
      input of the run that judged it.

    The output keeps the input's format: YAML keeps its comments, key order and
    quoting (a diff shows only what changed); JSON and JSONL are streamed card by
    card in constant memory.  Writes go to a temporary file renamed into place:
    a failed or interrupted run leaves no partial output (a killed run's
    temporary files are removed by the next run).  Without -o or --in-place
    the collection goes to standard output.  An output is a file, never
    COLLECTION nor the other output: a device, FIFO or folder is refused.

    Without --report a summary goes to standard error (with --dry-run, the full
    report goes to standard output).  A progress bar appears on a terminal for
    large collections.

    Exit status: 0 when every card ends legal, 1 when any card is banned, of
    unknown legality or cannot be migrated (with --strict: or was written in
    the prescribed form because it broke a should rule), 2 for usage errors, unreadable
    collections (README's input policy), cards without an Edition Indicator
    when --from is missing, and an output that cannot be written (a full disk).

    \b
    Examples:
      kotc-rulesc migrate examples/collection.yaml --from 6 --to 11-pre -o migrated.yaml --report report.md --report-format markdown
      kotc-rulesc migrate examples/mixed-collection.yaml --to 17 -o mixed-17.yaml --report -
      kotc-rulesc migrate examples/mixed-collection.yaml --to 17 --reissue --dry-run
      kotc-rulesc migrate cards.jsonl --from 6 --in-place --report -
      kotc-rulesc migrate old.json --from 6 --dry-run
    """
    from ..errors import ProblemsFound, interrupt_status
    from ..migrate.io_json import MissingFrom
    from ..output import Changed, OutputError
    from ..reading.policy import InputError
    from ..migrate.run import Options, UsageError, run

    if in_place and collection == "-":
        _fail("--in-place needs a collection file, not standard input")
    if in_place and output is not None:
        _fail("give either --in-place or -o/--output, not both")
    if jobs is not None:  # scripts written for 0.1 still run, and are told
        click.echo("Warning: --jobs is deprecated and has no effect: migrate runs in one process, fast enough for "
                   "any collection (CHANGELOG); it will be removed in the next release.", err=True)
    view = _view(rules_dir, ProblemsFound)
    if target is None:
        target = view.newest_with_catalog()
    if target not in view.keys:
        _fail(f"--to {target}: the rules know editions {describe_keys(view.keys)}")
    if assume is not None:
        if assume not in view.keys:
            _fail(f"--from {assume}: the rules know editions {describe_keys(view.keys)}")
        if view.path(assume, target) is None:
            later = edition_number(assume) > edition_number(target)
            _fail(f"--from {assume} is later than --to {target}: migration only goes forward" if later else
                  f"--from {assume} is not on the way to --to {target}: a pre-release is a branch of its own")

    opts = Options(
        collection=collection,
        target=target,
        assume=assume,
        output=output,
        in_place=in_place,
        dry_run=dry_run,
        report=report,
        report_format=report_format,
        rules_dir=rules_dir,
        reissue=reissue,
        strict=strict,
        verbose=verbose,
    )
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


def _view(rules_dir, problems_found):
    from ..cards.rules_source import get_view

    try:
        return get_view(rules_dir)
    except problems_found as exc:
        from .rules_arg import exit_with_problems

        exit_with_problems(exc.problems)


COMMANDS = [migrate]
