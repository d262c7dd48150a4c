"""``Value``: equal, hashed and shown by the fields its ``__init__`` names, whatever they are called."""

from __future__ import annotations

from kotc_rulesc.text import TemplateMatch
from kotc_rulesc.value import Value


class Pair(Value):
    __slots__ = ("left", "values")

    def __init__(self, left: int, values: tuple = ()):
        self.left = left
        self.values = values  # (a field named like the dict method: Value must not rely on it)


def test_values_are_equal_and_hashed_by_their_fields():
    assert Pair(1, (2,)) == Pair(1, (2,)) and Pair(1, (2,)) != Pair(1, (3,))
    assert len({Pair(1, (2,)), Pair(1, (2,)), Pair(2)}) == 2
    assert repr(Pair(1)) == "Pair(left=1, values=())"
    assert Pair(1).replace(values=(5,)) == Pair(1, (5,))


def test_a_template_match_compares_by_its_values():
    assert TemplateMatch({"x": 1}, (), ()) == TemplateMatch({"x": 1}, (), ())
    assert TemplateMatch({"x": 1}, (), ()) != TemplateMatch({"x": 2}, (), ())
