"""The example collection (examples/collection.yaml) migrated from the 6th to the 11th pre-release on the real rules:
every kind of change shows, the diff shows nothing else, a second run changes nothing."""

import difflib
import json
from pathlib import Path

import pytest

from kotc_rulesc.cards import judge
from kotc_rulesc.cards.rules_source import get_view
from kotc_rulesc.migrate.io_json import Context
from kotc_rulesc.migrate.io_yaml import migrate_yaml
from kotc_rulesc.migrate.plan import Migrator

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "collection.yaml"


@pytest.fixture(scope="module")
def view():
    return get_view(str(ROOT / "rules"))


@pytest.fixture(scope="module")
def migrated(view):
    ctx = Context(Migrator(view, "11-pre", assume=6), "json")
    result = migrate_yaml(ctx, EXAMPLE.read_bytes(), "collection.yaml")
    return result, [json.loads(e) for e in result.entries]


def by_status(entries, status):
    return [e for e in entries if e["status"] == status]


def test_every_kind_of_change_shows(migrated):
    result, entries = migrated
    rewritten = by_status(entries, "rewritten")
    reissued = by_status(entries, "reissued")
    banned = by_status(entries, "banned")
    assert rewritten and reissued and banned
    # revised wording, with a bound value and a singular form
    news = [t["new"] for e in rewritten for t in e["text"]]
    assert "Activate when at least 1 card in your hand is destroyed." in news
    assert any("at least 5 damage" in n for n in news)
    assert all(t["edition"] and t["sources"] for e in rewritten for t in e["text"])
    # re-issued: cost and Edition Indicator, with the cost revision as the reason
    for e in reissued:
        assert e["edition"]["new"] == 11 and isinstance(e["cost"]["new"], int)
        assert any(r["code"] == "cost-revised" and r["edition"] in (9, 11) and r["sources"] for r in e["reasons"])
    # banned: kept, with every reason and its edition and sources
    codes = {r["code"] for e in banned for r in e["reasons"]}
    assert {"redacted", "cost-revised", "over-limit", "cost-mismatch"} <= codes
    assert all(r["sources"] for e in banned for r in e["reasons"])
    # a printed cost that was already wrong in the 6th is reported
    assert any("already wrong in the 6th edition" in n for e in entries for n in e.get("notes", ()))
    t = result.totals
    assert t["cards"] == t["migrated"] + t["unchanged"] + t["banned"] + t["errors"]
    assert t["unchanged"] > 0 and t["errors"] == 0


def test_reissued_cards_are_legal_in_the_11th(view, migrated):
    from ruamel.yaml import YAML

    result, entries = migrated
    cards = YAML(typ="safe").load(result.output)["cards"]
    for e in by_status(entries, "reissued") + by_status(entries, "rewritten"):
        card = cards[e["index"]]
        assert judge(card, "11-pre", view).status == "legal", card["name"]
        assert "migration" not in card


def test_banned_cards_are_kept_exactly(migrated):
    from ruamel.yaml import YAML

    result, entries = migrated
    before = YAML(typ="safe").load(EXAMPLE.read_bytes())["cards"]
    after = YAML(typ="safe").load(result.output)["cards"]
    assert len(before) == len(after)  # never dropped
    for e in by_status(entries, "banned"):
        card = dict(after[e["index"]])
        mark = card.pop("migration")
        assert card == before[e["index"]]
        assert mark["status"] == "banned" and mark["to"] == "11-pre"
        assert [r["code"] for r in mark["reasons"]] == [r["code"] for r in e["reasons"]]


def test_diff_shows_only_the_migration_and_a_second_run_nothing(view, migrated):
    result, entries = migrated
    source = EXAMPLE.read_text().splitlines()
    out = result.output.decode().splitlines()
    removed = []
    for op, i1, i2, _, _ in difflib.SequenceMatcher(None, source, out, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed.extend(source[i1:i2])
    # only printed costs, Edition Indicators and rewritten ability lines go away
    for line in removed:
        assert line.strip().startswith(("cost:", "edition:")) or any(
            t["old"] in line for e in entries for t in e.get("text", ())), line
    again = migrate_yaml(Context(Migrator(view, "11-pre", assume=6), None), result.output, "migrated.yaml")
    assert again.output == result.output
    assert again.totals["changed"] == 0


def test_crossing_the_12th_clean_slate_bans_every_card_and_drops_none(view):
    result = migrate_yaml(Context(Migrator(view, 12, assume=6), "json"), EXAMPLE.read_bytes(), "collection.yaml")
    entries = [json.loads(e) for e in result.entries]
    assert result.totals["migrated"] == 0 and result.totals["unchanged"] == 0
    assert len(entries) == result.totals["cards"]
    assert all(any(r["code"] == "clean-slate" and r["edition"] == 12 for r in e["reasons"]) for e in entries)


def test_the_collections_page_says_what_the_example_holds():
    # docs/collections.md described examples/collection.yaml as "24 cards of the 6th edition"; four of
    # them bear the Edition Indicator of a later printing
    from ruamel.yaml import YAML

    cards = YAML(typ="safe").load(EXAMPLE.read_text())["cards"]
    bare = sum(1 for c in cards if c.get("edition") is None)
    printed = sorted({c["edition"] for c in cards if c.get("edition") is not None})
    said = " ".join((ROOT / "docs" / "collections.md").read_text().split())
    names = ", ".join(map(str, printed[:-1])) + f" and {printed[-1]}"
    assert f"holds {len(cards)} old cards, among them the rulebooks' own examples: {bare} of the 6th edition, " \
           f"which bear no Edition Indicator, and {len(cards) - bare} bearing the Edition Indicators {names}" in said
