"""Editors validate as you type: the schemas have stable $ids, `kotc-rulesc schema` writes them out,
and every rules file, the example collection and the `new-edition` skeleton name their schema in a
`# yaml-language-server: $schema=…` line that resolves inside the repository (and validates, read
as an editor reads it: plain YAML 1.2, JSON Schema 2020-12).  Shell completion works as the README
says."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from kotc_rulesc.cli import main
from kotc_rulesc.modeline import PREFIX, find_modeline, skeleton_modeline

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "kotc_rulesc" / "schemas"
RULES_FILES = sorted((ROOT / "rules").glob("edition-*.yaml"))
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"


def invoke(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def editor_check(path: Path) -> tuple[dict, list[str]]:
    """What an editor does with ``path``: follow its first line's modeline from the file's folder,
    read the YAML, validate it.  Returns the schema and the messages."""
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith(PREFIX), f"{path.name}: the first line is not a modeline: {first!r}"
    target = find_modeline(text)
    schema_file = (path.parent / target).resolve()
    assert schema_file.is_file(), f"{path.name}: {target} does not resolve from {path.parent}"
    schema = json.loads(schema_file.read_text())
    data = YAML(typ="safe", pure=True).load(text)
    validator = jsonschema.Draft202012Validator(schema)
    return schema, [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


# --------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("name", ["edition", "collection"])
def test_each_schema_has_a_stable_id_and_is_a_valid_schema(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    assert schema["$id"] == f"urn:kotc-rulesc:schema:{name}"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", ["edition", "collection"])
def test_schema_writes_the_packaged_schema(name, tmp_path):
    shown = invoke("schema", name)
    assert shown.exit_code == 0 and shown.output == (SCHEMAS / f"{name}.schema.json").read_text()
    out = tmp_path / f"{name}.schema.json"
    written = invoke("schema", name, "-o", str(out))
    assert written.exit_code == 0 and f"urn:kotc-rulesc:schema:{name}" in written.output
    assert out.read_bytes() == (SCHEMAS / f"{name}.schema.json").read_bytes()


# --------------------------------------------------------------------------- modelines


@pytest.mark.parametrize("path", RULES_FILES, ids=[p.name for p in RULES_FILES])
def test_every_rules_file_names_the_edition_schema_and_validates(path):
    schema, errors = editor_check(path)
    assert schema["$id"] == "urn:kotc-rulesc:schema:edition"
    assert errors == []


def test_the_example_collection_names_the_collection_schema_and_validates():
    schema, errors = editor_check(ROOT / "examples" / "collection.yaml")
    assert schema["$id"] == "urn:kotc-rulesc:schema:collection"
    assert errors == []


def test_an_editor_flags_a_mistake_through_the_modeline(tmp_path):
    """The line is not decoration: a wrong key is reported against the schema it names."""
    (tmp_path / "rules").mkdir()
    shutil.copytree(SCHEMAS, tmp_path / "kotc_rulesc" / "schemas")
    bad = tmp_path / "rules" / "edition-09.yaml"
    bad.write_text((ROOT / "rules" / "edition-09.yaml").read_text().replace("\nfollows:", "\nfollow:", 1))
    _, errors = editor_check(bad)
    assert any("follow" in e for e in errors), errors


def test_the_skeleton_of_the_next_edition_carries_the_line_and_validates(tmp_path):
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(SCHEMAS, tmp_path / "kotc_rulesc" / "schemas")  # the repository's layout
    last = max(int(p.stem.split("-")[1]) for p in RULES_FILES if p.stem.count("-") == 1)
    result = invoke("new-edition", str(last + 1), "--rules", str(tmp_path / "rules"))
    assert result.exit_code == 0, result.output
    schema, errors = editor_check(tmp_path / "rules" / f"edition-{last + 1:02d}.yaml")
    assert schema["$id"] == "urn:kotc-rulesc:schema:edition" and errors == []


def test_the_skeleton_line_of_the_checkouts_own_rules_resolves_to_its_schema():
    assert skeleton_modeline(ROOT / "rules") == PREFIX + "../kotc_rulesc/schemas/edition.schema.json"


def test_rules_elsewhere_without_a_line_get_the_schema_beside_them(tmp_path):
    """Was: no line at all (issue 26: "the skeleton's $schema line works where it is written"): the
    schema is written beside the rules, and the skeleton names it."""
    shutil.copytree(MINI, tmp_path / "rules")
    assert skeleton_modeline(tmp_path / "rules") is None
    result = invoke("new-edition", "4", "--rules", str(tmp_path / "rules"))
    assert result.exit_code == 0 and "edition.schema.json beside it" in result.output
    assert (tmp_path / "rules" / "edition-04.yaml").read_text().startswith(PREFIX + "edition.schema.json\n")
    schema, errors = editor_check(tmp_path / "rules" / "edition-04.yaml")
    assert schema["$id"] == "urn:kotc-rulesc:schema:edition" and errors == []
    (tmp_path / "rules" / "edition-04.yaml").unlink()
    (tmp_path / "rules" / "edition.schema.json").unlink()
    # once the rules carry a line of their own, the skeleton follows them
    schema_line = PREFIX + "edition.schema.json"
    for path in (tmp_path / "rules").glob("edition-0[12].yaml"):
        path.write_text(schema_line + "\n" + path.read_text())
    assert skeleton_modeline(tmp_path / "rules") == schema_line


# --------------------------------------------------------------------------- shell completion


def _readme_completion_lines() -> dict[str, str]:
    from support.docs_pages import page

    readme = page("players")
    found = re.findall(r"^(_KOTC_RULESC_COMPLETE=(\w+)_source) kotc-rulesc >", readme, re.MULTILINE)
    return {shell: line for line, shell in found}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_readme_completion_script_is_generated_for_each_shell(shell):
    lines = _readme_completion_lines()
    var, value = lines[shell].split("=")
    result = invoke(env={var: value}, prog_name="kotc-rulesc")
    assert result.exit_code == 0
    assert "_KOTC_RULESC_COMPLETE" in result.output and "kotc-rulesc" in result.output


def test_completion_offers_commands_and_editions():
    env = {"_KOTC_RULESC_COMPLETE": "bash_complete", "COMP_WORDS": "kotc-rulesc sch", "COMP_CWORD": "1"}
    assert invoke(env=env, prog_name="kotc-rulesc").output == "plain,schema\n"
    env = {"_KOTC_RULESC_COMPLETE": "bash_complete", "COMP_WORDS": "kotc-rulesc show -e 11", "COMP_CWORD": "3"}
    offered = invoke(env=env, prog_name="kotc-rulesc").output.splitlines()
    assert "plain,11-pre" in offered and "plain,11" in offered
