"""``kotc_rulesc.record``: a record behaves as the same class under ``@dataclass`` would."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property

import pytest

from kotc_rulesc.record import FrozenInstanceError, field, field_names, record, replace


def _pair(frozen: bool = True, order: bool = False):
    """The same class twice: as a record and as a dataclass."""

    def body():
        class Card:
            name: str
            cost: int = 1
            tags: tuple = ()
            notes: list = field(default_factory=list, compare=False, repr=False)

            def label(self) -> str:
                return f"{self.name} ({self.cost})"

        return Card

    return record(body(), frozen=frozen, order=order), dataclasses.dataclass(body(), frozen=frozen, order=order)


ARGS = [
    (("Insight",), {}),
    (("Insight", 3), {}),
    (("Insight",), {"tags": ("draw",), "notes": ["x"]}),
    ((), {"name": "Insight", "cost": 2}),
    (("Insight", 3, ("a",), ["n"]), {}),
]


@pytest.mark.parametrize("frozen", [True, False])
@pytest.mark.parametrize("args,kwargs", ARGS)
def test_construction_repr_and_equality_are_dataclass_s(frozen, args, kwargs):
    R, D = _pair(frozen)
    r, d = R(*args, **kwargs), D(*args, **kwargs)
    assert repr(r) == repr(d)
    assert [getattr(r, n) for n in field_names(R)] == [getattr(d, f.name) for f in dataclasses.fields(D)]
    assert r == R(*args, **kwargs) and r.label() == d.label()
    assert r != R("Other") and r != d  # (another class, even with the same fields)
    assert R.__match_args__ == D.__match_args__


def test_compare_false_fields_are_neither_compared_nor_hashed():
    R, _ = _pair()
    a, b = R("Insight", notes=["one"]), R("Insight", notes=["two"])
    assert a == b and hash(a) == hash(b)
    assert R("Insight", 2) != R("Insight", 3)


def test_a_default_factory_gives_each_record_its_own_value():
    R, _ = _pair(frozen=False)
    a, b = R("a"), R("b")
    a.notes.append("x")
    assert b.notes == [] and "notes" not in vars(R)


def test_frozen_records_refuse_changes_and_hash_like_their_fields():
    R, _ = _pair(frozen=True)
    r = R("Insight")
    with pytest.raises(FrozenInstanceError):
        r.cost = 2
    with pytest.raises(FrozenInstanceError):
        del r.name
    assert hash(r) == hash(R("Insight")) and len({r, R("Insight"), R("Other")}) == 2


def test_mutable_records_change_and_are_unhashable():
    R, _ = _pair(frozen=False)
    r = R("Insight")
    r.cost = 5
    assert r == R("Insight", 5)
    with pytest.raises(TypeError):
        hash(r)


def test_order_compares_the_fields_in_order():
    R, D = _pair(order=True)
    names = [("b", 1), ("a", 2), ("a", 1)]
    assert [(r.name, r.cost) for r in sorted(R(*n) for n in names)] == [(d.name, d.cost) for d in sorted(D(*n) for n in names)]
    assert R("a") < R("b") <= R("b") and R("c") > R("b") >= R("b")
    with pytest.raises(TypeError):
        R("a") < "a"  # noqa: B015


@pytest.mark.parametrize(
    "args,kwargs,message",
    [
        ((), {}, "missing argument 'name'"),
        (("a", 1, (), [], "extra"), {}, "takes 4 arguments, 5 given"),
        (("a",), {"name": "b"}, "multiple values for argument 'name'"),
        (("a",), {"colour": "red"}, "unexpected keyword argument 'colour'"),
    ],
)
def test_wrong_arguments_are_type_errors(args, kwargs, message):
    R, _ = _pair()
    with pytest.raises(TypeError, match=message):
        R(*args, **kwargs)


def test_replace_and_field_names():
    R, _ = _pair()
    r = R("Insight", 3, ("a",), ["n"])
    assert field_names(R) == field_names(r) == ("name", "cost", "tags", "notes")
    assert replace(r, cost=4) == R("Insight", 4, ("a",)) and replace(r, cost=4).notes == ["n"]
    with pytest.raises(TypeError):
        replace(r, colour="red")


def test_pickle_and_copy_keep_the_value():
    for frozen in (True, False):
        r = Module(frozen)("Insight", 3, ("a",), ["n"])
        for again in (pickle.loads(pickle.dumps(r, pickle.HIGHEST_PROTOCOL)), copy.copy(r), copy.deepcopy(r)):
            assert again == r and again.notes == ["n"] and type(again) is type(r)


@record(frozen=True)
class _Frozen:
    name: str
    cost: int = 1
    tags: tuple = ()
    notes: list = field(default_factory=list, compare=False, repr=False)


@record
class _Mutable:
    name: str
    cost: int = 1
    tags: tuple = ()
    notes: list = field(default_factory=list, compare=False, repr=False)


def Module(frozen: bool):  # (module-level classes: pickle finds them by name)
    return _Frozen if frozen else _Mutable


def test_cached_property_works_on_a_frozen_record():
    @record(frozen=True)
    class Squared:
        n: int

        @cached_property
        def square(self) -> int:
            return self.n * self.n

    s = Squared(3)
    assert s.square == 9 and s.square == 9 and s == Squared(3)
    assert replace(s, n=4).square == 16 and replace(s).square == 9  # a copy computes its own
    with pytest.raises(TypeError, match="'m'"):
        replace(s, m=4)


def test_methods_the_class_defines_are_kept():
    @record(frozen=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Named("x")) == "<x>"


def test_definitions_dataclass_refuses_are_refused():
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Shared:
            tags: list = []  # noqa: RUF012

    with pytest.raises(TypeError, match="without a default follows"):
        @record
        class Out:
            a: int = 0
            b: int

    @record
    class Base:
        a: int

    with pytest.raises(TypeError, match="cannot inherit"):
        @record
        class Child(Base):
            b: int
