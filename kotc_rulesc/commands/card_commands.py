"""``cost`` and ``check-cards``: cards judged against the rules of one edition."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..model import edition_number, ordinal
from .edition_arg import EDITION, check_known
from .rules_arg import FORMAT_OPTION, RULES_OPTION, exit_with_problems

EDITION_OPTION = click.option(
    "--edition", "-e", type=EDITION, default=None,
    help="The edition to judge in (default: the current one, the 17th: the newest whose component catalog is "
         "known); an earlier one by its number, e.g. 16 or 12, or 11-pre for the 11th's pre-release.")
VERBOSE_OPTION = click.option(
    "--verbose", "-v", is_flag=True,
    help="Cite every document a reason rests on by its id, with the edition of the event (by default one "
         "compact citation: \"17th rulebook, Revised Levels\").")
STRICT_OPTION = click.option(
    "--strict", is_flag=True,
    help="Warnings count as problems (exit 1): a card that breaks a rule the guides word as should or recommended "
         "(\"the words “up to” should be removed\") is legal, with a warning that says what to print instead.")


def _judging_in(rules_dir: str | None, edition: Any) -> tuple[Any, Any, Any]:
    """The API's rules (the bundled ones, or the folder's), the edition (default: the current one) and its
    catalog; or print every rules problem and exit."""
    from .. import api
    from ..errors import ProblemsFound

    try:
        rules = api.rules() if rules_dir is None else api.Rules(rules_dir)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)
    edition = rules.current() if edition is None else check_known(rules.view.keys, edition, "--edition")
    return rules, edition, rules.view.catalog(edition)


def _unreadable(exc: Any, settle: Any = None) -> None:
    """A collection the input policy refuses: ``settle`` the output so far, say why and exit 2."""
    if settle is not None:
        settle()
    click.echo(f"error: {exc.problem}", err=True)
    sys.exit(2)


@click.command("check-cards")
@click.argument("collection", metavar="COLLECTION", type=click.Path(dir_okay=True, allow_dash=True, path_type=str))
@EDITION_OPTION
@click.option("--deck", is_flag=True,
              help="Also judge COLLECTION as one deck, as the rulebook states: in the 17th 40–60 cards and at most "
                   "10 Ultra Points.")
@STRICT_OPTION
@FORMAT_OPTION
@VERBOSE_OPTION
@RULES_OPTION
def check_cards(collection: str, edition: int | None, deck: bool, strict: bool, fmt: str, verbose: bool,
                rules_dir: str | None) -> None:
    """Judge every card of COLLECTION in one edition — the 17th unless -e says another: legal,
    pruned (banned up to the 12th), invalid (from the 13th, a card whose only
    fault is its printed level: the rulebook's lists name "all cases" in which
    a card is pruned, none that), error (it cannot be read) or unknown.

    COLLECTION is a YAML or JSON file {"cards": [...]} (a bare list of cards
    works too), or JSONL with one card per line; "-" reads standard input. A
    17th-edition card has a name, a type (minion or spell), its Edition
    Indicator (edition: 17; from the 13th a card without one is invalid), its
    level, a minion's sp and hp, and its text: the ability text, one paragraph
    per line. Other fields (flavor, artist…) are kept and ignored. Older
    systems print other fields: creature or spell with offense and defense up
    to the 11th (a caveat as the first paragraph), a cost instead of a level
    up to the 10th and in the 11th's pre-release, no Edition Indicator in the 6th-edition layout; each
    edition reads the other's word for a type (creature for minion).

    Every reason names its code — invalid (no Edition Indicator where the
    rulebook requires one), redacted, over-limit, cost-revised, clean-slate,
    unknown-text, malformed, cost-mismatch, unknown-fact —, where on the card
    it is, and the document it rests on ("17th rulebook, Revised Levels";
    --verbose: every document's id). Earlier wordings are legal and read as
    the current text (a note gives it). The cards are numbered from 1.

    A card written otherwise than the guide says it should be ("Target up to
    1 on-field minion;", where the 17th guide says the words "up to" should be
    removed) is legal, with a warning that gives the text to print instead; a
    rule the guides word as must (two arrows between activation costs, "it"
    where the targets may be several) makes the card malformed. Each card's
    Ultra Points are shown (the sum of its texts' [+N]).

    With --deck the collection is also one deck: in the 17th 40–60 cards and at
    most 10 Ultra Points, as its rulebook states (each edition's own rulebook
    otherwise), holding only legal cards.

    The file is read under the input policy (limits on size, lines, nesting
    and numbers; no YAML aliases, duplicate keys or data after the JSON): a
    file it refuses cannot be read; in JSONL a line it refuses is one
    unreadable card, and the others are judged.

    Exit status: 0 when every card is legal (and, with --deck, the deck),
    1 when any card is pruned, invalid or banned, unreadable or of unknown
    legality or the deck is not legal (with --strict: or any card has a
    warning), 2 for usage errors or a file that cannot be read.

    \b
    Examples:
      kotc-rulesc check-cards examples/mixed-collection.yaml
      kotc-rulesc check-cards my-deck.yaml --deck --strict
      kotc-rulesc check-cards big.jsonl --format json > report.json
      kotc-rulesc check-cards examples/mixed-collection.yaml -e 16
      kotc-rulesc check-cards minions.yaml -e 12
      kotc-rulesc check-cards examples/collection.yaml -e 11-pre
      kotc-rulesc check-cards examples/collection.yaml -e 6
    """
    from ..cards.cost import rule_note
    from ..cards.report import CardTexts, CheckJson, summary_text
    from ..citation import Citations
    from ..reading.policy import InputError

    rules, edition, catalog = _judging_in(rules_dir, edition)
    display = "<stdin>" if collection == "-" else collection
    said = tuple(filter(None, [rule_note(catalog)]))
    out = _Output(fmt == "json")
    if fmt == "json":
        document = CheckJson(out.write, edition, catalog.rulebook)
        each = lambda v: document.card(v.judgement)  # noqa: E731
    else:
        text = CardTexts(display, Citations(rules.view, edition, verbose), catalog.rulebook, said)
        heading = [f"{display}: judged in the {ordinal(edition)} edition\n", *(f"note: {note}\n" for note in said)]

        def each(v: Any) -> None:
            if heading:  # the heading waits until the file has proved readable
                out.write("".join(heading))
                heading.clear()
            out.write(text(v.judgement) + "\n")

    try:
        try:
            checked = rules.check(collection, edition, deck=deck, each=each, keep=False)
        except InputError as exc:
            _unreadable(exc, settle=out.close)
        if fmt == "json":
            document.end(checked.summary, checked.deck.to_json() if checked.deck is not None else None)
            out.write("\n")
        else:
            if heading:  # (no card: the heading alone)
                out.write(heading[0])
            out.write(summary_text(checked.summary, catalog.rulebook, text.outcomes) + "\n")
            if checked.deck is not None:
                out.write(checked.deck.text() + "\n")
        out.close(read=True)
    finally:
        out.close()
    sys.exit(0 if checked.legal and not (strict and checked.summary["with_warnings"]) else 1)


class _Output:
    """Standard output for any number of cards, in constant memory: text goes out in pieces as the cards
    are judged; JSON, one document, is held until the whole collection has been read, so that an
    unreadable file prints no part of one — in the file standard output writes to (cut back if the
    collection proves unreadable), else in a temporary file copied out at the end."""

    CHUNK = 1 << 16

    def __init__(self, whole: bool):
        self.held = None  # where the JSON is held: standard output's own file, or a temporary file
        self.start = None  # standard output's file: where the JSON starts in it
        if whole:
            self.start = _file_end(sys.stdout)
            if self.start is not None:
                self.held = sys.stdout.buffer
            else:
                import tempfile  # (only for JSON: the one-card text path stays light)

                self.held = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+b")
        self.pending: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        self.pending.append(text)
        self.size += len(text)
        if self.size >= self.CHUNK:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            if self.held is not None:  # (the JSON as UTF-8 bytes, whatever the locale)
                self.held.write("".join(self.pending).encode("utf-8"))
            else:
                click.echo("".join(self.pending), nl=False)
            self.pending, self.size = [], 0

    def close(self, read: bool = False) -> None:
        """Print what is pending; the JSON held is printed if the whole collection was ``read``, else dropped."""
        if self.held is None:
            self.flush()
            return
        if read:
            self.flush()
            if self.start is not None:
                self.held.flush()  # (a full disk is said here, by the command, not at exit)
            else:  # copied out of the temporary file as bytes
                self.held.seek(0)
                while chunk := self.held.read(self.CHUNK << 4):
                    click.echo(chunk, nl=False)
        elif self.start is not None:  # the JSON written so far is cut off again
            import os

            self.held.flush()
            os.ftruncate(self.held.fileno(), self.start)
            os.lseek(self.held.fileno(), self.start, os.SEEK_SET)
        if self.start is None:
            self.held.close()
        self.held = self.start = None
        self.pending, self.size = [], 0


def _file_end(stream: Any) -> int | None:
    """Where ``stream``'s file ends, if it is a regular file written at its end (``>`` or ``>>``): JSON
    written there can be cut off again at that point; else None."""
    import os
    import stat

    try:
        stream.flush()
        fd = stream.fileno()
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        import fcntl

        appending = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND
    except (AttributeError, ValueError, OSError, ImportError):  # (no file behind it, or no fcntl here)
        return None
    return st.st_size if appending or os.lseek(fd, 0, os.SEEK_CUR) == st.st_size else None


def _stat_flags(args: list[str], system: Any) -> tuple[str | None, dict[str, int]]:
    """The CARD_FILE and the stats given as flags (``--sp 3 --hp 10`` or ``--offense=3``): the edition's."""
    stats = {st.name for t in system.types for st in t.stats}
    out: dict[str, int] = {}
    card_file = None
    rest = iter(args)
    for arg in rest:
        if not arg.startswith("--") or arg == "--":
            if card_file is not None:
                raise click.UsageError(f"one CARD_FILE at most (got {card_file!r} and {arg!r})")
            card_file = arg
            continue
        name, eq, value = arg[2:].partition("=")
        if name not in stats:
            _no_such_option(name, stats)
        if not eq:
            value = next(rest, None)
            if value is None:
                raise click.UsageError(f"--{name} needs a value")
        try:
            out[name] = int(value)
        except ValueError:
            raise click.UsageError(f"--{name}: {value!r} is not a whole number") from None
    return card_file, out


def _no_such_option(name: str, stats: set[str]) -> None:
    """click's own error for a mistyped option, its suggestions drawn from the options and the stats alike."""
    from difflib import get_close_matches

    ctx = click.get_current_context()
    options = {o for p in ctx.command.params for o in getattr(p, "opts", ()) if o.startswith("--")}
    options |= {f"--{s}" for s in stats}
    error = click.NoSuchOption(f"--{name}", possibilities=get_close_matches(f"--{name}", sorted(options)), ctx=ctx)
    if not error.possibilities:  # nothing near: say which stats the edition has
        known = ", ".join(f"--{s}" for s in sorted(stats)) or "none"
        error.message = f"{error.message.rstrip('.')} (the stats of this edition's card types: {known})"
    raise error


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="[CARD_FILE] [--STAT N]...")
@EDITION_OPTION
@click.option("--type", "card_type", default=None, metavar="TYPE",
              help="The card type (when no CARD_FILE is given): minion or spell in the 17th (as from the 12th); "
                   "creature or spell up to the 11th.")
@click.option("--text", "texts", multiple=True,
              help="One ability, one paragraph of the card's text; repeat for each (up to the 11th a caveat "
                   "comes first).")
@click.option("--name", default=None, help="The card name (optional).")
@click.option("--edition-indicator", type=int, default=None, help="The card's printed Edition Indicator (default: the edition costed).")
@click.option("--printed", "--printed-level", "--printed-cost", "printed", type=int, default=None,
              help="The printed level (up to the 10th and in the 11-pre: the cost), to compare with the computed one (optional).")
@STRICT_OPTION
@FORMAT_OPTION
@VERBOSE_OPTION
@RULES_OPTION
def cost(args: tuple[str, ...], edition: int | None, card_type: str | None,
         texts: tuple[str, ...], name: str | None, edition_indicator: int | None, printed: int | None,
         strict: bool, fmt: str, verbose: bool, rules_dir: str | None) -> None:
    """Compute a card's level in one edition — the 17th unless -e says another —
    per component, sub-ability and ability, with its Ultra Points and verdict.

    Give the card with flags, or CARD_FILE: a one-card YAML/JSON file or a
    whole collection (each card is costed). In the 17th a card is a minion or
    a spell (--type), a minion's stats are --sp and --hp, and each --text is
    one ability ("NAME: activation condition: activation costs→ sub-ability.
    sub-ability."; a spell's ability has no name). Each component's formula is
    evaluated exactly with the card's values — an effect's t is the value of
    its target selection — and the edition's level rule adds them up, scope by
    scope, and rounds up. In the 17th:

    \b
      sub_ability_cost    = sum(effect_costs)
      ability_cost        = max(0, ceil(sum(sub_ability_costs) - cost_relief))
      minion_ability_cost = max(1, ceil(sum(sub_ability_costs) - cost_relief))
      minion_cost         = max(0, ceil(sp + hp/2)) + sum(ability_costs)
      spell_cost          = ability_cost

    A card's Ultra Points are the sum of its texts' [+N] (a 17th-edition deck
    holds at most 10). If the card is not legal, the reasons follow, after its
    outcome: pruned, or invalid when its printed level alone is wrong (no list
    of the 17th rulebook prunes it); a rule the guides word as should that the
    card breaks is a warning with the text to print instead.

    Older editions (-e N) are costed by their own rule (`kotc-rulesc show -e N`
    prints it) and named in their own words: minions and spells with --sp/--hp
    and a level from the 12th; creatures and spells with --offense/--defense
    up to the 11th (the caveat is the first --text), a level in the published
    11th and a resource cost, with cost and relief, up to the 10th and in the
    11th's pre-release. A figure
    that depends on a formula no source gives is "unknown", never guessed.

    Exit status: 0 when every figure is known, 1 when a card cannot be
    costed (with --strict: or has a warning), 2 for usage errors (no card
    given, --text without --type, a type or stat the edition does not have)
    and a CARD_FILE that cannot be read (the input policy, as for
    check-cards).

    \b
    Examples:
      kotc-rulesc cost --type minion --sp 2 --hp 4 --name "Shield Bearer" \\
          --text "GUARD: When this card is summoned (ghost-play): Target 1 on-field minion; place 2 Shield Counters on the target."
      kotc-rulesc cost --type spell --text "Target 1 on-field minion; destroy it."
      kotc-rulesc cost examples/mixed-collection.yaml
      kotc-rulesc cost -e 12 --type minion --sp 2 --hp 7 --text "GREED: Draw 2 cards."
      kotc-rulesc cost -e 11 --type creature --offense 3 --defense 8 \\
          --text "Summon cost: Self-exhaust 2 creatures." --text "Draw 1 card."
      kotc-rulesc cost -e 8 --type spell --text "Draw 2 cards."
    """
    from ..cards.report import breakdown_text, judgement_text, outcome_word, reason_line, warning_line
    from ..citation import Citations
    from ..reading.policy import InputError

    rules, edition, catalog = _judging_in(rules_dir, edition)
    system = catalog.system
    card_file, stats = _stat_flags(args, system)
    flags = card_type is not None or stats or texts or name is not None \
        or edition_indicator is not None or printed is not None
    if card_file is not None and flags:
        raise click.UsageError("give the card either as CARD_FILE or with --type/--text/… flags, not both")
    if card_file is None and not flags:
        raise click.UsageError("give a CARD_FILE, or the card with --type and --text (and its stats, e.g. --sp/--hp)")
    if card_file is not None:
        try:
            verdicts = rules.check(card_file, edition).verdicts
        except InputError as exc:
            _unreadable(exc)
        if not verdicts:
            raise click.UsageError(f"{card_file} holds no cards")
    else:
        types = [t.id for t in system.types]
        if card_type is None:
            raise click.UsageError(f"--type is needed: {' or '.join(types)}")
        if card_type.strip().lower() not in types and rules.view.type_aliases().get(card_type.strip().lower()) not in types:
            raise click.UsageError(f"--type {card_type!r}: a card of the {ordinal(edition)} edition is a {' or a '.join(types)}")
        card: dict[str, Any] = {"name": name or "(unnamed card)", "type": card_type, "text": "\n".join(texts), **stats}
        card["edition"] = edition_number(edition) if edition_indicator is None else edition_indicator
        if printed is not None:
            card[system.figure] = printed
        verdicts = [rules.judge(card, edition)]
    judgements = [v.judgement for v in verdicts]
    if fmt == "json":
        out = [v.cost_json() for v in verdicts]
        click.echo(json.dumps(out if card_file is not None else out[0], ensure_ascii=False, indent=2))
    else:
        display = "<stdin>" if card_file == "-" else card_file
        cite = Citations(rules.view, edition, verbose)
        for j in judgements:
            if j.breakdown is not None:
                click.echo(breakdown_text(j))
                for note in j.notes:
                    click.echo(f"  note: {note}")
                if j.reasons:
                    click.echo(f"  {outcome_word(j.status, catalog.rulebook, j.reasons)} in the {ordinal(edition)} edition:")
                    for r in j.reasons:
                        click.echo(f"    {reason_line(r, cite)}")
                for w in j.warnings:
                    click.echo(f"  {warning_line(w, cite)}")
            else:
                click.echo(judgement_text(j, cite, catalog.rulebook, display))
    ok = all(j.cost is not None for j in judgements) and not (strict and any(j.warnings for j in judgements))
    sys.exit(0 if ok else 1)


COMMANDS = [cost, check_cards]
