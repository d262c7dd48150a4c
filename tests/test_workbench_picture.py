"""A card's picture (kotc_rulesc/workbench/picture.py): an SVG in the layout the rulebooks list — name,
image, ability text (names in capitals, tutorial text in italics), Edition Indicator, level, Ultra
Points, stats or a spell's triangles, flavor text — the same bytes for the same card."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from kotc_rulesc import api
from kotc_rulesc.workbench.picture import card_svg

SVG = "{http://www.w3.org/2000/svg}"
MINION = {"name": "Shield <Bearer> & Co", "type": "minion", "edition": 17, "level": 6, "sp": 2, "hp": 4,
          "flavor": "It holds the line.",
          "text": "GUARD: When this card is summoned (ghost-play): Target up to 1 on-field minion; place 2 Shield "
                  "Counters on the target. (Shield Counters absorb damage.)\nDraw 1 card."}


def _texts(svg: str) -> list[tuple[str, str]]:
    """(style, words) of every text run, in order."""
    root = ET.fromstring(svg)
    out = []
    for text in root.iter(f"{SVG}text"):
        style = text.get("font-style") or text.get("font-weight") or ""
        if text.text and text.text.strip():
            out.append((style, text.text))
        for span in text.iter(f"{SVG}tspan"):
            out.append((span.get("font-style") or span.get("font-weight") or style, (span.text or "").strip()))
    return out


def test_the_picture_shows_what_the_card_prints_in_the_rulebooks_layout():
    svg = card_svg(MINION, api.system(17), figure=6, ultra_points=1)
    texts = _texts(svg)
    words = [w for _, w in texts]
    assert ("bold", "Shield <Bearer> & Co") in texts  # the name (escaped in the XML, which parses)
    assert "6" in words and "+1" in words  # the level, the Ultra Points
    assert ("bold", "GUARD:") in texts  # an ability's name, in capitals
    assert ("italic", "absorb") in texts and ("", "Counters") in texts  # tutorial text in italics
    assert ("italic", "It holds the line.") in texts  # flavor text
    assert "SP" in words and "HP" in words and "17" in words  # the stats as the edition names them; the Edition Indicator
    assert card_svg(MINION, api.system(17), figure=6, ultra_points=1) == svg  # deterministic


def test_a_type_without_stats_has_the_pair_of_triangles_and_an_unprinted_figure_is_the_computed_one():
    spell = {"name": "Insight", "type": "spell", "text": "Draw 1 card."}
    svg = card_svg(spell, api.system(17), figure=2, ultra_points=0)
    root = ET.fromstring(svg)
    assert len(list(root.iter(f"{SVG}path"))) == 2
    words = [w for _, w in _texts(svg)]
    assert "2" in words and "+0" not in words and "SP" not in words
    old = card_svg({"name": "Brute", "type": "creature", "cost": 7, "offense": 3, "defense": 5, "text": "Draw 1 card."},
                   api.system(6), figure=9)
    words = [w for _, w in _texts(old)]
    assert "7" in words and "9" not in words and "OFFENSE" in words and "DEFENSE" in words


def test_a_long_text_is_set_smaller_until_it_fits():
    long = dict(MINION, text="\n".join(["GUARD: " + "Draw 1 card. " * 12] * 4))
    sizes = {float(t.get("font-size")) for t in ET.fromstring(card_svg(long, api.system(17))).iter(f"{SVG}text")
             if t.get("y") and 190 < float(t.get("y")) < 305}
    assert min(sizes) < 9.5
