"""Helpers for the code generator's tests: build a rules directory, load its tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kotc_rulesc.codegen import generate, write
from kotc_rulesc.tables import TablesView
from support.loaded import rules_of

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MINI = FIXTURES / "mini_rules"
NASTY = FIXTURES / "nasty_rules"
REAL = ROOT / "rules"
CLI = [sys.executable, "-m", "kotc_rulesc.cli"]


def build_into(rules_dir: Path, out: Path) -> TablesView:
    """Compile ``rules_dir`` into ``out`` (the tables, without the docs pages) and return a view
    on the result."""
    write(out, generate(rules_of(rules_dir), rules_dir, docs=False))
    return TablesView.from_directory(out)


def run_cli(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, cwd=cwd or ROOT)
