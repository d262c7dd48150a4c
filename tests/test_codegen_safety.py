"""No string from the rules reaches generated code except as an escaped literal.

tests/fixtures/nasty_rules puts quotes, backslashes, newlines, triple quotes, braces,
NUL, line separators and ``__import__('os')`` into texts, names, notes, source titles
and rulebook terms.  The build succeeds, every generated module holds only the
generator's own vocabulary outside its literals, the package imports with the
standard library alone, and every text reads back exactly.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys

import pytest
from hypothesis import example, given, strategies as st

from kotc_rulesc.codegen import generate
from kotc_rulesc.codegen.common import CodegenError, function_source
from kotc_rulesc.codegen.pysrc import Call, Name, WIDTH, assign, expr, str_literal
from kotc_rulesc.fold import fold
from kotc_rulesc.formula import Formula, Var

from codegen_support import NASTY, build_into
from loaded import rules_of

HOSTILE = ["__import__", '"""', "\\", "\n", "{", "}", "'''"]

#: every name generated code (outside _runtime.py, which is copied verbatim) may use
VOCABULARY = {
    "F", "math", "importlib", "var", "env", "c", "COMPONENTS", "BY_ID", "STEP", "REWRITES", "BANS",
    "COST_CHANGES", "LIMIT_CHANGES", "SOURCE", "TARGET", "CLEAN_SLATE", "CATALOG_KNOWN",
    "SUCCESSORS", "REINSTATED", "DISAGREEMENTS", "SYSTEM", "EDITION_MODULES", "STEP_MODULES", "name", "EDITIONS", "FIRST", "LAST", "n", "source", "ValueError", "__name__", "sum",
    "max", "min", "x", "y", "z", "t", "condition_relief", "cost_relief", "effect_costs",
    "total_relief", "offense", "defense", "caveat_relief", "ability_costs", "ability_cost",
    "sp", "hp", "sub_ability_costs",
    "edition", "step", "steps", "rewrite", "GENERATOR", "NEWEST_WITH_CATALOG", "RULES_FILES",
    "SOURCES", "INPUTS", "EDITION", "CLEAN_SLATES", "DECLARED", "COST_RULE", "COST_RULE_STATED",
    "RULEBOOK", "MODULES", "range", "CATALOG", "TYPE_ALIASES", "DECISIVE_FIELDS",
}
GENERATED_NAME = re.compile(r"(cost|rule)_[a-z0-9_]+|REWRITE_[A-Z0-9_]+")


@pytest.fixture(scope="module")
def nasty_files():
    return generate(rules_of(NASTY), NASTY, docs=False)


def test_the_fixture_really_is_hostile():
    rules = rules_of(NASTY)
    texts = [str(c.text) for e in rules.editions for c in e.components]
    texts += [str(r.text) for e in rules.editions for r in e.text_revisions]
    joined = "".join(texts) + "".join(s.title + s.file for s in rules.sources.values())
    for needle in HOSTILE:
        assert needle in joined, needle


def test_generated_modules_use_only_the_generators_vocabulary(nasty_files):
    from kotc_rulesc.codegen import runtime

    runtime_names = set(runtime.RUNTIME_NAMES)
    for path, data in nasty_files.items():
        if not path.endswith(".py") or path.endswith("_runtime.py") or "/_core/" in path:
            continue  # the core is kotc-rulesc's own code, copied (test_the_core_is_copied_verbatim)
        tree = ast.parse(data.decode("utf-8"), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                ok = node.id in VOCABULARY or node.id in runtime_names or GENERATED_NAME.fullmatch(node.id)
                assert ok, f"{path}:{node.lineno}: unexpected name {node.id!r}"
            elif isinstance(node, ast.Attribute):
                assert node.attr in {"ceil", "floor", "id", "import_module", "STEP", "rewrite"}, node.attr
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                assert set(modules) <= {"math", "importlib", "fractions", "_runtime"}, modules
            elif isinstance(node, ast.JoinedStr):
                assert path.endswith("__init__.py"), f"{path}:{node.lineno}: an f-string"
            elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant):
                raise AssertionError(f"{path}:{node.lineno}: a bare expression statement")


def test_the_package_imports_with_the_standard_library_alone_and_texts_round_trip(tmp_path):
    build_into(NASTY, tmp_path)
    rules = rules_of(NASTY)
    expected = {
        n: [[c.id, str(c.text), [str(w.text) for w in c.wordings]] for c in fold(rules, n).components]
        for n in (rules.first, rules.last)
    }
    script = r"""
import importlib.abc, json, sys
BLOCKED = ("kotc_rulesc", "ruamel", "jsonschema", "jinja2", "click", "yaml")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
sys.path.insert(0, sys.argv[1])
import kotc_tables
from kotc_tables._runtime import normalize
out = {}
for n in kotc_tables.EDITIONS:
    mod = kotc_tables.edition(n)
    out[n] = [[c.id, str(c.text), [str(w.text) for w in c.wordings]] for c in mod.COMPONENTS]
    assert mod.CATALOG.components is mod.COMPONENTS and type(mod.CATALOG).__module__ == "kotc_tables._core.catalog"
    for c in mod.COMPONENTS:
        env = {v: 2 for v in "xyzt"}
        assert c.formula is None or c.formula.evaluate(env) is not None
        printed = c.text.render({v: 3 for v in c.text.variables})
        if normalize(printed) == printed:  # a sentence is read normalized, as in kotc_rulesc
            assert c.text.match(printed).values == {v: 3 for v in c.text.variables}, c.id
for s in kotc_tables.steps():
    for rw in s.rewrites:
        assert rw.apply(rw.old.render({v: 1 for v in rw.old.variables})) is not None
print(json.dumps({"editions": out, "sources": kotc_tables.SOURCES,
                  "name": kotc_tables.edition(1).DECLARED.name,
                  "terms": kotc_tables.edition(2).RULEBOOK.terms,
                  "zones": kotc_tables.edition(2).RULEBOOK.zones,
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)}))
"""
    done = subprocess.run([sys.executable, "-I", "-c", script, str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["loaded"] == []
    assert {int(k): v for k, v in got["editions"].items() if int(k) in expected} == expected
    assert got["sources"] == {s.id: [s.file, s.title] for s in rules.sources.values()}
    assert got["name"] == rules.edition(1).name
    rulebook = rules.edition(2).rulebook
    assert got["terms"] == rulebook.terms and got["zones"] == list(rulebook.zones)


@given(st.text())
def test_any_string_becomes_a_literal_that_reads_back(text):
    lit = str_literal(text)
    assert ast.literal_eval(lit) == text
    assert "\n" not in lit and "\r" not in lit
    src = assign("VALUE", Call("Text", text, (text, Name("F")), key=[text, {text: None}]))
    tree = ast.parse(src)
    call = tree.body[0].value
    assert ast.literal_eval(call.args[0]) == text
    assert max(len(line) for line in src.splitlines()) <= WIDTH


@given(st.text(min_size=200, max_size=400))
def test_long_strings_wrap_to_the_width(text):
    src = "X = " + expr(text, 0, 4) + "\n"
    assert ast.literal_eval(ast.parse(src).body[0].value) == text
    assert all(len(line) <= WIDTH for line in src.splitlines())


def test_the_generator_refuses_names_a_formula_may_not_use():
    sneaky = Formula(Var("__import__"))
    with pytest.raises(CodegenError):
        function_source("cost_x", sneaky, frozenset("xyzt"))
    with pytest.raises(ValueError):
        function_source("cost_x; import os", Formula(Var("x")), frozenset("xyzt"))
    with pytest.raises(ValueError):
        Call("Text(); __import__('os').system", "a")
    with pytest.raises(TypeError):
        expr(object())


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
                    assert "__import__('os')" not in line or "\\n" in line


_VALUES = st.recursive(
    st.one_of(st.text(), st.integers(), st.none(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner), st.tuples(inner, inner), st.dictionaries(st.text(), inner)),
    max_leaves=20,
)


@given(_VALUES)
@example(("", {"0000000000000\x1f\x1f\x1f\x1f\x1f\x08\U0001342f\U00018d09\U00018d09\U00018d09\U0001fbcb": []}))
@example((None, {"0000000000000\x1f\x1f\x1f\x1f\x1f\x08\U0001342f\U00018d09\U00018d09\U00018d09\U0001fbcb": ""}))
@example((None, {"0000000000000\x1f\x1f\x1f\x1f\x1f\x08\U0001342f\U00018d09\U00018d09\U00018d09\U0001fbcb": "0"}))
def test_any_nested_value_reads_back_within_the_width(value):
    """(The examples: an empty value after a long key once became "(\n)", an empty tuple; a value
    broken after a key left no room for its opener.)"""
    src = assign("VALUE", value)
    assert ast.literal_eval(ast.parse(src).body[0].value) == value
    assert all(len(line) <= WIDTH for line in src.split("\n")), src


def test_the_names_the_generator_allows_are_the_ones_the_loader_allows(rules):
    """The rule functions may read exactly the inputs the system gives some scope, and the
    rule's own formula names; component functions exactly the component variables."""
    from kotc_rulesc.codegen.common import COMPONENT_NAMES, rule_names
    from kotc_rulesc.fold import fold
    from kotc_rulesc.formula import COMPONENT_VARIABLES

    assert COMPONENT_NAMES == COMPONENT_VARIABLES
    for key in rules.all_keys:
        cat = fold(rules, key)
        allowed = rule_names(cat.system, cat.cost_rule)
        used = set().union(*(f.variables for _, f in cat.cost_rule.parts()))
        assert used <= allowed, key
        assert {name for name, _ in cat.cost_rule.parts()} <= allowed
    twelfth = fold(rules, 12)
    assert {"sp", "hp", "sub_ability_costs", "effect_costs", "cost_relief"} <= rule_names(twelfth.system, twelfth.cost_rule)
    assert "offense" not in rule_names(twelfth.system, twelfth.cost_rule)




def test_the_core_is_copied_verbatim(nasty_files):
    """The tables' engine is kotc-rulesc's own: each _core module is the package's module
    byte for byte, after the generated header."""
    from pathlib import Path

    import kotc_rulesc
    from kotc_rulesc.tables import CORE_MODULES

    root = Path(kotc_rulesc.__file__).parent
    for module in CORE_MODULES:
        copy = nasty_files[f"kotc_tables/_core/{module}.py"].decode("utf-8")
        own = (root / f"{module}.py").read_text(encoding="utf-8")
        assert copy.startswith("# Generated by") and copy.endswith(own), module
        header = copy[: len(copy) - len(own)]
        assert all(line.startswith("#") for line in header.splitlines()), module
