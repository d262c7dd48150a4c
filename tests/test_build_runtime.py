"""The card commands run on the compiled tables: same answers as folding the YAML, no YAML read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kotc_rulesc.cards.rules_source import get_view, tables_are_stale
from kotc_rulesc.tables import TablesView
from kotc_rulesc.view import FoldedRules

from codegen_support import MINI, build_into

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
tables = sorted(m for m in sys.modules if m.startswith("kotc_tables"))
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
def mini_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("mini_tables")
    build_into(MINI, out)
    card = out.parent / "cards.json"
    card.write_text(json.dumps(CARDS))
    return out, card


def _probe(args: list[str], pythonpath: Path | None, **extra_env: str):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | extra_env
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env)
    probe = json.loads(next(line for line in done.stderr.splitlines() if line.startswith("PROBE "))[6:])
    return done.stdout, probe


@pytest.mark.parametrize("edition", ["1", "2", "3"])
def test_check_cards_on_the_tables_reads_no_yaml_and_agrees_with_the_fold(mini_out, edition):
    out, card = mini_out
    args = ["check-cards", "-e", edition, "--format", "json", str(card)]
    compiled, probe = _probe(args, out)
    assert probe["heavy"] == [], "the tables path imported the YAML machinery"
    assert f"kotc_tables.edition_{int(edition):02d}" in probe["tables"]
    # (the rules cache off: a cached load of --rules would need no YAML either)
    folded, probe_yaml = _probe([*args[:-1], "--rules", str(MINI), str(card)], None, KOTC_RULESC_CACHE="off")
    assert "ruamel.yaml" in probe_yaml["heavy"] and probe_yaml["tables"] == []
    assert json.loads(compiled) == json.loads(folded)
    assert probe["code"] == probe_yaml["code"]


def test_cost_on_the_tables_agrees_with_the_fold(mini_out):
    out, _ = mini_out
    args = ["cost", "-e", "2", "--type", "creature", "--offense", "3", "--defense", "4", "--format", "json",
            "--text", "This creature cannot attack.", "--text", "Activate when you take at least 5 damage. Draw 2 cards."]
    compiled, probe = _probe(args, out)
    assert probe["heavy"] == []
    folded, _ = _probe([*args, "--rules", str(MINI)], None)
    assert json.loads(compiled) == json.loads(folded)


def test_get_view_with_rules_folds_that_directory():
    view = get_view(str(MINI))
    assert isinstance(view, FoldedRules) and (view.first, view.last) == (1, 3)


def test_tables_are_stale_when_a_rules_file_changes(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    for f in MINI.iterdir():
        (rules / f.name).write_bytes(f.read_bytes())
    view = build_into(rules, tmp_path / "out")
    assert isinstance(view, TablesView)
    assert not tables_are_stale(view.inputs, rules)
    (rules / "edition-03.yaml").write_text((rules / "edition-03.yaml").read_text() + "\n# changed\n")
    assert tables_are_stale(view.inputs, rules)
    (rules / "edition-03.yaml").unlink()
    assert tables_are_stale(view.inputs, rules)
