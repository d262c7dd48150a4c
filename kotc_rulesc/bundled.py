"""Where kotc-rulesc finds what it ships: the rules, the templates, the schemas, the output folder.

This is the one place that knows.  In a source checkout (kotc_rulesc/ beside pyproject.toml,
rules/ and templates/, as in the repository and in an editable install) everything is the
repository's own folder: ``rules/``, ``templates/``, ``generated/``.  In an installed wheel
the same files are package data under ``kotc_rulesc/_bundled/`` — pyproject.toml maps the
repository's ``rules/``, ``templates/``, ``docs/`` (the topic pages' sources) and the built site
``generated/docs/`` there (``[tool.setuptools.package-dir]``), so
the repository keeps its layout and the wheel carries them — and the compiled tables are the
installed ``kotc_tables`` package (built from ``generated/kotc_tables``).  The schemas are
package data in both cases (``kotc_rulesc/schemas/``).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE_DIR", "SCHEMA_NAMES", "checkout_root", "default_out_dir", "docs_dir", "generated_dir", "rules_dir",
           "schema_path", "site_dir", "templates_dir"]

#: the installed (or checked-out) kotc_rulesc package
PACKAGE_DIR = Path(__file__).resolve().parent
#: where a wheel keeps rules/ and templates/ (see pyproject.toml)
_BUNDLED = PACKAGE_DIR / "_bundled"
#: the JSON Schemas kotc-rulesc ships, by the name `kotc-rulesc schema NAME` takes
SCHEMA_NAMES = ("edition", "collection")


def checkout_root() -> Path | None:
    """The source checkout this kotc_rulesc runs from (its pyproject.toml, rules/ and
    templates/ beside the package), or ``None`` when it is installed from a wheel."""
    root = PACKAGE_DIR.parent
    if (root / "pyproject.toml").is_file() and (root / "rules").is_dir() and (root / "templates").is_dir():
        return root
    return None


def rules_dir() -> Path:
    """The bundled rules: the checkout's ``rules/``, or the wheel's copy."""
    root = checkout_root()
    return root / "rules" if root is not None else _BUNDLED / "rules"


def templates_dir() -> Path:
    """The jinja2 templates and the style sheet of the documents."""
    root = checkout_root()
    return root / "templates" if root is not None else _BUNDLED / "templates"


def docs_dir() -> Path:
    """The Markdown sources of the docs site's topic pages: the checkout's ``docs/``, or the wheel's copy."""
    root = checkout_root()
    return root / "docs" if root is not None else _BUNDLED / "docs"


def site_dir() -> Path:
    """The built docs site (``kotc-rulesc docs``): the checkout's ``generated/docs/``, or the copy the
    wheel carries (built from it)."""
    root = checkout_root()
    return root / "generated" / "docs" if root is not None else _BUNDLED / "site"


def generated_dir() -> Path | None:
    """The checkout's ``generated/`` (what `kotc-rulesc build` writes by default), or ``None``
    when installed: an installed kotc-rulesc has no output folder of its own."""
    root = checkout_root()
    return root / "generated" if root is not None else None


def default_out_dir(rules_dir: str | Path | None) -> Path | None:
    """Where a build of ``rules_dir`` goes, and the tables that answer for it are: the ``generated/``
    beside it (a rules checkout laid out like this repository); for the bundled rules the
    checkout's, or ``None`` installed."""
    if rules_dir is not None:
        return Path(rules_dir).resolve().parent / "generated"
    return generated_dir()


def schema_path(name: str) -> Path:
    """The JSON Schema ``name`` (``edition`` or ``collection``)."""
    if name not in SCHEMA_NAMES:
        raise ValueError(f"no schema {name!r}: the schemas are {', '.join(SCHEMA_NAMES)}")
    return PACKAGE_DIR / "schemas" / f"{name}.schema.json"
