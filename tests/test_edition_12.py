"""The 12th edition: its catalog is its guide's, and cards get the level its rule gives.

The 12th (sources/12) is a clean slate in a third card-building system: minions (SP and HP)
and spells; an ability is an optional activation condition (no formula), any number of
activation costs ("self-exhaust [x] resources→", joined ", also "), and one or more
sub-abilities, one sentence each (an optional target selection, then effects joined ", then "
or ", also "). A sub-ability's level is the sum of its effects; an ability's is
max(1, ceil(sub-abilities − activation costs)); a minion's is max(0, ceil(SP + HP/5)) plus its
abilities'; a spell's is its ability's."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards import judge
from kotc_rulesc.cli import main
from kotc_rulesc.tables import TablesView

from support.game_documents import guide_entries, level_rule_paragraphs
from test_source_documents import same_formula, show_json
from support.loaded import view_of


@pytest.fixture(scope="module", params=["rules", "tables"])
def view(request):
    """Both engines' inputs: the folded YAML and the compiled tables."""
    return view_of() if request.param == "rules" else TablesView()


def test_show_12_reproduces_the_12th_guide_entry_by_entry():
    shown = show_json(12)
    guide = guide_entries(12)
    assert len(guide) == len(shown["components"]) == 52
    assert [c["kind"] for c in shown["components"]] == [g.kind for g in guide]
    for c, g in zip(shown["components"], guide):
        assert c["text"] == g.clean_text
        if g.kind == "condition":
            assert c["formula"] is None and g.formula is None  # the 12th's conditions carry no formula
        else:
            assert same_formula(c["formula"], g.formula), (c["text"], c["formula"], g.formula)
        assert c["status"] == "legal" and c["limits"] == {}
    assert {g.sets for g in guide if g.kind == "target"} == {"t"}
    system = shown["system"]
    assert system["figure"]["name"] == "level"
    assert [(t["id"], [s["name"] for s in t["stats"]], t["names"]) for t in system["types"]] == [
        ("minion", ["sp", "hp"], "required"), ("spell", [], "none")]
    assert system["ability"] == ["condition", "cost"] and system["sub_ability"] == ["target", "effect"]


def test_the_level_rule_is_the_guides():
    """The rule's formulas say what the guide's Level section says, sentence by sentence."""
    text = " ".join(level_rule_paragraphs(12))
    rule = show_json(12)["card_cost"]
    assert "take the sum of all effect level increase formulas" in text and rule["sub_ability_cost"] == "sum(effect_costs)"
    assert "If less than 1, set to 1." in text and "Round the result up" in text
    assert rule["ability_cost"] == "max(1, ceil(sum(sub_ability_costs) - cost_relief))"
    assert "SP and one fifth of its HP" in text and "If less than 0, set to 0." in text
    assert rule["minion_cost"] == "max(0, ceil(sp + hp/5)) + sum(ability_costs)"
    assert rule["spell_cost"] == "ability_cost"


def level(view, card):
    j = judge({"name": "Test", "edition": 12, **card}, 12, view)
    assert j.status in ("legal", "banned"), (j.status, [r.message for r in j.reasons])
    return j


def test_levels_of_minions_built_from_the_12th_guide(view):
    # the guide's own example ability, "GREED: Draw 2 cards." (draw: x = 2):
    #   sub-ability 2, ability max(1, ceil(2 - 0)) = 2; SP 2 + HP 7/5 = 3.4 → 4; level 4 + 2 = 6
    greed = level(view, {"type": "minion", "sp": 2, "hp": 7, "text": "GREED: Draw 2 cards."})
    assert greed.cost == 6 and greed.status == "legal"
    # a vanilla minion: max(0, ceil(0 + 0/5)) = 0, no abilities
    assert level(view, {"type": "minion", "sp": 0, "hp": 0, "text": ""}).cost == 0
    # condition (no formula), two activation costs joined ", also ", two sub-abilities:
    #   costs: self-exhaust 1 resource (x/2 = 1/2) + self-destroy 1 in-play card (2x = 2) = 5/2
    #   sub-ability 1: target up to 2 in-play cards (t = 2); destroy the targets (2t = 4),
    #                  then draw 1 card (x = 1) → 5
    #   sub-ability 2: draw 2 cards (x = 2) → 2
    #   ability max(1, ceil(7 - 5/2)) = ceil(9/2) = 5; SP 3 + HP 10/5 = 5; level 10
    smash = level(view, {"type": "minion", "sp": 3, "hp": 10, "text": (
        "SMASH: When this card attacks, after Attack Formation (ghost-play): Self-exhaust 1 resource, also "
        "self-destroy 1 in-play card→ Target up to 2 in-play cards; destroy the targets, then draw 1 card. "
        "Draw 2 cards.")})
    assert smash.cost == 10 and smash.status == "legal"
    ability = smash.breakdown["abilities"][0]
    assert [p["kind"] for p in ability["components"]] == ["condition", "cost", "cost"]
    assert [sub["sub_ability_cost"] for sub in ability["sub_abilities"]] == ["5", "2"]
    assert ability["ability_cost"] == "5"
    # two abilities, one with costs that outweigh it: max(1, ceil(1 - 4)) = 1
    #   GREED 2 (as above); BURY: self-bury 1 in-play card (4x = 4) → draw 1 card (x = 1): 1
    #   SP 1 + HP 3/5 = 1.6 → 2; level 2 + 2 + 1 = 5
    two = level(view, {"type": "minion", "sp": 1, "hp": 3, "text": (
        "GREED: Draw 2 cards.\nBURY: Self-bury 1 in-play card→ Draw 1 card.")})
    assert two.cost == 5


def test_levels_of_spells_built_from_the_12th_guide(view):
    # target up to 3 in-play cards (t = 3); place 2 Damage Counters on each target (xt = 6) → 6
    bolt = level(view, {"type": "spell", "level": 6, "text": "Target up to 3 in-play cards; place 2 Damage Counters on each target."})
    assert bolt.cost == 6 and bolt.status == "legal"
    # see one opponent's hand and target up to 1 card therein (t = 2·1 + 1 = 3); sheathe it (2t = 6);
    # the singular form of "cards" for x = 1 is the guide's
    peek = level(view, {"type": "spell", "text": "See one opponent's hand and target up to 1 card therein; sheathe the targets."})
    assert peek.cost == 6
    # an activation cost worth more than the effects: self-destroy 1 in-play card (2x = 2); target
    # this card (t = 1); remove up to 1 counter from each target (xt/2 = 1/2): max(1, ceil(1/2 - 2)) = 1
    cheap = level(view, {"type": "spell", "text": "Self-destroy 1 in-play card→ Target this card; remove up to 1 counter from each target."})
    assert cheap.cost == 1


@pytest.mark.parametrize("card, says", [
    ({"type": "minion", "sp": 1, "hp": 1, "text": "Draw 1 card."}, "a minion's abilities are named"),
    ({"type": "spell", "text": "GREED: Draw 1 card."}, "a spell's ability has no name"),
    ({"type": "spell", "text": "Destroy the targets."}, "depends on t) but a sub-ability has no target selection"),
    ({"type": "spell", "text": "Draw 1 card. Self-exhaust 1 resource→ Draw 1 card."}, "comes after the effect"),
    ({"type": "spell", "text": "Self-exhaust 1 resource→"}, "ends a sentence without a sub-ability"),
    ({"type": "spell", "text": "Target this card; target this card; destroy the targets."}, "two target selections"),
    ({"type": "minion", "sp": -1, "hp": 0, "text": ""}, "sp -1 is out of range"),
])
def test_the_12th_grammar_is_enforced_with_reasons(view, card, says):
    j = judge({"name": "Bad", "edition": 12, **card}, 12, view)
    assert j.status == "error", j
    assert any(says in r.message for r in j.reasons), [r.message for r in j.reasons]


def test_tutorial_text_is_ignored_and_unknown_text_names_the_nearest(view):
    j = level(view, {"type": "minion", "sp": 1, "hp": 5, "text": "GREED: Draw 1 card. *(Put the top card of your deck into your hand.)*"})
    assert j.cost == 3  # ceil(1 + 1) = 2, plus draw 1 (x) = 1
    assert any("tutorial text" in n for n in j.notes)
    bad = judge({"name": "Bad", "edition": 12, "type": "spell", "text": "Draw 2 card now."}, 12, view)
    assert bad.status == "error" and any("did you mean" in r.message and "draw [x] cards." in r.message for r in bad.reasons)


def test_older_cards_cross_the_12th_clean_slate_banned(view):
    eleventh = {"name": "Old", "type": "creature", "edition": 11, "offense": 2, "defense": 5, "level": 3, "text": "Draw 1 card."}
    j = judge(eleventh, 12, view)
    assert j.status == "banned" and [r.code for r in j.reasons] == ["clean-slate"]


def test_cost_command_with_the_12th_stat_flags():
    result = CliRunner().invoke(main, ["cost", "-e", "12", "--type", "minion", "--sp", "2", "--hp", "7",
                                       "--text", "GREED: Draw 2 cards.", "--printed", "6", "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["level"] == 6 and out["printed_level"] == 6 and out["status"] == "legal" and "cost" not in out
    text = CliRunner().invoke(main, ["cost", "-e", "12", "--type", "minion", "--sp", "2", "--hp", "7",
                                     "--text", "GREED: Draw 2 cards."]).output
    assert "level 6 in the 12th edition" in text and "sub-ability level 2" in text  # the guide: "a sub-ability level"
    wrong = CliRunner().invoke(main, ["cost", "-e", "12", "--type", "minion", "--offense", "2", "--text", "GREED: Draw 2 cards."])
    assert wrong.exit_code == 2 and "--sp" in wrong.output


def _cost_examples() -> list:
    """Every `kotc-rulesc cost` block of the README and the docs' topic pages followed by a text block."""
    import re

    from support.docs_pages import every_page

    out = []
    for name, text in every_page():
        for command, shown in re.findall(r"```sh\n(kotc-rulesc cost .*?)```\n\n```text\n(.*?)```", text, re.S):
            out.append(pytest.param(command, shown, id=f"{name}:{len(out)}"))
    return out


def test_the_docs_show_cost_examples_of_the_11th_12th_and_17th():
    commands = [p.values[0] for p in _cost_examples()]
    assert len(commands) >= 4  # the 11th's creature, the 12th's minion, the 17th's minion (README and players' guide)
    assert {e for c in commands for e in ("-e 11 ", "-e 12 ", "-e 17 ") if e in c} == {"-e 11 ", "-e 12 ", "-e 17 "}


@pytest.mark.parametrize("command, shown", _cost_examples())
def test_the_docs_cost_examples_print_what_they_show(command, shown):
    """Every `kotc-rulesc cost` block of the README and the docs followed by a text block prints exactly that."""
    import shlex

    args = shlex.split(command.replace("\\\n", " "))[1:]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.output == shown, command
