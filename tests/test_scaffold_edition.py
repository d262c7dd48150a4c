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
from kotc_rulesc.history import edition_summary
from kotc_rulesc.loader import check_rules
from kotc_rulesc.modeline import PREFIX
from kotc_rulesc.scaffold import scaffold_text
from kotc_rulesc.tables import TablesView
from support.loaded import rules_of

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"
#: the newest edition of the bundled rules, and the one a maintainer would publish next
LAST = max(int(p.stem.split("-")[1]) for p in (ROOT / "rules").glob("edition-*.yaml") if p.stem.count("-") == 1)
NEXT = LAST + 1


def nth(n: int) -> str:
    from kotc_rulesc.model import ordinal

    return ordinal(n)


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def copy_rules(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def declare_next_sources(rules: Path) -> None:
    """The next edition's (imagined) guide and rulebook, declared as the base file declares sources."""
    base = rules / "edition-01.yaml"
    text = base.read_text()
    line = next(l for l in text.splitlines() if l.startswith(f"  rulebook-{LAST}:"))
    extra = (f'  guide-{NEXT}: {{file: sources/{NEXT}/card-building-guide.txt, title: "Card Building Guide, {nth(NEXT)} Edition"}}\n'
             f'  rulebook-{NEXT}: {{file: sources/{NEXT}/rulebook.txt, title: "Rulebook, {nth(NEXT)} Edition"}}\n')
    base.write_text(text.replace(line + "\n", line + "\n" + extra, 1))


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
    loaded = rules_of(rules)
    assert loaded.last == 4 and edition_summary(loaded.edition(4)) == "no changes"
    assert fold(loaded, 4).catalog_known


def test_after_an_edition_whose_catalog_is_unknown_the_skeleton_says_unknown_too(tmp_path):
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    declare_next_sources(rules)
    last = rules / f"edition-{LAST:02d}.yaml"
    text = last.read_text()
    if "\ncatalog: whole" in text:
        text = text.replace("catalog: whole  #", "catalog: unknown  #")
    else:
        text = text.replace(f"\nfollows: {LAST - 1}\n", f"\nfollows: {LAST - 1}\ncatalog: unknown\n", 1)
    last.write_text(text)
    result = invoke("new-edition", str(NEXT), "--rules", str(rules))
    assert result.exit_code == 0, result.output
    text = (rules / f"edition-{NEXT}.yaml").read_text()
    assert "\ncatalog: unknown\n" in text and "Delete this line only when a source gives this edition's" in text
    loaded = rules_of(rules)
    assert not fold(loaded, NEXT).catalog_known  # never a silent guess that an older catalog still holds
    assert f"#   source: rulebook-{LAST}" in text and '#   terms: {creature: "minion"' in text
    assert f"# This edition's documents are declared there: guide-{NEXT}, rulebook-{NEXT}." in text


def test_the_next_edition_is_scaffolded_in_the_last_ones_system(tmp_path):
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    result = invoke("new-edition", str(NEXT), "--rules", str(rules))
    assert result.exit_code == 0, result.output
    text = (rules / f"edition-{NEXT}.yaml").read_text()
    loaded = rules_of(rules)
    system = fold(loaded, LAST).system
    # the example of a new component is of the kind whose formula adds to the figure (the effects)
    adds = next(k.id for k in system.kinds if k.role == "cost" and k.place != "card")
    assert f"#     kind: {adds}" in text and f"# {' | '.join(system.kind_ids)}" in text
    assert f"#   - id: {adds}-gain-level" in text
    for name, f in fold(loaded, LAST).cost_rule.parts():
        assert f'#   {name}: "{f.notation()}"' in text
    assert "catalog: unknown" not in text.replace("# catalog: unknown", "")
    assert fold(loaded, NEXT).system == system
    result = invoke("cost", "-e", str(NEXT), "--rules", str(rules), "--format", "json", "--type", "minion",
                    "--sp", "2", "--hp", "7", "--text", "GREED: Draw 2 cards.")
    same = invoke("cost", "-e", str(LAST), "--rules", str(rules), "--format", "json", "--type", "minion",
                  "--sp", "2", "--hp", "7", "--text", "GREED: Draw 2 cards.")
    assert result.exit_code == 0 and same.exit_code == 0, result.output + same.output
    assert json.loads(result.output)["level"] == json.loads(same.output)["level"]  # nothing changed yet


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
    # a half-written file that does not even load is set aside while the rules are read (it holds
    # a line beyond the skeleton, so --force needs --discard-changes, and it is kept as .bak)
    path.write_text("edition: 4\nfollows: [")
    forced = invoke("new-edition", "4", "--rules", str(rules), "--force", "--discard-changes")
    assert forced.exit_code == 0 and "Replaced" in forced.output
    # (the schema its first line names is beside it; the commands its comments name take --rules)
    assert path.read_text() == f"{PREFIX}edition.schema.json\n" + scaffold_text(rules_of(MINI), 4, f" --rules {rules}")
    assert (rules / "edition-04.yaml.bak").read_text() == "edition: 4\nfollows: ["


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
    """Publish the next edition, which triples the formula of "draw [x] cards." and redacts
    "[x]-dice-heal yourself.": its catalog is the last edition's plus this file's changes (levels:
    a spell is its ability, the sum of its effects; x = 2 and x = 3 here)."""
    rules = copy_rules(ROOT / "rules", tmp_path / "rules")
    last = fold(rules_of(rules), LAST)
    by_text = {str(c.text): c for c in last.components}
    draw, heal = by_text["draw [x] cards."], by_text["[x]-dice-heal yourself."]
    old = draw.formula.evaluate({"x": 2})  # the last edition's "Draw 2 cards."
    declare_next_sources(rules)
    assert invoke("new-edition", str(NEXT), "--rules", str(rules)).exit_code == 0
    path = rules / f"edition-{NEXT}.yaml"
    text = path.read_text().replace(f"# source: [guide-{NEXT}, rulebook-{NEXT}]", f"source: guide-{NEXT}")
    path.write_text(text)
    cards = {
        "draw": spell("Draw 2 cards.", LAST, int(old)),
        "draw-next": spell("Draw 2 cards.", NEXT, int(3 * old)),  # 3 × the old formula
        "heal": spell("3-dice-heal yourself.", LAST, int(heal.formula.evaluate({"x": 3}))),
    }
    before = rules_of(rules)
    assert {k: judge(c, NEXT, _view(before)).status for k, c in cards.items()} == {"draw": "legal", "draw-next": "banned", "heal": "legal"}

    tripled = f"3({draw.formula.notation()})" if len(draw.formula.notation()) > 1 else f"3{draw.formula.notation()}"
    path.write_text(
        text.replace("cost_revisions: []", f'cost_revisions:\n  - component: {draw.id}\n    formula: "{tripled}"')
        .replace("redactions: []", f"redactions:\n  - component: {heal.id}")
    )
    checked = invoke("check", "--rules", str(rules))
    assert checked.exit_code == 0, checked.output
    now = fold(rules_of(rules), NEXT).by_id()[draw.id].formula.notation()

    out = tmp_path / "generated"
    built = invoke("build", "--rules", str(rules), "--out", str(out))
    assert built.exit_code == 0, built.output

    # the diff: exactly the two changes
    diff = invoke("diff", str(LAST), str(NEXT), "--rules", str(rules))
    assert diff.exit_code == 0, diff.output
    assert f"Components redacted (1):\n  [Effects] “[x]-dice-heal yourself.”: legal → redacted ({nth(NEXT)} Edition)\n" in diff.output
    assert f"Formulas changed (1):\n  [Effects] “draw [x] cards.”: {draw.formula.notation()} → {now}" in diff.output
    assert "reworded" not in diff.output and "Limits changed" not in diff.output and "system" not in diff.output.lower()
    # … from the 11th, the clean slates and the new system between
    d11 = invoke("diff", "11", str(NEXT), "--rules", str(rules))
    assert d11.exit_code == 0 and "Clean slate crossed: the 12th Edition" in d11.output

    # the documents, as the build wrote them
    page = (out / "docs" / f"edition-{NEXT}.md").read_text()
    assert f"- ({now}) “draw [x] cards.”\n  - Cost Revised ({nth(NEXT)} Edition); was: {draw.formula.notation()}\n" in page
    assert f"- ~~({heal.formula.notation()}) “[x]-dice-heal yourself.”~~ Redacted ({nth(NEXT)} Edition)\n" in page
    assert f"- “[x]-dice-heal yourself.” (Redacted, {nth(NEXT)} Edition)" in page and f"- “draw [x] cards.” ({nth(NEXT)} Edition)" in page
    log = (out / "docs" / f"changelog-{NEXT}.md").read_text()
    assert f"- “draw [x] cards.”: {draw.formula.notation()} → {now}" in log
    assert f"- “[x]-dice-heal yourself.” (Effects; {nth(NEXT)} Edition)" in log
    assert f"edition-{NEXT}.html" in (out / "docs" / "index.html").read_text()

    # the legality of the affected cards changes, on the built tables as on the rules
    for view in (_view(rules_of(rules)), TablesView.from_directory(out)):
        verdicts = {k: judge(c, NEXT, view) for k, c in cards.items()}
        assert verdicts["draw"].status == "banned" and [r.code for r in verdicts["draw"].reasons] == ["cost-revised"]
        assert verdicts["draw-next"].status == "legal" and verdicts["draw-next"].cost == 3 * old
        assert verdicts["heal"].status == "banned" and [r.code for r in verdicts["heal"].reasons] == ["redacted"]
        assert judge(cards["draw"], LAST, view).status == "legal"  # the last edition is untouched


def _view(rules):
    from kotc_rulesc.view import FoldedRules

    return FoldedRules(rules)


def test_the_bundled_rules_are_unchanged_by_these_tests():
    rules, problems = check_rules(ROOT / "rules")
    assert rules is not None and not problems, problems
    assert not (ROOT / "rules" / f"edition-{NEXT}.yaml").exists()
