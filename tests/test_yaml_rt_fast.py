"""The fast YAML reading of rules files and card collections (kotc_rulesc.yaml_rt_fast) gives what
the round-trip loader gives — the same types, values and positions (``.lc``) — or declines, and the
round trip reads the file as before (with its located refusal).  Checked on every rules file and
example collection here, on documents at the edges of what it takes, and on mutated rules files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from kotc_rulesc.inputs import load_yaml
from kotc_rulesc.yaml_rt_fast import load

ROOT = Path(__file__).resolve().parent.parent
RULES_FILES = sorted([*ROOT.joinpath("rules").glob("*.yaml"), *ROOT.joinpath("tests", "fixtures").rglob("*.yaml")])


def round_trip(text: str, preserve_quotes: bool = True):
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = preserve_quotes
    return load_yaml(yaml, text, "f.yaml")


def assert_same(fast, slow, path="$"):
    assert type(fast) is type(slow), (path, type(fast), type(slow))
    if isinstance(slow, (dict, list)):  # (their comments and flow style are not read: not built)
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), path
        positions = (lambda lc: None if lc.data is None else {k: list(v) for k, v in lc.data.items()})
        assert positions(fast.lc) == positions(slow.lc), path
        assert len(fast) == len(slow), path
    if isinstance(slow, dict):
        assert [type(k) for k in fast] == [type(k) for k in slow] and list(fast) == list(slow), path
        for key in slow:
            assert_same(fast[key], slow[key], f"{path}.{key}")
    elif isinstance(slow, list):
        for i, (a, b) in enumerate(zip(fast, slow)):
            assert_same(a, b, f"{path}[{i}]")
    else:
        assert fast == slow, path
        assert getattr(fast, "__dict__", None) == getattr(slow, "__dict__", None), path  # a ScalarInt's width…


def outcome(text: str, preserve_quotes: bool = True) -> str:
    """``"fast"`` when the fast reading took it (and gave what the round trip gives), else ``"declined"``."""
    fast = load(text, preserve_quotes)
    if fast is None:
        return "declined"
    assert_same(fast, round_trip(text, preserve_quotes))  # the round trip takes every document the fast reading takes
    return "fast"


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rules_file_here_is_read_fast_as_the_round_trip_reads_it(path):
    assert outcome(path.read_text(encoding="utf-8")) == "fast"


COLLECTIONS = sorted([*ROOT.joinpath("examples").glob("*.yaml"), ROOT / "tests" / "fixtures" / "migrate" / "collection.yaml"])


@pytest.mark.parametrize("path", COLLECTIONS, ids=lambda p: p.name)
def test_the_example_collections_are_read_fast_as_the_round_trip_reads_them(path):
    assert outcome(path.read_text(encoding="utf-8"), preserve_quotes=False) == "fast"


@pytest.mark.parametrize("text", [
    "a: -5\nb: +5\nc: 10\n",
    "'k': 1\n\"j\": [a, 'b', \"c\"]\n",  # quoted keys and values keep their quoting types
    "- a: 1\n  b:\n  - x\n  - y\n- c\n",
    "a:\n- b\n-   c: 1\n    d: 2\n",
    "a:\n  b: |\n    x\n  c: >-\n    y\n    z\n",
    "a: 'it''s'\nb: \"q\\\"\"\n",
    "a: 1 # c\n# x\nb:   2\n",
    "a:\n  - [1, 2, {b: c}]\n",
    "a: {}\nb: []\nc: null\nd: TRUE\ne: ~\n",
    "key: plain\n  continued\n",
    "x: yes\ny: no\nz: on\n",
    "1: a\n2: b\n",
    "? a\n: b\n",
    # numbers the round trip keeps as written are its own constructor's (ScalarInt, HexCapsInt, ScalarFloat…)
    "a: 0\nb: -0\nc: 0x1F\nd: 1_000\ne: 012\nf: 0.5\ng: 1e3\nh: .inf\ni: -.5\nk: 0o17\n",
])
def test_documents_it_takes_are_what_the_round_trip_gives(text):
    assert outcome(text) == "fast"
    assert outcome(text, preserve_quotes=False) == "fast"  # as the card collections are read


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",  # a key twice: the policy says where
    "a: &x 1\nb: *x\n",  # aliases
    "a: !!str 1\n",  # tags
    "%YAML 1.1\n---\na: 1\n",  # directives
    "a: b: c\n",  # a syntax error
    "x: \"\\ud83c\"\n",  # a lone surrogate
    "a: 2001-12-14\n",  # a timestamp
    "a:\nb: 1\n",  # an empty value: the two parsers place it differently
    "a:\n\t- b\n",  # a tab
    "deep: " + "[" * 100 + "]" * 100 + "\n",  # deeper than the policy
    "big: " + "9" * 150 + "\n",  # an integer longer than the policy
    "# only a comment\n",
])
def test_it_declines_what_only_the_round_trip_may_refuse_or_place(text):
    assert outcome(text) == "declined"
    assert outcome(text, preserve_quotes=False) == "declined"


HAZARDS = ["notes:\n  - &a [lol]\n  - *a\n", "deep: " + "[" * 80 + "]" * 80, "x: \"\\ud83c\"", "\t- tab",
           "---\nedition: 2", "key: [unclosed", "? [complex, key]\n: value", "!!python/object:os.system [echo]",
           "", "  ", "- ", ": ", "# c", '"', "'", "{", "}", "[", "]", "|", ">", "&a ", "*a", "0", "007", "1_0",
           "0x1", ".5", "é", "\n", "? ", ",", "...", "null", "true"]


def test_mutated_rules_files_are_read_as_the_round_trip_reads_them_or_declined():
    """Lines deleted, doubled, hazards and pieces of YAML syntax put in, in the fixtures' small rules
    files (a fixed seed: the same documents on every run)."""
    rnd = random.Random(16)
    texts = [p.read_text(encoding="utf-8") for p in RULES_FILES if "fixtures" in p.parts]
    seen = {"fast": 0, "declined": 0}
    for _ in range(300):
        lines = rnd.choice(texts).split("\n")
        for _ in range(rnd.randint(1, 3)):
            i = rnd.randrange(len(lines))
            kind = rnd.random()
            if kind < 0.3:
                del lines[i: i + rnd.randint(1, 3)]
            elif kind < 0.5:
                lines.insert(i, lines[i])
            else:
                line = lines[i]
                at = rnd.randint(0, len(line))
                lines[i] = line[:at] + rnd.choice(HAZARDS) + line[at + rnd.randint(0, 2):]
            lines = lines or [""]
        seen[outcome("\n".join(lines), preserve_quotes=rnd.random() < 0.5)] += 1
    assert seen["fast"] > 50 and seen["declined"] > 50, seen
