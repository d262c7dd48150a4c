"""Where kotc-rulesc finds what it ships: the rules, the templates, the schemas, the output folder.

In a source checkout (kotc_rulesc/ beside pyproject.toml, rules/ and templates/) these are the
repository's own folders; in an installed wheel, package data under ``kotc_rulesc/_bundled/``
(pyproject.toml's ``[tool.setuptools.package-dir]``).  The schemas are package data in both.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE_DIR", "checkout_root", "default_out_dir", "docs_dir", "rules_dir", "schema_path", "site_dir",
           "templates_dir"]

#: the installed (or checked-out) kotc_rulesc package
PACKAGE_DIR = Path(__file__).resolve().parent
#: the JSON Schemas kotc-rulesc ships, by the name `kotc-rulesc schema NAME` takes
SCHEMA_NAMES = ("edition", "collection")


def checkout_root() -> Path | None:
    """The source checkout this kotc_rulesc runs from, or ``None`` when it is installed from a wheel."""
    root = PACKAGE_DIR.parent
    if (root / "pyproject.toml").is_file() and (root / "rules").is_dir() and (root / "templates").is_dir():
        return root
    return None


def _shipped(in_checkout: str, in_wheel: str) -> Path:
    root = checkout_root()
    return root / in_checkout if root is not None else PACKAGE_DIR / "_bundled" / in_wheel


def rules_dir() -> Path:
    return _shipped("rules", "rules")


def templates_dir() -> Path:
    """The jinja2 templates and the style sheet of the documents."""
    return _shipped("templates", "templates")


def docs_dir() -> Path:
    """The Markdown sources of the docs site's topic pages."""
    return _shipped("docs", "docs")


def site_dir() -> Path:
    """The built docs site (``kotc-rulesc docs``)."""
    return _shipped("generated/docs", "site")


def default_out_dir(rules_dir: str | Path | None) -> Path | None:
    """Where a build of ``rules_dir`` goes, and the tables that answer for it are: the ``generated/``
    beside it; for the bundled rules the checkout's, or ``None`` installed."""
    if rules_dir is not None:
        return Path(rules_dir).resolve().parent / "generated"
    root = checkout_root()
    return root / "generated" if root is not None else None


def schema_path(name: str) -> Path:
    """The JSON Schema ``name`` (``edition`` or ``collection``)."""
    if name not in SCHEMA_NAMES:
        raise ValueError(f"no schema {name!r}: the schemas are {', '.join(SCHEMA_NAMES)}")
    return PACKAGE_DIR / "schemas" / f"{name}.schema.json"
