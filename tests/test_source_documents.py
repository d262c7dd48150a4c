"""Every edition's catalog reproduces that edition's own documents, entry by entry.

``show --edition N`` (the fold of the rules data) is compared with the Card Building Guide of
edition N as transcribed in ../shared/sources/NN/ (read by kotc_rulesc.documents, the reader
import-edition uses, independently of the rules data): the same components, each with its kind, wording, formula, limits, redaction and the
history notes the guide prints.  The 11th's pre-release (``11-pre``) is compared with the seeds'
11th guide.  The rulebooks' Revised / Redacted / Revised Variable Limits / Revised Costs lists are
compared the same way.

Differences the documents themselves contain are excused here, in one place, each with why.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.formula import parse_formula

from support.game_documents import cost_rule_lines, guide_entries, rulebook_lists, seed_guide_entries, seed_rulebook_lists

#: Wordings the data records as text revisions that no guide notes with "Revised from": the 2nd
#: guide rewords the four counter effects of the 1st ("… on each target. You can remove …" →
#: "… on each target; you can remove …") silently.  Their revisions carry a note in edition-02.yaml.
SILENT_REVISIONS = {
    "effect-place-offense-counters",
    "effect-place-defense-counters",
    "effect-place-weakness-counters",
    "effect-place-damage-counters",
}

#: The 9th and 10th guides drop the "Limit revised (6th Edition)" notes of the six components they
#: strike (redacted in the 9th); the data keeps the limit history.
LIMIT_NOTES_DROPPED_WHEN_STRUCK = range(9, 11)


def show_json(edition) -> dict:
    result = CliRunner().invoke(main, ["show", "--edition", str(edition), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def same_formula(a: str | None, b: str | None) -> bool:
    """Formulas are the same when they agree on every sample ("1/2" is "0.5")."""
    if a is None or b is None:
        return a == b
    fa, fb = parse_formula(a), parse_formula(b)
    for x, y, t in ((1, 1, 1), (2, 3, 5), (7, 2, 3), (4, 9, Fraction(1, 2))):
        env = {"x": Fraction(x), "y": Fraction(y), "z": Fraction(3), "t": Fraction(t), "a": Fraction(2, 7)}
        if fa.evaluate(env) != fb.evaluate(env):
            return False
    return True


def compare_catalog(shown: dict, guide: list, edition, extra_allowed: set[str] = frozenset()) -> list[str]:
    """Every difference between the folded catalog and the guide's list, as readable lines."""
    problems = []
    by_key = {(c["kind"], c["text"]): c for c in shown["components"]}
    seen = set()
    for g in guide:
        c = by_key.get((g.kind, g.text))
        where = f"{edition}: {g.kind} {g.text!r}"
        if c is None:
            problems.append(f"{where}: not in the data")
            continue
        seen.add((g.kind, g.text))
        if not same_formula(c["formula"], g.formula):
            problems.append(f"{where}: formula {c['formula']} in the data, {g.formula} in the guide")
        if c["limits"] != g.limits:
            problems.append(f"{where}: limits {c['limits']} in the data, {g.limits} in the guide")
        struck = getattr(g, "struck", g.redacted is not None)
        if (c["status"] == "redacted") != struck:
            problems.append(f"{where}: status {c['status']} in the data, {'struck' if struck else 'not struck'} in the guide")
        if g.redacted is not None and c["redacted_in"] != g.redacted:
            problems.append(f"{where}: redacted in {c['redacted_in']} in the data, {g.redacted} in the guide")
        noted = [(r["text"], r["edition"]) for r in c["revised_from"]]
        if c["id"] in SILENT_REVISIONS:
            noted = [n for n in noted if n in g.revised_from]
        if noted != g.revised_from:
            problems.append(f"{where}: revised from {noted} in the data, {g.revised_from} in the guide")
        costs = [(r["edition"], r["was"]) for r in c["cost_revised"]]
        if len(costs) != len(g.cost_revised) or not all(
            e1 == e2 and same_formula(w1, w2) for (e1, w1), (e2, w2) in zip(costs, g.cost_revised)
        ):
            problems.append(f"{where}: cost revised {costs} in the data, {g.cost_revised} in the guide")
        limit_notes = getattr(g, "limit_revised", None)
        if limit_notes is not None and not (struck and edition in LIMIT_NOTES_DROPPED_WHEN_STRUCK):
            data_limits = [r["edition"] for r in c["limits_revised"]]
            if data_limits != [e for e, _ in limit_notes]:
                problems.append(f"{where}: limits revised in {data_limits} in the data, {limit_notes} in the guide")
    for c in shown["components"]:
        if (c["kind"], c["text"]) not in seen and c["text"] not in extra_allowed:
            problems.append(f"{edition}: {c['kind']} {c['text']!r} is in the data but not in the guide")
    return problems


@pytest.mark.parametrize("edition", range(1, 11))
def test_show_reproduces_the_editions_own_guide(edition):
    guide = guide_entries(edition)
    assert guide, f"no components read from the {edition} guide"
    assert compare_catalog(show_json(edition), guide, edition) == []


@pytest.mark.parametrize("edition", range(1, 11))
def test_the_card_cost_rule_is_the_editions_own_guides(edition):
    """Each guide states the card-cost rule in Python syntax; the data states it as formulas."""
    rule = show_json(edition)["card_cost"]
    lines = {line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip() for line in cost_rule_lines(edition)}
    assert set(lines) == {"total_relief", "ability_cost", "creature_cost", "spell_cost"}
    for name, python in lines.items():
        guide = python.replace("math.ceil", "ceil").replace("(defense / 5)", "defense/5").replace(" ", "")
        assert rule[name].replace(" ", "") == guide, (edition, name)
    # the 1st caps the total relief at 20 and has no caveats; the 2nd drops the cap
    if edition == 1:
        assert rule["total_relief"].startswith("min(20")


def test_11_pre_reproduces_the_seeds_11th_guide():
    shown = show_json("11-pre")
    guide = seed_guide_entries()
    assert len(guide) == 108
    # the seeds' 11th guide leaves out the re-roll effect its rulebook's Redacted list names; the
    # 7th-10th guides print it struck, (xy), Redacted (7th Edition) — a recorded disagreement
    reroll = "You may re-roll up to [x] dice in the current chain up to [y] times each."
    assert compare_catalog(shown, guide, "11-pre", extra_allowed={reroll}) == []
    extra = next(c for c in shown["components"] if c["text"] == reroll)
    assert (extra["formula"], extra["status"], extra["redacted_in"]) == ("xy", "redacted", 7)
    assert extra["disagreements"], "the omission is recorded"
    assert shown["pre_release"] is True and shown["follows"] == 10


def test_the_7th_redaction_that_the_8th_lifts_is_recorded_not_resolved():
    """The 7th guide strikes "Activate when this card as a resource is destroyed."; the 8th–10th
    guides print it revised in the 8th and legal.  Each edition's own guide governs it."""
    seventh = {c["text"]: c for c in show_json(7)["components"]}
    old = seventh["Activate when this card as a resource is destroyed."]
    assert (old["status"], old["redacted_in"]) == ("redacted", 7)
    assert any("7th guide" in d["note"] for d in old["disagreements"])
    eighth = {c["id"]: c for c in show_json(8)["components"]}[old["id"]]
    assert eighth["status"] == "legal" and eighth["reinstated"][0]["redacted_in"] == 7
    assert eighth["text"] == "Activate when this card as a resource is destroyed by paying this card's resource cost."
    assert len(eighth["disagreements"]) == 2
    text = CliRunner().invoke(main, ["show", "--edition", "8"]).output
    assert "Redacted (7th), reinstated (8th)" in text and "Documents disagree" in text


def _lists(edition) -> dict:
    shown = show_json(edition)
    lists = shown["rulebook"]
    silent = {r["text"] for c in shown["components"] if c["id"] in SILENT_REVISIONS for r in c["revised_from"]}
    return {
        "revised": sorted((r["old"], r["new"]) for r in lists["revised_text"] if r["old"] not in silent),
        "redacted": sorted(r["text"] for r in lists["redacted"]),
        "limits": sorted((r["text"], r["limit"]) for r in lists["revised_limits"]),
        "costs": sorted((r["text"], r["edition"]) for r in lists["revised_costs"]),
    }


def _quotes(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


#: Editions whose rulebook lists cannot match the edition's fold, and why.
RULEBOOK_EXCUSES = {
    8: "the 8th edition has no rulebook of its own: its rulebook file is the 7th's (a recorded disagreement)",
}


@pytest.mark.parametrize("edition", [n for n in range(2, 11) if n not in RULEBOOK_EXCUSES])
def test_the_rulebooks_lists_match_the_fold(edition):
    doc = rulebook_lists(edition)
    shown = _lists(edition)
    assert shown["redacted"] == sorted(_quotes(t) for t, _ in doc.redacted)
    assert shown["revised"] == sorted((_quotes(o), _quotes(n)) for o, n, *_ in doc.revised)
    if doc.limits:
        assert shown["limits"] == sorted((_quotes(t), lim.replace(" ", "")) for t, lim in doc.limits)
    assert shown["costs"] == sorted((_quotes(t), e) for t, e in doc.costs)


def test_11_pre_matches_the_seeds_11th_rulebook():
    seed = seed_rulebook_lists("rulebook-11th.txt")
    shown = _lists("11-pre")
    assert shown["revised"] == sorted((o, n) for o, n, _, _ in seed.revised)
    assert shown["redacted"] == sorted(t for t, _ in seed.redacted)
    assert shown["costs"] == sorted(seed.costs)
