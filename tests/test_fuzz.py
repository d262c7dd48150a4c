"""Fuzz (issue 15, part 5): hostile formulas, templates, rules files and card files in every format,
through every command — no traceback, bounded time, the exit status the input policy gives, and for
migrate the output or the original whole.

Bounded for CI: a fixed number of examples each, derandomized (the same examples on every run and
machine), no example database, no deadline (a run still going after two minutes is a hang and fails; no figure of speed is
asserted: bench/ measures that); ``KOTC_FUZZ=N`` hunts longer.  The card commands run on the compiled tables (a few milliseconds a call);
the rules fuzz folds small rules (tests/fixtures/mini_rules).  The generators of issue 27's campaign
(odd rules folders, edition arguments, output targets, build folders, the reading cases) are in
tests/test_fuzz_campaign.py, with these bounds, so that the two files run on two workers.
"""

from __future__ import annotations

import json
import keyword
import os
import re
import tempfile
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kotc_rulesc.cards.collection import read_collection
from kotc_rulesc.reading.policy import InputError
from kotc_rulesc.cli import main
from kotc_rulesc.formula import FormulaError, parse_formula
from kotc_rulesc.text import TemplateError, parse_template
from support.hang import no_hang

MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"


#: KOTC_FUZZ=N runs N times the examples, new ones on every run (not derandomized): a longer hunt
#: by hand, e.g. ``KOTC_FUZZ=20 bash tools/test.sh tests/test_fuzz.py``
SCALE = int(os.environ.get("KOTC_FUZZ", "0") or 0)


def fuzz(examples: int):
    return settings(max_examples=examples * max(SCALE, 1), deadline=None, derandomize=not SCALE, database=None,
                    suppress_health_check=list(HealthCheck))


def invoke(args: list[str], bound: float = 120.0):
    """The command in this process: no traceback, an exit status of the policy's, no hang."""
    with no_hang(bound, args):
        result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    return result


# --------------------------------------------------------------------------- formulas and templates

FORMULA_PIECES = ["x", "y", "z", "t", "a", "2", "0", "3.5", ".5", "999999999999", "+", "-", "*", "/", "^", "^2", "^99",
                  "²", "³", "(", ")", ",", " ", "max(", "min(", "ceil(", "floor(", "sum(", "offense", "effect_costs",
                  "q", "é", "1" * 120]
formulas = st.one_of(
    st.lists(st.sampled_from(FORMULA_PIECES), max_size=24).map("".join),
    st.text(max_size=30),
    st.integers(1, 400).map(lambda n: "(" * n + "x" + ")" * n),
    st.integers(1, 400).map(lambda n: "+".join(["x"] * n)),
)


@fuzz(400)
@given(formulas)
def test_fuzz_formulas(text):
    with no_hang(what=text):
        _formula_properties(text)


def _formula_properties(text):
    try:
        f = parse_formula(text)
    except FormulaError as exc:
        assert 1 <= exc.column <= len(text) + 1
        return
    notation = f.notation()
    assert parse_formula(notation).notation() == notation
    env = {v: ([Fraction(2), Fraction(3)] if v.endswith("s") else Fraction(3)) for v in f.variables}
    try:
        value = f.evaluate(env)
        str(value)
    except (ZeroDivisionError, TypeError, KeyError):
        pass  # a formula's own arithmetic: its callers report these (a card that cannot be costed)


TEMPLATE_PIECES = ["Draw ", "[x]", "[y]", "[z]", "[", "]", "[xx]", "[X]", " cards", " card", ".", ",", " target", "s", "'",
                   "-", "é", " ", "  ", "Destroy all targets.", "Pay [x] hitpoints.", "\n", "\t", "[x] [x]", "9" * 150]
templates = st.one_of(st.lists(st.sampled_from(TEMPLATE_PIECES), max_size=16).map("".join), st.text(max_size=30))


@fuzz(400)
@given(templates, st.integers(0, 10**120))
def test_fuzz_templates(text, number):
    with no_hang(what=text):
        _template_properties(text, number)


def _template_properties(text, number):
    try:
        t = parse_template(text)
    except TemplateError:
        return
    values = {v: 2 for v in t.variables}
    rendered = t.render(values)
    t.match(rendered)
    t.match(rendered.replace("2", str(number)))
    assert t.skeletons()


# --------------------------------------------------------------------------- rules files

HAZARDS_YAML = [
    "notes:\n  - &a [lol, lol, lol]\n  - &b [*a, *a, *a]\n  - [*b, *b, *b]\n",
    "deep: " + "[" * 100 + "]" * 100 + "\n",
    "big: " + "9" * 150 + "\n",
    "edition: 1\n",
    "\x00",
    "x: \"\\ud83c\"\n",
    "\t- tab\n",
    "---\nedition: 2\n",
    "key: [unclosed\n",
    "? [complex, key]\n: value\n",
    "\ufeff",
    "!!python/object:os.system [echo]\n",
]


@st.composite
def mutated_rules(draw):
    files = {p.name: p.read_text() for p in sorted(MINI.glob("*.yaml"))}
    name = draw(st.sampled_from(sorted(files)))
    text = files[name]
    kind = draw(st.sampled_from(["formula", "template", "hazard", "delete", "duplicate", "byte"]))
    lines = text.split("\n")
    formula_lines = [i for i, line in enumerate(lines) if re.match(r'\s+(formula|\w+_cost|\w+_relief|\w+): "', line)
                     and "text:" not in line]
    if kind == "formula" and formula_lines:  # a component's formula, or one of the card-cost rule's
        i = draw(st.sampled_from(formula_lines))
        key = lines[i].split(":")[0]
        lines[i] = key + ": " + json.dumps(draw(formulas))
    elif kind == "template" and 'text: "' in text:
        spots = [i for i, line in enumerate(lines) if 'text: "' in line]
        i = draw(st.sampled_from(spots))
        lines[i] = lines[i].split("text:")[0] + "text: " + json.dumps(draw(templates))
    elif kind == "hazard":
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(HAZARDS_YAML)))
    elif kind == "delete" and len(lines) > 1:
        i = draw(st.integers(0, len(lines) - 1))
        del lines[i: i + draw(st.integers(1, 4))]
    elif kind == "duplicate":
        i = draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if kind == "byte" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    files[name] = data
    return files


@fuzz(120)
@given(mutated_rules())
def test_fuzz_rules_files(files):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, content in files.items():
            (root / name).write_bytes(content if isinstance(content, bytes) else content.encode())
        result = invoke(["check", "--rules", str(root)])
        event(f"check: {result.exit_code}")
        if result.exit_code == 0:
            invoke(["cost", "-e", "3", "--type", "spell", "--text", "Draw 2 cards.", "--rules", str(root)])
            invoke(["show", "-e", "2", "--rules", str(root)])


# --------------------------------------------------------------------------- card files

TEXTS = ["Draw 2 cards.", "Draw 1 card.", "This card has no abilities.", "Destroy all targets.",
         "Activate when you take damage. Increase your hitpoints by 2.", "Exhaust 2 of your unexhausted cards in play.",
         "Target up to 2 cards in play. Destroy all targets.", "Draw 0 cards.", "Fly to the moon.", ""]
scalars = st.one_of(st.integers(-(10**30), 10**30), st.text(max_size=12), st.booleans(), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False))
nested = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
                      max_leaves=8)
cards = st.fixed_dictionaries(
    {"name": st.one_of(st.sampled_from(["Insight", "Sentinel", ""]), st.text(max_size=10)),
     "type": st.sampled_from(["spell", "creature", "minion", "trap"]),
     "text": st.one_of(st.sampled_from(TEXTS), st.lists(st.sampled_from(TEXTS), max_size=3).map("\n".join), st.text(max_size=30))},
    optional={"edition": st.one_of(st.integers(0, 20), st.none(), st.just("6th")),
              "cost": st.one_of(st.integers(-3, 30), scalars),
              "offense": st.integers(-1, 100), "defense": st.integers(-1, 100),
              "flavor": st.text(max_size=20), "extra": nested},
)

#: (hazard, raw JSON inserted into a card as a field, or None for a file-level hazard): each breaks
#: the policy; in JSONL one card, elsewhere the whole file
CARD_HAZARDS = {
    "deep": '"hz": ' + "[" * 100 + "]" * 100,
    "long-integer": '"hz": ' + "7" * 150,
    "surrogate": '"hz": "\\udc00"',
    "duplicate": '"name": "again"',
    "nan": '"hz": NaN',
    "alias": None,  # YAML only
    "empty": None,
    "nul": None,
    "not-utf8": None,
    "trailing": None,
}


def _raw(card: dict, ascii_only: bool) -> str:
    return json.dumps(card, ensure_ascii=ascii_only)


def _with_field(raw: str, field: str) -> str:
    return "{" + field + (", " if raw != "{}" else "") + raw[1:]


@st.composite
def collections(draw):
    fmt = draw(st.sampled_from(["json", "jsonl", "yaml"]))
    items = draw(st.lists(cards, min_size=1, max_size=6))
    ascii_only = fmt == "yaml" or draw(st.booleans())  # YAML takes JSON's escapes, not every raw character
    raws = [_raw(c, ascii_only) for c in items]
    hazard = draw(st.sampled_from([None, None, *sorted(CARD_HAZARDS)]))
    if hazard == "alias" and fmt != "yaml" or hazard == "nan" and fmt == "yaml":
        hazard = None
    if hazard is not None and CARD_HAZARDS[hazard] is not None:
        k = draw(st.integers(0, len(raws) - 1))
        raws[k] = _with_field(raws[k], CARD_HAZARDS[hazard])
    if fmt == "json":
        text = '{"cards": [\n  ' + ",\n  ".join(raws) + "\n]}\n"
    elif fmt == "jsonl":
        text = "".join(r + "\n" for r in raws)
    else:
        text = "cards:\n" + "".join(f"  - {r}\n" for r in raws)
        if hazard == "alias":
            text = text.replace("cards:\n  - ", "cards:\n  - &first ", 1) + "  - *first\n"
    data = text.encode("utf-8")
    if hazard == "empty":
        data = draw(st.sampled_from([b"", b"\n", b"  \n\n"]))
    elif hazard in ("nul", "not-utf8"):
        i = draw(st.integers(0, len(data)))
        data = data[:i] + (b"\x00" if hazard == "nul" else b"\xff") + data[i:]
    elif hazard == "trailing":
        data += {"json": b"[]\n", "jsonl": b"not json\n", "yaml": b"---\ncards: []\n"}[fmt]
    mutation = draw(st.sampled_from([None, None, None, None, "truncate", "flip"]))
    if mutation == "truncate" and data:
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif mutation == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    return fmt, hazard, mutation, data


def expected_status(fmt: str, hazard: str | None) -> int | None:
    """The exit status the policy gives for a hazard (None: it depends on the cards)."""
    if hazard is None:
        return None
    if fmt == "jsonl":
        return 2 if hazard in ("empty", "nul", "not-utf8") else 1
    return 2


@fuzz(150)
@given(collections())
def test_fuzz_card_files_in_every_command(data):
    fmt, hazard, mutation, content = data
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"cards.{fmt}"
        path.write_bytes(content)
        try:
            count = sum(1 for _ in read_collection(path))
        except InputError:
            count = None  # unreadable
        out = Path(tmp) / f"out.{fmt}"
        codes = {
            "check-cards": invoke(["check-cards", str(path), "-e", "6"]).exit_code,
            "cost": invoke(["cost", str(path), "-e", "6"]).exit_code,
            "migrate": invoke(["migrate", str(path), "--from", "6", "--to", "8", "-o", str(out)]).exit_code,
        }
        event(f"{fmt}, {hazard or 'no hazard'}{', ' + mutation if mutation else ''}: {sorted(set(codes.values()))}")
        # one answer per file: unreadable (2) in every command, or in none
        if count is None:
            assert set(codes.values()) == {2}, codes
        else:
            assert codes["check-cards"] != 2 and codes["migrate"] != 2, codes
            assert codes["cost"] != 2 or count == 0, codes  # cost needs a card to cost
        if mutation is None and expected_status(fmt, hazard) is not None:
            assert codes["check-cards"] == codes["migrate"] == expected_status(fmt, hazard), (hazard, codes)
        # migrate: the original as it was; the output whole, or none
        assert path.read_bytes() == content
        if codes["migrate"] == 2:
            assert sorted(p.name for p in Path(tmp).iterdir()) == [path.name]
        else:
            assert sum(1 for _ in read_collection(out)) == count
            again = invoke(["migrate", str(out), "--from", "6", "--to", "8", "-o", str(Path(tmp) / f"again.{fmt}")])
            assert again.exit_code == codes["migrate"]


@fuzz(25)
@given(collections())
def test_fuzz_in_place_keeps_the_original_or_the_whole_result(data):
    fmt, _, _, content = data
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"cards.{fmt}"
        path.write_bytes(content)
        code = invoke(["migrate", str(path), "--from", "6", "--to", "8", "--in-place"]).exit_code
        names = sorted(p.name for p in Path(tmp).iterdir())
        if code == 2:
            assert names == [path.name] and path.read_bytes() == content
        elif path.read_bytes() == content:  # no card changed: nothing replaced, no backup made
            assert names == [path.name]
        else:
            assert names == [path.name, f"{path.name}.bak"]
            assert (Path(tmp) / f"{path.name}.bak").read_bytes() == content
            list(read_collection(path))
