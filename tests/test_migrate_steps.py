"""Migrating in steps (6 → M, then M → N) against at once (6 → N): the decision of issue 15, tested.

The same cards end legal either way, and every card that ends legal reads the same and costs the
same.  Two differences are by design (README, "Migrating in steps"; ``migrate --help``):

* a card re-issued in the first step bears that step's Edition Indicator, M, where the direct run
  gives N.  A card is re-issued only when its cost changes, and its Edition Indicator names the
  edition whose costs its printed cost follows: M's are N's for it, it is legal in N as it is, and
  migrating it again changes nothing;
* a card that does not end legal is kept as it was *in the run's input* — after a first step, with
  that step's rewritten text (and re-issue) — and its marker's ``from`` is the edition that run read
  (its Edition Indicator, or ``--from``), as are the notes.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kotc_rulesc.cards.collection import read_collection
from kotc_rulesc.cards.legality import judge
from kotc_rulesc.migrate.run import Options, run
from kotc_rulesc.model import edition_number

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "collection.yaml"


@pytest.fixture(scope="module")
def view():
    from kotc_rulesc.cards.rules_source import get_view

    return get_view(None)


def migrate(view, src: Path, out: Path, source, target) -> list[dict]:
    run(Options(str(src), target, assume=source, output=str(out)), view, stderr=io.StringIO())
    return [item.card for item in read_collection(out)]


_DONE: dict[tuple, tuple[Path, list[dict]]] = {}


@pytest.fixture(scope="module")
def from_examples(view, tmp_path_factory):
    """The example collection migrated from the 6th to an edition, once per module: (file, cards)."""
    def done(target):
        if target not in _DONE:
            out = tmp_path_factory.mktemp("steps") / "migrated.yaml"
            _DONE[target] = (out, migrate(view, EXAMPLES, out, 6, target))
        return _DONE[target]
    return done


@pytest.mark.parametrize("mid", [8, 9])
@pytest.mark.parametrize("target", ["11-pre", 11])
@pytest.mark.parametrize("second_from", ["6", "mid"])
def test_in_steps_and_at_once(tmp_path, view, from_examples, mid, target, second_from):
    original = [item.card for item in read_collection(EXAMPLES)]
    _, direct = from_examples(target)
    first_file, first = from_examples(mid)
    second = 6 if second_from == "6" else mid  # the --from of the second step
    stepped = migrate(view, first_file, tmp_path / "stepped.yaml", second, target)
    n = edition_number(target)
    moved = 0
    for old, once, step1, twice in zip(original, direct, first, stepped):
        assert ("migration" in once) == ("migration" in twice), old["name"]
        if "migration" not in once:  # legal either way: the same text and cost
            assert (once["text"], once.get("cost"), once.get("level")) == (twice["text"], twice.get("cost"), twice.get("level"))
            if once.get("edition") != twice.get("edition"):
                # re-issued in the first step, and legal in N with that step's Edition Indicator
                assert step1.get("edition") == twice["edition"] == mid != old.get("edition")
                assert once["edition"] == n
                assert judge(twice, target, view).status == "legal"
                moved += 1
        else:
            mark, mark2 = once["migration"], twice["migration"]
            assert (mark["status"], mark["to"]) == (mark2["status"], mark2["to"])
            read = step1.get("edition") or second
            assert mark2.get("from") in (read, mark.get("from"))
    if mid == 9 and target == "11-pre":
        assert moved > 0  # the 9th revised costs: the data has cards that show the difference
    again = migrate(view, tmp_path / "stepped.yaml", tmp_path / "again.yaml", second, target)
    assert again == stepped  # migrating the result again changes nothing
