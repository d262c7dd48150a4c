"""Parsing card text against an edition: splitting, matching, forgiving, and what is never forgiven.

Uses fixtures/mini_rules: condition-take-damage reads "Activate when you take damage." in the
1st edition and "Activate when you take at least [x] damage." from the 2nd (binding x = 5);
effect-draw costs 4x, then 2x from the 2nd; cost-pay-hitpoints is redacted in the 3rd.
"""

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from kotc_rulesc.cards import card_cost, judge, parse_card
from kotc_rulesc.cards.parse import split_paragraph
from kotc_rulesc.loader import load_rules
from kotc_rulesc.view import FoldedRules
from support.loaded import view_of

MINI = Path(__file__).parent / "fixtures" / "mini_rules"


@pytest.fixture(scope="module")
def view():
    return view_of(MINI)


def creature(text, **extra):
    return {"name": "Test", "type": "creature", "offense": 2, "defense": 5, "text": text, **extra}


@pytest.mark.parametrize(
    "paragraph, name, sentences",
    [
        ("Draw 2 cards.", None, ["Draw 2 cards."]),
        ("SPIRITUAL UNREST: Draw 2 cards.  Draw 1 card.", "SPIRITUAL UNREST", ["Draw 2 cards.", "Draw 1 card."]),
        ("CONTRACT WITH THE DEAD:Draw 1 card.", "CONTRACT WITH THE DEAD", ["Draw 1 card."]),
        ("Healing: Draw 1 card.", None, ["Healing: Draw 1 card."]),  # a name is in capitals
        ("Place 1 counter on each target; you can remove it, then draw.", None,
         ["Place 1 counter on each target; you can remove it, then draw."]),
        ("Reveal all targets, then summon any number of targets (paying the usual costs). Draw 1 card.", None,
         ["Reveal all targets, then summon any number of targets (paying the usual costs).", "Draw 1 card."]),
    ],
)
def test_split_paragraph(paragraph, name, sentences):
    assert split_paragraph(paragraph) == (name, sentences)


def test_a_creature_with_caveat_and_named_ability(view):
    card = creature("This creature cannot attack.\nKILL: Activate when you take at least 7 damage. Pay 3 hitpoints. "
                    "Target up to 2 cards in play. Destroy all targets.\nDraw 1 card.")
    parsed, problems, notes = parse_card(card, view.catalog(2), view)
    assert problems == [] and notes == []
    assert parsed.card_part.component == "caveat-cannot-attack" and parsed.card_part_paragraph == 1
    kill, draw = parsed.abilities
    assert (kill.name, kill.paragraph, draw.name, draw.paragraph) == ("KILL", 2, None, 3)
    assert [(u.component, u.values) for u in kill.uses] == [
        ("condition-take-damage", {"x": 7}),
        ("cost-pay-hitpoints", {"x": 3}),
        ("target-cards-in-play", {"x": 2}),
        ("effect-destroy-all-targets", {}),
    ]
    assert parsed.text() == card["text"]


def test_an_old_wording_reads_as_the_new_one_with_its_bound_value(view):
    card = creature("Activate when you take damage. Draw 1 card.")
    parsed, problems, notes = parse_card(card, view.catalog(2), view)
    assert problems == []
    use = parsed.abilities[0].uses[0]
    assert use.values == {"x": 5} and use.old_wording == "Activate when you take damage."
    assert use.wording == "Activate when you take at least 5 damage."
    assert notes == ['"Activate when you take damage." is an earlier wording, revised in the 2nd edition; '
                     'it reads as "Activate when you take at least 5 damage." (x = 5)']


def test_before_the_revision_the_old_wording_is_current_and_costs_with_the_later_bound_value(view):
    # the 1st edition's formula x/5 needs x, which only the 2nd edition's revision binds (x = 5)
    card = creature("Activate when you take damage. Draw 2 cards.")
    cat = view.catalog(1)
    parsed, problems, notes = parse_card(card, cat, view)
    assert problems == [] and notes == []
    use = parsed.abilities[0].uses[0]
    assert use.old_wording is None and use.values == {"x": 5}
    result = card_cost(card, parsed, cat)
    assert result.breakdown["abilities"][0]["components"][0]["value"] == "1"
    assert result.total == 2 + 1 + 7  # offense + defense/5 + (8 - 1)


def test_typographic_quotes_and_spacing_are_forgiven_with_notes_and_the_plural_for_1_warned(view):
    # "You should also change any plurals referring to a variable to singular if you choose the number “1”":
    # a should, so the card is read, with a warning that gives the text to print
    parsed, problems, notes = parse_card(creature("Draw  1 cards ."), view.catalog(2), view)
    assert problems == [] and parsed.abilities[0].uses[0].values == {"x": 1}
    assert any("spacing" in n for n in notes)
    (w,) = parsed.warnings
    assert w.code == "agreement" and "'cards' should be 'card' for x = 1" in w.message and w.instead == "Draw 1 card."


def test_a_different_word_is_never_forgiven(view):
    for text in ("Draw 2 card", "draw 2 cards.", "Draw 2 cars.", "Draw 2 cards now.", "Draws 2 cards."):
        parsed, problems, _ = parse_card(creature(text), view.catalog(2), view)
        assert parsed is None and [p.code for p in problems] == ["unknown-text"], text


def test_unknown_text_names_the_closest_components_and_other_editions(view):
    # the new wording does not exist yet in the 1st edition
    parsed, problems, _ = parse_card(creature("Activate when you take at least 5 damage. Draw 1 card."), view.catalog(1), view)
    (p,) = problems
    assert p.code == "unknown-text" and p.field == "text[1]" and p.edition == 1
    assert 'did you mean "Activate when you take damage."' in p.message
    assert "condition-take-damage in the 2nd–3rd editions (revised in the 2nd edition)" in p.message
    assert 'in the 1st it reads "Activate when you take damage."' in p.message


def test_an_unknown_text_in_capitals_names_the_components_it_is_near():
    # a text typed in capitals is no component (its letters differ), and it was told no near one at all
    # ("DRAW 2 CARDS." is not a component text of the 17th edition); now the nearest in any letter case
    for text, near in (("GREED: DRAW 2 CARDS.", '"DRAW 2 CARDS." is not a component text of the 17th edition; '
                                               'did you mean "draw [x] cards."?'),
                       ("GREED: TARGET UP TO 2 ON-FIELD MINIONS; DESTROY THE TARGETS.",
                        'did you mean "Target up to [x] on-field minions;"')):
        card = {"name": "Caps", "type": "minion", "edition": 17, "sp": 1, "hp": 1, "text": text}
        parsed, problems, _ = parse_card(card, view_of().catalog(17), view_of())
        assert parsed is None and [p.code for p in problems] == ["unknown-text"] and near in problems[0].message


def test_no_abilities(view):
    parsed, problems, _ = parse_card(creature("This card has no abilities."), view.catalog(2), view)
    assert problems == [] and parsed.no_abilities and parsed.abilities == []
    parsed, problems, notes = parse_card(creature("This creature cannot attack.\nThis card has no abilities."), view.catalog(2), view)
    assert problems == [] and parsed.card_part is not None and parsed.no_abilities and notes == []
    # "If you choose to not give any abilities to a creature, use the text, “This card has no abilities.”": no
    # choice is left (must), also after a caveat
    parsed, problems, notes = parse_card(creature("This creature cannot attack."), view.catalog(2), view)
    assert parsed is None and [(p.code, p.instead) for p in problems] == [
        ("malformed", "This creature cannot attack.\nThis card has no abilities.")]


def test_cost_breakdown_is_exact_and_per_component(view):
    card = creature("This creature cannot attack.\nActivate when you take at least 7 damage. Target up to 3 cards in play. Destroy all targets.")
    cat = view.catalog(2)
    parsed, _, _ = parse_card(card, cat, view)
    result = card_cost(card, parsed, cat)
    ability = result.breakdown["abilities"][0]
    assert [(p["component"], p["role"], p["value"]) for p in ability["components"]] == [
        ("condition-take-damage", "relief", "7/5"),
        ("target-cards-in-play", "sets t", "3"),  # a target selection adds nothing itself: it sets its effects' t
        ("effect-destroy-all-targets", "cost", "24"),
    ]
    assert ability["components"][2]["t"] == "3"
    assert ability["total_relief"] == "7/5" and ability["ability_cost"] == "113/5"
    assert result.breakdown["caveat"]["value"] == "1"
    # max(1, ceil(max(0, 2 + 5/5 - 1) + 113/5)) = ceil(2 + 22.6) = 25
    assert result.total == 25
    assert Fraction(ability["ability_cost"]) == Fraction(24) - Fraction(7, 5)


def test_the_cost_rule_of_an_edition_without_one_is_borrowed_with_a_note(view):
    j = judge({"name": "Insight", "type": "spell", "edition": 3, "text": "Draw 2 cards."}, 3, view)
    assert j.status == "legal" and j.cost == 4
    assert "no source states the card-cost rule of the 3rd edition; the 2nd edition's rule is used" in j.notes


def test_minion_is_read_as_creature(tmp_path):
    """A later edition's rulebook word for a type (the 12th's minion) reads as that type."""
    rules = tmp_path / "rules"
    shutil.copytree(MINI, rules)
    third = rules / "edition-03.yaml"
    third.write_text(third.read_text() + "rulebook:\n  source: rulebook\n  terms: {creature: minion}\n")
    view = FoldedRules(load_rules(rules))
    j = judge({"name": "M", "type": "Minion", "edition": 2, "offense": 1, "defense": 0, "text": "This card has no abilities."}, 2, view)
    assert j.status == "legal" and j.cost == 1
    assert any("minion" in n for n in j.notes)


def test_other_editions_are_named_from_a_pre_release_too():
    # From the 11th pre-release (which follows the 10th), the 11th is a later edition.  The
    # comparison once mixed "11-pre" with numbers and crashed check-cards -e 11-pre.
    bundled = view_of(Path(__file__).resolve().parent.parent / "rules")
    card = creature("When you take at least 5 damage: Draw 1 card.", edition=11)
    _, problems, _ = parse_card(card, bundled.catalog("11-pre"), bundled)
    message = next(p.message for p in problems if p.field == "text[1]")
    assert "condition-take-damage-11 in the 11th edition, not yet in the catalog of the 11th pre-release" in message


@pytest.mark.parametrize("edition, card, hint", [
    # the 6th on: names in capitals, in the guide's own words
    (17, {"type": "minion", "sp": 1, "hp": 1, "text": "healing: target 1 on-field minion; destroy it."},
     'If "healing" names the ability, print it in capital letters, "HEALING:", as the 17th edition\'s guide says: '
     "“Any minion ability must be named. The name is designated at the beginning of the ability's paragraph in all "
     "capital letters, followed by a colon”."),
    (10, {"type": "creature", "offense": 1, "defense": 1, "text": "Guard: Drw 1 card."},
     'If "Guard" names the ability, print it in capital letters, "GUARD:", as the 10th edition\'s guide says: '
     "“If you do so, it must be designated at the beginning of the ability of the paragraph in all capital letters, "
     "followed by a colon (“:”).”"),
    # where names are not allowed, that instead
    (3, {"type": "creature", "offense": 1, "defense": 1, "text": "guard: Draw 1 card."},
     'If "guard" names the ability: the 3rd edition\'s guide gives abilities no names.'),
    (17, {"type": "spell", "text": "healing: target 1 on-field minion; destroy it."},
     'If "healing" names the ability: a spell\'s ability has no name; only minions name their abilities.'),
])
def test_a_lowercase_ability_name_is_told_the_naming_rule_of_its_edition(edition, card, hint):
    bundled = view_of()
    j = judge({"name": "Test", "edition": edition, **card}, edition, bundled)
    (reason,) = [r for r in j.reasons if r.code == "unknown-text"]
    first = card["text"].split(":")[0]
    assert reason.message == f'"{first}:" is not a component text of the {"3rd" if edition == 3 else f"{edition}th"} edition. {hint}'


def test_no_naming_hint_for_another_editions_text_or_a_later_clause():
    bundled = view_of()
    # the published 11th's "Summon cost: …" is a text, not a name
    card = {"name": "T", "type": "creature", "edition": 10, "cost": 3, "offense": 1, "defense": 1,
            "text": "Summon cost: Self-exhaust 2 creatures."}
    (reason,) = [r for r in judge(card, 10, bundled).reasons if r.code == "unknown-text"]
    assert reason.message == '"Summon cost:" is not a component text of the 10th edition'
    card = {"name": "T", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card. guard: Draw 1 card."}
    assert not any("names the ability" in r.message for r in judge(card, 17, bundled).reasons)
