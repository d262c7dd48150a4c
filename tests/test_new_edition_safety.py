"""`new-edition N --force` never destroys a file with content beyond the skeleton: that needs
--discard-changes as well, and the file is kept as a .bak first."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import bundled
from kotc_rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"
LAST = max(int(p.stem.split("-")[1]) for p in (ROOT / "rules").glob("edition-*.yaml") if p.stem.count("-") == 1)


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture()
def rules(tmp_path) -> Path:
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    return tmp_path / "rules"


def test_force_alone_does_not_replace_a_finished_edition(rules):
    """The defect: `new-edition N --force` on the last, finished edition replaced it with an empty skeleton."""
    path = rules / f"edition-{LAST:02d}.yaml"
    before = path.read_bytes()
    result = invoke("new-edition", str(LAST), "--force", "--rules", str(rules))
    assert result.exit_code == 2
    assert "beyond the skeleton" in result.output and "--discard-changes" in result.output
    assert path.read_bytes() == before
    assert not list(rules.glob("*.bak*"))


def test_discard_changes_replaces_it_and_keeps_the_old_file_as_bak(rules):
    path = rules / f"edition-{LAST:02d}.yaml"
    before = path.read_bytes()
    result = invoke("new-edition", str(LAST), "--force", "--discard-changes", "--rules", str(rules))
    assert result.exit_code == 0, result.output
    assert f"kept as {path}.bak" in result.output
    assert Path(f"{path}.bak").read_bytes() == before
    assert f"edition: {LAST}\n" in path.read_text() and "components: []" in path.read_text()
    # a second discard keeps both earlier files
    path.write_text(path.read_text().replace("redactions: []", "redactions:\n  - component: effect-draw-12"))
    second = path.read_bytes()
    assert invoke("new-edition", str(LAST), "--force", "--discard-changes", "--rules", str(rules)).exit_code == 0
    assert Path(f"{path}.bak").read_bytes() == before and Path(f"{path}.bak.1").read_bytes() == second


def test_force_replaces_an_untouched_skeleton_without_a_backup(tmp_path):
    shutil.copytree(MINI, tmp_path / "rules")
    rules = tmp_path / "rules"
    assert invoke("new-edition", "4", "--rules", str(rules)).exit_code == 0
    result = invoke("new-edition", "4", "--force", "--rules", str(rules))
    assert result.exit_code == 0 and "Replaced" in result.output and "kept as" not in result.output
    assert not list(rules.glob("*.bak*"))


def test_a_note_is_content_too(tmp_path):
    shutil.copytree(MINI, tmp_path / "rules")
    rules = tmp_path / "rules"
    assert invoke("new-edition", "4", "--rules", str(rules)).exit_code == 0
    path = rules / "edition-04.yaml"
    path.write_text(path.read_text() + "# The 4th guide's page 3 is missing from the scan: ask the publisher.\n")
    result = invoke("new-edition", "4", "--force", "--rules", str(rules))
    assert result.exit_code == 2 and "page 3 is missing" in result.output
    assert "ask the publisher" in path.read_text()


def test_discard_changes_needs_force(rules):
    result = invoke("new-edition", str(LAST + 1), "--discard-changes", "--rules", str(rules))
    assert result.exit_code == 2 and "--discard-changes goes with --force" in result.output


def test_an_installed_kotc_rulesc_needs_rules_of_ones_own(monkeypatch):
    """Installed from a wheel, the bundled rules live in site-packages: never scaffold there."""
    monkeypatch.setattr(bundled, "checkout_root", lambda: None)
    result = invoke("new-edition", str(LAST + 1))
    assert result.exit_code == 2 and "give --rules DIR" in result.output
