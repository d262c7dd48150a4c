"""Property: every component of every edition, rendered with sampled values, parses back
to the same component and values, and costs what its formula says.

Runs over the small fixture rules and the bundled rules.  Each distinct component state
(text, formula, limits) is tested once, in the first edition where it appears, with a
modest number of sampled values, so that the suite stays fast.
"""

import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kotc_rulesc.cards import card_cost, parse_card
from kotc_rulesc.cards.sentence import read_sentence

from support.loaded import view_of

MINI = Path(__file__).parent / "fixtures" / "mini_rules"


def _views():
    """The fixture's and the bundled rules, as the other test modules of this process read them (once)."""
    return {"mini": view_of(MINI), "bundled": view_of()}


VIEWS = _views()


def _cases():
    out = []
    for label, view in VIEWS.items():
        seen = set()
        for n in view.keys:
            cat = view.catalog(n)
            for comp in cat.components or ():
                key = (comp.id, str(comp.text), comp.formula, tuple(sorted(comp.limits.items())), comp.status)
                if key not in seen:
                    seen.add(key)
                    out.append(pytest.param(label, n, comp.id, id=f"{label}-{n}-{comp.id}"))
    return out


def _values(comp):
    return st.fixed_dictionaries(
        {v: st.integers(1, comp.limits[v] if comp.limits.get(v) else 25) for v in comp.text.variables}
    )


def _filler(cat, kind, needs_t=None):
    """A component of ``kind`` with a known formula, to complete an ability (taken from the data)."""
    for c in cat.components:
        if c.kind == kind and c.formula is not None and (needs_t is None or ("t" in c.formula.variables) == needs_t):
            return c
    return None


def _render(c):
    return c.text.render({v: 1 for v in c.text.variables})


GUIDE_CREATURE = lambda o, d, caveat, abilities: max(1, math.ceil(max(0, o + Fraction(d, 5) - caveat) + sum(abilities)))  # noqa: E731
GUIDE_ABILITY = lambda effects, relief: max(1, sum(effects) - relief)  # noqa: E731


# (Hypothesis reads and tokenizes the source of the test it runs, for each of the cases: the test is
# kept to one line, its body is render_parse_and_cost.)
@pytest.mark.parametrize("label, n, comp_id", _cases())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_render_parse_and_cost(label, n, comp_id, data):
    render_parse_and_cost(label, n, comp_id, data)


def render_parse_and_cost(label, n, comp_id, data):
    view = VIEWS[label]
    cat = view.catalog(n)
    comp = cat.by_id()[comp_id]
    values = data.draw(_values(comp), label="values")
    sentence = comp.text.render(values)

    use, problems = read_sentence(sentence, cat, view)
    assert problems == [] and use is not None, sentence
    assert use.component == comp.id and use.kind == comp.kind
    assert {k: use.values[k] for k in values} == values
    assert use.wording == sentence and use.old_wording is None and use.notes == []

    # the same component on a card: the cost of its part is its formula's value
    target = None
    kind = cat.system.kind(comp.kind)
    filler_ability = None
    if kind.place == "card":  # the 1st–11th caveat: a paragraph of its own on a creature
        ctype = cat.system.card_type(kind.types[0]) if kind.types else cat.system.types[0]
        empty = ctype.empty_text
        if empty is None:  # the published 11th prints no text for "no abilities": give it one
            filler_ability = _filler(cat, "effect", needs_t=False)
        rest = empty if empty is not None else _render(filler_ability)
        stats = {st.name: value for st, value in zip(ctype.stats, (5, 10))}
        card = {"name": "P", "type": ctype.id, **stats, "text": f"{sentence}\n{rest}"}
    else:
        parts = [sentence]
        if comp.kind == "effect" and comp.formula is not None and "t" in comp.formula.variables:
            target = _filler(cat, "target")
            if target is None:
                return
            parts.insert(0, _render(target))
        elif comp.kind != "effect":
            effect = _filler(cat, "effect", needs_t=comp.kind == "target")
            if effect is None:
                return
            parts.append(_render(effect))
        card = {"name": "P", "type": "spell", "text": " ".join(parts)}
    parsed, problems, _ = parse_card(card, cat, view)
    assert problems == [] and parsed is not None, (card, problems)
    result = card_cost(card, parsed, cat)
    ability = result.breakdown["abilities"][0] if result.breakdown["abilities"] else {}
    in_ability = ability.get("components", []) + [p for sub in ability.get("sub_abilities", ()) for p in sub["components"]]
    part = result.breakdown[comp.kind] if kind.place == "card" else next(p for p in in_ability if p["component"] == comp.id)
    if comp.formula is None and kind.role == "none":  # a text without formula (the 12th's conditions)
        assert part["value"] is None and result.total is not None
        return
    if comp.formula is None:
        assert part["value"] is None and result.total is None
        return
    env = dict(use.values)
    if target is not None:
        env["t"] = target.formula.evaluate({v: 1 for v in target.text.variables})
    for var, kind in cat.system.set_variables.items():  # "a" without an activation condition
        if kind.default is not None and var not in env:
            env[var] = kind.default.evaluate({})
    try:
        expected = comp.formula.evaluate(env)
    except ZeroDivisionError:  # t = x/(10 - y) at y = 10 (the 11th prints no limit): no value, never a crash
        assert part["value"] is None and result.total is None
        return
    assert Fraction(part["value"]) == expected
    if result.total is None:
        return  # another component of the card (a filler) has an unknown cost
    if kind.place == "card" and cat.cost_rule is not None and filler_ability is None:
        assert result.total == GUIDE_CREATURE(5, 10, expected, [])
    if comp.kind == "effect" and cat.cost_rule is not None:
        assert result.total == max(1, math.ceil(GUIDE_ABILITY([expected], 0)))
