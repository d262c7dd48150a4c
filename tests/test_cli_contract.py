"""The command line's contract: every exit status the README documents, per command, has a case
here (0 success, 1 problems in the rules or the cards, 2 usage errors and unreadable input, 130
interrupted by ^C, 143 terminated by SIGTERM); every command's --help has examples;
``python -m kotc_rulesc`` is the same command line."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"
DOCUMENTS = Path(__file__).resolve().parent / "fixtures" / "documents"  # made-up pages of a 4th edition after MINI
IMPORT_4 = "import-edition 4 --guide {w}/documents/04/card-building-guide.html --rulebook {w}/documents/04/rulebook.html"

LEGAL = {"cards": [{"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}]}
BANNED = {"cards": [{"name": "Bloodprice", "type": "spell", "edition": 2, "cost": 1, "text": "Pay 15 hitpoints. Draw 3 cards."}]}
NO_INDICATOR = {"cards": [{"name": "Old Insight", "type": "spell", "cost": 8, "text": "Draw 2 cards."}]}
#: legal, with a warning: the plural for 1 ("You should also change any plurals … to singular")
WARNED = {"cards": [{"name": "Glimpse", "type": "spell", "edition": 2, "cost": 2, "text": "Draw 1 cards."}]}


@pytest.fixture(scope="module")
def w(tmp_path_factory) -> Path:
    """A workspace: good rules (ok/), rules with a problem (bad/), collections, output folders."""
    base = tmp_path_factory.mktemp("contract")
    shutil.copytree(MINI, base / "ok")
    shutil.copytree(MINI, base / "bad")
    second = base / "bad" / "edition-02.yaml"
    second.write_text(second.read_text().replace('formula: "2x"', 'formula: "2q"'))
    for name, data in (("legal", LEGAL), ("banned", BANNED), ("no-indicator", NO_INDICATOR), ("warned", WARNED)):
        (base / f"{name}.json").write_text(json.dumps(data))
    (base / "broken.json").write_text('{"cards": [')
    (base / "foreign").mkdir()
    (base / "foreign" / "notes.txt").write_text("not a build")
    shutil.copytree(MINI, base / "odd-rules")  # (a folder, a FIFO or a device named like a rules file: the one listing)
    (base / "odd-rules" / "edition-04.yaml").mkdir()
    os.mkfifo(base / "fifo")
    (base / "other-manifest").mkdir()
    (base / "other-manifest" / "MANIFEST.json").write_text("{}\n")
    (base / "other-manifest" / "precious.txt").write_text("keep\n")
    (base / "linked").mkdir()
    (base / "linked" / "MANIFEST.json").write_text(json.dumps({"generator": "kotc-rulesc 0", "format": 3, "files": []}))
    (base / "linked" / "docs").symlink_to(base / "foreign")
    (base / "export-linked").mkdir()
    (base / "export-linked" / "README.md").symlink_to(base / "foreign" / "notes.txt")
    shutil.copytree(DOCUMENTS, base / "documents")
    shutil.copytree(MINI, base / "importable")  # the mini rules with the 4th's documents declared
    first = base / "importable" / "edition-01.yaml"
    first.write_text(first.read_text().replace("  rulebook: {file: rulebook.txt", '  guide-04: {file: g.html, title: "G"}\n'
                                               '  rulebook-04: {file: r.html, title: "R"}\n  rulebook: {file: rulebook.txt'))
    return base


#: (command, exit status, what the case is, its arguments; {w} is the workspace)
CASES = [
    ("check", 0, "clean rules", "check --rules {w}/ok"),
    ("check", 1, "a problem in the rules", "check --rules {w}/bad"),
    ("check", 2, "no such rules directory", "check --rules {w}/missing"),
    ("check", 2, "no rules files in the directory", "check --rules {w}/foreign"),
    ("check", 2, "a FIFO, a device or a folder named like a rules file", "check --rules {w}/odd-rules"),
    ("editions", 0, "listed", "editions --rules {w}/ok"),
    ("editions", 1, "a problem in the rules", "editions --rules {w}/bad"),
    ("editions", 2, "no such rules directory", "editions --rules {w}/missing"),
    ("show", 0, "shown", "show -e 2 --rules {w}/ok"),
    ("show", 1, "a problem in the rules", "show -e 2 --rules {w}/bad"),
    ("show", 2, "an edition the rules do not know", "show -e 9 --rules {w}/ok"),
    ("show", 2, "no such rules directory", "show -e 2 --rules {w}/missing"),
    ("show", 2, "a folder named like a rules file", "show -e 2 --rules {w}/odd-rules"),
    ("schema", 0, "written out", "schema collection"),
    ("schema", 2, "no such schema", "schema cards"),
    ("schema", 2, "a file that cannot be written", "schema edition -o {w}/missing/edition.schema.json"),
    ("schema", 2, "an output that is a rules file", "schema edition -o {w}/ok/edition-01.yaml"),
    ("schema", 2, "an output that is a directory, a FIFO or a device", "schema edition -o {w}/fifo"),
    ("diff", 0, "compared", "diff 1 3 --rules {w}/ok"),
    ("diff", 1, "a problem in the rules", "diff 1 3 --rules {w}/bad"),
    ("diff", 2, "A after B", "diff 3 1 --rules {w}/ok"),
    ("diff", 2, "A after B across a pre-release", "diff 11-pre 10"),
    ("diff", 2, "no such rules directory", "diff 1 3 --rules {w}/missing"),
    ("check-cards", 0, "every card legal", "check-cards {w}/legal.json -e 2 --rules {w}/ok"),
    ("check-cards", 0, "a card with a warning", "check-cards {w}/warned.json -e 2 --rules {w}/ok"),
    ("check-cards", 1, "a banned card", "check-cards {w}/banned.json -e 3 --rules {w}/ok"),
    ("check-cards", 1, "a card with a warning, --strict", "check-cards {w}/warned.json -e 2 --strict --rules {w}/ok"),
    ("check-cards", 1, "a problem in the rules", "check-cards {w}/legal.json -e 2 --rules {w}/bad"),
    ("check-cards", 2, "a collection that does not parse", "check-cards {w}/broken.json -e 2 --rules {w}/ok"),
    ("check-cards", 2, "no such collection", "check-cards {w}/nothing.json -e 2 --rules {w}/ok"),
    ("check-cards", 2, "no such rules directory", "check-cards {w}/legal.json --rules {w}/missing"),
    ("check-cards", 2, "a folder named like a rules file", "check-cards {w}/legal.json -e 2 --rules {w}/odd-rules"),
    ("cost", 0, "costed", "cost -e 2 --type spell --text 'Draw 2 cards.' --rules {w}/ok"),
    ("cost", 1, "a card that cannot be costed", "cost -e 2 --type spell --text 'Fly to the moon.' --rules {w}/ok"),
    ("cost", 1, "a card with a warning, --strict", "cost -e 2 --type spell --text 'Draw 1 cards.' --strict --rules {w}/ok"),
    ("cost", 2, "--text without --type", "cost -e 2 --text 'Draw 2 cards.' --rules {w}/ok"),
    ("cost", 2, "--text without --type, bundled rules", "cost -e 11 --text 'Draw 1 card.'"),
    ("cost", 2, "a CARD_FILE that does not parse", "cost {w}/broken.json -e 2 --rules {w}/ok"),
    ("migrate", 0, "every card ends legal", "migrate {w}/legal.json --to 3 -o {w}/out-legal.json --rules {w}/ok"),
    ("migrate", 1, "a card stays banned", "migrate {w}/banned.json --to 3 -o {w}/out-banned.json --rules {w}/ok"),
    ("migrate", 1, "a card written in the prescribed form, --strict",
     "migrate {w}/warned.json --to 3 -o {w}/out-warned.json --strict --rules {w}/ok"),
    ("migrate", 1, "a problem in the rules", "migrate {w}/legal.json --to 3 -o {w}/out-bad.json --rules {w}/bad"),
    ("migrate", 2, "no --from for a card without Edition Indicator",
     "migrate {w}/no-indicator.json --to 3 -o {w}/out-none.json --rules {w}/ok"),
    ("migrate", 2, "a collection that does not parse", "migrate {w}/broken.json --to 3 -o {w}/out-broken.json --rules {w}/ok"),
    ("migrate", 2, "an output that is a rules file", "migrate {w}/legal.json --to 3 -o {w}/ok/edition-02.yaml --rules {w}/ok"),
    ("new-edition", 0, "the next edition", "new-edition 4 --rules {w}/scaffold"),
    ("new-edition", 1, "a problem in the rules", "new-edition 4 --rules {w}/bad"),
    ("new-edition", 2, "not the next edition", "new-edition 6 --rules {w}/ok"),
    ("new-edition", 2, "an existing file without --force", "new-edition 3 --rules {w}/ok"),
    ("new-edition", 2, "a FIFO, a device or a folder where its file goes", "new-edition 4 --force --rules {w}/odd-rules"),
    ("import-edition", 0, "drafted", IMPORT_4 + " --rules {w}/importable"),
    ("import-edition", 1, "drafted over the mini rules, which do not declare the 4th's documents", IMPORT_4 + " --rules {w}/undeclared"),
    ("import-edition", 1, "a problem in the rules", IMPORT_4 + " --rules {w}/bad"),
    ("import-edition", 2, "a page of another edition",
     "import-edition 4 --guide {w}/documents/03/card-building-guide.html --rulebook {w}/documents/04/rulebook.html --rules {w}/bad-edition"),
    ("import-edition", 2, "no such page", "import-edition 4 --guide {w}/documents/nothing.html --rulebook {w}/documents/04/rulebook.html --rules {w}/importable"),
    ("import-edition", 2, "a report that is a rules file", IMPORT_4 + " --rules {w}/importable --report {w}/ok/edition-01.yaml"),
    ("build", 0, "built", "build --rules {w}/ok --out {w}/built"),
    ("build", 1, "drift with --check", "build --check --rules {w}/ok --out {w}/never-built"),
    ("build", 1, "a problem in the rules", "build --rules {w}/bad --out {w}/built-bad"),
    ("build", 2, "an output folder that is not a build", "build --rules {w}/ok --out {w}/foreign"),
    ("build", 2, "no such rules directory", "build --rules {w}/missing --out {w}/built-missing"),
    ("build", 2, "a MANIFEST.json another tool wrote", "build --rules {w}/ok --out {w}/other-manifest"),
    ("build", 2, "a link inside the output folder", "build --rules {w}/ok --out {w}/linked"),
    ("rules", 0, "exported", "rules export {w}/exported"),
    ("rules", 2, "files of the same names there", "rules export {w}/ok"),
    ("rules", 2, "a link inside the folder", "rules export {w}/export-linked --force"),
    ("docs", 0, "where the docs are", "docs"),
    # (a VAR=value before the command is set in the environment: webbrowser reads BROWSER)
    ("docs", 2, "no browser can be opened", "BROWSER=/nonexistent/browser docs --open"),
    ("workbench", 0, "--check: it serves its page and judges a card", "workbench --check"),
    ("workbench", 1, "a problem in the rules", "workbench --check --rules {w}/bad"),
    ("workbench", 2, "a collection that does not parse", "workbench {w}/broken.json --check"),
    ("workbench", 2, "no such collection", "workbench {w}/nothing.json --check"),
]


def _args(template: str, w: Path) -> list[str]:
    import shlex

    return shlex.split(template.format(w=w))


@pytest.mark.parametrize("command, code, case, template", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_exit_status(w, command, code, case, template, monkeypatch):
    if command == "new-edition" and "scaffold" in template and not (w / "scaffold").exists():
        shutil.copytree(MINI, w / "scaffold")
    for name in ("bad-edition", "undeclared"):  # import-edition writes into these: a copy of its own
        if name in template and not (w / name).exists():
            shutil.copytree(MINI, w / name)
    args = _args(template, w)
    while "=" in args[0]:
        import webbrowser

        name, _, value = args.pop(0).partition("=")
        monkeypatch.setenv(name, value)
        monkeypatch.setattr(webbrowser, "_tryorder", None)  # (the browsers it found before: found again)
    assert args[0] == command
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == code, f"{case}: {result.output}"


#: a command stopped by a signal as its work begins: its own callback sends the signal, so that it
#: comes after start-up however slow the machine (^C is restored where the tests run in a background
#: job, which starts its commands with SIGINT ignored); run through the console script's entry
_INTERRUPTED = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from kotc_rulesc import cli
command = cli.main.get_command(None, sys.argv[1])
work = command.callback
def interrupted(*args, **kwargs):
    os.kill(os.getpid(), %d)
    return work(*args, **kwargs)
command.callback = interrupted
sys.argv[0] = "kotc-rulesc"
cli.run()
"""


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_interrupted_command_exits_130_or_143(w, command, sig, code):
    """Was (issue 27, case 11): ^C printed click's "Aborted!" and exited 1, the status of problems
    found, so that a script could not tell an interrupted run from a finished one."""
    template = next(t for c, status, _, t in CASES if c == command and status == 0)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED % sig, *_args(template, w)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert (done.returncode, done.stderr) == (code, "\nInterrupted.\n")


def _readme_exit_table() -> dict[str, set[int]]:
    """The exit-status table (docs/input-policy.md): command → the statuses it documents (a '—' cell:
    none; the last column, 130 / 143, both)."""
    from support.docs_pages import page

    text = page("input-policy")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    table: dict[str, set[int]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        codes = {code for code, cell in zip((0, 1, 2), cells[1:]) if cell not in ("—", "")}
        codes |= {130, 143} if cells[4] not in ("—", "") else set()
        for name in re.findall(r"`([a-z-]+)`", cells[0]):
            table[name] = codes
    return table


def test_the_cases_are_exactly_the_statuses_the_readme_documents():
    documented = _readme_exit_table()
    assert set(documented) == set(COMMANDS), "every command has a row in the exit-status table"
    tested: dict[str, set[int]] = {command: {130, 143} for command in COMMANDS}  # (interrupted, above)
    for command, code, _, _ in CASES:
        tested[command].add(code)
    assert tested == documented


# --------------------------------------------------------------------------- --help


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_help_has_examples_of_itself(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert re.search(r"^\s*Examples?:\s*$", result.output, re.MULTILINE), f"{name} --help has no examples"
    examples = result.output.split("Example", 1)[1]
    assert re.search(rf"^\s+kotc-rulesc {re.escape(name)}\b", examples, re.MULTILINE), examples
    words = " ".join(result.output.split())
    assert "Exit status" in words or "exit 0" in words, f"{name} --help says no exit status"


def test_python_dash_m_kotc_rulesc_is_the_command_line():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "--help"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: kotc-rulesc [OPTIONS] COMMAND")
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "check", "--rules", str(MINI)], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout.startswith("ok: 3 rules files"), done.stdout + done.stderr


def test_every_command_loads_lazily_from_the_module_the_cli_names():
    """cli.COMMANDS names each command's module (so a command loads only its own code): every
    command of every module is there, under its own name, and no other."""
    import importlib
    import subprocess
    import sys

    defined = {}
    for module in set(COMMANDS.values()):
        for command in importlib.import_module(f"kotc_rulesc.commands.{module}").COMMANDS:
            defined[command.name] = module
    assert defined == COMMANDS
    # `build --help` imports the build command's module and no other command's
    code = ("import sys; from kotc_rulesc.cli import main\ntry: main(['build', '--help'])\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('kotc_rulesc.commands.') and m != 'kotc_rulesc.commands.edition_arg'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "['kotc_rulesc.commands.build_commands']"


def test_editions_json_names_each_edition_as_show_and_diff_do():
    """A number, the pre-release "11-pre" a string: `editions` and `check --format json` gave every key as a string."""
    rows = json.loads(CliRunner().invoke(main, ["editions", "--format", "json"]).output)
    keys = [r["edition"] for r in rows]
    assert 17 in keys and "11-pre" in keys and "17" not in keys
    for key in (1, "11-pre", 17):
        shown = json.loads(CliRunner().invoke(main, ["show", "-e", str(key), "--format", "json"]).output)
        assert shown["edition"] == key
    checked = json.loads(CliRunner().invoke(main, ["check", "--format", "json"]).output)
    assert checked["editions"] == keys
