"""The 14th to 17th editions: each catalog is its guide's, and cards get the level (and, from the
17th, the Ultra Points) its rules give.

Deltas over the 13th (the latest clean slate): the 14th lets a spell's ability be level 0 while
a minion's is at least 1; the rulebooks' in-force "Refurbished Card Texts" rows are text
revisions; the 16th's "Revised Levels" are cost revisions that prune older cards, while its two
formula changes no list names (``listed: false``) prune nothing; the 17th's ultra texts carry
"[+N]" and a deck holds at most 10 Ultra Points."""

from __future__ import annotations

from collections import Counter

import pytest

from kotc_rulesc.cards import judge
from kotc_rulesc.tables import TablesView

from support.game_documents import guide_entries, rulebook_lists
from test_source_documents import same_formula, show_json
from support.loaded import view_of


@pytest.fixture(scope="module", params=["rules", "tables"])
def view(request):
    return view_of() if request.param == "rules" else TablesView()


@pytest.mark.parametrize("edition, size", [(14, 55), (15, 61), (16, 68), (17, 91)])
def test_show_reproduces_the_guide(edition, size):
    """Every legal component of the fold is an entry of the edition's guide and back: kind, text,
    formula (by value) and Ultra Points; the guide's order within each kind is kept for the texts
    that were already there."""
    shown = [c for c in show_json(edition)["components"] if c["status"] == "legal"]
    guide = guide_entries(edition)
    assert len(guide) == len(shown) == size
    ours = Counter((c["kind"], c["text"], c["ultra"]) for c in shown)
    theirs = Counter((g.kind, g.clean_text, g.ultra) for g in guide)
    assert ours == theirs
    formulas = {(c["kind"], c["text"]): c["formula"] for c in shown}
    for g in guide:
        assert same_formula(formulas[(g.kind, g.clean_text)], g.formula), (edition, g.clean_text)


def test_the_14th_lets_a_spell_be_level_0_but_a_minion_ability_at_least_1(view):
    # self-bury 1 in-play card (4x = 4), draw 1 card (2x = 2): a spell's ability max(0, ceil(2 - 4)) = 0
    spell = judge({"name": "S", "type": "spell", "edition": 14, "text": "Self-bury 1 in-play card→ Draw 1 card."}, 14, view)
    assert spell.status == "legal" and spell.cost == 0
    # the same ability on a minion: max(1, ceil(2 - 4)) = 1; SP 1 + HP 3/2 = 2.5 → 3; level 4
    minion = judge({"name": "M", "type": "minion", "edition": 14, "sp": 1, "hp": 3,
                    "text": "BURY: Self-bury 1 in-play card→ Draw 1 card."}, 14, view)
    assert minion.status == "legal" and minion.cost == 4
    # the 13th still floors every ability at 1
    assert judge({"name": "S", "type": "spell", "edition": 13, "text": "Self-bury 1 in-play card→ Draw 1 card."}, 13, view).cost == 1


@pytest.mark.parametrize("text, level", [
    # "If an ability has exactly 2 activation costs, the arrow in the first activation cost is
    # replaced by the word “and”." self-bury 1 resource (x = 1) and self-bury 1 in-play card (4x = 4):
    # draw 3 cards (2x = 6) → max(0, ceil(6 - 1 - 4)) = 1
    ("Self-bury 1 resource and self-bury 1 in-play card→ Draw 3 cards.", 1),
    # "If an ability has 3 or more activation costs, all of its activation costs are connected as a
    # comma-separated list, using the word “and” as a coördinating conjunction": 6 - 1 - 4 - 1 → 0
    ("Self-bury 1 resource, self-bury 1 in-play card, and self-bury 1 random card in your hand→ Draw 3 cards.", None),
])
def test_the_14ths_activation_costs_are_a_coordinated_list(view, text, level):
    card = judge({"name": "S", "type": "spell", "edition": 14, "text": text}, 14, view)
    assert card.status == "legal", card.reasons
    if level is not None:
        assert card.cost == level


@pytest.mark.parametrize("text, says", [
    # "and" only for exactly two costs
    ("Self-bury 1 resource and self-bury 1 in-play card and self-bury 1 random card in your hand→ Draw 3 cards.",
     "3 activation costs joined with ' and ', ' and ': 3 are joined with ', ', the last two with ', and '"),
    # a list of two is not comma-separated
    ("Self-bury 1 resource, and self-bury 1 in-play card→ Draw 3 cards.",
     "2 activation costs joined with ', and ': two are joined with ' and '"),
    # the last join of three carries the "and"
    ("Self-bury 1 resource, self-bury 1 in-play card, self-bury 1 random card in your hand→ Draw 3 cards.",
     "3 activation costs joined with ', ', ', ': 3 are joined with ', ', the last two with ', and '"),
])
def test_the_14ths_list_rule_is_checked(view, text, says):
    card = judge({"name": "S", "type": "spell", "edition": 14, "text": text}, 14, view)
    assert card.status == "error"  # a malformed text
    assert any(says in r.message for r in card.reasons), [r.message for r in card.reasons]


def test_a_refurbished_text_reads_as_its_new_text(view):
    """The 14th's table: "ghost-play, must pay resource cost" → "hex-play"; a card keeps its
    design edition and reads as the new wording."""
    old = "When this card in your deck is destroyed (ghost-play, must pay resource cost): Draw 1 card."
    j = judge({"name": "Refurbished", "type": "spell", "edition": 13, "text": old}, 14, view)
    assert j.status == "legal", [r.message for r in j.reasons]
    assert j.parsed.abilities[0].uses[0].wording == "When this card in your deck is destroyed (hex-play):"
    assert any("earlier wording" in n for n in j.notes)


def test_a_capital_that_opens_an_ability_is_not_the_16ths_wording(view):
    """The 17th guide lists "remove [x] counters on this card→" where the 16th printed "Remove …"
    (a case-only revision), and "If an activation cost does not follow any activation condition or any
    other activation cost within the ability, its first letter should be capitalized": opening its
    ability, "Remove 2 counters on this card→" is the 17th's text printed as it should be, not the 16th's
    earlier wording; after a condition the capital is still the 16th's wording (kept, with a note)."""
    opening = judge({"name": "Remover", "type": "spell", "edition": 17, "level": 0,
                     "text": "Remove 2 counters on this card→ Draw 1 card."}, 17, view)
    assert opening.status == "legal" and not opening.warnings and opening.notes == []
    after = judge({"name": "Remover", "type": "spell", "edition": 16, "level": 0,
                   "text": "When you take damage: Remove 2 counters on this card→ Draw 1 card."}, 17, view)
    assert after.status == "legal" and [n for n in after.notes if "is an earlier wording" in n] == [
        '"Remove 2 counters on this card→" is an earlier wording, revised in the 17th edition; '
        'it reads as "remove 2 counters on this card→"']


def test_a_17th_card_printing_the_capital_after_a_condition_is_told_the_capitals_rule(view):
    """A card of the 17th has no earlier wording to print: "Remove …" after a condition is the 17th's text
    with a capital the guide does not list (its capitals rule, a should), not "an earlier wording" kept
    with a note as on a 16th card (above)."""
    j = judge({"name": "Remover", "type": "spell", "edition": 17, "level": 0,
               "text": "When you take damage: Remove 2 counters on this card→ Draw 1 card."}, 17, view)
    assert j.status == "legal" and not [n for n in j.notes if "earlier wording" in n]
    assert [w.message for w in j.warnings] == [
        'paragraph 1: "Remove 2 counters on this card→" follows another component in its ability: its first '
        "letter is lowercase, as the guide lists it"]


def test_the_16ths_capital_remove_after_a_condition_is_as_listed_not_a_rule(view):
    """The 16th guide lists "(x) “Remove [x] counters on this card→”" capitalized, and its rule only says
    an activation cost that opens its ability "should be capitalized": after a condition the capital is
    how the guide lists it, not what that rule says."""
    j = judge({"name": "Remover", "type": "spell", "edition": 16, "level": 0,
               "text": "When you take damage: remove 2 counters on this card→ Draw 1 card."}, 16, view)
    assert [w.message for w in j.warnings] == [
        'paragraph 1: "remove 2 counters on this card→" follows another component in its ability: its first '
        "letter is capitalized, as the guide lists it"]


def test_the_16ths_revised_levels_prune_older_cards_and_its_unlisted_changes_do_not(view):
    # "See enemy's hand and target up to [x] cards therein" and "sheathe the targets" (16th Edition):
    # t = 2x = 2, sheathe 3t = 6 in the 16th (the 15th: t = 2x + 1 = 3, sheathe t = 3)
    peek = "See enemy's hand and target up to 1 card therein; sheathe the targets."
    old = judge({"name": "Peek", "type": "spell", "edition": 15, "level": 3, "text": peek}, 16, view)
    assert old.status == "banned" and {r.code for r in old.reasons} == {"cost-revised"} and old.cost == 6
    new = judge({"name": "Peek", "type": "spell", "edition": 16, "level": 6, "text": peek}, 16, view)
    assert new.status == "legal"
    # "self-destroy [x] resources→" x/2 → x in the 16th guide, in no list: a 15th card is not pruned,
    # and its printed level (the 15th's: max(0, ceil(2x - x/2)) = ceil(2 - 1) = 1) is not re-checked
    burner = judge({"name": "Burner", "type": "spell", "edition": 15, "level": 1,
                    "text": "Self-destroy 2 resources→ Draw 1 card."}, 16, view)
    assert burner.status == "legal" and burner.cost == 1  # its level is the 15th's, which the rulebook keeps
    assert burner.breakdown["total"] == 0  # 16th: max(0, ceil(2 - 2)) = 0
    assert any("no rulebook list naming it" in n for n in burner.notes)


def test_ultra_points_of_a_17th_card(view):
    # "When enemy summons a minion:" [+2]; "Target all level 2 or lower on-field minions;" [+2], t = x = 2;
    # "negate the targets." [+1], 2t = 4: level 4, Ultra Points 5
    j = judge({"name": "Negator", "type": "spell", "edition": 17, "text":
               "When enemy summons a minion: Target all level 2 or lower on-field minions; negate the targets."}, 17, view)
    assert j.status == "legal" and j.cost == 4 and j.breakdown["ultra_points"] == 5


def test_a_17th_deck_may_hold_10_ultra_points(view):
    from kotc_rulesc.cards.deck import judge_deck

    negator = {"name": "Negator", "type": "spell", "edition": 17, "text":
               "When enemy summons a minion: Target all level 2 or lower on-field minions; negate the targets."}
    plain = {"name": "Plain", "type": "spell", "edition": 17, "text": "Draw 1 card."}
    two = [judge(negator, 17, view)] * 2 + [judge(plain, 17, view)] * 38  # 10 Ultra Points
    three = [judge(negator, 17, view)] * 3 + [judge(plain, 17, view)] * 37  # 15
    assert judge_deck(two, view.catalog(17)).legal
    verdict = judge_deck(three, view.catalog(17))
    assert not verdict.legal and verdict.problems == [
        "15 Ultra Points: the 17th edition's rulebook (rulebook-17) allows at most 10 in a deck"]


def test_cost_shows_each_texts_ultra_points_and_the_total():
    from click.testing import CliRunner

    from kotc_rulesc.cli import main

    result = CliRunner().invoke(main, ["cost", "-e", "17", "--type", "spell", "--text",
                                       "When enemy summons a minion: Target all level 2 or lower on-field minions; negate the targets."])
    assert result.exit_code == 0, result.output
    assert '"When enemy summons a minion:" [+2]' in result.output and '"negate the targets." [+1]' in result.output
    assert "Ultra Points: 5" in result.output


def test_a_15th_pawn_summoner_and_its_16th_refurbishment(view):
    # "summon [x] level [y] pawns." (xy) in the 15th: x = 2, y = 3 → 6
    j = judge({"name": "Pawns", "type": "spell", "edition": 15, "level": 6, "text": "Summon 2 level 3 pawns."}, 15, view)
    assert j.status == "legal" and j.cost == 6
    # the 16th's table: "summon [x] level [y] pawns" → "craft [x] level [y] pawns"; the card is
    # refurbished, keeps its design edition and its level
    k = judge({"name": "Pawns", "type": "spell", "edition": 15, "level": 6, "text": "Summon 2 level 3 pawns."}, 16, view)
    assert k.status == "legal" and k.cost == 6
    assert k.parsed.abilities[0].uses[0].wording == "craft 2 level 3 pawns."


def test_two_texts_refurbished_into_one_become_one_component(view):
    """The 17th's table turns "When this on-field minion is damaged:" and "When your on-field
    minion(s) (excluding this card) is damaged:" into one text: a card with either is refurbished."""
    for old in ("When this on-field minion is damaged:", "When your on-field minion(s) (excluding this card) is damaged:"):
        j = judge({"name": "Old", "type": "spell", "edition": 16, "level": 2, "text": f"{old} Draw 1 card."}, 17, view)
        assert j.status == "legal", (old, [r.message for r in j.reasons])
        assert j.parsed.abilities[0].uses[0].wording == "When your on-field minion(s) is damaged:"
    ids = {c.id for c in view.catalog(17).components}
    assert "condition-play-card-damaged-13" not in ids and "condition-play-card-excluding-card-damaged-13" in ids
    assert "condition-play-card-damaged-13" in {c.id for c in view.catalog(16).components}


def _edited_rules(tmp_path, n, old, new):
    import shutil
    from pathlib import Path

    rules = tmp_path / "rules"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules", rules)
    path = rules / f"edition-{n}.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return rules


def test_a_revision_into_another_component_must_take_its_text(tmp_path):
    from kotc_rulesc.loader import check_rules

    rules = _edited_rules(tmp_path, 17, '''    text: "When your on-field minion(s) is damaged:"
    row: {old: "When this on-field minion is damaged:", new: "When your on-field minion(s) is damaged:"}
    into: condition-play-card-excluding-card-damaged-13''', '''    text: "When your on-field minion is damaged:"
    into: condition-play-card-excluding-card-damaged-13''')
    _, problems = check_rules(rules)
    hits = [p for p in problems if "a revision into condition-play-card-excluding-card-damaged-13 takes its text" in p.message]
    assert hits and hits[0].file.endswith("edition-17.yaml") and hits[0].line > 0


@pytest.mark.parametrize("edition", [13, 14, 15, 16, 17])
def test_the_refurbished_table_is_the_rulebooks(edition):
    """The rows of each rulebook's Refurbished Card Texts table in force, in its order ("listed in
    alphabetical order (based on the original text)"), are the rows the revisions follow; a row
    inside an HTML comment (the 13th's whole table) is in no edition's list."""
    ours = [(r["old"], r["new"]) for r in show_json(edition)["rulebook"]["refurbished"]]
    assert ours == [tuple(r[:2]) for r in rulebook_lists(edition).revised]
    # each row names the texts it rewords, and the unlisted rewordings are in no list
    assert all(r["texts"] for r in show_json(edition)["rulebook"]["refurbished"])
    assert not show_json(edition)["rulebook"]["revised_text"]


def test_the_guides_unlisted_rewordings_are_in_no_list():
    unlisted = {r["new"] for r in show_json(17)["rulebook"]["unlisted_text"]}
    assert unlisted == {"remove [x] counters on this card→", "remove up to [x] counters on each target.",
                        "Target up to [x] cards on top of any deck;", "When this on-field minion is targeted:"}


def test_a_row_must_be_in_the_wordings_it_rewords(tmp_path):
    from kotc_rulesc.loader import check_rules

    rules = _edited_rules(tmp_path, 16, 'row: {old: "in-play card", new: "on-field minion"}',
                          'row: {old: "in-play cards", new: "on-field minion"}')
    _, problems = check_rules(rules)
    hits = [p for p in problems if "row: old: 'in-play cards' is not in the old wording" in p.message]
    assert hits and hits[0].file.endswith("edition-16.yaml") and hits[0].line > 0


def test_migrating_to_the_17th_refurbishes_and_marks_invalid_cards(tmp_path):
    """`migrate --to 17`: a 13th card's refurbished text is substituted (it keeps its design edition
    and level); a card with no Edition Indicator needs no --from: it is invalid, kept and marked."""
    from click.testing import CliRunner
    from ruamel.yaml import YAML

    from kotc_rulesc.cli import main

    src = tmp_path / "c.yaml"
    src.write_text(
        "cards:\n"
        "  - name: Deck Guardian\n    type: spell\n    edition: 13\n    level: 2\n"
        '    text: "When this card in your deck is destroyed (ghost-play, must pay resource cost): Draw 1 card."\n'
        "  - name: Nameless\n    type: minion\n    sp: 1\n    hp: 1\n    text: \"\"\n"
    )
    out = tmp_path / "out.yaml"
    result = CliRunner().invoke(main, ["migrate", str(src), "--to", "17", "-o", str(out)])
    assert result.exit_code == 1, result.output  # a card stays banned
    cards = YAML(typ="safe").load(out.read_text())["cards"]
    guardian, nameless = cards
    assert guardian["text"] == "When this card in your deck is destroyed (hex-play): Draw 1 card."
    assert guardian["edition"] == 13 and guardian["level"] == 2 and "migration" not in guardian
    assert nameless["migration"]["status"] == "banned"
    assert [r["code"] for r in nameless["migration"]["reasons"]] == ["invalid", "clean-slate"]
    again = tmp_path / "again.yaml"
    assert CliRunner().invoke(main, ["migrate", str(out), "--to", "17", "-o", str(again)]).exit_code == 1
    assert again.read_text() == out.read_text()  # idempotent


def test_show_cites_the_15ths_card_writing_rules_to_documents_written_by_the_15th():
    # edition-12/14/15.yaml cite each rule to every guide that states it (guide-12 … guide-17); the 15th's
    # description cites the 15th's guide and earlier ones, and the 17th's all of them
    from click.testing import CliRunner
    from kotc_rulesc.cli import main

    shown = CliRunner().invoke(main, ["show", "-e", "15"]).output
    rules = shown.split("card-writing rules:", 1)[1].split("\n\n", 1)[0]
    assert "guide-15" in rules and "guide-16" not in rules and "guide-17" not in rules
    assert "(should; guide-15)" in rules  # the agreement, which the 15th restates (with "pawns")
    assert "Rulebook parameters (rulebook-15):" in shown
    assert "guide-17)" in CliRunner().invoke(main, ["show", "-e", "17"]).output.split("card-writing rules:", 1)[1]


def test_show_puts_each_tutorial_rules_modal_after_its_own_words():
    # the 11th-17th guides: tutorial text "must be in parentheses" and "should be rendered in italics"
    from click.testing import CliRunner
    from kotc_rulesc.cli import main

    shown = CliRunner().invoke(main, ["show", "-e", "17"]).output
    assert "    tutorial text in parentheses (must), in italics (should; guide-12, " in shown
    assert "(should) (must;" not in shown
