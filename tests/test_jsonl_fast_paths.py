"""JSONL at speed, with the same answers (issue 16): orjson decodes a line only where it gives what the
standard library under the input policy gives, and ``migrate`` writes a line seen before but for the
name without decoding it again — byte for byte what deciding it afresh writes."""

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kotc_rulesc import inputs
from kotc_rulesc.inputs import JsonProblem, json_line, plain_name_at
from kotc_rulesc.loader import load_rules
from kotc_rulesc.migrate.io_json import Context, jsonl_block
from kotc_rulesc.migrate.plan import Migrator
from kotc_rulesc.migrate.run import Options, run
from kotc_rulesc.view import FoldedRules

HERE = Path(__file__).parent / "fixtures" / "migrate"


@pytest.fixture(scope="module")
def view():
    return FoldedRules(load_rules(HERE / "rules"))


def standard(line):
    """What the standard library's decoder under the policy makes of ``line`` (orjson set aside)."""
    fast, inputs._fast_loads = inputs._fast_loads, False
    try:
        return answer(line)
    finally:
        inputs._fast_loads = fast


def answer(line):
    try:
        value = json_line(line)
    except JsonProblem as exc:
        return "refused", exc.message, exc.pos
    return "value", json.dumps(value), repr(value)  # (repr: 1 and 1.0 and True differ)


# --------------------------------------------------------------------------- json_line

#: pieces that make a line hard: keys twice (also nested, also escaped), colons in strings and keys,
#: long integers (orjson reads one beyond 64 bits as a float), NaN, numbers too large, surrogates,
#: deep nesting, escapes
HAZARDS = [
    '"a": 1, "a": 2', '"k\\u003a": 1, "k:": 2', '"k\\u003A": "v"', '"t": "a: b: c"', '"x": {"y": 1, "y": 2}',
    '"n": 18446744073709551615', '"n": 18446744073709551616', '"n": -9223372036854775808', '"n": -9223372036854775809',
    '"n": ' + "9" * 40, '"n": ' + "9" * 101, '"n": 1e400', '"n": -1e400', '"n": 1e-400', '"n": NaN', '"n": -Infinity',
    '"n": 1.5e10', '"n": -0', '"n": 0.1', '"s": "\\ud83c"', '"s": "\\udf89\\ud83c"', '"s": "\\ud83c\\udf89"',
    '"s": "\\u00e9\\n\\t\\"q\\"\\\\"', '"s": "é — ✓"', '"d": ' + "[" * 63 + "]" * 63, '"d": ' + "[" * 64 + "]" * 64,
    '"d": ' + "{\"a\": " * 40 + "1" + "}" * 40, '"b": true, "z": null', '"l": [1, 2, {"a": ":"}]', '"": ""',
    '"name": "Card 1"', '"t": "\\u0000"', '"bad": tru', '"s": "x\ty"',
]


@given(st.lists(st.sampled_from(HAZARDS), max_size=4), st.sampled_from(["{%s}", "[{%s}]", "{%s} x", " {%s}\r", "{%s,}"]),
       st.booleans())
def test_orjson_takes_a_line_only_where_it_agrees_with_the_policy(pieces, shape, as_bytes):
    line = shape % ", ".join(pieces)
    assert answer(line.encode() if as_bytes else line) == standard(line)


def test_orjson_agrees_on_mutated_cards():
    rng = random.Random(16)
    base = json.dumps({"name": "Ünïcode “name”", "type": "spell", "edition": 6, "cost": 3,
                       "text": "Draw 2 cards: then discard 1.", "extra": {"a": [1, 2.5, None]}})
    alphabet = list('{}[]:,"\\ 0123456789.eE-tfnul') + ["\\u003a", "\\ud83c", '"name": 1, ', "9" * 20, "NaN"]
    for _ in range(3000):
        chars = list(base if rng.random() < 0.5 else base.encode("ascii", "backslashreplace").decode())
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars) + 1)
            chars[at:at + rng.randint(0, 2)] = [rng.choice(alphabet)]
        line = "".join(chars)
        assert answer(line.encode()) == standard(line), line


def test_the_policy_speaks_for_a_line_orjson_refuses():
    # orjson refuses these itself, or would read them otherwise: the standard library says why
    assert answer(b'{"a": 1, "a": 2}')[:2] == ("refused", "duplicate key 'a' (each key may appear once in a mapping)")
    assert answer(b'{"a": NaN}')[:2] == ("refused", "NaN is not a JSON number")
    assert answer(b'{"a": 123456789012345678901}') == ("value", '{"a": 123456789012345678901}', "{'a': 123456789012345678901}")


# --------------------------------------------------------------------------- migrate: lines seen before but for the name

DESIGNS = [
    {"type": "spell", "cost": 8, "text": "Draw 2 cards."},  # re-issued
    {"type": "spell", "cost": 3, "text": "Activate when you take damage. Increase your hitpoints by 2."},  # rewritten
    {"type": "spell", "cost": 2, "text": "Pay 2 hitpoints. Increase your hitpoints by 2."},  # banned: marked
    {"type": "spell", "cost": 4, "text": "Increase your hitpoints by 2."},  # unchanged
    {"type": "spell", "cost": 4, "text": "Increase your hitpoints by 2.", "migration": {"status": "banned"}},  # marker goes
]


def copies(rng: random.Random, n: int) -> bytes:
    """``n`` copies of the designs, each with a name of its own, in every style a line may have."""
    lines = []
    for i in range(n):
        card = {"name": rng.choice([f"Copy {i}", f"Copy {i}", "  ", "", f"Cöpy {i}", f'Q"{i}', f"T\\{i}", " Lead"]),
                **rng.choice(DESIGNS)}
        if rng.random() < 0.2:
            card["flavor"] = rng.choice(["Snow.", "“Quoted”", "a: b"])
        if rng.random() < 0.1:
            card = {k: card[k] for k in reversed(list(card))}  # the name last
        line = json.dumps(card, ensure_ascii=rng.random() < 0.5, separators=rng.choice([(", ", ": "), (",", ":")]))
        if rng.random() < 0.1:
            line = line.replace('"name": "', '"name" : "', 1)
        lines.append(line + ("\r" if rng.random() < 0.1 else ""))
        if rng.random() < 0.05:
            lines.append(rng.choice(["", "   ", "[1]", '{"name": "Dup", "name": "Dup", "type": "spell"}']))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("line, span", [
    (b'{"name": "Copy 7", "type": "spell"}', (10, 16)),
    (b'{"name":"Copy 7","type":"spell"}', (9, 15)),
    (b'{"name": " Lead ", "cost": 1}', (10, 16)),  # spaces around: plain
    (b'{"name": "~!#[]"}', (10, 15)),  # every printable but the quote and the backslash
    (b'{"name": "   "}', (0, 0)),  # blank
    (b'{"name": ""}', (0, 0)),  # empty
    (b'{"name": "T\\1"}', (0, 0)),  # an escape
    (b'{"name": "C\xc3\xb6py"}', (0, 0)),  # not ASCII
    (b'{"name": "Tab\there"}', (0, 0)),  # a control character (invalid JSON)
    (b'{"name":  "X"}', (0, 0)),  # spaced otherwise
    (b'{"name" : "X"}', (0, 0)),
    (b'{"type": "spell", "name": "X"}', (0, 0)),  # the name not first
    (b'{"name": "Unclosed', (0, 0)),
    (b' {"name": "X"}', (0, 0)),
])
def test_a_plain_name_first(line, span):
    """What :func:`~kotc_rulesc.inputs.plain_name_at` takes for a plain name first: the name's own
    bytes are its JSON string, and the rest of the line decides everything else."""
    assert plain_name_at(line) == span


@pytest.mark.parametrize("report", [None, "json"])
def test_a_line_seen_but_for_the_name_is_written_as_if_decided_afresh(view, report):
    block = copies(random.Random(7), 600)
    remembered = jsonl_block(Context(Migrator(view, 4, 1), report), block, 0, 1)
    assert remembered.output != block
    fresh_lines, fresh_entries, totals, index = [], [], None, 0
    for number, line in enumerate(block.split(b"\n"), 1):  # each line alone, nothing remembered
        fresh = jsonl_block(Context(Migrator(view, 4, 1), report), line, index, number)
        index += fresh.cards
        fresh_lines.append(fresh.output)
        fresh_entries += fresh.entries
        if totals is None:
            totals = fresh.totals
        else:
            totals.merge(fresh.totals)
    assert remembered.output == b"\n".join(fresh_lines)
    assert remembered.totals.counts == totals.counts
    assert remembered.entries == fresh_entries
    assert remembered.cards == index


def test_the_memo_remembers_only_plain_names_first_and_says_who_was_decided(view):
    ctx = Context(Migrator(view, 4, 1), None)
    block = b"".join(b'{"name": "Copy %d", "type": "spell", "cost": 8, "text": "Draw 2 cards."}\n' % i for i in range(50))
    result = jsonl_block(ctx, block, 0, 1)
    assert ctx.migrator.misses == 1 and ctx.migrator.hits == 0  # 49 lines written as the first one was
    assert result.output.split(b"\n")[7] == b'{"name": "Copy 7", "type": "spell", "edition": 4, "cost": 4, "text": "Draw 2 cards."}'
    assert result.totals["reissued"] == 50
    odd = b'{"name": "C\\u00f6py", "type": "spell", "cost": 8, "text": "Draw 2 cards."}\n{"type": "spell", "name": "X", "cost": 8, "text": "Draw 2 cards."}\n'
    jsonl_block(ctx, odd, 50, 51)
    assert ctx.migrator.hits == 2  # an escape in the name, the name not first: decoded, and decided from the cache


def test_the_jsonl_report_lists_unchanged_cards_with_notes_as_the_json_report_does(tmp_path):
    """Was: a JSONL card that stayed unchanged with a note (a rewording no rulebook list names, kept as
    printed) was only counted, while the same card in a JSON collection had its entry."""
    from kotc_rulesc.cards.rules_source import get_view

    card = {"name": "Seer", "type": "spell", "edition": 13, "level": 14, "text": "Target this card; bounce it. "
            "Target up to 6 cards on the top of any deck; place 2 Dice Counters on each target."}
    view = get_view(None)
    reports = {}
    for fmt, text in (("jsonl", json.dumps(card) + "\n"), ("json", json.dumps({"cards": [card]}))):
        path = tmp_path / f"c.{fmt}"
        path.write_text(text)
        report = tmp_path / f"r-{fmt}.json"
        run(Options(str(path), 17, output=str(tmp_path / f"out.{fmt}"), report=str(report), report_format="json"),
            view, stderr=io.StringIO())
        reports[fmt] = json.loads(report.read_text())["cards"]
    assert [(e["status"], bool(e.get("notes"))) for e in reports["jsonl"]] == [("unchanged", True)]
    assert reports["jsonl"] == reports["json"]


def test_the_card_reader_decodes_a_line_seen_but_for_the_name_once(tmp_path, monkeypatch):
    from kotc_rulesc.cards import collection

    path = tmp_path / "copies.jsonl"
    plain = b"".join(json.dumps({"name": f"Copy {i}", **design}, separators=style).encode() + b"\n"
                     for i in range(40) for design in DESIGNS for style in ((", ", ": "), (",", ":")))
    path.write_bytes(plain + copies(random.Random(8), 300))  # and lines of every kind
    decoded = []
    monkeypatch.setattr(collection, "json_line", lambda raw: decoded.append(raw) or json_line(raw))

    def read():
        return [(i.index, i.card, [str(p) for p in i.problems], i.line, i.field_lines) for i in collection.read_collection(path)]

    remembered = read()
    assert len(decoded) < len(remembered) / 2
    monkeypatch.setattr(collection, "plain_name_at", lambda raw: (0, 0))  # every line decoded
    assert remembered == read()
    cards = [card for _, card, _, _, _ in remembered if card is not None]
    assert all(a is not b for a, b in zip(cards, cards[1:]))  # each a card of its own
