"""Migrating to the 13th–17th editions: refurbished texts substituted as the rulebooks list them,
pruned cards kept as they were and marked, ``--reissue`` for the other outcome.

The 13th–17th rulebooks, "Refurbished and Pruned Cards": "As the game develops, any given card made
for old editions can become outdated. In that case, one of two things happens: either the card is
refurbished – meaning the card's outdated text is substituted for some other, newer card text; or
the card is pruned – meaning it is no longer a valid card for use in a game. This section
exhaustively lists all cases in which cards are refurbished or pruned."
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from kotc_rulesc.cards import judge
from kotc_rulesc.cards.collection import read_collection
from kotc_rulesc.cli import main
from kotc_rulesc.loader import load_rules
from kotc_rulesc.migrate.plan import MARK, Migrator
from kotc_rulesc.migrate.run import Options, run
from kotc_rulesc.tables import TablesView
from kotc_rulesc.view import FoldedRules

from support.game_documents import rulebook_lists
from support.loaded import view_of

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "examples" / "mixed-collection.yaml"
NEWEST = 17
FIRST = 13  # the latest clean slate: "13th Edition is considered to be a clean slate edition"


@pytest.fixture(scope="module", params=["rules", "tables"])
def view(request):
    return view_of() if request.param == "rules" else TablesView()


def _rewrites(listed: bool | None = None):
    """(pass, rewrite) of every text revision from the 14th to the 17th (the compiled passes)."""
    tables = TablesView()
    return [(p, rw) for p in tables.path(FIRST, NEWEST) for rw in p.rewrites if listed is None or rw.listed == listed]


def _yaml(text: str):
    return YAML(typ="safe").load(text)["cards"]


def _migrate(args, tmp_path, name="out.yaml"):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["migrate", *map(str, args), "-o", str(out)], catch_exceptions=False)
    return result, out


# --------------------------------------------------------------------------- the lists are the data


@pytest.mark.parametrize("edition", [14, 15, 16, 17])
def test_every_row_of_the_refurbished_tables_is_a_listed_text_revision(edition):
    """"Any card containing any exact original text indicated here is refurbished as shown." Each row
    of the edition's Refurbished Card Texts table rewords the texts that contain its original text, in
    the edition whose table first lists it; a rewording no table lists is ``listed: false``."""
    first_listed = {}
    for e in range(14, NEWEST + 1):
        for old, new, *_ in rulebook_lists(e).revised:
            first_listed.setdefault((old, new), e)
    rows = [(old, new) for old, new, *_ in rulebook_lists(edition).revised]
    assert rows, "the 14th-17th rulebooks each print the table"
    matched = set()
    for p, rw in _rewrites():
        old, new = str(rw.old), str(rw.new)
        own = [row for row in rows if row[0] in old and first_listed[row] == rw.edition]
        if rw.edition != edition:
            continue
        expected = old
        for row_old, row_new in own:
            expected = expected.replace(row_old, row_new)
        if rw.listed:
            assert own and expected == new, (rw.component, old, new, own)
            matched.update(own)
        else:  # "This section exhaustively lists all cases": a rewording no row makes is not a refurbishment
            assert not own, (rw.component, old, new)
    # every row this edition adds rewords at least one text
    assert {row for row in rows if first_listed[row] == edition} <= matched


@pytest.mark.parametrize("edition, rule", [(9, "reissue"), (10, "reissue"), ("11-pre", "reissue"), (16, "prune"), (17, "prune")])
def test_the_rulebooks_say_what_becomes_of_a_card_older_than_a_cost_revision(edition, rule):
    # 9th-11th pre-release, Revised Costs: "Any card bearing any of these texts MUST bear an Edition
    # Indicator ..., which MUST indicate an edition number no less than the cost revision edition"
    # 16th-17th, Revised Levels: "Any card containing any exact text indicated here, and whose design
    # edition is older than the revision edition for the respective text(s), is pruned."
    assert view_of().catalog(edition).rulebook.cost_revised == rule
    assert TablesView().catalog(edition).rulebook.cost_revised == rule


# --------------------------------------------------------------------------- each refurbishment, both ways


def _spell_around(kind: str, sentence: str) -> str:
    """A spell whose one ability holds ``sentence`` (of ``kind``) where the 12th's system puts it."""
    cap = sentence[:1].upper() + sentence[1:]
    return {
        "condition": f"{sentence} Draw 1 card.",
        "cost": f"{cap} Draw 1 card.",  # (an effect that opens its sub-ability: capitalized)
        "target": f"{cap} destroy the targets.",
        "effect": cap,
    }[kind]


def _values(rw, x):
    return {v: (x if v == "x" else 3) for v in rw.old.variables}


@pytest.mark.parametrize("x", [1, 2])
@pytest.mark.parametrize("step, rw", _rewrites(listed=True), ids=lambda v: getattr(v, "component", None) or f"{v.source}-{v.target}")
def test_each_refurbishment_changes_its_original_text_and_leaves_its_new_text_alone(view, step, rw, x):
    values = _values(rw, x)
    old = rw.old.render(values)
    text = _spell_around(rw.kind, old)
    card = {"name": "Old", "type": "spell", "edition": step.source, "text": text}
    designed = judge(card, step.source, view)
    assert designed.status == "legal", [r.message for r in designed.reasons]
    card["level"] = designed.cost

    # changes: migrated to the revision's edition, the card reads the new text, and keeps its design
    # edition and level ("the card's outdated text is substituted for some other, newer card text")
    d = Migrator(view, step.target).decide(card)
    new = rw.new.render({**values, **rw.binds})
    expected = _spell_around(rw.kind, new)  # (its first letter as where it stands says)
    # and in the form the guide prescribes ("Target 1 on-field minion; destroy the target." for 1)
    expected = judge({**card, "text": expected}, step.target, view).prescribed or expected
    assert d.status == "rewritten" and d.text == expected, d
    assert set(d.updates()) == {"text"}
    step_taken = [r for r in d.rewrites if r.component == rw.component and r.edition == step.target]
    assert step_taken and step_taken[0].wording == (str(rw.old), str(rw.new)) and step_taken[0].listed
    assert judge({**card, "text": d.text}, step.target, view).status == "legal"

    # leaves alone: a card printed in the new text, of the revision's edition, is not touched by it
    # (nor is the old text by a migration that stops before the revision's edition)
    card_new = {**card, "edition": step.target, "text": d.text}
    later = Migrator(view, NEWEST).decide(card_new)
    assert not [r for r in later.rewrites if r.component == rw.component and r.edition == step.target]
    assert rw.apply(new) is None
    assert not [r for r in Migrator(view, step.source).decide(card).rewrites if r.component == rw.component]


@pytest.mark.parametrize("step, rw", _rewrites(listed=False), ids=lambda v: getattr(v, "component", None) or f"{v.source}-{v.target}")
def test_a_rewording_no_rulebook_list_names_is_kept_as_printed(view, step, rw):
    """"This section exhaustively lists all cases in which cards are refurbished or pruned": a text
    the guide rewords without a row stays as printed; the card reads as the new wording (a note)."""
    old = rw.old.render(_values(rw, 2))
    text = _spell_around(rw.kind, old)
    if rw.kind == "effect" and "t" in str(view.catalog(step.source).by_id()[rw.component].formula):
        text = f"Target up to 2 on-field minions; {old}" if step.source >= 16 else f"Target up to 2 in-play cards; {old}"
    card = {"name": "Kept", "type": "spell", "edition": step.source, "text": text}
    card["level"] = judge(card, step.source, view).cost
    d = Migrator(view, step.target).decide(card)
    assert d.legal and old in (d.text or text)
    assert not [r for r in d.rewrites if r.component == rw.component]
    if old.casefold() != rw.new.render(_values(rw, 2)).casefold():  # (not only its first letter)
        assert any("is kept as printed" in n and "no rulebook list of refurbished texts names it" in n for n in d.notes)


def test_refurbishments_of_later_editions_apply_in_edition_order(view):
    # "ghost-play, must pay resource cost" → "hex-play" (14th table), then "this card as a resource" →
    # "this card in your granary" (16th table): one text, two substitutions in edition order
    card = {"name": "Ghost", "type": "spell", "edition": 13, "level": 2,
            "text": "When this card as a resource is destroyed (ghost-play, must pay resource cost): Draw 1 card."}
    steps = {14: "When this card as a resource is destroyed (hex-play): Draw 1 card.",
             15: "When this card as a resource is destroyed (hex-play): Draw 1 card.",
             16: "When this card in your granary is destroyed (hex-play): Draw 1 card.",
             17: "When this card in your granary is destroyed (hex-play): Draw 1 card."}
    for target, text in steps.items():
        d = Migrator(view, target).decide(card)
        assert d.status == "rewritten" and d.text == text
        assert [r.edition for r in d.rewrites] == [e for e in (14, 16) if e <= target]
    # a migration to the 13th (the card's own edition) changes nothing
    assert Migrator(view, 13).decide(card).status == "unchanged"


def test_a_lowercase_text_after_an_arrow_is_refurbished_lowercase(view):
    # "Target up to [x] of your resources;" printed lowercase after an activation cost, 1: singular
    card = {"name": "Tithe", "type": "spell", "edition": 13, "level": 1,
            "text": "Self-exhaust 2 minions→ target up to 1 of your resources; bounce the targets."}
    d = Migrator(view, 16).decide(card)
    # and written as the guide prescribes for one target: no "up to", "the target" (its first letter as printed:
    # no guide sentence says how a target selection after an arrow starts)
    assert d.text == "Self-exhaust 2 on-field minions→ target 1 card in your granary; bounce the target."


# --------------------------------------------------------------------------- pruned, or re-issued


PEEK = {"name": "Peek", "type": "spell", "edition": 15, "level": 3,
        "text": "See enemy's hand and target up to 1 card therein; sheathe the targets."}


def test_a_card_older_than_a_revised_level_is_pruned_with_every_reason(view):
    # Revised Levels: "See enemy's hand and target up to [x] cards therein" (16th Edition), "sheathe the
    # targets" (16th Edition): "whose design edition is older than the revision edition ... is pruned"
    for target in (16, 17):
        d = Migrator(view, target).decide(PEEK)
        assert d.status == "banned" and d.updates() == {}
        assert [(r.code, r.edition, "rulebook-16" in r.sources) for r in d.reasons] == [("cost-revised", 16, True)] * 2
        assert all("is pruned" in r.message and "design edition is the 15th" in r.message for r in d.reasons)
        assert (d.mark["status"], d.mark["outcome"]) == ("banned", "pruned")
        assert [r["code"] for r in d.mark["reasons"]] == ["cost-revised"] * 2
        assert "--reissue" in d.remedy and "level 3 → 6" in d.remedy and d.mark["remedy"] == d.remedy
    # designed for the 16th, it is legal, and written as the guide prescribes for one target
    d = Migrator(view, NEWEST).decide({**PEEK, "edition": 16, "level": 6})
    assert d.legal and d.text == "See enemy's hand and target 1 card therein; sheathe the target."
    assert Migrator(view, NEWEST).decide({**PEEK, "edition": 16, "level": 6, "text": d.text}).status == "unchanged"
    # a card printed so (no "up to" for 1, "it" for "the targets") contains the Revised Levels' texts too
    assert Migrator(view, NEWEST).decide({**PEEK, "text": "See enemy's hand and target 1 card therein; sheathe it."}).status == "banned"


def test_a_printed_level_wrong_before_the_revision_is_not_called_the_old_one(view):
    # Peek's level in the 15th is 3 (t = 2x+1 = 3, sheathe: t), in the 17th 6 (t = 2x = 2, sheathe: 3t)
    assert "the printed level 3 is from before the cost revision; in the 17th edition the card's level is 6" \
        in judge(PEEK, NEWEST, view).notes
    # printed 5, it was wrong in the 15th too: check-cards says so, as migrate does
    j = judge({**PEEK, "level": 5}, NEWEST, view)
    assert j.status == "banned" and j.cost == 6
    assert "the printed level 5 was already wrong in the 15th edition (its level was 3 there); " \
           "in the 17th edition the card's level is 6" in j.notes
    assert not any("from before the cost revision" in n for n in j.notes)


def test_reissue_recomputes_the_level_and_sets_the_edition_indicator(view):
    d = Migrator(view, NEWEST, reissue=True).decide(PEEK)
    assert d.status == "reissued" and d.cost == (3, 6) and d.edition == (15, 17)
    assert d.text == "See enemy's hand and target 1 card therein; sheathe the target."  # as the 17th guide prescribes
    assert judge({**PEEK, **d.updates()}, NEWEST, view).status == "legal"
    # a re-issued card prints the 17th's wordings, also those no rulebook list names
    watcher = {"name": "Watcher", "type": "minion", "edition": 15, "level": 2, "sp": 0, "hp": 2,
               "text": "PEEK: When this in-play card is ability-targeted: Target up to 1 in-play card; sheathe the targets."}
    assert judge(watcher, 15, view).status == "legal"
    kept = Migrator(view, NEWEST).decide(watcher)
    assert kept.status == "banned" and kept.text is None
    d = Migrator(view, NEWEST, reissue=True).decide(watcher)
    assert d.status == "reissued"
    assert d.text == "PEEK: When this on-field minion is targeted: Target 1 on-field minion; sheathe the target."
    assert judge({**watcher, **d.updates()}, NEWEST, view).status == "legal"


def test_reissue_only_when_every_other_text_is_valid(view):
    # the commented-out "Remove x counters from this card;" is no text of any guide: the card cannot be
    # read, so it is not re-issued either
    card = {**PEEK, "text": PEEK["text"] + " Remove 2 counters from this card; draw 1 card."}
    d = Migrator(view, NEWEST, reissue=True).decide(card)
    assert d.status == "error" and d.updates() == {}
    # a card that a clean slate prunes is never re-issued
    older = {"name": "Ravager", "type": "creature", "edition": 11, "level": 5, "offense": 3, "defense": 10,
             "text": "Summon cost: Self-exhaust 2 creatures.\nWhen you take at least 5 damage: Target up to 2 in-play cards; Destroy the targets."}
    d = Migrator(view, NEWEST, reissue=True).decide(older)
    assert d.status == "banned" and [r.code for r in d.reasons] == ["clean-slate"] and d.updates() == {}


def test_the_pruning_default_is_the_rulebooks_data(tmp_path):
    """Nothing in the engine names an edition: with the 16th and 17th rulebooks' rule changed to
    reissue, the same card is re-issued by default."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    for n in (16, 17):
        f = rules / f"edition-{n}.yaml"
        text = f.read_text()
        assert "  cost_revised: prune  #" in text
        f.write_text(text.replace("  cost_revised: prune  #", "  cost_revised: reissue  #"))
    view = FoldedRules(load_rules(rules))
    assert Migrator(view, NEWEST).decide(PEEK).status == "reissued"


def test_a_changed_level_rule_prunes_no_card_the_lists_do_not_name(view):
    # "This section exhaustively lists all cases in which cards are refurbished or pruned": the 14th's
    # level rule lets a spell be level 0 ("If less than 0, set to 0"; the 13th: "If less than 1, set to
    # 1"), which no list names — a 13th spell keeps its printed level 1
    card = {"name": "Tithe", "type": "spell", "edition": 13, "level": 1,
            "text": "Self-exhaust 2 minions→ target up to 1 of your resources; bounce the targets."}
    j = judge(card, NEWEST, view)
    assert j.status == "legal" and j.cost == 1 and j.breakdown["total"] == 0  # its level is its design edition's
    assert any("design edition's (the 13th)" in n for n in j.notes)
    # a level already wrong in its design edition is still wrong
    wrong = judge({**card, "level": 2}, NEWEST, view)
    assert wrong.status == "banned" and [r.code for r in wrong.reasons] == ["cost-mismatch"]
    # the 14th's own card is judged by its own rule
    assert judge({**card, "edition": 14}, NEWEST, view).status == "banned"


def test_a_revised_level_reason_on_a_card_without_an_edition_indicator_reads(view):
    # "Any card containing any exact text indicated here, and whose design edition is older than the
    # revision edition ..., is pruned": a card bearing no Edition Indicator has no design edition to name
    card = {"name": "Peek", "type": "spell", "level": 5,
            "text": "See enemy's hand and target up to 2 cards therein; sheathe the targets."}
    revised = [r.message for r in judge(card, NEWEST, view).reasons if r.code == "cost-revised"]
    assert len(revised) == 2 and all(m.endswith("is pruned, and this card bears no Edition Indicator") for m in revised), revised


def test_a_level_wrong_by_its_design_editions_rule_cites_that_editions_guide(view):
    # a 13th spell printing 0: the 17th guide allows a level-0 spell, the 13th's rule ("If less than 1,
    # set to 1") gives 1 — the level the reason states is the 13th guide's, and so is its citation
    card = {"name": "Tithe", "type": "spell", "edition": 13, "level": 0,
            "text": "Self-exhaust 2 minions→ target up to 1 of your resources; bounce the targets."}
    [reason] = judge(card, NEWEST, view).reasons
    assert reason.code == "cost-mismatch" and "is 1 by its design edition's (the 13th)" in reason.message
    assert reason.sources == ("guide-13",)
    # a card of the 17th cites the 17th guide
    assert judge({**card, "edition": 17, "level": 2}, NEWEST, view).reasons[0].sources == ("guide-17",)


def test_a_reissued_card_is_written_as_a_card_of_the_17th_must_be(view, tmp_path):
    # the 13th guide joins activation costs with ", also "; from the 14th two are joined with "and"
    # (17th guide: "the arrow in the first activation cost is replaced by the word “and”"): re-issued
    # with the Edition Indicator 17, the card says "and" — before, it kept ", also " and was malformed
    card = {"name": "Also Sheath", "type": "spell", "edition": 13, "level": 1,
            "text": "Self-exhaust 1 resource, also self-destroy 1 in-play card→ Target 1 in-play card; sheathe it."}
    d = Migrator(view, NEWEST, reissue=True).decide(card)
    assert d.status == "reissued" and d.cost == (1, 1) and d.edition == (13, 17)
    assert d.text == "Self-exhaust 1 resource and self-destroy 1 on-field minion→ Target 1 on-field minion; sheathe it."
    assert judge({**card, "edition": 17, "text": d.text}, NEWEST, view).status == "legal"
    assert any("joined with ', also '" in m for rw in d.rewrites for m in rw.prescribed)
    # without --reissue, the advice says what --reissue gives
    kept = Migrator(view, NEWEST).decide(card)
    assert kept.status == "banned" and kept.remedy.startswith("migrate it with --reissue")
    # migrating the re-issued card again changes nothing
    assert Migrator(view, NEWEST, reissue=True).decide({**card, "edition": 17, "text": d.text}).status == "unchanged"
    # what the should rules change in the same paragraph is said too, and counted as such (--strict)
    one = {**card, "text": card["text"].replace("Target 1 in-play card; sheathe it.", "Target up to 1 in-play card; sheathe the targets.")}
    d = Migrator(view, NEWEST, reissue=True).decide(one)
    assert d.text.endswith("→ Target 1 on-field minion; sheathe the target.")
    said = [m for rw in d.rewrites for m in rw.prescribed]
    assert any('"up to" should be removed' in m for m in said) and any('"the targets" should be' in m for m in said)
    assert d.warnings


def test_a_card_with_no_printed_level_is_given_its_design_editions(view):
    # the level the rulebook keeps does not depend on a level being printed: without one, the 13th
    # spell above is level 1 (not the 17th's own 0, which printed would make it invalid), and says why
    card = {"name": "Tithe", "type": "spell", "edition": 13,
            "text": "Self-exhaust 2 minions→ target up to 1 of your resources; bounce the targets."}
    j = judge(card, NEWEST, view)
    assert j.status == "legal" and j.cost == 1 and j.breakdown["total"] == 0
    assert any("design edition's (the 13th)" in n for n in j.notes)
    assert judge({**card, "level": j.cost}, NEWEST, view).status == "legal"
    # a formula the 16th changed with no list naming it ("self-destroy [x] resources→", x/2 → x)
    minion = {"name": "Burner", "type": "minion", "edition": 15, "sp": 1, "hp": 2,
              "text": "BURN: Self-destroy 2 resources→ Draw 2 cards."}
    assert judge(minion, NEWEST, view).cost == 5 == judge(minion, 15, view).cost  # 2 + (4 - 1); the 17th's: 2 + (4 - 2)
    result = CliRunner().invoke(main, ["cost", "-e", "17", "--edition-indicator", "15", "--type", "minion", "--sp", "1",
                                       "--hp", "2", "--text", minion["text"]])
    assert result.output.startswith("(unnamed card): level 5 in the 17th edition"), result.output


# --------------------------------------------------------------------------- the mixed collection


def _outcomes(cards):
    return {(c["name"], c.get("edition")): c for c in cards}


def test_a_mixed_collection_migrates_to_the_17th_as_the_rulebooks_say(tmp_path):
    result, out = _migrate([MIXED, "--to", NEWEST, "--report", tmp_path / "report.json", "--report-format", "json"], tmp_path)
    assert result.exit_code == 1, result.output  # some cards are pruned
    before, after = _yaml(MIXED.read_text()), _yaml(out.read_text())
    assert [c["name"] for c in after] == [c["name"] for c in before]  # nothing lost, nothing reordered
    got = _outcomes(after)

    def pruned(name, edition, codes):
        card = got[(name, edition)]
        mark = card.pop(MARK)
        assert mark["status"] == "banned" and [r["code"] for r in mark["reasons"]] == codes, mark
        assert card == _outcomes(before)[(name, edition)]  # kept exactly as it was
        return mark

    # older systems: "any card whose design edition is prior to 13th Edition is pruned"; a card with no
    # Edition Indicator is also invalid ("Any card with no Edition Indicator is invalid.")
    pruned("Frenzied Berserker", None, ["invalid", "clean-slate"])
    pruned("Ravager", 11, ["clean-slate"])
    pruned("Smasher", 12, ["clean-slate"])
    pruned("Nameless", None, ["invalid", "clean-slate"])
    mark = pruned("Peek", 15, ["cost-revised", "cost-revised"])
    assert all(r["edition"] == 16 and "rulebook-16" in r["sources"] for r in mark["reasons"])

    # refurbished: the new text, the design edition and the level as printed
    texts = {
        ("Granary Ghost", 13): "When this card in your granary is destroyed (hex-play): Draw 1 card.",
        ("Field Marshal", 13): "MARCH: Target up to 2 on-field minions; destroy the targets.",
        ("Tithe Collector", 13): "Self-exhaust 2 on-field minions→ target 1 card in your granary; bounce the target.",
        ("Wounded Oracle", 14): "When your on-field minion(s) is damaged: Draw 1 card.",
        ("Lone Banisher", 14): "Target 1 on-field minion; destroy it.",  # "up to" removed, as the guide prescribes
        ("Pawn Summoner", 15): "Craft 2 level 3 pawns.",
    }
    for key, text in texts.items():
        card, old = got[key], _outcomes(before)[key]
        assert card == {**old, "text": text}, key
    # unchanged: an unlisted formula change, an unlisted rewording, cards of their own edition
    for key in [("Granary Burner", 15), ("Watcher", 16), ("Peek", 16), ("Negator", 17)]:
        assert got[key] == _outcomes(before)[key], key

    report = json.loads((tmp_path / "report.json").read_text())
    assert report["totals"] == {"cards": 15, "migrated": 6, "reissued": 0, "unchanged": 4, "banned": 5, "unknown": 0,
                                "errors": 0, "changed": 11, "prescribed": 2}
    by_name = {(c["name"], c["from"]): c for c in report["cards"]}
    pawns = by_name[("Pawn Summoner", 15)]
    assert pawns["outcome"] == "refurbished" and pawns["text"] == [{
        "line": 1, "old": "Summon 2 level 3 pawns.", "new": "Craft 2 level 3 pawns.", "component": "effect-summon-level-pawns",
        "edition": 16, "by": 16, "sources": ["guide-16", "rulebook-16", "rulebook-17"],
        "wording": {"old": "summon [x] level [y] pawns.", "new": "craft [x] level [y] pawns."}}]
    assert by_name[("Peek", 15)]["outcome"] == "pruned"
    assert any("kept as printed" in n for n in by_name[("Watcher", 16)]["notes"])
    prescribed = by_name[("Lone Banisher", 14)]["text"][-1]
    assert prescribed["old"] == "Target up to 1 on-field minion; destroy it." and prescribed["new"] == "Target 1 on-field minion; destroy it."
    assert prescribed["component"] is None and '"up to" should be removed' in prescribed["prescribed"][0]


def test_the_mixed_collection_is_idempotent_and_a_chain_equals_one_run(tmp_path):
    _, direct = _migrate([MIXED, "--to", NEWEST], tmp_path, "direct.yaml")
    _, again = _migrate([direct, "--to", NEWEST], tmp_path, "again.yaml")
    assert again.read_bytes() == direct.read_bytes()  # migrating the result again changes nothing
    _, fourteenth = _migrate([MIXED, "--to", 14], tmp_path, "fourteenth.yaml")
    _, chained = _migrate([fourteenth, "--to", NEWEST], tmp_path, "chained.yaml")
    assert chained.read_bytes() == direct.read_bytes()  # --to 14 then --to 17 is --to 17
    # the YAML round trip keeps the comments and the layout: only the migration differs
    original = MIXED.read_text().splitlines()
    assert all(line in direct.read_text().splitlines() for line in original if line.lstrip().startswith("#"))


def test_text_and_markdown_reports_name_each_refurbishment_and_each_pruning(tmp_path):
    result = CliRunner().invoke(main, ["migrate", str(MIXED), "--to", "17", "--dry-run"], catch_exceptions=False)
    text = result.stdout
    assert "[10] Pawn Summoner (line 102): refurbished (15th → 17th)" in text
    assert ('    paragraph 1: "Summon 2 level 3 pawns." → "Craft 2 level 3 pawns."\n'
            '        refurbished in the 16th edition: "summon [x] level [y] pawns." → "craft [x] level [y] pawns." '
            "[17th rulebook, Refurbished Card Texts]\n") in text
    assert "[9] Peek (line 95): pruned, kept as it was (15th → 17th)" in text
    assert "had its effect on the level revised in the 16th edition (was t, now 3t)" in text
    assert "[17th rulebook, Revised Levels]" in text
    assert ("Totals: 15 cards: 6 refurbished, 4 unchanged, 5 pruned; 2 written as the guide prescribes; "
            "11 would change in the output, 5 of them only marked") in text
    # the internal ids and every document only with --verbose
    assert "effect-summon-level-pawns" not in text and "rulebook-16" not in text
    verbose = CliRunner().invoke(main, ["migrate", str(MIXED), "--to", "17", "--dry-run", "--verbose"]).stdout
    assert ('refurbished in the 16th edition: "summon [x] level [y] pawns." → "craft [x] level [y] pawns." '
            "(effect-summon-level-pawns) [guide-16, rulebook-16, rulebook-17]") in verbose
    assert "[16th edition; guide-16, rulebook-16, rulebook-17]" in verbose
    md = CliRunner().invoke(main, ["migrate", str(MIXED), "--to", "17", "--dry-run", "--report-format", "markdown"]).stdout
    assert "### [9] Peek (line 95): pruned, kept as it was" in md
    assert ('- paragraph 1: "Summon 2 level 3 pawns." → "Craft 2 level 3 pawns."\n'
            '  - refurbished in the 16th edition: "summon [x] level [y] pawns." → "craft [x] level [y] pawns."') in md
    assert "| cards | refurbished | unchanged | pruned |\n|---:|---:|---:|---:|\n| 15 | 6 | 4 | 5 |\n" in md


def _report(*args: str) -> str:
    result = CliRunner().invoke(main, ["migrate", str(MIXED), "--to", "17", *args], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    return result.stdout


def test_the_report_lists_every_card_numbered_from_1_with_counts_that_add_up(tmp_path):
    """Issue 26: the report of the mixed collection lists all 15 cards, numbered as a player counts, each
    with one outcome word, and the totals count each card once."""
    import re

    text = _report("-o", str(tmp_path / "out.yaml"), "--report", "-")
    titles = re.findall(r"^\[(\d+)\] (.+?) \(line (\d+)\): (\w+)", text, re.M)
    names = [item.card["name"] for item in read_collection(str(MIXED))]
    assert [int(n) for n, *_ in titles] == list(range(1, 16)) and [name for _, name, *_ in titles] == names
    words = [word for *_, word in titles]
    assert set(words) == {"refurbished", "unchanged", "pruned"}
    totals = re.search(r"^Totals: 15 cards: (.*?);", text, re.M).group(1)
    counted = {word: int(n) for n, word in (part.split(" ", 1) for part in totals.split(", "))}
    assert counted == {w: words.count(w) for w in set(words)} and sum(counted.values()) == 15
    # JSON: every card too, the machine code beside the rulebook's word, the index counted from 0
    data = json.loads(_report("--dry-run", "--report-format", "json"))
    assert [(c["index"], c["name"]) for c in data["cards"]] == list(enumerate(names))
    assert [c["outcome"] for c in data["cards"]] == words
    assert {(c["status"], c["outcome"]) for c in data["cards"]} == {
        ("rewritten", "refurbished"), ("unchanged", "unchanged"), ("banned", "pruned")}


def test_a_pruned_card_is_pruned_in_the_report_the_output_file_and_check_cards(tmp_path):
    """One word per outcome, the edition's own, in all three places (the JSON keeps the code beside it)."""
    out = tmp_path / "out.yaml"
    report = _report("-o", str(out), "--report", "-")
    assert "[9] Peek (line 95): pruned, kept as it was" in report
    peek = _yaml(out.read_text())[8]
    assert (peek["migration"]["status"], peek["migration"]["outcome"]) == ("banned", "pruned")
    checked = CliRunner().invoke(main, ["check-cards", str(MIXED), "-e", "17", "--deck"]).stdout
    assert "[9] Peek: pruned — level 6, printed 3" in checked and "BANNED" not in checked
    assert "15 cards: 10 legal, 5 pruned; 3 with warnings" in checked
    assert "[9] Peek (pruned: cost-revised)" in checked  # the deck's list, numbered from 1 too
    data = json.loads(CliRunner().invoke(main, ["check-cards", str(MIXED), "-e", "17", "--format", "json"]).stdout)
    assert (data["cards"][8]["status"], data["cards"][8]["outcome"]) == ("banned", "pruned")
    # before the 13th the rulebooks ban
    sixth = CliRunner().invoke(main, ["check-cards", str(ROOT / "examples" / "collection.yaml"), "-e", "6"]).stdout
    assert "24 cards: 20 legal, 4 banned" in sixth and ": banned — cost" in sixth


def test_a_printed_figure_the_target_formulas_do_not_give_is_explained():
    """Tithe Collector (13th) and Granary Burner (15th) print level 1; the 17th's formulas give 0, and no
    list prunes them: the report says so."""
    text = _report("--dry-run")
    for number, name, design in (("6", "Tithe Collector", "13th"), ("11", "Granary Burner", "15th")):
        entry = next(e for e in text.split("\n\n") if e.startswith(f"[{number}] {name}"))
        assert (f"note: its printed level 1 stays: by the 17th edition's formulas it is 0, but the 17th rulebook's "
                f"lists, which name every case in which a card is pruned, name none that does so to this card (its "
                f"level is its design edition's, the {design})") in entry


def test_a_pruned_card_says_what_the_player_can_do():
    text = _report("--dry-run")
    entries = {e.split(" (line")[0]: e for e in text.split("\n\n") if e.startswith("[")}
    assert "what you can do: redesign it under the 17th edition's guide" in entries["[3] Smasher"]
    assert ("what you can do: migrate it with --reissue to have it re-issued: level 3 → 6, Edition Indicator 15 → 17 "
            "(its other texts are valid in the 17th edition); or redesign it under the 17th edition's guide") in entries["[9] Peek"]
    assert ("what you can do: print the Edition Indicator 17 (`edition: 17`) and the level 4 on it: it is then a "
            "legal card of the 17th edition") in entries["[15] Nameless"]
    # and so printed, the card is legal in the 17th
    nameless = {**_yaml(MIXED.read_text())[14], "edition": 17, "level": 4}
    assert judge(nameless, 17, TablesView()).status == "legal"
    assert all("what you can do" not in e for e in entries.values() if "): pruned" not in e.splitlines()[0])


def test_a_wrong_printed_level_kept_from_the_design_edition_says_which_to_print(view):
    # "self-bury [x] resources→" went from x to 2x in the 16th guide, in no rulebook list: a 15th card keeps
    # its 15th level (2 here), not the 17th's formulas' (0); printed 3, the level to print is 2
    card = {"name": "Burier", "type": "spell", "edition": 15, "level": 3, "text": "Self-bury 2 resources→ Draw 2 cards."}
    d = Migrator(view, NEWEST).decide(card)
    assert d.status == "banned" and [r.code for r in d.reasons] == ["cost-mismatch"]
    assert d.remedy == "print the level 2 on it: it is then a legal card of the 17th edition"
    assert judge({**card, "level": 2}, NEWEST, view).status == "legal"


def test_a_card_kept_as_it_was_is_told_of_the_texts_it_prints(view):
    # "Target up to 2 in-play cards; destroy it." is malformed ("it" for two targets); it is kept as it was,
    # so its reasons (report and 'migration' field) quote what it prints, as check-cards does, not the
    # refurbished "Target up to 2 on-field minions;" it does not print
    card = {"name": "Bad", "type": "spell", "edition": 13, "level": 4, "text": "Target up to 2 in-play cards; destroy it."}
    d = Migrator(view, NEWEST).decide(card)
    assert d.status == "error" and d.text is None
    (reason,) = d.reasons
    assert '"Target up to 2 in-play cards;" selects up to 2' in reason.message and "on-field" not in reason.message
    assert reason.message in judge(card, NEWEST, view).reasons[0].message
    assert all("on-field" not in r["message"] for r in d.mark["reasons"])


def test_reissue_over_jsonl(tmp_path):
    """--reissue holds for JSONL: it streams as YAML migrates."""
    cards = _yaml(MIXED.read_text())
    src = tmp_path / "mixed.jsonl"
    src.write_text("".join(json.dumps(c) + "\n" for c in cards * 40))
    out = tmp_path / "out.jsonl"
    code = run(Options(str(src), NEWEST, output=str(out), block=2048, reissue=True), TablesView(), stderr=io.StringIO())
    assert code == 1
    peeks = [json.loads(line) for line in out.read_bytes().splitlines() if b"\"Peek\"" in line]
    assert {(c["edition"], c["level"]) for c in peeks} == {(17, 6), (16, 6)} and not any(MARK in c for c in peeks)


def test_joined_texts_are_refurbished_and_the_design_editions_join_stays(view):
    # the 13th joins activation costs with ", also " ("Consecutive activation costs in an ability are
    # connected with a comma followed by the word “also”"), the 14th with "and": a 13th card keeps its
    # join and is read in the 17th; its texts are refurbished where they stand, joined or not
    card = {"name": "Striker", "type": "minion", "edition": 13, "sp": 1, "hp": 2,
            "text": "STRIKE: Self-exhaust 3 minions, also self-bury 3 resources→ Target up to 2 in-play cards; "
                    "destroy the targets, then summon 2 level 3 pawns."}
    card["level"] = judge(card, 13, view).cost
    assert judge(card, NEWEST, view).status == "legal"
    assert judge({**card, "edition": 14}, NEWEST, view).status == "error"  # not the 14th's join
    d = Migrator(view, NEWEST).decide(card)
    assert d.status == "rewritten" and d.text == (
        "STRIKE: Self-exhaust 3 on-field minions, also self-bury 3 resources→ Target up to 2 on-field minions; "
        "destroy the targets, then craft 2 level 3 pawns.")
    assert Migrator(view, NEWEST).decide({**card, "text": d.text}).status == "unchanged"


def test_the_readme_migration_excerpts_are_what_migrate_reports(tmp_path):
    """Every entry of a report excerpt that follows a `kotc-rulesc migrate ... --report -` block of the
    README is an entry of that command's report, word for word (the excerpts leave entries out)."""
    import re
    import shlex

    from support.docs_pages import every_page

    readme = "\n".join(text for _, text in every_page())
    blocks = re.findall(r"```sh\n(kotc-rulesc migrate [^\n]*--report -)\n```\n(?:(?!```)[^\n]*\n)*?```text\n([\s\S]*?)```", readme)
    assert len(blocks) == 3  # the README's mixed → 17th; the players' guide's 6th → 11-pre and mixed → 17th
    for command, shown in blocks:
        args = shlex.split(command)[1:]
        args[args.index("-o") + 1] = str(tmp_path / "out")
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        report = result.stdout.split("\n\n")
        for entry in shown.strip("\n").split("\n\n"):
            assert entry.strip("\n") in (e.strip("\n") for e in report), entry


def test_a_card_whose_only_ban_is_a_wrong_printed_level_is_invalid_not_pruned(tmp_path):
    """The 13th–17th rulebooks: pruned is "no longer a valid card", their lists name "all cases" of it, and a
    wrong printed level is none (the guides: the level "is strictly defined"): such a card is not legal as
    printed, in the rulebook's word "invalid"; the machine status stays banned."""
    misprint = {"name": "Misprint", "type": "spell", "edition": 17, "level": 5, "text": "Draw 2 cards."}
    old = {"name": "Old", "type": "spell", "edition": 12, "level": 2, "text": "Draw 2 cards."}
    path = tmp_path / "cards.yaml"
    path.write_text(json.dumps({"cards": [misprint, old, {**misprint, "name": "Good", "level": 4}]}))
    checked = CliRunner().invoke(main, ["check-cards", str(path), "--deck"])
    assert checked.exit_code == 1
    assert "[1] Misprint: invalid — level 4, printed 5" in checked.stdout and "[2] Old: pruned — " in checked.stdout
    assert "3 cards: 1 legal, 1 pruned, 1 invalid" in checked.stdout
    assert "[1] Misprint (invalid: cost-mismatch), [2] Old (pruned: clean-slate)" in checked.stdout
    data = json.loads(CliRunner().invoke(main, ["check-cards", str(path), "--format", "json"]).stdout)
    assert [(c["status"], c["outcome"]) for c in data["cards"]] == [("banned", "invalid"), ("banned", "pruned"),
                                                                    ("legal", "legal")]
    assert data["summary"]["banned"] == 2
    cost = ["cost", "-e", "17", "--type", "spell", "--edition-indicator", "17", "--printed-level", "5", "--text",
            "Draw 2 cards."]
    assert "\n  invalid in the 17th edition:\n    cost-mismatch (field level): " in CliRunner().invoke(main, cost).stdout
    one = json.loads(CliRunner().invoke(main, [*cost, "--format", "json"]).stdout)
    assert (one["status"], one["outcome"]) == ("banned", "invalid")
    # the 12th rulebook bans: its word stays
    twelfth = CliRunner().invoke(main, ["check-cards", str(path), "-e", "12"]).stdout
    assert "[1] Misprint: banned — level 2, printed 5" in twelfth and "3 cards: 1 legal, 2 banned" in twelfth
    # a wrong level with a reason a list names: pruned
    from kotc_rulesc.outcomes import outcome_word
    terms = TablesView().catalog(17).rulebook.terms
    assert outcome_word("banned", terms, ["cost-mismatch", "clean-slate"]) == "pruned"
    assert outcome_word("banned", terms, ["cost-mismatch"]) == "invalid"
    # migrate: the report, the mark, the totals (whose machine keys stay)
    out = tmp_path / "out.yaml"
    report = CliRunner().invoke(main, ["migrate", str(path), "-o", str(out), "--report", "-"]).stdout
    assert "[1] Misprint (line 1): invalid, kept as it was (17th → 17th)" in report
    assert "Totals: 3 cards: 1 unchanged, 1 pruned, 1 invalid;" in report
    assert "| cards | unchanged | pruned | invalid |" in CliRunner().invoke(
        main, ["migrate", str(path), "--dry-run", "--report", "-", "--report-format", "markdown"]).stdout
    assert _yaml(out.read_text())[0]["migration"]["outcome"] == "invalid"
    data = json.loads(CliRunner().invoke(main, ["migrate", str(path), "--dry-run", "--report", "-",
                                                "--report-format", "json"]).stdout)
    assert [(c["status"], c["outcome"]) for c in data["cards"]][0] == ("banned", "invalid")
    assert data["totals"]["banned"] == 2
