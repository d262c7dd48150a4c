"""The current edition first in ``cost``, ``check-cards`` and ``migrate --help`` (issue 26).

Each help describes the edition in force — the 17th: minions and spells, ``--sp``/``--hp``, a level,
Ultra Points — and older systems after it; its first example is a card of the current edition and
runs as printed; the examples that name an edition come after those that judge in the current one,
newest first.  What a help says of the current edition is held against the rules' data, so that a
new edition makes these tests say which sentences to update.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import api
from kotc_rulesc.cli import main
from kotc_rulesc.model import edition_number, ordinal

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("cost", "check-cards", "migrate")


def _help(command: str) -> str:
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    return result.output


def _examples(command: str) -> list[list[str]]:
    """The examples of a command's help, each split as a shell splits it (a continued line joined)."""
    block = _help(command).split("Examples:\n", 1)[1].split("\n\n", 1)[0]
    return [shlex.split(line) for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def _edition(args: list[str]) -> str | None:
    for flag in ("-e", "--edition", "--to"):
        if flag in args:
            return args[args.index(flag) + 1]
    return None


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_speaks_of_the_current_edition_first(command):
    text = _help(command)
    current = ordinal(edition_number(api.current()))
    first = text.split("\n\n", 2)[1]  # (the summary, after the usage line)
    assert f"the {current}" in first, first
    # every example that names an edition comes after those of the current one, the newest first
    named = [_edition(args) for args in _examples(command)]
    assert named[0] is None and named == sorted(named, key=lambda e: (e is not None, -edition_number(e or 0)))


def test_the_first_cost_example_is_a_card_of_the_current_edition_and_runs_as_printed():
    args = _examples("cost")[0][1:]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert f"level 6 in the {ordinal(edition_number(api.current()))} edition" in result.output
    assert "--sp" in args and "--hp" in args and args[args.index("--type") + 1] == "minion"
    assert "Ultra Points: 1" in result.output


@pytest.mark.parametrize("command", ["check-cards", "migrate"])
def test_the_first_example_runs_on_the_example_collection(command, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = _examples(command)[0][1:]
    if "-o" in args:
        args[args.index("-o") + 1] = str(tmp_path / "out.yaml")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output  # (the mixed collection holds pruned cards)
    assert "judged in the 17th edition" in result.output or "Migration of examples/mixed-collection.yaml to the 17th" in result.output


def test_flags_and_types_are_described_for_the_edition_in_force_first():
    current = api.system(api.current())
    text = " ".join(_help("cost").split())
    types = " or ".join(t.id for t in current.types)
    assert f"--type TYPE The card type (when no CARD_FILE is given): {types} in the 17th" in text
    stats = " and ".join(f"--{s.name}" for t in current.types for s in t.stats)
    assert f"a minion's stats are {stats}" in text
    assert "(the caveat first)" not in text and "creature or spell (1st–11th)" not in text
    # the rule printed is the current edition's own
    shown = CliRunner().invoke(main, ["show", "-e", str(api.current())]).output
    rule = shown.split("Card-cost rule:\n", 1)[1].split("\n\n", 1)[0]
    printed = [" ".join(line.split()) for line in _help("cost").splitlines() if re.match(r"\s+\w+_cost\s+=", line)]
    assert printed == [" ".join(line.split()) for line in rule.splitlines()]
    assert f"holds at most {current.ultra_points}" in text


def test_migrate_help_is_short():
    """The internals moved to the players' guide; the help says what a player needs."""
    text = _help("migrate")
    doc = text.split("\nOptions:", 1)[0]
    assert len(doc.splitlines()) <= 45
    assert "Refurbished Card Texts" in doc and "--reissue" in doc
