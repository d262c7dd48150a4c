"""Reading collections: YAML, JSON, JSONL, bare lists and single cards, with lines; and the schema."""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from kotc_rulesc.cards.collection import collection_schema, read_collection
from kotc_rulesc.reading.policy import InputError
from kotc_rulesc.cards.fields import read_fields

from test_cards_input import BAD_CARDS, GOOD_CREATURE, GOOD_SPELL
from test_migrate_stream import DESIGNS, copies
from support.loaded import rules_of

YAML_TEXT = """\
# a collection with comments and extra fields
cards:
  - name: Insight          # the first card
    type: spell
    edition: 2
    cost: 4
    text: Draw 2 cards.
    flavor: "Knowledge is power."
    artist: A. Painter
  - name: Sentinel
    type: creature
    offense: 2
    defense: 5
    text: |
      This creature cannot attack.
      This card has no abilities.
"""


def test_yaml_cards_keep_extra_fields_and_know_their_lines(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(YAML_TEXT)
    first, second = read_collection(path)
    assert first.card == {**GOOD_SPELL, "flavor": "Knowledge is power.", "artist": "A. Painter"}
    assert type(first.card) is dict and type(first.card["name"]) is str
    assert (first.index, first.line, first.problems) == (0, 3, [])
    assert first.field_lines["text"] == 7 and first.field_lines["artist"] == 9
    assert second.line == 10 and second.field_lines["text[1]"] == 15 and second.field_lines["text[2]"] == 16
    assert second.card["text"] == "This creature cannot attack.\nThis card has no abilities.\n"


def test_a_yaml_text_written_as_a_list_is_a_card_problem_not_a_crash(tmp_path):
    # a block list of paragraphs under text: read (the card is then told 'text' must be a string), where
    # reading it raised AttributeError ('Collection' object has no attribute 'style')
    path = tmp_path / "c.yaml"
    path.write_text('cards:\n  - name: List\n    type: spell\n    edition: 17\n    text:\n      - "Draw 2 cards."\n')
    (card,) = read_collection(path)
    assert card.problems == [] and card.card["text"] == ["Draw 2 cards."] and card.field_lines["text"] == 5


def test_json_cards_know_their_lines(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"title": "mine", "cards": [GOOD_SPELL, GOOD_CREATURE]}, indent=2))
    first, second = read_collection(path)
    assert first.card == GOOD_SPELL and second.card == GOOD_CREATURE
    lines = path.read_text().splitlines()
    assert '"name": "Insight"' in lines[first.field_lines["name"] - 1]
    assert '"offense": 2' in lines[second.field_lines["offense"] - 1]
    assert lines[second.line - 1].strip() == "{"


@pytest.mark.parametrize(
    "name, content",
    [
        ("list.yaml", "- {name: Insight, type: spell, edition: 2, cost: 4, text: Draw 2 cards.}\n"),
        ("list.json", json.dumps([GOOD_SPELL])),
        ("one-card.yaml", "name: Insight\ntype: spell\nedition: 2\ncost: 4\ntext: Draw 2 cards.\n"),
        ("one-card.json", json.dumps(GOOD_SPELL)),
        ("cards.jsonl", json.dumps(GOOD_SPELL) + "\n"),
        ("no-extension", json.dumps(GOOD_SPELL) + "\n" + json.dumps(GOOD_SPELL) + "\n"),
        ("pretty-json-without-extension", json.dumps({"cards": [GOOD_SPELL]}, indent=2)),
        ("yaml-without-extension", "cards:\n  - name: Insight\n    type: spell\n    edition: 2\n    cost: 4\n    text: Draw 2 cards.\n"),
    ],
)
def test_accepted_shapes(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    items = list(read_collection(path))
    assert items and all(i.card == GOOD_SPELL and i.problems == [] and i.line for i in items)


def test_a_json_file_holds_one_value(tmp_path):
    """Trailing data after the JSON value is refused (the input policy), also when it is more cards:
    one card per line is JSONL, and the message says to name the file so."""
    path = tmp_path / "several-json-lines.json"
    path.write_text(json.dumps(GOOD_SPELL) + "\n" + json.dumps(GOOD_SPELL) + "\n")
    with pytest.raises(InputError, match="extra data after the collection") as err:
        list(read_collection(path))
    assert err.value.problem.line == 2 and ".jsonl" in err.value.problem.hint


def test_jsonl_without_extension_with_a_broken_first_line(tmp_path):
    path = tmp_path / "cards"
    path.write_text('{"name": "x", \n' + json.dumps(GOOD_SPELL) + "\n" + json.dumps(GOOD_SPELL) + "\n")
    items = list(read_collection(path))
    assert [i.card is None for i in items] == [True, False, False] and items[0].problems[0].line == 1


def test_standard_input(monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps([GOOD_SPELL]).encode())))
    (item,) = read_collection("-")
    assert item.card == GOOD_SPELL


def test_unreadable_raises_a_located_problem(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("cards:\n  - name: [x\n")
    with pytest.raises(InputError) as err:
        list(read_collection(path))
    assert err.value.problem.line == 3 and err.value.problem.file == str(path)


def test_json_and_jsonl_do_not_need_ruamel(tmp_path):
    (tmp_path / "c.json").write_text(json.dumps({"cards": [GOOD_SPELL]}))
    (tmp_path / "c.jsonl").write_text(json.dumps(GOOD_SPELL) + "\n")
    code = (
        "import sys\n"
        "from kotc_rulesc.cards.collection import read_collection\n"
        f"assert len(list(read_collection({str(tmp_path / 'c.json')!r}))) == 1\n"
        f"assert len(list(read_collection({str(tmp_path / 'c.jsonl')!r}))) == 1\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(('ruamel', 'jsonschema', 'kotc_rulesc.loader')))\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_schema_accepts_good_cards_and_shapes():
    schema = collection_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for doc in ({"cards": [GOOD_SPELL, GOOD_CREATURE]}, [GOOD_SPELL], GOOD_CREATURE,
                {"cards": [{**GOOD_CREATURE, "type": "minion", "edition": None, "flavor": "x"}]}):
        assert list(validator.iter_errors(doc)) == []


FIELD_CASES = [c for c in BAD_CARDS if c[2] == "malformed" and not c[3].startswith("text[") and c[0] not in (
    "spell-two-abilities", "empty-text", "edition-from-the-future")]  # rules of the text and of the rules data


def _system():
    from kotc_rulesc.fold import fold

    return fold(rules_of(), 2).system


@pytest.mark.parametrize("case", FIELD_CASES, ids=[c[0] for c in FIELD_CASES])
def test_the_schema_and_the_engine_agree_on_bad_fields(case):
    _, bad, _, fld, _ = case
    validator = jsonschema.Draft202012Validator(collection_schema())
    assert list(validator.iter_errors({"cards": [bad]})), f"the schema accepts {bad}"
    _, problems = read_fields(bad, _system(), 2, 12)
    assert any(p.field == fld for p in problems)


def test_the_package_ships_the_schema():
    root = Path(__file__).parent.parent
    assert (root / "kotc_rulesc" / "schemas" / "collection.schema.json").is_file()


def test_a_large_jsonl_file_is_streamed_line_by_line(tmp_path):
    path = tmp_path / "big.jsonl"
    cards = [dict(GOOD_SPELL, name=f"Insight {i}", flavor="é" * (i % 50)) for i in range(1500)]
    lines = [json.dumps(c, ensure_ascii=False) for c in cards]
    lines[1000] = '{"name": "Broken",'
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode())  # a byte-order mark, Windows line ends
    assert path.stat().st_size > 3 * 65536
    items = list(read_collection(path))
    assert len(items) == 1500 and [i.index for i in items] == list(range(1500))
    assert [i.line for i in items][:3] == [1, 2, 3] and items[-1].line == 1500
    assert items[1000].card is None and items[1000].problems[0].line == 1001
    assert all(i.card == cards[i.index] for i in items if i.index != 1000)


@pytest.mark.parametrize("content, words", [(b"\x00\x01" * 100, "binary"), (b"\n \n", "empty"), (b"\xff\xfe{}", "not UTF-8")])
def test_an_unreadable_jsonl_file(tmp_path, content, words):
    path = tmp_path / "c.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=words):
        list(read_collection(path))


def test_the_schema_knows_every_type_stat_and_figure_of_every_system(rules):
    """The schema is written by hand for every edition at once: it must name what each
    edition's card-building system prints, with the bounds the system gives."""
    from kotc_rulesc.fold import fold

    schema = collection_schema()
    card = schema["$defs"]["card"]["properties"]
    type_pattern = re.compile(card["type"]["pattern"])
    for key in rules.all_keys:
        system = fold(rules, key).system
        assert system.figure in card, (key, system.figure)
        for ctype in system.types:
            assert type_pattern.match(ctype.id), (key, ctype.id)
            for stat in ctype.stats:
                decl = card[stat.name]
                decl = schema["$defs"][decl["$ref"].rsplit("/", 1)[1]] if "$ref" in decl else decl
                assert (decl.get("minimum"), decl.get("maximum")) == (stat.min, stat.max), (key, stat)
    validator = jsonschema.Draft202012Validator(schema)
    minion = {"name": "Greedy Goblin", "type": "minion", "edition": 12, "sp": 2, "hp": 7, "level": 6, "text": "GREED: Draw 2 cards."}
    assert list(validator.iter_errors({"cards": [minion]})) == []
    assert list(validator.iter_errors({"cards": [{**minion, "hp": -1}]}))
    assert list(validator.iter_errors({"cards": [{k: v for k, v in minion.items() if k != "hp"}]}))


def test_a_jsonl_line_seen_but_for_the_name_is_read_as_if_afresh(tmp_path, monkeypatch):
    from kotc_rulesc.cards import collection

    path = tmp_path / "copies.jsonl"
    plain = b"".join(json.dumps({"name": f"Copy {i}", **design}, separators=style).encode() + b"\n"
                     for i in range(40) for design in DESIGNS for style in ((", ", ": "), (",", ":")))
    path.write_bytes(plain + copies(random.Random(8), 300))  # and lines of every kind

    def read():
        return [(i.index, i.card, [str(p) for p in i.problems], i.line, i.field_lines) for i in collection.read_collection(path)]

    remembered = read()
    monkeypatch.setattr(collection, "plain_name_at", lambda raw: (0, 0))  # every line decoded
    assert remembered == read()
    cards = [card for _, card, _, _, _ in remembered if card is not None]
    assert all(a is not b for a, b in zip(cards, cards[1:]))  # each a card of its own
