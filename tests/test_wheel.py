"""The wheel carries everything: built once, installed into a fresh venv, every command run from a
directory outside the repository, on the bundled rules and on a maintainer's own checkout.

Slow (a wheel build, a venv and a dozen commands in it): the wheel is built once per session from
a copy of the working tree (so that a stale ``build/`` or ``*.egg-info`` of the checkout cannot
leak into it).  The venv is made without pip, and the wheel installed into it with this
interpreter's pip and ``--no-deps``: the venv sees the dependencies already installed for the
tests (one ``.pth`` line naming their directory — whose own ``.pth`` files, such as the
checkout's editable install, a ``.pth`` line does not run), rather than downloading them again.
That the wheel declares the project's dependencies is checked from its metadata.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
#: what a wheel is built from (the rest of the repository is not needed to build it)
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "kotc_rulesc", "rules", "templates", "generated", "docs")


def _copy_sources(dst: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=ignore)
        else:
            shutil.copy2(src, dst / name)


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def _isolation() -> list[str]:
    """``--no-build-isolation`` where this environment has the build backend ``[build-system]``
    requires (the test extras install it): pip then builds with it rather than installing it into an
    isolated environment first (seconds); elsewhere pip's default, isolated."""
    from importlib.metadata import PackageNotFoundError, version

    for text in tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            if version(requirement.name) not in requirement.specifier:
                return []
        except PackageNotFoundError:
            return []
    return ["--no-build-isolation"]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("wheel-src")
    _copy_sources(src)
    dist = tmp_path_factory.mktemp("dist")
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *_isolation(), "--disable-pip-version-check", "-q",
                 "-w", str(dist), str(src)])
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = dist.glob("kotc_rulesc-*.whl")
    return built


@pytest.fixture(scope="session")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed, and nothing of the checkout."""
    env_dir = tmp_path_factory.mktemp("venv")
    done = _run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)])
    assert done.returncode == 0, done.stderr
    python = env_dir / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], env=_env())
    here = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    (Path(site.stdout.strip()) / "kotc-test-dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(here)))
    done = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                 "--disable-pip-version-check", "-q", str(wheel)])
    assert done.returncode == 0, done.stdout + done.stderr
    return env_dir


@pytest.fixture(scope="session")
def elsewhere(tmp_path_factory) -> Path:
    """A working directory outside the repository, with a collection to work on."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    shutil.copy2(ROOT / "examples" / "collection.yaml", cwd / "collection.yaml")
    return cwd


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def kotc(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return _run([str(venv / "bin" / "kotc-rulesc"), *args], cwd=cwd, env=_env())


def _tree(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


# --------------------------------------------------------------------------- what the wheel holds


def test_the_wheel_carries_the_rules_templates_schemas_and_tables(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for rules_file in (ROOT / "rules").glob("edition-*.yaml"):
        assert f"kotc_rulesc/_bundled/rules/{rules_file.name}" in names
    for template in (ROOT / "templates").iterdir():
        assert f"kotc_rulesc/_bundled/templates/{template.name}" in names
    for schema in ("edition", "collection"):
        assert f"kotc_rulesc/schemas/{schema}.schema.json" in names
    for module in (ROOT / "generated" / "kotc_tables").rglob("*.py"):
        assert str(module.relative_to(ROOT / "generated")) in names
    assert "kotc_rulesc/__main__.py" in names
    # the docs site, built, and its topic pages' sources (for `build` of a maintainer's rules)
    for page in (ROOT / "generated" / "docs").iterdir():
        assert f"kotc_rulesc/_bundled/site/{page.name}" in names
    for source in (ROOT / "docs").glob("*.md"):
        assert f"kotc_rulesc/_bundled/docs/{source.name}" in names


def test_the_wheel_metadata_names_the_licence_of_the_license_file(wheel):
    with zipfile.ZipFile(wheel) as zf:
        info = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(zf.read(info).decode())
        licence = zf.read(info.rsplit("/", 1)[0] + "/licenses/LICENSE").decode()
    assert meta["License-Expression"] == "GPL-3.0-or-later"
    assert licence == (ROOT / "LICENSE").read_text()
    assert licence.split()[:5] == ["GNU", "GENERAL", "PUBLIC", "LICENSE", "Version"] and "Version 3," in licence
    assert meta["Description-Content-Type"] == "text/markdown" and "# kotc-rulesc" in meta.get_payload()
    assert any(c.startswith("Topic :: Games") for c in meta.get_all("Classifier"))
    assert meta.get_all("Project-URL")


def test_the_wheel_requires_the_projects_dependencies(wheel):
    """(The venv borrows the installed dependencies, so pip does not resolve them: the wheel must
    still declare every one, as pyproject.toml lists them.)"""
    with zipfile.ZipFile(wheel) as zf:
        info = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(zf.read(info).decode())
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    required = [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r]
    assert sorted(str(Requirement(r)) for r in required) == sorted(str(Requirement(d)) for d in declared)


# --------------------------------------------------------------------------- every command, installed


def test_installed_kotc_rulesc_is_the_wheel_not_the_checkout(venv, elsewhere):
    probe = "import kotc_rulesc, kotc_tables; from kotc_rulesc import bundled; " \
            "print(kotc_rulesc.__file__); print(kotc_tables.__file__); print(bundled.checkout_root()); print(bundled.rules_dir())"
    done = _run([str(venv / "bin" / "python"), "-c", probe], cwd=elsewhere, env=_env())
    assert done.returncode == 0, done.stderr
    package, tables, checkout, rules = done.stdout.splitlines()
    assert package.startswith(str(venv)) and tables.startswith(str(venv)), done.stdout
    assert checkout == "None" and rules.startswith(str(venv))
    assert not str(ROOT) in done.stdout


def test_python_dash_m_runs_the_command_line(venv, elsewhere):
    done = _run([str(venv / "bin" / "python"), "-m", "kotc_rulesc", "--help"], cwd=elsewhere, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: kotc-rulesc [OPTIONS] COMMAND")
    version = _run([str(venv / "bin" / "python"), "-m", "kotc_rulesc", "--version"], cwd=elsewhere, env=_env())
    assert version.returncode == 0 and version.stdout.startswith("kotc-rulesc, version ")


@pytest.mark.parametrize("rules", [None, "checkout", "built"], ids=["bundled-rules", "own-rules", "own-rules-built"])
def test_every_reading_command_runs_outside_the_repository(venv, elsewhere, tmp_path, rules):
    extra: list[str] = []
    if rules:  # a maintainer's own rules checkout, somewhere else (with its generated/ up to date)
        shutil.copytree(ROOT / "rules", tmp_path / "rules")
        if rules == "built":
            shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
        extra = ["--rules", str(tmp_path / "rules")]
    done = kotc(venv, elsewhere, "check", *extra)
    assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stdout + done.stderr
    done = kotc(venv, elsewhere, "editions", *extra)
    assert done.returncode == 0 and "17  " in done.stdout, done.stderr
    done = kotc(venv, elsewhere, "show", "-e", "9", *extra)
    assert done.returncode == 0 and done.stdout.startswith("Keeper of the Cards — 9th Edition"), done.stderr
    done = kotc(venv, elsewhere, "cost", "-e", "9", "--type", "spell", "--text", "Draw 2 cards.", *extra)
    assert done.returncode == 0 and "(unnamed card): cost 4 in the 9th edition" in done.stdout, done.stderr
    done = kotc(venv, elsewhere, "check-cards", "collection.yaml", "-e", "6", *extra)
    assert done.returncode == 1 and "24 cards: 20 legal, 4 banned" in done.stdout, done.stderr
    out = elsewhere / f"migrated-{rules}.yaml"
    done = kotc(venv, elsewhere, "migrate", "collection.yaml", "--from", "6", "--to", "11-pre", "-o", out.name, *extra)
    assert done.returncode == 1, done.stderr
    assert "24 cards: 7 revised, 5 re-issued, 3 unchanged, 9 banned" in done.stderr
    assert "Activate when you take at least 5 damage." in out.read_text()
    done = kotc(venv, elsewhere, "diff", "8", "9", "--format", "html", *extra)
    assert done.returncode == 0 and done.stdout.startswith("<!DOCTYPE html>"), done.stderr
    assert "8th Edition → 9th Edition" in done.stdout
    done = kotc(venv, elsewhere, "schema", "edition")
    assert done.returncode == 0 and '"$id": "urn:kotc-rulesc:schema:edition"' in done.stdout, done.stderr
    done = kotc(venv, elsewhere, "editions", *extra)
    assert "site-packages" not in done.stdout and str(tmp_path) not in done.stdout
    done = kotc(venv, elsewhere, "docs")
    assert done.returncode == 0 and "site-packages" in done.stdout, done.stderr
    index = Path(done.stdout.split("file://", 1)[1].split()[0])
    assert index.name == "index.html" and index.is_file() and (index.parent / "search-index.js").is_file()
    if rules is None:  # (the bundled rules: an installed kotc-rulesc exports them for a maintainer to start from)
        done = kotc(venv, elsewhere, "rules", "export", "exported/rules")
        assert done.returncode == 0 and "kotc-rulesc check --rules exported/rules" in done.stdout, done.stderr
        assert kotc(venv, elsewhere, "check", "--rules", "exported/rules").returncode == 0


def test_build_from_the_wheel_reproduces_the_repositorys_generated_files(venv, elsewhere, tmp_path):
    out = tmp_path / "out"
    done = kotc(venv, elsewhere, "build", "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    built = _tree(out)
    assert built == _tree(ROOT / "generated"), "the wheel's rules and templates build other files than generated/"
    assert kotc(venv, elsewhere, "build", "--check", "-o", str(out)).returncode == 0
    # the bundled rules of an installed kotc-rulesc have no output folder of their own
    done = kotc(venv, elsewhere, "build")
    assert done.returncode == 2 and "give --out DIR" in done.stderr


def test_build_check_on_a_maintainers_checkout_looks_beside_its_rules(venv, elsewhere, tmp_path):
    checkout = tmp_path / "my-rules"
    shutil.copytree(ROOT / "rules", checkout / "rules")
    shutil.copytree(ROOT / "generated", checkout / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    done = kotc(venv, checkout, "build", "--check", "--rules", "rules")
    assert done.returncode == 0 and done.stdout.startswith("up to date: generated"), done.stdout + done.stderr
    assert "made from rules as they are by this kotc-rulesc" in done.stdout  # (no build: its manifest says so)
    (checkout / "rules" / "edition-17.yaml").write_text((checkout / "rules" / "edition-17.yaml").read_text() + "\n# a note\n")
    done = kotc(venv, checkout, "build", "--check", "--rules", "rules")
    assert done.returncode == 1 and "stale" in done.stdout


def test_the_workbench_serves_its_page_from_the_installed_wheel(venv, elsewhere):
    """The page and its scripts are package data: the installed workbench serves them, and judges a
    card; SIGTERM stops it (143)."""
    import json
    import signal
    import urllib.request

    server = subprocess.Popen([str(venv / "bin" / "kotc-rulesc"), "workbench", "collection.yaml"], cwd=elsewhere,
                              env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("The workbench: http://127.0.0.1:"), line + server.stderr.read()
        url = line.split()[2]
        fetch = urllib.request.build_opener(urllib.request.ProxyHandler({})).open
        with fetch(url, timeout=60) as answer:
            page = answer.read().decode()
        assert '<script type="module" src="/static/workbench.js">' in page
        for name in ("workbench.js", "form.js", "judgement.js", "palette.js", "collection.js", "dom.js", "workbench.css"):
            with fetch(url + "static/" + name, timeout=60) as answer:
                assert answer.status == 200 and len(answer.read()) > 500, name
        with fetch(url + "api/editions", timeout=60) as answer:
            given = json.loads(answer.read())["collection"]
        assert given["name"] == "collection.yaml" and given["check"]["summary"]["cards"] == 24
        card = {"card": {"name": "Insight", "type": "spell", "edition": 9, "cost": 4, "text": "Draw 2 cards."}, "edition": 9}
        judge = urllib.request.Request(url + "api/judge", json.dumps(card).encode(), {"Content-Type": "application/json"})
        with fetch(judge, timeout=60) as answer:
            assert json.loads(answer.read())["cost"]["cost"] == 4
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 143 and err.endswith("Interrupted.\n"), err
