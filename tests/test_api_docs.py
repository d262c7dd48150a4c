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
                                  "judge", "check", "migrate", "documents", "rules"])
def test_the_reference_names_every_function(name):
    from kotc_rulesc import api

    page = PAGE.read_text(encoding="utf-8")
    assert name in api.__all__
    assert f"`{name}(" in page or f"api.{name}" in page


def _reference() -> str:
    return PAGE.read_text(encoding="utf-8").split("## Reference", 1)[1]


@pytest.mark.parametrize(("call", "named"), [
    (lambda api, tmp: api.system("18"), "`api.EditionError`"),
    (lambda api, tmp: api.components(17, kind="effects"), "`ValueError`"),
    (lambda api, tmp: api.wording("effect-fly-to-the-moon"), "`KeyError`"),
    (lambda api, tmp: api.check({"name": "Insight"}), "`TypeError`"),
    (lambda api, tmp: api.check(str(tmp / "missing.yaml")), "`kotc_rulesc.reading.policy.InputError`"),
    (lambda api, tmp: api.Rules(tmp / "no-rules"), "`kotc_rulesc.errors.ProblemsFound`"),
], ids=["edition", "kind", "component", "type", "file", "rules"])
def test_the_reference_names_the_error_a_programs_mistake_raises(call, named, tmp_path):
    """A program had to read the source to know that a missing collection file raised an InputError,
    rules that do not load a ProblemsFound, an unknown component a KeyError."""
    from kotc_rulesc import api

    with pytest.raises(Exception) as raised:
        call(api, tmp_path)
    assert named in _reference() and named.strip("`").endswith(type(raised.value).__name__)
    assert named.strip("`").startswith(("api.", type(raised.value).__module__ + ".", type(raised.value).__name__))
