"""Fuzz, the generators of issue 27's hostile campaign (beside tests/test_fuzz.py's, with its bounds:
a fixed number of examples each, derandomized in CI, ``KOTC_FUZZ=N`` hunts longer): odd entries in a
rules folder, edition arguments in any spelling, every kind of output target of every command that
writes (a full disk and a read-only folder injected into the writer), build's output folders, and
the reading cases (merge keys, tags, escapes past U+10FFFF, byte-order marks), each decided once for
every command by the readers (kotc_rulesc/reading/; case 5, a long comment line before a duplicate
key, is tests/test_input_policy.py's)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import event, given
from hypothesis import strategies as st

from kotc_rulesc import output
from kotc_rulesc.cli import main
from kotc_rulesc.model import parse_edition_key
from test_fuzz import MINI, fuzz, invoke

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
LEGAL_CARD = {"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}


@contextlib.contextmanager
def never_waiting(*fifos: Path):
    """A FIFO a regression opens is answered at once, never waited on: for each, a thread opens the
    other end and closes it (a reader gets an empty input, a writer a reader that goes), so that a
    test fails rather than hangs."""
    def other_end(path: Path) -> None:
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_RDWR))  # (a FIFO open for both never waits; closing it ends the wait of either)

    def answer(path: Path) -> None:
        while not done.is_set():
            time.sleep(0.05)
            other_end(path)

    done = threading.Event()
    threads = [threading.Thread(target=answer, args=(f,), daemon=True) for f in fifos]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        done.set()
        for t in threads:
            t.join(5)


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: its kind and, for a file, its bytes (links not followed)."""
    out = {}
    for path in sorted(root.rglob("*")):
        mode = os.lstat(path).st_mode
        kind = stat.S_IFMT(mode)
        out[path.relative_to(root).as_posix()] = (kind, path.read_bytes() if stat.S_ISREG(mode) else
                                                  os.readlink(path) if stat.S_ISLNK(mode) else None)
    return out


# --------------------------------------------------------------------------- odd entries in a rules folder (case 13)

ENTRY_KINDS = ["fifo", "directory", "dangling link", "link loop", "device"]


@fuzz(25)
@given(st.sampled_from(ENTRY_KINDS), st.sampled_from(["edition-02.yaml", "edition-04.yaml", "edition-11-pre.yaml", "notes.yml"]),
       st.sampled_from([["check"], ["show", "-e", "2"], ["editions"], ["diff", "1", "3"], ["new-edition", "4"]]))
def test_fuzz_odd_entries_in_a_rules_folder(kind, name, command):
    """An entry named like a rules file that cannot be one is named, exit 2, never opened."""
    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules"
        shutil.copytree(MINI, rules)
        entry = rules / name
        if entry.exists():
            entry.unlink()
        if kind == "fifo":
            os.mkfifo(entry)
        elif kind == "directory":
            entry.mkdir()
        elif kind == "dangling link":
            entry.symlink_to(rules / "nowhere.yaml")
        elif kind == "link loop":
            entry.symlink_to(rules / "loop.yml")
            (rules / "loop.yml").symlink_to(entry)
        else:
            entry.symlink_to("/dev/null")
        with never_waiting(*([entry] if kind == "fifo" else [])):
            result = invoke([*command, "--rules", str(rules)])
        assert result.exit_code == 2, result.output
        assert f"{name}: is " in result.output and "not a rules file" in result.output, result.output


# --------------------------------------------------------------------------- edition arguments (case 9)

SPELLINGS = st.builds(
    lambda n, suffix, pre, pad: f"{pad}{n}{suffix}{pre}{pad}",
    st.integers(0, 20),
    st.sampled_from(["", "", "st", "nd", "rd", "th", "TH", "Th"]),
    st.sampled_from(["", "", "", "-pre", "-PRE", "-Pre", "pre", "-pre-pre", "_pre"]),
    st.sampled_from(["", "", " ", "\t"]),
)
editions = st.one_of(
    SPELLINGS,
    st.sampled_from(["11-pre", "10", "17", "18", "0", "-1", "9" * 30, "9" * 5000, "١٠", "𝟏𝟎", "1e3", "0x10", "10.0", "",
                     " ", "-", "pre", "-pre", "\x1b[31m10", "10\u202e", "1\x00", "11-pre\n", "+3", "03", "0011-pre"]),
    st.text(max_size=6),
)


def _known(view, text: str):
    """The edition ``text`` names if the rules know it, else None."""
    try:
        key = parse_edition_key(text) if len(text.strip()) <= 24 else None
    except ValueError:
        return None
    return key if key in view.keys else None


@fuzz(200)
@given(st.sampled_from(["show", "diff", "check-cards", "cost", "migrate"]), editions, editions)
def test_fuzz_edition_arguments(command, a, b):
    """Any spelling of an edition, pre-releases, out of range: a result or a usage error (exit 2),
    never a traceback; an edition the rules know is taken, one they do not is refused."""
    from kotc_rulesc.cards.rules_source import get_view

    view = get_view(None)
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / "cards.json"
        cards.write_text(json.dumps({"cards": [dict(LEGAL_CARD, edition=6)]}))
        args = {"show": ["show", "-e", a], "diff": ["diff", a, b], "check-cards": ["check-cards", str(cards), "-e", a],
                "cost": ["cost", "-e", a, "--type", "spell", "--text", "Draw 2 cards."],
                "migrate": ["migrate", str(cards), "--from", a, "--to", b, "--dry-run"]}[command]
        result = invoke(args)
    ka, kb = _known(view, a), _known(view, b)
    event(f"{command}: {result.exit_code}")
    if ka is None or command in ("diff", "migrate") and kb is None:
        assert result.exit_code == 2, (args, result.output)
    elif command == "diff":
        backwards = ka == kb or view.path(kb, ka) is not None
        assert result.exit_code == (2 if backwards else 0), (args, result.output)
    elif command in ("show", "check-cards"):
        assert result.exit_code in (0, 1), (args, result.output)


# --------------------------------------------------------------------------- output targets (cases 1-4)

TARGET_KINDS = {  # kind: refused (exit 2, nothing changed), or written
    "new": False, "regular": False, "link to a new file": False, "fifo": True, "device": True, "directory": True,
    "link to the input": True, "hard link to the input": True, "link to a rules file": True, "a rules file": True,
    "yaml beside the rules": True, "link to a missing folder": True, "link loop": True, "in a missing folder": True,
    "read-only folder": True, "full disk": True,
}
WRITERS = ["schema -o", "migrate -o", "migrate --report", "new-edition", "rules export"]


def _make_target(kind: str, w: Path, at: Path, source: Path) -> Path | None:
    """Put a ``kind`` of thing at ``at`` (in the workspace ``w``; ``source`` is what the command
    reads); the path to give the command (None: this kind cannot be made here)."""
    if kind == "regular":
        at.write_text("someone's file\n")
    elif kind == "link to a new file":
        at.symlink_to(w / "fresh.out")
    elif kind == "fifo":
        os.mkfifo(at)
    elif kind == "device":  # (as root a node of our own, so that a regression replaces nothing that matters)
        if os.geteuid() == 0:
            os.mknod(at, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        else:
            at.symlink_to("/dev/null")
    elif kind == "directory":
        at.mkdir()
    elif kind == "link to the input":
        at.symlink_to(source)
    elif kind == "hard link to the input":
        try:
            os.link(source, at)
        except OSError:  # (another file system)
            return None
    elif kind == "link to a rules file":
        at.symlink_to(w / "rules" / "edition-02.yaml")
    elif kind == "a rules file":
        return w / "rules" / "edition-01.yaml"
    elif kind == "yaml beside the rules":
        return w / "rules" / "out.yaml"
    elif kind == "link to a missing folder":
        at.symlink_to(w / "missing" / "file")
    elif kind == "link loop":
        at.symlink_to(w / "loop")
        (w / "loop").symlink_to(at)
    elif kind == "in a missing folder":
        return w / "missing" / at.name
    return at


@fuzz(80)
@given(st.sampled_from(WRITERS), st.sampled_from(sorted(TARGET_KINDS)))
def test_fuzz_output_targets(writer, kind):
    """Every command that writes a file, at every kind of target: refused (exit 2) with everything as
    it was, or written whole; never a traceback, never a hang, no temporary file left, no input and
    no rules file replaced.  A full disk and a read-only folder are injected (ENOSPC, EROFS)."""
    with tempfile.TemporaryDirectory() as tmp:
        w = Path(tmp)
        shutil.copytree(MINI, w / "rules")
        (w / "cards.json").write_text(json.dumps({"cards": [LEGAL_CARD]}))
        (w / "export").mkdir()
        at = {"new-edition": w / "rules" / "edition-04.yaml", "rules export": w / "export" / "README.md"}.get(writer, w / "target")
        source = {"schema -o": ROOT / "kotc_rulesc" / "schemas" / "edition.schema.json", "new-edition": w / "rules" / "edition-02.yaml",
                  "rules export": ROOT / "rules" / "README.md"}.get(writer, w / "cards.json")
        bundled = source.read_bytes()
        target = _make_target(kind, w, at, source)
        if target is None or writer in ("new-edition", "rules export") and target != at:
            return  # (its target is a file of its own: a kind that is another file is other writers')
        args = {"schema -o": ["schema", "edition", "-o", str(target)],
                "migrate -o": ["migrate", str(w / "cards.json"), "--to", "3", "-o", str(target), "--rules", str(w / "rules")],
                "migrate --report": ["migrate", str(w / "cards.json"), "--to", "3", "-o", str(w / "out.json"),
                                     "--report", str(target), "--rules", str(w / "rules")],
                "new-edition": ["new-edition", "4", "--force", "--rules", str(w / "rules")],
                "rules export": ["rules", "export", str(w / "export"), "--force"]}[writer]
        before = _snapshot(w)
        fault = {"full disk": mock.patch.object(output, "_write", side_effect=OSError(errno.ENOSPC, "No space left on device")),
                 "read-only folder": mock.patch.object(output, "locked_temp", side_effect=OSError(errno.EROFS, "Read-only file system"))}
        with fault.get(kind, contextlib.nullcontext()), never_waiting(*([target] if kind == "fifo" else [])):
            result = invoke(args)
        after = _snapshot(w)
        event(f"{writer}, {kind}: {result.exit_code}")
        assert not [name for name in after if output.TEMP_MARK in name], after
        assert source.read_bytes() == bundled
        for name, (what, data) in before.items():  # the inputs and the rules, as they were
            if name.startswith("rules/edition-0") and name != "rules/edition-04.yaml" or name == "cards.json":
                assert after.get(name) == (what, data), name
        # (new-edition: a link in the rules folder is no rules file; a file of someone's needs --discard-changes)
        # (rules export writes inside its folder, through no link)
        refused = TARGET_KINDS[kind] or writer == "new-edition" and kind in ("regular", "link to a new file") \
            or writer == "rules export" and kind.startswith("link")
        if refused:
            assert result.exit_code == 2, (writer, kind, result.output)
            assert {k: v for k, v in after.items() if k != "out.json"} == before, (writer, kind)
        else:
            assert result.exit_code in (0, 1), (writer, kind, result.output)
            assert stat.S_ISREG(os.stat(target).st_mode)


BUILD_KINDS = ["a foreign manifest", "a foreign file", "docs a link", "a table a link", "a fifo page", "manifest a fifo",
               "manifest a link", "a folder where a file goes", "interrupted", "full disk", "read-only folder"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The mini rules built once: what each example copies."""
    seed = tmp_path_factory.mktemp("built") / "out"
    assert invoke(["build", "--rules", str(MINI), "-o", str(seed)], bound=60).exit_code == 0
    return seed


@fuzz(16)
@given(kind=st.sampled_from(BUILD_KINDS), when=st.integers(1, 25))
def test_fuzz_build_output_folders(built, kind, when):
    """build -o DIR at every kind of folder: it writes inside DIR only, through no link, removes only
    what its own manifest lists, and a build that did not finish is taken up by the next one."""
    with tempfile.TemporaryDirectory() as tmp:
        w = Path(tmp)
        out, elsewhere = w / "out", w / "elsewhere"
        elsewhere.mkdir()
        (elsewhere / "keep.txt").write_text("keep\n")
        args = ["build", "--rules", str(MINI), "-o", str(out)]
        if kind not in ("a foreign manifest", "interrupted", "full disk", "read-only folder"):
            shutil.copytree(built, out, symlinks=True)
        fifos = []
        if kind == "a foreign manifest":
            out.mkdir()
            (out / "MANIFEST.json").write_text(json.dumps({"generator": "other", "files": [{"path": "keep.txt"}]}))
            (out / "keep.txt").write_text("keep\n")
        elif kind == "a foreign file":
            (out / "kotc_tables" / "notes.txt").write_text("mine\n")
        elif kind == "docs a link":
            shutil.rmtree(out / "docs")
            (out / "docs").symlink_to(elsewhere)
        elif kind == "a table a link":
            (out / "kotc_tables" / "edition_02.py").unlink()
            (out / "kotc_tables" / "edition_02.py").symlink_to(elsewhere / "keep.txt")
        elif kind in ("a fifo page", "manifest a fifo"):
            fifo = out / ("MANIFEST.json" if kind == "manifest a fifo" else "docs/index.html")
            fifo.unlink()
            os.mkfifo(fifo)
            fifos.append(fifo)
        elif kind == "manifest a link":
            (out / "MANIFEST.json").unlink()
            (out / "MANIFEST.json").symlink_to(elsewhere / "keep.txt")
        elif kind == "a folder where a file goes":
            (out / "docs" / "index.html").unlink()
            (out / "docs" / "index.html").mkdir()
        before = _snapshot(w)
        calls = [0]

        def stop(*a, **k):
            calls[0] += 1
            if calls[0] >= when:
                raise {"interrupted": KeyboardInterrupt, "full disk": OSError(errno.ENOSPC, "No space left on device"),
                       "read-only folder": OSError(errno.EROFS, "Read-only file system")}[kind]
            return real(*a, **k)

        real = output._write
        fault = mock.patch.object(output, "_write", stop) if kind in ("interrupted", "full disk", "read-only folder") \
            else contextlib.nullcontext()
        with fault, never_waiting(*fifos):
            result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output
        after = _snapshot(w)
        event(f"{kind}: {result.exit_code}")
        assert after["elsewhere/keep.txt"] == before["elsewhere/keep.txt"] and len([k for k in after if k.startswith("elsewhere")]) == 2
        assert not [name for name in after if output.TEMP_MARK in name], after
        if kind == "a foreign file":
            assert result.exit_code == 0 and after["out/kotc_tables/notes.txt"] == before["out/kotc_tables/notes.txt"]
        elif kind in ("interrupted", "full disk", "read-only folder"):
            assert result.exit_code in (0, 2, 130)
            again = invoke(args, bound=60)
            assert again.exit_code == 0, again.output
            assert invoke(["build", "--check", "--rules", str(MINI), "-o", str(out)], bound=60).exit_code == 0
        else:
            assert result.exit_code == 2, (kind, result.output)
            assert after == before, kind


# --------------------------------------------------------------------------- the reading cases

READING_CASES = {
    "06 merge key": lambda draw: ("yaml", "cards:\n  - name: X\n    " + draw(st.sampled_from(
        ["<<: {type: spell}", "<<: [{type: spell}, {cost: 4}]", "<<: {text: \"Draw 2 cards.\"}"])) + "\n    edition: 6\n"
        "    cost: 4\n" + ("    type: spell\n" if draw(st.booleans()) else "") + "    text: \"Draw 2 cards.\"\n"),
    "07 an escape past U+10FFFF": lambda draw: ("yaml", "cards:\n  - {name: \"" + draw(st.sampled_from(
        ["\\U00110000", "\\UFFFFFFFF", "\\U0011ffff", "X\\U7fffffffX"])) + "\", type: spell, edition: 6, cost: 4, text: \"Draw 2 cards.\"}\n"),
    "08 a tagged card list": lambda draw: ("yaml", "cards: " + draw(st.sampled_from(["!foo", "!!python/list", "!!seq", "!<tag:x>"]))
                                         + "\n  - {name: X, type: spell, edition: 6, cost: 4, text: \"Draw 2 cards.\"}\n"),
    "10 two byte-order marks": lambda draw: (draw(st.sampled_from(["json", "jsonl"])), None),
}


@st.composite
def reading_case(draw, case: str):
    fmt, text = READING_CASES[case](draw)
    if text is None:  # byte-order marks before a JSON collection
        card = json.dumps(dict(LEGAL_CARD, edition=6))
        text = '{"cards": [' + card + "]}\n" if fmt == "json" else card + "\n"
        return fmt, "\ufeff" * draw(st.integers(2, 4)) + text
    return fmt, text


@pytest.mark.parametrize("case", sorted(READING_CASES))
@fuzz(10)
@given(data=st.data())
def test_fuzz_the_reading_cases_get_one_answer(case, data):
    """Issue 27, cases 6, 7, 8, 10: each kind of input gets one answer in every command — read (the
    same cards) or refused (exit 2) — never a traceback (a merge key, a tag, an escape past the last
    code point crashed check-cards and cost; two BOMs were refused by check-cards, migrated by migrate)."""
    fmt, text = data.draw(reading_case(case))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"cards.{fmt}"
        path.write_text(text, encoding="utf-8")
        codes = {"check-cards": invoke(["check-cards", str(path), "-e", "6"]).exit_code,
                 "cost": invoke(["cost", str(path), "-e", "6"]).exit_code,
                 "migrate": invoke(["migrate", str(path), "--from", "6", "--to", "8", "-o", str(Path(tmp) / f"out.{fmt}")]).exit_code}
    assert len({code == 2 for code in codes.values()}) == 1, codes
