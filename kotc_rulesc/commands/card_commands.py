"""``cost`` and ``check-cards``: cards judged against the rules of one edition."""

from __future__ import annotations

import json
import sys
from typing import Any, Iterator

import click

from ..model import edition_number, ordinal
from .edition_arg import EDITION, check_known
from .rules_commands import RULES_OPTION

EDITION_OPTION = click.option(
    "--edition",
    "-e",
    type=EDITION,
    default=None,
    help="The edition to judge in, e.g. 10, or 11-pre for the 11th's pre-release "
    "(default: the newest edition whose component catalog is known).",
)
FORMAT_OPTION = click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


def _view_or_exit(rules_dir: str | None):
    """The rules view, or print every rules problem and exit 1."""
    from ..cards.rules_source import get_view
    from ..errors import ProblemsFound

    try:
        return get_view(rules_dir)
    except ProblemsFound as exc:
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        click.echo(f"{len(exc.problems)} problem(s) in the rules; run `kotc-rulesc check` after fixing them.", err=True)
        sys.exit(1)


def _edition_or_exit(view: Any, edition: Any) -> Any:
    if edition is None:
        return view.newest_with_catalog()
    return check_known(view.keys, edition, "--edition")


def _read_or_exit(path: str) -> Iterator:
    """The CardInputs of the collection, one by one (a JSONL file is streamed); if the file
    is unreadable, print why and exit 2."""
    from ..cards.collection import CollectionError, read_collection

    try:
        yield from read_collection(path)
    except CollectionError as exc:
        click.echo(f"error: {exc.problem}", err=True)
        sys.exit(2)


@click.command("check-cards")
@click.argument("collection", metavar="COLLECTION")
@EDITION_OPTION
@FORMAT_OPTION
@RULES_OPTION
def check_cards(collection: str, edition: int | None, fmt: str, rules_dir: str | None) -> None:
    """Judge every card of COLLECTION in one edition: legal, banned, error or unknown.

    COLLECTION is a YAML or JSON file {"cards": [...]} (a bare list of cards
    works too), or JSONL with one card per line; "-" reads standard input. A
    card has name, type (creature or spell; minion is read as creature),
    edition (its printed Edition Indicator; leave it out or null when the card
    has none), cost (the printed cost, optional), offense and defense
    (creatures) and text: the ability text, one paragraph per line, the
    caveat first. Other fields (flavor, artist…) are kept and ignored.

    Every reason names its code — redacted, over-limit, cost-revised,
    clean-slate, unknown-text, malformed, cost-mismatch, unknown-fact — with
    the edition and sources it rests on, and where on the card it is. Earlier
    wordings are legal and read as the current text (a note gives it).

    Exit status: 0 when every card is legal, 1 when any card is banned,
    unreadable or of unknown legality, 2 for usage errors or an unreadable
    file.

    \b
    Examples:
      kotc-rulesc check-cards examples/collection.yaml --edition 6
      kotc-rulesc check-cards examples/collection.yaml --edition 11-pre
      kotc-rulesc check-cards big.jsonl -e 11 --format json > report.json
    """
    from ..cards.cost import rule_note
    from ..cards.legality import judge_input
    from ..cards.report import judgement_text, summary, summary_text

    view = _view_or_exit(rules_dir)
    edition = _edition_or_exit(view, edition)
    items = _read_or_exit(collection)
    display = "<stdin>" if collection == "-" else collection
    said = tuple(filter(None, [rule_note(view.catalog(edition))]))
    entries, statuses = [], []
    for item in items:
        j = judge_input(item, edition, view)
        if fmt == "text":
            if not statuses:  # the heading waits until the file has proved readable
                click.echo(f"{display}: judged in the {ordinal(edition)} edition")
                for note in said:
                    click.echo(f"note: {note}")
            click.echo(judgement_text(j, display, said))
        else:
            entries.append(j.to_json())
        statuses.append(j.status)
    counts = summary(statuses)
    if fmt == "text" and not statuses:
        click.echo(f"{display}: judged in the {ordinal(edition)} edition")
    if fmt == "json":
        click.echo(json.dumps({"edition": edition, "cards": entries, "summary": counts}, ensure_ascii=False, indent=2))
    else:
        click.echo(summary_text(counts))
    sys.exit(0 if all(s == "legal" for s in statuses) else 1)


@click.command()
@click.argument("card_file", required=False, metavar="[CARD_FILE]")
@EDITION_OPTION
@click.option("--type", "card_type", type=click.Choice(["creature", "spell", "minion"], case_sensitive=False), help="The card type (when no CARD_FILE is given).")
@click.option("--offense", type=int, help="A creature's offense, 0–99.")
@click.option("--defense", type=int, help="A creature's defense, 0–99.")
@click.option("--text", "texts", multiple=True, help="One paragraph of ability text; repeat for each paragraph (the caveat first).")
@click.option("--name", default=None, help="The card name (optional).")
@click.option("--edition-indicator", type=int, default=None, help="The card's printed Edition Indicator (default: the edition costed).")
@click.option("--printed-cost", type=int, default=None, help="The printed cost, to compare with the computed one (optional).")
@FORMAT_OPTION
@RULES_OPTION
def cost(card_file: str | None, edition: int | None, card_type: str | None, offense: int | None, defense: int | None,
         texts: tuple[str, ...], name: str | None, edition_indicator: int | None, printed_cost: int | None,
         fmt: str, rules_dir: str | None) -> None:
    """Compute a card's resource cost in one edition, per component and ability.

    Give the card with flags, or CARD_FILE: a one-card YAML/JSON file or a
    whole collection (each card is costed). Each component's formula is
    evaluated exactly with the card's values — an effect's t is the cost of
    its ability's target selection — and the edition's card-cost rule adds
    them up and rounds up:

    \b
      total_relief  = condition_relief + cost_relief
      ability_cost  = max(1, sum(effect_costs) - total_relief)
      creature_cost = max(1, ceil(max(0, offense + defense/5 - caveat_relief) + sum(ability_costs)))
      spell_cost    = max(1, ceil(ability_cost))

    A cost that depends on a formula no source gives is "unknown", never
    guessed. If the card is banned in that edition, the reasons follow the
    cost. Exit 0 when every cost is known, 1 when a card cannot be costed, 2
    for usage errors.

    \b
    Examples:
      kotc-rulesc cost --edition 8 --type spell --text "Draw 2 cards."
      kotc-rulesc cost -e 11 --type creature --offense 3 --defense 8 \\
          --text "NECROMANCY: Remove 2 counters from this card. Target up to 2 cards in one player's graveyard randomly. Reveal all targets, then summon or cast any number of targets that are not in play (paying the usual costs)."
      kotc-rulesc cost examples/collection.yaml --edition 6
    """
    from ..cards.legality import judge, judge_input
    from ..cards.report import breakdown_text, judgement_text

    flags = card_type is not None or offense is not None or defense is not None or texts or name is not None \
        or edition_indicator is not None or printed_cost is not None
    if card_file is not None and flags:
        raise click.UsageError("give the card either as CARD_FILE or with --type/--text/… flags, not both")
    if card_file is None and not flags:
        raise click.UsageError("give a CARD_FILE, or the card with --type and --text (and --offense/--defense for a creature)")
    view = _view_or_exit(rules_dir)
    edition = _edition_or_exit(view, edition)
    if card_file is not None:
        judgements = [judge_input(item, edition, view) for item in _read_or_exit(card_file)]
        if not judgements:
            raise click.UsageError(f"{card_file} holds no cards")
    else:
        card: dict[str, Any] = {"name": name or "(unnamed card)", "type": card_type, "text": "\n".join(texts)}
        indicator = edition_number(edition) if edition_indicator is None else edition_indicator
        figure = view.catalog(edition).system.figure
        for key, value in (("offense", offense), ("defense", defense), ("edition", indicator), (figure, printed_cost)):
            if value is not None:
                card[key] = value
        judgements = [judge(card, edition, view)]
    if fmt == "json":
        figure = view.catalog(edition).system.figure  # "cost" up to the 10th, "level" from the published 11th
        out = [
            {"index": j.index, "name": j.name, "edition": edition, figure: j.cost, f"printed_{figure}": j.printed_cost,
             "status": j.status, "breakdown": j.breakdown, "reasons": j.to_json()["reasons"], "notes": j.notes}
            for j in judgements
        ]
        click.echo(json.dumps(out if card_file is not None else out[0], ensure_ascii=False, indent=2))
    else:
        display = card_file if card_file not in (None, "-") else ("<stdin>" if card_file == "-" else None)
        for j in judgements:
            if j.breakdown is not None:
                click.echo(breakdown_text(j))
                for note in j.notes:
                    click.echo(f"  note: {note}")
                if j.reasons:
                    click.echo(f"  {j.status} in the {ordinal(edition)} edition:")
                    for r in j.reasons:
                        click.echo(f"    {r.code}: {r.message}")
            else:
                click.echo(judgement_text(j, display))
    sys.exit(0 if all(j.cost is not None for j in judgements) else 1)


COMMANDS = [cost, check_cards]
