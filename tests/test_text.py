"""The component-text language: rendering with agreement, reading back, skeletons."""

import pytest

from kotc_rulesc.text import TemplateError, normalize, skeleton
from kotc_rulesc.text import parse_template as parse_with

#: the agreeing words of the 1st edition's system (rules/edition-01.yaml, system.agreement)
NOUNS = {"cards": "card", "dice": "die", "counters": "counter", "hitpoints": "hitpoint", "times": "time",
         "creatures": "creature", "resources": "resource", "targets": "target"}
VERBS = {"are": "is"}
#: the words that end what a variable counts (system.agreement.stops), and the qualifying phrases of
#: the 11th on (system.agreement.qualifiers)
STOPS = ("the", "of", "to", "by", "and", "from", "on", "in", "at", "for", "with", "as")
QUALIFIERS = ("level [n] or lower", "level [n]")


def parse_template(text):
    return parse_with(text, NOUNS, VERBS, (), STOPS)


@pytest.mark.parametrize(
    "template, values, sentence",
    [
        ("Draw [x] cards.", {"x": 1}, "Draw 1 card."),
        ("Draw [x] cards.", {"x": 2}, "Draw 2 cards."),
        ("Roll [x] six-sided dice and increase your hitpoints by the result.", {"x": 1},
         "Roll 1 six-sided die and increase your hitpoints by the result."),
        ("Activate when at least [x] of your cards in play (excluding this card) are destroyed.", {"x": 1},
         "Activate when at least 1 of your cards in play (excluding this card) is destroyed."),
        ("Activate when at least [x] cards in your hand are destroyed.", {"x": 1},
         "Activate when at least 1 card in your hand is destroyed."),
        ("You may re-roll up to [x] dice for the rest of this turn up to [y] times each.", {"x": 1, "y": 1},
         "You may re-roll up to 1 die for the rest of this turn up to 1 time each."),
        ("You must sacrifice [x] cards in play to summon this creature.", {"x": 1},
         "You must sacrifice 1 card in play to summon this creature."),
        ("Exhaust [x] of your resources.", {"x": 1}, "Exhaust 1 of your resources."),
        ("Target up to [x] cards in play with at least [y] counters.", {"x": 1, "y": 1},
         "Target up to 1 card in play with at least 1 counter."),
        ("Place [x] offense counters on each target; you can remove an offense counter from a card at any time"
         " to increase its offense by 1.", {"x": 1},
         "Place 1 offense counter on each target; you can remove an offense counter from a card at any time"
         " to increase its offense by 1."),
        ("You must pay [x] hitpoints to summon this creature.", {"x": 1}, "You must pay 1 hitpoint to summon this creature."),
        ("Activate when you take at least [x] damage.", {"x": 1}, "Activate when you take at least 1 damage."),
    ],
)
def test_render_and_read_back(template, values, sentence):
    t = parse_template(template)
    assert str(t) == template
    assert t.render(values) == sentence
    m = t.match(sentence)
    assert m is not None and m.values == values and not m.disagreements and not m.conflicts
    assert skeleton(sentence) in t.skeletons() and t.skeleton in t.skeletons()


def test_wrong_plural_is_forgiven_with_a_note():
    m = parse_template("Draw [x] cards.").match("Draw 1 cards.")
    assert m.values == {"x": 1}
    assert m.disagreements == ("'cards' should be 'card' for x = 1",)


def test_typographic_quotes_and_spacing_are_forgiven():
    t = parse_template("Activate in response to an opponent's summon.")
    assert t.match("Activate  in response to an opponent\u2019s summon .") is not None


def test_a_different_word_is_never_forgiven():
    assert parse_template("Draw [x] cards.").match("Draw 2 cards now.") is None
    assert parse_template("Draw [x] cards.").match("Drew 2 cards.") is None


def test_repeated_variable_must_agree():
    t = parse_template("Roll [x] six-sided dice and inflict the result as damage to yourself, then roll [x] six-sided dice.")
    m = t.match("Roll 2 six-sided dice and inflict the result as damage to yourself, then roll 3 six-sided dice.")
    assert m.conflicts == ("x is 2 in one place and 3 in another",)


@pytest.mark.parametrize("text, column", [("Draw [w] cards.", 6), ("Draw [x cards.", 6), (" Draw", 1), ("", 1)])
def test_template_errors(text, column):
    with pytest.raises(TemplateError) as info:
        parse_template(text)
    assert info.value.column == column


def test_normalize():
    assert normalize("  \u201cHi\u201d  there ,  you\u2019re (  here ) .") == "\"Hi\" there, you're (here)."


def test_which_words_agree_is_the_systems_data():
    """Without agreeing words nothing agrees; the words are the system's, not the module's."""
    plain = parse_with("Draw [x] cards.")
    assert plain.render({"x": 1}) == "Draw 1 cards." and plain.skeletons() == ("Draw # cards.",)
    minions = parse_with("self-exhaust [x] minions→", {"minions": "minion"})
    assert minions.render({"x": 1}) == "self-exhaust 1 minion→"
    assert set(minions.skeletons()) == {"self-exhaust # minions→", "self-exhaust # minion→"}


def test_the_bundled_systems_declare_the_words_their_texts_agree_with(rules):
    from kotc_rulesc.fold import fold

    eleventh, twelfth = fold(rules, 11).system, fold(rules, 12).system
    assert dict(eleventh.plurals)["Counters"] == "Counter" and "minions" not in dict(eleventh.plurals)
    assert dict(twelfth.plurals)["minions"] == "minion" and dict(twelfth.verbs) == {"are": "is"}
    draw = next(c for c in fold(rules, 12).components if c.id == "effect-place-sword-counters-target")
    assert draw.text.render({"x": 1}) == "place 1 Sword Counter on each target."


def test_a_qualifying_variable_leaves_the_noun_to_the_one_that_counts():
    """"summon [x] level [y] pawns" (the 15th): the pawns are counted by [x]; [y] is their level."""
    t = parse_with("summon [x] level [y] pawns.", {"pawns": "pawn"}, {}, QUALIFIERS, STOPS)
    assert t.render({"x": 1, "y": 3}) == "summon 1 level 3 pawn."
    m = t.match("summon 2 level 1 pawns.")
    assert m.values == {"x": 2, "y": 1} and not m.disagreements


def test_the_noun_a_variable_counts_however_far_after_it():
    """Issue 24, point 7: "Target up to [x] level [y] or lower enemy creatures;" (the 11th) counts its
    creatures with [x], five words on; "[x] other in-play creatures" three; a phrase of the qualifiers
    is passed over, and a variable inside one before which none stands counts nothing."""
    nouns = {"creatures": "creature", "cards": "card", "minions": "minion", "targets": "target"}
    t = parse_with("Target up to [x] level [y] or lower enemy creatures;", nouns, {}, QUALIFIERS, STOPS)
    assert t.render({"x": 1, "y": 3}) == "Target up to 1 level 3 or lower enemy creature;"
    assert t.match("Target up to 1 level 3 or lower enemy creatures;").disagreements == (
        "'creatures' should be 'creature' for x = 1",)
    other = parse_with("Action cost: Self-exhaust [x] other in-play creatures.", nouns, {}, QUALIFIERS, STOPS)
    assert other.render({"x": 1}) == "Action cost: Self-exhaust 1 other in-play creature."
    every = parse_with("Target all level [x] or lower on-field minions;", nouns, {}, QUALIFIERS, STOPS)
    assert every.render({"x": 1}) == "Target all level 1 or lower on-field minions;"


@pytest.mark.parametrize("text, values, sentence", [
    ("Inflict a total of [x] damage to targets.", {"x": 1}, "Inflict a total of 1 damage to targets."),  # "to" ends it
    ("[x]-dice-damage the targets.", {"x": 1}, "1-dice-damage the targets."),  # "the" ends it
    ("Exhaust [x] of your resources.", {"x": 1}, "Exhaust 1 of your resources."),  # partitive: "of"
    ("Roll [x] six-sided dice and increase your hitpoints by the result.", {"x": 1},
     "Roll 1 six-sided die and increase your hitpoints by the result."),  # the first noun only
])
def test_a_stop_word_ends_what_a_variable_counts(text, values, sentence):
    t = parse_with(text, {**NOUNS, "targets": "target"}, VERBS, QUALIFIERS, STOPS)
    assert t.render(values) == sentence


def test_the_singular_for_a_number_other_than_1_is_no_form_of_the_text():
    """Only the singular for 1 is allowed ("You should also change any plurals referring to a variable to
    singular if you choose the number “1”"): "Draw 2 card." is not the component's text."""
    m = parse_template("Draw [x] cards.").match("Draw 2 card.")
    assert m.misnumbered == ("'card' is the form for 1, and x = 2: 'cards'",) and not m.disagreements


def test_a_reading_varies_the_words_a_rule_lets_a_card_print_instead():
    """Template.vary: each place where a variation's words stand becomes a choice of forms (whole words,
    any case, the longest first); render prints the form chosen."""
    t = parse_with("Batch add [x] to the targets' offense.", NOUNS, VERBS, (), STOPS).vary(
        [(0, (("batch add", ("add",)),)),
         (1, (("the targets'", ("the target's", "its")), ("the targets", ("the target", "it"))))])
    m = t.match("Add 2 to its offense.")
    assert m.values == {"x": 2} and dict(m.choices) == {0: 1, 4: 2}
    assert t.render(m.values, dict(m.choices)) == "Add 2 to its offense."
    assert t.render(m.values) == str(t).replace("[x]", "2")  # the component's own words
    removal = parse_template("Target up to [x] cards in play.").vary([(0, (("up to ", ("",)),))])
    assert removal.match("Target 1 card in play.").choices == ((1, 1),)
    assert removal.match("Target 1 cards in play.").disagreements  # and the plural for 1 still noticed
