#!/usr/bin/env python3
"""The worst case of each limit of the input policy (README "Input policy"), timed (prints figures; not a test).

For each limit, a file at it or just past it, built to cost the reader most: a 16 MiB YAML
collection (the largest read whole), 1 MiB lines (a comment line followed by a duplicate key, an
anchor or a tag — issue 27's case 5 —, fifteen such lines, a 1 MiB JSONL card, a 1 MiB JSON value),
nesting (64 levels taken, a 1 MiB line of ``[`` refused), long integers, an alias bomb, keys twice
after 100,000 keys, 100,000 surrogate pairs and a lone one after them, and a stream read to its
limit (1 GiB of blank lines through a pipe).  Each file goes through ``check-cards``, ``cost`` and
``migrate`` (``cost``, which prints every card's reckoning, not the large collections; the rules files
through ``check``), each run a process of its own: the wall time,
the exit status and the refusal.  Every time is linear in the input: no case takes long but for its size.

Usage::

    python bench/limits_bench.py                    # kotc-rulesc of this interpreter (python -m kotc_rulesc)
    python bench/limits_bench.py --kotc /tmp/v/bin/kotc-rulesc --only yaml
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini_rules"
MiB = 1 << 20
CARD = {"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}
CARD_YAML = "  - name: Insight\n    type: spell\n    edition: 2\n    cost: 4\n    text: Draw 2 cards.\n"
COMMENT = "# " + "x" * (MiB - 3) + "\n"  # a line of 1 MiB with its line break


def yaml_cards(n: int) -> str:
    return "cards:\n" + "".join(CARD_YAML.replace("Insight", f"Insight {i}") for i in range(n))


def cases() -> list[tuple[str, str, str, str]]:
    """(limit, what, file name, content): the card files."""
    line = json.dumps(CARD)
    one = len(yaml_cards(1)) - len("cards:\n") + 6  # a card's lines, with room for its number
    big_yaml = yaml_cards((16 * MiB - 8) // one)
    deep = "[" * 64 + "]" * 64
    pairs = "\\ud83d\\ude00" * 80_000
    keys = ", ".join(f'"k{i}": {i}' for i in range(50_000))
    return [
        ("a YAML file: 16 MiB", f"{len(big_yaml) / MiB:.1f} MiB of cards", "big.yaml", big_yaml),
        ("a YAML file: 16 MiB", "16 MiB + 1 byte", "over.yaml", big_yaml + " " * (16 * MiB + 1 - len(big_yaml))),
        ("a line: 1 MiB", "a 1 MiB comment line, then a key twice (issue 27 case 5)", "comment-dup.yaml",
         COMMENT + yaml_cards(1) + "    cost: 5\n"),
        ("a line: 1 MiB", "a 1 MiB comment line, then an anchor", "comment-anchor.yaml", COMMENT + yaml_cards(1).replace("  - name", "  - &a\n    name")),
        ("a line: 1 MiB", "a 1 MiB comment line, then a tag", "comment-tag.yaml", COMMENT + yaml_cards(1).replace("  - name", "  - !card\n    name")),
        ("a line: 1 MiB", "15 such lines (15 MiB), then a key twice", "comments-dup.yaml", COMMENT * 15 + yaml_cards(1) + "    cost: 5\n"),
        ("a line: 1 MiB", "a JSONL card of 1 MiB", "long.jsonl", json.dumps({**CARD, "flavor": "x" * (MiB - 200)}) + "\n"),
        ("a line: 1 MiB", "a JSON card of 1 MiB", "long.json", json.dumps({"cards": [{**CARD, "flavor": "x" * (MiB - 200)}]})),
        ("a line: 1 MiB", "a JSON card of 1 MiB + 1", "over.json", json.dumps({"cards": [{**CARD, "flavor": "x" * MiB}]})),
        ("nesting: 64 levels", "64 levels in a JSONL card", "deep64.jsonl", json.dumps(CARD)[:-1] + f', "x": {deep[2:-2]}}}\n'),
        ("nesting: 64 levels", "a 1 MiB line of [ (YAML)", "deep.yaml", "cards:\n  - {name: A, x: " + "[" * (MiB - 30) + "\n"),
        ("nesting: 64 levels", "a 1 MiB line of [ (JSONL)", "deep.jsonl", '{"x": ' + "[" * (MiB - 10) + "\n"),
        ("an integer: 100 digits", "an integer of 1 MiB of digits (YAML)", "int.yaml", "cards:\n  - {name: A, cost: " + "9" * (MiB - 30) + "}\n"),
        ("an integer: 100 digits", "an integer of 1 MiB of digits (JSONL)", "int.jsonl", '{"cost": ' + "9" * (MiB - 12) + "}\n"),
        ("a YAML alias", "an alias bomb (9 levels of 9)", "bomb.yaml", "cards:\n  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
         + "".join(f"  - &{b} [*{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}]\n" for a, b in zip("abcdefgh", "bcdefghi"))),
        ("a key twice", "50,000 keys, then one twice (JSONL)", "keys.jsonl", "{" + keys + ', "k0": 1}\n'),
        ("a key twice", "50,000 keys, then one twice (YAML)", "keys.yaml", "cards:\n  - {" + keys.replace('"', "") + ", k0: 1}\n"),
        ("encoding", "80,000 surrogate pairs, then a lone one (JSONL)", "surrogates.jsonl", '{"name": "' + pairs + '\\ud83c"}\n'),
        ("encoding", "two byte-order marks (JSON, issue 27 case 10)", "boms.json", "\ufeff\ufeff" + json.dumps({"cards": [CARD]})),
        ("JSONL lines", "200,000 one-line cards", "many.jsonl", "".join(line.replace("Insight", f"Insight {i}") + "\n" for i in range(200_000))),
    ]


def rules_cases() -> list[tuple[str, str, str]]:
    """(what, the text appended to the mini rules' first file): the rules files."""
    return [
        ("a 1 MiB comment line, then a key twice (issue 27 case 5)", COMMENT + "edition: 1\n"),
        ("15 such lines, then a key twice", COMMENT * 15 + "edition: 1\n"),
        ("a 1 MiB line of {", "deep: " + "{a: " * (MiB // 4 - 8) + "\n"),
        ("\\U00110000 (issue 27 case 7)", 'note: "\\U00110000"\n'),
    ]


def run(argv: list[str], stdin: str | None = None) -> tuple[float, int, str]:
    """Seconds, exit status, and what the command said first on standard error (its refusal)."""
    start = time.perf_counter()
    if stdin is None:
        done = subprocess.run(argv, capture_output=True)
    else:  # a pipe fed by a shell: the stream limit
        done = subprocess.run(["sh", "-c", stdin + " | " + " ".join(argv)], capture_output=True)
    said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().split("\n")[0]
    said = re.sub(r"^(?:[Ee]rror: )?\S+?(?::\d+)*: ", "", said)[:60] if done.returncode == 2 else ""  # (no place)
    return time.perf_counter() - start, done.returncode, said.replace("|", "\\|")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kotc", help="the kotc-rulesc command (default: this interpreter's python -m kotc_rulesc)")
    ap.add_argument("--only", default="", help="run only the cases whose file name contains this")
    ap.add_argument("--stream", action="store_true", help="also read 1 GiB through a pipe (about a minute)")
    args = ap.parse_args()
    kotc = [args.kotc] if args.kotc else [sys.executable, "-m", "kotc_rulesc"]
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}; {' '.join(kotc)}\n")
    print("| limit | worst case | command | seconds | exit | refused: |\n| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="kotc-limits-") as tmp:
        folder = Path(tmp)
        for limit, what, name, content in cases():
            if args.only not in name:
                continue
            path = folder / name
            path.write_text(content, encoding="utf-8")
            for command in ("check-cards", "migrate") if name in ("big.yaml", "many.jsonl") else ("check-cards", "cost", "migrate"):
                extra = ["--from", "2", "--to", "3", "-o", str(folder / f"out-{name}")] if command == "migrate" else ["-e", "2"]
                seconds, code, said = run(kotc + [command, str(path), *extra, "--rules", str(MINI)])
                print(f"| {limit} | {what} | {command} | {seconds:.2f} | {code} | {said} |", flush=True)
            path.unlink()
        for what, extra in rules_cases():
            if args.only and args.only not in "rules":
                continue
            rules = folder / "rules"
            shutil.rmtree(rules, ignore_errors=True)
            shutil.copytree(MINI, rules)
            first = rules / "edition-01.yaml"
            first.write_text(first.read_text() + "\n" + extra)
            seconds, code, said = run(kotc + ["check", "--rules", str(rules)])
            print(f"| a rules file | {what} | check | {seconds:.2f} | {code} | {said} |", flush=True)
        if args.stream:  # a card (JSONL), then blank lines of 1 MiB
            feed = f"(echo '{json.dumps(CARD)}'; for i in $(seq 1025); do printf '%1048575s\\n' ''; done)"
            seconds, code, said = run(kotc + ["check-cards", "-", "-e", "2", "--rules", str(MINI)], stdin=feed)
            print(f"| a stream: 1 GiB | a card, then 1 GiB + 1 MiB of blank lines, through a pipe | check-cards | {seconds:.2f} | {code} "
                  f"| {said} |")


if __name__ == "__main__":
    main()
