"""The compiled tables agree with the in-memory fold, edition by edition and step by step."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kotc_rulesc.codegen.emit import edition_inputs, emit_edition, tables_catalog
from kotc_rulesc.catalog import Catalog
from kotc_rulesc.fold import derive_passes, fold
from kotc_rulesc.model import RuleSet, When
from kotc_rulesc.passes import Pass
from kotc_rulesc.show import catalog_json
from kotc_rulesc.tables import from_data, to_data
from kotc_rulesc.text import Template

from support.codegen_support import MINI, NASTY, REAL, build_into
from support.loaded import rules_of

RULE_SETS = [pytest.param(MINI, id="mini"), pytest.param(NASTY, id="nasty"), pytest.param(REAL, id="real")]


@pytest.fixture(scope="module", params=RULE_SETS)
def pair(request, tmp_path_factory):
    rules_dir = request.param
    rules = rules_of(rules_dir)
    view = build_into(rules_dir, tmp_path_factory.mktemp(rules_dir.name))
    return rules, view


def test_view_bounds(pair):
    rules, view = pair
    assert (view.first, view.last, view.keys) == (rules.first, rules.last, tuple(rules.all_keys))
    assert view.newest_with_catalog() == rules.newest_with_catalog()
    assert view.sources == rules.sources
    assert view.type_aliases() == rules.type_aliases() and view.decisive_fields() == rules.decisive_fields()


def test_every_catalog_from_the_tables_equals_the_folded_one(pair):
    """Field for field, but for its own file's events (the passes carry them: tables_catalog)."""
    rules, view = pair
    for n in rules.all_keys:
        folded, compiled = fold(rules, n), view.catalog(n)
        assert compiled == tables_catalog(folded), n
        assert catalog_json(compiled) == catalog_json(folded), n
        for name in ("number", "base", "follows", "pre_release", "sources", "clean_slate", "catalog_known",
                     "catalog_whole", "notes", "name"):
            assert getattr(compiled.declared, name, None) == getattr(folded.declared, name, None), (n, name)


def test_every_pass_from_the_tables_equals_derive_passes(pair):
    rules, view = pair
    assert view.passes() == derive_passes(rules)


def test_formulas_from_the_tables_evaluate_exactly(pair):
    rules, view = pair
    for n in rules.all_keys:
        for c in view.catalog(n).components or ():
            if c.formula is None:
                continue
            names = sorted(c.formula.variables)
            pools = [[Fraction(5, 2), 1, 4] if v == "t" else [1, 2, 7] for v in names]
            for values in itertools.islice(itertools.product(*pools), 20):
                value = c.formula.evaluate(dict(zip(names, values)))
                assert type(value) is Fraction


def _values(t: Template, value: int) -> dict[str, int]:
    return {v: value for v in t.variables}


def test_each_rewrite_changes_its_old_wording_and_nothing_else(pair):
    """lib2to3-style: a text each rewrite changes, a text it leaves alone, a fixpoint."""
    _, view = pair
    for step in view.passes():
        for rw in step.rewrites:
            for value in (1, 3):
                old = rw.old.render(_values(rw.old, value))
                new = rw.apply(old)
                assert new == rw.new.render({**_values(rw.old, value), **rw.binds}), (rw.component, old)
                assert rw.apply(new) is None, f"{rw.component}: applying twice changes {new!r}"
            assert rw.apply("This sentence is no component's wording.") is None


def test_edition_inputs_name_every_file_an_edition_derives_from(pair):
    """Folding only the files an edition's manifest entry names gives the same module."""
    rules, _ = pair
    for n in rules.all_keys:
        keep = set(edition_inputs(rules, n))
        subset = RuleSet(tuple(e for e in rules.editions if e.file in keep), rules.sources, rules.directory)
        assert emit_edition(subset, n) == emit_edition(rules, n), n


def test_values_are_plain_literals_that_read_back():
    """A record is a dict of its fields (those at their default left out), a text its segments,
    a formula its notation; from_data reads each back by the class's declared field types."""
    rules = rules_of(MINI)
    cat = tables_catalog(fold(rules, 2))
    data = to_data(cat)
    draw = next(c for c in data["components"] if c["id"] == "effect-draw")
    assert draw["text"] == ("Draw ", ("x",), " ", ("x", "cards", "card"), ".") and draw["formula"] == "2x"
    assert "replacement" not in draw and "ultra" not in draw  # (at their defaults)
    assert from_data(Catalog, data) == cat
    assert to_data(When(3, 4)) == {"edition": 3, "by": 4} and from_data(When, {"edition": None, "by": 4}) == When(None, 4)
    assert from_data(tuple[When, ...], ({"edition": 1, "by": 1},)) == (When(1, 1),)
    step = derive_passes(rules)[0]
    assert from_data(Pass, to_data(step)) == step
