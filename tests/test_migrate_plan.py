"""The per-card migration decision: each kind of change, on the rules in fixtures/migrate/rules.

Those rules have five editions: the 2nd revises two wordings (binding x = 5 and
x = 1) and the cost of "Draw [x] cards."; the 3rd revises a caveat's wording,
redacts "Pay [x] hitpoints." (declaring "Exhaust [x] of your resources." as its
replacement) and limits "Place [x] counters on each target." to x ≤ 5; the 4th
revises "Destroy all targets." and redacts the graveyard target at an edition no
source gives (after the 2nd); the 5th is a clean slate with successors for the
in-play target, draw and destroy.
"""

from pathlib import Path

import pytest

from kotc_rulesc.migrate.edit import edit_dict
from kotc_rulesc.migrate.plan import MARK, Migrator, NeedsFrom
from kotc_rulesc.migrate.rewrite import LineRewriter, split_line
from support.loaded import view_of
from support.loaded import view_of

RULES = Path(__file__).parent / "fixtures" / "migrate" / "rules"


@pytest.fixture(scope="module")
def view():
    return view_of(RULES)


@pytest.fixture
def to4(view):
    return Migrator(view, 4, assume=1)


def spell(name, text, cost, **extra):
    return {"name": name, "type": "spell", "cost": cost, "text": text, **extra}


# --------------------------------------------------------------------------- rewrites


def test_rewrite_binds_values_and_uses_singular_forms(to4):
    card = {
        "name": "Ember Sprite", "type": "creature", "offense": 1, "defense": 5, "cost": 9,
        "text": "Activate when a card in your hand is destroyed. Exhaust 2 of your resources. Increase your hitpoints by 3.\n"
                "ACHE: Activate when you take damage. Increase your hitpoints by 2.\n",
    }
    d = to4.decide(card)
    assert d.status == "rewritten" and d.legal
    assert d.text == (
        "Activate when at least 1 card in your hand is destroyed. Exhaust 2 of your resources. Increase your hitpoints by 3.\n"
        "ACHE: Activate when you take at least 5 damage. Increase your hitpoints by 2.\n"
    )
    assert [(r.line, r.old, r.new, r.component, r.edition, r.sources) for r in d.rewrites] == [
        (1, "Activate when a card in your hand is destroyed.", "Activate when at least 1 card in your hand is destroyed.",
         "condition-hand-destroyed", 2, ("guide",)),
        (2, "Activate when you take damage.", "Activate when you take at least 5 damage.", "condition-take-damage", 2, ("guide",)),
    ]
    # a wording erratum changes no cost: the Edition Indicator and the cost stay as printed
    assert d.edition is None and d.cost is None
    assert d.updates() == {"text": d.text}
    assert d.mark is None


def test_rewriter_keeps_everything_it_does_not_rewrite(view):
    rewriter = LineRewriter([p for p in view.passes() if p.target <= 4])
    line = "  NAME:  Activate when you take damage.   Increase your hitpoints by 2."
    new, steps = rewriter.line(line)
    assert new == "  NAME:  Activate when you take at least 5 damage.   Increase your hitpoints by 2."
    assert len(steps) == 1
    # the new wording is left alone (the chain reaches its fixpoint in one run)
    assert rewriter.line(new) == (new, ())
    assert rewriter.line("This card has no abilities.") == ("This card has no abilities.", ())
    assert split_line("HEAL: Draw 1 card. Draw 2 cards.") == ("HEAL: ", ["Draw 1 card.", " ", "Draw 2 cards."])


def test_caveat_wording_revised_in_a_later_step(view):
    d = Migrator(view, 3, assume=2).decide({
        "name": "Warden", "type": "creature", "offense": 3, "defense": 5, "cost": 3,
        "text": "You must exhaust 1 of your unexhausted cards in play to summon this creature.\nThis card has no abilities.",
    })
    assert d.status == "rewritten"
    assert d.text == "You must exhaust 1 of your unexhausted creatures in play to summon this creature.\nThis card has no abilities."
    assert d.rewrites[0].edition == 3


# --------------------------------------------------------------------------- re-issue


def test_cost_revised_card_is_reissued(to4):
    d = to4.decide(spell("Arcane Study", "Draw 2 cards.", 8))
    assert d.status == "reissued"
    assert d.cost == (8, 4)
    assert d.edition == (None, 4)
    assert d.text is None
    assert [(r.code, r.edition, r.sources) for r in d.reasons] == [("cost-revised", 2, ("guide",))]
    assert d.notes == ()
    assert d.updates() == {"edition": 4, "cost": 4}


def test_reissue_notes_a_printed_cost_already_wrong(to4):
    d = to4.decide(spell("Misprinted Study", "Draw 3 cards.", 10))
    assert d.status == "reissued" and d.cost == (10, 6)
    assert d.notes == ("the printed cost 10 was already wrong in the 1st edition (the card cost 12 there); re-issued at 6",)


def test_card_with_indicator_older_than_the_revision(view):
    d = Migrator(view, 4).decide(spell("Prune", "Target up to 2 cards in play. Destroy all targets.", 16, edition=2))
    assert d.status == "reissued"
    assert d.cost == (16, 6) and d.edition == (2, 4)
    assert d.reasons[0].code == "cost-revised" and d.reasons[0].edition == 4


# --------------------------------------------------------------------------- banned: kept as it was


def test_redacted_card_is_kept_with_reasons_and_a_replacement(to4):
    card = spell("Blood Pact", "Pay 2 hitpoints. Increase your hitpoints by 3.", 4)
    d = to4.decide(card)
    assert d.status == "banned" and not d.legal
    assert d.updates() == {}  # kept exactly as it was
    assert d.mark["status"] == "banned" and d.mark["from"] == 1 and d.mark["to"] == 4
    (reason,) = d.mark["reasons"]
    assert (reason["code"], reason["edition"], reason["sources"]) == ("redacted", 3, ["guide"])
    assert d.replacement == {
        "text": "Exhaust 2 of your resources. Increase your hitpoints by 3.",
        "cost": 5,
        "edition": 4,
        "components": [{"component": "cost-pay-hitpoints", "replacement": "cost-exhaust-resources",
                        "old": "Pay 2 hitpoints.", "new": "Exhaust 2 of your resources."}],
        "figure": "cost",  # the field the figure is printed in ("level" from the published 11th)
    }
    assert d.mark["replacement"] == d.replacement
    new = edit_dict(card, d)
    assert {k: v for k, v in new.items() if k != MARK} == card
    assert list(new) == [*card, MARK]


def test_banned_card_is_not_even_rewritten(to4):
    # the wording was revised in the 2nd, but the card is over a limit in the 4th
    card = {"name": "Storm", "type": "spell", "cost": 6,
            "text": "Activate when you take damage. Target up to 1 card in play. Place 7 counters on each target."}
    d = to4.decide(card)
    assert d.status == "banned"
    assert d.text is None and d.rewrites == ()
    assert [r.code for r in d.reasons] == ["over-limit"]
    assert d.replacement is None
    assert edit_dict(card, d)["text"] == card["text"]


def test_every_reason_is_kept(to4):
    d = to4.decide(spell("Grave Robbery", "Target up to 2 cards in your graveyard. Destroy all targets.", 16))
    assert d.status == "banned"
    assert [(r["code"], r["edition"]) for r in d.mark["reasons"]] == [("redacted", None), ("cost-revised", 4)]
    assert d.mark["reasons"][0]["sources"] == ["rulebook"]


def test_unknown_legality_is_kept_as_it_was(view):
    d = Migrator(view, 3, assume=1).decide(spell("Grave Robbery", "Target up to 2 cards in your graveyard. Destroy all targets.", 16))
    assert d.status == "unknown"
    assert d.updates() == {}
    assert [r.code for r in d.reasons] == ["unknown-fact"]


def test_printed_cost_already_wrong_is_reported_and_left_alone(to4):
    d = to4.decide(spell("Misprint", "Increase your hitpoints by 4.", 5))
    assert d.status == "banned"
    assert d.updates() == {}
    assert [r.code for r in d.reasons] == ["cost-mismatch"]
    assert d.notes == ("the printed cost 5 was already wrong in the 1st edition (the card cost 8 there)",)
    assert d.mark["notes"] == list(d.notes)


# --------------------------------------------------------------------------- clean slate


def test_clean_slate_crossed_on_successors_reissues(view):
    d = Migrator(view, 5).decide(spell("Prune", "Target up to 2 cards in play. Destroy all targets.", 6, edition=4))
    assert d.status == "reissued"
    assert d.text == "Target up to 2 cards on the battlefield. Destroy each target."
    assert d.edition == (4, 5) and d.cost == (6, 6)
    assert [(r.component, r.successor, r.edition) for r in d.rewrites] == [
        ("target-cards-in-play", "target-battlefield", 5),
        ("effect-destroy-all-targets", "effect-destroy-each-target", 5),
    ]
    assert [r.code for r in d.reasons] == ["clean-slate"]


def test_clean_slate_bans_a_card_without_a_successor_for_every_component(view):
    card = {"name": "Warden", "type": "creature", "offense": 3, "defense": 5, "cost": 9, "edition": 4,
            "text": "You must exhaust 1 of your unexhausted creatures in play to summon this creature.\n"
                    "Target up to 2 cards in play. Destroy all targets."}
    d = Migrator(view, 5).decide(card)
    assert d.status == "banned"
    assert d.updates() == {} and d.rewrites == ()
    assert [(r["code"], r["edition"]) for r in d.mark["reasons"]] == [("clean-slate", 5)]


def test_clean_slate_crossed_from_an_older_edition_rewrites_first(view):
    # 1st → 5th: the 2nd's cost revision and the 5th's successors both apply
    d = Migrator(view, 5, assume=1).decide(spell("Study", "Draw 2 cards.", 8))
    assert d.status == "reissued"
    assert d.text == "Draw 2 cards from your deck."
    assert d.edition == (None, 5) and d.cost == (8, 4)


# --------------------------------------------------------------------------- editions


def test_a_card_without_indicator_needs_from(view):
    with pytest.raises(NeedsFrom):
        Migrator(view, 4).decide(spell("Study", "Draw 2 cards.", 8))


def test_same_edition_is_judged_only(view):
    m = Migrator(view, 4)
    assert m.decide(spell("Prune", "Target up to 2 cards in play. Destroy all targets.", 6, edition=4)).status == "unchanged"
    d = m.decide(spell("Prune", "Target up to 2 cards in play. Destroy all targets.", 7, edition=4))
    assert d.status == "banned" and [r.code for r in d.reasons] == ["cost-mismatch"]


def test_a_later_edition_than_the_target_is_an_error(to4):
    d = to4.decide(spell("Herald", "Target up to 2 cards on the battlefield. Destroy each target.", 6, edition=5))
    assert d.status == "error"
    assert d.mark["reasons"][0]["code"] == "newer-edition"


def test_unreadable_cards_are_errors(to4):
    assert to4.decide({"name": "Broken", "cost": 1, "text": "Increase your hitpoints by 1."}).status == "error"
    d = to4.decide(spell("Gibberish", "Fly to the moon.", 1))
    assert d.status == "error" and d.reasons[0].code == "unknown-text"
    assert to4.decide(spell("Odd", "Draw 1 card.", 2, edition="six")).status == "error"


# --------------------------------------------------------------------------- marker and cache


def test_marker_is_replaced_not_duplicated_and_removed_once_legal(view):
    card = spell("Blood Pact", "Pay 2 hitpoints. Increase your hitpoints by 3.", 4)
    once = edit_dict(card, Migrator(view, 4, assume=1).decide(card))
    assert edit_dict(once, Migrator(view, 4, assume=1).decide(once)) is None  # the same marker: no change
    again = edit_dict(once, Migrator(view, 3, assume=1).decide(once))
    assert again[MARK]["to"] == 3 and list(again).count(MARK) == 1
    # legal in the 2nd: the stale marker goes
    cleared = edit_dict(once, Migrator(view, 2, assume=1).decide(once))
    assert MARK not in cleared and cleared == card


def test_identical_cards_are_decided_once(view):
    m = Migrator(view, 4, assume=1)
    first = m.decide(spell("Study #1", "Draw 2 cards.", 8))
    second = m.decide(spell("Study #2", "Draw 2 cards.", 8))
    assert first is second
    assert (m.misses, m.hits) == (1, 1)
    assert m.decide(spell("Study #3", "Draw 2 cards.", 7)) is not first


def test_cache_is_bounded(view):
    m = Migrator(view, 4, assume=1, cache=10)
    for i in range(1, 60):
        m.decide(spell(f"Heal {i}", f"Increase your hitpoints by {i}.", 2 * i))
    assert len(m._memo) <= 20


# --------------------------------------------------------------------------- the real rules


def test_line_rewriter_agrees_with_running_every_pass_on_the_real_rules():
    """The skeleton index only skips rewrites that cannot match: for every revised wording of the
    real rules (values 1 and 3, so singular and plural forms), the result is that of Pass.rewrite
    applied by every pass in turn — and the new wording is a fixpoint.  By default a rewording no
    rulebook list names (``listed: false``) is a step taken but not made: the sentence stays."""
    root = Path(__file__).resolve().parent.parent / "rules"
    passes = view_of(root).passes()
    checked = unlisted = 0
    for start in range(len(passes)):
        run = passes[start:]
        every, listed_only = LineRewriter(run, unlisted=True), LineRewriter(run)
        for p in run:
            for rw in p.rewrites:
                for value in (1, 3):
                    sentence = rw.old.render({v: value for v in rw.old.variables})
                    expected, steps = sentence, 0
                    kept, kept_steps = sentence, 0
                    def same(a, b):  # but for the first letter, which where a text stands decides
                        return a[:1].lower() + a[1:] == b[:1].lower() + b[1:]

                    for q in run:
                        new_expected, used = q.rewrite(expected)
                        if used is not None and not same(new_expected, expected):
                            expected, steps = new_expected, steps + 1
                        new_kept, used = q.rewrite(kept)
                        if used is not None and not same(new_kept, kept):
                            kept_steps += 1
                            if used.listed:
                                kept = new_kept
                        unlisted += used is not None and not used.listed
                    for rewriter, want, count in ((every, expected, steps), (listed_only, kept, kept_steps)):
                        # (the first letter stays as printed: where a text stands says which, so the
                        # 17th's "Remove [x] counters on this card→" → "remove …" changes no card)
                        want = (want[:1].upper() if sentence[:1].isupper() else want[:1].lower()) + want[1:]
                        new, taken = rewriter.sentence(sentence)
                        assert (new if new is not None else sentence) == want
                        assert len(taken) == count
                        if new is not None:
                            again, taken = rewriter.sentence(new)
                            assert again is None and all(not t[2].listed for t in taken)
                    checked += 1
    assert checked > 100 and unlisted > 0


def test_wording_revised_before_the_cards_edition_is_rewritten_too(view):
    # a 3rd-edition card printed in the wording the 2nd revised: read as the new one, so rewritten
    card = spell("Sprite", "Activate when you take damage. Increase your hitpoints by 2.", 3, edition=3)
    d = Migrator(view, 4).decide(card)
    assert d.status == "rewritten"
    assert d.text == "Activate when you take at least 5 damage. Increase your hitpoints by 2."
    assert d.rewrites[0].edition == 2
    # a card already of the target edition is judged only
    assert Migrator(view, 3).decide(card).status == "unchanged"


def test_the_clean_slate_describes_itself_in_the_changelog_and_the_diff(view):
    """The clean slate is one unit (kotc_rulesc.history.CleanSlates): the 5th's changelog says
    what it does and lists its successors, a diff across it says it was crossed."""
    from kotc_rulesc.diff import diff_editions, diff_text
    from kotc_rulesc.render import render_docs

    page = render_docs(view.rules)["changelog-05.md"]
    assert "> **Clean slate.** Every card that bears no Edition Indicator, or one older than the 5th, is banned from this edition on." in page
    successors = page[page.index("## Successors"):].split("\n## ")[0]
    assert successors.count("\n- ") == len(view.rules.edition(5).successors) > 0
    assert "Clean slate crossed: the 5th Edition bans every card" in diff_text(diff_editions(view, 4, 5))
