"""YAML collections migrated by splicing: comments, key order, quoting, block styles and unknown fields
survive; the diff of input and output shows only what the migration changed; new values read as
ruamel.yaml writes them; migrating again changes nothing."""

import difflib
import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from kotc_rulesc.cards.collection import yaml_entries
from kotc_rulesc.migrate.edit import edit_dict
from kotc_rulesc.migrate.io_json import Context, MissingFrom
from kotc_rulesc.migrate.io_yaml import detect_indent, migrate_yaml, yaml_mark
from kotc_rulesc.migrate.plan import MARK, Migrator
from kotc_rulesc.reading.policy import InputError
from support.loaded import view_of

HERE = Path(__file__).parent / "fixtures" / "migrate"
COLLECTION = HERE / "collection.yaml"
EXAMPLES = Path(__file__).parent.parent / "examples"
PROPERTY = settings(max_examples=int(__import__("os").environ.get("KOTC_YAML_EXAMPLES", "60")), deadline=None,
                    derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def view():
    return view_of(HERE / "rules")


def migrate(view, data: bytes, target=4, assume=1):
    ctx = Context(Migrator(view, target, assume), "text")
    return migrate_yaml(ctx, data, "collection.yaml")


def diff(before: str, after: str):
    """(removed lines, added lines) of a line diff."""
    removed, added = [], []
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            removed.extend(before.splitlines()[i1:i2])
            added.extend(after.splitlines()[j1:j2])
    return removed, added


def cards_of(text: str) -> list:
    found = []
    yaml_entries(text, "c.yaml", lambda index, node: found.append(node.value))
    return found


def expected_cards(view, text: str, target, assume) -> list:
    """The cards of ``text`` as the migration must leave them (its values; the layout aside)."""
    migrator = Migrator(view, target, assume)
    out = []
    for card in cards_of(text):
        new = edit_dict(card, migrator.decide(card)) if isinstance(card, dict) else None
        new = card if new is None else new
        if isinstance(new, dict) and MARK in new:
            new = {**new, MARK: yaml_mark(new[MARK])}
        out.append(new)
    return out


def canonical(text: str) -> bool:
    """A round trip by ruamel.yaml (with the document's indentation) writes ``text`` back as it is."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16
    mapping, sequence, offset = detect_indent(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    buf = io.StringIO()
    yaml.dump(yaml.load(text), buf)
    return buf.getvalue() == text


def test_commented_collection_diff_shows_only_the_migration(view):
    source = COLLECTION.read_text()
    result = migrate(view, COLLECTION.read_bytes())
    out = result.output.decode()
    removed, added = diff(source, out)
    # the only lines that go: the two rewritten lines of the literal block, and two printed costs
    assert removed == [
        "      Activate when a card in your hand is destroyed. Exhaust 2 of your resources. Increase your hitpoints by 3.",
        "      ACHE: Activate when you take damage. Increase your hitpoints by 2.",
        "    cost: 8",
        "    cost: 10            # wrong already in the 1st edition (12)",
    ]
    assert added[:8] == [
        "      Activate when at least 1 card in your hand is destroyed. Exhaust 2 of your resources. Increase your hitpoints by 3.",
        "      ACHE: Activate when you take at least 5 damage. Increase your hitpoints by 2.",
        "    edition: 4",
        "    cost: 4",
        "    edition: 4",
        "    cost: 6             # wrong already in the 1st edition (12)",
        "    migration:",
        "      status: banned",
    ]
    # everything else is marker lines, indented under their card
    assert all(line.startswith("    migration:") or line.startswith("      ") for line in added[6:])
    for line in source.splitlines():  # comments, quoting, block style and unknown fields are all still there
        if line not in removed:
            assert line in out.splitlines(), line
    assert out.endswith("# end of the collection\n")
    assert cards_of(out) == expected_cards(view, source, 4, 1)


def test_marker_in_yaml(view):
    out = migrate(view, COLLECTION.read_bytes()).output.decode()
    assert """    text: "Pay 2 hitpoints. Increase your hitpoints by 3."
    migration:
      status: banned
      outcome: banned
      from: 1
      to: 4
      replacement:
        text: Exhaust 2 of your resources. Increase your hitpoints by 3.
        cost: 5
        edition: 4
""" in out
    assert "      remedy: print the suggested replacement instead, or redesign it under the 4th edition's guide\n" in out
    # an edition no source gives is written as in rules/: unknown
    assert "        - code: redacted\n          edition: unknown\n          sources: [rulebook]\n" in out
    # the blank line and comment between two cards stay between them
    assert '          field: text[1]\n\n  # --- banned: over a revised limit ---\n  - name: Counter Storm' in out


def test_migrating_the_output_again_changes_nothing(view):
    first = migrate(view, COLLECTION.read_bytes())
    second = migrate(view, first.output)
    assert second.output == first.output
    assert second.totals["changed"] == 0 and second.totals["migrated"] == 0
    assert second.totals["banned"] == first.totals["banned"] == 4
    assert second.entries and all("re-issued" not in e and "text rewritten" not in e for e in second.entries)


def test_unchanged_collection_is_written_back_byte_for_byte(view):
    odd = b"cards:   # odd spacing is kept too\n- {name: Old Guard, type: creature, edition: 4, cost: 4, offense: 2, defense: 10,\n   text: This card has no abilities.}\n"
    result = migrate(view, odd)
    assert result.output is odd or result.output == odd
    assert result.totals["unchanged"] == 1


@pytest.mark.parametrize(
    "text",
    [
        # sequence at the key's column, "|-" block
        "cards:\n- name: Study\n  type: spell\n  cost: 8\n  text: |-\n    Draw 2 cards.\n- name: Old\n  type: spell\n  cost: 2\n  edition: 4\n  text: Increase your hitpoints by 1.\n",
        # four-space indentation everywhere
        "cards:\n    -   name: Study\n        type: spell\n        cost: 8\n        text: Draw 2 cards.\n        meta:\n            set: core\n",
        # a bare list, double-quoted text
        "- name: Study\n  type: spell\n  cost: 8\n  text: \"Draw 2 cards.\"\n",
    ],
)
def test_indentation_styles_are_kept(view, text):
    out = migrate(view, text.encode()).output.decode()
    removed, added = diff(text, out)
    assert [line.strip() for line in removed] == ["cost: 8"]
    assert [line.strip() for line in added] == ["edition: 4", "cost: 4"]
    indent = removed[0][: len(removed[0]) - len(removed[0].lstrip())]
    assert all(line.startswith(indent) and not line.startswith(indent + " ") for line in added)


def test_detect_indent():
    assert detect_indent("cards:\n  - name: x\n    sub:\n      k: v\n") == (2, 4, 2)
    assert detect_indent("cards:\n- name: x\n  sub:\n    k: v\n") == (2, 2, 0)
    assert detect_indent("cards:\n    -   name: x\n        sub:\n            k: v\n") == (4, 8, 4)


def test_flow_style_card_gains_its_fields_in_place(view):
    text = "cards:\n  - {name: Study, type: spell, cost: 8, text: Draw 2 cards.}  # one line\n"
    out = migrate(view, text.encode()).output.decode()
    # (the comment's column is now inside the card: one space before it)
    assert out == "cards:\n  - {name: Study, type: spell, edition: 4, cost: 4, text: Draw 2 cards.} # one line\n"


def test_literal_block_stays_literal_when_rewritten(view):
    text = "cards:\n  - name: Sprite\n    type: spell\n    cost: 3\n    text: |\n      Activate when you take damage. Increase your hitpoints by 2.\n    notes: kept\n"
    out = migrate(view, text.encode()).output.decode()
    assert out == text.replace("take damage.", "take at least 5 damage.")


# --------------------------------------------------------------------------- any layout


FIXTURE_CARDS = cards_of(COLLECTION.read_text())
_INDENTS = [(2, 2), (2, 0), (4, 4)]  # (mapping, sequence offset): "cards:\n  - name", "cards:\n- name", "    -   name"


def _scalar(value, style: str) -> str:
    if isinstance(value, int):
        return str(value)
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style == '"' or "\n" in value or not _plain_ok(value):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return value


def _plain_ok(s: str) -> bool:
    return bool(s) and s == s.strip() and not set(s) & set(":#'\"{}[],&*!|>%@`") and s[0] not in "-?" \
        and not s[0].isdigit() and s.lower() not in ("null", "true", "false", "~")


@st.composite
def layouts(draw):
    """A collection of the fixture's cards in a layout drawn at random: indentation, scalar styles,
    literal blocks, flow cards and lists, nested mappings, field orders, end-of-line comments, comment
    lines and blank lines between fields and cards."""
    step, offset = draw(st.sampled_from(_INDENTS))
    rng = random.Random(draw(st.integers(0, 1 << 30)))
    pad = " " * offset
    dash = pad + "-" + " " * (step - 1 if step > 2 else 1)
    key_pad = " " * len(dash)
    lines = ["# a collection", "cards:"]
    for i in range(draw(st.integers(1, 7))):
        card = dict(rng.choice(FIXTURE_CARDS))
        card["name"] = f"{card.get('name', 'Card')} {i}"
        if rng.random() < 0.3:
            card["tags"] = rng.sample(["draw", "classic", "promo"], 2)
        if rng.random() < 0.2:
            card["artist"] = rng.choice(["R. Quill", "It's bright: a note."])
        keys = list(card)
        if rng.random() < 0.3:
            rng.shuffle(keys)
        if i and rng.random() < 0.5:
            lines.append("")
            if rng.random() < 0.5:
                lines.append(pad + "# --- a comment between cards")
        elif i and rng.random() < 0.2:
            lines.append("# a comment at column 0")
        if rng.random() < 0.2 and all("\n" not in str(v) for v in card.values()):
            pairs = []
            for k in keys:
                v = card[k]
                if isinstance(v, list):
                    pairs.append(f"{k}: [{', '.join(v)}]")
                elif isinstance(v, str) and (not _plain_ok(v) or "," in v or "[" in v):
                    pairs.append(f'{k}: "{v}"')
                else:
                    pairs.append(f"{k}: {v}")
            lines.append(dash + "{" + ", ".join(pairs) + "}" + ("  # one line" if rng.random() < 0.5 else ""))
            continue
        out = []
        for k in keys:
            v = card[k]
            if k == "text" and (rng.random() < 0.4 or "\n" in v):
                out.append(f"{k}: {rng.choice(['|', '|-']) if chr(10) in v or rng.random() < 0.8 else '|'}")
                body = v[:-1] if v.endswith("\n") else v
                out.extend(key_pad + " " * step + ln for ln in body.split("\n"))
                continue
            if isinstance(v, list):
                if rng.random() < 0.5:
                    out.append(f"{k}: [{', '.join(v)}]")
                else:
                    out.append(f"{k}:")
                    out.extend(key_pad + " " * offset + "- " + item for item in v)
                continue
            line = f"{k}: {_scalar(v, rng.choice(['', '', chr(39), chr(34)]))}"
            if rng.random() < 0.15:
                line += " " * rng.randint(1, 12) + "# noted"
            out.append(line)
            if rng.random() < 0.08:
                out.append("# a comment line inside the card")
        lines.append(dash + out[0])
        lines.extend(ln if ln.startswith(" ") or ln.startswith("#") else key_pad + ln for ln in out[1:])
    if rng.random() < 0.5:
        lines.append("# end of the collection")
    return "\n".join(lines) + "\n"


@PROPERTY
@given(layouts(), st.sampled_from([(4, 1), (2, 1), (5, 1), (4, 2)]))
def test_any_layout_is_migrated_in_place(view, text, migration):
    """The new values are the migration's; every comment line is kept; what ruamel.yaml writes back
    unchanged it still writes back unchanged (the new values are written as it writes them); and a
    second run over the markers of the first changes nothing more."""
    target, source = migration
    after = migrate(view, text.encode(), target, source).output.decode()
    assert cards_of(after) == expected_cards(view, text, target, source)
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert [line for line in after.splitlines() if line.lstrip().startswith("#")][:len(comments)] == comments
    if canonical(text):
        assert canonical(after), after
    again = migrate(view, after.encode(), target, source).output.decode()
    assert again == after
    other = migrate(view, after.encode(), 4, source).output.decode()  # markers replaced, kept or removed
    assert cards_of(other) == expected_cards(view, after, 4, source)


@pytest.mark.parametrize("name, target, assume", [("collection.yaml", "11-pre", 6), ("collection.yaml", 11, 6),
                                                  ("collection.yaml", 8, 6), ("mixed-collection.yaml", 17, None),
                                                  ("mixed-collection.yaml", 14, None)])
def test_the_examples_are_migrated_in_place(name, target, assume):
    from kotc_rulesc.cards.rules_source import get_view

    real = get_view(None)
    text = (EXAMPLES / name).read_text()
    after = migrate_yaml(Context(Migrator(real, target, assume), "text"), text.encode(), name).output.decode()
    assert cards_of(after) == expected_cards(real, text, target, assume)
    assert canonical(text) and canonical(after)


# --------------------------------------------------------------------------- layouts in particular


def test_a_blank_line_before_a_flow_card_with_a_comment_is_kept(view):
    text = ("cards:\n  - {name: Arcane Study, type: spell, cost: 8, text: Draw 2 cards.}\n\n"
            "  - {name: Old Guard, type: creature, edition: 4, cost: 4, offense: 2, defense: 10, text: This card has no abilities.}"
            "  # kept\n")
    assert migrate(view, text.encode()).output.decode() == text.replace("cost: 8", "edition: 4, cost: 4")


def test_a_comment_right_after_a_block_keeps_its_column_when_the_marker_goes_in_between(view):
    text = ("cards:\n  - name: Misprint\n    type: spell\n    cost: 5\n    text: |\n      Increase your hitpoints by 4.\n"
            "  # the next card\n  - name: Old Guard\n    type: creature\n    edition: 4\n    cost: 4\n"
            "    offense: 2\n    defense: 10\n    text: This card has no abilities.\n")
    out = migrate(view, text.encode()).output.decode()
    assert "          field: cost\n  # the next card\n  - name: Old Guard" in out


def test_an_end_of_line_comment_keeps_its_column_when_the_marker_after_it_goes(view):
    text = ("cards:\n  - name: Misprint\n    type: spell\n    cost: 5\n    text: Increase your hitpoints by 4.\n"
            "    artist: R. Quill        # noted\n# the end\n")
    marked = migrate(view, text.encode(), target=4).output
    assert b"    artist: R. Quill        # noted\n    migration:\n" in marked
    fixed = marked.replace(b"cost: 5", b"cost: 8")  # corrected by hand: legal, so the marker goes
    assert migrate(view, fixed, target=4).output == text.replace("cost: 5", "cost: 8").encode()


def test_unchanged_cards_keep_their_own_spacing_when_others_change(view):
    text = ("cards:\n  - {name: Old Guard,  type: creature, edition: 4, cost: 4, offense: 2, defense: 10,"
            " text: This card has no abilities.}\n  - name:   Arcane Study\n    type: spell\n    cost: 8\n"
            "    text: Draw 2 cards.\n")
    out = migrate(view, text.encode()).output.decode()
    assert out == text.replace("    cost: 8\n", "    edition: 4\n    cost: 4\n")


STUDY = "name: Arcane Study, type: spell, cost: 8, text: Draw 2 cards."
MISPRINT_MARK = ("migration:\n  status: banned\n  outcome: banned\n  from: 1\n  to: 4\n  notes:\n    - the printed cost 5 was "
                 "already wrong in the 1st edition (the card cost 8 there)\n  remedy: 'print the cost 8 on it: it is then a "
                 "legal card of the 4th edition'\n  reasons:\n    - code: cost-mismatch\n      edition: 4\n"
                 "      sources: [guide]\n      message: the printed cost is 5, but the card costs 8 in the 4th edition\n"
                 "      field: cost\n")


def _mark(indent: str) -> str:
    return "".join(indent + line + "\n" for line in MISPRINT_MARK.splitlines())


@pytest.mark.parametrize("text, expected", [
    # a quoted key
    ("cards:\n  - 'name': Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n",
     "cards:\n  - 'name': Arcane Study\n    type: spell\n    edition: 4\n    cost: 4\n    text: Draw 2 cards.\n"),
    # a comment after a block scalar's indicator stays there
    ("cards:\n  - name: Sprite\n    type: spell\n    cost: 3\n    text: |  # kept\n      Activate when you take damage. "
     "Increase your hitpoints by 2.\n",
     "cards:\n  - name: Sprite\n    type: spell\n    cost: 3\n    text: |  # kept\n      Activate when you take at least 5 "
     "damage. Increase your hitpoints by 2.\n"),
    # a flow card spaced otherwise keeps its spacing; the comment after it its column where it can
    ("cards:\n  - {name: Arcane Study,   type: spell, cost: 8, text: Draw 2 cards.}               # flow\n",
     "cards:\n  - {name: Arcane Study,   type: spell, edition: 4, cost: 4, text: Draw 2 cards.}   # flow\n"),
    # a flow card over two lines
    ("cards:\n  - {name: Arcane Study, type: spell,\n     cost: 8, text: Draw 2 cards.}\n",
     "cards:\n  - {name: Arcane Study, type: spell,\n     edition: 4, cost: 4, text: Draw 2 cards.}\n"),
    # an anchor (no alias can use it), a %YAML 1.2 directive
    ("cards:\n  - &a {" + STUDY + "}\n", "cards:\n  - &a {" + STUDY.replace("cost: 8", "edition: 4, cost: 4") + "}\n"),
    ("%YAML 1.2\n---\ncards:\n  - {" + STUDY + "}\n", "%YAML 1.2\n---\ncards:\n  - {" + STUDY.replace("cost: 8", "edition: 4, cost: 4") + "}\n"),
    # a tab, a date (text, as in JSON)
    ("cards:\n  - {name: Arcane Study, type: spell, cost: 8, text:\tDraw 2 cards., when: 2001-12-14}\n",
     "cards:\n  - {name: Arcane Study, type: spell, edition: 4, cost: 4, text:\tDraw 2 cards., when: 2001-12-14}\n"),
    # a single card, a flow list of cards
    ("name: Arcane Study\ntype: spell\ncost: 8\ntext: Draw 2 cards.\n",
     "name: Arcane Study\ntype: spell\nedition: 4\ncost: 4\ntext: Draw 2 cards.\n"),
    ("cards: [{" + STUDY + "}, {name: Old Guard, type: creature, edition: 4, cost: 4, offense: 2, defense: 10, text: This card has no abilities.}]\n",
     "cards: [{" + STUDY.replace("cost: 8", "edition: 4, cost: 4") + "}, {name: Old Guard, type: creature, edition: 4, "
     "cost: 4, offense: 2, defense: 10, text: This card has no abilities.}]\n"),
    # a field that goes first, on the dash's line; a marker first, removed
    ("cards:\n  - cost: 8\n    text: Draw 2 cards.\n    type: spell\n    name: Arcane Study\n",
     "cards:\n  - cost: 4\n    text: Draw 2 cards.\n    type: spell\n    name: Arcane Study\n    edition: 4\n"),
    ("cards:\n  - migration: {status: banned}\n    name: Old Guard\n    type: creature\n    edition: 4\n    cost: 4\n"
     "    offense: 2\n    defense: 10\n    text: This card has no abilities.\n",
     "cards:\n  - name: Old Guard\n    type: creature\n    edition: 4\n    cost: 4\n    offense: 2\n    defense: 10\n"
     "    text: This card has no abilities.\n"),
    # a marker in flow style, not last, is replaced where it is, in block style
    ("cards:\n  - name: Misprint\n    migration: {status: x}\n    type: spell\n    cost: 5\n    text: Increase your hitpoints by 4.\n",
     "cards:\n  - name: Misprint\n" + _mark("    ") + "    type: spell\n    cost: 5\n    text: Increase your hitpoints by 4.\n"),
    # CRLF line ends, in the new lines too
    ("cards:\r\n  - name: Misprint\r\n    type: spell\r\n    cost: 5\r\n    text: Increase your hitpoints by 4.\r\n",
     ("cards:\n  - name: Misprint\n    type: spell\n    cost: 5\n    text: Increase your hitpoints by 4.\n" + _mark("    "))
     .replace("\n", "\r\n")),
])
def test_every_layout_is_spliced_in_place(view, text, expected):
    out = migrate(view, text.encode()).output.decode()
    assert out == expected
    assert cards_of(out) == expected_cards(view, text, 4, 1)


@pytest.mark.parametrize("text", [
    # other top-level keys around the list, a document start
    "# mine\nowner: me\ncards:\n  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n"
    "  - {name: Misprint, type: spell, cost: 5, text: Increase your hitpoints by 4.}\n# after the list\nnotes: kept\n",
    "---\ncards:\n- name: Arcane Study\n  type: spell\n  cost: 8\n  text: Draw 2 cards.\n",
    # entries that are not cards
    "cards:\n  - 42\n  - \n  - [a, b]\n  - just text\n  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n",
    # a nested mapping and a block list in a card, and a marker already there (replaced)
    "cards:\n  - name: Misprint\n    type: spell\n    meta:\n      set: core\n      no: 7\n    cost: 5\n    text: Increase your hitpoints by 4.\n"
    "    tags:\n      - a\n      - b\n    migration:\n      status: banned\n      from: 1\n      to: 3\n# end\n",
])
def test_shapes_are_migrated_in_place(view, text):
    result = migrate(view, text.encode())
    out = result.output.decode()
    assert cards_of(out) == expected_cards(view, text, 4, 1)
    removed, _ = diff(text, out)
    assert all("cost" in line or line.startswith("      ") or "migration" in line for line in removed), removed
    assert canonical(out) == canonical(text)


def test_entries_that_are_not_cards_are_reported(view):
    text = "cards:\n  - 42\n  - \n  - [a, b]\n  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n"
    result = migrate(view, text.encode())
    assert result.cards == 4 and result.totals["errors"] == 3
    assert result.attention == ["[1] (line 2): error — a whole number, not a card (a mapping of fields)",
                                "[2] (line 3): error — null, not a card (a mapping of fields)",
                                "[3] (line 4): error — a list, not a card (a mapping of fields)"]


def test_a_byte_order_mark_is_kept(view):
    text = "cards:\n  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n"
    out = migrate(view, b"\xef\xbb\xbf" + text.encode()).output
    assert out == b"\xef\xbb\xbf" + text.replace("    cost: 8", "    edition: 4\n    cost: 4").encode()


def test_a_file_without_a_final_line_break_keeps_its_last_line_as_it_is(view):
    text = "cards:\n  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards."
    assert migrate(view, text.encode()).output.decode() == text.replace("    cost: 8", "    edition: 4\n    cost: 4")
    banned = text.replace("Arcane Study", "Misprint").replace("cost: 8", "cost: 5").replace("Draw 2 cards.", "Increase your hitpoints by 4.")
    marked = migrate(view, banned.encode()).output.decode()
    assert marked.startswith(banned + "\n    migration:\n") and marked.endswith("\n")


def test_without_from_the_first_card_without_an_indicator_stops_the_run(view):
    text = "cards:\n  - name: Old Guard\n    type: spell\n    edition: 4\n    cost: 4\n    text: Draw 2 cards.\n" \
           "  - name: Arcane Study\n    type: spell\n    cost: 8\n    text: Draw 2 cards.\n"
    with pytest.raises(MissingFrom) as stopped:
        migrate(view, text.encode(), assume=None)
    assert 'card [2] "Arcane Study" (line 7)' in stopped.value.describe()  # (numbered from 1)


def test_an_unreadable_document_is_unreadable_even_after_a_card_without_an_indicator(view):
    """The document is read whole before a card stops the run: its syntax error comes first."""
    text = "cards:\n  - name: Arcane Study\n    type: spell\n    cost: 8\n  - {name: [\n"
    with pytest.raises(InputError):
        migrate(view, text.encode(), assume=None)


@pytest.mark.parametrize("text, why", [
    ("cards:\n  - {name: A, type: spell}\n  - *x\n", "alias"),
    ("cards:\n  - {name: A, name: B}\n", "duplicate key"),
    ("cards:\n  - {name: A, hz: " + "[" * 70 + "]" * 70 + "}\n", "nested more than 64"),
    ("cards:\n  - {name: A, hz: " + "7" * 150 + "}\n", "integer of 150 digits"),
    ('cards:\n  - {name: A, hz: "\\udc00"}\n', "surrogate"),
    ("cards:\n  - {name: A\n", "the '{' opened at line 2, column 5 is not closed here"),
    ("cards:\n  - !card {name: A}\n", "a YAML tag (!card)"),
    ("cards:\n  - {<<: {type: spell}, name: A}\n", "merge key"),
])
def test_what_the_policy_refuses_is_refused_with_its_reason(view, text, why):
    with pytest.raises(InputError) as exc:
        migrate(view, text.encode())
    assert why in str(exc.value)


def test_the_pure_parser_reads_the_same(view, monkeypatch):
    """Where libyaml's C parser is missing (ruamel.yaml.clib), ruamel.yaml's own parser gives the same events."""
    import ruamel.yaml

    with_c = migrate(view, COLLECTION.read_bytes())
    real = ruamel.yaml.YAML
    monkeypatch.setattr(ruamel.yaml, "YAML", lambda typ: real(typ=typ, pure=True))
    pure = migrate(view, COLLECTION.read_bytes())
    assert pure.output == with_c.output and pure.entries == with_c.entries


def test_a_text_kept_with_its_blank_lines_keeps_them_and_the_next_card_its_fields():
    """A ``|+`` text keeps its blank lines (they are its value): rewritten, it keeps them all; marked, its
    card gets the marker after them, not the next card (which then held 'migration' twice: unreadable)."""
    from support.loaded import BUNDLED

    text = ("cards:\n  - name: Pawns\n    type: spell\n    edition: 15\n    level: 6\n    text: |+\n"
            "      Summon 2 level 3 pawns.\n\n  - name: Bad\n    type: spell\n    edition: 15\n    level: 6\n"
            "    text: |+\n      Summon 2 level 3 pawns.\n      Draw 1 card.\n\n  - name: Next\n    type: spell\n"
            "    edition: 17\n    level: 2\n    text: Draw 1 card.\n")
    ctx = Context(Migrator(view_of(BUNDLED), 17, None), "text")
    out = migrate_yaml(ctx, text.encode(), "c.yaml").output.decode()
    assert out.startswith(text[:text.index("  - name: Bad")].replace("Summon", "Craft"))
    assert "      Draw 1 card.\n\n    migration:\n      status: error\n" in out
    assert out.endswith("  - name: Next\n    type: spell\n    edition: 17\n    level: 2\n    text: Draw 1 card.\n")
    assert [c["text"] for c in cards_of(out)] == ["Craft 2 level 3 pawns.\n\n", "Summon 2 level 3 pawns.\nDraw 1 card.\n\n",
                                                 "Draw 1 card."]


def test_a_card_that_escapes_what_is_not_ascii_gets_its_new_text_escaped_too():
    """A card written in ASCII with escapes (``"\\u2192"``, as an ASCII-only YAML writer writes "→") keeps
    that style in its new text and its marker, as a JSON card does; a card with "→" as it is keeps it so."""
    from support.loaded import BUNDLED

    card = ('  - name: "Tith{}"\n    type: spell\n    edition: 13\n    level: 1\n'
            '    text: "Self-exhaust 2 minions{} target up to 1 of your resources; bounce the targets."\n')
    text = "cards:\n" + card.format("\\xE9", "\\u2192") + card.format("é", "→") + card.format("", "\\u2192 \\u2014")
    ctx = Context(Migrator(view_of(BUNDLED), 17, None), "text")
    out = migrate_yaml(ctx, text.encode(), "c.yaml").output.decode()
    new = "Self-exhaust 2 on-field minions{} target 1 card in your granary; bounce the target."
    assert f'    text: "{new.format(chr(92) + "u2192")}"\n  - name: "Tithé"' in out
    assert f'    text: "{new.format("→")}"\n' in out
    assert "\\u2014" in out.split('name: "Tith"')[1] and out.split('name: "Tithé"')[0].isascii()
