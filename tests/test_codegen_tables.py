"""The compiled tables agree with the in-memory fold, edition by edition and step by step."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from kotc_rulesc.codegen.build import source_inputs
from kotc_rulesc.codegen.editions import edition_inputs, emit_edition
from kotc_rulesc.fold import fold
from kotc_rulesc.formula import parse_formula
from kotc_rulesc.model import RuleSet
from kotc_rulesc.fold import derive_passes
from kotc_rulesc.show import catalog_json
from kotc_rulesc.tables import CompiledFormula
from kotc_rulesc.text import Template

from codegen_support import MINI, NASTY, REAL, build_into, real_rules_present
from loaded import rules_of

RULE_SETS = [
    pytest.param(MINI, id="mini"),
    pytest.param(NASTY, id="nasty"),
    pytest.param(
        REAL,
        id="real",
        marks=pytest.mark.skipif(not real_rules_present(), reason="rules/ has no edition files yet"),
    ),
]

SAMPLES = [1, 2, 3, 5, 7, 14]


def _envs(variables):
    """Sampled values for a component formula's variables (t a fraction too)."""
    names = sorted(variables)
    pools = [[Fraction(5, 2), 1, 4] if v == "t" else SAMPLES for v in names]
    for values in itertools.islice(itertools.product(*pools), 60):
        yield dict(zip(names, values))


@pytest.fixture(scope="module", params=RULE_SETS)
def pair(request, tmp_path_factory):
    rules_dir = request.param
    rules = rules_of(rules_dir)
    view = build_into(rules_dir, tmp_path_factory.mktemp(rules_dir.name))
    return rules, view


def _same_formula(a, b):
    if a is None or b is None:
        assert a is None and b is None
        return
    assert isinstance(b, CompiledFormula)
    assert a.notation() == b.notation()
    assert a.variables == b.variables
    assert a.python() == b.python()
    assert a == b and b == a
    for env in _envs(a.variables):
        assert a.evaluate(env) == b.evaluate(env), (a.notation(), env)
        assert type(b.evaluate(env)) is Fraction


def test_view_bounds(pair):
    rules, view = pair
    assert (view.first, view.last) == (rules.first, rules.last)
    assert view.newest_with_catalog() == rules.newest_with_catalog()
    assert view.sources == rules.sources


def test_every_edition_agrees_with_the_fold(pair):
    rules, view = pair
    for n in rules.all_keys:
        folded, compiled = fold(rules, n), view.catalog(n)
        assert catalog_json(compiled) == catalog_json(folded), n
        assert compiled.catalog_known == folded.catalog_known
        assert compiled.clean_slates == folded.clean_slates
        assert compiled.successors == folded.successors
        assert compiled.rulebook == folded.rulebook
        assert compiled.cost_rule_stated == folded.cost_rule_stated
        if folded.cost_rule is None:
            assert compiled.cost_rule is None
        else:
            for (name, f), (name2, g) in zip(folded.cost_rule.parts(), compiled.cost_rule.parts()):
                assert name == name2
                assert f.notation() == g.notation() and f.python() == g.python()
        assert (compiled.declared is None) == (folded.declared is None)
        if folded.declared is not None:
            for attr in ("number", "key", "base", "follows", "pre_release", "sources", "clean_slate", "catalog_known",
                         "catalog_whole", "notes", "name"):
                assert getattr(compiled.declared, attr) == getattr(folded.declared, attr), attr
        if folded.components is None:
            assert compiled.components is None
            continue
        assert [c.id for c in compiled.components] == [c.id for c in folded.components]
        for a, b in zip(folded.components, compiled.components):
            assert isinstance(b.text, Template)
            assert b.text == a.text and b.text.skeleton == a.text.skeleton
            assert (b.kind, b.limits, b.status, b.redacted) == (a.kind, a.limits, a.status, a.redacted)
            assert (b.sources, b.replacement, b.replacement_binds) == (a.sources, a.replacement, a.replacement_binds)
            assert b.redacted_in == a.redacted_in
            assert b.cost_revised_since() == a.cost_revised_since()
            _same_formula(a.formula, b.formula)
            assert b.wordings == a.wordings
            assert b.limit_changes == a.limit_changes
            assert len(b.cost_changes) == len(a.cost_changes)
            for x, y in zip(a.cost_changes, b.cost_changes):
                assert (x.when, x.sources) == (y.when, y.sources)
                _same_formula(x.was, y.was)
                _same_formula(x.now, y.now)


def test_every_pass_agrees_with_derive_passes(pair):
    rules, view = pair
    derived, compiled = derive_passes(rules), view.passes()
    assert [(p.source, p.target) for p in compiled] == [(p.source, p.target) for p in derived]
    for a, b in zip(derived, compiled):
        assert b.rewrites == a.rewrites
        assert b.bans == a.bans
        assert b.limit_changes == a.limit_changes
        assert (b.clean_slate, b.catalog_known, b.successors) == (a.clean_slate, a.catalog_known, a.successors)
        assert b.empty == a.empty
        assert len(b.cost_changes) == len(a.cost_changes)
        for x, y in zip(a.cost_changes, b.cost_changes):
            assert (x.component, x.text, x.edition, x.by, x.sources) == (y.component, y.text, y.edition, y.by, y.sources)
            _same_formula(x.was, y.was)
            _same_formula(x.now, y.now)


def _values(t: Template, value: int) -> dict[str, int]:
    return {v: value for v in t.variables}


def test_each_generated_rewrite_changes_its_old_wording_and_nothing_else(pair):
    """lib2to3-style: a text each rewrite changes, a text it leaves alone, a fixpoint."""
    rules, view = pair
    steps = view.package.steps()
    assert steps, "no passes generated"
    for step, derived in zip(steps, derive_passes(rules)):
        for rw, expected in zip(step.rewrites, derived.rewrites):
            for value in (1, 3):
                old = rw.old.render(_values(expected.old, value))
                new = rw.apply(old)
                assert new == expected.apply(old) is not None, (rw.component, old)
                assert new == expected.new.render({**_values(expected.old, value), **expected.binds})
                assert rw.apply(new) is None, f"{rw.component}: applying twice changes {new!r}"
                assert step.rewrite(new) == (new, None) or step.rewrite(new)[1].component != rw.component
            assert rw.apply("This sentence is no component's wording.") is None
        for sentence in [rw.old.render(_values(d.old, 2)) for rw, d in zip(step.rewrites, derived.rewrites)]:
            assert step.rewrite(sentence)[0] == derived.rewrite(sentence)[0]


def test_edition_inputs_name_every_file_an_edition_derives_from(pair):
    """Folding only the files an edition module's header names gives the same module body."""
    rules, _ = pair
    hashes = source_inputs(rules, Path(rules.directory))
    for n in rules.all_keys:
        keep = set(edition_inputs(rules, n))
        subset = RuleSet(tuple(e for e in rules.editions if e.file in keep), rules.sources, rules.directory)
        assert emit_edition(subset, n, hashes) == emit_edition(rules, n, hashes), n


def test_compiled_formula_behaves_like_a_formula():
    f = parse_formula("x/(y+1)")
    c = CompiledFormula("x/(y+1)", None)
    assert c == f and hash(c) == hash(CompiledFormula("x/(y+1)"))
    assert c.evaluate({"x": 3, "y": 1}) == Fraction(3, 2)
    assert c.variables == {"x", "y"} and str(c) == "x/(y+1)" and c.python() == f.python()
    with pytest.raises(TypeError):
        c.evaluate({"x": 1.5, "y": 1})


def test_generated_cost_functions_refuse_floats_and_report_missing_variables(tmp_path):
    view = build_into(MINI, tmp_path / "out")
    draw = view.catalog(2).by_id()["effect-draw"].formula
    assert draw.compiled
    assert draw.evaluate({"x": 3}) == 6
    with pytest.raises(TypeError):
        draw.evaluate({"x": 3.0})
    with pytest.raises(KeyError, match="'x'"):
        draw.evaluate({})
    rule = view.catalog(2).cost_rule
    assert rule.formula("creature_cost").evaluate(
        {"offense": 3, "defense": 4, "caveat_relief": Fraction(1, 2), "ability_costs": [2, Fraction(3, 2)]}
    ) == 7
    assert rule.formula("spell_cost").evaluate({"ability_cost": Fraction(1, 3)}) == 1
