"""The workbench in a real browser: headless Chromium (Debian's, driven by Playwright: tests/support/browser.py)
on the page a workbench server serves.  A player types a 17th-edition minion and sees its level and
breakdown; fixes a misspelt text by choosing a suggestion; switches editions and sees the form
reshaped; inserts components from the palette; opens a collection and sees check-cards' verdicts and
deck; does it all by keyboard at 390 px.  Every number the page shows is the CLI's for the same card.

``tools/test.sh`` installs Chromium where it can; only where it cannot is this skipped, with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import api
from kotc_rulesc.api import Rules
from kotc_rulesc.cli import main
from kotc_rulesc.workbench.app import Workbench
from kotc_rulesc.workbench.server import make_server, serving

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "examples" / "mixed-collection.yaml"


@pytest.fixture(scope="module")
def server():
    with serving(make_server(Workbench(Rules()))) as s:
        yield s


@pytest.fixture()
def open_workbench(tab, server):
    """``open_workbench(width, height)``: the workbench, a new document in the tab at that size, ready;
    at the test's end the tab is emptied, and nothing the page logged may be an error."""
    errors: list[str] = []
    listeners = {"pageerror": lambda e: errors.append(str(e)),
                 "console": lambda m: m.type == "error" and errors.append(m.text)}
    for event, listener in listeners.items():
        tab.on(event, listener)

    def opened(width: int, height: int):
        tab.set_viewport_size({"width": width, "height": height})
        tab.goto(server.url)
        tab.wait_for_selector("body[data-ready=true]")
        return tab

    yield opened
    tab.goto("about:blank")
    for event, listener in listeners.items():
        tab.remove_listener(event, listener)
    assert errors == [], "the page logged errors"


@pytest.fixture()
def page(open_workbench):
    return open_workbench(1280, 1000)


def settled(page, value: str) -> None:
    """Wait until the page has judged what was typed: its figure reads ``value``."""
    page.wait_for_function("(want) => document.querySelector('#figure-value').dataset.value === want", arg=value)


def has_value(page, n: int, text: str) -> str:
    """The text of ability box ``n`` once it reads ``text`` (a component is put in place after the
    server renders it); what it reads after 5 s otherwise."""
    try:
        page.wait_for_function("([n, want]) => document.querySelectorAll('.ability-text')[n].value === want",
                               arg=[n, text], timeout=5000)
    except Exception:
        pass
    return page.locator(".ability-text").nth(n).input_value()


def cli_cost(*args: str) -> dict:
    result = CliRunner().invoke(main, ["cost", *args, "--format", "json"])
    return json.loads(result.stdout)


def page_numbers(page) -> dict:
    """Every number the judgement shows: the figure, the printed one, the Ultra Points, each row of the
    breakdown (component values, sub-ability and ability figures) and the total."""
    return page.evaluate("""() => ({
      figure: document.querySelector('#figure-value').dataset.value,
      ultra: (document.querySelector('#ultra-points') || {}).textContent || null,
      rows: [...document.querySelectorAll('#breakdown-table tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      total: (document.querySelector('#breakdown-total strong') || {}).textContent || null,
    })""")


def cli_numbers(cost: dict) -> dict:
    """The same numbers, from ``cost --format json``."""
    b = cost["breakdown"]
    rule = b["rule"]
    names = [k for k in rule if k not in ("edition", "stated", "sources")]
    rows = []

    def part(p):
        values = [f"{k}={v}" for k, v in sorted(p["values"].items())]
        values += [f"{k}={v if v is not None else 'unknown'}" for k, v in p.items()
                   if k not in ("component", "kind", "noun", "text", "formula", "values", "role", "value", "ultra")]
        none = p["role"] == "none"
        rows.append([p["noun"], p["text"] + (f" [+{p['ultra']}]" if p.get("ultra") else ""),
                     "no formula" if none else f"{p['role']} {p['formula'] or 'unknown'}", ", ".join(values),
                     "" if none else p["value"] or "unknown"])

    def scope(entry):
        rows.extend([f"{n.replace('sub_ability', 'sub-ability').replace('_', ' ')} = {rule[n]}", entry[n]]
                    for n in names if entry.get(n) is not None)

    for ability in b["abilities"]:
        for p in ability["components"]:
            part(p)
        for sub in ability.get("sub_abilities", ()):
            for p in sub["components"]:
                part(p)
            scope(sub)
        scope(ability)
    return {"figure": str(cost[b["figure"]]), "ultra": f"Ultra Points {b['ultra_points']}" if b.get("ultra_points") else None,
            "rows": rows, "total": str(b["total"])}


def without_headings(rows: list) -> list:
    return [r for r in rows if r]  # (a heading row has no cells)


def type_minion(page, name: str, sp: str, hp: str, text: str) -> None:
    page.fill("#card-name", name)
    page.select_option("#card-type", "minion")
    page.fill("#card-stat-sp", sp)
    page.fill("#card-stat-hp", hp)
    page.locator(".ability-text").first.press_sequentially(text)


def test_typing_a_17th_minion_shows_its_level_and_breakdown_the_clis(page):
    text = "RALLY: When this card is summoned (ghost-play): Target up to 2 on-field minions; draw 1 card."
    type_minion(page, "Field Marshal", "3", "6", text)
    cost = cli_cost("-e", "17", "--name", "Field Marshal", "--type", "minion", "--sp", "3", "--hp", "6",
                    "--edition-indicator", "17", "--text", text)
    settled(page, str(cost["level"]))
    shown = page_numbers(page)
    assert {**shown, "rows": without_headings(shown["rows"])} == cli_numbers(cost)
    assert page.text_content("#status") == "legal"
    assert "Ultra Points 1" == shown["ultra"]
    assert "<text x=\"20\" y=\"32\" font-size=\"13\" font-weight=\"bold\">Field Marshal</text>" in page.evaluate(
        "decodeURIComponent(document.querySelector('#picture').src)")  # (the name, drawn)


def test_a_misspelt_text_shows_a_suggestion_and_choosing_it_fixes_the_card(page):
    page.fill("#card-name", "Sage")
    page.select_option("#card-type", "spell")
    page.locator(".ability-text").first.press_sequentially("Drw 2 cards.")
    page.locator("#reasons", has_text="Drw 2 cards.").wait_for()  # (the verdict on the whole text, not a part typed)
    suggestion = page.locator("#reasons .suggestion", has_text="draw [x] cards.")
    suggestion.wait_for()
    assert page.get_attribute("#status", "data-status") == "error"
    suggestion.click()
    assert has_value(page, 0, "Draw 2 cards.") == "Draw 2 cards."
    assert page.evaluate("(() => { const b = document.querySelector('.ability-text'); "
                         "return b.value.slice(b.selectionStart, b.selectionEnd); })()") == "2"  # the value, selected
    cost = cli_cost("-e", "17", "--name", "Sage", "--type", "spell", "--edition-indicator", "17", "--text", "Draw 2 cards.")
    settled(page, str(cost["level"]))
    assert page.get_attribute("#status", "data-status") == "legal" == cost["status"]


def _form_shape(page) -> dict:
    return page.evaluate("""() => ({
      types: [...document.querySelectorAll('#card-type option')].map((o) => o.value),
      stats: [...document.querySelectorAll('#card-stats input')].map((i) => i.name),
      figure: document.querySelector('#card-figure').name,
      palette: [...document.querySelectorAll('#palette-list .component')].map((b) => b.dataset.component),
    })""")


def _shape_of(edition) -> dict:
    system = api.system(edition)
    first = system.types[0]
    return {"types": [t.id for t in system.types], "stats": [s.name for s in first.stats], "figure": system.figure,
            "palette": [c.id for k in system.kinds for c in api.components(edition, k.id)]}


def test_switching_editions_reshapes_the_form_from_the_rules(page):
    assert _form_shape(page) == _shape_of(17)
    page.select_option("#edition", "6")
    page.wait_for_function("() => document.querySelector('#card-figure').name === 'cost'")
    assert _form_shape(page) == _shape_of(6)
    assert page.text_content("label:has(#card-figure) > span") == "Printed resource cost"
    page.select_option("#edition", "12")
    page.wait_for_function("() => document.querySelector('#card-figure').name === 'level'")
    assert _form_shape(page) == _shape_of(12)
    assert page.input_value("#card-edition") == "12"  # (a blank card's Edition Indicator follows the edition)


def _insert_from_palette(page, search: str, component: str) -> None:
    page.fill("#palette-search", search)
    page.click(f"#palette-list .component[data-component='{component}']")


def test_the_palette_inserts_a_component_at_the_cursor_as_a_card_prints_it(page):
    box = page.locator(".ability-text").first
    box.fill("GUARD: Target up to 2 on-field minions; ")
    _insert_from_palette(page, "draw cards", "effect-draw-cards-13")
    want = "GUARD: Target up to 2 on-field minions; draw 1 card."  # (lowercase inside a sentence)
    assert has_value(page, 0, want) == want
    assert page.evaluate("(() => { const b = document.querySelector('.ability-text'); "
                         "return [b.selectionStart, b.selectionEnd]; })()") == [45, 46]  # its x, selected to be typed over
    page.keyboard.type("3")
    assert box.input_value() == "GUARD: Target up to 2 on-field minions; draw 3 card."  # (the engine forgives the form)


def test_the_palette_inserts_the_singular_target_selection_for_x_1(page):
    """The 17th guide: "up to" should be removed where the number is 1 (the server's wording, as migrate writes it)."""
    box = page.locator(".ability-text").first
    box.fill("GUARD: ")
    _insert_from_palette(page, "on-field minions", "target-play-cards-13")
    assert has_value(page, 0, "GUARD: Target 1 on-field minion;") == "GUARD: Target 1 on-field minion;"


def _open_mixed(page) -> None:
    page.set_input_files("#collection-file", str(MIXED))
    page.wait_for_selector("#collection-table tbody tr")


def test_opening_a_collection_lists_its_cards_with_check_cards_verdicts_and_deck(page):
    _open_mixed(page)
    shown = page.evaluate("""() => [...document.querySelectorAll('#collection-table tbody tr')].map((tr) =>
      ({index: Number(tr.dataset.index), status: tr.dataset.status, level: tr.children[4].textContent}))""")
    cli = json.loads(CliRunner().invoke(main, ["check-cards", str(MIXED), "--deck", "--format", "json"]).stdout)
    assert shown == [{"index": c["index"], "status": c["status"], "level": "—" if c["level"] is None else str(c["level"])}
                     for c in cli["cards"]]
    deck = cli["deck"]
    assert page.get_attribute("#deck-verdict", "data-legal") == str(deck["legal"]).lower()
    assert page.locator("#deck li").all_text_contents() == deck["problems"] + deck["notes"]
    page.select_option("#collection-filter", "banned")
    assert page.locator("#collection-table tbody tr").count() == cli["summary"]["banned"]
    page.click("#collection-table button.open-card")  # (the first pruned card: into the form)
    assert page.input_value("#card-name") == cli["cards"][0]["name"]


def test_the_whole_flow_works_by_keyboard_alone_at_390_px(open_workbench):
    page = open_workbench(390, 844)
    keys = page.keyboard

    def tab_to(selector: str, most: int = 60) -> None:
        for _ in range(most):
            keys.press("Tab")
            if page.evaluate(f"document.activeElement === document.querySelector({json.dumps(selector)})"):
                return
        raise AssertionError(f"Tab never reaches {selector}")

    tab_to("#card-name")
    keys.type("Sage")
    tab_to("#card-type")
    keys.press("ArrowDown")  # spell, the 17th's second type
    tab_to(".ability-text")
    keys.type("Drw 2 cards.")
    page.locator("#reasons .suggestion").first.wait_for()
    tab_to("#reasons .suggestion")
    keys.press("Enter")  # the suggestion, chosen: the text fixed, its number selected
    assert has_value(page, 0, "Draw 2 cards.") == "Draw 2 cards."
    keys.press("Enter")  # Enter in a box: the next paragraph, in a box of its own
    assert page.locator(".ability-text").count() == 2
    tab_to("#palette-search")
    keys.type("draw cards")
    tab_to("#palette-list .component")
    keys.press("Enter")  # inserted where the cursor was: the new box
    assert has_value(page, 1, "Draw 1 card.") == "Draw 1 card."
    tab_to(".ability .remove:not(:disabled)", 80)
    with page.expect_file_chooser() as chooser:
        tab_to("#collection-file", 120)
        keys.press("Space")
    chooser.value.set_files(str(MIXED))
    page.wait_for_selector("#collection-table tbody tr")
    tab_to("#collection-table button.open-card", 40)
    keys.press("Enter")
    assert page.input_value("#card-name") == "Frenzied Berserker"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page is wider than a phone"


def test_abilities_are_added_reordered_and_removed_and_the_text_follows(page):
    page.fill("#card-name", "Twice")
    page.select_option("#card-type", "minion")
    page.fill("#card-stat-sp", "1")
    page.fill("#card-stat-hp", "2")
    page.locator(".ability-text").first.fill("FIRST: Draw 1 card.")
    page.click("#add-ability")
    page.locator(".ability-text").nth(1).fill("SECOND: Draw 2 cards.")
    page.locator(".ability .move-down").first.click()
    assert _boxes(page) == ["SECOND: Draw 2 cards.", "FIRST: Draw 1 card."]
    page.wait_for_function("() => [...document.querySelectorAll('#breakdown-table th')].map((t) => t.textContent)"
                           ".includes('Ability 1: SECOND (paragraph 1)')")
    page.locator(".ability .remove").first.click()
    assert _boxes(page) == ["FIRST: Draw 1 card."]


def _boxes(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('.ability-text')].map((b) => b.value)")


def test_a_late_answer_to_an_older_check_does_not_overwrite_a_newer_one(page):
    """Two edits far enough apart make two checks of the collection; the first one's answer held back
    until after the second's is shown (as a loaded server may answer), the list shows the second's verdicts."""
    _open_mixed(page)
    # the first check is sent to the server only once released, and says when the page has read its answer
    page.evaluate("""() => {
      const real = window.fetch;
      let checks = 0, release;
      const released = new Promise((done) => { release = done; });
      window.held = {sent: false, read: false, release: () => release()};
      window.fetch = (url, options) => !(String(url).endsWith("/api/check") && checks++ === 0) ? real(url, options)
        : (held.sent = true, released.then(() => real(url, options)).then((answer) => {
            const json = answer.json.bind(answer);
            answer.json = () => json().then((body) => { held.read = true; return body; });
            return answer;
          }));
    }""")
    page.click("#collection-table tr[data-index='8'] button.open-card")
    page.fill("#card-edition", "17")  # a check of the card with the 17th's Edition Indicator, its level still 3
    page.wait_for_function("() => document.body.dataset.judged !== undefined")
    page.wait_for_function("() => held.sent")  # (past the form's and the list's debounce: that check is on its way, held)
    page.fill("#card-figure", "6")  # the second check: legal
    page.wait_for_selector("#collection-table tr[data-index='8'][data-status='legal']")
    page.evaluate("() => held.release()")
    page.wait_for_function("() => held.read")  # (the first check's answer has come, and been read: the page is done with it)
    assert page.get_attribute("#collection-table tr[data-index='8']", "data-status") == "legal"


def test_a_collections_card_edited_in_the_form_is_judged_again_and_downloaded(page, tmp_path):
    _open_mixed(page)
    page.click("#collection-table tr[data-index='8'] button.open-card")  # Peek, pruned: its level was revised
    # numbered from 1, as the list and check-cards number it ("[9] Peek (pruned: cost-revised)")
    assert page.text_content("#editing-what") == "Editing card [9] of mixed-collection.yaml"
    page.fill("#card-edition", "17")
    page.fill("#card-figure", "6")  # re-issued by hand: the 17th's Edition Indicator and level
    page.wait_for_selector("#collection-table tr[data-index='8'][data-status='legal']")
    assert page.locator("#collection-table tr.edited").count() == 1
    with page.expect_download() as download:
        page.click("#collection-download")
    saved = tmp_path / "mixed.yaml"
    download.value.save_as(saved)
    old, new = MIXED.read_text().splitlines(), saved.read_text().splitlines()
    assert [(a, b) for a, b in zip(old, new) if a != b] == [("    edition: 15", "    edition: 17"), ("    level: 3", "    level: 6")]
    cli = json.loads(CliRunner().invoke(main, ["check-cards", str(saved), "--format", "json"]).stdout)
    assert cli["cards"][8]["status"] == "legal"


def test_a_card_whose_printed_level_alone_is_wrong_is_invalid_in_the_list_and_its_count(page):
    # Peek given the 17th's Edition Indicator but still its old level 3 (the 17th's formulas give 6): no
    # list of the 17th rulebook prunes it, its word is "invalid" (check-cards says so too)
    _open_mixed(page)
    page.click("#collection-table tr[data-index='8'] button.open-card")
    page.fill("#card-edition", "17")
    page.wait_for_selector("#collection-table tr[data-index='8'][data-status='banned'] td.status-banned:text-is('invalid')")
    assert "10 legal, 4 pruned, 1 invalid (1 edited)" in page.text_content("#collection-status")
    assert page.locator("#collection-filter option[value='banned']").text_content() == "pruned or invalid (5)"


def test_tutorial_text_is_written_in_italics_and_a_cards_own_is_kept(page, tmp_path):
    """The 12th-17th guides: tutorial text "must be in parentheses and should be rendered in italics" —
    the box's text is written *(…)*; a card's own tutorial text keeps its form when another paragraph is edited."""
    page.fill("#card-name", "Sage")
    page.select_option("#card-type", "spell")
    page.locator(".ability-text").first.fill("Draw 1 card.")
    page.locator(".ability-tutorial").first.fill("Draw: take the top card.")
    page.locator("#verdict .notes", has_text='"*(Draw: take the top card.)*" is tutorial text').wait_for()
    assert page.locator("#warnings").count() == 0  # (no "should be rendered in italics")
    given = tmp_path / "sages.yaml"
    given.write_text("cards:\n  - name: Sage\n    type: spell\n    edition: 17\n"
                     "    text: \"Draw 1 card. _(Draw: take it.)_\\nDraw 1 card. (Plain.)\\nDraw 2 cards.\"\n")
    page.set_input_files("#collection-file", str(given))
    page.click("#collection-table button.open-card")
    page.locator(".ability-text").nth(2).fill("Draw 3 cards.")
    page.wait_for_selector("#collection-table tr.edited")
    with page.expect_download() as download:
        page.click("#collection-download")
    saved = tmp_path / "saved.yaml"
    download.value.save_as(saved)
    assert saved.read_text() == given.read_text().replace("Draw 2 cards.", "Draw 3 cards.")


def test_switching_editions_drops_the_fields_the_new_form_cannot_show(page):
    """A printed resource cost typed in the 6th, offense and defense, are no fields of the 12th's form: kept,
    the card could not be read ("the 12th edition's cards print a level, not a cost") and the form could not clear them."""
    page.select_option("#edition", "6")
    page.wait_for_function("() => document.querySelector('#card-figure').name === 'cost'")
    page.fill("#card-name", "Sage")
    page.select_option("#card-type", "creature")
    page.fill("#card-stat-offense", "1")
    page.fill("#card-stat-defense", "2")
    page.fill("#card-figure", "4")
    page.locator(".ability-text").first.fill("Draw 1 card.")
    page.wait_for_function("() => document.querySelector('#figure-value').dataset.value !== ''")
    page.select_option("#edition", "12")
    page.wait_for_function("() => document.querySelector('#card-figure').name === 'level'")
    page.select_option("#card-type", "spell")
    cost = cli_cost("-e", "12", "--name", "Sage", "--type", "spell", "--edition-indicator", "12", "--text", "Draw 1 card.")
    settled(page, str(cost["level"]))
    assert page.get_attribute("#status", "data-status") == cost["status"] == "legal"


def test_the_palette_inserts_an_activation_cost_after_a_condition_in_lowercase(page):
    """The 12th-17th guides capitalize an activation cost only where it "does not follow any activation
    condition or any other activation cost within the ability": after a condition, as the guide lists it."""
    box = page.locator(".ability-text").first
    box.fill("RALLY: When this card is summoned (ghost-play): ")
    _insert_from_palette(page, "exhaust resources", "cost-self-exhaust-resources-13")
    want = "RALLY: When this card is summoned (ghost-play): self-exhaust 1 resource→"
    assert has_value(page, 0, want) == want
    box.fill("RALLY: ")
    _insert_from_palette(page, "exhaust resources", "cost-self-exhaust-resources-13")
    assert has_value(page, 0, "RALLY: Self-exhaust 1 resource→") == "RALLY: Self-exhaust 1 resource→"  # (opening it)


def _downloaded_changes(page, tmp_path) -> list:
    with page.expect_download() as download:
        page.click("#collection-download")
    saved = tmp_path / "saved.yaml"
    download.value.save_as(saved)
    return [(a, b) for a, b in zip(MIXED.read_text().splitlines(), saved.read_text().splitlines()) if a != b]


def test_an_edited_card_opened_again_keeps_its_edits(page, tmp_path):
    _open_mixed(page)
    page.click("#collection-table tr[data-index='1'] button.open-card")
    page.fill("#card-name", "Ravager II")
    page.wait_for_selector("#collection-table tr[data-index='1'].edited")
    page.click("#collection-table tr[data-index='4'] button.open-card")
    page.click("#collection-table tr[data-index='1'] button.open-card")  # (the form shows it as edited)
    assert page.input_value("#card-name") == "Ravager II"
    assert _downloaded_changes(page, tmp_path) == [("  - name: Ravager", "  - name: Ravager II")]


def test_an_edit_made_just_before_another_card_is_opened_or_the_download_is_kept(page, tmp_path):
    _open_mixed(page)
    page.click("#collection-table tr[data-index='1'] button.open-card")
    page.fill("#card-name", "Ravager II")
    page.click("#collection-table tr[data-index='4'] button.open-card")  # (at once: before the page judged the edit)
    page.fill("#card-name", "Field Marshal II")
    assert _downloaded_changes(page, tmp_path) == [("  - name: Ravager", "  - name: Ravager II"),
                                                   ("  - name: Field Marshal", "  - name: Field Marshal II")]


def test_a_field_the_form_has_no_input_for_can_be_taken_off_the_card(page, tmp_path):
    """The 11th's Ravager opened in the 17th's form: its offense and defense, no stats of a 17th minion, are
    shown by no input; the reason naming each offers to take it off (null, as a cleared field)."""
    _open_mixed(page)
    page.click("#collection-table tr[data-index='1'] button.open-card")
    page.fill("#card-edition", "17")
    page.locator("#reasons button.clear-field", has_text="Take offense off the card").click()
    page.locator("#reasons button.clear-field", has_text="Take defense off the card").click()
    page.wait_for_function("() => !document.querySelector('#reasons button.clear-field')"
                           " && !document.querySelector('#reasons .field-name')?.textContent.includes('offense')")
    assert page.locator("#reasons button.clear-field").count() == 0
    assert _downloaded_changes(page, tmp_path) == [  # (null as ruamel.yaml writes it: "key:")
        ("    edition: 11", "    edition: 17"), ("    offense: 3", "    offense:"), ("    defense: 10", "    defense:")]


def test_a_deck_of_an_edition_whose_rulebook_no_source_gives_is_of_unknown_legality(page, tmp_path):
    """As check-cards --deck says it ("legality unknown"), not "not legal": no source gives the 8th rulebook."""
    given = tmp_path / "eighth.yaml"
    given.write_text('- {name: Marker, type: spell, cost: 4, text: "Target up to 2 cards in play. Place 1 counter on each target."}\n')
    page.select_option("#edition", "8")
    page.wait_for_function("() => document.querySelector('#card-figure').name === 'cost'")
    page.set_input_files("#collection-file", str(given))
    page.wait_for_selector("#deck-verdict")
    assert page.text_content("#deck-verdict") == "As a deck: 1 card — legality unknown"
    assert "status-unknown" in page.get_attribute("#deck-verdict", "class")


def test_a_card_of_one_collection_edited_after_another_is_opened_changes_none_of_the_other(page, tmp_path):
    other = tmp_path / "other.jsonl"
    other.write_text('{"name": "Sage", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."}\n'
                     '{"name": "B", "type": "spell", "edition": 17, "level": 4, "text": "Draw 2 cards."}\n')
    _open_mixed(page)
    page.click("#collection-table tr[data-index='1'] button.open-card")  # Ravager, in the form
    page.set_input_files("#collection-file", str(other))
    page.wait_for_selector("#collection-table tr[data-index='1'] button.open-card:text-is('B')")
    assert page.is_hidden("#editing")
    page.fill("#card-name", "Ravager II")  # (no card of other.jsonl)
    with page.expect_download() as download:
        page.click("#collection-download")
    saved = tmp_path / "saved.jsonl"
    download.value.save_as(saved)
    assert saved.read_text() == other.read_text()
