"""Cards against the bundled rules: the issue's acceptance cases and the example collection."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards import judge, read_collection
from kotc_rulesc.cli import main
from support.loaded import view_of

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples" / "collection.yaml"
RULES = str(ROOT / "rules")

NECROMANCER_6TH = {
    "name": "Dark Necromancer",
    "type": "creature",
    "offense": 3,
    "defense": 10,
    "text": "SPIRITUAL UNREST: Activate in response to an opponent's summon. Target this card. Place 1 counter on each target.\n"
            "NECROMANCY: Remove 2 counters from this card. Target up to 2 cards in one player's graveyard randomly. "
            "Reveal all targets, then summon or cast any number of targets that are not in play (paying the usual costs).",
}
PHOENIX = {
    "name": "Immortal Phoenix",
    "type": "creature",
    "edition": 11,
    "offense": 4,
    "defense": 5,
    "text": "REBIRTH: Activate when this in-play card is destroyed. Target up to 1 card in your graveyard. "
            "Reveal all targets, then summon or cast any number of targets that are not in play (paying the usual costs).",
}


@pytest.fixture(scope="module")
def view():
    return view_of(RULES)


def codes(j):
    return sorted(r.code for r in j.reasons)


def run(*args):
    result = CliRunner().invoke(main, [*args, "--rules", RULES])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_immortal_phoenix_is_banned_in_the_11th(view):
    j = judge(PHOENIX, "11-pre", view)
    assert j.status == "banned" and codes(j) == ["redacted"]
    (r,) = j.reasons
    assert r.edition == 9 and "Target up to 1 card in your graveyard." in r.message
    assert "guide-09" in r.sources and r.field == "text[1]"


def test_the_6th_dark_necromancer_is_legal_in_the_6th_and_banned_from_the_7th(view):
    assert judge(NECROMANCER_6TH, 6, view).status == "legal"
    for n in (7, 8, 9, 10, "11-pre"):
        j = judge(NECROMANCER_6TH, n, view)
        assert j.status == "banned" and "redacted" in codes(j), n
        assert any(r.code == "redacted" and r.edition == 7 and "opponent's summon" in r.message for r in j.reasons)
    assert codes(judge(NECROMANCER_6TH, 9, view)) == ["cost-revised", "redacted"]  # "Place [x] counters…" from the 9th
    assert codes(judge(NECROMANCER_6TH, 12, view)) == ["clean-slate"]


def test_draw_2_cards_costs_8_in_the_8th_and_4_in_the_9th():
    for edition, cost in ((8, 8), (9, 4)):
        result = run("cost", "--edition", str(edition), "--type", "spell", "--text", "Draw 2 cards.", "--format", "json")
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert out["cost"] == cost and out["status"] == "legal"
        (part,) = out["breakdown"]["abilities"][0]["components"]
        assert part["kind"] == "effect" and part["formula"] == ("4x" if edition == 8 else "2x") and part["value"] == str(cost)
    text = run("cost", "--edition", "9", "--type", "spell", "--text", "Draw 2 cards.")
    assert "cost 4 in the 9th edition" in text.output and "cost 2x (x=2) = 4" in text.output


def test_a_card_bearing_the_8th_indicator_with_draw_2_cards_is_banned_in_the_9th(view):
    card = {"name": "Scholar's Insight", "type": "spell", "edition": 8, "cost": 8, "text": "Draw 2 cards."}
    assert judge(card, 8, view).status == "legal"
    j = judge(card, 9, view)
    assert j.status == "banned" and codes(j) == ["cost-revised"]
    assert j.reasons[0].edition == 9 and "Edition Indicator 8" in j.reasons[0].message
    assert judge({**card, "edition": 9, "cost": 4}, 9, view).status == "legal"


def test_an_old_wording_with_a_bound_variable_reads_as_the_new_text(view):
    card = {"name": "B", "type": "creature", "offense": 1, "defense": 5,
            "text": "Activate when a card in your hand is destroyed. Draw 1 card."}
    j = judge({**card, "edition": 11}, "11-pre", view)
    assert j.status == "legal"
    assert any('"Activate when at least 1 card in your hand is destroyed." (x = 1)' in n for n in j.notes)
    use = j.parsed.abilities[0].uses[0]
    assert str(view.catalog("11-pre").by_id()[use.component].text) == "Activate when at least [x] cards in your hand are destroyed."
    assert (use.kind, use.values, use.old_wording) == ("condition", {"x": 1}, "Activate when a card in your hand is destroyed.")


def test_a_new_wording_in_an_old_edition_says_when_it_came(view):
    card = {"name": "B", "type": "creature", "offense": 1, "defense": 5,
            "text": "Activate when you take at least 5 damage. Draw 1 card."}
    j = judge(card, 6, view)
    assert j.status == "error"
    (r,) = j.reasons
    assert r.code == "unknown-text"
    assert 'did you mean "Activate when you take damage."' in r.message
    assert "revised in the 8th edition" in r.message and 'in the 6th it reads "Activate when you take damage."' in r.message


def test_a_12th_minion_printed_with_the_11th_stats_is_malformed_and_named_by_its_words(view):
    card = {"name": "M", "type": "minion", "edition": 12, "offense": 1, "defense": 5, "text": "GREED: Draw 1 card."}
    j = judge(card, 12, view)
    assert j.status == "error" and "malformed" in codes(j)
    # offense and defense are the 11th's: here a minion's sp and hp (issue 24, point 12)
    assert {r.field for r in j.reasons} == {"sp", "hp", "offense", "defense"}
    assert [r.message for r in j.reasons if r.field == "offense"] == [
        "offense: 1: a minion of this edition has no offense (another edition's word): its sp is 'sp'"]
    assert not any("minion" in n for n in j.notes)  # the 12th's own word
    creature = {**card, "type": "creature", "offense": None, "defense": None, "sp": 1, "hp": 5}
    j = judge({k: v for k, v in creature.items() if v is not None}, 12, view)
    assert j.status == "legal" and j.cost == 3  # ceil(1 + 5/5) = 2, plus "draw 1 card." (x) = 1
    assert any('"creature"' in n and "minion" in n for n in j.notes)


# --- the example collection ----------------------------------------------------------------

# name (and position, for the two Dark Necromancers) → (status in the 6th, codes in the 6th,
#                                                       status in the 11th, codes in the 11th)
EXPECTED = [
    ("Dark Necromancer", "legal", [], "banned", ["cost-revised", "redacted"]),
    ("Dark Necromancer", "legal", [], "legal", []),  # the 11th printing
    ("Immortal Phoenix", "legal", [], "banned", ["redacted"]),
    ("Mammon the Dark Angel", "legal", [], "banned", ["cost-revised"]),
    ("Frenzied Berserker", "legal", [], "legal", []),
    ("Grave Robber", "legal", [], "legal", []),
    ("Drill Sergeant", "legal", [], "legal", []),
    ("Hostage Knight", "legal", [], "legal", []),
    ("Harvest Blight", "legal", [], "legal", []),
    ("Lucky Charm", "legal", [], "legal", []),
    ("Last Rites", "legal", [], "legal", []),
    ("Ember Bolt", "banned", ["redacted"], "banned", ["redacted"]),
    ("Counterspell Ward", "legal", [], "banned", ["redacted", "redacted"]),
    ("Blood Pact", "legal", [], "banned", ["cost-revised", "redacted"]),
    ("Gambler's Chance", "legal", [], "banned", ["redacted"]),
    ("Hungering Wraith", "banned", ["over-limit"], "banned", ["over-limit", "redacted"]),
    ("Tome Burner", "legal", [], "banned", ["cost-revised", "redacted"]),
    ("Tidal Insight", "legal", [], "banned", ["cost-revised"]),
    ("Scholar's Insight", "legal", [], "banned", ["cost-revised"]),
    ("Fresh Insight", "banned", ["cost-mismatch"], "legal", []),  # a 9th printing, priced by the 9th
    ("Ironbark Sentinel", "legal", [], "banned", ["cost-revised"]),
    ("Giant's Strength", "legal", [], "banned", ["cost-revised"]),
    ("Goblin Scout", "legal", [], "legal", []),
    ("Stone Golem", "banned", ["cost-mismatch"], "banned", ["cost-mismatch"]),
]


@pytest.fixture(scope="module")
def examples():
    return list(read_collection(EXAMPLES))


def test_the_example_collection_is_judged_as_its_comments_say(view, examples):
    assert len(examples) == len(EXPECTED) >= 15
    for item, (name, s6, c6, s11, c11) in zip(examples, EXPECTED):
        assert item.card["name"] == name and item.problems == []
        j6, j11 = judge(item.card, 6, view), judge(item.card, "11-pre", view)
        assert (j6.status, codes(j6)) == (s6, c6), name
        assert (j11.status, codes(j11)) == (s11, c11), name


def test_every_example_costs_what_it_printed_in_its_own_edition(view, examples):
    for item in examples:
        card = item.card
        if card["name"] == "Stone Golem":
            continue  # the misprint
        own = card.get("edition") or (1 if card.get("notes") == "printed in the 1st edition" else 6)
        j = judge(card, "11-pre" if own == 11 else own, view)  # the examples' 11th printings are the pre-release's
        if card.get("cost") is None:  # Gambler's Chance prints none: the 6th guide gives its formula (xy)
            assert j.cost is not None, card["name"]
        else:
            assert j.cost == card.get("cost"), card["name"]


def test_the_examples_exercise_every_kind_of_history_event(view, examples):
    notes6 = [n for item in examples for n in judge(item.card, "11-pre", view).notes]
    revised_in = {e for e in (2, 3, 6, 7, 8) if any(f"revised in the {e}" in n for n in notes6)}
    assert revised_in == {2, 3, 6, 7, 8}
    assert any("(x = 5)" in n for n in notes6) and any("(x = 1)" in n for n in notes6)
    reasons = [r for item in examples for r in judge(item.card, "11-pre", view).reasons]
    assert {r.edition for r in reasons if r.code == "redacted"} >= {2, 7, 9}
    assert {r.edition for r in reasons if r.code == "cost-revised"} == {9, 11}
    assert any(r.code == "over-limit" for r in reasons)
    extras = {k for item in examples for k in item.card} - {"name", "type", "edition", "cost", "offense", "defense", "text"}
    assert {"flavor", "artist"} <= extras
    assert "#" in EXAMPLES.read_text()


def test_check_cards_on_the_examples(examples):
    result = run("check-cards", str(EXAMPLES), "--edition", "11-pre", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["edition"] == "11-pre" and set(report) == {"edition", "cards", "summary"}
    assert report["summary"] == {"cards": 24, "legal": 10, "banned": 14, "error": 0, "unknown": 0, "with_warnings": 1}  # "Roll 1 six-sided dice" (Last Rites): "die" for 1
    first = report["cards"][0]
    assert list(first) == ["index", "name", "status", "outcome", "cost", "printed_cost", "reasons", "warnings", "notes"]
    assert first["status"] == first["outcome"] == "banned"  # (the 11th pre-release rulebook bans, the 13th's on prune)
    assert {"code", "message", "edition", "sources"} <= set(first["reasons"][0])
    assert first["reasons"][0]["line"] == 25  # the paragraph's line in the YAML file

    text = run("check-cards", str(EXAMPLES), "--edition", "6")
    assert text.exit_code == 1
    assert "24 cards: 20 legal, 4 banned" in text.output
    assert "examples/collection.yaml:162: over-limit (field text[1])" in text.output.replace(str(ROOT) + "/", "")


def test_cost_of_a_whole_collection_prints_each_breakdown():
    result = run("cost", str(EXAMPLES), "--edition", "11-pre")
    assert result.exit_code == 0  # every cost is known: the 2nd–6th guides give the re-roll's (xy)
    assert "Dark Necromancer: cost 8 in the 11th pre-release edition" in result.output
    assert "ability 2: NECROMANCY (paragraph 2)" in result.output
    assert "Gambler's Chance: cost 2 in the 11th pre-release edition" in result.output


def test_cost_cites_and_locates_each_reason_and_warning_as_check_cards_does():
    """`cost`'s breakdown printed its reasons and warnings with neither their field nor the document they
    rest on, though its --verbose says how it cites them ("17th rulebook, Revised Levels" by default)."""
    args = ["cost", "-e", "17", "--type", "spell", "--text", "Target up to 1 on-field minions; destroy the targets.",
            "--printed", "5"]
    out = CliRunner().invoke(main, args).output
    assert "    cost-mismatch (field level): the printed level is 5, but the card's level is 2 in the 17th edition [17th guide]" in out
    assert '  warning: agreement (field text[1]): paragraph 1:' in out and 'destroy the target." [17th guide]' in out
    verbose = CliRunner().invoke(main, [*args, "-v"]).output
    assert "[17th edition; guide-15, guide-16, guide-17]" in verbose
