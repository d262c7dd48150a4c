"""The input policy (kotc_rulesc/reading/, README "Input policy"): one answer per file in every
command and format, located, never a traceback, never a hang.

Each defect the fuzz run of issue 15 found has a named regression test here; the policy matrix
runs every refused input through check-cards, cost and migrate in each format it applies to."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.reading import policy as inputs
from kotc_rulesc.cli import main
from support.hang import no_hang
from support.loaded import view_of

ROOT = Path(__file__).resolve().parent.parent
MINI = str(Path(__file__).resolve().parent / "fixtures" / "mini_rules")

GOOD = {"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}
GOOD_LINE = json.dumps(GOOD)
GOOD_YAML = "  - name: Insight\n    type: spell\n    edition: 2\n    cost: 4\n    text: Draw 2 cards.\n"


def invoke(*args: str, input: bytes | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


COMMANDS = ("check-cards", "cost", "migrate")


def run_command(command: str, path: Path, *extra: str):
    """One of the card commands on ``path`` (mini rules, edition 2; migrate 2 → 3 to a file beside it)."""
    if command == "migrate":
        out = path.parent / f"out-{path.name}"
        return invoke("migrate", str(path), "--from", "2", "--to", "3", "-o", str(out), "--rules", MINI, *extra), out
    return invoke(command, str(path), "-e", "2", "--rules", MINI, *extra), None


def subprocess_cli(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    """The command as a process of its own; one still running after ``timeout`` seconds (a hang) fails."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
    return subprocess.run([sys.executable, "-m", "kotc_rulesc", *args], capture_output=True, timeout=timeout, env=env, **kwargs)


# --------------------------------------------------------------------------- the policy matrix

DEEP_JSON = "[" * 5000 + "]" * 5000
DEEP_YAML = "[" * 5000 + "]" * 5000
LONG_INT = "9" * 5000


def _json(card_text: str) -> bytes:
    return ('{"cards": [\n  ' + GOOD_LINE + ",\n  " + card_text + "\n]}\n").encode()


def _jsonl(card_text: str) -> bytes:
    return (GOOD_LINE + "\n" + card_text + "\n").encode()


def _yaml(card_yaml: str) -> bytes:
    return ("cards:\n" + GOOD_YAML + card_yaml).encode()


BAD_CARD = '{"name": "Bad", "type": "spell", "edition": 2, "text": "Draw 2 cards.", %s}'

#: (case, {format: (content, exit status)}); in JSONL a content rule makes one unreadable card (1),
#: elsewhere the whole file cannot be read (2)
MATRIX = [
    ("long-integer", {
        "json": (_json(BAD_CARD % f'"cost": {LONG_INT}'), 2),
        "jsonl": (_jsonl(BAD_CARD % f'"cost": {LONG_INT}'), 1),
        "yaml": (_yaml(f"  - name: Bad\n    cost: {LONG_INT}\n"), 2),
    }),
    ("deep-nesting", {
        "json": (_json(BAD_CARD % f'"extra": {DEEP_JSON}'), 2),
        "jsonl": (_jsonl(BAD_CARD % f'"extra": {DEEP_JSON}'), 1),
        "yaml": (_yaml(f"  - name: Bad\n    extra: {DEEP_YAML}\n"), 2),
    }),
    ("lone-surrogate", {
        "json": (_json('{"name": "Bad \\ud83c", "type": "spell", "edition": 2, "text": "Draw 2 cards."}'), 2),
        "jsonl": (_jsonl('{"name": "Bad \\ud83c", "type": "spell", "edition": 2, "text": "Draw 2 cards."}'), 1),
        "yaml": (_yaml('  - name: "Bad \\ud83c"\n    type: spell\n'), 2),
    }),
    ("duplicate-key", {
        "json": (_json('{"name": "A", "name": "B", "type": "spell", "edition": 2, "text": "Draw 2 cards."}'), 2),
        "jsonl": (_jsonl('{"name": "A", "name": "B", "type": "spell", "edition": 2, "text": "Draw 2 cards."}'), 1),
        "yaml": (_yaml("  - name: A\n    name: B\n"), 2),
    }),
    ("nan-and-infinity", {
        "json": (_json(BAD_CARD % '"cost": NaN'), 2),
        "jsonl": (_jsonl(BAD_CARD % '"cost": 1e999'), 1),
    }),
    ("yaml-alias", {
        "yaml": (_yaml("  - &card {name: A, type: spell, edition: 2, cost: 4, text: Draw 2 cards.}\n  - *card\n"), 2),
    }),
    ("empty", {"json": (b"", 2), "jsonl": (b"", 2), "yaml": (b"", 2)}),
    ("only-white-space", {"json": (b" \n\n", 2), "jsonl": (b"\n \n", 2), "yaml": (b"# nothing\n", 2)}),
    ("nul-byte", {"json": (_json(GOOD_LINE) + b"\x00", 2), "jsonl": (_jsonl(GOOD_LINE) + b"\x00\n", 2),
                  "yaml": (_yaml("") + b"\x00", 2)}),
    ("not-utf8", {"json": (_json('"caf\xe9"').replace(b"\xc3\xa9", b"\xe9"), 2),
                  "jsonl": (_jsonl(GOOD_LINE) + b'{"name": "caf\xe9"}\n', 2),
                  "yaml": (_yaml("  - name: caf\xe9\n").replace(b"\xc3\xa9", b"\xe9"), 2)}),
    ("trailing-data", {"json": (_json(GOOD_LINE) + b'{"cards": []}\n', 2),
                       "yaml": (_yaml("") + b"---\ncards: []\n", 2)}),
]

MATRIX_CASES = [
    pytest.param(case, fmt, content, code, command, id=f"{case}-{fmt}-{command}")
    for case, formats in MATRIX
    for fmt, (content, code) in formats.items()
    for command in COMMANDS
]


@pytest.mark.parametrize("case, fmt, content, code, command", MATRIX_CASES)
def test_policy_matrix(tmp_path, case, fmt, content, code, command):
    path = tmp_path / f"cards.{fmt}"
    path.write_bytes(content)
    result, out = run_command(command, path)
    assert result.exit_code == code, result.output
    if code == 2:
        # one located message (file, and a line where there is one), nothing on standard output
        assert re.search(rf"^(error|Error): {re.escape(str(path))}(:\d+)*: ", result.stderr, re.M), result.stderr
        assert result.stdout == ""
        if out is not None:
            assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == [path.name]
    else:
        # JSONL: the card on line 2 cannot be read, the card on line 1 is judged
        if command == "migrate":
            lines = out.read_bytes().split(b"\n")
            assert lines[1] == content.split(b"\n")[1]  # kept byte for byte
            assert json.loads(lines[0])["name"] == "Insight"
            assert "1 error" in result.stderr
        else:
            assert f"{path}:2: malformed: card 2: " in result.stdout, result.stdout  # (numbered from 1)
            assert re.search(r"^(\[1\] )?Insight: (legal|cost 4)", result.stdout, re.M), result.stdout


def test_the_matrix_covers_every_command_and_format():
    assert {fmt for _, formats in MATRIX for fmt in formats} == {"json", "jsonl", "yaml"}
    assert len(MATRIX_CASES) == 3 * sum(len(f) for _, f in MATRIX)


# --------------------------------------------------------------------------- named regression tests: card files


@pytest.mark.parametrize("command", COMMANDS)
def test_long_integer_in_a_card_file_is_located_not_a_traceback(tmp_path, command):
    """Was: a ValueError traceback (check-cards, cost, YAML migrate), or Python's own
    'sys.set_int_max_str_digits()' text as the message."""
    for fmt, content in (("json", _json(BAD_CARD % f'"cost": {LONG_INT}')), ("yaml", _yaml(f"  - name: Bad\n    cost: {LONG_INT}\n"))):
        path = tmp_path / f"c.{fmt}"
        path.write_bytes(content)
        result, _ = run_command(command, path)
        assert result.exit_code == 2
        assert "an integer of 5000 digits (at most 100)" in result.stderr
        assert "set_int_max_str_digits" not in result.output


def test_deep_nesting_in_a_card_file_is_located_not_a_recursion_error(tmp_path):
    """Was: RecursionError in check-cards, cost and migrate."""
    from kotc_rulesc.migrate.run import Options, run

    path = tmp_path / "c.jsonl"
    lines = [GOOD_LINE] * 3000
    lines[2500] = BAD_CARD % f'"extra": {DEEP_JSON}'
    path.write_text("\n".join(lines) + "\n")
    report = tmp_path / "report.json"
    code = run(Options(str(path), 3, assume=2, output=str(tmp_path / "out.jsonl"), report=str(report),
                       report_format="json", block=8192),
               view_of(MINI), stderr=io.StringIO())
    assert code == 1
    data = json.loads(report.read_text())
    (bad,) = [c for c in data["cards"] if c["status"] == "error"]
    assert bad["index"] == 2500 and bad["line"] == 2501
    assert "nested more than 64 levels" in json.dumps(bad)


def test_lone_surrogate_escape_in_jsonl_is_one_unreadable_card_everywhere(tmp_path):
    """Was: a UnicodeEncodeError traceback in check-cards, while migrate exited 0."""
    path = tmp_path / "c.jsonl"
    path.write_text(GOOD_LINE + '\n{"name": "\\ud83c", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}\n')
    for command in COMMANDS:
        result, _ = run_command(command, path)
        assert result.exit_code == 1, (command, result.output)
        assert "lone UTF-16 surrogate escape \\ud83c" in result.output


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_as_input_is_refused_at_once(device, command):
    """Was: no limit; killed for memory after minutes."""
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    extra = ["--from", "2", "--to", "3"] if command == "migrate" else ["-e", "2"]
    done = subprocess_cli(command, device, *extra, "--rules", MINI, timeout=60)  # (still reading after 60 s: a hang)
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr
    assert re.search(rb"binary|not UTF-8", done.stderr), done.stderr


def test_a_stream_is_read_up_to_its_limit(monkeypatch):
    """Standard input, a pipe, a device: at most MAX_STREAM bytes (set low here)."""
    monkeypatch.setattr(inputs, "MAX_STREAM", 5000)
    data = (GOOD_LINE + "\n").encode() * 200
    for args in (["check-cards", "-", "-e", "2"], ["cost", "-", "-e", "2"], ["migrate", "-", "--from", "2", "--to", "3"]):
        result = invoke(*args, "--rules", MINI, input=data)
        assert result.exit_code == 2, result.output
        assert "<stdin>: more than 5,000 bytes from a stream" in result.stderr


def test_a_yaml_file_is_read_up_to_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_YAML", 1000)
    path = tmp_path / "c.yaml"
    path.write_bytes(_yaml(GOOD_YAML * 20))
    for command in COMMANDS:
        result, _ = run_command(command, path)
        assert result.exit_code == 2
        assert "larger than 1,000 bytes, the limit for a YAML file" in result.stderr


def test_a_single_huge_jsonl_line_is_refused_quickly(tmp_path):
    """Was: migrate of a single 100 MB JSONL line did not finish.  (3 MiB here: over the limit.)"""
    path = tmp_path / "c.jsonl"
    path.write_text(GOOD_LINE + "\n" + '{"name": "' + "x" * (3 << 20) + '"}\n' + GOOD_LINE + "\n")
    for command in COMMANDS:
        with no_hang(what=command):
            result, out = run_command(command, path)
        assert result.exit_code == 2, result.output
        assert f"{path}:2: a line longer than 1 MiB" in result.stderr
        assert out is None or not out.exists()


def test_the_line_limit_holds_in_every_format(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_LINE", 200)
    long = "x" * 300
    cases = {
        "yaml": _yaml(f"  - name: {long}\n"),
        "jsonl": _jsonl(f'{{"name": "{long}"}}'),
        "json": _json(f'{{"name": "{long}"}}'),
    }
    for fmt, content in cases.items():
        path = tmp_path / f"c.{fmt}"
        path.write_bytes(content)
        for command in COMMANDS:
            result, _ = run_command(command, path)
            assert result.exit_code == 2, (fmt, command, result.output)
            assert re.search(r"a line longer than 200 bytes|a single JSON value larger than 200 bytes", result.stderr), result.stderr


# --------------------------------------------------------------------------- named regression tests: exit codes agree


def test_empty_jsonl_exits_2_in_every_command(tmp_path):
    """Was: 2 from check-cards, 0 from migrate."""
    path = tmp_path / "c.jsonl"
    path.write_bytes(b"")
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2 and "the file is empty" in result.stderr
        assert out is None or not out.exists()


@pytest.mark.parametrize("bad", [b"\x00", b"\xff"], ids=["nul", "not-utf8"])
def test_nul_bytes_and_invalid_utf8_exit_2_and_migrate_writes_nothing(tmp_path, bad):
    """Was: 2 from check-cards, 1 from migrate, which wrote its output anyway."""
    path = tmp_path / "c.jsonl"
    path.write_bytes((GOOD_LINE + "\n").encode() * 3 + bad + b"\n" + (GOOD_LINE + "\n").encode())
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, result.output
        assert f"{path}:4:1: the file is" in result.stderr
        assert out is None or not out.exists()


@pytest.mark.parametrize("fmt, encoding", [("yaml", "utf-16"), ("json", "utf-16-be"), ("jsonl", "utf-16-le")])
def test_a_utf16_file_is_told_utf16_not_binary(tmp_path, fmt, encoding):
    """Was: "the file is binary (it holds NUL bytes)" for text saved as UTF-16 ("Unicode" in some editors and
    spreadsheets), which an editor shows as text; /dev/zero and a NUL in UTF-8 text stay binary."""
    path = tmp_path / f"c.{fmt}"
    text = {"yaml": f"cards:\n  - {GOOD_LINE}\n", "json": f"[{GOOD_LINE}]", "jsonl": GOOD_LINE + "\n"}[fmt]
    path.write_bytes(text.encode(encoding))
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, result.output
        assert f"{path}:1:1: the file is UTF-16 text, not UTF-8 (hint: save it as UTF-8)" in result.stderr
        assert out is None or not out.exists()
    path.write_bytes(b"\0" * 8)
    assert "the file is binary (it holds NUL bytes)" in run_command("check-cards", path)[0].stderr


def test_trailing_data_after_json_exits_2_in_every_command(tmp_path):
    """Was: 1 from check-cards and cost (read as JSONL), 2 from migrate."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"cards": [GOOD]}) + "\n" + json.dumps(GOOD) + "\n")
    for command in COMMANDS:
        result, _ = run_command(command, path)
        assert result.exit_code == 2
        assert f"{path}:2:1: extra data after the collection" in result.stderr


def test_duplicate_key_in_json_exits_2_in_every_command(tmp_path):
    """Was: 1 from check-cards, 0 from cost and migrate (the last value silently won)."""
    path = tmp_path / "c.json"
    path.write_text('{"cards": [\n  {"name": "A", "type": "spell", "edition": 2, "cost": 4,\n   "cost": 5, "text": "Draw 2 cards."}\n]}\n')
    for command in COMMANDS:
        result, _ = run_command(command, path)
        assert result.exit_code == 2
        assert f"{path}:3:4: duplicate key 'cost'" in result.stderr


# --------------------------------------------------------------------------- named regression tests: rules files


def _rules(tmp_path: Path, extra: str) -> Path:
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / "edition-01.yaml"
    path.write_text(path.read_text() + extra)
    return root


ALIAS_BOMB = "notes:\n  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"  - &{b} [*{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}]\n" for a, b in zip("abcdefgh", "bcdefghi"))


@pytest.mark.parametrize("name, extra, message", [
    ("alias-bomb", ALIAS_BOMB, "a YAML alias (*a): aliases are not allowed"),
    ("deep-nesting", "deep: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n", "nested more than 64 levels deep"),
    ("long-integer", f"big: {LONG_INT}\n", "an integer of 5000 digits (at most 100)"),
    ("long-comment-line", "# " + "x" * (5 << 20) + "\n", "a line longer than 1 MiB"),
])
def test_a_hostile_rules_file_is_refused_at_once(tmp_path, name, extra, message):
    """Was: an alias bomb ran check for minutes; deep nesting a RecursionError traceback; a long
    integer a ValueError traceback; a 5 MB comment line about 18 s."""
    root = _rules(tmp_path, "\n" + extra)
    # check as a process of its own (a hang is caught for the whole run); editions and show
    # read the rules by the same loader, in this process
    done = subprocess_cli("check", "--rules", str(root), timeout=120)  # (still running after 120 s: a hang)
    assert done.returncode == 2, done.stdout + done.stderr
    outputs = [(done.stdout + done.stderr).decode()]
    for command in (["editions"], ["show", "-e", "2"]):
        with no_hang(what=command):
            result = invoke(*command, "--rules", str(root))  # (no traceback: asserted there)
        assert result.exit_code == 2, result.output
        outputs.append(result.output)
    for out in outputs:
        assert "Traceback" not in out
        assert re.search(rf"edition-01\.yaml:\d+(:\d+)?: {re.escape(message)}", out), out


# --------------------------------------------------------------------------- a JSON document: what is refused, where

SURROGATE = "not a Unicode character (write the character itself, or a \\uD8xx\\uDCxx pair)"


@pytest.mark.parametrize("line, answer", [
    ('{"a": 1, "a": 2}', ("duplicate key 'a' (each key may appear once in a mapping)", 9)),
    ('{"t": "a: b: c", "x": {"y": 1, "y": 2}}', ("duplicate key 'y' (each key may appear once in a mapping)", 31)),
    ('{"k\\u003a": 1, "k:": 2}', ("duplicate key 'k:' (each key may appear once in a mapping)", 15)),
    ('{"n": NaN}', ("NaN is not a JSON number", 6)),
    ('{"n": -Infinity}', ("-Infinity is not a JSON number", 6)),
    ('{"n": 1e400}', ("the number 1e400 is too large", 6)),
    ('{"n": ' + "9" * 101 + "}", ("an integer of 101 digits (at most 100)", 6)),
    ('{"s": "\\ud83c"}', ("a lone UTF-16 surrogate escape \\ud83c: " + SURROGATE, 7)),
    ('{"s": "\\udf89\\ud83c"}', ("a lone UTF-16 surrogate escape \\udf89: " + SURROGATE, 7)),
    ('{"d": ' + "[" * 64 + "]" * 64 + "}", ("nested more than 64 levels deep (mappings and lists)", 69)),
    ('{"s": "\\ud83c"} x', ("more text after the end of the JSON value: the line holds one value", 16)),  # the syntax first
    ('{"bad": tru}', ('tru is not a JSON value: a text goes in double quotes ("tru"); true, false and null are lowercase', 8)),
    ('{"s": "\\ud83c\\udf89", "n": 18446744073709551616}', {"s": "\U0001f389", "n": 18446744073709551616}),
])
def test_a_json_document_is_refused_where_the_policy_says(line, answer):
    """The first thing refused in the text's order, at its offset; each kind of refusal in its words."""
    from kotc_rulesc.reading.json_reader import JsonProblem, json_line

    try:
        got = json_line(line.encode())
    except JsonProblem as exc:
        got = (exc.message, exc.pos)
    assert got == answer


# --------------------------------------------------------------------------- issue 27: one answer per input

COMMENT = "# " + "x" * ((1 << 20) - 3) + "\n"  # a comment line of 1 MiB, the longest a line may be


@pytest.mark.parametrize("what, tail, message", [
    ("a key twice", GOOD_YAML + "    cost: 5\n", "c.yaml:8:5: duplicate key 'cost'"),
    ("an anchor", GOOD_YAML.replace("  - name", "  - &a\n    name"), None),
    ("a tag", GOOD_YAML.replace("  - name", "  - !card\n    name"), "c.yaml:3:5: a YAML tag (!card): tags are not allowed"),
])
def test_issue27_case5_a_long_comment_line_then_a_key_twice_an_anchor_or_a_tag(tmp_path, what, tail, message):
    """Was: 12-25 s before the answer (a 15 MiB file of such lines 82 s); now libyaml reads the
    comment and the reader answers, in every command, as for the same file without the comment."""
    path = tmp_path / "c.yaml"
    for comments in (1, 15):
        path.write_text(COMMENT * comments + "cards:\n" + tail)
        for command in COMMANDS:
            result, _ = run_command(command, path)
            assert result.exit_code == (0 if message is None else 2), (command, result.output)
            if message:
                assert message.replace(":8:", f":{7 + comments}:").replace(":3:", f":{2 + comments}:") in result.stderr


def test_issue27_case5_rules_files_too(tmp_path):
    root = _rules(tmp_path, "\n" + COMMENT * 3 + "edition: 9\n")
    done = subprocess_cli("check", "--rules", str(root), timeout=120)
    assert done.returncode == 2 and b"duplicate key 'edition'" in done.stdout + done.stderr
    for command in (["show", "-e", "1"], ["diff", "1", "2"]):
        result = invoke(*command, "--rules", str(root))
        assert result.exit_code == 2 and "duplicate key 'edition'" in result.output


def test_issue27_case6_a_merge_key_in_a_card_is_refused_by_every_command(tmp_path):
    """Was: a KeyError traceback in check-cards and cost, while migrate accepted the card."""
    path = tmp_path / "c.yaml"
    path.write_text("cards:\n  - <<: {type: spell}\n    name: Insight\n    edition: 2\n    cost: 4\n    text: Draw 2 cards.\n")
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert f"{path}:2:5: a YAML merge key (<<): merge keys are not allowed" in result.stderr
        assert out is None or not out.exists()


def test_issue27_case7_an_escape_past_the_last_character_is_a_located_refusal(tmp_path):
    """Was: a traceback and exit 1 in every command that read it, a card or a rules file."""
    path = tmp_path / "c.yaml"
    path.write_text(_yaml('  - name: "A \\U00110000"\n    type: spell\n').decode())
    for command in COMMANDS:
        result, _ = run_command(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert f"{path}:7:14: \\U00110000 is not a Unicode character" in result.stderr
    json_path = tmp_path / "c.json"
    json_path.write_bytes(_json('{"name": "A \\U00110000"}'))
    for command in COMMANDS:
        result, _ = run_command(command, json_path)
        assert result.exit_code == 2 and f"{json_path}:3:15: \\U is not a JSON escape" in result.stderr
    root = _rules(tmp_path, '\nnote: "\\U00110000"\n')
    for command in (["check"], ["show", "-e", "1"]):
        result = invoke(*command, "--rules", str(root))
        assert result.exit_code == 2 and "\\U00110000 is not a Unicode character (the last is \\U0010FFFF)" in result.output


@pytest.mark.parametrize("tag", ["!foo", "!!python/object/apply:os.system"])
def test_issue27_case8_a_tagged_card_list_is_refused_with_its_location(tmp_path, tag):
    """Was: a crash in check-cards, migrate and cost (no code ran: the crash was in reading)."""
    path = tmp_path / "c.yaml"
    path.write_text(f"cards: {tag}\n" + GOOD_YAML)
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert f"{path}:1:8: a YAML tag ({tag}): tags are not allowed" in result.stderr
        assert out is None or not out.exists()


@pytest.mark.parametrize("fmt", ["json", "jsonl", "yaml"])
def test_issue27_case10_two_byte_order_marks_get_one_answer(tmp_path, fmt):
    """Was: check-cards and cost refused a JSON collection (exit 2) that migrate migrated."""
    path = tmp_path / f"c.{fmt}"
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + {"json": _json(GOOD_LINE), "jsonl": _jsonl(GOOD_LINE), "yaml": _yaml("")}[fmt])
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert f"{path}:1:1: two byte-order marks (U+FEFF) start the file" in result.stderr
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes()[6:])  # one is allowed, and migrate keeps it
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 0, (command, result.output)
        assert out is None or out.read_bytes().startswith(b"\xef\xbb\xbf{" if fmt != "yaml" else b"\xef\xbb\xbfcards")


def test_a_rules_file_that_cannot_be_read_exits_2_like_a_collection(tmp_path):
    """The same policy, the same status: a rules file that does not parse is input that cannot be
    read (2), as a collection that does not parse; what parses but is wrong is a problem (1)."""
    root = _rules(tmp_path, "\nedition: 9\n")  # a duplicate key
    result = invoke("check", "--rules", str(root))
    assert result.exit_code == 2 and "duplicate key 'edition'" in result.output
    root = _rules(tmp_path / "b", "\nnonsense: 1\n")
    result = invoke("check", "--rules", str(root))
    assert result.exit_code == 1 and "unknown key 'nonsense'" in result.output


# --------------------------------------------------------------------------- formulas and card texts


@pytest.mark.parametrize("formula, message", [
    ("9" * 5000, "a number of 5000 digits (at most 100)"),
    ("(" * 3000 + "x" + ")" * 3000, "the formula nests more than 64 levels"),
    ("x" + "+x" * 3000, "the formula nests more than 64 levels"),
    ("-" * 3000 + "x", "the formula nests more than 64 levels"),
    ("x^999999999", "an exponent above 9"),
    ("(x^9)^9", "a power of a power"),
])
def test_a_hostile_formula_is_a_located_problem(tmp_path, formula, message):
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / "edition-01.yaml"
    path.write_text(path.read_text().replace('formula: "4x"', f'formula: "{formula}"'))
    result = invoke("check", "--rules", str(root))
    assert result.exit_code == 1, result.output
    assert message in result.output


@pytest.mark.parametrize("formula, message", [
    ("sum(x)", "sum adds up a list"),
    ("ceil(x, x)", "ceil takes one argument, not 2"),
])
def test_a_formula_that_could_only_fail_does_not_parse(tmp_path, formula, message):
    """Found by the fuzz suite: sum(x) passed check, then costing a card raised a TypeError
    traceback (in cost and in build); ceil(x, x) silently dropped its second argument."""
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / "edition-01.yaml"
    path.write_text(path.read_text().replace('formula: "4x"', f'formula: "{formula}"'))
    result = invoke("check", "--rules", str(root))
    assert result.exit_code == 1 and message in result.output


@pytest.mark.parametrize("where, old, new, edition, note", [
    ("edition-02.yaml", 'spell_cost: "max(1, ceil(ability_cost))"', 'spell_cost: "1/0"', "2",
     "the cost cannot be computed by the card-cost rule: spell_cost = 1/0: division by zero"),
    ("edition-01.yaml", 'formula: "4x"', 'formula: "x^9*x^9*x^9*x^9*x^9*x^9"', "1",
     "a value of more than 3322 bits (about 1,000 digits)"),
])
def test_a_formula_that_fails_on_a_card_leaves_its_figure_unknown(tmp_path, where, old, new, edition, note):
    """Found by the fuzz suite: a card-cost rule that divides by zero was a ZeroDivisionError
    traceback; a value of thousands of digits could not even be printed (Python's 4,300 digits)."""
    root = tmp_path / "rules"
    shutil.copytree(MINI, root)
    path = root / where
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    assert invoke("check", "--rules", str(root)).exit_code == 0
    result = invoke("cost", "-e", edition, "--type", "spell", "--text", f"Draw {'9' * 90} cards.", "--rules", str(root))
    assert result.exit_code == 1, result.output
    assert note in result.output


def test_a_decimal_in_a_formula_is_written_out_exactly():
    """Found by the fuzz suite: 9999999999999999999999993.5 was printed through a float (and then
    did not read back); 0.00048828125 was rounded to ten places."""
    from kotc_rulesc.formula import parse_formula

    for text in ("9999999999999999999999993.5", "0.00048828125", "0.5", "1.25x"):
        assert parse_formula(text).notation() == text
        assert parse_formula(parse_formula(text).notation()) == parse_formula(text)


def test_a_number_too_long_in_a_card_text_is_malformed(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(dict(GOOD, text=f"Draw {LONG_INT} cards.")) + "\n")
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 1, result.output
        said = result.output if out is None else out.read_text()
        assert "a number of 5000 digits (at most 100)" in said


# --------------------------------------------------------------------------- the README states the policy


def test_the_docs_state_the_input_policy():
    from support.docs_pages import page

    text = page("input-policy")
    section = text.split("## Input policy", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ---")][1:]
    assert len(rows) == len(inputs.POLICY)
    for row, (what, limit, code, _) in zip(rows, inputs.POLICY):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == limit and cells[2] == str(code), (row, what)


def test_the_core_modules_hold_the_same_limits():
    """formula.py and text.py are engine modules, importing only the standard library, so they
    state the limits they apply themselves: the same values as the input policy."""
    from kotc_rulesc import formula, text

    assert formula.MAX_DIGITS == text.MAX_DIGITS == inputs.MAX_DIGITS
    assert formula.MAX_DEPTH == inputs.MAX_DEPTH


# --------------------------------------------------------------------------- issue 26: syntax errors in plain words

QUOTES = 'JSON writes texts and keys in double quotes ("…")'

#: (case, file name, content, "line:column", the message): each syntax error as a player reads it, with what
#: to fix, in every command and in the API and the workbench (one reader per format)
SYNTAX = [
    ("json trailing comma in a card", "c.json", '[{"name": "X", "text": "Draw 1 card.",}]', "1:38",
     "a comma before '}': remove it (JSON allows no comma after the last item)"),
    ("json trailing comma in the list", "c.json", '{"cards": [{"name": "X"},]}', "1:25",
     "a comma before ']': remove it (JSON allows no comma after the last item)"),
    ("json single quotes", "c.json", "[{'name': 'X'}]", "1:3", f"a key in single quotes: {QUOTES}"),
    ("json a key without quotes", "c.json", '[{name: "X"}]', "1:3", 'the key name has no quotes: write it in double quotes ("name")'),
    # the collection's own mapping ({"cards": [...]}, read a card at a time) in the same words as a card's
    ("json trailing comma after the cards", "c.json", '{"cards": [],\n}', "1:13",
     "a comma before '}': remove it (JSON allows no comma after the last item)"),
    ("json the cards key in single quotes", "c.json", "{'cards': []}", "1:2", f"a key in single quotes: {QUOTES}"),
    ("json the cards key without quotes", "c.json", '{cards: []}', "1:2",
     'the key cards has no quotes: write it in double quotes ("cards")'),
    ("json the cards key without its colon", "c.json", '{"cards" []}', "1:10", "no ':' after the key: write \"key\": value"),
    ("json a comma missing", "c.json", '[{"name": "X" "type": "spell"}]', "1:15",
     "a comma is missing before this: put ',' between the items of a list or a mapping"),
    ("json a colon missing", "c.json", '[{"name" "X"}]', "1:10", "no ':' after the key: write \"key\": value"),
    ("json a number with a '+'", "c.json", '[{"name": "X", "level": +6}]', "1:25",
     "+6 is not a JSON number: write whole numbers without '+' or leading zeros (6), decimals with digits on both "
     "sides of the point (0.5)"),
    ("json a number with a leading zero", "c.json", '[{"name": "X", "level": 06}]', "1:25",
     "06 is not a JSON number: write whole numbers without '+' or leading zeros (6), decimals with digits on both "
     "sides of the point (0.5)"),
    ("json a text never closed", "c.json", '[{"name": "X}]', "1:11",
     'a quoted text opened here is never closed: add the closing " (a text stays on its line)'),
    ("json Python's None", "c.json", '[{"name": "X", "cost": None}]', "1:24", "None is not JSON: write null (in lowercase)"),
    ("json brackets crossed", "c.json", '[{"name": "X"]]', "1:14",
     "a ']' where a ',' or the closing '}' should be: brackets close in the order they open"),
    ("json a line break in a text", "c.json", '[{"name": "X\nY"}]', "1:13",
     "a line break inside a quoted text: close the text on its line (write \\n for a line break)"),
    ("json a value missing", "c.json", '[{"name": }]', "1:11", "no value after the ':': write one (a text in double quotes, "
     "a number, true, false, null, a list [...] or a mapping {...})"),
    ("json the text ends inside a card", "c.json", '[{"name": "X", ', "1:16",
     "the file ends inside a mapping: finish it and close it with '}'"),
    ("json the list never closed", "c.json", '[{"name": "X"}', "1:15", "the file ends before the list of cards is closed: add ']'"),
    ("json an unknown escape", "c.json", '[{"name": "a\\qb"}]', "1:13",
     "\\q is not a JSON escape: write \\\\ for a backslash (the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hex digits)"),
    ("yaml a quoted text never closed", "c.yaml", 'cards:\n  - name: X\n    text: "Draw 1 card.\n', "3:11",
     'a quoted text opened here is never closed: add the closing " where the text ends'),
    ("yaml a tab in the indentation", "c.yaml", "cards:\n  - name: X\n\ttype: spell\n", "3:1",
     "a tab in the indentation: indent with spaces (YAML does not allow tabs there)"),
    ("yaml a colon missing", "c.yaml", "cards:\n  - name: X\n    type spell\n    cost: 2\n", "3:5",
     "\"type spell\" has no ':' after its name: write a field as \"name: value\""),
    ("yaml a colon missing above a field", "c.yaml", "cards:\n  - name X\n    type: spell\n", "3:9",
     "a field under \"- name X\", which has no ':': write it \"name: value\""),
    ("yaml a colon in a value", "c.yaml", "cards:\n  - name: X\n    text: Draw: 1 card\n", "3:15",
     "a ': ' inside the value of 'text': put the value in quotes (\"…\")"),
    ("yaml a field indented too far", "c.yaml", "cards:\n  - name: X\n      type: spell\n", "3:11",
     "this line is indented more than the field before it: indent the fields of one mapping alike"),
    ("yaml a bracket never closed", "c.yaml", "cards: [{name: X, type: spell}\n", "2:1",
     "the '[' opened at line 1, column 8 is not closed here: add ']' after its last item (and ',' between items)"),
    ("yaml a bracket that closes nothing", "c.yaml", "cards: [{name: X}]]\n", "1:19", "a ']' that closes nothing: remove it (or open it with '[')"),
    ("yaml a value starting with @", "c.yaml", "cards:\n  - name: @X\n", "2:11",
     "a value cannot start with '@' (YAML keeps it for itself): put the value in quotes"),
    ("yaml text after a quoted value", "c.yaml", 'cards:\n  - name: X\n    text: "Draw" 1 card\n', "3:18",
     "more text after the closing quote: put the whole value in quotes"),
    ("yaml a byte-order mark past the start", "c.yaml", "cards:\n  - name: X\n\ufeff  - name: Y\n", "3:1",
     "a byte-order mark (U+FEFF, which an editor does not show): remove it (one may start the file only)"),
    ("yaml a key twice", "c.yaml", "cards:\n  - name: X\n    name: Y\n", "3:5", "duplicate key 'name'"),
    ("yaml not in the table: the parser's words", "c.yaml", "cards: !x!y a\n", "1:8",
     "invalid YAML: while parsing a node: found undefined tag handle"),
]


@pytest.mark.parametrize("case, name, content, where, message", SYNTAX, ids=[row[0] for row in SYNTAX])
def test_a_syntax_error_is_said_in_plain_words_with_its_place_in_every_command(tmp_path, case, name, content, where, message):
    path = tmp_path / name
    path.write_text(content)
    for command in COMMANDS:
        result, out = run_command(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert f"{path}:{where}: {message}" in result.stderr, (command, result.stderr)
        assert out is None or not out.exists()


@pytest.mark.parametrize("case, name, content, where, message", SYNTAX, ids=[row[0] for row in SYNTAX])
def test_the_api_and_the_workbench_say_the_same_words(tmp_path, case, name, content, where, message):
    from kotc_rulesc import api
    from kotc_rulesc.reading.policy import InputError
    from kotc_rulesc.workbench.app import Workbench

    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError) as caught:
        api.check(path)
    line, column = map(int, where.split(":"))
    assert (caught.value.message, caught.value.line, caught.value.column) == (message, line, column)
    status, _, body = Workbench(api.rules()).open_collection(name, content.encode(), None)
    error = json.loads(body)["error"]
    assert (status, error["message"], error["line"], error["column"]) == (422, message, line, column)


@pytest.mark.parametrize("line, message", [
    ('{"name": "X",}', "card 2: a comma before '}': remove it (JSON allows no comma after the last item)"),
    ('{"name": "X", "type": ', "card 2: the line ends where a value should be"),
    ('{"name": "X"} {"name": "Y"}', "card 2: more text after the end of the JSON value: the line holds one value"),
    ('\ufeff{"name": "X"}', "card 2: a byte-order mark (U+FEFF, which an editor does not show): remove it"),  # files joined
])
def test_a_jsonl_line_with_a_syntax_error_is_one_unreadable_card_in_plain_words(tmp_path, line, message):
    path = tmp_path / "c.jsonl"
    path.write_text(GOOD_LINE + "\n" + line + "\n")
    result, _ = run_command("check-cards", path)
    assert result.exit_code == 1 and message in result.output


def test_the_docs_list_the_syntax_errors_as_players_read_them():
    """Each message's first clause is in docs/input-policy.md's table, up to what it quotes and counts."""
    def shape(text: str) -> str:
        return re.sub(r"'[^'\s]{1,3}'|\"[^\"\n]*\"|\d+|\b\w+ is not JSON|the key \w+", "…", text)

    docs = shape((ROOT / "docs" / "input-policy.md").read_text())
    for case, _, _, _, message in SYNTAX:
        assert shape(message.split(": ")[0]) in docs, case
