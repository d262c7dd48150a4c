"""Pre-release branches: a tree of editions, checked at load, folded per lineage, migrated along one line."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards import judge
from kotc_rulesc.cli import main
from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules
from kotc_rulesc.model import edition_number, ordinal, parse_edition_key
from support.loaded import rules_of, view_of

MINI = Path(__file__).parent / "fixtures" / "mini_rules"

#: a pre-release of the 3rd that follows the 2nd: it revises "Draw [x] cards." its own way and adds
#: a component the main line never has
PRE = """edition: 3
pre_release: true
follows: 2
source: guide
components:
  - id: effect-draw-pre
    kind: effect
    text: "Draw [x] cards, then discard [x] cards."
    formula: "x"
    source: guide
cost_revisions:
  - component: effect-draw
    formula: "3x"
"""


def with_pre(tmp_path: Path, text: str = PRE) -> Path:
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    (root / "edition-03-pre.yaml").write_text(text)
    return root


def test_edition_keys():
    assert parse_edition_key("11-pre") == "11-pre" and parse_edition_key("10") == 10 and parse_edition_key("3rd") == 3
    assert edition_number("11-pre") == 11 and ordinal("11-pre") == "11th pre-release"
    for bad in ("pre", "11-post", "0", ""):
        with pytest.raises(ValueError):
            parse_edition_key(bad)


def test_a_pre_release_is_a_branch_of_its_own(tmp_path):
    rules = rules_of(with_pre(tmp_path))
    assert rules.all_keys == [1, 2, "3-pre", 3] and rules.last == 3
    assert [d.key for d in rules.lineage("3-pre")] == [1, 2, "3-pre"]
    pre, main3 = fold(rules, "3-pre").by_id(), fold(rules, 3).by_id()
    assert str(pre["effect-draw"].formula) == "3x" and "effect-draw-pre" in pre
    # the main line does not see the branch, the branch does not see the main line's 3rd
    assert str(main3["effect-draw"].formula) == "2x" and "effect-draw-pre" not in main3
    assert main3["cost-pay-hitpoints"].status == "redacted" and pre["cost-pay-hitpoints"].status == "legal"


def test_cards_are_judged_and_migrated_along_the_line(tmp_path):
    root = with_pre(tmp_path)
    view = view_of(root)
    card = {"name": "S", "type": "spell", "edition": 3, "cost": 6, "text": "Draw 2 cards."}
    # a card bearing 3 is the pre-release's when judged there: it costs 3x there
    assert judge(card, "3-pre", view).status == "legal"
    assert judge({**card, "cost": 4}, 3, view).status == "legal"
    assert [(p.source, p.target) for p in view.path(1, "3-pre")] == [(1, 2), (2, "3-pre")]
    assert view.path("3-pre", 3) is None
    runner = CliRunner()
    out = runner.invoke(main, ["show", "--edition", "3-pre", "--rules", str(root), "--format", "json"])
    assert out.exit_code == 0 and '"pre_release": true' in out.output
    bad = runner.invoke(main, ["migrate", "-", "--from", "3-pre", "--to", "3", "--rules", str(root)], input="cards: []\n")
    assert bad.exit_code == 2 and "a pre-release is a branch of its own" in bad.output
    cost = runner.invoke(main, ["cost", "-e", "3-pre", "--type", "spell", "--text", "Draw 2 cards.", "--rules", str(root)])
    assert cost.exit_code == 0 and "cost 6 in the 3rd pre-release edition" in cost.output
    unknown = runner.invoke(main, ["show", "--edition", "2-pre", "--rules", str(root)])
    assert unknown.exit_code == 2 and "the rules know editions 1–3, 3-pre" in unknown.output


@pytest.mark.parametrize(
    "text, words",
    [
        (PRE.replace("follows: 2", "follows: 7"), "follows: 7 is not an edition declared before this file"),
        (PRE.replace("follows: 2", "follows: 3"), "follows: 3 is not an edition declared before this file"),
        (PRE.replace("pre_release: true\n", ""), "but the file is named edition-03-pre.yaml"),
        (PRE.replace("edition: 3", "edition: 2"), "a pre-release of the 2nd follows an earlier edition"),
    ],
)
def test_a_broken_tree_is_reported_with_location(tmp_path, text, words):
    rules, problems = check_rules(with_pre(tmp_path, text))
    assert rules is None
    hits = [p for p in problems if words in p.message]
    assert hits, [str(p) for p in problems]
    assert hits[0].file.endswith("edition-03-pre.yaml") and hits[0].line >= 1


def test_the_main_line_cannot_use_a_component_only_a_branch_declares(tmp_path):
    root = with_pre(tmp_path)
    third = root / "edition-03.yaml"
    third.write_text(third.read_text().replace("redactions:\n", "redactions:\n  - component: effect-draw-pre\n", 1))
    rules, problems = check_rules(root)
    assert rules is None
    assert any("which is not an edition this one follows" in p.message for p in problems), [str(p) for p in problems]


def test_a_text_revision_may_not_change_what_the_old_wording_costs(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    second = root / "edition-02.yaml"
    second.write_text(second.read_text().replace("    binds: {x: 5}\n", "    binds: {x: 5}\n    formula: \"x\"\n", 1))
    rules, problems = check_rules(root)
    assert rules is None
    assert any("does not cost the old wording what" in p.message for p in problems), [str(p) for p in problems]


def test_the_newest_known_catalog_is_found_past_an_unknown_one(tmp_path):
    """The default edition of cost/check-cards/migrate: the newest main-line edition whose
    catalog is declared, even after an edition whose catalog no source gives."""
    import shutil

    from kotc_rulesc.loader import load_rules as load

    root = Path(__file__).resolve().parent.parent / "rules"
    rules = tmp_path / "rules"
    shutil.copytree(root, rules)
    twelfth = rules / "edition-12.yaml"
    text = twelfth.read_text()
    start, end = text.index("\ncomponents:\n"), text.index("\n# How a card's level is computed")
    twelfth.write_text((text[:start] + text[end:]).replace("catalog: whole  #", "catalog: unknown  #"))
    loaded = load(rules)
    assert not loaded.edition(12).catalog_known and loaded.edition(13).catalog_known
    assert loaded.newest_with_catalog() == max(e.number for e in loaded.main_line if e.catalog_known) >= 13


def test_an_edition_after_a_whole_catalog_cannot_change_a_component_it_left_behind(tmp_path):
    # the 13th's catalog is whole: the 1st's "Draw [x] cards." (effect-draw) is no component of the 17th, so an 18th
    # that redacts it changed nothing a card can meet; check said "ok" and diff 17 18 "No differences"
    root = tmp_path / "rules"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules", root)
    (root / "edition-18.yaml").write_text("edition: 18\nfollows: 17\nsource: guide-17\nredactions:\n  - component: effect-draw\n")
    rules, problems = check_rules(root)
    assert rules is None
    (problem,) = problems
    assert (Path(problem.file).name, problem.line) == ("edition-18.yaml", 5), str(problem)
    assert "effect-draw is not in this edition's catalog: the 11th edition's catalog is whole" in problem.message
    assert problem.hint == "did you mean 'effect-draw-cards-13'?"


def test_a_file_whose_place_is_refused_is_not_also_blamed_for_its_components(tmp_path):
    # an edition-05 after the 3rd (the 4th skipped): besides "follows: 4 is not an edition declared before this
    # file", each component it named was "declared in edition-01.yaml, which is not an edition this one follows"
    root = tmp_path / "rules"
    shutil.copytree(Path(__file__).resolve().parent / "fixtures" / "mini_rules", root)
    (root / "edition-05.yaml").write_text("edition: 5\nfollows: 4\nsource: guide\nredactions:\n  - component: effect-draw\n"
                                          "  - component: effect-drwa\n")
    rules, problems = check_rules(root)
    assert rules is None
    assert [(p.line, p.message) for p in problems] == [
        (2, "follows: 4 is not an edition declared before this file"),
        (6, "component: unknown component 'effect-drwa'")], [str(p) for p in problems]
