"""``system:`` and ``rulebook:`` inherit by one rule: a key left out keeps the line's value, a value
replaces it whole, ``null`` removes it; ``rulebook: null`` says no source gives the rulebook."""

import shutil
from pathlib import Path

from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules

MINI = Path(__file__).parent / "fixtures" / "mini_rules"


def third(tmp_path: Path, extra: str):
    """The mini rules with ``extra`` added to the 3rd edition's file: (rules, the 3rd's catalog)."""
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / "edition-03.yaml"
    path.write_text(path.read_text() + extra)
    rules, problems = check_rules(root)
    assert problems == [] and rules is not None, problems
    return rules, fold(rules, 3)


def test_a_rulebook_left_out_is_inherited(tmp_path):
    rules, cat = third(tmp_path, "")
    assert cat.rulebook == fold(rules, 2).rulebook and cat.rulebook.deck.min == 40
    assert rules.edition(2).rulebook_stated and not rules.edition(3).rulebook_stated


def test_a_rulebook_key_left_out_is_inherited_null_removes_it(tmp_path):
    rules, cat = third(tmp_path, "rulebook:\n  source: rulebook\n  deck: {min: 30}\n  starting_hand: null\n")
    rb = cat.rulebook
    assert (rb.deck.min, rb.deck.max) == (30, None)  # a value replaces the whole mapping
    assert rb.players.min == 2 and rb.starting_hitpoints == 20 and rb.edition_indicator is True  # inherited
    assert rb.starting_hand is None  # removed
    assert rules.edition(3).rulebook_stated and fold(rules, 2).rulebook.starting_hand == 5


def test_rulebook_null_says_no_source_gives_it(tmp_path):
    rules, cat = third(tmp_path, "rulebook: null\n")
    assert cat.rulebook is None and not rules.edition(3).rulebook_stated


def test_a_system_key_left_out_is_inherited_null_removes_it(tmp_path):
    rules, cat = third(tmp_path, "system:\n  source: guide\n  agreement: null\n")
    before = fold(rules, 2).system
    assert before.agreement is not None and cat.system.agreement is None
    assert cat.system.naming == before.naming and cat.system.kinds == before.kinds


def test_removing_a_part_others_need_is_reported(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / "edition-03.yaml"
    path.write_text(path.read_text() + "system:\n  source: guide\n  naming: null\n")
    _, problems = check_rules(root)
    assert [p.message for p in problems] == ["system: the abilities of creature, spell may be named, but 'naming:' says not how"]
