"""The project's own files agree: the licence pyproject.toml declares is the LICENSE file's, the
version is one, and the changelog has a section for it."""

from __future__ import annotations

import re
from pathlib import Path

import kotc_rulesc

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = (ROOT / "pyproject.toml").read_text()


def _field(name: str) -> str:
    m = re.search(rf'^{name} = "([^"]*)"$', PYPROJECT, re.MULTILINE)
    assert m, f"pyproject.toml has no {name}"
    return m.group(1)


def test_the_licence_declared_is_the_license_files():
    assert _field("license") == "GPL-3.0-or-later"
    assert 'license-files = ["LICENSE"]' in PYPROJECT
    text = (ROOT / "LICENSE").read_text()
    assert text.split("\n", 2)[:2] == ["                    GNU GENERAL PUBLIC LICENSE", "                       Version 3, 29 June 2007"]
    # "or later": the GPL's own section 14 is what the -or-later expression refers to
    assert "14. Revised Versions of this License." in text and "END OF TERMS AND CONDITIONS" in text


def test_one_version_with_a_changelog_section():
    version = _field("version")
    assert kotc_rulesc.__version__ == version
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    assert headings[0] == "Unreleased" and version in headings


def test_pyproject_describes_the_package():
    assert _field("readme") == "README.md"
    classifiers = re.search(r"^classifiers = \[(.*?)^\]", PYPROJECT, re.MULTILINE | re.DOTALL).group(1)
    assert '"Environment :: Console"' in classifiers and '"Topic :: Games/Entertainment"' in classifiers
    urls = PYPROJECT.split("[project.urls]", 1)[1].split("\n[", 1)[0]
    assert re.findall(r'^\S.* = "https://[^"]+"$', urls, re.MULTILINE)


def test_the_wheel_lists_every_package_of_the_checkout():
    """pyproject.toml names the packages (the bundled data needs a package-dir mapping, which
    setuptools' automatic discovery cannot add): a new subpackage must be named there too, or
    the wheel goes without it."""
    listed = re.search(r"^packages = \[(.*?)^\]", PYPROJECT, re.MULTILINE | re.DOTALL).group(1)
    names = set(re.findall(r'"([\w.]+)"', listed))
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "kotc_rulesc").rglob("__init__.py")}
    found |= {".".join(p.parent.relative_to(ROOT / "generated").parts) for p in (ROOT / "generated" / "kotc_tables").rglob("__init__.py")}
    found |= {"kotc_rulesc.schemas", "kotc_rulesc._bundled.rules", "kotc_rulesc._bundled.templates",
              "kotc_rulesc._bundled.docs", "kotc_rulesc._bundled.site"}
    assert names == found


def test_the_rules_readme_says_which_editions_have_catalog_unknown_as_the_files_do():
    """rules/README.md said the 12th used `catalog: unknown` "(… a later issue)" long after it was encoded."""
    readme = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    bullet = re.search(r"^- `catalog: unknown`.*?(?=^- )", readme, re.MULTILINE | re.DOTALL).group(0)
    unknown = {int(f.stem.split("-")[1]) for f in (ROOT / "rules").glob("edition-*.yaml")
               if re.search(r"^catalog: unknown\b", f.read_text(encoding="utf-8"), re.MULTILINE)}
    assert {int(n) for n in re.findall(r"\b(\d+)(?:st|nd|rd|th)\b", bullet)} <= unknown
    assert ("every bundled edition's catalog is known" in bullet) == (not unknown)
    # (the key's comment in the file sketch too: the marker is for a guide no source gives, not a backlog)
    assert all("not encoded" not in line for line in readme.splitlines() if line.startswith("catalog: unknown"))
