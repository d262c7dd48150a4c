"""kotc_rulesc.api: the CLI's answers as values, with the CLI's own JSON.

For the example collections in several editions, the API's JSON is the CLI's to the character:
``check-cards --format json`` (and ``--deck``), ``cost --format json``, each card of ``migrate
--report-format json``.  Importing the API loads no more than judging one card does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import api
from kotc_rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
EDITIONS = ("6", "11-pre", "11", "12", "13", "16", "17")


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.mark.parametrize("deck", [False, True], ids=["cards", "deck"])
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_check_is_check_cards_json_to_the_character(path, edition, deck):
    shown = _cli("check-cards", str(path), "-e", edition, "--format", "json", *(["--deck"] if deck else []))
    checked = api.check(str(path), edition, deck=deck)
    assert checked.json_text() + "\n" == shown
    assert checked.to_json() == json.loads(shown)
    assert checked.legal == (json.loads(shown)["summary"]["legal"] == len(checked.verdicts)
                             and (not deck or json.loads(shown)["deck"]["legal"]))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_cost_json_is_the_cost_commands(path, edition):
    shown = json.loads(_cli("cost", str(path), "-e", edition, "--format", "json"))
    assert [v.cost_json() for v in api.check(str(path), edition).verdicts] == shown


def _cards(path: Path) -> list[dict]:
    from kotc_rulesc.cards.collection import read_collection

    return [item.card for item in read_collection(str(path))]


@pytest.mark.parametrize("edition", ("12", "17"))
def test_a_card_given_as_a_value_is_judged_as_cost_judges_it_from_flags(edition):
    """``cost --type … --text …`` judges a card made of the flags; the API judges the same card alike."""
    args = ["cost", "-e", edition, "--name", "Field Marshal", "--type", "minion", "--sp", "3", "--hp", "6",
            "--text", "RALLY: Target up to 2 in-play cards; draw 1 card.", "--edition-indicator", "12",
            "--printed-level", "7", "--format", "json"]
    card = {"name": "Field Marshal", "type": "minion", "text": "RALLY: Target up to 2 in-play cards; draw 1 card.",
            "sp": 3, "hp": 6, "edition": 12, "level": 7}
    assert api.judge(card, edition).cost_json() == json.loads(_cli(*args))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_migration_json_is_each_card_of_migrates_report(path, tmp_path):
    shown = json.loads(_cli("migrate", str(path), "--to", "17", "--from", "6", "--dry-run", "--report-format", "json"))
    cards = _cards(path)
    assert shown["cards"], "the report lists the cards that change or stay banned"
    for entry in shown["cards"]:
        migration = api.migrate(cards[entry["index"]], to=17, assume=6)
        assert {**migration.to_json(), "index": entry["index"], "line": entry["line"]} == entry


def test_migration_gives_the_card_as_it_reads_after_it():
    ghost = {"name": "Granary Ghost", "type": "spell", "edition": 13, "level": 2,
             "text": "When this card as a resource is destroyed (ghost-play, must pay resource cost): Draw 1 card."}
    m = api.migrate(ghost)
    assert (m.status, m.outcome, m.changed) == ("rewritten", "refurbished", True)
    assert m.text == m.card["text"] == "When this card in your granary is destroyed (hex-play): Draw 1 card."
    assert ghost["text"].startswith("When this card as a resource")  # (the card given is left alone)
    old = {"name": "Smasher", "type": "minion", "edition": 12, "level": 10, "sp": 3, "hp": 10, "text": "Draw 2 cards."}
    pruned = api.migrate(old)
    assert (pruned.status, pruned.outcome, pruned.text) == ("banned", "pruned", None)
    assert [r.code for r in pruned.reasons] == ["clean-slate"] and pruned.card["migration"]["status"] == "banned"
    with pytest.raises(api.EditionError, match="bears no Edition Indicator"):
        api.migrate({"name": "Old", "type": "spell", "cost": 4, "text": "Draw 2 cards."}, to=11)


def test_a_verdict_names_its_figure_breakdown_reasons_and_outcome():
    peek = {"name": "Peek", "type": "spell", "edition": 15, "level": 3,
            "text": "See enemy's hand and target up to 1 card therein; sheathe the targets."}
    v = api.judge(peek, 17)
    assert (v.status, v.outcome, v.figure, v.value, v.printed) == ("banned", "pruned", "level", 6, 3)
    assert {r.code for r in v.reasons} == {"cost-revised"} and all(r.sources for r in v.reasons)
    # (the 16th–17th guides: "up to" with 1 and "the targets" for one target should be reprinted)
    assert [w.code for w in v.warnings] == ["variation", "variation"] and all(w.instead for w in v.warnings)
    assert not v.legal
    parts = [p for sub in v.breakdown["abilities"][0]["sub_abilities"] for p in sub["components"]]
    assert [(p["formula"], p["value"]) for p in parts] == [("2x", "2"), ("3t", "6")]
    titles = api.documents()
    assert all(s in titles for r in v.reasons for s in r.sources) and titles["rulebook-17"].startswith("Rulebook")


def test_an_unknown_text_names_its_sentence_and_the_nearest_components():
    v = api.judge({"name": "Sage", "type": "spell", "edition": 17, "text": "Drw 2 cards."})
    assert v.status == "error"
    (unknown,) = v.unknown
    assert (unknown.field, unknown.paragraph, unknown.sentence) == ("text[1]", 1, "Drw 2 cards.")
    assert unknown.nearest[0].text == "draw [x] cards."  # (the 17th guide prints it lowercase)
    assert f'"{unknown.nearest[0].text}"' in v.reasons[0].message  # what the reason's "did you mean" names


def test_a_wording_is_the_engines_rendering_with_where_each_value_is():
    w = api.wording("effect-draw-cards-13", {"x": 3}, 17, opening=False)
    assert w.text == "draw 3 cards." and w.spans == {"x": ((5, 6),)}
    one = api.wording("effect-draw-cards-13", edition=17)
    assert one.text == "Draw 1 card." and one.text[slice(*one.spans["x"][0])] == "1"
    with pytest.raises(KeyError, match="no component"):
        api.wording("effect-fly-to-the-moon", edition=17)


@pytest.mark.parametrize(("edition", "component", "want"), [
    (17, "target-play-cards-13", "Target 1 on-field minion;"),  # 12th–17th: "up to" should be removed for 1
    (12, "target-play-cards", "Target 1 in-play card;"),
    (11, "target-in-play-cards", "Target up to 1 in-play card;"),  # the 11th: it can be removed (may): kept
    (6, "target-cards-in-play", "Target up to 1 card in play."),  # before the 11th: no such rule
])
def test_a_wording_is_in_the_form_the_editions_rules_prescribe_as_migrate_writes_it(edition, component, want):
    w = api.wording(component, {"x": 1}, edition)
    assert w.text == want and w.text[slice(*w.spans["x"][0])] == "1"
    assert api.wording(component, {"x": 2}, edition).text.startswith("Target up to 2 ")  # (more than one: as listed)


def test_the_prescribed_wording_is_the_text_check_cards_says_to_print_instead():
    v = api.judge({"name": "Sentry", "type": "spell", "edition": 17, "text": "Target up to 1 on-field minion; draw 1 card."}, 17)
    (warning,) = v.warnings
    assert warning.code == "variation"
    assert warning.instead == api.wording("target-play-cards-13", {"x": 1}, 17).text + " draw 1 card."


def test_editions_systems_and_components_come_from_the_rules():
    keys = [e.key for e in api.editions()]
    assert keys[:10] == list(range(1, 11)) and "11-pre" in keys and keys[-1] == 17
    assert [e.key for e in api.editions() if e.current] == [17] == [api.current()]
    # docs/api.md: a Rules "has the same methods"; Rules().current was a property, and current() a TypeError
    assert api.rules().current() == 17 == api.Rules().current()
    assert api.rules().edition("11-pre").name == "11th pre-release"
    twelfth = api.system(12)
    assert [t.id for t in twelfth.types] == ["minion", "spell"]
    assert [s.name for s in twelfth.types[0].stats] == ["sp", "hp"] and twelfth.figure == "level"
    assert [t.id for t in api.system(6).types] == ["creature", "spell"] and api.system(6).figure == "cost"
    assert api.system(17).ultra_points == 10 and api.system(17).edition_indicator == "required"
    targets = api.components(17, kind="target")
    assert targets and all(c.kind == "target" and c.noun == "target selection" for c in targets)
    assert any(c.text == "Target up to [x] on-field minions;" and c.formula == "x" for c in targets)
    assert any(c.ultra for c in api.components(17))
    with pytest.raises(api.EditionError):
        api.system(99)
    with pytest.raises(api.EditionError):
        api.system("eleventh")


def test_the_results_json_is_json():
    v = api.judge({"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."})
    for value in (v.to_json(), v.cost_json(), api.system(17).to_json(), [c.to_json() for c in api.components(17)],
                  [e.to_json() for e in api.editions()], api.check([{"name": "A"}], 17, deck=True).to_json()):
        assert json.loads(json.dumps(value)) == value


def test_a_collection_is_judged_card_by_card_in_constant_memory_as_check_cards_streams_it(tmp_path):
    """``each`` sees every verdict as it is made and ``keep=False`` keeps none: what check-cards needs to
    judge a JSONL file of any size; the summary and the deck are the same."""
    path = tmp_path / "cards.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in _cards(EXAMPLES[0])))
    seen = []
    streamed = api.check(str(path), 17, deck=True, each=seen.append, keep=False)
    kept = api.check(str(path), 17, deck=True)
    assert streamed.verdicts == [] and [v.to_json() for v in seen] == [v.to_json() for v in kept.verdicts]
    assert (streamed.summary, streamed.deck) == (kept.summary, kept.deck)
    assert kept.json_text() + "\n" == _cli("check-cards", str(path), "-e", "17", "--deck", "--format", "json")
    assert api.check([], 17).summary == {"cards": 0, "legal": 0, "banned": 0, "error": 0, "unknown": 0, "with_warnings": 0}


def test_cards_given_as_values_that_are_no_mapping_are_unreadable_cards():
    checked = api.check([{"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."}, None, [1]], 17)
    assert [v.status for v in checked.verdicts] == ["legal", "error", "error"]
    assert "not a mapping" in checked.verdicts[1].reasons[0].message


def _modules(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code + _REPORT], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


_REPORT = """
import json, sys
print(json.dumps({"modules": sorted(sys.modules), "dataclasses": sorted(
    n for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("kotc_rulesc")
    for n, c in vars(m).items() if isinstance(c, type) and c.__module__ == m.__name__ and hasattr(c, "__dataclass_fields__"))}))
"""


def test_importing_the_api_and_judging_a_card_loads_no_more_than_the_one_card_cli(tmp_path):
    """(tests/test_startup_imports.py holds the one-card CLI path to what it may load.)"""
    card = {"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."}
    (tmp_path / "card.json").write_text(json.dumps({"cards": [card]}))
    cli = _modules(f"from kotc_rulesc.cli import main\ntry: main(['check-cards', {str(tmp_path / 'card.json')!r}])\n"
                   "except SystemExit: pass\n")
    imported = _modules("from kotc_rulesc import api\n")
    judged = _modules(f"from kotc_rulesc import api\napi.judge({card!r})\n")
    ours = {m for m in judged["modules"] if m == "kotc_rulesc.api" or m.startswith("kotc_rulesc.api.")}
    assert set(imported["modules"]) <= set(judged["modules"]) <= set(cli["modules"]) | ours
    assert not {m for m in judged["modules"] if m.startswith(("ruamel", "jsonschema", "jinja2", "http", "tempfile"))}
    assert imported["dataclasses"] == judged["dataclasses"] == []


def test_rules_that_do_not_load_say_what_is_wrong_where(tmp_path):
    # a program's traceback said "ProblemsFound: 1 problem(s)", naming no file, line or field
    import shutil

    from kotc_rulesc.errors import ProblemsFound

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini_rules", rules)
    (rules / "edition-04.yaml").write_text("follows: 3\n")
    with pytest.raises(ProblemsFound) as raised:
        api.Rules(rules)
    assert str(raised.value) == f"1 problem(s):\n{rules / 'edition-04.yaml'}:1:1: (top level): 'edition' is required"
    assert [p.line for p in raised.value.problems] == [1]


def test_a_kind_or_a_value_the_edition_or_text_lacks_is_an_error_naming_what_is_allowed():
    """A program's mistake is not an empty answer: `kind="effects"` and a `y` for a text with only [x]."""
    with pytest.raises(ValueError, match=r"no kind 'effects': its kinds are condition, cost, target, effect"):
        api.components(17, kind="effects")
    with pytest.raises(ValueError, match=r"no slot for y: its text's slots are \[x\]"):
        api.wording("effect-draw-cards-13", {"y": 2})
    assert api.wording("effect-draw-cards-13", {"x": 2}).text == "Draw 2 cards."


@pytest.mark.parametrize("value", [2.5, 0, -1, True, "2"])
def test_a_value_no_positive_whole_number_is_an_error_not_a_truncated_wording(value):
    """`api.wording(..., {"x": 2.5})` printed "Draw 2 cards." (int() truncated it): a variable is a positive
    whole number, as a card's text is read."""
    with pytest.raises(ValueError, match=r"\[x\] is .*; variables are positive whole numbers \(1 or more\)"):
        api.wording("effect-draw-cards-13", {"x": value})


@pytest.mark.parametrize("n", [0, -1])
def test_nearest_asked_for_no_components_says_what_n_is(n):
    """`api.nearest("Draw 2 cards.", n=0)` failed with an IndexError from deep in the engine."""
    with pytest.raises(ValueError, match=r"n is how many components to give: a whole number, 1 or more"):
        api.nearest("Draw 2 cards.", n=n)
    assert len(api.nearest("Draw 2 cards.", n=1)) == 1


def test_a_card_banned_only_by_its_wrong_printed_level_is_invalid():
    # the 17th rulebook's lists name "all cases" in which a card is pruned, none a wrong printed level
    misprint = {"name": "Misprint", "type": "spell", "edition": 17, "level": 5, "text": "Draw 2 cards."}
    v = api.judge(misprint, 17)
    assert (v.status, v.outcome, [r.code for r in v.reasons]) == ("banned", "invalid", ["cost-mismatch"])
    m = api.migrate(misprint)
    assert (m.status, m.outcome, m.card["migration"]["outcome"]) == ("banned", "invalid", "invalid")
    assert api.judge(misprint, 12).outcome == "banned"


@pytest.mark.parametrize("entry", [None, 3, "Insight", [1]], ids=["null", "number", "string", "list"])
def test_an_entry_that_is_no_card_is_judged_and_migrated_as_the_commands_say_of_it(entry, tmp_path):
    """`api.judge(None)` added "invalid: bears no Edition Indicator" and a clean-slate pruning to the one
    reason check-cards gives such an entry, and `api.migrate(None)`'s entry was not migrate's."""
    path = tmp_path / "cards.yaml"
    path.write_text(f"- {json.dumps(entry)}\n")
    shown = json.loads(_cli("cost", str(path), "-e", "17", "--format", "json"))
    assert {**api.judge(entry).cost_json(), "reasons": shown[0]["reasons"]} == shown[0]
    assert [r.code for r in api.judge(entry).reasons] == ["malformed"] == [r.code for r in api.check([entry]).verdicts[0].reasons]
    report = json.loads(_cli("migrate", str(path), "--to", "17", "--dry-run", "--report-format", "json"))
    m = api.migrate(entry)
    assert {**m.to_json(), "line": report["cards"][0]["line"]} == report["cards"][0]
    assert (m.status, m.changed, m.card, [r.code for r in m.reasons]) == ("error", False, entry, ["malformed"])


def test_a_card_is_any_mapping_of_its_fields():
    """docs/api.md: "A card is a mapping of its fields"; a read-only mapping was "not a mapping"."""
    from types import MappingProxyType

    insight = {"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."}
    assert api.judge(MappingProxyType(insight)) == api.judge(insight)
    assert api.check([MappingProxyType(insight)]).summary["legal"] == 1
    summoner = {"name": "Pawn Summoner", "type": "spell", "edition": 15, "level": 6, "text": "Summon 2 level 3 pawns."}
    assert api.migrate(MappingProxyType(summoner)) == api.migrate(summoner)


@pytest.mark.parametrize("cards", [{"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."}, None,
                                   b"- name: Insight\n", 3], ids=["one card", "null", "bytes", "number"])
def test_cards_neither_a_path_nor_cards_are_a_type_error_naming_what_cards_is(cards):
    """`api.check(card)` judged the card's keys as five unreadable cards, `api.check(b"...")` each byte,
    and `api.check(None)` failed inside with "'NoneType' object is not iterable"."""
    with pytest.raises(TypeError, match=r"^cards is a collection file's path or the cards themselves"):
        api.check(cards)


def test_a_collection_document_given_for_its_cards_is_told_to_give_its_cards():
    """`api.check(json.load(f))` of a collection file ({"cards": [...]}) was told "give [card] for one card"."""
    with pytest.raises(TypeError, match=r'not a mapping: give its \["cards"\]$'):
        api.check({"cards": [{"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."}]})


def test_a_collections_text_given_for_its_path_is_told_it_is_a_path():
    """`api.check("- name: A\\n...")` (a YAML text read by the program) was "cannot read the file: No such
    file or directory", naming the whole text as the file."""
    with pytest.raises(ValueError, match=r"^cards is a collection file's path, not its text"):
        api.check("- name: Insight\n  type: spell\n  edition: 17\n  text: Draw 1 card.\n")


@pytest.mark.parametrize(("call", "says"), [
    (lambda: api.nearest(None), r"^sentence is a card's sentence, a string .*, not null$"),
    (lambda: api.nearest(b"Drw 2 cards."), r"^sentence is a card's sentence, a string .*, not bytes$"),
    (lambda: api.wording("effect-draw-cards-13", "x"), r"^values maps slots of the text to whole numbers .*, not a string$"),
    (lambda: api.wording("effect-draw-cards-13", [("x", 2)]), r"^values maps slots .*, not a list$"),
], ids=["nearest None", "nearest bytes", "wording str", "wording pairs"])
def test_an_argument_of_the_wrong_type_is_a_type_error_naming_it(call, says):
    """`api.nearest(None)` failed inside with "AttributeError: 'NoneType' object has no attribute
    'translate'", `api.wording(id, "x")` with "'str' object has no attribute 'items'"."""
    with pytest.raises(TypeError, match=says):
        call()


def test_an_edition_is_also_the_apis_own_edition_value_and_a_non_edition_is_said_once():
    """`api.judge(card, api.editions()[-1])` raised "Edition(key=17, ...) is not an edition (Edition(key=17,
    ...) is not an edition: write a number (10) ...)": the API's own value refused, the message said twice."""
    insight = {"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."}
    seventeenth, pre = api.editions()[-1], next(e for e in api.editions() if e.pre_release)
    assert api.judge(insight, seventeenth) == api.judge(insight, 17)
    assert api.system(pre) == api.system("11-pre") and api.components(seventeenth) == api.components(17)
    with pytest.raises(api.EditionError) as raised:
        api.judge(insight, 17.0)
    assert str(raised.value) == "17.0 is not an edition: write a number (10) or a pre-release (11-pre)"


@pytest.mark.parametrize(("to", "assume", "says"), [
    ("12", "17", "is later than"), ("12", "11-pre", "is not on the way to"), ("11-pre", "12", "is later than")])
def test_an_assumed_edition_migrate_refuses_is_an_edition_error(to, assume, says, tmp_path):
    """`api.migrate(card, to=12, assume=17)` marked the card with a "no-path" error ("the card's edition, the
    17th, is not on the way…": the card bears none), where `migrate --from 17 --to 12` refuses the run."""
    path = tmp_path / "old.yaml"
    path.write_text("- name: Old\n  type: spell\n  text: Draw 1 card.\n")
    result = CliRunner().invoke(main, ["migrate", str(path), "--to", to, "--from", assume, "--dry-run"])
    assert result.exit_code == 2 and says in result.output
    with pytest.raises(api.EditionError, match=r"^assume=") as raised:
        api.migrate({"name": "Old", "type": "spell", "text": "Draw 1 card."}, to=to, assume=assume)
    assert says in str(raised.value)


def test_a_rules_folder_that_is_not_there_says_to_give_the_right_one_not_a_cli_flag(tmp_path):
    """`api.Rules("my-rules")` said "no such rules directory (hint: pass --rules DIR)": the program had given
    the folder, and has no --rules to pass; so had `--rules my-rules`."""
    from kotc_rulesc.errors import ProblemsFound

    for folder, says in ((tmp_path / "missing", "no such rules directory"),
                         (tmp_path, "no rules files (edition-NN.yaml) in this directory")):
        with pytest.raises(ProblemsFound) as raised:
            api.Rules(folder)
        assert str(raised.value) == f"1 problem(s):\n{folder}: {says} (hint: give the folder that holds the edition-NN.yaml files)"
    result = CliRunner().invoke(main, ["show", "-e", "2", "--rules", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "--rules" not in result.output and "give the folder" in result.output


def test_a_collection_file_is_any_path_like():
    """`api.check(PurePosixPath("examples/mixed-collection.yaml"))` raised a TypeError saying cards is "a
    collection file's path": only str and Path were read as a file."""
    from pathlib import PurePath

    path = EXAMPLES[0]
    assert api.check(PurePath(path), 17).json_text() == api.check(str(path), 17).json_text()


@pytest.mark.parametrize(("edition", "sentence"), [
    (17, "When this card is summoned (ghot-play):"),
    (13, "When this card in your hand is destroyed (ghost-play, must pay resource cot):")])
def test_an_unknown_texts_nearest_are_the_components_its_reason_names(edition, sentence):
    """docs/api.md: the nearest are "the ones the reason's "did you mean" names"; they were worked out again
    from the whole sentence, where the reason had matched it without the aside in parentheses: a third
    component the reason did not name, or other components altogether."""
    v = api.judge({"name": "X", "type": "spell", "edition": edition, "text": sentence}, edition)
    (reason,), (unknown,) = [r for r in v.reasons if r.code == "unknown-text"], v.unknown
    assert unknown.nearest, "the reason suggests components"
    assert "; did you mean " + " or ".join(f'"{c.text}"' for c in unknown.nearest) + "?" in reason.message


def test_dir_and_help_list_every_public_name():
    """`dir(api)` (a notebook's completion, `help(api)`) lacked the ten values imported when first named:
    `api.Component`, `api.Wording`, `api.Deck`… were nowhere to be found but in docs/api.md."""
    import pydoc

    assert set(api.__all__) <= set(dir(api))
    shown = pydoc.render_doc(api, renderer=pydoc.plaintext)
    assert all(f"class {name}" in shown for name in ("Component", "Wording", "Migration", "CardSystem"))
