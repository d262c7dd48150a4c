"""``kotc-rulesc migrate``: destinations, stdin/stdout, reports, exit codes, safe writes."""

import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc import output as atomic
from kotc_rulesc.migrate.run import Options, detect_format, run
from support.loaded import view_of

HERE = Path(__file__).parent / "fixtures" / "migrate"
RULES = str(HERE / "rules")

LEGAL = [
    {"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards."},
    {"name": "Sprite", "type": "spell", "cost": 3, "text": "Activate when you take damage. Increase your hitpoints by 2."},
    {"name": "Old Guard", "type": "creature", "edition": 4, "cost": 4, "offense": 2, "defense": 10, "text": "This card has no abilities."},
]
BANNED = {"name": "Blood Pact", "type": "spell", "cost": 4, "text": "Pay 2 hitpoints. Increase your hitpoints by 3."}


def jsonl(cards) -> bytes:
    return b"".join(json.dumps(c).encode() + b"\n" for c in cards)


def invoke(*args, input=None):
    return CliRunner().invoke(main, ["migrate", *args, "--rules", RULES], input=input, catch_exceptions=False)


# --------------------------------------------------------------------------- destinations


def test_stdin_to_stdout():
    result = invoke("-", "--from", "1", "--to", "4", input=jsonl(LEGAL))
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout_bytes.splitlines()]
    assert [(c["edition"] if "edition" in c else None, c["cost"]) for c in lines] == [(4, 4), (None, 3), (4, 4)]
    assert lines[1]["text"] == "Activate when you take at least 5 damage. Increase your hitpoints by 2."
    assert "3 cards: 1 revised, 1 re-issued, 1 unchanged; 2 changed in the output" in result.stderr


def test_yaml_on_stdin_is_recognised():
    text = (HERE / "collection.yaml").read_bytes()
    result = invoke("-", "--from", "1", "--to", "4", input=text)
    assert result.exit_code == 1
    assert result.stdout.startswith("# A hand-kept collection")
    assert "      Activate when at least 1 card in your hand is destroyed." in result.stdout
    assert detect_format("-", b'{"name": "x"}\n{"name": "y"}\n') == "jsonl"
    assert detect_format("-", b'{"cards": [{"name": "x"}]}\n') == "json"
    assert detect_format("-", b'{\n  "cards": []\n}\n') == "json"
    assert detect_format("-", b"[]") == "json"
    assert detect_format("cards.txt", b"cards:\n- name: x\n") == "yaml"
    # a YAML flow mapping (its keys unquoted, which no JSON object has) was taken for broken JSON
    assert detect_format("-", b"{cards: [{name: x, type: spell}]}\n") == "yaml"
    assert detect_format("-", b"{\n  cards: []\n}\n") == "yaml"
    assert detect_format("-", b'{"cards": [{name: x}]}\n') == "json"  # (JSON whose inner key lacks quotes)


def test_output_file_and_in_place_with_backup(tmp_path):
    src = tmp_path / "cards.jsonl"
    original = jsonl(LEGAL + [BANNED])
    src.write_bytes(original)
    out = tmp_path / "new.jsonl"
    result = invoke(str(src), "--from", "1", "--to", "4", "-o", str(out))
    assert result.exit_code == 1  # one card is banned
    assert src.read_bytes() == original
    migrated = out.read_bytes()
    assert json.loads(migrated.splitlines()[3])["migration"]["status"] == "banned"

    result = invoke(str(src), "--from", "1", "--to", "4", "--in-place")
    assert result.exit_code == 1
    assert src.read_bytes() == migrated
    assert (tmp_path / "cards.jsonl.bak").read_bytes() == original
    # again: nothing changes, so nothing is replaced: the backup still holds the original (it held the
    # first run's output, and the original was gone)
    before = src.stat().st_mtime_ns
    result = invoke(str(src), "--from", "1", "--to", "4", "--in-place")
    assert src.read_bytes() == migrated and src.stat().st_mtime_ns == before
    assert (tmp_path / "cards.jsonl.bak").read_bytes() == original
    assert "4 cards: 3 unchanged, 1 banned; 0 changed in the output" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.jsonl", "cards.jsonl.bak", "new.jsonl"]


def test_dry_run_writes_nothing_and_reports(tmp_path):
    src = tmp_path / "cards.json"
    src.write_text(json.dumps({"cards": LEGAL}, indent=2))
    before = src.read_bytes()
    result = invoke(str(src), "--from", "1", "--to", "4", "--dry-run")
    assert result.exit_code == 0
    assert src.read_bytes() == before
    assert os.listdir(tmp_path) == ["cards.json"]
    assert "(dry run: nothing written)" in result.stdout
    assert "[1] Study (line 3): re-issued (1st, assumed with --from → 4th)\n    cost: 8 → 4\n    Edition Indicator: none → 4\n" in result.stdout
    assert "Totals: 3 cards: 1 revised, 1 re-issued, 1 unchanged; 2 would change in the output" in result.stdout


# --------------------------------------------------------------------------- reports


def test_json_report(tmp_path):
    src = tmp_path / "cards.jsonl"
    src.write_bytes(jsonl(LEGAL + [BANNED]))
    report = tmp_path / "report.json"
    result = invoke(str(src), "--from", "1", "--to", "4", "-o", str(tmp_path / "out.jsonl"),
                    "--report", str(report), "--report-format", "json")
    assert result.exit_code == 1
    data = json.loads(report.read_text())
    assert data["to"] == 4 and data["from"] == 1 and data["dry_run"] is False
    assert data["totals"] == {"cards": 4, "migrated": 2, "reissued": 1, "unchanged": 1, "banned": 1,
                              "unknown": 0, "errors": 0, "changed": 3, "prescribed": 0}
    study, sprite, guard, pact = data["cards"]  # every card, the unchanged one too
    assert (guard["status"], guard["outcome"], guard["changed"]) == ("unchanged", "unchanged", False)
    assert study["cost"] == {"old": 8, "new": 4} and study["edition"] == {"old": None, "new": 4}
    assert study["reasons"][0]["code"] == "cost-revised"
    assert sprite["text"][0]["old"] == "Activate when you take damage."
    assert sprite["text"][0]["edition"] == 2 and sprite["text"][0]["sources"] == ["guide"]
    assert pact["status"] == pact["outcome"] == "banned" and pact["replacement"]["cost"] == 5
    assert pact["remedy"].startswith("print the suggested replacement instead")


def test_markdown_report_to_stdout(tmp_path):
    src = tmp_path / "cards.yaml"
    src.write_bytes((HERE / "collection.yaml").read_bytes())
    result = invoke(str(src), "--from", "1", "--to", "4", "-o", str(tmp_path / "out.yaml"),
                    "--report", "-", "--report-format", "markdown")
    assert result.exit_code == 1
    assert result.stdout.startswith("# Migration of ")
    assert "### [2] Arcane Study (line 17): re-issued" in result.stdout
    assert "- cost: 8 → 4" in result.stdout
    assert "| cards | revised | re-issued | unchanged | banned | error |\n|---:|---:|---:|---:|---:|---:|\n| 11 | 1 | 2 | 1 | 4 | 3 |\n" in result.stdout


def test_markdown_report_keeps_a_name_with_markup_characters(tmp_path):
    # a card named "Blood <Pact> *1*" lost "<Pact>" (an HTML tag) and its stars (emphasis) when the report
    # was rendered: only "|" was escaped
    result = invoke("-", "--from", "1", "--to", "4", "-o", str(tmp_path / "out.jsonl"), "--report", "-",
                    "--report-format", "markdown", input=jsonl([{**BANNED, "name": "Blood <Pact> *1* & `x`"}]))
    assert "### [1] Blood \\<Pact\\> \\*1\\* \\& \\`x\\` (line 1): banned" in result.stdout, result.stdout
    assert result.stdout.startswith("# Migration of \\<stdin\\> to the 4th edition")


def test_summary_says_an_unreadable_entry_has_no_migration_field():
    # "the reasons are in each card's 'migration' field" was said of an entry that is no card, which has none
    result = invoke("-", "--from", "1", "--to", "4", input=jsonl([BANNED]) + b"42\n")
    assert "[2] (line 2): error" in result.stderr
    assert "an entry that is no card has none: its reason is the one above" in result.stderr
    alone = invoke("-", "--from", "1", "--to", "4", input=jsonl([BANNED]))
    assert "(the reasons are in each card's 'migration' field; --report FILE writes the full report)" in alone.stderr


def test_an_entry_that_is_no_card_is_told_in_our_words_not_pythons(tmp_path):
    # "a JSON NoneType", "a JSON int" (migrate), "card 1 is int" (check-cards): Python's names for the values
    (tmp_path / "c.jsonl").write_bytes(b"42\nnull\n")
    result = invoke(str(tmp_path / "c.jsonl"), "--from", "1", "--to", "4", "-o", str(tmp_path / "out.jsonl"))
    assert "[1] (line 1): error — a whole number, not a card (a JSON object)" in result.stderr
    assert "[2] (line 2): error — null, not a card (a JSON object)" in result.stderr
    path = tmp_path / "c.yaml"
    path.write_text("cards:\n  - 42\n  - [a]\n")
    checked = CliRunner().invoke(main, ["check-cards", str(path), "--rules", RULES, "-e", "4"]).stdout
    assert "card 1 is a whole number, not a mapping" in checked and "card 2 is a list, not a mapping" in checked
    path.write_text("42 and more\n")  # a YAML document that is one string
    assert "no cards: expected {\"cards\": [...]}, not a string" in invoke(str(path), "--to", "4").stderr
    path.write_text("cards: 42\n")
    assert "'cards' must be a list of cards, not a whole number" in invoke(str(path), "--to", "4").stderr


def test_a_jsonl_line_holding_a_whole_collection_is_told_so_and_kept(tmp_path):
    # a {"cards": [...]} saved as .jsonl was one card "missing field 'name'" (and 'type', 'text'), and migrate
    # wrote a 'migration' field into the collection's mapping
    line = json.dumps({"cards": LEGAL}).encode() + b"\n"
    path = tmp_path / "c.jsonl"
    path.write_bytes(line)
    said = 'a whole collection ({"cards": [...]}), not a card: JSONL has one card per line (name a JSON file .json)'
    result = invoke(str(path), "--from", "1", "--to", "4", "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1 and f"[1] (line 1): error — {said}" in result.stderr
    assert (tmp_path / "out.jsonl").read_bytes() == line
    checked = CliRunner().invoke(main, ["check-cards", str(path), "--rules", RULES, "-e", "4"])
    assert checked.exit_code == 1 and f"c.jsonl:1: malformed: card 1 is {said}" in checked.stdout
    assert "missing field" not in checked.stdout


def test_summary_lists_cards_needing_attention(tmp_path):
    result = invoke("-", "--from", "1", "--to", "4", input=jsonl([BANNED]))
    assert result.exit_code == 1
    assert "[1] Blood Pact (line 1): banned — redacted" in result.stderr


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "args, message",
    [
        (["-", "--in-place"], "--in-place needs a collection file"),
        (["x.jsonl", "--in-place", "-o", "y.jsonl"], "either --in-place or -o"),
        (["-", "--report", "-"], "write the report to a file"),
        (["-", "--to", "9"], "--to 9: the rules know editions 1–5"),
        (["-", "--from", "5", "--to", "4"], "--from 5 is later than --to 4"),
    ],
)
def test_usage_errors_exit_2(args, message):
    result = invoke(*args, input=b"")
    assert result.exit_code == 2
    assert message in result.stderr


def test_cards_without_indicator_need_from(tmp_path):
    out = tmp_path / "out.jsonl"
    result = invoke("-", "--to", "4", "-o", str(out), input=jsonl(LEGAL))
    assert result.exit_code == 2
    assert 'card [1] "Study" (line 1) has no Edition Indicator' in result.stderr and "--from E" in result.stderr
    assert not out.exists() and os.listdir(tmp_path) == []


def test_unreadable_collection_exits_2_and_writes_nothing(tmp_path):
    src = tmp_path / "bad.json"
    src.write_text('{"cards": [{"name": "A", "type": "spell", "edition": 4, "cost": 2, "text": "Draw 1 card."}, {]}')
    result = invoke(str(src), "--in-place")
    assert result.exit_code == 2
    assert f"{src}:1:94: expected a key in double quotes" in result.stderr  # located as file:line:column
    assert os.listdir(tmp_path) == ["bad.json"]


def test_default_target_is_the_newest_edition_with_a_catalog():
    result = invoke("-", "--from", "4", input=jsonl([LEGAL[2], BANNED]))
    # the fixture's newest edition with a catalog is the 5th, a clean slate: a creature without
    # abilities uses no component, so it crosses it (re-issued); the other card is banned
    assert result.exit_code == 1
    guard, pact = (json.loads(line) for line in result.stdout.splitlines())
    assert guard["edition"] == 5 and "migration" not in guard
    assert pact["migration"]["to"] == 5
    assert [r["code"] for r in pact["migration"]["reasons"]] == ["clean-slate", "redacted"]


# --------------------------------------------------------------------------- safety


@pytest.fixture(scope="module")
def view():
    return view_of(RULES)


def _many(n: int) -> bytes:
    cards = []
    for i in range(n):
        base = dict((LEGAL + [BANNED])[i % 4])
        base["name"] = f"{base['name']} #{i}"
        cards.append(base)
    return jsonl(cards)


@pytest.mark.parametrize("in_place", [True, False])
def test_interrupted_write_leaves_the_original_and_no_partial_output(tmp_path, view, monkeypatch, in_place):
    src = tmp_path / "cards.jsonl"
    original = _many(400)
    src.write_bytes(original)
    target = tmp_path / "out.jsonl"
    calls = []
    real_write = atomic.AtomicOutput.write

    def failing_write(self, data):
        calls.append(len(data))
        if len(calls) == 3:
            raise KeyboardInterrupt  # the user pressed ^C half-way
        return real_write(self, data)

    monkeypatch.setattr(atomic.AtomicOutput, "write", failing_write)
    opts = Options(str(src), 4, assume=1, output=None if in_place else str(target), in_place=in_place, block=2048)
    with pytest.raises(KeyboardInterrupt):
        run(opts, view, stdout=io.BytesIO(), stderr=io.StringIO())
    assert len(calls) == 3
    assert src.read_bytes() == original
    assert os.listdir(tmp_path) == ["cards.jsonl"]  # no partial output, no temporary file, no backup


def test_failure_on_standard_output_prints_nothing(view):
    stdout = io.BytesIO()
    data = jsonl(LEGAL[2:]) * 50 + jsonl(LEGAL[:1])  # the last card has no Edition Indicator

    class Stdin:
        buffer = io.BytesIO(data)

    import sys

    old = sys.stdin
    sys.stdin = Stdin
    try:
        from kotc_rulesc.migrate.io_json import MissingFrom

        with pytest.raises(MissingFrom):
            run(Options("-", 4, block=512), view, stdout=stdout, stderr=io.StringIO())
    finally:
        sys.stdin = old
    assert stdout.getvalue() == b""


def test_progress_bar_only_on_a_terminal_for_large_inputs():
    from kotc_rulesc.migrate.progress import MIN_BYTES, Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    bar = Progress(4 * MIN_BYTES, term)
    assert bar.shown
    bar.update(2 * MIN_BYTES)
    bar.close()
    assert "migrating" in term.getvalue() and "%" in term.getvalue()
    pipe = io.StringIO()
    bar = Progress(4 * MIN_BYTES, pipe)
    bar.update(MIN_BYTES)
    bar.close()
    assert not bar.shown and pipe.getvalue() == ""
    small = Terminal()
    assert not Progress(MIN_BYTES // 2, small).shown and small.getvalue() == ""
    assert not Progress(None, Terminal()).shown  # standard input: no size, no bar


def test_json_and_jsonl_migrate_without_ruamel(tmp_path):
    """JSON and JSONL collections need neither ruamel.yaml nor the rules loader (on the compiled tables)."""
    import subprocess
    import sys

    card = {"name": "Insight", "type": "spell", "cost": 4, "text": "Draw 2 cards."}
    (tmp_path / "c.jsonl").write_text(json.dumps(card) + "\n")
    (tmp_path / "c.json").write_text(json.dumps({"cards": [card]}))
    code = (
        "import io, sys\n"
        "from kotc_rulesc.tables import TablesView\n"
        "from kotc_rulesc.migrate.run import Options, run\n"
        "view = TablesView()\n"
        f"for name in ('c.jsonl', 'c.json'):\n"
        f"    src = {str(tmp_path)!r} + '/' + name\n"
        "    assert run(Options(src, '11-pre', assume=6, output=src + '.out'), view, stderr=io.StringIO()) == 0\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(('ruamel', 'jsonschema', 'kotc_rulesc.loader')))\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert json.loads((tmp_path / "c.jsonl.out").read_text())["edition"] == 11


def test_unwritable_output_is_a_usage_error(tmp_path):
    result = invoke("-", "--from", "1", "--to", "4", "-o", str(tmp_path / "missing" / "out.jsonl"), input=jsonl(LEGAL))
    assert result.exit_code == 2
    assert "cannot write" in result.stderr and "out.jsonl" in result.stderr


def test_a_backup_that_cannot_be_written_is_named(tmp_path):
    # --in-place keeps the original as COLLECTION.bak: where a folder stands in its place, the message
    # named the collection ("cannot write cards.jsonl: Is a directory"), which is a file and was untouched
    path = tmp_path / "cards.jsonl"
    path.write_bytes(jsonl(LEGAL))
    (tmp_path / "cards.jsonl.bak").mkdir()
    result = invoke(str(path), "--from", "1", "--to", "4", "--in-place")
    assert result.exit_code == 2
    assert f"cannot write {path}.bak: Is a directory; nothing was written, {path} is as it was" in result.stderr
    assert path.read_bytes() == jsonl(LEGAL)


def test_byte_order_mark_and_links_are_kept(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_bytes(b"\xef\xbb\xbf" + jsonl(LEGAL))
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    result = invoke(str(link), "--from", "1", "--to", "4", "--in-place")
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink()
    data = real.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and json.loads(data[3:].splitlines()[0])["cost"] == 4
    assert (tmp_path / "real.jsonl.bak").read_bytes().startswith(b"\xef\xbb\xbf")


@pytest.mark.parametrize("delay", [0.4, 0.8])
def test_terminated_run_leaves_the_original_or_the_whole_result(tmp_path, delay):
    """SIGTERM at any moment: the collection is either the original or completely migrated,
    and no temporary file is left behind."""
    import signal
    import subprocess
    import sys
    import time

    src = tmp_path / "cards.jsonl"
    original = _many(20_000)
    src.write_bytes(original)
    proc = subprocess.Popen([sys.executable, "-m", "kotc_rulesc.cli", "migrate", str(src), "--from", "1", "--to", "4",
                             "--in-place", "--rules", RULES], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    names = sorted(p.name for p in tmp_path.iterdir())
    if names == ["cards.jsonl"]:
        assert src.read_bytes() == original
    else:
        assert names == ["cards.jsonl", "cards.jsonl.bak"]
        assert (tmp_path / "cards.jsonl.bak").read_bytes() == original
        assert src.read_bytes().count(b"\n") == 20_000 and src.read_bytes() != original
