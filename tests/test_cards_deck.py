"""`check-cards --deck`: a collection judged as one deck, by the rulebook's deck size and Ultra Points."""

from __future__ import annotations

import json
from types import SimpleNamespace

from click.testing import CliRunner

from kotc_rulesc.cards.deck import judge_deck
from kotc_rulesc.cli import main
from kotc_rulesc.model import Range, Rulebook


def run(*args: str):
    return CliRunner().invoke(main, ["check-cards", *args])


def test_the_example_collection_is_too_small_for_a_6th_edition_deck():
    result = run("examples/collection.yaml", "-e", "6", "--deck")
    assert result.exit_code == 1
    assert "deck: 24 cards: NOT LEGAL" in result.output
    assert "24 cards: the 6th edition's rulebook (rulebook-06) asks for at least 40" in result.output
    data = json.loads(run("examples/collection.yaml", "-e", "6", "--deck", "--format", "json").output)
    assert data["deck"]["cards"] == 24 and data["deck"]["legal"] is False and data["deck"]["ultra_limit"] is None


def test_a_deck_of_40_legal_13th_edition_cards_is_legal(tmp_path):
    # the 13th rulebook: "Prior to starting a game of Keeper of the Cards, you must assemble a deck", 40–60 cards
    card = {"name": "Greedy", "type": "minion", "edition": 13, "sp": 2, "hp": 7, "level": 10, "text": "GREED: Draw 2 cards."}
    path = tmp_path / "deck.jsonl"
    path.write_text("\n".join(json.dumps({**card, "name": f"Greedy {i}"}) for i in range(40)) + "\n")
    result = run(str(path), "-e", "13", "--deck")
    assert result.exit_code == 0, result.output
    assert "deck: 40 cards: legal" in result.output
    path.write_text("\n".join(json.dumps({**card, "name": f"Greedy {i}"}) for i in range(61)) + "\n")
    too_many = run(str(path), "-e", "13", "--deck")
    assert too_many.exit_code == 1 and "61 cards: the 13th edition's rulebook (rulebook-13) allows at most 60" in too_many.output


def _judged(ultra_points):
    return [SimpleNamespace(breakdown=None if u is None else {"ultra_points": u}, status="legal", index=i, name=f"Card {i}",
                            reasons=[]) for i, u in enumerate(ultra_points)]


def test_ultra_points_are_summed_and_limited_where_the_rulebook_limits_them():
    # the 17th rulebook: "The total amount of Ultra Points in the deck must be no greater than 10."
    rulebook = Rulebook(edition=17, sources=("rulebook-17",), deck=Range(40, 60), deck_ultra_points=10)
    catalog = SimpleNamespace(edition=17, rulebook=rulebook)
    ok = judge_deck(_judged([2, 3, 5] + [0] * 37), catalog)
    assert ok.legal and ok.ultra_points == 10 and "10 Ultra Points" in ok.text()
    over = judge_deck(_judged([2, 3, 6] + [0] * 37), catalog)
    assert not over.legal and over.problems == ["11 Ultra Points: the 17th edition's rulebook (rulebook-17) allows at most 10 in a deck"]
    unreadable = judge_deck(_judged([2, None] + [0] * 38), catalog)
    assert unreadable.legal and unreadable.ultra_points is None and "could not be computed" in unreadable.notes[0]
    # an edition whose rulebook has no Ultra Points says nothing of them
    earlier = judge_deck(_judged([0] * 40), SimpleNamespace(edition=13, rulebook=Rulebook(edition=13, sources=("rulebook-13",), deck=Range(40, 60))))
    assert earlier.legal and "Ultra" not in earlier.text()


def test_a_pruned_card_of_an_older_catalog_is_not_called_unreadable(tmp_path):
    # a 12th-edition card is pruned by the 13th's clean slate and not read against the 17th's catalog:
    # its Ultra Points are not known, but it is no unreadable card (its verdict is "pruned")
    card = {"name": "Greedy", "type": "minion", "edition": 17, "sp": 2, "hp": 7, "level": 8, "text": "GREED: Draw 1 card."}
    path = tmp_path / "deck.jsonl"
    path.write_text("\n".join(json.dumps({**card, "name": f"Greedy {i}", "edition": 12 if i == 0 else 17}) for i in range(40)) + "\n")
    result = run(str(path), "--deck")
    assert result.exit_code == 1 and "[1] Greedy 0: pruned" in result.output
    assert "the Ultra Points of 1 card(s) could not be computed (their texts were not read: unreadable, or of a catalog " \
           "a clean slate replaced)" in result.output
    assert "unreadable cards" not in result.output


def test_a_rulebook_that_asks_for_exactly_n_cards_says_exactly():
    # the 9th rulebook: "A deck in Keeper of the Cards must have exactly 40 cards"; the 1st: exactly 50
    rulebook = Rulebook(edition=9, sources=("rulebook-09",), deck=Range(40, 40))
    catalog = SimpleNamespace(edition=9, rulebook=rulebook)
    assert judge_deck(_judged([0] * 24), catalog).problems == ["24 cards: the 9th edition's rulebook (rulebook-09) asks for exactly 40"]
    assert judge_deck(_judged([0] * 41), catalog).problems == ["41 cards: the 9th edition's rulebook (rulebook-09) asks for exactly 40"]
    assert judge_deck(_judged([0] * 40), catalog).legal
    result = run("examples/collection.yaml", "-e", "1", "--deck")
    assert "24 cards: the 1st edition's rulebook (rulebook-01) asks for exactly 50" in result.output


def test_a_deck_of_one_card_says_one_card(tmp_path):
    """The size problem said "1 cards: … asks for at least 40" (the verdict line already said "1 card")."""
    path = tmp_path / "one.yaml"
    path.write_text("- {name: A, type: spell, edition: 17, text: Draw 1 card.}\n")
    result = run(str(path), "--deck")
    assert result.exit_code == 1
    assert "\n    1 card: the 17th edition's rulebook (rulebook-17) asks for at least 40\n" in result.output
