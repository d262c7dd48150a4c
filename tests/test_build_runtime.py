"""The commands run on the compiled tables that answer for their rules: same answers as folding
the YAML, no YAML read; rules that changed since their tables were built are read from the YAML."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from kotc_rulesc.cards.rules_source import get_view, tables_for
from kotc_rulesc.tables import TablesMissing, TablesView
from kotc_rulesc.view import FoldedRules

from support.codegen_support import MINI, build_into

PROBE = r"""
import json, runpy, sys
sys.argv = ["kotc-rulesc", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("kotc_rulesc.cli", run_name="__main__")
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("ruamel", "jsonschema", "jinja2")
               or m == "kotc_rulesc.loader")
tables = sorted(m for m in sys.modules if "kotc_tables" in m)
print("PROBE " + json.dumps({"code": code, "heavy": heavy, "tables": tables}), file=sys.stderr)
"""

CARDS = {
    "cards": [
        {"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."},
        {"name": "Old Insight", "type": "spell", "edition": 1, "cost": 8, "text": "Draw 2 cards."},
        {
            "name": "Sentinel",
            "type": "creature",
            "offense": 2,
            "defense": 5,
            "edition": 3,
            "text": "This creature cannot attack.\nActivate when you take damage. Draw 1 card.",
        },
        {"name": "Bloodprice", "type": "spell", "text": "Pay 15 hitpoints. Draw 3 cards."},
    ]
}


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    """A rules checkout: mini rules/ and, beside it, the generated/ built from them."""
    root = tmp_path_factory.mktemp("mini")
    shutil.copytree(MINI, root / "rules")
    build_into(root / "rules", root / "generated")
    (root / "cards.json").write_text(json.dumps(CARDS))
    return root


def _probe(args: list[str]):
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    probe = json.loads(next(line for line in done.stderr.splitlines() if line.startswith("PROBE "))[6:])
    return done.stdout, probe


@pytest.mark.parametrize("edition", ["1", "2", "3"])
def test_check_cards_on_the_tables_reads_no_yaml_and_agrees_with_the_fold(mini, edition):
    args = ["check-cards", "-e", edition, "--format", "json", str(mini / "cards.json")]
    compiled, probe = _probe([*args, "--rules", str(mini / "rules")])
    assert probe["heavy"] == [], "the tables path imported the YAML machinery"
    assert any(m.endswith(f".edition_{int(edition):02d}") for m in probe["tables"]), probe["tables"]
    folded, probe_yaml = _probe([*args, "--rules", str(MINI)])  # (no generated/ beside the fixture)
    assert "ruamel.yaml" in probe_yaml["heavy"] and probe_yaml["tables"] == []
    assert json.loads(compiled) == json.loads(folded)
    assert probe["code"] == probe_yaml["code"]


def test_cost_on_the_tables_agrees_with_the_fold(mini):
    args = ["cost", "-e", "2", "--type", "creature", "--offense", "3", "--defense", "4", "--format", "json",
            "--text", "This creature cannot attack.", "--text", "Activate when you take at least 5 damage. Draw 2 cards."]
    compiled, probe = _probe([*args, "--rules", str(mini / "rules")])
    assert probe["heavy"] == []
    folded, _ = _probe([*args, "--rules", str(MINI)])
    assert json.loads(compiled) == json.loads(folded)


def test_get_view_without_tables_folds_that_directory():
    view = get_view(str(MINI))
    assert isinstance(view, FoldedRules) and (view.first, view.last) == (1, 3)


def test_the_tables_answer_until_a_rules_file_changes(mini, tmp_path):
    shutil.copytree(mini, tmp_path / "copy")
    rules = tmp_path / "copy" / "rules"
    assert isinstance(tables_for(str(rules)), TablesView)
    (rules / "edition-03.yaml").write_text((rules / "edition-03.yaml").read_text() + "\n# changed\n")
    with pytest.raises(TablesMissing, match="changed since the tables were built"):
        tables_for(str(rules))
    assert isinstance(get_view(str(rules)), FoldedRules)
    (rules / "edition-03.yaml").unlink()
    with pytest.raises(TablesMissing):
        tables_for(str(rules))
    shutil.rmtree(tmp_path / "copy" / "generated")
    with pytest.raises(TablesMissing, match="missing"):
        tables_for(str(rules))
