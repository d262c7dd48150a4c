"""The formula language: parsing, exact evaluation, the guide's notation, Python source."""

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from kotc_rulesc.formula import FormulaError, parse_formula

GUIDE_NOTATIONS = [
    "x", "2x", "3x/2", "3x/4", "x/2", "4x", "6x", "xt", "4xt", "6xt", "2xt", "t/2", "2t", "3t", "8t",
    "(x+t)/2", "(x+t)/12", "(x+t)/4", "x/4+t", "x+t", "x/5+t", "xy", "x/(y+1)", "y²/x", "0.5", "1.5",
    "0", "1", "2",
]


@pytest.mark.parametrize("text", GUIDE_NOTATIONS)
def test_guide_notation_round_trips(text):
    assert parse_formula(text).notation() == text
    assert parse_formula(parse_formula(text).notation()) == parse_formula(text)


def test_caret_square_is_superscript_square():
    assert parse_formula("y^2/x") == parse_formula("y²/x")
    assert parse_formula("y^2/x").notation() == "y²/x"


@pytest.mark.parametrize(
    "text, env, expected",
    [
        ("3x/2", {"x": 3}, Fraction(9, 2)),
        ("x/(y+1)", {"x": 5, "y": 1}, Fraction(5, 2)),
        ("y²/x", {"x": 3, "y": 2}, Fraction(4, 3)),
        ("(x+t)/12", {"x": 1, "t": Fraction(1, 2)}, Fraction(1, 8)),
        ("x/4+t", {"x": 2, "t": Fraction(1, 2)}, Fraction(1)),
        ("0.5", {}, Fraction(1, 2)),
        ("4xt", {"x": 2, "t": Fraction(3, 2)}, Fraction(12)),
    ],
)
def test_evaluates_exactly(text, env, expected):
    value = parse_formula(text).evaluate(env)
    assert value == expected and isinstance(value, Fraction)


def test_no_float_error_where_floats_would_round_wrong():
    # 0.1 + 0.2 style trouble: x/10 * 3 with x = 1 must be exactly 3/10
    assert parse_formula("3x/10").evaluate({"x": 1}) == Fraction(3, 10)
    with pytest.raises(TypeError):
        parse_formula("x").evaluate({"x": 0.5})


def test_card_cost_rule_formulas():
    f = parse_formula("max(1, ceil(max(0, offense + defense/5 - caveat_relief) + sum(ability_costs)))")
    assert f.notation() == "max(1, ceil(max(0, offense + defense/5 - caveat_relief) + sum(ability_costs)))"
    env = {"offense": 3, "defense": 7, "caveat_relief": 0, "ability_costs": [Fraction(1, 2), 1]}
    assert f.evaluate(env) == 6  # 3 + 7/5 + 3/2 = 5.9 → 6
    assert f.variables == {"offense", "defense", "caveat_relief", "ability_costs"}


@pytest.mark.parametrize(
    "text, column",
    [("", 1), ("3x/", 4), ("x**", 3), ("foo(x)", 1), ("(x+1", 5), ("x+#", 3), ("max", 1), ("y^x", 3)],
)
def test_errors_have_columns(text, column):
    with pytest.raises(FormulaError) as info:
        parse_formula(text)
    assert info.value.column == column


@given(st.integers(1, 50), st.integers(1, 50), st.fractions(0, 20))
def test_notation_reparses_to_the_same_value(x, y, t):
    for text in GUIDE_NOTATIONS:
        f = parse_formula(text)
        g = parse_formula(f.notation())
        env = {"x": x, "y": y, "t": t}
        assert f.evaluate(env) == g.evaluate(env)


@pytest.mark.parametrize("text, shown", [
    ("3(2x)", "3(2x)"),  # once printed "3*2x", which reads back as (3·2)·x: another tree
    ("a(xt)", "a(xt)"),
    ("x(yz)", "x(yz)"),
    ("-x(2y)", "-x*(2y)"),
    ("max(1, 3*(2*x))", "max(1, 3*(2*x))"),
    ("x*y*z", "xyz"),
])
def test_a_product_on_the_right_keeps_its_brackets(text, shown):
    f = parse_formula(text)
    assert f.notation() == shown and parse_formula(shown) == f
