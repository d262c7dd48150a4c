"""One component's change as its kind describes it (:class:`ComponentChange`), and the words a change is
put in (costs, limits, editions, a formula on sample values, a rewording marked), for the docs and the diff."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

from ..formula import EVALUATION_ERRORS, Formula, Num, too_large
from ..model import When, ordinal
from ..text import Template
from ..value import EMPTY, Value

if TYPE_CHECKING:
    from ..wordiff import WordDiff

#: the sample values a formula change is shown on (t: a target selection costing 1)
SAMPLE = {"x": 2, "y": 2, "z": 2, "t": 1}


def number(value: Fraction | int | None) -> str:
    """A cost as the guide prints numbers: 8, 0.25, 1/3; ``unknown`` for None."""
    if value is None:
        return "unknown"
    return Formula(Num(Fraction(value))).notation()


def limits_text(limits: dict[str, int | None]) -> str:
    """``{x ≤ 14}`` (``{x ≤ unknown}`` for a limit whose value no source gives); "" for none."""
    if not limits:
        return ""
    parts = [f"{var} ≤ {'unknown' if n is None else n}" for var, n in sorted(limits.items())]
    return "{" + ", ".join(parts) + "}"


def describe_when(when: When | None) -> str:
    """"9th Edition", or the window of an undated event."""
    if when is None:
        return "edition unknown"
    if when.edition is not None:
        return f"{ordinal(when.edition)} Edition"
    if when.after is not None:
        return f"edition unknown: after the {ordinal(when.after)}, by the {ordinal(when.by)} Edition"
    return f"edition unknown: by the {ordinal(when.by)} Edition"


def formula_text(f: Formula | None, system: Any = None, kind: str | None = None) -> str:
    """A formula in the guide's notation; "unknown" where no source gives it, "no formula" for a
    kind whose texts have none (the 12th's activation conditions)."""
    if f is not None:
        return f.notation()
    if system is not None and kind in system.kind_ids and system.kind(kind).role == "none":
        return "no formula"
    return "unknown"


def _value(f: Formula | None, env: dict[str, int]) -> Fraction | None:
    if f is None:
        return None
    try:
        value = f.evaluate(env)
    except EVALUATION_ERRORS:
        return None
    return None if too_large(value) or not isinstance(value, (int, Fraction)) else value


def sample_effect(before: Formula | None, after: Formula | None, binds: dict[str, int] | None = None) -> dict[str, Any] | None:
    """The two costs on the sample values: ``{"values": {"x": 2}, "before": "8", "after": "4"}``;
    ``None`` when the formulas have no variables (their values are the formulas themselves). ``binds``:
    what old cards read a variable as (a rewording that gave the text it), used in place of the sample."""
    names = set().union(*(f.variables for f in (before, after) if f is not None))
    env = {v: (binds or {}).get(v, SAMPLE[v]) for v in SAMPLE if v in names}
    if not env:
        return None
    return {"values": env, "before": number(_value(before, env)), "after": number(_value(after, env))}


def sample_text(effect: dict[str, Any] | None) -> str:
    """"(x=2: 8 → 4)", or "" for no sample."""
    if not effect:
        return ""
    values = ", ".join(f"{k}={v}" for k, v in effect["values"].items())
    return f"({values}: {effect['before']} → {effect['after']})"


def reading_diff(old: Template, new: Template, binds: dict[str, int]) -> WordDiff:
    """The old wording against the new one as old cards read it (the rulebooks' form: a variable
    the old wording lacked shows its bound value, "at least 1 card … is", not "[x] cards … are")."""
    from ..wordiff import word_diff  # (only the docs, diff and reports compare wordings: not a card's path)

    return word_diff(str(old), new.render(binds))


def quoted(value: str) -> str:
    """A YAML double-quoted scalar, for a skeleton's comments (JSON's string syntax is valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def binds_text(binds: dict[str, int]) -> str:
    """"old cards read as x = 5" (empty for no binds)."""
    return f"old cards read as {', '.join(f'{k} = {v}' for k, v in sorted(binds.items()))}" if binds else ""


class ComponentChange(Value):
    """One component's change between two editions (a diff row) or made by one step (a changelog
    row), described by the event kind that owns it: ``line`` in plain text, ``detail`` (what
    changed, without the text) or ``words`` (a rewording, marked) for the docs, ``json`` the
    section's own keys."""

    __slots__ = ("id", "kind", "text", "section", "line", "detail", "json", "before", "after", "when", "words",
                 "effect")

    def __init__(self, id: str, kind: str, text: str, section: str = "", line: str = "", detail: str = "",
                 json: Mapping[str, Any] = EMPTY, before: Any = None, after: Any = None, when: When | None = None,
                 words: WordDiff | None = None, effect: dict[str, Any] | None = None) -> None:
        self.id = id
        self.kind = kind
        self.text = text  # the wording in B
        self.section = section  # the diff section (``reworded``, ``formulas`` …)
        self.line = line  # the change in plain text: "“Draw [x] cards.”: 4x → 2x (x=2: 8 → 4)"
        self.detail = detail  # what changed, without the text: "4x → 2x (x=2: 8 → 4)"
        self.json = json
        self.before = before
        self.after = after
        self.when = when  # for redactions: when it happened (possibly an undated window)
        self.words = words  # for rewordings
        self.effect = effect  # for formula changes: the cost on the sample values

    def to_json(self, section: str | None = None) -> dict[str, Any]:  # (section: as the diff's other rows take it)
        return {"id": self.id, "kind": self.kind, "text": self.text, **self.json}


def limits_json(limits: dict[str, int | None]) -> dict[str, int | None]:
    return dict(sorted(limits.items()))

