"""One decision cache for check-cards and migrate (issue 16): a card's judgement depends on its decisive
fields alone, so the copies of a design are judged (and migrated) once; check-cards reports card by card
in constant memory, byte for byte what judging each card on its own writes."""

import json
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cards.collection import read_collection
from kotc_rulesc.cards.decisive import DecisionMemo
from kotc_rulesc.cards.deck import judge_deck
from kotc_rulesc.cards.legality import CardJudge, judge, judge_input
from kotc_rulesc.cards.report import CardTexts, card_json, judgement_text, summary
from kotc_rulesc.citation import Citations
from kotc_rulesc.cli import main
from kotc_rulesc.tables import TablesView

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [ROOT / "examples" / "collection.yaml", ROOT / "examples" / "mixed-collection.yaml"]
EDITIONS = [1, 6, 10, 11, 12, 13, 16, 17]  # (not 11-pre: parse.py cannot yet say of a 13th card that it is "not yet" there)


@pytest.fixture(scope="module")
def view():
    return TablesView()


@pytest.fixture(scope="module")
def cards():
    return [item.card for path in EXAMPLES for item in read_collection(path)]


def verdict(card, edition, view):
    """A judgement as check-cards reports it, but for the card's name."""
    out = judge(card, edition, view).to_json()
    del out["name"]
    return out


# --------------------------------------------------------------------------- what a judgement depends on


def test_the_decisive_fields_are_those_every_system_prints(view):
    assert view.decisive_fields() == ("type", "edition", "text", "cost", "offense", "defense", "level", "sp", "hp")


def test_a_judgement_depends_on_the_decisive_fields_alone(view, cards):
    """Another name, other fields, none of the others, another order, null for absent: the same judgement."""
    fields = view.decisive_fields()
    for card in cards:
        other = {k: card[k] for k in reversed(list(card)) if k in fields}
        other.update({"name": "Another Name", "flavor": "New.", "artist": None, "id": [1, 2],
                      "migration": {"status": "banned", "to": 17}})
        other.update({k: None for k in fields if k not in card})
        for edition in EDITIONS:
            assert verdict(other, edition, view) == verdict(card, edition, view), (card["name"], edition)


def test_each_decisive_field_can_change_a_judgement(view):
    creature = {"name": "C", "type": "creature", "edition": 6, "cost": 4, "offense": 2, "defense": 5, "text": "Draw 1 card."}
    minion = {"name": "M", "type": "minion", "edition": 13, "level": 3, "sp": 1, "hp": 5, "text": "GREED: Draw 2 cards."}
    changes = {"type": (creature, "spell", 6), "edition": (minion, None, 13), "text": (creature, "Draw 2 cards.", 6),
               "cost": (creature, 5, 6), "offense": (creature, 3, 6), "defense": (creature, 6, 6),
               "level": (minion, 4, 13), "sp": (minion, 2, 13), "hp": (minion, 12, 13)}
    assert set(changes) == set(view.decisive_fields())
    for name, (card, value, edition) in changes.items():
        assert verdict({**card, name: value}, edition, view) != verdict(card, edition, view), name


@pytest.mark.parametrize("rules_dir", ["bundled", "mini", "migrate", "nasty"])
def test_the_declared_and_compiled_fields_are_those_every_folded_system_reads(rules_dir, tmp_path):
    """DECISIVE_FIELDS (the tables) and RuleSet.decisive_fields (the declarations) name, in order,
    every field the folded catalogs' systems read — found without folding any edition."""
    from support.codegen_support import build_into
    from support.loaded import rules_of, view_of

    root = Path(__file__).parent
    directory = {"bundled": root.parent / "rules", "mini": root / "fixtures" / "mini_rules",
                 "migrate": root / "fixtures" / "migrate" / "rules", "nasty": root / "fixtures" / "nasty_rules"}[rules_dir]
    folded = view_of(directory)
    fields = ["type", "edition", "text"]
    for key in folded.keys:
        system = folded.catalog(key).system
        for name in (system.figure, *(st.name for t in system.types for st in t.stats)):
            if name not in fields:
                fields.append(name)
    assert rules_of(directory).decisive_fields() == tuple(fields) == folded.decisive_fields()
    assert build_into(directory, tmp_path / "tables").decisive_fields() == tuple(fields)


def test_the_key_names_the_decisive_fields_or_declines(view):
    memo = DecisionMemo(view)
    card = {"name": "Study", "type": "spell", "edition": 6, "cost": 8, "text": "Draw 2 cards."}
    key = memo.key(card)
    assert key == memo.key({**card, "name": "Other", "flavor": "x", "level": None})
    assert key != memo.key({**card, "cost": 9})
    # decided on their own: no name a judgement would accept, a value equal to another of another type
    for odd in ({**card, "name": ""}, {**card, "name": "  "}, {**card, "name": 3}, {k: v for k, v in card.items() if k != "name"},
                {**card, "edition": True}, {**card, "cost": 8.0}, {**card, "text": ["Draw 2 cards."]}):
        assert memo.key(odd) is None, odd
    assert memo.key([card]) is None


def test_the_same_memo_decides_for_check_cards_and_migrate(view):
    from kotc_rulesc.migrate.plan import Migrator

    migrator, judge_card = Migrator(view, 17), CardJudge(17, view)
    assert type(migrator._memo) is type(judge_card.memo) is DecisionMemo
    card = {"name": "Study", "type": "spell", "edition": 13, "level": 2, "text": "Draw 2 cards."}
    assert migrator.key(card) == judge_card.memo.key(card)


# --------------------------------------------------------------------------- check-cards


def collection(tmp_path, copies: int = 3) -> Path:
    """JSONL: the example cards, several copies of each under names of their own, and lines that are no card."""
    lines = []
    for i in range(copies):
        for path in EXAMPLES:
            lines += [json.dumps({**item.card, "name": f"{item.card['name']} #{i}"}, ensure_ascii=False)
                      for item in read_collection(path)]
    lines[5:5] = ["not json", '{"name": "Dup", "name": "Dup"}', "[1]", json.dumps({"name": "", "type": "spell"}), ""]
    path = tmp_path / "copies.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("edition", [6, 11, 17])
def test_each_design_is_judged_once_and_each_card_as_on_its_own(tmp_path, view, edition):
    path = collection(tmp_path)
    judge_card = CardJudge(edition, view)
    rulebook = view.catalog(edition).rulebook
    texts = CardTexts(str(path), Citations(view, edition), rulebook, ("a note said already",))
    items = list(read_collection(path))
    for item in items:
        mine, alone = judge_card(item), judge_input(item, edition, view)
        assert mine.to_json() == alone.to_json()
        assert texts(mine) == judgement_text(alone, Citations(view, edition), rulebook, str(path), ("a note said already",))
    assert judge_card.memo.misses < len(items) / 2


def test_the_reader_names_each_design_and_the_judge_takes_its_judgement_at_once(tmp_path, view):
    card = {"name": "Study", "type": "spell", "edition": 6, "cost": 8, "text": "Draw 2 cards."}
    lines = [json.dumps({**card, "name": name}) for name in ("A", "B", "C")]
    lines.append(json.dumps({**card, "name": "Caf\u00e9"}))  # an escape: no plain name, decoded on its own
    lines.append(json.dumps({**card, "name": "D", "cost": 9}))  # another design
    path = tmp_path / "designs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    items = list(read_collection(path))
    assert items[0].design == items[1].design == items[2].design is not None
    assert items[4].design is not None and items[4].design != items[0].design
    assert items[3].design is None
    judged = []
    judge_card = CardJudge(6, view)
    decide = judge_card._judge
    judge_card._judge = lambda c: judged.append(c["name"]) or decide(c)
    for item in items:
        assert judge_card(item).to_json() == judge_input(item, 6, view).to_json()
    assert judged == ["A", "D"]  # B and C: A's design; "Café" too, known by its decisive fields
    assert (judge_card.memo.hits, judge_card.memo.misses) == (3, 2)


@pytest.mark.parametrize("args", [["-e", "17"], ["-e", "6", "--deck"], ["-e", "17", "--deck"]])
def test_the_json_report_is_one_document_written_card_by_card(tmp_path, view, args):
    path = collection(tmp_path)
    result = CliRunner().invoke(main, ["check-cards", str(path), "--format", "json", *args])
    edition = args[1] if args[1] == "11-pre" else int(args[1])
    judged = [judge_input(item, edition, view) for item in read_collection(path)]
    rulebook = view.catalog(edition).rulebook
    whole = {"edition": edition, "cards": [card_json(j, rulebook) for j in judged], "summary": summary(judged)}
    if "--deck" in args:
        whole["deck"] = judge_deck(judged, view.catalog(edition)).to_json()
    assert result.stdout == json.dumps(whole, ensure_ascii=False, indent=2) + "\n"  # (as it was printed whole)
    assert result.exit_code == 1


def test_a_collection_without_cards_is_an_empty_document(tmp_path):
    path = tmp_path / "none.json"
    path.write_text('{"cards": []}')
    result = CliRunner().invoke(main, ["check-cards", str(path), "-e", "6", "--format", "json"])
    summary = {"cards": 0, "legal": 0, "banned": 0, "error": 0, "unknown": 0, "with_warnings": 0}
    assert result.stdout == json.dumps({"edition": 6, "cards": [], "summary": summary}, indent=2) + "\n"
    assert result.exit_code == 0


def test_an_unreadable_jsonl_prints_what_was_judged_as_text_and_no_json(tmp_path):
    card = json.dumps({"name": "Study", "type": "spell", "edition": 6, "cost": 8, "text": "Draw 2 cards."})
    path = tmp_path / "late.jsonl"
    path.write_bytes((card + "\n").encode() * 5000 + b'{"name": "caf\xe9"}\n')  # past the first block (1 MiB)
    text = CliRunner().invoke(main, ["check-cards", str(path), "-e", "6"])
    assert text.exit_code == 2 and "not UTF-8" in text.stderr
    assert text.stdout.startswith(f"{path}: judged in the 6th edition\n[1] Study: legal") and "Study" in text.stdout.splitlines()[-1]
    as_json = CliRunner().invoke(main, ["check-cards", str(path), "-e", "6", "--format", "json"])
    assert as_json.exit_code == 2 and as_json.stdout == ""


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_cards_memory_does_not_grow_with_the_collection(tmp_path, monkeypatch, fmt):
    """The peak of Python allocations while judging 2,000 and 8,000 cards (the report written to a
    file; the file read in blocks of 32 KiB, the JSON held in memory up to 64 KiB): counts, a bounded
    cache and a report that streams keep it the same."""
    import functools
    import tempfile

    from kotc_rulesc.cards import collection as reader

    spooled = tempfile.SpooledTemporaryFile
    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", lambda **kw: spooled(**{**kw, "max_size": 1 << 16}))
    monkeypatch.setattr(reader, "read_blocks", functools.partial(reader.read_blocks, size=32 << 10))
    peaks = {}
    for n in (2_000, 8_000):
        path = tmp_path / f"c{n}.jsonl"
        path.write_text("".join(json.dumps({"name": f"Card {i}", "type": "spell", "edition": 6, "cost": 4 * (i % 7 + 1),
                                            "text": f"Draw {i % 7 + 1} card{'s' if i % 7 else ''}."}) + "\n" for i in range(n)))
        args = ["check-cards", str(path), "-e", "11-pre", "--format", fmt, "--deck"]
        with open(tmp_path / "out", "w") as out:
            monkeypatch.setattr(sys, "stdout", out)
            try:
                main(args, standalone_mode=False)  # warm: the rules' own caches
            except SystemExit:
                pass
            tracemalloc.start()
            try:
                main(args, standalone_mode=False)
            except SystemExit:
                pass
            finally:
                peaks[n] = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
    assert peaks[8_000] < 1.3 * peaks[2_000] + (256 << 10), peaks


def test_a_field_in_another_case_is_part_of_the_key(tmp_path):
    # the engine says 'Level' is no field (and names 'TEXT' where 'text' is missing): a card that prints
    # one is not the design of a card that does not, though their decisive fields are the same
    path = tmp_path / "c.yaml"
    path.write_text("cards:\n"
                    "  - {name: A, type: minion, edition: 17, sp: 1, hp: 1, TEXT: 'X: Draw 1 card.'}\n"
                    "  - {name: B, type: minion, edition: 17, sp: 1, hp: 1}\n"
                    "  - {name: C, type: spell, edition: 17, text: Draw 1 card.}\n"
                    "  - {name: D, type: spell, edition: 17, text: Draw 1 card., Level: 7}\n"
                    "  - {name: E, type: spell, edition: 17, text: Draw 1 card., level: null, Level: 7}\n"
                    "  - {name: F, type: spell, edition: 17, text: Draw 1 card., level: null}\n")
    result = CliRunner().invoke(main, ["check-cards", str(path), "--format", "json"])
    cards = json.loads(result.stdout)["cards"]
    assert [c["status"] for c in cards] == ["error", "error", "legal", "error", "error", "legal"]
    assert "(found 'TEXT'" in cards[0]["reasons"][0]["message"] and "(found" not in cards[1]["reasons"][0]["message"]
    assert [r["field"] for r in cards[3]["reasons"]] == [r["field"] for r in cards[4]["reasons"]] == ["Level"]
    memo = DecisionMemo(TablesView())
    card = {"name": "C", "type": "spell", "edition": 17, "text": "Draw 1 card."}
    assert memo.key({**card, "Level": 7}) != memo.key(card) == memo.key({**card, "flavor": "x", "level": None})
