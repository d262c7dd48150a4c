"""Reading one rules file: its YAML under the input policy, and its JSON Schema problems, each located
(:class:`Reporter`); :func:`where` keeps where an entry's keys stand, for what the replay finds later.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

import jsonschema

from ..bundled import schema_path
from ..errors import Problem
from ..formula import Formula, FormulaError, parse_formula
from ..model import Where
from ..reading.policy import InputError, open_input, yaml_text
from ..reading.yaml_reader import position, read_yaml

__all__ = ["Reporter", "closest", "edition_validator", "read_file", "read_formula", "schema_problems", "where"]


class Reporter:
    """The problems of one rules file, each located where it stands."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def at(self, node: Any, key: Any, message: str, hint: str | None = None, of_key: bool = False, column_in_value: int = 0) -> None:
        line, col, _ = position(node, key, of_key)
        if column_in_value and col:  # (a quoted scalar's text begins after its quote)
            col += (1 if position(node, key)[2] in ("'", '"') else 0) + column_in_value - 1
        self.problems.append(Problem(self.file, line, col, message, hint))

    def whole(self, message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(self.file, 0, 0, message, hint))


def closest(word: str, options: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {found[0]!r}?" if found else None


def read_file(path: Path, rep: Reporter) -> Any:
    """The data of one rules file, read under the input policy (:mod:`kotc_rulesc.reading`).  A file
    that cannot be read is a problem marked ``unreadable`` (exit status 2), as a collection that cannot be read."""
    try:
        with open_input(path) as inp:
            inp.display = rep.file
            text = yaml_text(inp)
        if not text.strip():
            raise InputError("the file is empty", file=rep.file, hint="an edition file needs at least 'edition: N'")
        root = read_yaml(text, rep.file, positioned=True)
        if root is None:
            raise InputError("the file holds no data (only comments?)", file=rep.file,
                             hint="an edition file needs at least 'edition: N'")
    except InputError as exc:
        rep.problems.append(exc.located(rep.file).problem)
        return None
    return root.value


def edition_validator() -> jsonschema.Draft202012Validator:
    """The edition schema's validator, each ``$ref`` to one of its ``$defs`` (a description at most beside
    it) replaced by the definition itself: jsonschema would look it up at every use (2,300 a load of rules/)."""
    schema = json.loads(schema_path("edition").read_text(encoding="utf-8"))
    defs: dict[str, Any] = {}

    def inline(node: Any) -> Any:
        if not isinstance(node, dict):
            return [inline(item) for item in node] if isinstance(node, list) else node
        if node.get("$ref", "").startswith("#/$defs/") and set(node) <= {"$ref", "description"}:
            name = node["$ref"][8:]
            return defs[name] if name in defs else defs.setdefault(name, inline(schema["$defs"][name]))
        return {key: inline(value) for key, value in node.items()}
    return jsonschema.Draft202012Validator({key: value if key == "$defs" else inline(value) for key, value in schema.items()})


def schema_problems(data: Any, rep: Reporter, validator: jsonschema.Draft202012Validator) -> bool:
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        return True
    seen = set()
    for err in errors:
        leaf = _leaf(err)
        path = list(leaf.absolute_path)
        parent, key, node = _walk(data, path)
        described = _describe(leaf, parent, key)
        if described is None:  # (no key of its own unknown: an error of a schema it includes says what is wrong)
            continue
        msg, hint, of_key, target_key = described
        where = (tuple(map(str, path)), msg)
        if where in seen:
            continue
        seen.add(where)
        field = ".".join(str(p) for p in path) or "(top level)"
        if target_key is not None and isinstance(node, dict):
            rep.at(node, target_key, f"{field}: {msg}", hint, of_key=True)
        elif key is None:
            rep.at(data, None, f"{field}: {msg}", hint)
        else:
            rep.at(parent, key, f"{field}: {msg}", hint, of_key=of_key)
    return False


def _leaf(err: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The error to report: for one under which others stand (oneOf …), the most specific of those (for a
    value that is no string, not that it is no ``const`` string such as 'unknown': -1 is below the minimum)."""
    context = [e for e in err.context or () if e.validator != "const" or isinstance(e.instance, str)] or err.context
    best = jsonschema.exceptions.best_match(context) if context else None
    return best if best is not None and best.validator not in ("oneOf", "anyOf") else err


def _walk(data: Any, path: list) -> tuple[Any, Any, Any]:
    """The node at ``path``, its parent and its key there (the node None where the path breaks off)."""
    parent, key, node = None, None, data
    for step in path:
        parent, key = node, step
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return parent, key, None
    return parent, key, node


def _describe(err: jsonschema.ValidationError, parent: Any, key: Any):
    v = err.validator
    if v in ("additionalProperties", "unevaluatedProperties"):
        allowed, schemas = set(), [err.schema]
        while schemas:  # (its own properties, and those of the schemas it includes: an event's)
            schema = schemas.pop()
            allowed |= set(schema.get("properties", {}))
            schemas += [sub for sub in schema.get("allOf", ()) if isinstance(sub, dict)]
        node = err.instance if isinstance(err.instance, dict) else {}
        extra = [k for k in node if k not in allowed]
        if extra:
            k = extra[0]
            hint = closest(str(k), allowed) or f"allowed: {', '.join(sorted(allowed))}"
            return f"unknown key {k!r}", hint, True, k
        if v == "unevaluatedProperties":
            return None
    if v == "required":
        return err.message.replace("is a required property", "is required"), None, False, None
    if v == "enum":
        options = ", ".join(json.dumps(x) if x is None or isinstance(x, bool) else str(x) for x in err.validator_value)  # (YAML's null, true)
        hint = closest(str(err.instance), map(str, err.validator_value)) if isinstance(err.instance, str) else None
        return f"{err.instance!r} is not one of: {options}", hint, False, None
    if v == "pattern" and isinstance(err.instance, str):
        return f"{err.instance!r} is not a valid id", "ids are a kind prefix and a kebab-case slug, e.g. effect-draw", False, None
    if v == "type":
        hint = None
        if err.validator_value == "array" and isinstance(err.instance, dict):
            hint = "a list: begin each entry with '- '"
        elif err.validator_value == "object" and isinstance(err.instance, str) and isinstance(key, int):
            hint = f"an entry is a mapping: - component: {err.instance}" if "component" in err.schema.get("properties", {}) or \
                any("component" in sub.get("properties", {}) for sub in err.schema.get("allOf", ())) else None
        return f"{err.instance!r} should be {_a(err.validator_value)}", hint, False, None
    return err.message, None, False, None


def _a(t: Any) -> str:
    if isinstance(t, list):
        return " or ".join(_a(x) for x in t)
    return {"integer": "a whole number", "string": "a string", "object": "a mapping", "array": "a list", "boolean": "true or false"}.get(t, str(t))


def where(file: str, node: Any, at: Any = None) -> Where:
    """Where ``node`` (an entry of a rules file) stands — at its key ``at``, if given — and each of
    its keys: their values, their keys (``"limits:"``), and one level into a mapping (``"row.old"``,
    ``"limits.x:"``)."""
    def keys(data: Any, prefix: str, deeper: bool) -> Iterator[tuple[str, int, int]]:
        mapping = getattr(data, "node", None)  # (its key scalars and value nodes, side by side)
        for key, value in zip(mapping.keys, mapping.items) if mapping is not None and mapping.mapping else ():
            yield f"{prefix}{key.value}", value.line + 1, value.column + 1
            yield f"{prefix}{key.value}:", key.line + 1, key.column + 1
            yield from keys(value.value, f"{prefix}{key.value}.", False) if deeper else ()
    return Where(file, *position(node, at)[:2], tuple(keys(node, "", True)))


def read_formula(rep: Reporter, node: Any, key: str) -> tuple[bool, Formula | None]:
    """``node[key]`` as a formula, None for ``unknown``; False where it does not parse (reported)."""
    raw = str(node[key])
    if raw == "unknown":
        return True, None
    try:
        return True, parse_formula(raw)
    except FormulaError as exc:
        sets = re.fullmatch(r"\(?\s*([a-z])\s*=\s*(.+?)\s*\)?", raw)  # (t = x): what the 11th-17th guides print
        if key not in ("formula", "default"):
            hint = "a card-cost formula reads names, numbers, + - * / and max, min, ceil, sum: max(1, ceil(ability_cost))"
        elif sets:
            hint = f"write the formula alone: {sets[2]!r} (the guide prints the variable it sets, {sets[1]} =)"
        else:
            hint = "write it as the guide does: 2x, 3x/2, x/(y+1), y²/x, (x+t)/2, 0.5, or 'unknown'"
        rep.at(node, key, f"{key}: the formula {raw!r} does not parse: {exc.message}", hint, column_in_value=exc.column)
        return False, None
