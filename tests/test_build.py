"""`kotc-rulesc build` and `build --check`: the drift gate, determinism, atomic and tidy output."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import bundled
from kotc_rulesc.cli import main
from kotc_rulesc.codegen import generate
from kotc_rulesc.outdir import up_to_date

from support.codegen_support import MINI, NASTY, REAL, ROOT, run_cli
from support.loaded import rules_of


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture()
def rules_copy(tmp_path):
    """A private copy of the mini rules, named rules/ like the real directory."""
    target = tmp_path / "rules"
    shutil.copytree(MINI, target)
    return target


def _total(rules_dir: Path) -> int:
    """How many files a build of ``rules_dir`` writes (the tables, the manifest, the docs pages)."""
    return len(generate(rules_of(rules_dir), rules_dir))


def _tables(paths) -> list[str]:
    """The paths outside docs/ (the docs pages are render.py's: tested there)."""
    return sorted(p for p in paths if not p.startswith("docs/"))


def _tree(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_build_then_check_is_clean(rules_copy, tmp_path):
    out = tmp_path / "generated"
    total = _total(rules_copy)
    result = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"{total} file(s) written, 0 removed, 0 unchanged" in result.output
    check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out))
    assert check.exit_code == 0, check.output
    assert check.output.startswith("up to date")
    again = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert f"0 file(s) written, 0 removed, {total} unchanged" in again.output


@pytest.mark.parametrize("tamper", ["edit", "extra", "remove", "rules", "template", "generator"])
def test_the_manifest_tells_an_output_up_to_date_until_anything_changes(rules_copy, tmp_path, tamper, monkeypatch):
    """build --check's answer without a build (an installed kotc-rulesc: its version is its code):
    the output is what its MANIFEST.json says, made from today's rules, schema and templates by this
    generator — any change to the output, the rules, a template or the generator is found."""
    templates = tmp_path / "templates"
    shutil.copytree(bundled.templates_dir(), templates)
    monkeypatch.setattr(bundled, "templates_dir", lambda: templates)
    out = tmp_path / "generated"
    assert invoke("build", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0
    assert up_to_date(out, rules_copy)
    table = out / "kotc_tables" / "__init__.py"
    if tamper == "edit":
        table.write_bytes(table.read_bytes() + b"# edited by hand\n")
    elif tamper == "extra":
        (out / "kotc_tables" / "stray.py").write_text("")
    elif tamper == "remove":
        table.unlink()
    elif tamper == "rules":
        third = rules_copy / "edition-03.yaml"
        third.write_text(third.read_text().replace('formula: "2"', 'formula: "3"'))
    elif tamper == "template":
        (templates / "style.css").write_text((templates / "style.css").read_text() + "\n")
    else:
        manifest = out / "MANIFEST.json"
        manifest.write_text(manifest.read_text().replace("kotc-rulesc ", "kotc-rulesc 0.0.1 ", 1))
    assert not up_to_date(out, rules_copy)
    assert invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out)).exit_code == 1


def test_in_a_source_checkout_build_check_always_builds(rules_copy, tmp_path):
    """(The code may have changed since the output was built: CI's drift gate compares a build.)"""
    out = tmp_path / "generated"
    assert invoke("build", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0
    for _ in range(2):
        check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out))
        assert check.exit_code == 0 and f"({_total(rules_copy)} files match" in check.output, check.output


def test_changing_one_formula_makes_check_fail_and_name_the_files_to_rebuild(rules_copy, tmp_path):
    out = tmp_path / "generated"
    assert invoke("build", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0
    before = _tree(out)
    third = rules_copy / "edition-03.yaml"
    third.write_text(third.read_text().replace('formula: "2"', 'formula: "3"'))

    check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out))
    assert check.exit_code == 1
    stale = [line.split()[1] for line in check.output.splitlines() if line.startswith("  stale ")]
    stale = [Path(p).relative_to(out).as_posix() for p in stale]
    # the 3rd edition's catalog and the step into it change, and the index naming every input's
    # hash; editions 1 and 2 and step 1→2 do not derive from edition-03
    assert _tables(stale) == [
        "MANIFEST.json",
        "kotc_tables/__init__.py",
        "kotc_tables/edition_03.py",
        "kotc_tables/step_02_03.py",
    ]
    assert f"{len(stale)} file(s) to rebuild: run `kotc-rulesc build" in check.output
    assert _tree(out) == before, "--check wrote something"

    fix = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert fix.exit_code == 0 and f"{len(stale)} file(s) written" in fix.output
    assert invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0
    edition_3 = (out / "kotc_tables" / "edition_03.py").read_text()
    assert "'formula': '3'" in edition_3


def test_check_names_missing_and_extra_files_and_build_removes_only_its_own(rules_copy, tmp_path):
    """A file no build wrote (the manifest does not list it) is named by --check and kept by the
    build, which says so (issue 27, case 1: a build deletes nothing it did not write); what the
    previous build wrote and this one no longer makes is removed (next test)."""
    out = tmp_path / "generated"
    invoke("build", "--rules", str(rules_copy), "--out", str(out))
    (out / "kotc_tables" / "edition_02.py").unlink()
    (out / "kotc_tables" / "edition_04.py").write_text("# left over from an older build\n")
    (out / "kotc_tables" / "__pycache__").mkdir(exist_ok=True)
    (out / "kotc_tables" / "__pycache__" / "edition_01.cpython-311.pyc").write_bytes(b"cache")
    check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out))
    assert check.exit_code == 1
    lines = [line.split() for line in check.output.splitlines() if line.startswith("  ")]
    assert [(kind, Path(p).name) for kind, p in lines] == [("missing", "edition_02.py"), ("extra", "edition_04.py")]
    fix = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert fix.exit_code == 0 and "1 file(s) written, 0 removed" in fix.output
    assert "1 file(s) in" in fix.stderr and "that no build wrote, kept" in fix.stderr and "kotc_tables/edition_04.py" in fix.stderr
    assert (out / "kotc_tables" / "edition_04.py").read_text() == "# left over from an older build\n"
    check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out))
    assert check.exit_code == 1 and "that no build wrote, to remove by hand" in check.stderr
    (out / "kotc_tables" / "edition_04.py").unlink()
    assert invoke("build", "--check", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0


def test_removing_an_edition_removes_its_modules(rules_copy, tmp_path):
    out = tmp_path / "generated"
    invoke("build", "--rules", str(rules_copy), "--out", str(out))
    (rules_copy / "edition-03.yaml").unlink()
    result = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert result.exit_code == 0 and "removed" in result.output
    assert sorted(_tree(out)) == sorted(generate(rules_of(rules_copy), rules_copy))
    assert _tables(_tree(out)) == [
        "MANIFEST.json",
        "kotc_tables/__init__.py",
        "kotc_tables/edition_01.py",
        "kotc_tables/edition_02.py",
        "kotc_tables/step_01_02.py",
    ]


def test_check_on_a_missing_output_lists_every_file(rules_copy, tmp_path):
    check = invoke("build", "--check", "--rules", str(rules_copy), "--out", str(tmp_path / "nowhere"))
    assert check.exit_code == 1
    assert sum(line.startswith("  missing ") for line in check.output.splitlines()) == _total(rules_copy)
    assert not (tmp_path / "nowhere").exists()


def test_rules_problems_are_listed_with_their_place_and_exit_1(rules_copy, tmp_path):
    second = rules_copy / "edition-02.yaml"
    second.write_text(second.read_text().replace('formula: "2x"', 'formula: "2x +"'))
    result = invoke("build", "--rules", str(rules_copy), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "edition-02.yaml:10:19:" in result.output and "does not parse" in result.output
    assert not (tmp_path / "out").exists()


def test_build_refuses_a_directory_it_did_not_make(rules_copy, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    result = invoke("build", "--rules", str(rules_copy), "--out", str(out))
    assert result.exit_code == 2
    assert "not a kotc-rulesc output directory" in result.output
    assert (out / "notes.txt").read_text() == "precious"


def test_the_manifest_names_every_source_and_generated_file_with_its_hash(rules_copy, tmp_path):
    out = tmp_path / "generated"
    invoke("build", "--rules", str(rules_copy), "--out", str(out))
    manifest = json.loads((out / "MANIFEST.json").read_text())
    assert manifest["generator"].startswith("kotc-rulesc ")
    sources = {s["path"]: s["sha256"] for s in manifest["sources"]}
    for f in sorted(rules_copy.glob("*.yaml")):
        assert sources[f"rules/{f.name}"] == hashlib.sha256(f.read_bytes()).hexdigest()
    schema = ROOT / "kotc_rulesc" / "schemas" / "edition.schema.json"
    assert sources["kotc_rulesc/schemas/edition.schema.json"] == hashlib.sha256(schema.read_bytes()).hexdigest()
    style = bundled.templates_dir() / "style.css"
    assert sources["templates/style.css"] == hashlib.sha256(style.read_bytes()).hexdigest()
    files = {f["path"]: f["sha256"] for f in manifest["files"]}
    tree = _tree(out)
    assert set(files) == set(tree) - {"MANIFEST.json"}
    for path, digest in files.items():
        assert hashlib.sha256(tree[path]).hexdigest() == digest
    for entry in manifest["files"]:
        assert set(entry["from"]) <= set(sources), entry


def _build_in_subprocess(rules: Path, out: Path, seed: str, locale: str, tz: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": locale, "LANG": locale, "TZ": tz}
    done = run_cli("build", "--rules", str(rules), "--out", str(out), env=env, cwd=out.parent)
    assert done.returncode == 0, done.stderr
    return _tree(out)


@pytest.fixture(scope="module")
def bundled_build() -> dict[str, bytes]:
    """The bundled rules compiled once, in this process, for the determinism and drift tests."""
    return generate(rules_of(REAL), REAL)


@pytest.mark.parametrize(
    "rules_dir",
    [MINI, NASTY, REAL],
    ids=["mini", "nasty", "real"],
)
def test_two_builds_are_byte_identical_whatever_the_hash_seed_locale_or_time(rules_dir, tmp_path, request):
    """A build in another process — another hash seed, locale and time zone, its rules files
    written in the reverse order (so directory order may differ too) — writes the very bytes
    of a build in this one."""
    (tmp_path / "rules").mkdir()
    for f in sorted((p for p in rules_dir.iterdir() if p.is_file()), reverse=True):  # (not rules/inventory/)
        shutil.copy(f, tmp_path / "rules" / f.name)
    # (the manifest names the rules files by their directory's name, rules/ like the real one)
    here = request.getfixturevalue("bundled_build") if rules_dir == REAL else generate(rules_of(rules_dir), tmp_path / "rules")
    seed = "1" if os.environ.get("PYTHONHASHSEED") == "4242" else "4242"  # never this process's own
    locale, tz = ("C", "UTC") if os.environ.get("TZ") == "Asia/Tokyo" else ("C.UTF-8", "Asia/Tokyo")
    there = _build_in_subprocess(tmp_path / "rules", tmp_path / "out", seed, locale, tz)
    assert there == here


def test_the_docs_pages_are_written_under_docs_and_named_in_the_manifest(rules_copy, tmp_path):
    from kotc_rulesc.render import render_docs

    out = tmp_path / "generated"
    assert invoke("build", "--rules", str(rules_copy), "--out", str(out)).exit_code == 0
    pages = render_docs(rules_of(rules_copy))
    assert pages
    for rel, text in pages.items():
        assert (out / "docs" / rel).read_text(encoding="utf-8") == text
    manifest = json.loads((out / "MANIFEST.json").read_text())
    assert {f["path"] for f in manifest["files"]} >= {f"docs/{rel}" for rel in pages}


def test_help_explains_the_command():
    result = invoke("build", "--help")
    assert result.exit_code == 0
    for words in ("--rules", "--out", "--check", "MANIFEST.json", "byte-identical", "standard library"):
        assert words in result.output


def test_the_committed_generated_directory_is_up_to_date(bundled_build):
    """The drift gate: generated/ holds exactly what the bundled rules compile to, byte for byte
    (`kotc-rulesc build --check` says the same in CI; its own tests are above, on the mini rules)."""
    from kotc_rulesc.outdir import on_disk

    committed = {p: (ROOT / "generated" / p).read_bytes() for p in on_disk(ROOT / "generated")}
    stale = sorted(p for p in bundled_build if committed.get(p) != bundled_build[p])
    extra = sorted(set(committed) - set(bundled_build))
    assert not stale and not extra, f"generated/ lags behind rules/ (run `kotc-rulesc build`): stale {stale}, extra {extra}"


