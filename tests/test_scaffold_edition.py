"""`kotc-rulesc new-edition N`: the next edition's skeleton, and the maintainer's whole path with it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards import judge
from kotc_rulesc.cli import main
from kotc_rulesc.fold import fold
from kotc_rulesc.loader import check_rules, load_rules
from kotc_rulesc.scaffold import scaffold_text
from kotc_rulesc.tables import TablesView

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def copy_rules(src: Path, dst: Path) -> Path:
    if not any(src.glob("edition-*.yaml")):
        pytest.skip(f"{src} holds no rules files yet")
    shutil.copytree(src, dst)
    return dst


# --------------------------------------------------------------------------- the skeleton


def test_the_skeleton_of_the_next_edition_is_valid_as_written(tmp_path):
    rules = copy_rules(MINI, tmp_path / "rules")
    result = invoke("new-edition", "4", "--rules", str(rules))
    assert result.exit_code == 0, result.output
    assert "Wrote" in result.output and "following edition 3" in result.output
    text = (rules / "edition-04.yaml").read_text()
    assert "edition: 4\nfollows: 3\n" in text
    for key in ("text_revisions: []", "redactions: []", "cost_revisions: []", "limit_revisions: []", "components: []", "clean_slate: false", "successors: []"):
        assert f"\n{key}\n" in text
    # the comments teach every kind of change, with the rules' own ids and values
    for taught in ("binds: {x: 5}", "edition: unknown", "after: ", "limits: {x: 7}", "# catalog: unknown", "# rulebook:", "# card_cost:", "successor:"):
        assert taught in text, taught
    assert "#   - component: condition-take-damage" in text and "now: 2x" in text
    loaded = load_rules(rules)
    assert loaded.last == 4 and loaded.edition(4).summary() == "no changes"
    assert fold(loaded, 4).catalog_known


def test_after_an_edition_whose_catalog_is_unknown_the_skeleton_says_unknown_too(tmp_path):
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    twelfth = rules / "edition-12.yaml"
    text = twelfth.read_text()
    start, end = text.index("\ncomponents:\n"), text.index("\n# How a card's level is computed")
    twelfth.write_text((text[:start] + text[end:]).replace("catalog: whole  #", "catalog: unknown  #"))
    result = invoke("new-edition", "13", "--rules", str(rules))
    assert result.exit_code == 0, result.output
    text = (rules / "edition-13.yaml").read_text()
    assert "\ncatalog: unknown\n" in text and "Delete this line only when a source gives this edition's" in text
    loaded = load_rules(rules)
    assert not fold(loaded, 13).catalog_known  # never a silent guess that the 11th's catalog still holds
    assert "#   source: rulebook-12" in text and '#   terms: {creature: "minion"' in text
    assert "# This edition's documents are declared there: guide-13, rulebook-13." in text


def test_the_13th_is_scaffolded_in_the_12th_system(tmp_path):
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    result = invoke("new-edition", "13", "--rules", str(rules))
    assert result.exit_code == 0, result.output
    text = (rules / "edition-13.yaml").read_text()
    assert "#     kind: cost              # condition | cost | target | effect" in text
    assert '#   minion_cost: "max(0, ceil(sp + hp/5)) + sum(ability_costs)"' in text
    assert "catalog: unknown" not in text.replace("# catalog: unknown", "")
    loaded = load_rules(rules)
    assert fold(loaded, 13).system == fold(loaded, 12).system
    card = {"name": "M", "type": "minion", "edition": 13, "sp": 2, "hp": 7, "text": "GREED: Draw 2 cards."}
    result = invoke("cost", "-e", "13", "--rules", str(rules), "--format", "json", "--type", "minion",
                    "--sp", "2", "--hp", "7", "--text", card["text"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["level"] == 6  # ceil(2 + 7/5) = 4, plus draw 2 (x) = 2


def test_only_the_next_edition_can_be_scaffolded(tmp_path):
    rules = copy_rules(MINI, tmp_path / "rules")
    gap = invoke("new-edition", "5", "--rules", str(rules))
    assert gap.exit_code == 2 and "the next edition is 4, not 5" in gap.output
    old = invoke("new-edition", "2", "--rules", str(rules))
    assert old.exit_code == 2 and "edition 2 is already in the rules" in old.output
    assert not (rules / "edition-05.yaml").exists() and (rules / "edition-02.yaml").read_text() == (MINI / "edition-02.yaml").read_text()


def test_an_existing_file_is_replaced_only_with_force(tmp_path):
    rules = copy_rules(MINI, tmp_path / "rules")
    assert invoke("new-edition", "4", "--rules", str(rules)).exit_code == 0
    path = rules / "edition-04.yaml"
    path.write_text(path.read_text().replace("redactions: []", "redactions:\n  - component: effect-draw"))
    again = invoke("new-edition", "4", "--rules", str(rules))
    assert again.exit_code == 2 and "already exists; pass --force" in again.output
    assert "component: effect-draw\n" in path.read_text()
    # a half-written file that does not even load is set aside while the rules are read
    path.write_text("edition: 4\nfollows: [")
    forced = invoke("new-edition", "4", "--rules", str(rules), "--force")
    assert forced.exit_code == 0 and "Replaced" in forced.output
    assert path.read_text() == scaffold_text(load_rules(MINI), 4)


def test_rules_that_do_not_load_are_reported(tmp_path):
    rules = copy_rules(MINI, tmp_path / "rules")
    (rules / "edition-03.yaml").write_text("edition: 3\nfollows: 1\n")
    result = invoke("new-edition", "4", "--rules", str(rules))
    assert result.exit_code == 1 and "follows: 1, but the previous main-line rules file is edition 2" in result.output
    assert not (rules / "edition-04.yaml").exists()


# --------------------------------------------------------------------------- the maintainer's path



def spell(text: str, edition: int, level: int) -> dict:
    """A spell of the 12th's system, which prints a level."""
    return {"name": "Test Spell", "type": "spell", "text": text, "edition": edition, "level": level}


def test_the_maintainers_path_scaffold_edit_build_diff_docs_legality(tmp_path):
    """Publish a 13th edition that revises the formula of "draw [x] cards." and redacts
    "[x]-dice-heal yourself.": its catalog is the 12th's plus this file's changes (levels: a
    spell is its ability, max(1, ceil(sub-abilities - activation costs)))."""
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    assert invoke("new-edition", "13", "--rules", str(rules)).exit_code == 0
    path = rules / "edition-13.yaml"
    text = path.read_text().replace("# source: [guide-13, rulebook-13]", "source: guide-13")
    path.write_text(text)
    cards = {
        "draw": spell("Draw 2 cards.", 12, 2),  # x = 2
        "draw-13": spell("Draw 2 cards.", 13, 4),  # 2x = 4
        "heal": spell("3-dice-heal yourself.", 12, 3),  # x = 3
    }
    before = load_rules(rules)
    assert {k: judge(c, 13, _view(before)).status for k, c in cards.items()} == {"draw": "legal", "draw-13": "banned", "heal": "legal"}

    path.write_text(
        text.replace("cost_revisions: []", 'cost_revisions:\n  - component: effect-draw-cards\n    formula: "2x"')
        .replace("redactions: []", "redactions:\n  - component: effect-dice-heal-yourself")
    )
    checked = invoke("check", "--rules", str(rules))
    assert checked.exit_code == 0, checked.output

    out = tmp_path / "generated"
    built = invoke("build", "--rules", str(rules), "--out", str(out))
    assert built.exit_code == 0, built.output

    # the diff: exactly the two changes
    d12 = invoke("diff", "12", "13", "--rules", str(rules))
    assert d12.exit_code == 0, d12.output
    assert "Components redacted (1):\n  [Effects] “[x]-dice-heal yourself.”: legal → redacted (13th Edition)\n" in d12.output
    assert "Formulas changed (1):\n  [Effects] “draw [x] cards.”: x → 2x" in d12.output
    assert "reworded" not in d12.output and "Limits changed" not in d12.output and "system" not in d12.output.lower()
    # … from the 11th, the clean slate and the new system between
    d11 = invoke("diff", "11", "13", "--rules", str(rules))
    assert d11.exit_code == 0 and "Clean slate crossed: the 12th Edition" in d11.output

    # the documents, as the build wrote them
    page = (out / "docs" / "edition-13.md").read_text()
    assert "- (2x) “draw [x] cards.”\n  - Cost Revised (13th Edition); was: x\n" in page
    assert "- ~~(x) “[x]-dice-heal yourself.”~~ Redacted (13th Edition)\n" in page
    assert "- “[x]-dice-heal yourself.” (Redacted, 13th Edition)" in page and "- “draw [x] cards.” (13th Edition)" in page
    log = (out / "docs" / "changelog-13.md").read_text()
    assert "- “draw [x] cards.”: x → 2x" in log
    assert "- “[x]-dice-heal yourself.” (Effects; 13th Edition)" in log
    assert "edition-13.html" in (out / "docs" / "index.html").read_text()

    # the legality of the affected cards changes, on the built tables as on the rules
    for view in (_view(load_rules(rules)), TablesView.from_directory(out)):
        verdicts = {k: judge(c, 13, view) for k, c in cards.items()}
        assert verdicts["draw"].status == "banned" and [r.code for r in verdicts["draw"].reasons] == ["cost-revised"]
        assert verdicts["draw-13"].status == "legal" and verdicts["draw-13"].cost == 4
        assert verdicts["heal"].status == "banned" and [r.code for r in verdicts["heal"].reasons] == ["redacted"]
        assert judge(cards["draw"], 12, view).status == "legal"  # the 12th is untouched


def _view(rules):
    from kotc_rulesc.view import FoldedRules

    return FoldedRules(rules)


def test_the_bundled_rules_are_unchanged_by_these_tests():
    rules, problems = check_rules(ROOT / "rules")
    if rules is None and not problems:
        pytest.skip("no bundled rules")
    assert not (ROOT / "rules" / "edition-13.yaml").exists()
