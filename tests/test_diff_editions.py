"""`kotc-rulesc diff A B`: everything that differs between two editions, in four formats."""

from __future__ import annotations

import json
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.diff import DiffOrderError, diff_editions, diff_text
from kotc_rulesc.loader import load_rules
from kotc_rulesc.view import FoldedRules
from support.loaded import rules_of, view_of

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"


def real_view() -> FoldedRules:
    return view_of(ROOT / "rules")


def declared_pairs() -> list[tuple]:
    """(the edition a rules file follows, its edition) for every file but the base: the main line
    and the pre-release branch."""
    if not any((ROOT / "rules").glob("edition-*.yaml")):
        return []
    return [(e.follows, e.key) for e in rules_of(ROOT / "rules").editions if not e.base]


def run(*args: str):
    return CliRunner().invoke(main, ["diff", *args])


@pytest.fixture(scope="module")
def mini() -> FoldedRules:
    return view_of(MINI)


# --------------------------------------------------------------------------- snapshots


@pytest.mark.parametrize("a, b", declared_pairs())
def test_diff_of_consecutive_declared_editions(a, b, snapshot):
    """Every step between two rules files, as `kotc-rulesc diff A B` prints it."""
    assert diff_text(diff_editions(real_view(), a, b)) == snapshot


def test_the_snapshots_cover_every_rules_file():
    pairs = declared_pairs()
    assert pairs[0][0] == 1 and pairs[-1][1] == rules_of(ROOT / "rules").last
    assert (10, "11-pre") in pairs and (10, 11) in pairs


# --------------------------------------------------------------------------- contents


def test_a_formula_change_shows_the_cost_on_sample_values(mini):
    text = diff_text(diff_editions(mini, 1, 2))
    assert "  [Effects] “Draw [x] cards.”: 4x → 2x (x=2: 8 → 4)" in text
    assert "  [Activation Costs] “Pay [x] hitpoints.”: {x ≤ unknown} → {x ≤ 14}" in text
    assert "“Activate when you take {+at least 5+} damage.” (old cards read as x = 5; the new wording: “Activate when you take at least [x] damage.”)" in text
    assert "  Starting hitpoints: unknown → 20" in text
    # a formula without variables shows no sample: its value is the formula
    assert "  [Caveats] “This creature cannot attack.”: 1 → 2\n" in diff_text(diff_editions(mini, 2, 3))


def test_any_earlier_edition_not_only_the_previous_one(mini):
    d = diff_editions(mini, 1, 3)
    assert [c.id for c in d.changes["formulas"]] == ["caveat-cannot-attack", "effect-draw"]
    assert [c.id for c in d.changes["redacted"]] == ["cost-pay-hitpoints"]
    assert [c.id for c in d.changes["reworded"]] == ["condition-take-damage"]
    # the 1st has no rulebook; the 3rd inherits the 2nd's: each of its parameters is new
    assert all(v.before is None for v in d.parameters) and "deck" in [v.name for v in d.parameters]
    assert "No source gives the 1st Edition's rulebook" in diff_text(d)


def test_the_real_rules_between_the_6th_and_the_11th_pre_release():
    d = diff_editions(real_view(), 6, "11-pre")
    (reroll,) = [c for c in d.changes["redacted"] if c.id == "effect-reroll-current-chain"]
    assert (reroll.when.edition, reroll.when.after, reroll.when.by) == (7, None, 7)
    draw = next(c for c in d.changes["formulas"] if c.id == "effect-draw")
    assert (draw.before, draw.after, draw.effect) == ("4x", "2x", {"values": {"x": 2}, "before": "8", "after": "4"})
    (hp,) = [v for v in d.parameters if v.name == "starting_hitpoints"]
    assert (hp.before, hp.after) == (60, 20)
    added = {c.id for c in d.changes["added"]}
    assert added >= {"effect-place-immortality-counters", "effect-all-players-draw"}
    assert not d.changes["status_unknown"]  # every date is known now


def test_a_pre_release_and_the_main_line_diff_across_branches():
    d = diff_editions(real_view(), "11-pre", 12)
    # an 11-pre card bears the Edition Indicator 11: the published 11th's clean slate spares it
    assert d.clean_slates == (12,) and d.catalog_known == (True, True)
    assert run("--format", "json", "10", "11-pre").exit_code == 0


def unknown_twelfth(tmp_path) -> FoldedRules:
    """The bundled rules with the 12th's catalog taken out (catalog: unknown)."""
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    twelfth = rules / "edition-12.yaml"
    text = twelfth.read_text()
    start, end = text.index("\ncomponents:\n"), text.index("\n# How a card's level is computed")
    twelfth.write_text((text[:start] + text[end:]).replace("catalog: whole  #", "catalog: unknown  #"))
    return FoldedRules(load_rules(rules))


def test_crossing_the_clean_slate_into_an_unknown_catalog(tmp_path):
    d = diff_editions(unknown_twelfth(tmp_path), 9, 12)
    assert d.clean_slates == (11, 12) and d.catalog_known == (True, False)
    out = d.to_json()
    assert out["components"] == {k: None for k in ("added", "removed", "reworded", "redacted", "status_unknown", "reinstated", "formulas", "limits")}
    text = diff_text(d)
    assert "Clean slate crossed: the 12th Edition bans every card whose Edition Indicator is missing or older than the 12th." in text
    assert "The 12th Edition's component catalog is unknown" in text
    assert "  creature: creature → minion" in text  # the 9th rulebook says creature


# --------------------------------------------------------------------------- the command


def test_backwards_or_equal_editions_are_a_usage_error():
    result = run("11", "6")
    assert result.exit_code == 2
    assert "a diff runs forwards: A must be an earlier edition than B (got 11 and 6)" in result.output
    assert "run: diff 6 11" in result.output
    assert run("--rules", str(MINI), "2", "2").exit_code == 2
    far = run("--rules", str(MINI), "1", "9")
    assert far.exit_code == 2 and "edition 9 is not in the rules (they hold editions 1, 2, 3)" in far.output
    with pytest.raises(DiffOrderError):
        diff_editions(view_of(MINI), 3, 1)


def test_json_has_one_stable_shape():
    keys = None
    for a, b in declared_pairs() or [(1, 2)]:
        result = run("--format", "json", str(a), str(b))
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert (data["from"], data["to"]) == (a, b)
        shape = (sorted(data), sorted(data["card_cost"]), sorted(data["catalog_known"]))
        assert keys in (None, shape)
        keys = shape
    result = run("--rules", str(MINI), "--format", "json", "1", "3")
    data = json.loads(result.output)
    (rw,) = data["components"]["reworded"]
    assert rw["old_marked"] == "Activate when you take damage."
    assert rw["new_marked"] == "Activate when you take **at least 5** damage."
    assert rw["reading"] == "Activate when you take at least 5 damage." and rw["binds"] == {"x": 5}
    assert rw["new"] == "Activate when you take at least [x] damage."
    (lim,) = data["components"]["limits"]
    assert (lim["before"], lim["after"]) == ({"x": None}, {"x": 14})
    (red,) = data["components"]["redacted"]
    assert red["edition"] == {"edition": 3, "after": None, "by": 3}


def test_markdown_and_html_formats():
    md = run("--rules", str(MINI), "--format", "markdown", "1", "3")
    assert md.exit_code == 0
    assert "- Activation Conditions: “Activate when you take damage.” → “Activate when you take **at least 5** damage.”" in md.output
    assert "- Effects: “Draw \\[x\\] cards.”" not in md.output and "- Effects: “Draw [x] cards.”: 4x → 2x (x=2: 8 → 4)" in md.output
    html = run("--format", "html", "6", "11-pre")
    assert html.exit_code == 0
    parser = html5lib.HTMLParser(strict=True)
    parser.parse(html.output)
    assert "<del>another</del>" in html.output and "<ins>at least 1</ins>" in html.output


def test_the_output_is_deterministic():
    first = [run("--format", f, "1", "12").output for f in ("text", "markdown", "html", "json")]
    assert first == [run("--format", f, "1", "12").output for f in ("text", "markdown", "html", "json")]


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "html"])
def test_the_system_changes_are_said_in_every_format(fmt):
    """10 → 11: the figure becomes a level and caveats "Summon cost:" texts; 11 → 12: minions
    with SP and HP, sub-abilities, activation costs with arrows, a new level rule."""
    for a, b, said in (("10", "11", ["level", "sets a"]),
                       ("11", "12", ["minion", "sp", "hp", "sub-abilities", "sub_ability_cost", "minion_cost", "no formula"])):
        result = run("--format", fmt, a, b)
        assert result.exit_code == 0, result.output
        out = result.output
        if fmt == "json":
            data = json.loads(out)
            assert data["system"], (a, b)
            out = json.dumps(data, ensure_ascii=False)
        out = out.replace("\\_", "_")  # Markdown escapes the underscores of formula names
        for word in said:
            assert word in out, (fmt, a, b, word)


def test_a_reinstatement_is_a_change_of_the_diff():
    """The 8th reinstates what the 7th redacted (recorded as a disagreement in edition-07.yaml):
    the diff 7 → 8 says so, and the 6 → 8 diff, across both, sees no change of status."""
    d = diff_editions(real_view(), 7, 8)
    (back,) = d.changes["reinstated"]
    assert back.text == "Activate when this card as a resource is destroyed by paying this card's resource cost."
    assert "redacted → legal (8th Edition)" in back.line
    assert "Components reinstated (1):" in diff_text(d)
    assert not diff_editions(real_view(), 6, 8).changes["reinstated"]


def test_two_texts_refurbished_into_one_are_both_reworded():
    """The 17th rulebook refurbishes both "When this on-field minion is damaged:" and "When your on-field
    minion(s) (excluding this card) is damaged:" into "When your on-field minion(s) is damaged:" (into:); the
    diff said the first was "no longer in the catalog", as if cards with it were pruned. Across a clean slate
    that drops a catalog whole, a component gone is still gone."""
    d = diff_editions(real_view(), 16, 17)
    assert d.changes["removed"] == ()
    reworded = d.changes["reworded"]
    merged = [c for c in reworded if c.before == "When this on-field minion is damaged:"]
    assert [c.after for c in merged] == ["When your on-field minion(s) is damaged:"]
    reworded = diff_editions(real_view(), 13, 17).changes["reworded"]
    assert [c.after for c in reworded if c.before == "When this in-play card is damaged:"] == [
        "When your on-field minion(s) is damaged:"]
    across = diff_editions(real_view(), 12, 17)  # (the 13th's catalog is whole: the 12th's texts are gone)
    assert not across.changes["reworded"]
    assert "When this in-play card is damaged:" in [c.text for c in across.changes["removed"]]


def test_every_event_kind_describes_itself():
    """Each kind of history event owns its descriptions: its changelog heading and intro, its
    diff sections (every one printed, in the kinds' order) and its skeleton comment."""
    from kotc_rulesc.diff import SECTIONS
    from kotc_rulesc.history import KINDS

    assert [key for key, _ in SECTIONS[2:]] == [key for kind in KINDS for key, _ in kind.diff_sections]
    for kind in KINDS:
        assert kind.heading and kind.intro and kind.skeleton and kind.diff_sections, kind.key


def test_a_rule_only_later_rulebooks_state_is_none_not_unknown_where_a_rulebook_lacks_it():
    """The 16th rulebook has no Ultra Points and the 15th no rule on cards older than a cost revision:
    a known rulebook without them says "(none)", as the edition pages leave them out; "unknown" stays
    for a rulebook no source gives (the 8th)."""
    out = run("16", "17").output
    assert "Ultra Points per deck (at most): (none) → 10" in out and "unknown → 10" not in out
    assert "Cards older than a cost revision of one of their texts: (none) → prune" in run("15", "16").output
    assert "Cards older than a cost revision of one of their texts: unknown → reissue" in run("8", "9").output
    data = json.loads(run("--format", "json", "16", "17").output)
    assert {"name": "deck_ultra_points", "before": "(none)", "after": 10} in data["parameters"]


def test_a_formula_a_rewording_gave_a_variable_is_sampled_as_old_cards_read_it():
    """The 8th rewords five conditions to take an [x] and their formula 1 → x (x/5 for damage); old
    cards read as x = 1 (x = 5), so their cost stays 1: the diff said "(x=2: 1 → 2)"."""
    out = run("7", "8").output
    assert "“Activate when at least [x] cards in your deck are destroyed.”: 1 → x (old cards read as x = 1: 1 → 1)" in out
    assert "“Activate when you take at least [x] damage.”: 1 → x/5 (old cards read as x = 5: 1 → 1)" in out
    assert "(x=2: 1 → 2)" not in out and "(x=2: 1 → 0.4)" not in out
    assert "4x → 2x (x=2: 8 → 4)" in run("--rules", str(MINI), "1", "3").output  # (no rewording: the sample)
    data = json.loads(run("--format", "json", "7", "8").output)
    assert data["components"]["formulas"][0]["sample"] == {"values": {"x": 1}, "before": "1", "after": "1"}


def test_an_added_ultra_text_shows_its_ultra_points():
    """`diff 16 17` listed the 17th's ultra texts as plain ones ("(no formula) “When enemy summons a
    minion:”"): their Ultra Points, "[+2]" in the 17th guide, were in no format."""
    out = run("16", "17").output
    assert "[Activation Conditions] (no formula) [+2] “When enemy summons a minion:”" in out
    assert "[Activation Conditions] (no formula) “When enemy defends, after Defense Formation:”" in out
    added = json.loads(run("--format", "json", "16", "17").output)["components"]["added"]
    ultra = {c["text"]: c["ultra"] for c in added}
    assert ultra["When enemy summons a minion:"] == 2 and ultra["When enemy defends, after Defense Formation:"] == 0


def test_the_help_says_what_the_diff_samples_and_compares():
    """--help said every formula change is costed on x=2 (not so where a rewording added the variable:
    7 → 8) and left out the card-building system, which the diff compares (10 → 11, 11 → 12)."""
    help_text = " ".join(run("--help").output.split())
    assert "a variable a rewording added, at the value old cards read it as" in help_text
    assert "the card-building system;" in help_text
