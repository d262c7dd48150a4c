"""The bundled rules reproduce the seed documents, and fold correctly to every edition."""

import json

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules, load_rules

from seed_documents import guide_components, rulebook_lists


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def show_json(edition: int) -> dict:
    result = CliRunner().invoke(main, ["show", "--edition", str(edition), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_bundled_rules_check_clean():
    rules, problems = check_rules()
    assert problems == [], "\n".join(map(str, problems))
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0 and result.output.startswith("ok:")


def test_show_11_lists_every_guide_component_with_its_history():
    shown = show_json(11)
    by_text = {c["text"]: c for c in shown["components"]}
    guide = guide_components()
    assert len(guide) == 108
    for g in guide:
        c = by_text.get(g.text)
        assert c is not None, g.text
        assert c["kind"] == g.kind, g.text
        assert c["formula"] == g.formula, g.text
        assert c["limits"] == g.limits, g.text
        assert c["redacted_in"] == g.redacted, g.text
        assert c["status"] == ("redacted" if g.redacted else "legal"), g.text
        assert [(r["text"], r["edition"]) for r in c["revised_from"]] == g.revised_from, g.text
        assert [(r["edition"], r["was"]) for r in c["cost_revised"]] == g.cost_revised, g.text
    # the one component only the 11th rulebook's Redacted list names: formula and edition unknown
    extra = [c for c in shown["components"] if c["text"] not in {g.text for g in guide}]
    assert [c["text"] for c in extra] == ["You may re-roll up to [x] dice in the current chain up to [y] times each."]
    assert extra[0]["formula"] is None and extra[0]["redacted_in"] is None and extra[0]["status"] == "redacted"


def test_show_11_rulebook_lists_match_the_11th_rulebook():
    lists = show_json(11)["rulebook"]
    seed = rulebook_lists("rulebook-11th.txt")
    assert sorted((r["old"], r["new"]) for r in lists["revised_text"]) == sorted((o, n) for o, n, _, _ in seed["revised"])
    assert sorted(r["text"] for r in lists["redacted"]) == sorted(seed["redacted"])
    assert lists["revised_limits"] == [] and seed["limits"] == []
    assert sorted((r["text"], r["edition"]) for r in lists["revised_costs"]) == sorted(seed["costs"])


def test_show_6_rulebook_lists_match_the_6th_rulebook():
    lists = show_json(6)["rulebook"]
    seed = rulebook_lists("rulebook-6th.txt")
    assert sorted((r["old"], r["new"]) for r in lists["revised_text"]) == sorted((o, n) for o, n, _, _ in seed["revised"])
    assert sorted(r["text"] for r in lists["redacted"]) == sorted(seed["redacted"])
    assert sorted((r["text"], r["limit"]) for r in lists["revised_limits"]) == sorted(seed["limits"])
    assert lists["revised_costs"] == []


def test_show_6_components_fold_back_in_time():
    comps = {c["text"]: c for c in show_json(6)["components"]}
    assert comps["Activate in response to an opponent's summon."]["status"] == "legal"
    assert comps["Target up to [x] of your resources."]["revised_from"] == [
        {"text": "Target up to [x] resources.", "edition": 6, "binds": {}}
    ]
    assert comps["Pay [x] hitpoints."]["limits"] == {"x": 14}
    assert comps["Activate when you take damage."]["formula"] == "x/5"
    assert comps["You may re-roll up to [x] dice in the current chain up to [y] times each."]["status"] == "legal"


@pytest.mark.parametrize(
    "edition, text, formula",
    [
        (8, "Destroy all targets.", "8t"),
        (8, "Draw [x] cards.", "4x"),
        (9, "Draw [x] cards.", "2x"),
        (10, "Destroy all targets.", "8t"),
        (11, "Destroy all targets.", "3t"),
        (8, "This creature cannot attack.", "1"),
        (9, "This creature cannot attack.", "2"),
    ],
)
def test_formulas_fold_to_each_edition(rules, edition, text, formula):
    by_text = {str(c.text): c for c in fold(rules, edition).components}
    assert by_text[text].formula.notation() == formula


def test_unknown_redaction_edition_is_unknown_between_the_6th_and_the_11th(rules):
    def status(n):
        return next(c.status for c in fold(rules, n).components if c.id.startswith("effect-reroll") and "current chain" in str(c.text))

    assert [status(n) for n in (6, 7, 10, 11)] == ["legal", "unknown", "unknown", "redacted"]


def test_twelfth_is_a_clean_slate_with_an_unknown_catalog():
    shown = show_json(12)
    assert shown["components"] is None and shown["catalog_known"] is False and shown["clean_slate"] is True
    params = shown["rulebook"]["parameters"]
    assert params["terms"]["creature"] == "minion" and params["terms"]["cost"] == "level"
    assert params["starting_hitpoints"] == 35


def test_rulebook_parameters_as_the_rulebooks_state_them():
    p6 = show_json(6)["rulebook"]["parameters"]
    p11 = show_json(11)["rulebook"]["parameters"]
    assert (p6["deck"]["min"], p6["deck"]["max"], p6["starting_hitpoints"], p6["starting_hand"]) == (40, 60, 60, 5)
    assert (p11["deck"]["min"], p11["deck"]["max"], p11["starting_hitpoints"], p11["reserves"]["max"]) == (40, 40, 20, 10)
    assert p6["edition_indicator"] is False and p11["edition_indicator"] is True
    assert show_json(8)["rulebook"]["parameters"] is None  # no 8th rulebook among the sources


def test_card_cost_rule_is_stated_by_the_11th_guide_only():
    assert show_json(11)["card_cost"]["stated"] is True
    eighth = show_json(8)["card_cost"]
    assert eighth["stated"] is False and eighth["stated_in"] == 11


def test_every_fact_cites_a_declared_source(rules):
    for n in range(rules.first, rules.newest_with_catalog() + 1):
        for c in fold(rules, n).components:
            assert c.sources and set(c.sources) <= set(rules.sources), c.id


def test_show_rejects_an_edition_outside_the_rules():
    result = CliRunner().invoke(main, ["show", "--edition", "99"])
    assert result.exit_code == 2 and "editions 1 to" in result.output


def test_editions_lists_every_edition(rules):
    result = CliRunner().invoke(main, ["editions"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == rules.last - rules.first + 1
    assert "no recorded changes" in lines[3]  # the 4th


def test_show_json_snapshot_of_every_edition(rules, snapshot):
    """`show --format json` of every edition: a change to rules/ shows up as a reviewable diff."""
    for n in range(rules.first, rules.last + 1):
        assert show_json(n) == snapshot(name=f"edition-{n:02d}")
