"""The 11th–17th guides' component lists, as kotc_rulesc.documents reads them from the HTML pages,
are whole: every MathML formula of the page is one component's, the sections are those each guide
prints, and the transcription beside the page lists the same components."""

from __future__ import annotations

import re

import pytest

from kotc_rulesc.documents.guide import clean

from support.game_documents import guide, guide_entries, level_rule_paragraphs, source_path, ultra_rules

#: formula-bearing items per guide (../shared/sources/README.md, "Count check")
FORMULAS = {11: 96, 12: 38, 13: 38, 14: 41, 15: 46, 16: 53, 17: 72}


@pytest.mark.parametrize("edition", sorted(FORMULAS))
def test_every_formula_of_the_page_is_one_components(edition):
    entries = guide_entries(edition)
    html = source_path(edition, "card-building-guide.html").read_text(encoding="utf-8")
    with_formula = [e for e in entries if e.formula is not None]
    assert len(with_formula) == FORMULAS[edition] == html.count("<math")
    assert all(e.sets == "t" for e in entries if e.kind == "target" and e.formula is not None)
    assert all(e.sets in (None, "a") for e in entries if e.kind == "condition")


@pytest.mark.parametrize("edition", sorted(FORMULAS))
def test_the_transcription_lists_the_same_texts(edition):
    """Every quoted text of a list item in the transcription's component sections is one the reader
    found in the page (the transcription was made from the page by another program)."""
    text = source_path(edition, "card-building-guide.txt").read_text(encoding="utf-8")
    cards = text.split("### Card Texts", 1)[1]
    quoted = [clean(m) for m in re.findall(r"^- (?:\[\+\d\] )?(?:\([^“]*\) )?“([^”]+)”$", cards, re.MULTILINE)]
    assert quoted == [e.clean_text for e in guide_entries(edition)]


def test_the_sections_follow_the_card_building_systems():
    assert guide(11).sections[0] == "Caveats"  # the published 11th still has caveats ("Summon cost:")
    for edition in range(12, 18):
        assert "Caveats" not in guide(edition).sections  # the 12th removes them
    assert all(e.formula is None for e in guide_entries(12) if e.kind == "condition")  # no relief, no a
    assert {e.ultra for e in guide_entries(17)} == {0, 1, 2} and not any(e.ultra for e in guide_entries(16))
    assert ultra_rules(16) == [] and any("10" in p for p in ultra_rules(17))
    assert any("one half of its HP" in p or "one half" in p for p in level_rule_paragraphs(13))
    assert any("one fifth" in p for p in level_rule_paragraphs(12))


def test_mathml_reads_as_the_guides_notation():
    formulas = {e.clean_text: (e.sets, e.formula) for n in (11, 13, 16) for e in guide_entries(n)}
    assert formulas["Excavate [x] cards and target up to [y] excavated cards;"] == ("t", "(x + 4y)/5")
    assert formulas["See enemy's hand and target up to [x] cards therein;"] == ("t", "2x")  # the 16th's
    assert formulas["Deal [x] cards."] == (None, "ax²/12")
    assert formulas["When this card is damaged, but not destroyed:"] == ("a", "1/6")
