"""Broken rules files get precise, located messages — all at once, never a traceback."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules

MINI = Path(__file__).parent / "fixtures" / "mini_rules"


def broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / file
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return root


def line_of(root: Path, file: str, needle: str) -> int:
    for i, line in enumerate((root / file).read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_the_fixture_is_clean():
    rules, problems = check_rules(MINI)
    assert problems == [] and rules is not None


CASES = [
    # (file, old, new, needle on the reported line, words in the message)
    ("edition-01.yaml", 'formula: "4x"', 'formula: "4x/"', 'formula: "4x/"', "does not parse"),
    ("edition-01.yaml", 'formula: "x/5"', 'formula: "y/5"', 'formula: "y/5"', "the text has no [y]"),
    ("edition-01.yaml", 'text: "Pay [x] hitpoints."\n    formula: "x"', 'text: "Pay [x] hitpoints."\n    formula: "xt"', 'formula: "xt"', "only in effect formulas"),
    ("edition-02.yaml", "component: effect-draw", "component: effect-drwa", "component: effect-drwa", "unknown component 'effect-drwa'"),
    ("edition-01.yaml", "kind: effect\n    text: \"Draw [x] cards.\"", "kind: efect\n    text: \"Draw [x] cards.\"", "kind: efect", "is not a kind of the card-building system here"),
    ("edition-01.yaml", 'text: "Destroy all targets."', 'text: "Draw [x] card."', 'text: "Draw [x] card."', "duplicate text"),
    # a duplicate a text revision makes is said at the revision, not at the other component's declaration
    ("edition-02.yaml", 'text: "Activate when you take at least [x] damage."', 'text: "Pay [x] hitpoints."', 'text: "Pay [x] hitpoints."', "duplicate text in the 2nd edition"),
    ("edition-01.yaml", "limits: {x: unknown}", "limits: {w: 3}", "limits: {w: 3}", "is not one of: x, y, z"),
    ("edition-01.yaml", "limits: {x: unknown}", "limits: {z: 3}", "limits: {z: 3}", "a limit on [z]"),
    ("edition-03.yaml", "edition: 3\nfollows: 2", "edition: 3\nfollows: 1", "follows: 1", "follows: 1, but the previous main-line rules file is edition 2"),
    ("edition-02.yaml", "source: guide\ntext_revisions:", "source: guide\nsource: rulebook\ntext_revisions:", "source: rulebook", "duplicate key"),
    ("edition-01.yaml", "    source: guide\n  - id: effect-draw", "    sorce: guide\n  - id: effect-draw", "sorce: guide", "unknown key 'sorce'"),
    # an event's own key mistyped was "unknown key 'component'" (its first key), the hint its kind's keys alone
    ("edition-02.yaml", "    edition: unknown\n    source: rulebook", "    edition: unknown\n    sorce: rulebook", "sorce: rulebook", "unknown key 'sorce'"),
    ("edition-02.yaml", '    formula: "2x"', '    formula: "2x"\n    nte: x', "nte: x", "unknown key 'nte'"),
    # an enum of YAML values said "True, False, required, None": what YAML writes true, false and null
    ("edition-02.yaml", "edition_indicator: true", "edition_indicator: requird", "edition_indicator: requird", "'requird' is not one of: true, false, required, null"),
    # a text copied with the guide's quotation marks was accepted, and no card printed it could match it
    ("edition-02.yaml", 'text: "Activate when you take at least [x] damage."', 'text: “Activate when you take at least [x] damage.”', "text: “Activate", "keeps the quotation marks the guide prints"),
    ("edition-01.yaml", 'text: "Draw [x] cards."', "text: '\"Draw [x] cards.\"'", "text: '\"Draw", "keeps the quotation marks the guide prints"),
    # a number below the minimum of a field that also takes 'unknown' was "'unknown' was expected"
    ("edition-02.yaml", "limits: {x: 14}", "limits: {x: -1}", "limits: {x: -1}", "limit_revisions.0.limits.x: -1 is less than the minimum of 1"),
    ("edition-02.yaml", "    edition: unknown\n", "    edition: 0\n", "edition: 0", "limit_revisions.0.edition: 0 is less than the minimum of 1"),
    ("edition-03.yaml", "  - component: caveat-cannot-attack\n    formula: \"2\"", "  - component: caveat-cannot-attack\n    formula: \"1\"", 'formula: "1"', "no-op"),
    ("edition-02.yaml", "binds: {x: 5}", "binds: {}", 'text: "Activate when you take at least [x] damage."', "lacks"),
    ("edition-01.yaml", "text: \"Draw [x] cards.\"", "text: \"Draw [w] cards.\"", 'text: "Draw [w] cards."', "unknown variable [w]"),
    ("edition-02.yaml", "source: rulebook\n  players", "source: rulebok\n  players", "source: rulebok", "unknown source 'rulebok'"),
    ("edition-01.yaml", "title: \"Test Guide\"}", "title: \"Test Guide\"", "title:", "is not closed here: add '}'"),
    ("edition-01.yaml", "ability: [condition, cost, target, effect]", "ability: [condition, cost, effect]", "ability: [condition, cost, effect]", "the ability kinds target have no place in it"),
    ("edition-01.yaml", "ability: [condition, cost, target, effect]", "ability: [caveat, condition, cost, target, effect]", "ability: [caveat", "'caveat' has place 'card', not 'ability'"),
    ("edition-01.yaml", "types: [creature]}", "types: [minion]}", "types: [minion]}", "names the card type 'minion'"),
    # the card-cost rule against the system: a name its scope cannot read, a missing scope, a scope the system lacks
    ("edition-02.yaml", "creature_cost: \"max(1, ceil(max(0, offense", "creature_cost: \"max(1, ceil(max(0, sp", "creature_cost:", "unknown name 'sp'"),
    ("edition-02.yaml", '  spell_cost: "max(1, ceil(ability_cost))"', "", "card_cost:", "no spell_cost formula"),
    ("edition-02.yaml", '  spell_cost: "max(1, ceil(ability_cost))"', '  spell_cost: "max(1, ceil(ability_cost))"\n  minion_cost: "1"', "minion_cost:", "'minion' is not a scope of the system"),
    ("edition-02.yaml", '  spell_cost: "max(1, ceil(ability_cost))"', '  spell_cost: "max(1, ceil(ability_cost))"\n  bonus: "1"', "bonus:", "a helper belongs to the _cost formula that follows it"),
    ("edition-01.yaml", "role: relief}\n    - {id: cost", "role: none}\n    - {id: cost", "formula: \"x/5\"", "has no formula in this system"),
    ("edition-01.yaml", "ability: [condition, cost, target, effect]", "ability: [condition, cost]\n  sub_ability: [target, effect]", "sub_ability: [target", "'target' has place 'ability', not 'sub_ability'"),
]


@pytest.mark.parametrize("cid, hint", [("draw-cards", "effect-draw-cards"), ("efect-draw", "effect-draw"), ("cost-draw", "effect-draw")])
def test_an_id_without_its_kind_is_given_the_id_to_write(tmp_path, cid, hint):
    # the hint dropped the id's first word whatever it was: "gain-level" → "effect-level"
    root = broken(tmp_path, "edition-01.yaml", "  - id: effect-draw\n", f"  - id: {cid}\n")
    _, problems = check_rules(root)
    (problem,) = [p for p in problems if "does not start with its kind 'effect'" in p.message]
    assert problem.hint == hint and problem.line == line_of(root, "edition-01.yaml", f"id: {cid}")


@pytest.mark.parametrize("file, old, new, hint", [
    # a target selection's formula copied as the 11th-17th guides print it, "(t = x)": "write it as the guide does"
    ("edition-01.yaml", 'in play."\n    formula: "x"', 'in play."\n    formula: "(t = x)"', "write the formula alone: 'x' (the guide prints the variable it sets, t =)"),
    # a card-cost formula was told to be written "as the guide does: 2x, 3x/2, ... or 'unknown'" (which it may not be)
    ("edition-02.yaml", 'spell_cost: "max(1, ceil(ability_cost))"', 'spell_cost: "max(1, ceil(ability_cost)"',
     "a card-cost formula reads names, numbers, + - * / and max, min, ceil, sum: max(1, ceil(ability_cost))"),
])
def test_a_formula_that_does_not_parse_is_given_the_hint_for_its_place(tmp_path, file, old, new, hint):
    root = broken(tmp_path, file, old, new)
    _, problems = check_rules(root)
    (problem,) = problems
    assert "does not parse" in problem.message and problem.hint == hint, str(problem)


def test_a_limit_whose_value_no_source_gives_is_a_change_from_no_limit(tmp_path):
    # rules/README.md: `limits: {x: unknown}`, "the variable had a limit whose value no source gives"; on a text
    # with no limit it was refused as "the revision does not change the limits (a no-op delta)"
    root = broken(tmp_path, "edition-03.yaml", "redactions:\n", "limit_revisions:\n  - component: effect-draw\n"
                                                                 "    limits: {x: unknown}\nredactions:\n")
    rules, problems = check_rules(root)
    assert problems == [], [str(p) for p in problems]
    draw = {c.id: c for c in fold(rules, 3).components}["effect-draw"]
    assert draw.limits == {"x": None} and [ch.was for ch in draw.limit_changes] == [{}]
    # and one that restates a limit of unknown value is still a no-op
    _, again = check_rules(broken(tmp_path / "again", "edition-02.yaml", "limits: {x: 14}", "limits: {x: unknown}"))
    assert [p.message for p in again] == ["limits: the revision does not change the limits (a no-op delta)"]


@pytest.mark.parametrize("old, new, hint", [
    # an event written as its component's id alone, and a list written as one mapping: what to write was not said
    ("  - component: effect-draw\n    formula: \"2x\"", "  - effect-draw", "an entry is a mapping: - component: effect-draw"),
    ("cost_revisions:\n  - component: effect-draw\n    formula", "cost_revisions:\n  component: effect-draw\n  formula",
     "a list: begin each entry with '- '"),
])
def test_an_entry_of_the_wrong_shape_is_told_the_shape(tmp_path, old, new, hint):
    root = broken(tmp_path, "edition-02.yaml", old, new)
    _, problems = check_rules(root)
    (problem,) = problems
    assert problem.hint == hint and problem.message.startswith("cost_revisions"), str(problem)


def test_a_limit_revision_on_a_variable_the_text_lacks_is_not_also_a_no_op(tmp_path):
    # {y: 7} on "Pay [x] hitpoints." was reported twice: the missing [y], and "does not change the limits (a no-op delta)"
    root = broken(tmp_path, "edition-02.yaml", "limits: {x: 14}", "limits: {y: 7}")
    _, problems = check_rules(root)
    assert [p.message for p in problems] == ["limits: a limit on [y], which the text 'Pay [x] hitpoints.' does not have"]
    assert problems[0].line == line_of(root, "edition-02.yaml", "limits: {y: 7}")


@pytest.mark.parametrize("file, old, new, needle, words", CASES, ids=[c[4] for c in CASES])
def test_broken_rules_are_reported_with_location(tmp_path, file, old, new, needle, words):
    root = broken(tmp_path, file, old, new)
    rules, problems = check_rules(root)
    assert rules is None
    hits = [p for p in problems if words in p.message]
    assert hits, [str(p) for p in problems]
    problem = hits[0]
    assert problem.file.endswith(file)
    assert not any("unknown key 'component'" in p.message or "'unknown' was expected" in p.message for p in problems), problems
    # a kind mistyped ("efect") also said "id: 'effect-draw' does not start with its kind 'efect' (hint: efect-draw)"
    assert not any("does not start with its kind" in p.message for p in problems), problems
    if "is not closed here" not in words:  # (said where the '}' is missing, the line after)
        assert problem.line == line_of(root, file, needle), str(problem)
        assert problem.column >= 1


def test_editions_out_of_order(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    (root / "edition-03.yaml").rename(root / "edition-00.yaml")
    _, problems = check_rules(root)
    messages = " | ".join(str(p) for p in problems)
    assert "first rules file must be the base edition" in messages
    assert "edition: 3 but the file is named edition-00.yaml" in messages


def test_an_edition_number_that_is_not_its_files_offers_both_fixes(tmp_path):
    # "edition: 4" in edition-03.yaml (a typo) was told only "rename it edition-04.yaml": done, the 3rd is skipped
    # and the file checks clean as a 4th
    root = broken(tmp_path, "edition-03.yaml", "edition: 3\n", "edition: 4\n")
    _, problems = check_rules(root)
    (problem,) = problems
    assert problem.hint == "rename it edition-04.yaml, or write edition: 3", str(problem)


@pytest.mark.parametrize("name", ["edition-02 copy.yaml", "notes.yaml"])
def test_a_misnamed_yaml_file_is_named_and_not_read_as_an_edition(tmp_path, name):
    # an editor's copy of edition-02.yaml was also read as a second 2nd edition: "editions out of order: edition 2
    # comes after edition 2", "follows: 1, but the previous main-line rules file is edition 2", duplicate ids...
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    shutil.copy(root / "edition-02.yaml", root / name)
    _, problems = check_rules(root)
    assert [(Path(p.file).name, p.message) for p in problems] == [
        (name, f"rules file names look like edition-NN.yaml, not {name!r}")], [str(p) for p in problems]
    assert "move it out of the rules folder" in problems[0].hint


def test_every_problem_is_reported_at_once(tmp_path):
    root = broken(tmp_path, "edition-01.yaml", 'formula: "4x"', 'formula: "4q"')
    text = (root / "edition-02.yaml").read_text().replace("component: effect-draw", "component: effect-nope")
    (root / "edition-02.yaml").write_text(text)
    _, problems = check_rules(root)
    assert any("edition-01.yaml" in p.file for p in problems)
    assert any("edition-02.yaml" in p.file for p in problems)


@pytest.mark.parametrize("content, code", [
    # a file the input policy cannot read (empty, binary, not UTF-8, not YAML): 2, as a collection
    (b"", 2), (b"\x00\x01\x02binary", 2), (b"\xff\xfe bad utf8", 2), (b"edition: [1", 2),
    # YAML that reads, but is no edition file: a problem in the rules, 1
    (b"- just\n- a list\n", 1),
])
def test_garbage_files_never_traceback(tmp_path, content, code):
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    (root / "edition-02.yaml").write_bytes(content)
    result = CliRunner().invoke(main, ["check", "--rules", str(root)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "edition-02.yaml" in result.output


def test_check_command_exit_codes(tmp_path):
    assert CliRunner().invoke(main, ["check", "--rules", str(MINI)]).exit_code == 0
    root = broken(tmp_path, "edition-01.yaml", 'formula: "4x"', 'formula: "4x/"')
    result = CliRunner().invoke(main, ["check", "--rules", str(root)])
    assert result.exit_code == 1
    assert "edition-01.yaml:" in result.output and "does not parse" in result.output


@pytest.mark.parametrize("line, words", [
    # a bind of a variable the successor's text lacks
    ("  - {component: effect-draw, successor: effect-draw-deck, binds: {y: 1}}",
     "binds: the successor's text 'Draw [x] cards from your deck.' has no [y]"),
    # a successor with a variable the old text lacks and no bind: no card could be written in its words
    ("  - {component: effect-destroy-all-targets, successor: effect-draw-deck}",
     "successor: its text 'Draw [x] cards from your deck.' has [x], which effect-destroy-all-targets's"),
])
def test_a_successor_a_card_cannot_be_written_in_is_located(tmp_path, line, words):
    """check said "ok" to both; migrate then crossed the clean slate with an unused bind, or banned every
    card with the old text ("no successor") though one was declared."""
    rules = tmp_path / "rules"
    shutil.copytree(Path(__file__).parent / "fixtures" / "migrate" / "rules", rules)
    fifth = rules / "edition-05.yaml"
    text = fifth.read_text()
    old = next(l for l in text.splitlines() if l.startswith("  - {component: " + line.split()[2]))
    fifth.write_text(text.replace(old, line, 1))
    _, problems = check_rules(rules)
    (problem,) = problems
    assert words in problem.message and problem.line == fifth.read_text().splitlines().index(line) + 1, str(problem)
