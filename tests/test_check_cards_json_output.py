"""``check-cards --format json`` into a file: the document is written there as the cards are judged,
and an unreadable collection leaves the file as it was (no part of a document), as on a pipe."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CARD = json.dumps({"name": "Study", "type": "spell", "edition": 6, "cost": 8, "text": "Draw 2 cards."})


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("json-out")
    good, late = folder / "good.jsonl", folder / "late.jsonl"
    good.write_bytes((CARD + "\n").encode() * 3000)  # a document of about 1 MB: written out in many pieces
    late.write_bytes((CARD + "\n").encode() * 3000 + b'{"name": "caf\xe9"}\n')  # unreadable at its end
    return folder, good, late


def check_cards(path, stdout, mode="wb"):
    with open(stdout, mode) as out:
        done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "check-cards", str(path), "-e", "6", "--format", "json"],
                              stdout=out, stderr=subprocess.PIPE)
    return done.returncode, done.stderr.decode()


def piped(path):
    return subprocess.run([sys.executable, "-m", "kotc_rulesc", "check-cards", str(path), "-e", "6", "--format", "json"],
                          capture_output=True).stdout


def test_a_file_gets_the_document_a_pipe_gets(files):
    folder, good, _ = files
    target = folder / "report.json"
    assert check_cards(good, target)[0] == 0
    assert target.read_bytes() == piped(good) and json.loads(target.read_bytes())["summary"]["cards"] == 3000


def test_appended_to_a_file_the_document_follows_what_was_there(files):
    folder, good, _ = files
    target = folder / "log.txt"
    target.write_bytes(b"earlier\n")
    assert check_cards(good, target, "ab")[0] == 0
    assert target.read_bytes() == b"earlier\n" + piped(good)


@pytest.mark.parametrize("before, mode", [(b"", "wb"), (b"earlier\n", "ab")])
def test_an_unreadable_collection_leaves_the_file_as_it_was(files, before, mode):
    folder, _, late = files
    target = folder / f"cut-{mode}.json"
    target.write_bytes(before)
    status, stderr = check_cards(late, target, mode)
    assert status == 2 and "not UTF-8" in stderr
    assert target.read_bytes() == before  # the part written while judging is cut off again
    assert piped(late) == b""


def test_a_file_opened_in_its_middle_is_not_cut(files):
    """``1<>file`` writes from the file's start over what it holds: the document is then held apart,
    and an unreadable collection leaves every byte of the file."""
    folder, _, late = files
    target = folder / "middle.json"
    target.write_bytes(b"kept " * 1000)
    assert check_cards(late, target, "r+b")[0] == 2
    assert target.read_bytes() == b"kept " * 1000
