"""The published 11th edition: its catalog is its guide's, and cards get the level its rule gives.

The 11th (sources/11) is a clean slate in a new card-building system: the figure is a level;
caveats are "Summon cost:" / "Action cost:" texts that give relief; an activation condition gives
no relief but sets a (1 without one), which the effect formulas use beside t."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards import judge
from kotc_rulesc.cli import main

from support.game_documents import guide_entries, source_path
from test_source_documents import same_formula, show_json
from support.loaded import view_of


@pytest.fixture(scope="module")
def view():
    return view_of()


def test_show_11_reproduces_the_11th_guide_entry_by_entry():
    shown = show_json(11)
    guide = guide_entries(11)
    assert len(guide) == len(shown["components"]) == 96
    by_kind: dict[str, list] = {}
    for c in shown["components"]:
        by_kind.setdefault(c["kind"], []).append(c)
    for kind in {g.kind for g in guide}:
        ours = by_kind[kind]
        theirs = [g for g in guide if g.kind == kind]
        assert [c["text"] for c in ours] == [g.clean_text for g in theirs], kind
        for c, g in zip(ours, theirs):
            assert same_formula(c["formula"], g.formula), (c["text"], c["formula"], g.formula)
            assert c["status"] == "legal" and c["limits"] == {}
    system = shown["system"]
    assert system["figure"]["name"] == "level"
    setters = {k["id"]: k["variable"] for k in system["kinds"] if k["role"] == "sets"}
    assert setters == {"condition": "a", "target": "t"}
    assert {g.sets for g in guide if g.kind == "condition"} == {"a"} and {g.sets for g in guide if g.kind == "target"} == {"t"}


def level(view, card, edition=11):
    j = judge({"name": "Test", "edition": 11, **card}, edition, view)
    assert j.status in ("legal", "banned"), (j.status, [r.message for r in j.reasons])
    return j.cost


def test_levels_of_cards_built_from_the_11th_guide(view):
    # a creature with a summon-cost caveat and one ability:
    #   caveat "Summon cost: Self-exhaust 2 creatures." relief x = 2
    #   condition "When you take at least 5 damage:" sets a = 5/(2x) = 5/10 = 1/2
    #   target "Target up to 2 in-play cards;" t = x = 2
    #   effect "Destroy the targets." 2at = 2 · 1/2 · 2 = 2 → ability cost max(1, 2 - 0) = 2
    #   level = max(1, ceil(max(0, 3 + 10/5 - 2) + 2)) = ceil(3 + 2) = 5
    assert level(view, {"type": "creature", "offense": 3, "defense": 10,
                        "text": "Summon cost: Self-exhaust 2 creatures.\n"
                                "When you take at least 5 damage: Target up to 2 in-play cards; Destroy the targets."}) == 5
    # a spell without an activation condition (a = 1): "Draw 3 cards." ax = 3 → level 3
    assert level(view, {"type": "spell", "text": "Draw 3 cards."}) == 3
    # an activation cost gives relief: "Self-exhaust 2 resources;" x/2 = 1;
    #   "Target up to 1 in-play cards;" t = 1 (the guide allows "1 in-play card" singular);
    #   "Place 4 Offense Counters on each target." axt = 1 · 4 · 1 = 4 → ability max(1, 4 - 1) = 3 → level 3
    assert level(view, {"type": "spell",
                        "text": "Self-exhaust 2 resources; Target up to 1 in-play card; Place 4 Offense Counters on each target."}) == 3
    # a condition with a = 1/6 shrinks every effect: "When this card is damaged, but not destroyed:"
    #   "Gain 9 HP." ax/3 = 1/6 · 9/3 = 1/2; "Draw 2 cards." ax = 2/6 = 1/3 → 5/6, ability max(1, 5/6) = 1
    #   creature: max(1, ceil(max(0, 0 + 5/5) + 1)) = 2
    assert level(view, {"type": "creature", "offense": 0, "defense": 5,
                        "text": "HEALING: When this card is damaged, but not destroyed: Gain 9 HP. Draw 2 cards."}) == 2
    # an "Action cost:" caveat gives relief too, and a creature may need no ability of its own:
    #   "Action cost: Remove 1 counters from this card." relief 2x = 2 → max(1, ceil(max(0, 4 + 1 - 2))) = 3
    j = judge({"name": "T", "type": "creature", "edition": 11, "offense": 4, "defense": 5,
               "text": "Action cost: Remove 1 counter from this card."}, 11, view)
    assert j.cost == 3


def test_tutorial_text_is_ignored_and_a_printed_level_is_checked(view):
    card = {"name": "B", "type": "creature", "edition": 11, "offense": 2, "defense": 0, "level": 1,
            "text": "Berzerker. (Destroyed if unexhausted at the end of your own Battle Phase.)"}
    j = judge(card, 11, view)
    # Berzerker relief 2: max(1, ceil(max(0, 2 + 0 - 2))) = 1
    assert j.status == "legal" and j.cost == 1
    assert any("tutorial text" in n for n in j.notes)
    wrong = judge({**card, "level": 4}, 11, view)
    assert wrong.status == "banned" and [r.code for r in wrong.reasons] == ["cost-mismatch"]


def test_an_effect_on_targets_needs_a_target_selection(view):
    j = judge({"name": "X", "type": "spell", "edition": 11, "text": "Destroy the targets."}, 11, view)
    assert j.status == "error" and "depends on t" in j.reasons[0].message


def test_old_cards_are_banned_by_the_clean_slate_and_the_json_says_level(view):
    j = judge({"name": "Old", "type": "spell", "edition": 10, "text": "Draw 2 cards."}, 11, view)
    assert j.status == "banned" and [r.code for r in j.reasons] == ["clean-slate"]
    out = CliRunner().invoke(main, ["cost", "-e", "11", "--type", "spell", "--text", "Draw 2 cards.", "--format", "json"])
    data = json.loads(out.output)
    assert data["level"] == 2 and "cost" not in data and data["breakdown"]["figure"] == "level"
    old = CliRunner().invoke(main, ["cost", "-e", "10", "--type", "spell", "--text", "Draw 2 cards.", "--format", "json"])
    assert json.loads(old.output)["cost"] == 4
    text = CliRunner().invoke(main, ["cost", "-e", "11", "--type", "spell", "--text", "Draw 2 cards."]).output
    assert "level 2 in the 11th edition" in text and "(x=2, a=1)" in text


def test_migrating_to_the_published_11th_bans_older_cards_without_reading_their_text(view):
    from kotc_rulesc.migrate.plan import Migrator

    migrator = Migrator(view, 11, assume=6)
    for card in (
        {"name": "Scout", "type": "creature", "offense": 2, "defense": 5, "cost": 3, "text": "This card has no abilities."},
        {"name": "Insight", "type": "spell", "cost": 4, "text": "Draw 2 cards."},
    ):
        d = migrator.decide(card)
        assert d.status == "banned", (card["name"], d.status)
        assert [r["code"] for r in d.mark["reasons"]] == ["clean-slate"]


def test_the_11th_guides_healing_example_prints_no_text_of_its_catalog(view):
    """The 11th guide's example of an ability name, "HEALING: Roll 2 six-sided dice and increase your HP by
    the result.", prints an effect its own Effects list does not have (it heals with "[x]-dice-heal
    yourself."): the disagreement is recorded, and the catalog's text reads (ax = 2; 1 + 2 → level 3)."""
    example = "HEALING: Roll 2 six-sided dice and increase your HP by the result."
    assert example in source_path(11, "card-building-guide.txt").read_text(encoding="utf-8")
    j = judge({"name": "H", "type": "creature", "edition": 11, "offense": 1, "defense": 0, "text": example}, 11, view)
    assert j.status == "error" and [r.code for r in j.reasons] == ["unknown-text"]
    notes = [d.note for d in view.catalog(11).disagreements]
    assert any(example in n and "“[x]-dice-heal yourself.”" in n for n in notes), notes
    assert level(view, {"type": "creature", "offense": 1, "defense": 0, "text": "HEALING: 2-dice-heal yourself."}) == 3


def test_a_sentence_a_recorded_disagreement_quotes_is_told_it_not_a_stranger(view):
    # the guide's HEALING example was told 'did you mean "Reveal and deploy the targets."?' (its skeleton the most
    # like, 0.44); the rules record what the example is and the text a card prints: the message says that
    example = "HEALING: Roll 2 six-sided dice and increase your HP by the result."
    j = judge({"name": "H", "type": "creature", "edition": 11, "offense": 1, "defense": 0, "text": example}, 11, view)
    (reason,) = j.reasons
    assert "Reveal and deploy" not in reason.message and "“HEALING: 2-dice-heal yourself.”" in reason.message
    assert "guide-11" in reason.sources


def test_an_effect_whose_t_is_unknown_says_unknown_not_none():
    """The 11th's "Target up to [x] level [y] or lower enemy creatures;" sets t = x/(10 - y), which no
    number gives for y = 10: the effect's line says t is unknown, as every other unknown figure does."""
    out = CliRunner().invoke(main, ["cost", "-e", "11", "--type", "spell",
                                    "--text", "Target up to 2 level 10 or lower enemy creatures; Destroy the targets."])
    assert out.exit_code == 1
    assert "cost 2at (t=unknown, a=1) = unknown" in out.output and "None" not in out.output, out.output


def test_a_t_below_zero_is_applied_as_written_and_said_so():
    """t = x/(10 - y) is below 0 for y over 10, and no document bounds y (the 11th guide prints no limits):
    the level follows the formula as written (not guessed otherwise), and a note says so."""
    out = CliRunner().invoke(main, ["cost", "-e", "11", "--type", "spell", "--format", "json",
                                    "--text", "Target up to 2 level 12 or lower enemy creatures; Destroy the targets."])
    card = json.loads(out.output)
    assert card["level"] == 1
    assert ('"Target up to 2 level 12 or lower enemy creatures;" sets t to -1, below 0: no source bounds the values '
            "of its formula, x/(10-y), and it is applied as written") in card["notes"]
