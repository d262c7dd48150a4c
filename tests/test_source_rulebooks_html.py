"""The 11th–17th rulebook pages as kotc_rulesc.documents reads them: their lists (in force and the
drafts inside HTML comments), the clean slate each declares, and the parameters import-edition
drafts, each compared with the rules data (the committed editions were read by hand)."""

from __future__ import annotations

import pytest

from kotc_rulesc.documents.outline import read_outline, sentences
from kotc_rulesc.documents.parameters import read_parameters
from kotc_rulesc.fold import fold
from kotc_rulesc.show import rulebook_params_json

from support.game_documents import HTML_EDITIONS, rulebook
from support.loaded import rules_of

#: parameters the reader does not draft as the rules hold them, and why
NOT_DRAFTED = {
    # the 11th lists an ability's parts in prose, not as the "following components" list of the 12th on
    11: {"ability_layout", "sections"},
    # the 11th's and 12th's lists are HTML comments headed "Redacted Ability Text", while their contents
    # name "Redacted Ability Text (Banned Cards)": the rules keep the default titles
    12: {"sections"},
}


def _expected(edition: int) -> dict:
    params = rulebook_params_json(fold(rules_of(), edition))
    out = {}
    for key, value in params.items():
        if key in ("sources", "notes") or value in (None, [], {}):
            continue
        out[key] = {k: v for k, v in value.items() if v is not None} if key in ("players", "deck", "reserves") else value
    return out


@pytest.mark.parametrize("edition", list(HTML_EDITIONS))
def test_the_parameters_read_are_the_rules(edition):
    page = rulebook(edition)
    cat = fold(rules_of(), edition)
    read = {k: f.value for k, f in read_parameters(page, {k.noun: k.id for k in cat.system.kinds}).items()}
    expected = _expected(edition)
    skip = NOT_DRAFTED.get(edition, set())
    assert {k: v for k, v in read.items() if k not in skip} == {k: v for k, v in expected.items() if k not in skip}
    for key, fact in read_parameters(page).items():  # each rests on a sentence of the page (the lists' titles on headings)
        assert fact.quotes or key in ("sections", "keywords"), key


@pytest.mark.parametrize("edition", list(HTML_EDITIONS))
def test_clean_slates_and_drafts(edition):
    page = rulebook(edition)
    assert page.edition == edition
    assert page.clean_slate_edition() == (edition if edition <= 13 else 13)
    # every rulebook of the 12th on keeps a Redacted list as a draft (an HTML comment): never in force
    if edition >= 12:
        assert page.lists.redacted == [] and "redacted" in page.lists.draft_sections
        assert any("Remove x counters from this card;" in item for items in page.lists.drafts.values() for item in items)
    assert [r.old for r in page.lists.revised] == {14: ["ghost-play, must pay resource cost"], 15: ["ghost-play, must pay resource cost"]}.get(
        edition, [r.old for r in page.lists.revised])
    assert len(page.lists.revised) == {11: 0, 12: 0, 13: 0, 14: 1, 15: 1, 16: 6, 17: 9}[edition]
    assert [e for _, e in page.lists.levels] == ([16, 16, 16] if edition >= 16 else [])


def test_the_outline_reads_pages_as_a_browser_shows_them():
    page = read_outline(
        "<h2>Rulebook (18<sup>th</sup> Edition)</h2><p>Before a list <ul><li>one<ul><li>nested</li></ul></li><li>two</ul>"
        "<!-- <h3>Draft</h3><p>not in force</p> --><p>after the draft</p>"
        "<table><tr><th>Old</th><th>New</th></tr><tr></tr><td><var>x</var> a</td><td>b</td></table>"
        "<p><math><mtext>(</mtext><mfrac><mrow><mi>x</mi><mo>+</mo><mn>4</mn><mo>&InvisibleTimes;</mo><mi>y</mi></mrow>"
        "<mn>5</mn></mfrac><mtext>)</mtext></math> and <math><msup><mi>y</mi><mn>2</mn></msup></math></p>")
    (block, draft, after) = page.blocks
    assert block.title == "Rulebook (18th Edition)" and block.paragraphs() == ["Before a list"]
    (lst,) = block.lists()
    assert [i.text for i in lst.items] == ["one", "two"] and lst.items[0].children[0].text == "nested"
    assert (draft.title, draft.in_force, draft.paragraphs(False)) == ("Draft", False, ["not in force"])
    assert after.path == block.path and after.paragraphs() == ["after the draft", "((x + 4y)/5) and y²"]  # the page's own parentheses kept
    (table,) = after.tables()
    assert table.header == ("Old", "New") and table.rows == [("[x] a", "b")]  # stray cells make a row
    assert sentences("Draw 1 card. Then stop (i.e. at least 1). “Quoted.” Next") == [
        "Draw 1 card.", "Then stop (i.e. at least 1).", "“Quoted.”", "Next"]
