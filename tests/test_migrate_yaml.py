"""YAML round trip: comments, key order, quoting, block styles and unknown fields survive;
the diff of input and output shows only what the migration changed; migrating again changes nothing."""

import difflib
from pathlib import Path

import pytest

from kotc_rulesc.migrate.io_json import Context
from kotc_rulesc.migrate.io_yaml import detect_indent, migrate_yaml
from kotc_rulesc.migrate.plan import Migrator
from loaded import view_of

HERE = Path(__file__).parent / "fixtures" / "migrate"
COLLECTION = HERE / "collection.yaml"


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
    # comments, quoting, block style and unknown fields are all still there, in order
    for line in source.splitlines():
        if line.strip().startswith("#") or "'" in line or '"' in line or "text: |" in line or "artist" in line or "tags" in line:
            if line not in removed:
                assert line in out.splitlines(), line
    assert out.endswith("# end of the collection\n")


def test_marker_in_yaml(view):
    out = migrate(view, COLLECTION.read_bytes()).output.decode()
    assert """    text: "Pay 2 hitpoints. Increase your hitpoints by 3."
    migration:
      status: banned
      from: 1
      to: 4
      replacement:
        text: Exhaust 2 of your resources. Increase your hitpoints by 3.
        cost: 5
        edition: 4
""" in out
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
    # (ruamel may re-space the comment after a flow mapping; the line changes anyway)
    assert out.startswith("cards:\n  - {name: Study, type: spell, edition: 4, cost: 4, text: Draw 2 cards.} ")
    assert out.rstrip().endswith("# one line") and out.count("\n") == 2


def test_literal_block_stays_literal_when_rewritten(view):
    text = "cards:\n  - name: Sprite\n    type: spell\n    cost: 3\n    text: |\n      Activate when you take damage. Increase your hitpoints by 2.\n    notes: kept\n"
    out = migrate(view, text.encode()).output.decode()
    assert out == text.replace("take damage.", "take at least 5 damage.")
