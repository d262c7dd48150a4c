"""The 13th edition: its catalog is its guide's, and cards get the level its rule gives.

The 13th (sources/13) is a clean slate in the 12th's card-building system: the same kinds and
grammar, a minion's HP counting one half (the 12th: one fifth), and a catalog of 52 texts of which
three are reworded ("enemy", "grave") and three effects re-costed (bounce 2t, sheathe t, draw 2x)."""

from __future__ import annotations

import pytest

from kotc_rulesc.cards import judge
from kotc_rulesc.tables import TablesView

from support.game_documents import guide_entries, level_rule_paragraphs
from test_source_documents import same_formula, show_json
from support.loaded import view_of


@pytest.fixture(scope="module", params=["rules", "tables"])
def view(request):
    return view_of() if request.param == "rules" else TablesView()


def test_show_13_reproduces_the_13th_guide_entry_by_entry():
    shown = show_json(13)
    guide = guide_entries(13)
    assert len(guide) == len(shown["components"]) == 52
    assert sum(g.formula is not None for g in guide) == 38
    assert [c["kind"] for c in shown["components"]] == [g.kind for g in guide]
    for c, g in zip(shown["components"], guide):
        assert c["text"] == g.clean_text
        if g.kind == "condition":
            assert c["formula"] is None and g.formula is None
        else:
            assert same_formula(c["formula"], g.formula), (c["text"], c["formula"], g.formula)
        assert c["status"] == "legal" and c["limits"] == {}
    # the 12th's system, its kinds restated for the rulebook's "it has no targets" (a target selection's absent:)
    assert shown["system"] == show_json(12)["system"] | {"stated_in": 13, "sources": ["guide-13", "rulebook-13"]}


def test_the_level_rule_counts_half_the_hp():
    text = " ".join(level_rule_paragraphs(13))
    assert "add together the minion's SP and one half of its HP" in text
    assert show_json(13)["card_cost"]["minion_cost"] == "max(0, ceil(sp + hp/2)) + sum(ability_costs)"


def level(view, card):
    j = judge({"name": "Test", "edition": 13, **card}, 13, view)
    assert j.status in ("legal", "banned"), (j.status, [r.message for r in j.reasons])
    return j.cost


def test_levels_of_cards_built_from_the_13th_guide(view):
    # draw [x] cards is 2x in the 13th: GREED (draw 2) = 4; SP 2 + HP 7/2 = 5.5 → 6; level 10
    assert level(view, {"type": "minion", "sp": 2, "hp": 7, "text": "GREED: Draw 2 cards."}) == 10
    # see enemy's hand and target up to 1 card therein: t = 2·1 + 1 = 3; sheathe the targets (t) = 3
    assert level(view, {"type": "spell", "text": "See enemy's hand and target up to 1 card therein; sheathe the targets."}) == 3
    # target up to 2 in-play cards (t = 2); bounce the targets (2t) = 4
    assert level(view, {"type": "spell", "text": "Target up to 2 in-play cards; bounce the targets."}) == 4
    # a vanilla minion: max(0, ceil(0 + 1/2)) = 1
    assert level(view, {"type": "minion", "sp": 0, "hp": 1, "text": ""}) == 1
    # two abilities: GREED 4; BURY: self-bury 1 in-play card (4x = 4) → draw 1 card (2x = 2):
    # max(1, ceil(2 - 4)) = 1; SP 1 + HP 3/2 = 2.5 → 3; level 3 + 4 + 1 = 8
    assert level(view, {"type": "minion", "sp": 1, "hp": 3,
                        "text": "GREED: Draw 2 cards.\nBURY: Self-bury 1 in-play card→ Draw 1 card."}) == 8


def test_the_12th_wording_is_not_the_13th(view):
    j = judge({"name": "Old words", "edition": 13, "type": "spell",
               "text": "See one opponent's hand and target up to 1 card therein; sheathe the targets."}, 13, view)
    assert j.status == "error"
    message = " ".join(r.message for r in j.reasons)
    assert "See enemy's hand and target up to [x] cards therein;" in message and "12th edition" in message


def test_a_12th_card_is_pruned_by_the_13th_clean_slate(view):
    twelfth = {"name": "Old", "type": "minion", "edition": 12, "sp": 2, "hp": 7, "level": 6, "text": "GREED: Draw 2 cards."}
    assert judge(twelfth, 12, view).status == "legal"
    j = judge(twelfth, 13, view)
    assert j.status == "banned" and [r.code for r in j.reasons] == ["clean-slate"] and j.reasons[0].edition == 13


def test_a_card_without_edition_indicator_is_invalid_from_the_13th(view):
    """"Any card with no Edition Indicator is invalid." (rulebook-13); the 12th only banned it by its
    clean slate."""
    card = {"name": "Nameless", "type": "minion", "sp": 2, "hp": 7, "text": "GREED: Draw 2 cards."}
    j = judge(card, 13, view)
    assert j.status == "banned" and [r.code for r in j.reasons] == ["invalid", "clean-slate"]
    invalid = j.reasons[0]
    assert invalid.field == "edition" and invalid.edition == 13 and invalid.sources == ("rulebook-13",)
    assert "any card with no Edition Indicator is invalid" in invalid.message
    assert [r.code for r in judge(card, 12, view).reasons] == ["clean-slate"]


@pytest.mark.parametrize("printed, reads", [
    ("Target up to 1 in-play card; destroy it.", "destroy the targets."),
    ("Target this card; destroy the target.", "destroy the targets."),
    ("Target this card; place 1 Sword Counter on it.", "place 1 Sword Counter on each target."),
    ("Target this card; down-level it by 2.", "down-level each target by 2."),
])
def test_one_target_may_be_it_or_the_target(view, printed, reads):
    """The 12th and 13th guides: if the number of targets is never greater than 1, "Each target" and
    "the targets" should be replaced with "the target", or alternatively "it" (the system's
    variations); the card reads as the listed text, and prints the form the guide prescribes."""
    j = judge({"name": "One", "edition": 13, "type": "spell", "text": printed}, 13, view)
    assert j.status == "legal", [r.message for r in j.reasons]
    effect = j.parsed.abilities[0].subs[0][-1]
    assert effect.wording == reads
    assert any(form for _, form in effect.choices)  # printed in a variation's form
    assert all(w.code == "variation" and '"up to" should be removed' in w.message for w in j.warnings)
