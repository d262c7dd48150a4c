"""``migrate --jobs N``, deprecated: one process migrates every collection (README, CHANGELOG).

Scripts written for ``--jobs`` keep running for a release: the option is accepted (``-j`` too,
any N it took), says on standard error that it has no effect, and changes nothing else — the
output, the report, the summary and the exit status are those of a run without it, as they were
with workers, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main

RULES = str(Path(__file__).parent / "fixtures" / "migrate" / "rules")

CARDS = [
    {"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards."},
    {"name": "Sprite", "type": "spell", "cost": 3, "text": "Activate when you take damage. Increase your hitpoints by 2."},
    {"name": "Old Guard", "type": "creature", "edition": 4, "cost": 4, "offense": 2, "defense": 10, "text": "This card has no abilities."},
    {"name": "Blood Pact", "type": "spell", "cost": 4, "text": "Pay 2 hitpoints. Increase your hitpoints by 3."},
]
WARNING = ("Warning: --jobs is deprecated and has no effect: migrate runs in one process, fast enough for any "
           "collection (CHANGELOG); it will be removed in the next release.\n")


def collection(tmp_path: Path, fmt: str) -> Path:
    cards = [dict(CARDS[i % 4], name=f"{CARDS[i % 4]['name']} #{i}") for i in range(400 if fmt != "yaml" else 40)]
    path = tmp_path / f"cards.{fmt}"
    if fmt == "jsonl":
        path.write_text("".join(json.dumps(c) + "\n" for c in cards))
    elif fmt == "json":
        path.write_text(json.dumps({"cards": cards}, indent=1))
    else:  # (a mapping in flow style per card: YAML)
        path.write_text("cards:\n" + "".join(f"  - {json.dumps(c)}\n" for c in cards))
    return path


def migrate(src: Path, out: Path, *extra: str):
    report = out.with_suffix(".report.json")
    result = CliRunner().invoke(main, ["migrate", str(src), "--from", "1", "--to", "4", "-o", str(out), "--report",
                                       str(report), "--report-format", "json", "--rules", RULES, *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result, out.read_bytes(), report.read_bytes()


@pytest.mark.parametrize("fmt, jobs", [("jsonl", ["--jobs", "2"]), ("jsonl", ["-j", "0"]), ("jsonl", ["--jobs", "1"]),
                                      ("json", ["--jobs", "2"]), ("yaml", ["-j", "2"])])
def test_jobs_is_accepted_said_to_have_no_effect_and_changes_nothing(tmp_path, fmt, jobs):
    src = collection(tmp_path, fmt)
    plain, output, report = migrate(src, tmp_path / f"plain.{fmt}")
    given, output_with, report_with = migrate(src, tmp_path / f"with-jobs.{fmt}", *jobs)
    assert plain.exit_code == given.exit_code == 1  # (a quarter of the cards stay banned)
    assert output_with == output and report_with == report
    assert given.stderr == WARNING + plain.stderr
    assert json.loads(report)["totals"]["banned"] == json.loads(report)["totals"]["cards"] // 4


def test_jobs_is_not_in_the_help_and_still_takes_only_a_count():
    help_text = CliRunner().invoke(main, ["migrate", "--help"]).stdout
    assert "--jobs" not in help_text and "-j" not in help_text.split()
    refused = CliRunner().invoke(main, ["migrate", "-", "--jobs", "-1", "--rules", RULES])
    assert refused.exit_code == 2 and "--jobs" in refused.stderr
