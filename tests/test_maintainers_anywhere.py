"""A maintainer outside the repository, and what a reader of the output trips on (issue 26): the
bundled rules exported with working schema lines, every printed next step a command that works
as printed, `editions` and `diff` agreeing on a skeleton, short paths, JSON from `check` and
`editions`, `kotc-rulesc docs`, a closed pipe, a mistyped option."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import CLOSED_PIPE, main
from test_editor_support import editor_check

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def next_steps(output: str) -> list[list[str]]:
    """The commands an output tells the reader to run, as argument lists (without `kotc-rulesc`)."""
    commands = re.findall(r"kotc-rulesc ([^`\n]*?)(?: &&|$)", output, re.MULTILINE)
    commands += re.findall(r"&& kotc-rulesc ([^\n]*)$", output, re.MULTILINE)
    return [shlex.split(c) for c in dict.fromkeys(commands)]


@pytest.fixture()
def exported(tmp_path, monkeypatch) -> tuple[Path, str]:
    monkeypatch.chdir(tmp_path)
    result = invoke("rules", "export", "my-kotc/rules")
    assert result.exit_code == 0, result.output
    return tmp_path / "my-kotc" / "rules", result.output


def test_rules_export_writes_the_bundled_rules_with_schema_lines_that_resolve(exported):
    rules, _ = exported
    bundled = sorted(p.name for p in (ROOT / "rules").glob("edition-*.yaml"))
    assert sorted(p.name for p in rules.glob("edition-*.yaml")) == bundled
    assert (rules / "README.md").is_file() and (rules / "edition.schema.json").is_file()
    for name in bundled:
        schema, errors = editor_check(rules / name)
        assert schema["$id"] == "urn:kotc-rulesc:schema:edition" and errors == [], name
        # nothing but the first line differs from the bundled file
        ours, theirs = (rules / name).read_text().splitlines()[1:], (ROOT / "rules" / name).read_text().splitlines()[1:]
        assert ours == theirs, name
    assert invoke("check", "--rules", str(rules)).output.startswith("ok: ")


def test_rules_export_replaces_files_only_with_force(exported):
    rules, _ = exported
    again = invoke("rules", "export", str(rules))
    assert again.exit_code == 2 and "already holds files of the same names" in again.output and "--force" in again.output
    assert invoke("rules", "export", str(rules), "--force").exit_code == 0


def test_every_next_step_printed_works_as_printed(exported):
    """rules export → its next steps (check, new-edition N --rules DIR) → new-edition's (check and
    diff, with --rules DIR): each run exactly as printed, from where the reader is."""
    rules, output = exported
    steps = next_steps(output)
    assert [s[0] for s in steps] == ["check", "new-edition"] and all("--rules" in s for s in steps), output
    for step in steps:
        result = invoke(*step)
        assert result.exit_code == 0, (step, result.output)
    for step in next_steps(result.output):  # new-edition's own
        assert invoke(*step).exit_code == 0, step
    skeleton = rules / "edition-18.yaml"
    assert skeleton.is_file()
    # its first line resolves where it is written, and its comments name --rules too
    schema, errors = editor_check(skeleton)
    assert errors == []
    assert "#   kotc-rulesc diff 17 18 --rules my-kotc/rules" in skeleton.read_text()


def test_new_editions_next_step_carries_the_rules_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("rules", "export", "elsewhere/rules").exit_code == 0
    result = invoke("new-edition", "18", "--rules", "elsewhere/rules")
    assert result.exit_code == 0, result.output
    (line,) = [ln for ln in result.output.splitlines() if ln.startswith("Fill it in, then:")]
    assert line == "Fill it in, then: kotc-rulesc check --rules elsewhere/rules && kotc-rulesc diff 17 18 --rules elsewhere/rules"
    for step in next_steps(line):
        assert invoke(*step).exit_code == 0, step


def test_editions_and_diff_agree_on_what_a_skeleton_changes(exported):
    rules, _ = exported
    assert invoke("new-edition", "18", "--rules", str(rules)).exit_code == 0
    listed = invoke("editions", "--rules", str(rules)).output.splitlines()[-1]
    assert listed.strip().startswith("18  no changes  [")  # (its rulebook: the 17th's, inherited)
    assert "rulebook" not in invoke("diff", "17", "18", "--rules", str(rules)).output.casefold()
    skeleton = rules / "edition-18.yaml"
    skeleton.write_text(skeleton.read_text() + "rulebook: null\n")  # no source gives it
    listed = invoke("editions", "--rules", str(rules)).output.splitlines()[-1]
    assert listed.strip().startswith("18  no changes; no rulebook given: its parameters and terms are unknown")
    diff = invoke("diff", "17", "18", "--rules", str(rules)).output
    assert "No source gives the 18th Edition's rulebook" in diff and "→ unknown" in diff
    rows = json.loads(invoke("editions", "--rules", str(rules), "--format", "json").output)
    assert rows[-1] == {"edition": 18, "file": "my-kotc/rules/edition-18.yaml", "changes": "no changes", "rulebook_unknown": True}
    assert rows[-2]["rulebook_unknown"] is False


def test_editions_names_files_by_short_relative_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (outside the repository: the bundled rules are elsewhere)
    out = invoke("editions").output
    assert str(ROOT) not in out and "/" not in out.split("[", 1)[1].split("]", 1)[0]
    assert "[edition-17.yaml]" in out
    monkeypatch.chdir(ROOT)
    assert "[rules/edition-17.yaml]" in invoke("editions").output


def test_check_and_editions_speak_json():
    doc = json.loads(invoke("check", "--format", "json").output)
    assert doc["ok"] is True and doc["problems"] == [] and doc["editions"][-1] == 17 and doc["components"] > 300
    bad = invoke("check", "--format", "json", "--rules", str(ROOT / "tests" / "fixtures" / "no-such-rules"))
    assert bad.exit_code == 2
    problems = json.loads(bad.output)["problems"]
    assert problems and set(problems[0]) == {"file", "line", "column", "message", "hint"}
    rows = json.loads(invoke("editions", "--format", "json").output)
    assert rows[0]["edition"] == 1 and {r["edition"] for r in rows} >= {"11-pre", 17}


def test_docs_says_where_the_docs_are_and_opens_them(monkeypatch):
    result = invoke("docs")
    assert result.exit_code == 0
    uri = re.search(r"file://\S+/index\.html", result.output).group(0)
    assert Path(uri.removeprefix("file://")).is_file()
    opened = []
    import webbrowser

    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    assert invoke("docs", "--open").exit_code == 0 and opened == [uri]


def test_a_mistyped_option_gets_clicks_suggestion():
    result = invoke("cost", "--editon", "17", "--type", "spell", "--text", "Draw 2 cards.")
    assert result.exit_code == 2 and "No such option '--editon'. Did you mean '--edition'?" in result.output
    result = invoke("cost", "-e", "17", "--hpp", "3", "--type", "minion", "--text", "Draw 2 cards.")
    assert result.exit_code == 2 and "'--hp'" in result.output
    result = invoke("cost", "-e", "17", "--frob", "3", "--type", "minion", "--text", "Draw 2 cards.")
    assert result.exit_code == 2 and "(the stats of this edition's card types: --hp, --sp)" in result.output
    assert "Did you mean '--rules'?" in invoke("check", "--rule", "x").output


@pytest.mark.parametrize("args", [["diff", "1", "17"], ["check-cards", "examples/mixed-collection.yaml"],
                                  ["cost", "examples/collection.yaml", "-e", "6"]])
def test_a_closed_pipe_ends_quietly_with_the_conventional_status(args):
    """`… | head -1`: the reader is gone before the command is done: no traceback, nothing on
    standard error, status 141 (128 + SIGPIPE, as a program the system stops for it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
    proc = subprocess.Popen([sys.executable, "-m", "kotc_rulesc", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # (closed before the first line: the first write finds no reader)
    err = proc.stderr.read()
    assert proc.wait() == CLOSED_PIPE == 141, err
    assert err == b""
