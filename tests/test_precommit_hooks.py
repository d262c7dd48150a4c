"""`.pre-commit-hooks.yaml`: each hook runs a real kotc-rulesc command with real options, its file
pattern matches the files it is about (this repository is itself a rules repository), and run
as pre-commit runs it (from the repository's root) it passes on a clean checkout and fails on a
broken one."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from kotc_rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOOKS = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
IDS = [hook["id"] for hook in HOOKS]


def _argv(hook: dict) -> list[str]:
    return shlex.split(hook["entry"]) + [str(a) for a in hook.get("args", [])]


def _tracked(root: Path) -> list[str]:
    """The repository's files (not its venv, caches or build output)."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "build", "dist") and not d.endswith(".egg-info")]
        out += [str((Path(folder) / f).relative_to(root)) for f in files]
    return sorted(out)


def test_the_hooks_are_the_two_the_readme_names():
    assert IDS == ["kotc-rulesc-check", "kotc-rulesc-build-check"]
    from support.docs_pages import page

    readme = page("maintainers")
    for hook_id in IDS:
        assert f"id: {hook_id}" in readme


@pytest.mark.parametrize("hook", HOOKS, ids=IDS)
def test_each_hook_names_a_real_command_and_real_options(hook):
    assert {"id", "name", "entry", "language"} <= set(hook)
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    argv = _argv(hook)
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(rf'^{re.escape(argv[0])} = "kotc_rulesc\.cli:run"$', pyproject, re.MULTILINE), \
        f"{argv[0]} is not the console script pyproject.toml installs"
    command = main.get_command(None, argv[1])
    assert command is not None, f"kotc-rulesc has no command {argv[1]!r}"
    options = {opt for param in command.params if isinstance(param, click.Option) for opt in param.opts + param.secondary_opts}
    for word in argv[2:]:
        if word.startswith("-"):
            assert word.split("=", 1)[0] in options, f"{argv[1]} has no option {word}"
    assert argv[argv.index("--rules") + 1] == "rules"


@pytest.mark.parametrize("hook", HOOKS, ids=IDS)
def test_each_hook_pattern_matches_the_rules_files_and_nothing_unrelated(hook):
    pattern = re.compile(hook["files"])
    files = _tracked(ROOT)
    matched = [f for f in files if pattern.search(f)]
    rules = [f for f in files if f.startswith("rules/") and f.endswith(".yaml")]
    assert rules and set(rules) <= set(matched)
    assert not [f for f in matched if not f.startswith(("rules/", "generated/"))]
    if hook["id"] == "kotc-rulesc-build-check":
        assert "generated/MANIFEST.json" in matched and "generated/docs/index.html" in matched
    else:
        assert not [f for f in matched if f.startswith("generated/")] and "rules/README.md" not in matched


@pytest.fixture()
def checkout(tmp_path) -> Path:
    """A rules repository: rules/ and generated/ at its root."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _run_hook(hook: dict, cwd: Path, monkeypatch):
    monkeypatch.chdir(cwd)
    return CliRunner().invoke(main, _argv(hook)[1:])


@pytest.mark.parametrize("hook", HOOKS, ids=IDS)
def test_each_hook_passes_on_a_clean_rules_repository(hook, checkout, monkeypatch):
    result = _run_hook(hook, checkout, monkeypatch)
    assert result.exit_code == 0, result.output


def test_the_check_hook_fails_on_a_broken_rules_file(checkout, monkeypatch):
    path = checkout / "rules" / "edition-09.yaml"
    path.write_text(path.read_text().replace("follows: 8", "follows: 7", 1))
    result = _run_hook(HOOKS[0], checkout, monkeypatch)
    assert result.exit_code == 1 and "edition-09.yaml:" in result.output


def test_the_build_check_hook_fails_when_generated_lags_behind(checkout, monkeypatch):
    path = checkout / "rules" / "edition-17.yaml"
    path.write_text(path.read_text() + "# one more note\n")
    result = _run_hook(HOOKS[1], checkout, monkeypatch)
    assert result.exit_code == 1 and "stale" in result.output and "kotc-rulesc build --rules rules" in result.output
