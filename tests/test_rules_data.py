"""The bundled rules reproduce the seed documents, and fold correctly to every edition."""

import json

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules, load_rules

from support.game_documents import seed_guide_entries, seed_rulebook_lists
from support.loaded import rules_of


@pytest.fixture(scope="module")
def rules():
    return rules_of()


def show_json(edition: int) -> dict:
    result = CliRunner().invoke(main, ["show", "--edition", str(edition), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_bundled_rules_check_clean():
    rules, problems = check_rules()
    assert problems == [], "\n".join(map(str, problems))
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0 and result.output.startswith("ok:")


def test_show_11_pre_rulebook_lists_match_the_seeds_11th_rulebook():
    lists = show_json("11-pre")["rulebook"]
    seed = seed_rulebook_lists("rulebook-11th.txt")
    silent = "You can remove"  # the 2nd guide's silent rewordings: in no rulebook's list
    revised = [(r["old"], r["new"]) for r in lists["revised_text"] if silent not in r["old"]]
    assert sorted(revised) == sorted((o, n) for o, n, _, _ in seed.revised)
    assert sorted(r["text"] for r in lists["redacted"]) == sorted(t for t, _ in seed.redacted)
    assert sorted((r["text"], r["edition"]) for r in lists["revised_costs"]) == sorted(seed.costs)


def test_show_6_rulebook_lists_match_the_seeds_6th_rulebook():
    lists = show_json(6)["rulebook"]
    seed = seed_rulebook_lists("rulebook-6th.txt")
    silent = "You can remove"
    revised = [(r["old"], r["new"]) for r in lists["revised_text"] if silent not in r["old"]]
    assert sorted(revised) == sorted((o, n) for o, n, _, _ in seed.revised)
    assert sorted(r["text"] for r in lists["redacted"]) == sorted(t for t, _ in seed.redacted)
    assert sorted((r["text"], r["limit"]) for r in lists["revised_limits"]) == sorted(seed.limits)
    assert lists["revised_costs"] == []


def test_show_6_components_fold_back_in_time():
    comps = {c["text"]: c for c in show_json(6)["components"]}
    assert comps["Activate in response to an opponent's summon."]["status"] == "legal"
    assert comps["Target up to [x] of your resources."]["revised_from"] == [
        {"text": "Target up to [x] resources.", "edition": 6, "binds": {}}
    ]
    assert comps["Pay [x] hitpoints."]["limits"] == {"x": 14}
    assert comps["Pay [x] hitpoints."]["limits_revised"] == [{"edition": 6, "limits": "x≤14"}]
    assert comps["Activate when you take damage."]["formula"] == "1"  # x/5 only with the 8th's wording
    reroll = comps["You may re-roll up to [x] dice in the current chain up to [y] times each."]
    assert (reroll["status"], reroll["formula"]) == ("legal", "xy")


def test_show_text_says_a_formula_change_no_list_names_and_what_a_limit_was():
    # the 16th's "self-destroy [x] resources→" x/2 → x is `listed: false` (it prunes no card): show said
    # "Cost Revised (16th)" where diff and the docs say "in no rulebook list"; and a limit revision showed the
    # new limit alone where the guide says 'Limit revised (6th Edition); was: {no limit}'
    sixteenth = CliRunner().invoke(main, ["show", "--edition", "16"]).output
    assert ('"self-destroy [x] resources→"\n      Formula changed (16th; in no rulebook list: it prunes no card); was: x/2\n'
            in sixteenth)
    assert '"sheathe the targets."\n      Cost Revised (16th); was: t\n' in sixteenth
    sixth = CliRunner().invoke(main, ["show", "--edition", "6"]).output
    assert '"Pay [x] hitpoints."\n      Limit Revised (6th): {x≤14}; was: no limit\n' in sixth


def test_components_appear_in_the_edition_that_introduces_them():
    kinds = {c["kind"] for c in show_json(1)["components"]}
    assert "caveat" not in kinds  # caveats came in the 2nd
    texts = {c["text"] for c in show_json(9)["components"]}
    assert not any("to attack with, defend with, or use an ability" in t for t in texts)  # the 10th's
    assert any("to attack with, defend with, or use an ability" in c["text"] for c in show_json(10)["components"])


@pytest.mark.parametrize(
    "edition, text, formula",
    [
        (8, "Destroy all targets.", "8t"),
        (8, "Draw [x] cards.", "4x"),
        (9, "Draw [x] cards.", "2x"),
        (10, "Destroy all targets.", "8t"),
        ("11-pre", "Destroy all targets.", "3t"),
        (7, "Activate when you take damage.", "1"),
        (8, "Activate when you take at least [x] damage.", "x/5"),
        (8, "This creature cannot attack.", "1"),
        (9, "This creature cannot attack.", "2"),
    ],
)
def test_formulas_fold_to_each_edition(rules, edition, text, formula):
    by_text = {str(c.text): c for c in fold(rules, edition).components}
    assert by_text[text].formula.notation() == formula


def test_the_reroll_redaction_is_dated_by_the_7th_guide(rules):
    def status(n):
        return next(c.status for c in fold(rules, n).components if c.id.startswith("effect-reroll") and "current chain" in str(c.text))

    assert [status(n) for n in (6, 7, 10, "11-pre")] == ["legal", "redacted", "redacted", "redacted"]


def test_the_published_11th_is_a_clean_slate_and_the_pre_release_a_branch():
    published, pre = show_json(11), show_json("11-pre")
    assert published["clean_slate"] is True and len(published["components"]) == 96  # its own catalog only
    assert published["system"]["figure"] == {"name": "level", "title": "level", "parts": "cost"}  # "To determine an ability cost"
    assert pre["clean_slate"] is False and pre["pre_release"] is True and pre["follows"] == 10
    assert len(pre["components"]) == 109


def test_twelfth_is_a_clean_slate_with_a_whole_new_catalog():
    shown = show_json(12)
    assert shown["catalog_known"] is True and shown["clean_slate"] is True
    kinds = [c["kind"] for c in shown["components"]]
    # the 12th guide's four lists: 14 activation conditions, 11 activation costs, 9 target
    # selections, 18 effects; no caveats any more
    assert [kinds.count(k) for k in ("condition", "cost", "target", "effect", "caveat")] == [14, 11, 9, 18, 0]
    assert all(c["formula"] is None for c in shown["components"] if c["kind"] == "condition")
    assert [t["id"] for t in shown["system"]["types"]] == ["minion", "spell"]
    assert shown["system"]["sub_ability"] == ["target", "effect"]
    params = shown["rulebook"]["parameters"]
    assert params["terms"]["creature"] == "minion" and params["terms"]["cost"] == "level"
    assert params["starting_hitpoints"] == 35


def test_rulebook_parameters_as_the_rulebooks_state_them():
    p6 = show_json(6)["rulebook"]["parameters"]
    p11 = show_json("11-pre")["rulebook"]["parameters"]
    assert (p6["deck"]["min"], p6["deck"]["max"], p6["starting_hitpoints"], p6["starting_hand"]) == (40, 60, 60, 5)
    assert (p11["deck"]["min"], p11["deck"]["max"], p11["starting_hitpoints"], p11["reserves"]["max"]) == (40, 40, 20, 10)
    assert p6["edition_indicator"] is False and p11["edition_indicator"] is True
    assert show_json(8)["rulebook"]["parameters"] is None  # no 8th rulebook among the sources
    assert show_json(11)["rulebook"]["parameters"]["starting_hitpoints"] == 35  # the published 11th


def test_card_cost_rule_is_stated_by_every_guide_and_carried_after():
    first, second = show_json(1)["card_cost"], show_json(2)["card_cost"]
    assert first["stated"] is True and first["total_relief"] == "min(20, condition_relief + cost_relief)"
    assert second["stated"] is True and second["total_relief"] == "condition_relief + cost_relief"
    for n in range(1, 11):
        assert show_json(n)["card_cost"]["sources"] == [f"guide-{n:02d}"], n
    assert show_json("11-pre")["card_cost"]["stated"] is True
    assert show_json(11)["card_cost"]["sources"] == ["guide-11"]  # the level rule
    twelfth = show_json(12)["card_cost"]  # the 12th guide's level rule
    assert twelfth["stated"] is True and twelfth["sources"] == ["guide-12"]
    assert twelfth["minion_cost"] == "max(0, ceil(sp + hp/5)) + sum(ability_costs)"


def test_every_fact_cites_a_declared_source(rules):
    for n in [*range(rules.first, rules.newest_with_catalog() + 1), "11-pre"]:
        for c in fold(rules, n).components:
            assert c.sources and set(c.sources) <= set(rules.sources), c.id


def test_show_rejects_an_edition_outside_the_rules():
    result = CliRunner().invoke(main, ["show", "--edition", "99"])
    assert result.exit_code == 2 and "the rules know editions 1–" in result.output


def test_editions_lists_every_edition(rules):
    result = CliRunner().invoke(main, ["editions"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(rules.all_keys) == rules.last - rules.first + 2  # and the 11-pre
    assert lines[10].split()[0] == "11-pre" and "pre-release of the 11th, following the 10th" in lines[10]


def test_show_json_snapshot_of_every_edition(rules, snapshot):
    """`show --format json` of every edition: a change to rules/ shows up as a reviewable diff."""
    for n in rules.all_keys:
        assert show_json(n) == snapshot(name=f"edition-{n:02d}" if isinstance(n, int) else f"edition-{n}")


def test_the_building_pages_word_names_and_the_empty_text_as_each_guide_does():
    """The docs' "How to build a card" pages say how a creature's abilities are named and what it prints
    without one as its edition's guide does: the 5th names them in any case ("it must be designated at
    the beginning of the ability of the paragraph, followed by a colon"), the 6th on in capitals; the
    1st–10th "use the text, “This card has no abilities.”" (must), the published 11th may print it or
    nothing (empty_modal: may, a recorded disagreement)."""
    from kotc_rulesc.docs_building import building_view
    from support.loaded import view_of

    view = view_of()

    def creature_line(edition):
        return building_view([edition], view.catalog(edition))["sections"][0]["items"][0]

    assert "; an ability may be named (NAME: …)." in creature_line(5)
    assert "; an ability may be named in capitals (NAME: …)." in creature_line(6)
    assert "With no ability it prints “This card has no abilities.”" in creature_line(10)
    assert "With no ability it may print “This card has no abilities.”" in creature_line(11)


def test_show_lists_the_disagreements_an_edition_records_about_no_one_component():
    """edition-12.yaml records two disagreements of the 12th guide (one target selection "per ability" but
    one per sub-ability; target selections with a "level increase formula" the level rule does not sum):
    `show` printed neither, though rules/README.md says they are "shown by `show` and in the docs"."""
    def shown(edition):
        return CliRunner().invoke(main, ["show", "-e", str(edition)]).output

    twelfth = shown(12).split("Documents disagree (recorded for the 12th Edition):\n", 1)[1].splitlines()
    assert len(twelfth) == 2 and all(line.startswith("  (guide-12) The 12th guide's ") for line in twelfth)
    assert "'Only 1 target selection can be used per ability'" in twelfth[0]
    assert shown(13).count("\n  (guide-13") == 4 and shown(11).count("\n  (guide-11") == 3
    assert "Documents disagree (recorded" not in shown(10)  # (the 7th's is about a component: under it)


def test_show_help_says_what_the_text_gives_and_what_only_json_does():
    """--help promised "the rulebook's revised/redacted lists", which only the JSON has (the text marks
    each component instead), and named neither the card-building system nor the disagreements it prints."""
    help_text = " ".join(CliRunner().invoke(main, ["show", "--help"]).output.split())
    assert "building system" in help_text and "where the edition's documents disagree" in help_text
    assert "(JSON: also the rulebook's revised/redacted lists)" in help_text
