"""No string from the rules reaches generated code: the tables are literals, nothing else.

tests/fixtures/nasty_rules puts quotes, backslashes, newlines, triple quotes, braces,
NUL, line separators and ``__import__('os')`` into texts, names, notes, source titles
and rulebook terms.  The build succeeds, every generated module is comments, a docstring
of the generator's own and ``NAME = literal`` assignments, the package reads with the
standard library alone, and every text reads back exactly.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from kotc_rulesc.codegen import generate
from kotc_rulesc.codegen.emit import literal
from kotc_rulesc.fold import fold
from kotc_rulesc.history.text_revision import TextRevision

from support.codegen_support import NASTY, build_into
from support.loaded import rules_of

HOSTILE = ["__import__", '"""', "\\", "\n", "{", "}", "'''"]


@pytest.fixture(scope="module")
def nasty_files():
    return generate(rules_of(NASTY), NASTY, docs=False)


def test_the_fixture_really_is_hostile():
    rules = rules_of(NASTY)
    texts = [str(c.text) for e in rules.editions for c in e.components]
    texts += [str(r.text) for e in rules.editions for r in e.of_kind(TextRevision)]
    joined = "".join(texts) + "".join(s.title + s.file for s in rules.sources.values())
    for needle in HOSTILE:
        assert needle in joined, needle


def test_every_generated_module_is_literal_assignments(nasty_files):
    modules = {path: data.decode("utf-8") for path, data in nasty_files.items() if path.endswith(".py")}
    assert modules
    for path, text in modules.items():
        head, _, _ = text.partition('"""')
        assert all(line.startswith("# ") for line in head.splitlines()), path
        tree = ast.parse(text, path)
        doc, *body = tree.body
        assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str)
        for node in body:
            assert isinstance(node, ast.Assign) and [type(t) for t in node.targets] == [ast.Name], f"{path}:{node.lineno}"
            ast.literal_eval(node.value)  # raises for anything but a literal


def test_the_package_reads_with_the_standard_library_alone_and_texts_round_trip(tmp_path):
    build_into(NASTY, tmp_path)
    rules = rules_of(NASTY)
    expected = {
        n: [[c.id, str(c.text), [str(w.text) for w in c.wordings]] for c in fold(rules, n).components]
        for n in (rules.first, rules.last)
    }
    script = r"""
import importlib, importlib.abc, json, sys
BLOCKED = ("kotc_rulesc", "ruamel", "jsonschema", "jinja2", "click", "yaml")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
sys.path.insert(0, sys.argv[1])
import kotc_tables
def text(segments):
    return "".join(s if isinstance(s, str) else f"[{s[0]}]" if len(s) == 1 else s[1] for s in segments)
out = {}
for n in kotc_tables.EDITIONS:
    cat = importlib.import_module("kotc_tables." + kotc_tables.EDITION_MODULES[n]).CATALOG
    out[n] = [[c["id"], text(c["text"]), [text(w["text"]) for w in c["wordings"]]] for c in cat["components"]]
    if n == 2:
        rulebook = cat["rulebook"]
first = importlib.import_module("kotc_tables." + kotc_tables.EDITION_MODULES[1]).CATALOG
steps = [importlib.import_module("kotc_tables." + name).PASS for name in kotc_tables.STEP_MODULES]
print(json.dumps({"editions": out, "sources": kotc_tables.SOURCES, "name": first["declared"]["name"],
                  "terms": rulebook["terms"], "zones": rulebook["zones"], "steps": len(steps),
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)}))
"""
    done = subprocess.run([sys.executable, "-I", "-c", script, str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["loaded"] == []
    assert {int(k): v for k, v in got["editions"].items() if int(k) in expected} == expected
    assert got["sources"] == {s.id: [s.file, s.title] for s in rules.sources.values()}
    assert got["name"] == rules.edition(1).name and got["steps"] == len(rules.editions) - 1
    rulebook = rules.edition(2).rulebook
    assert got["terms"] == rulebook.terms and got["zones"] == list(rulebook.zones)


def test_unusual_names_in_the_build_directory_stay_out_of_code(tmp_path):
    odd = tmp_path / "rules\n__import__('os')"
    odd.mkdir()
    for f in NASTY.iterdir():
        (odd / f.name).write_bytes(f.read_bytes())
    files = generate(rules_of(odd), odd, docs=False)
    for path, data in files.items():
        if path.endswith(".py"):
            compile(data, path, "exec")
            for line in data.decode().splitlines():
                if line.startswith("#"):
                    assert "__import__('os')" not in line


_VALUES = st.recursive(
    st.one_of(st.text(), st.integers(), st.none(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner).map(tuple), st.dictionaries(st.one_of(st.text(), st.integers()), inner)),
    max_leaves=30,
)


@given(_VALUES, st.integers(0, 8), st.integers(0, 60))
def test_any_literal_reads_back_as_the_value(value, level, lead):
    assert ast.literal_eval(literal(value, level, lead)) == value
