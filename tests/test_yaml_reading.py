"""The YAML reader (kotc_rulesc/reading/yaml_reader.py) reads what ruamel.yaml's loaders read — the same
values, the same positions — or refuses, located, what the input policy refuses."""

from __future__ import annotations

import datetime
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.constructor import ConstructorError
from ruamel.yaml.error import YAMLError

from kotc_rulesc.reading.policy import InputError
from kotc_rulesc.reading.yaml_reader import position, read_yaml

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.joinpath("rules").glob("*.yaml"), *ROOT.joinpath("tests", "fixtures").rglob("*.yaml"),
                *ROOT.joinpath("examples").glob("*.yaml")])


def assert_positions(ours, theirs, path="$"):
    """Every key, value and item of ``ours`` (the reader's, positioned) where ruamel.yaml's round trip puts it."""
    if isinstance(theirs, dict):
        assert position(ours)[:2] == (theirs.lc.line + 1, theirs.lc.col + 1), path
        for key in theirs:
            assert position(ours, key, of_key=True)[:2] == tuple(n + 1 for n in theirs.lc.key(key)), (path, key)
            assert position(ours, key)[:2] == tuple(n + 1 for n in theirs.lc.value(key)), (path, key)
            assert_positions(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        for i, item in enumerate(theirs):
            assert position(ours, i)[:2] == tuple(n + 1 for n in theirs.lc.item(i)), (path, i)
            assert_positions(ours[i], item, f"{path}[{i}]")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rules_file_and_collection_here_reads_as_ruamel_yaml_reads_it(path):
    text = path.read_text(encoding="utf-8")
    ours = read_yaml(text, path.name, positioned=True).value
    assert ours == YAML(typ="safe", pure=True).load(text)
    assert_positions(ours, YAML(typ="rt").load(text))


_VALUES = st.sampled_from([
    "", "a", "a b", "'q'", '"d"', '"a\\"b"', "'it''s'", "yes", "no", "on", "12", "012", "0x1F", "0o17", "0b101", "1_000",
    "-3", "+3", "1.5", "-.5", ".inf", "-.INF", ".nan", "1e3", "null", "~", "true", "False", "TRUE", "1:20", "=", "00",
    "[a, b]", "[]", "{}", "{a: 1}", "{a: [1, {b: c}]}", "|", "|-", ">", ">+", "|2", "x # c", "x#y", "a: b", "- a",
    "-a", ":a", "a:", "?a", "&x a", "!t a", "*x", "@a", "`a", "%a", "a,b", "[a,", "{a", "\u00e9\U0001f600", '"\\x41"',
    '"\\u00e9"', '"\\/"', '"\\N"', '"\\ud83d\\ude00"', '"\\U0001F600"', '"a\n  b"', "'a\n  b'", "a\n  b", "...", "---",
    "2001-12-14", "<<", "!!str 1", "9" * 120])
_KEYS = st.sampled_from(["k", "name", "'q'", '"d"', "1", "null", "a b", "-k", "k:", "[k]", "<<", "=", "true"])
_LINES = st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, 4, 6]), st.sampled_from(["- ", "", "-   "]),
                            st.one_of(st.tuples(_KEYS, _VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}"), _VALUES),
                            st.sampled_from(["", "  # c", "#c"])), min_size=1, max_size=8)
#: what the policy refuses, where ruamel.yaml's loader reads on
POLICY_WORDS = ("alias", "tag", "merge key", "duplicate key", "nested", "digits", "surrogate", "second YAML document",
                "a mapping or a list as a key")


def _texts(value):
    """Dates as the text they were written as (YAML 1.2's core schema has none)."""
    if isinstance(value, dict):
        return {_texts(k): _texts(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_texts(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


@settings(max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(_LINES)
def test_the_reader_reads_what_ruamel_yamls_loader_reads(lines):
    """The same values, typed alike (YAML 1.2); what the loader refuses, the reader refuses; what
    the reader refuses that the loader reads is a refusal of the input policy, in its words."""
    text = "cards:\n" + "".join(" " * i + d + v + c + "\n" for i, d, v, c in lines)
    try:
        with warnings.catch_warnings():  # (ruamel.yaml warns of an anchor given twice; the reader takes it)
            warnings.simplefilter("ignore")
            expected = YAML(typ="safe", pure=True).load(text)
    except ConstructorError:  # ruamel.yaml's own failure to build a value ("=", a key of another type)
        return
    except (YAMLError, ValueError, TypeError):
        expected = YAMLError
    try:
        root = read_yaml(text, "x.yaml")
    except InputError as exc:
        assert exc.line > 0, str(exc)
        assert expected is YAMLError or any(w in exc.message for w in POLICY_WORDS), (text, str(exc))
        return
    if expected is not YAMLError:
        assert repr(root.value) == repr(_texts(expected)), text  # (repr: nan is not equal to itself)
    else:  # libyaml is more lenient than ruamel.yaml's own parser in a few corners
        assert "\t" in text or "|" in text or ">" in text or "#" in text, text


@pytest.mark.parametrize("text, message, line, column", [
    ("a: 1\na: 2\n", "duplicate key 'a'", 2, 1),
    ("a: &x 1\nb: *x\n", "a YAML alias (*x): aliases are not allowed (write the value out)", 2, 4),
    ("a: !!str 1\n", "a YAML tag (!!str): tags are not allowed", 1, 4),
    ("a: {<<: {b: 1}}\n", "a YAML merge key (<<): merge keys are not allowed", 1, 5),
    ("%YAML 1.1\n---\na: 1\n", "%YAML 1.1: kotc-rulesc reads YAML 1.2", 1, 1),
    ("a: 1\n---\nb: 2\n", "a second YAML document: a file holds one", 2, 1),
    ("deep: " + "[" * 100 + "]" * 100 + "\n", "nested more than 64 levels deep (mappings and lists)", 1, 70),
    ("big: " + "9" * 150 + "\n", "an integer of 150 digits (at most 100)", 1, 6),
    ('x: "\\ud83c"\n', "a UTF-16 surrogate escape \\ud83c: not a Unicode character", 1, 5),
    ('x: "ok \\ud83d\\ude00"\n', "a UTF-16 surrogate escape \\ud83d: not a Unicode character", 1, 8),
    ("? [a, b]\n: c\n", "a mapping or a list as a key: keys are text", 1, 3),
    ("a: [x\n", "the '[' opened at line 1, column 4 is not closed here: add ']' after its last item (and ',' between items)", 2, 1),
    ("a: \x07\n", "unacceptable character #x0007: control characters are not allowed", 1, 4),
])
def test_what_the_reader_refuses_and_where(text, message, line, column):
    with pytest.raises(InputError) as exc:
        read_yaml(text, "x.yaml")
    assert (exc.value.message, exc.value.line, exc.value.column) == (message, line, column)


def test_a_document_of_comments_has_no_data():
    assert read_yaml("# nothing\n", "x.yaml") is None


def test_the_card_list_is_handed_over_entry_by_entry():
    seen = []
    root = read_yaml("owner: me\ncards:\n  - {name: A}\n  - 7\nmore: [1]\n", "x.yaml",
                     lambda index, node: seen.append((index, node.value, node.line)))
    assert seen == [(0, {"name": "A"}, 2), (1, 7, 3)]
    assert root.value == {"owner": "me", "cards": [], "more": [1]}  # (the entries are not kept)
