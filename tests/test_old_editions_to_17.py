"""Cards of the 1st–12th editions (and the 11th's pre-release) on their way to the 17th, and what the
commands a player follows that path with (``show``, ``diff``, the docs) say about the clean slates."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from kotc_rulesc.cli import main


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_13th_clean_slate_is_told_in_the_13th_rulebooks_words():
    """Was: ``show -e 13`` said "every card without an Edition Indicator of the 13th or later is banned"
    and ``diff 12 13`` "the 13th Edition bans every card whose Edition Indicator is missing", where the
    13th rulebook (Refurbished and Pruned Cards) says "any card whose design edition is prior to 13th
    Edition is pruned" and, of a card without one, "Any card with no Edition Indicator is invalid" —
    the words ``check-cards`` and ``migrate`` use for the same cards.  The 11th's and 12th's rulebooks
    do ban both ("any card not bearing an Edition Indicator, or ... prior to 12th Edition")."""
    rule = ("every card whose design edition (its Edition Indicator) is older than the 13th is pruned, "
            "and a card with no Edition Indicator is invalid")
    assert f"Clean-slate edition: {rule}." in run("show", "-e", "13")
    crossed = run("diff", "10", "13")
    assert f"Clean slate crossed: in the 13th Edition, {rule}." in crossed
    assert "the 13th Edition bans" not in crossed
    assert "Clean slate crossed: the 12th Edition bans every card whose Edition Indicator is missing or older than the 12th." in crossed
    assert "every card without an Edition Indicator of the 12th or later is banned." in run("show", "-e", "12")


def test_migrate_help_says_which_editions_print_no_edition_indicator():
    """Was: ``migrate --help`` told to give --from for "cards of the 1st–10th layouts", which "bear no
    Edition Indicator".  The 9th and 10th rulebooks (Card Types and Layout) list "4. Edition Indicator
    indicating the edition of the game the card was designed for": their cards print one, and migrate
    reads it; only the 1st–8th print none (docs/collections.md says the same)."""
    text = " ".join(run("migrate", "--help").split())
    assert "1st–10th" not in text
    assert "cards of the 1st–8th layouts bear no Edition Indicator: give their edition with --from" in text
    assert "as the 1st–8th layouts print none" in text


def test_an_unknown_text_names_the_pre_release_it_is_a_component_of(tmp_path):
    """Was: a card of the 11th's pre-release (it prints the Edition Indicator 11 and a cost) judged in the
    published 11th was told its texts were components "in the 8th–10th editions" (or "1st–10th"), "no
    longer in the catalog of the 11th": the one edition it was designed for, the seeds' 11th guide
    ("(x/5) "Activate when you take at least [x] damage.""), went unnamed.  Now the pre-release is
    named with the main-line editions."""
    cards = tmp_path / "pre.yaml"
    cards.write_text('- {name: Vengeful Guard, type: creature, edition: 11, cost: 8, offense: 2, defense: 5,\n'
                     '   text: "Activate when you take at least 5 damage. Target up to 2 cards in play. Destroy all targets."}\n')
    result = CliRunner().invoke(main, ["check-cards", "-e", "11", str(cards)])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert ("Elsewhere: it is condition-take-damage in the 8th–10th editions and the 11th pre-release, "
            "no longer in the catalog of the 11th.") in text
    assert "Elsewhere: it is effect-destroy-all-targets in the 1st–10th editions and the 11th pre-release" in text
    assert run("check-cards", "-e", "11-pre", str(cards)).count("legal") == 2  # (the card, and the total)


OLD = Path(__file__).resolve().parent.parent / "examples" / "old-editions.yaml"


def _by_edition() -> dict[str, str]:
    """The example's cards grouped by their design edition (its section comments name it: the 1st–8th
    cards print none), each group a collection of its own."""
    groups: dict[str, list[str]] = {}
    key = None
    for line in OLD.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"  # --- The (?:published )?(\d+)(?:st|nd|rd|th)('s pre-release)?", line):
            key = m[1] + ("-pre" if m[2] else "")
        elif key is not None and line.strip() and not line.lstrip().startswith("#"):
            groups.setdefault(key, []).append(line)
    return {k: "cards:\n" + "\n".join(lines) + "\n" for k, lines in groups.items()}


def test_the_old_editions_example_costs_what_each_guide_gives_in_its_edition(tmp_path):
    """Every card of examples/old-editions.yaml is legal in its own edition at the figure it prints,
    worked out by hand from that edition's guide (the 1st's Warlord: relief 24 capped at 20)."""
    groups = _by_edition()
    assert sorted(groups, key=lambda k: (int(k.split("-")[0]), k)) == [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "11-pre", "12"]
    for edition, text in groups.items():
        path = tmp_path / f"{edition}.yaml"
        path.write_text(text, encoding="utf-8")
        out = run("check-cards", "-e", edition, str(path))
        cards = text.count("  - name:")
        assert f"{cards} card{'s' if cards > 1 else ''}: {cards} legal" in out, out
        figures = re.findall(r": legal — (?:cost|level) (\d+), printed (\d+)", out)
        assert len(figures) == cards and all(a == b for a, b in figures), out


def test_the_old_editions_example_is_pruned_whole_in_the_17th():
    """Crossing the 13th's clean slate prunes every card (rulebook-13: "any card whose design edition is
    prior to 13th Edition is pruned"); a card of the 1st–8th, which prints no Edition Indicator, is
    also invalid ("Any card with no Edition Indicator is invalid") — and needs no --from to get there."""
    result = CliRunner().invoke(main, ["migrate", str(OLD), "--to", "17", "--dry-run", "--report-format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    cards = report["cards"]
    assert len(cards) == 29 and {c["outcome"] for c in cards} == {"pruned"}
    assert all("clean-slate" in [r["code"] for r in c["reasons"]] for c in cards)
    unmarked = [c["name"] for c in cards if "invalid" in [r["code"] for r in c["reasons"]]]
    assert len(unmarked) == 17 and unmarked[0] == "Avenger" and unmarked[-1] == "Recall"


def test_a_deck_of_the_8th_whose_rulebook_no_source_gives_is_of_unknown_legality(tmp_path):
    """Was: ``check-cards -e 8 --deck`` on two legal 8th-edition cards said "deck: 2 cards: legal" and
    exited 0, with a note that its size was not checked: no source gives an 8th rulebook (the 8th's
    rules.pdf is the 7th's, "Rulebook (7th Edition)"; the 7th asks for 40–60 cards, the 9th exactly 40).
    What no document says is unknown, never legal by default: the deck's legality is now unknown (exit 1,
    JSON ``"legal": null`` — unknown, as a figure no source gives — with no problem and the note; the
    API's ``legal`` of the whole check False)."""
    deck = tmp_path / "deck.yaml"
    deck.write_text('- {name: Marker, type: spell, cost: 4, text: "Target up to 2 cards in play. Place 1 counter on each target."}\n')
    result = CliRunner().invoke(main, ["check-cards", "-e", "8", "--deck", str(deck)])
    assert result.exit_code == 1, result.output
    assert "1 card: 1 legal" in result.output
    assert "deck: 1 card: legality unknown\n    note: no source gives the 8th edition's rulebook: what a deck holds (its size) is unknown" in result.output
    data = json.loads(CliRunner().invoke(main, ["check-cards", "-e", "8", "--deck", str(deck), "--format", "json"]).output)
    assert data["deck"]["legal"] is None and data["deck"]["problems"] == []
    from kotc_rulesc import api

    checked = api.check(str(deck), edition=8, deck=True)
    assert checked.deck.legal is None and checked.legal is False


def test_from_a_pre_release_to_the_17th_is_refused_with_what_to_do_instead():
    """--from names the design edition of cards without an Edition Indicator; to the 17th none is needed
    (13th–17th rulebooks: "Any card with no Edition Indicator is invalid"), which the refusal now says."""
    result = CliRunner().invoke(main, ["migrate", str(OLD), "--from", "11-pre", "--to", "17", "--dry-run"])
    assert result.exit_code == 2
    assert ("--from 11-pre is not on the way to --to 17: a pre-release is a branch of its own; leave --from out: "
            "the 17th edition's rulebook calls a card without an Edition Indicator invalid") in result.output
    to_12 = CliRunner().invoke(main, ["migrate", str(OLD), "--from", "11-pre", "--to", "12", "--dry-run"])
    assert to_12.exit_code == 2 and to_12.output.rstrip().endswith("a pre-release is a branch of its own")


def test_a_cards_clean_slate_reason_is_told_in_its_rulebooks_words():
    """The 13th rulebook prunes "any card whose design edition is prior to 13th Edition" and calls a card
    with no Edition Indicator "invalid" (its own reason): the clean-slate reason no longer says the 13th
    prunes a card for a missing indicator. The 12th's rulebook bans both alike: its reason as before."""
    mixed = OLD.parent / "mixed-collection.yaml"
    cards = json.loads(CliRunner().invoke(main, ["check-cards", str(mixed), "--format", "json"]).output)["cards"]
    said = {c["name"]: next(r["message"] for r in c["reasons"] if r["code"] == "clean-slate")
            for c in cards if any(r["code"] == "clean-slate" for r in c["reasons"])}
    assert said["Smasher"] == ("the 13th edition is a clean slate: any card whose design edition is older than the "
                               "13th is pruned, and this card bears the Edition Indicator 12")
    assert said["Frenzied Berserker"].endswith("bears no Edition Indicator: nothing shows a later design edition")
    twelfth = json.loads(CliRunner().invoke(main, ["check-cards", str(OLD), "-e", "12", "--format", "json"]).output)["cards"]
    assert any(r["message"] == "the 12th edition is a clean slate: every card whose Edition Indicator is missing or "
               "older than 12 is banned, and this card bears the Edition Indicator 11" for c in twelfth for r in c["reasons"])


def test_a_pre_release_card_judged_in_the_published_11th_is_told_where_it_reads(tmp_path):
    """A card bearing 11 and printing a cost is most likely the 11th pre-release's (its cards print a
    resource cost): "write 'level: 4'" alone would not make it readable; the reason also names -e 11-pre."""
    given = tmp_path / "p.yaml"
    given.write_text("- {name: P, type: creature, edition: 11, cost: 4, offense: 1, defense: 5, text: Draw 1 card.}\n")
    out = CliRunner().invoke(main, ["check-cards", "-e", "11", str(given)]).output
    assert ("the 11th edition's cards print a level, not a cost: write 'level: 4', or judge it as a card of the "
            "11th pre-release, whose cards print a cost: -e 11-pre") in out
    assert CliRunner().invoke(main, ["check-cards", "-e", "11-pre", str(given)]).exit_code == 0


def test_a_rewording_kept_before_the_13th_is_named_with_its_rulebooks_revised_lists(tmp_path):
    """Up to the 12th the rulebooks' lists are of "Revised Ability Text", not refurbished texts (the 13th's
    word): a card keeping a 2nd-edition rewording no list names is told so in its rulebook's word."""
    given = tmp_path / "q.yaml"
    given.write_text("- name: Drill Sergeant\n  type: spell\n  cost: 12\n  text: \"Target up to 3 resources. Place 1 offense "
                     "counter on each target. You can remove an offense counter from a card at any time to increase its "
                     "offense by 1.\"\n")
    out = CliRunner().invoke(main, ["migrate", str(given), "--from", "1", "--to", "2", "--dry-run", "--report", "-"]).output
    assert "the 2nd edition guide rewords it" in out and "and no rulebook list of revised texts names it" in out
    assert "refurbish" not in out
