"""Judging cards: every reason code, its edition and sources, and the status it leads to.

The rules are fixtures/mini_rules plus a 4th edition written here: a clean slate whose
catalog is unknown, which also redacts effect-destroy-all-targets at an unknown edition
after the 2nd (so in the 3rd its status is unknown).
"""

import shutil
from pathlib import Path

import pytest

from kotc_rulesc.cards import judge
from support.loaded import view_of

MINI = Path(__file__).parent / "fixtures" / "mini_rules"
FOURTH = """\
edition: 4
follows: 3
source: guide
redactions:
  - component: effect-destroy-all-targets
    edition: unknown
    after: 2
clean_slate: true
catalog: unknown
"""


@pytest.fixture(scope="module")
def view(tmp_path_factory):
    root = tmp_path_factory.mktemp("rules")
    for path in MINI.iterdir():
        shutil.copy(path, root / path.name)
    (root / "edition-04.yaml").write_text(FOURTH)
    return view_of(root)


def spell(text, **extra):
    return {"name": "S", "type": "spell", "text": text, **extra}


def codes(j):
    return [r.code for r in j.reasons]


def test_legal(view):
    j = judge(spell("Draw 2 cards.", edition=2, cost=4), 2, view, index=7)
    assert (j.index, j.name, j.status, j.cost, j.printed_cost, j.reasons) == (7, "S", "legal", 4, 4, [])
    assert j.parsed is not None and j.breakdown["total"] == 4


def test_cost_revised_without_or_with_an_older_edition_indicator(view):
    for card in (spell("Draw 2 cards.", cost=8), spell("Draw 2 cards.", edition=1, cost=8)):
        j = judge(card, 2, view)
        assert j.status == "banned" and codes(j) == ["cost-revised"]
        (r,) = j.reasons
        assert r.edition == 2 and r.sources == ("guide",) and r.field == "text[1]"
        assert "was 4x, now 2x" in r.message
        # the printed cost is the old one: said as a note, not a second reason
        assert j.cost == 4 and j.printed_cost == 8
        assert any("printed cost 8 is from before the cost revision" in n for n in j.notes)
    assert judge(spell("Draw 2 cards.", edition=1, cost=8), 1, view).status == "legal"


def test_cost_mismatch_reports_both_costs(view):
    j = judge(spell("Draw 2 cards.", edition=2, cost=5), 2, view)
    assert j.status == "banned" and codes(j) == ["cost-mismatch"]
    assert j.reasons[0].field == "cost" and "printed cost is 5, but the card costs 4 in the 2nd edition" in j.reasons[0].message


def test_redacted(view):
    j = judge(spell("Pay 1 hitpoint. Draw 2 cards.", edition=2), 3, view)
    assert j.status == "banned" and codes(j) == ["redacted"]
    assert j.reasons[0].edition == 3 and "since the 3rd edition" in j.reasons[0].message
    assert judge(spell("Pay 1 hitpoint. Draw 2 cards.", edition=2), 2, view).status == "legal"


def test_over_limit_and_unknown_limit(view):
    j = judge(spell("Pay 15 hitpoints. Draw 2 cards.", edition=2), 2, view)
    assert j.status == "banned" and codes(j) == ["over-limit"]
    assert "x = 15, above the limit {x ≤ 14}" in j.reasons[0].message
    assert j.reasons[0].sources == ("rulebook",)
    assert judge(spell("Pay 14 hitpoints. Draw 2 cards.", edition=2), 2, view).status == "legal"
    # in the 1st the limit exists but no source gives its value
    j = judge(spell("Pay 3 hitpoints. Draw 2 cards.", edition=1), 1, view)
    assert j.status == "unknown" and codes(j) == ["unknown-fact"] and j.reasons[0].edition is None


def test_redaction_at_an_unknown_edition_is_an_unknown_fact(view):
    card = spell("Target up to 1 card in play. Destroy all targets.", edition=2)
    assert judge(card, 2, view).status == "legal"
    j = judge(card, 3, view)
    assert j.status == "unknown" and codes(j) == ["unknown-fact"]
    assert "after the 2nd, by the 4th" in j.reasons[0].message


def test_clean_slate_and_unknown_catalog(view):
    old = judge(spell("Draw 2 cards.", edition=3), 4, view)
    assert old.status == "banned" and codes(old) == ["clean-slate"]
    assert old.reasons[0].edition == 4 and "Edition Indicator 3" in old.reasons[0].message
    none = judge(spell("Draw 2 cards."), 4, view)
    assert codes(none) == ["clean-slate"] and "bears no Edition Indicator" in none.reasons[0].message
    new = judge(spell("Draw 2 cards.", edition=4), 4, view)
    assert new.status == "unknown" and codes(new) == ["unknown-fact"]
    assert "component catalog of the 4th edition is not in the sources" in new.reasons[0].message
    assert new.cost is None


def test_an_edition_indicator_that_is_no_edition_is_not_told_it_is_missing(view):
    # a card bearing 5 (the last edition is 4) or 0 bears an Edition Indicator, just not a valid one: the one
    # reason is that, not also the clean slate's "bears no Edition Indicator"
    for bad in (5, 0):
        j = judge(spell("Draw 2 cards.", edition=bad), 4, view)
        assert codes(j) == ["malformed", "unknown-fact"] and j.reasons[0].field == "edition", [r.message for r in j.reasons]


def test_every_reason_is_collected(view):
    card = {"name": "Everything", "type": "creature", "offense": 4, "defense": 5, "cost": 99,
            "text": "This creature cannot attack.\nPay 20 hitpoints. Draw 2 cards."}
    j = judge(card, 3, view)
    assert j.status == "banned"
    assert sorted(codes(j)) == ["cost-revised", "cost-revised", "over-limit", "redacted"]
    assert {r.field for r in j.reasons} == {"text[1]", "text[2]"}


def test_an_error_wins_over_a_ban(view):
    j = judge({"name": "X", "type": "creature", "offense": 100, "defense": 5, "text": "Pay 3 hitpoints. Draw 2 cards."}, 3, view)
    assert j.status == "error" and set(codes(j)) == {"malformed", "redacted", "cost-revised"}
    assert j.cost is None


def test_extra_fields_are_ignored_not_rejected(view):
    j = judge(spell("Draw 2 cards.", edition=2, flavor="Knowledge is power.", artist="A. Painter", image="x.png"), 2, view)
    assert j.status == "legal"
