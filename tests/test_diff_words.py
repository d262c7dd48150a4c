"""The word-level diff marks revisions the way the rulebooks do (~~struck~~ old words, **bold** new words)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kotc_rulesc.text import normalize
from kotc_rulesc.wordiff import Run, word_diff

from support.game_documents import seed_rulebook_lists

# The 11th rulebook's Revised Ability Text prints no struck words for this one revision, although
# its old text loses "(excluding the current chain)"; every other revision strikes what it removes.
UNMARKED_IN_THE_11TH = "You may re-roll up to [x] dice for the rest of this turn (excluding the current chain) up to [y] times each."


def marks(md: str) -> list[str]:
    return re.findall(r"~~(.+?)~~|\*\*(.+?)\*\*", md)


@pytest.mark.parametrize(
    "old, new, old_md, new_md",
    [
        (
            "Activate when a card in your hand is destroyed.",
            "Activate when at least 1 card in your hand is destroyed.",
            "Activate when ~~a~~ card in your hand is destroyed.",
            "Activate when **at least 1** card in your hand is destroyed.",
        ),
        (  # the period moves to the end of the added clause, and is bold with it
            "Activate when this card as a resource is destroyed.",
            "Activate when this card as a resource is destroyed by paying this card's resource cost.",
            "Activate when this card as a resource is destroyed.",
            "Activate when this card as a resource is destroyed **by paying this card's resource cost.**",
        ),
        (  # a whole added parenthetical keeps its parentheses unmarked
            "Activate when another of your cards in play is destroyed.",
            "Activate when at least 1 of your cards in play (excluding this card) is destroyed.",
            "Activate when ~~another~~ of your cards in play is destroyed.",
            "Activate when **at least 1** of your cards in play (**excluding this card**) is destroyed.",
        ),
        (
            "Target up to [x] resources.",
            "Target up to [x] of your resources.",
            "Target up to [x] resources.",
            "Target up to [x] **of your** resources.",
        ),
        (  # end punctuation that changed for no added clause is a changed word
            "Draw [x] cards.",
            "Draw [x] cards!",
            "Draw [x] ~~cards.~~",
            "Draw [x] **cards!**",
        ),
        (  # the mirror of the moved period: a removed clause takes it along
            "Draw [x] cards by paying.",
            "Draw [x] cards.",
            "Draw [x] cards ~~by paying.~~",
            "Draw [x] cards.",
        ),
    ],
)
def test_marks(old, new, old_md, new_md):
    d = word_diff(old, new)
    assert (d.old.markdown(), d.new.markdown()) == (old_md, new_md)
    assert d.changed == (old != new)


def test_the_other_renderings_mark_the_same_runs():
    d = word_diff("Activate when a card in your hand is destroyed.", "Activate when at least 1 card in your hand is destroyed.")
    assert d.old.html(str) == "Activate when <del>a</del> card in your hand is destroyed."
    assert d.new.html(str) == "Activate when <ins>at least 1</ins> card in your hand is destroyed."
    assert d.old.text() == "Activate when [-a-] card in your hand is destroyed."
    assert d.new.text() == "Activate when {+at least 1+} card in your hand is destroyed."
    assert d.old.marked() == ["a"] and d.new.marked() == ["at least 1"]
    escaped = word_diff("a <b>", "a <i>").new.html(lambda s: s.replace("<", "&lt;").replace(">", "&gt;"))
    assert escaped == "a <ins>&lt;i&gt;</ins>"


def test_every_revision_the_11th_rulebook_marks_is_marked_the_same():
    seed = seed_rulebook_lists("rulebook-11th.txt").revised
    assert len(seed) == 13
    for old, new, old_marked, new_marked in seed:
        d = word_diff(old, new)
        assert normalize(d.new.markdown()) == normalize(new_marked), new
        if old == UNMARKED_IN_THE_11TH:
            assert old_marked == old  # the rulebook's omission …
            assert d.old.marked() == ["excluding the current chain"]  # … which we do not repeat
        else:
            assert normalize(d.old.markdown()) == normalize(old_marked), old


words = st.lists(st.sampled_from(["a", "card", "cards.", "(this", "card)", "at", "least", "[x]", "1", "is", "destroyed."]), max_size=9)


@given(words, words)
def test_each_side_reads_back_unchanged_and_carries_only_its_own_marks(a, b):
    old, new = " ".join(a), " ".join(b)
    d = word_diff(old, new)
    assert str(d.old) == old and str(d.new) == new
    assert {r.mark for r in d.old} <= {"same", "removed"}
    assert {r.mark for r in d.new} <= {"same", "added"}
    assert all(r.text for r in d.old + d.new)
    assert all(r.text == r.text.strip() for r in d.old + d.new if r.mark != "same")
    if old == new:
        assert not d.changed
    # the unmarked words of both sides are the same words, in the same order
    kept = lambda runs: " ".join(r.text for r in runs if r.mark == "same").replace("(", " ").replace(")", " ").split()  # noqa: E731
    assert [w.rstrip(".") for w in kept(d.old)] == [w.rstrip(".") for w in kept(d.new)]


def test_runs_merge_adjacent_words_and_keep_spaces_outside_the_marks():
    d = word_diff("x a b c y", "x y")
    assert list(d.old) == [Run("x ", "same"), Run("a b c", "removed"), Run(" y", "same")]
