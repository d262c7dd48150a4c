"""docs/api.md's examples, run: each ```python block in order, in one namespace (as a reader types them
into one session), from the repository's root, and what it prints compared with the ```text block
under it."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "api.md"
EXAMPLE = re.compile(r"```python\n(.*?)```\n\n```text\n(.*?)```", re.S)


def _examples() -> list[tuple[str, str]]:
    return EXAMPLE.findall(PAGE.read_text(encoding="utf-8"))


def test_every_python_block_of_the_page_shows_its_output():
    blocks = re.findall(r"```python\n", PAGE.read_text(encoding="utf-8"))
    assert len(_examples()) == len(blocks) >= 8


def test_the_examples_print_what_the_page_shows(monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for code, shown in _examples():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), namespace)  # noqa: S102  (the docs' own examples)
        assert out.getvalue() == shown, code
    assert os.getcwd() == str(ROOT)


@pytest.mark.parametrize("name", ["Rules", "editions", "current", "system", "components", "wording", "nearest",
                                  "judge", "check", "migrate", "documents"])
def test_the_reference_names_every_function(name):
    from kotc_rulesc import api

    page = PAGE.read_text(encoding="utf-8")
    assert name in api.__all__
    assert f"`{name}(" in page or f"api.{name}" in page
