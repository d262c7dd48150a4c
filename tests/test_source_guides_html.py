"""The 11th–17th guides' component lists, as source_guides_html.py reads them, are whole: every
MathML formula of the HTML page is one component's, and the sections are those each guide prints.

These lists are what the 11th–17th catalogs will be compared with, entry by entry, once they are
encoded (their card-building systems differ from the 1st–10th's)."""

from __future__ import annotations

import pytest

from source_guides_html import SOURCES, component_sections, guide_entries, level_rule_paragraphs, ultra_rules

#: formula-bearing items per guide (../shared/sources/README.md, "Count check")
FORMULAS = {11: 96, 12: 38, 13: 38, 14: 41, 15: 46, 16: 53, 17: 72}


@pytest.mark.parametrize("edition", sorted(FORMULAS))
def test_every_formula_of_the_page_is_one_components(edition):
    entries = guide_entries(edition)
    html = (SOURCES / f"{edition:02d}" / "card-building-guide.html").read_text(encoding="utf-8")
    with_formula = [e for e in entries if e.formula is not None]
    assert len(with_formula) == FORMULAS[edition] == html.count("<math")
    assert all(e.sets == "t" for e in entries if e.kind == "target" and e.formula is not None)
    assert all(e.sets in (None, "a") for e in entries if e.kind == "condition")


def test_the_sections_follow_the_card_building_systems():
    assert component_sections(11)[0] == "Caveats"  # the published 11th still has caveats ("Summon cost:")
    for edition in range(12, 18):
        assert "Caveats" not in component_sections(edition)  # the 12th removes them
    assert all(e.formula is None for e in guide_entries(12) if e.kind == "condition")  # no relief, no a
    assert {e.ultra for e in guide_entries(17)} == {0, 1, 2} and not any(e.ultra for e in guide_entries(16))
    assert ultra_rules(16) == [] and any("10" in p for p in ultra_rules(17))
    assert any("one half of its HP" in p or "one half" in p for p in level_rule_paragraphs(13))
    assert any("one fifth" in p for p in level_rule_paragraphs(12))
