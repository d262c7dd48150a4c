"""JSON and JSONL card by card: the incremental reader, byte-exact pass-through, the style of changed cards."""

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kotc_rulesc.migrate.io_json import Context, MissingFrom, dumps_element, json_cards, jsonl_block
from kotc_rulesc.migrate.run import Options, run
from kotc_rulesc.reading.json_reader import JsonStream, plain_name_at
from kotc_rulesc.reading.policy import InputError, read_blocks
from kotc_rulesc.migrate.plan import Migrator
from support.loaded import view_of

HERE = Path(__file__).parent / "fixtures" / "migrate"


@pytest.fixture(scope="module")
def view():
    return view_of(HERE / "rules")


def ctx(view, target=4, assume=1, report="json"):
    return Context(Migrator(view, target, assume), report)


def events(text: str, chunk: int):
    return list(JsonStream(io.BytesIO(text.encode()), chunk=chunk).events())


# --------------------------------------------------------------------------- the incremental reader

scalars = st.one_of(st.integers(-5, 5000), st.text(max_size=12), st.booleans(), st.none())
cards = st.dictionaries(st.sampled_from(["name", "type", "text", "cost", "x", "é"]), scalars, min_size=1, max_size=5)
layouts = st.sampled_from([None, 1, 2, 4, "\t"])


@settings(max_examples=60, deadline=None)
@given(st.lists(cards, max_size=6), layouts, st.booleans(), st.integers(1, 40), st.booleans())
def test_stream_reassembles_the_file_exactly(items, indent, other_keys, chunk, ascii_only):
    doc = {"owner": "me", "cards": items, "version": [1, {"a": "}]"}]} if other_keys else {"cards": items}
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only) + "\n"
    got = events(text, chunk)
    assert "".join(e[1] for e in got) == text
    found = [e for e in got if e[0] == "card"]
    assert [e[2] for e in found] == items
    at = 0
    for e in got:
        if e[0] == "card":
            assert json.loads(e[1]) == e[2]
            assert e[3] == text.count("\n", 0, at) + 1
        at += len(e[1])


@pytest.mark.parametrize("chunk", [1, 7, 65536])
def test_stream_bare_list_and_single_card(chunk):
    text = '[ {"name": "A"} ,\n{"name": "B"}]'
    got = events(text, chunk)
    assert [e[2] for e in got if e[0] == "card"] == [{"name": "A"}, {"name": "B"}]
    assert "".join(e[1] for e in got) == text
    single = '{"name": "Solo", "type": "spell", "text": "Draw 1 card."}\n'
    got = events(single, chunk)
    assert [e[2]["name"] for e in got if e[0] == "card"] == ["Solo"]
    assert "".join(e[1] for e in got) == single


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"cards": [{"name": "A"}, {"name": ]}', "no value after the ':'"),
        ('{"cards": {"name": "A"}}', "'cards' must be a list"),
        ('{"owner": "me"}', "no cards"),
        ('{"cards": []} []', "extra data"),
        ("", "empty"),
        ('{"cards": [{"name": "A"}', "the file ends before the list of cards is closed: add ']'"),
    ],
)
def test_stream_unreadable(text, message):
    with pytest.raises(InputError, match=message):
        events(text, 5)


def test_stream_error_has_a_line():
    with pytest.raises(InputError) as exc:
        events('{"cards": [\n  {"name": "A"},\n  {"name": }\n]}', 4)
    assert exc.value.line == 3


# --------------------------------------------------------------------------- JSONL blocks


def test_jsonl_block_keeps_unchanged_lines_byte_for_byte(view):
    lines = [
        b'{"name":"Old","type":"spell","edition":4,"cost":2,"text":"Increase your hitpoints by 1."}',
        b"",
        b'{"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards.", "x": "\\u00e9"}\r',
        b"not json",
        b"[1, 2]",
        b'{"name":"Study","type":"spell","cost":8,"text":"Draw 2 cards."}',
    ]
    block = b"\n".join(lines) + b"\n"
    result = jsonl_block(ctx(view), block, 0, 1)
    out = result.output.split(b"\n")
    assert out[0] == lines[0] and out[1] == b"" and out[3] == b"not json" and out[4] == b"[1, 2]"
    # a changed line keeps its style: spaced separators, escaped Unicode, CRLF
    assert out[2] == b'{"name": "Study", "type": "spell", "edition": 4, "cost": 4, "text": "Draw 2 cards.", "x": "\\u00e9"}\r'
    assert out[5] == b'{"name":"Study","type":"spell","edition":4,"cost":4,"text":"Draw 2 cards."}'
    assert out[6] == b""
    assert result.cards == 5
    t = result.totals
    assert (t["cards"], t["migrated"], t["reissued"], t["unchanged"], t["errors"]) == (5, 2, 2, 1, 2)
    entries = [json.loads(e) for e in result.entries]
    assert [(e["index"], e["line"], e["status"]) for e in entries] == [  # every card, its index from 0
        (0, 1, "unchanged"), (1, 3, "reissued"), (2, 4, "error"), (3, 5, "error"), (4, 6, "reissued")]


def test_jsonl_block_lists_at_most_twenty_cards_needing_attention(view):
    """The cards past the cap are only counted, whatever the report."""
    block = b"".join(b'{"name": "E%d", "type": "spell", "cost": 8, "text": "Zap the moon."}\n' % i for i in range(30))
    for report in (None, "json"):
        full = jsonl_block(ctx(view, report=report), block, 0, 1)
        assert len(full.attention) == 20 and full.attention[0].startswith("[1] E0 (line 1): error")
        assert full.totals["errors"] == 30


def test_jsonl_missing_from_names_the_card(view):
    block = b'{"name":"Old","type":"spell","edition":4,"cost":2,"text":"Increase your hitpoints by 1."}\n{"name":"Study","type":"spell","cost":8,"text":"Draw 2 cards."}\n'
    with pytest.raises(MissingFrom) as exc:
        jsonl_block(ctx(view, assume=None), block, 10, 21)
    assert (exc.value.index, exc.value.line, exc.value.name) == (11, 22, "Study")
    assert "--from" in exc.value.describe() and 'card [12] "Study" (line 22)' in exc.value.describe()


def test_read_blocks_cuts_at_line_ends():
    data = b"".join(b'{"n": %d}\n' % i for i in range(1000)) + b'{"n": "last"}'
    blocks = list(read_blocks(io.BytesIO(data), 100))
    assert b"".join(blocks) == data
    assert all(b.endswith(b"\n") for b in blocks[:-1])
    assert sum(len([line for line in b.split(b"\n") if line.strip()]) for b in blocks) == 1001


# --------------------------------------------------------------------------- JSON cards


def test_changed_json_element_is_laid_out_like_the_original(view):
    raw = '{\n      "name": "Study",\n      "type": "spell",\n      "cost": 8,\n      "text": "Draw 2 cards."\n    }'
    result = json_cards(ctx(view), [(raw, None, 3, "    ")], 0)
    (new,) = result.output
    assert new == ('{\n      "name": "Study",\n      "type": "spell",\n      "edition": 4,\n      "cost": 4,\n'
                   '      "text": "Draw 2 cards."\n    }')
    assert dumps_element({"a": 1}, '{"a": 0}', "") == '{"a": 1}'
    assert dumps_element({"a": 1}, '{"a":0}', "  ") == '{"a":1}'


def test_unchanged_json_card_is_not_rewritten(view):
    raw = '{ "name" : "Old", "type":"spell", "edition":4, "cost":2, "text":"Increase your hitpoints by 1." }'
    result = json_cards(ctx(view), [(raw, json.loads(raw), 1, "")], 0)
    assert result.output == [None]


# --------------------------------------------------------------------------- JSONL: lines seen before but for the name

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
    """What :func:`~kotc_rulesc.reading.json_reader.plain_name_at` takes for a plain name first: the name's own
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


def test_the_jsonl_report_lists_unchanged_cards_with_notes_as_the_json_report_does(tmp_path):
    """Was: a JSONL card that stayed unchanged with a note (a rewording no rulebook list names, kept as
    printed) was only counted, while the same card in a JSON collection had its entry."""
    from kotc_rulesc.cards.rules_source import get_view

    card = {"name": "Seer", "type": "spell", "edition": 13, "level": 14, "text": "Target this card; bounce the target. "
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


# --------------------------------------------------------------------------- a changed card keeps its own bytes

#: a player's own fields, written as json.dumps would not write them
OWN = ('"price": 0.10000000000000000001, "n" :1E2,  "s": "caf\\u00e9 \\/", '
       '"deep": {"a": [1, {"b": 2.50}], "c": {}}, "list": [ 1,2 ]')


def test_a_changed_jsonl_card_keeps_its_own_fields_byte_for_byte(view):
    """Was: a changed card was written whole by json.dumps: 0.10000000000000000001 became 0.1, 1E2 100.0,
    the spacing and the escapes of every field its own.  Now only what the migration changes is written."""
    reissued = '{"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards.", ' + OWN + '}\r'
    marked = '{"name": "B", "type": "spell", "cost": 2, "text": "Pay 2 hitpoints. Increase your hitpoints by 2.", ' + OWN + '}'
    unmarked = ('{"name": "U", "type": "spell", "cost": 4, "text": "Increase your hitpoints by 2.", "worth": 1E2, '
                '"migration" : {"status": "banned"}, ' + OWN + '}')
    unmarked_first = ('{"migration": {"status": "banned"},"name": "U", "type": "spell", "cost": 4, '
                      '"text": "Increase your hitpoints by 2.", ' + OWN + '}')
    block = "\n".join([reissued, marked, unmarked, unmarked_first]).encode()
    out = jsonl_block(ctx(view), block, 0, 1).output.decode().split("\n")
    assert out[0] == reissued.replace('"cost": 8', '"edition": 4, "cost": 4')
    mark = json.loads(out[1])["migration"]
    assert out[1] == marked[:-1] + ', "migration": ' + json.dumps(mark) + "}"
    assert out[2] == ('{"name": "U", "type": "spell", "cost": 4, "text": "Increase your hitpoints by 2.", "worth": 1E2, '
                      + OWN + '}')
    assert out[3] == '{"name": "U", "type": "spell", "cost": 4, "text": "Increase your hitpoints by 2.", ' + OWN + '}'


def test_a_changed_json_card_keeps_its_own_layout_and_numbers(view):
    raw = ('{\n      "name": "Study",\n      "type": "spell",\n      "cost": 8,\n      "tags": [1, 2],\n'
           '      "price": 1.0e-3,\n      "text": "Draw 2 cards.",\n      "extra": {"a": {"b": [0.50]}}\n    }')
    (new,) = json_cards(ctx(view), [(raw, None, 3, "    ")], 0).output
    assert new == raw.replace('"type": "spell",\n', '"type": "spell",\n      "edition": 4,\n').replace('"cost": 8', '"cost": 4')
    marked = raw.replace("Draw 2 cards.", "Pay 2 hitpoints. Increase your hitpoints by 2.").replace('"cost": 8', '"cost": 2')
    (new,) = json_cards(ctx(view), [(marked, None, 3, "    ")], 0).output
    mark = json.loads(new)["migration"]
    assert new == marked[:-6] + ',\n      "migration": ' + json.dumps(mark, indent=2).replace("\n", "\n      ") + "\n    }"


def test_a_changed_json_card_in_a_crlf_file_keeps_crlf_line_ends(view):
    """A field inserted (the edition, the marker: several lines) ends its lines as the card does."""
    raw = '{\r\n      "name": "Study",\r\n      "type": "spell",\r\n      "cost": 8,\r\n      "text": "Draw 2 cards."\r\n    }'
    (new,) = json_cards(ctx(view), [(raw, None, 3, "    ")], 0).output
    assert new == raw.replace('"spell",\r\n', '"spell",\r\n      "edition": 4,\r\n').replace('"cost": 8', '"cost": 4')
    marked = raw.replace("Draw 2 cards.", "Pay 2 hitpoints. Increase your hitpoints by 2.").replace('"cost": 8', '"cost": 2')
    (new,) = json_cards(ctx(view), [(marked, None, 3, "    ")], 0).output
    assert "\n" not in new.replace("\r\n", "") and json.loads(new)["migration"]
    from kotc_rulesc.migrate.io_json import dumps_element  # (a card written whole, in the same layout)

    assert "\n" not in dumps_element(json.loads(new), raw, "    ").replace("\r\n", "")


EXAMPLES = [("collection.yaml", "11-pre"), ("mixed-collection.yaml", 17)]
LAYOUTS = [((",", ":"), False, None, ""), ((", ", ": "), True, None, ""), (None, False, 2, "    "), (None, True, "\t", "\t"), (None, False, 4, "")]


@pytest.mark.parametrize("example, target", EXAMPLES)
def test_every_example_card_migrated_in_json_is_what_the_whole_card_writer_wrote(example, target):
    """For a card whose text is what json.dumps writes, keeping its bytes changes nothing: in every
    layout, the new text is the one the whole card, edited, would be written as, and reads as it."""
    from ruamel.yaml import YAML

    from kotc_rulesc.cards.rules_source import get_view
    from kotc_rulesc.migrate.edit import edit_dict
    from kotc_rulesc.migrate.io_json import edited_text

    root = Path(__file__).resolve().parent.parent
    migrator = Migrator(get_view(str(root / "rules")), target, assume=6)
    changed = 0
    for card in YAML(typ="safe").load((root / "examples" / example).read_text())["cards"]:
        d = migrator.decide(card)
        want = edit_dict(card, d)
        for separators, escaped, indent, base in LAYOUTS:
            raw = json.dumps(card, separators=separators, ensure_ascii=escaped, indent=indent)
            raw = raw.replace("\n", "\n" + base) if indent else raw
            got = edited_text(card, d, raw, base)
            if want is None:
                assert got is None
                continue
            assert got == dumps_element(want, raw, base)
            assert list(json.loads(got).items()) == list(want.items())
            changed += 1
    assert changed


@pytest.mark.parametrize("chunk", [16, 64, 1000])
def test_every_card_of_a_long_json_file_is_told_its_indent(monkeypatch, chunk):
    """Was: where the reader let go of the text read (every MAX_LINE characters), at the start of a card,
    the card's line was lost with it: its indent read as none, and migrate wrote that card changed with its
    closing brace at the start of its line and its fields one level (6 spaces, not 2) in too many."""
    from kotc_rulesc.reading import policy

    monkeypatch.setattr(policy, "MAX_LINE", 200)
    cards = [{"name": f"Card {i}", "type": "spell", "text": "Draw 2 cards."} for i in range(60)]
    got = events(json.dumps({"cards": cards}, indent=2), chunk)
    assert [e[4] for e in got if e[0] == "card"] == ["    "] * 60
    assert "".join(e[1] for e in got) == json.dumps({"cards": cards}, indent=2)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DESIGNS), st.dictionaries(st.sampled_from(["flavor", "p", "é", "name"]), scalars, max_size=3),
       st.booleans(), st.sampled_from([None, 2, "\t"]), st.booleans(), st.booleans())
def test_a_card_spliced_reads_as_the_card_edited(view, design, own, own_first, indent, escaped, spaced):
    """Whatever the card's layout and where its own fields and its marker stand, the text written reads as
    the card with the decision applied, its fields in the same order."""
    from kotc_rulesc.migrate.edit import edit_dict
    from kotc_rulesc.migrate.io_json import edited_text

    card = {**own, **design} if own_first else {**design, **own}
    d = Migrator(view, 4, 1).decide(card)
    raw = json.dumps(card, indent=indent, ensure_ascii=escaped, separators=(", " if spaced else ",", ": "))
    got, want = edited_text(card, d, raw, ""), edit_dict(card, d)
    assert got is None if want is None else list(json.loads(got).items()) == list(want.items())
