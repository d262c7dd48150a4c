"""Issue 27, "what a fresh hostile campaign broke": a regression test per case, named after it
(cases 5–8 and 10 are the readers', in tests of the input policy; 11 is
``test_cli_contract.test_an_interrupted_command_exits_130_or_143``).

What cannot be done for real everywhere is simulated, and says so: a full disk and a read-only
folder are real where a user and mount namespace can be made (``unshare -rm``, a tmpfs of a few
hundred KiB: Linux with unprivileged user namespaces, or root), and in every run an ENOSPC or
EROFS injected into the writer in-process; a device node as an output is refused by the check
alone as root (a regression there would replace it)."""

from __future__ import annotations

import errno
import json
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc import output
from kotc_rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).resolve().parent / "fixtures" / "mini_rules"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}
CARD = {"name": "Insight", "type": "spell", "edition": 2, "cost": 4, "text": "Draw 2 cards."}


def invoke(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts}


def temporary_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if output.TEMP_MARK in p.name)


@pytest.fixture
def rules(tmp_path) -> Path:
    shutil.copytree(MINI, tmp_path / "rules")
    return tmp_path / "rules"


def full_disk(monkeypatch, after: int = 0) -> None:
    """ENOSPC on every write to a temporary file of the writer after the first ``after``."""
    calls = [0]
    real = output._write

    def write(self, data):
        calls[0] += 1
        if calls[0] > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, data)

    monkeypatch.setattr(output, "_write", write)


def read_only(monkeypatch) -> None:
    """EROFS where the writer makes its temporary file (as a read-only mount answers)."""
    def refuse(target):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.path.dirname(os.path.abspath(target)))

    monkeypatch.setattr(output, "locked_temp", refuse)


# --------------------------------------------------------------------------- a real tmpfs, where one can be made

def _namespaces() -> str | None:
    """Why a tmpfs of our own cannot be mounted here, or None."""
    if shutil.which("unshare") is None:
        return "no unshare(1) here"
    done = subprocess.run(["unshare", "-rm", "true"], capture_output=True, text=True)
    return None if done.returncode == 0 else f"unshare -rm fails here: {done.stderr.strip()}"


NO_TMPFS = _namespaces()

#: run in a user and mount namespace on a fresh tmpfs WORK (the namespace's root owns it): copy
#: the mini rules in, then ``SETUP`` (fill the disk, make it read-only), run the command, and
#: report its status, its standard error and what is left in WORK, as JSON
_IN_TMPFS = r"""
import json, os, shutil, subprocess, sys
work, setup, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
shutil.copytree(os.environ["KOTC_MINI"], os.path.join(work, "rules"))
for name, data in json.loads(os.environ.get("KOTC_FILES", "{}")).items():
    with open(os.path.join(work, name), "w") as f:
        f.write(data)
if setup == "full":
    fd = os.open(os.path.join(work, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    os.close(fd)
elif setup == "ro":
    subprocess.run(["mount", "-o", "remount,ro", work], check=True)
command = [sys.executable, "-m", "kotc_rulesc", *[a.replace("{work}", work) for a in args]]
done = subprocess.run(command, capture_output=True, text=True, cwd=work)
again = None
if setup == "grow":  # room made, the same command again
    subprocess.run(["mount", "-o", "remount,size=8m", work], check=True)
    again = subprocess.run(command, capture_output=True, text=True, cwd=work).returncode
left = {}
for root, dirs, names in os.walk(work):
    for name in names:
        path = os.path.join(root, name)
        left[os.path.relpath(path, work)] = os.path.getsize(path)
left.pop("filler", None)
print(json.dumps({"code": done.returncode, "stderr": done.stderr, "left": left, "again": again}))
"""


def in_tmpfs(where: Path, *args: str, setup: str = "", size: str = "1m", files: dict | None = None) -> dict:
    """Run ``kotc-rulesc ARGS`` (``{work}`` is the tmpfs, mounted on the folder ``where``, seen only
    by the namespace) on a real tmpfs of ``size``: ``setup`` is ``full`` (filled up), ``ro``
    (remounted read-only), ``grow`` (the command run again once the tmpfs is made larger:
    ``again``, its status) or nothing."""
    if NO_TMPFS:
        pytest.skip(f"a real tmpfs needs a mount namespace: {NO_TMPFS} (the in-process tests inject the error instead)")
    where.mkdir()
    script = f'mount -t tmpfs -o size={size} tmpfs "$1" && shift && exec "$@"'
    env = {**ENV, "KOTC_MINI": str(MINI), "KOTC_FILES": json.dumps(files or {}), "KOTC_RULESC_CACHE": "off"}
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(where), sys.executable, "-c", _IN_TMPFS, str(where),
                           setup, json.dumps(list(args))], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- case 1: build -o DIR deletes files it did not write


def test_case_01_build_out_keeps_files_it_did_not_write(rules, tmp_path):
    """Was: ``mkdir d; echo '{}' > d/MANIFEST.json; echo keep > d/precious.txt; build -o d`` removed
    precious.txt, exit 0.  A folder is a build's by its manifest's content, not its name."""
    for manifest in ("{}\n", json.dumps({"generator": "another-tool 2.0", "files": [{"path": "precious.txt"}]}),
                     json.dumps({"generator": "kotc-rulesc", "format": 3, "files": []}), "not json", "[]"):
        out = tmp_path / "d"
        out.mkdir()
        (out / "MANIFEST.json").write_text(manifest)
        (out / "precious.txt").write_text("keep\n")
        result = invoke("build", "--rules", rules, "-o", out)
        assert result.exit_code == 2, (manifest, result.output)
        assert "not a kotc-rulesc output directory" in result.stderr
        assert tree(out) == {"MANIFEST.json": manifest.encode(), "precious.txt": b"keep\n"}
        shutil.rmtree(out)
    # in the build's own folder, a file no build wrote is kept and named; one the build writes is refused
    out = tmp_path / "built"
    assert invoke("build", "--rules", rules, "-o", out).exit_code == 0
    (out / "notes.txt").write_text("mine\n")
    (out / "docs" / "mine.html").write_text("mine\n")
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 0 and "2 file(s) in" in result.stderr and "no build wrote, kept" in result.stderr
    assert (out / "notes.txt").read_text() == (out / "docs" / "mine.html").read_text() == "mine\n"
    manifest = json.loads((out / "MANIFEST.json").read_text())
    listed = [f["path"] for f in manifest["files"]]
    manifest["files"] = [f for f in manifest["files"] if f["path"] != "docs/index.html"]  # as if another hand put it there
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (out / "docs" / "index.html").write_text("someone's page\n")
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 2 and "docs/index.html is in the way: no build wrote it" in result.stderr
    assert (out / "docs" / "index.html").read_text() == "someone's page\n"
    assert "docs/index.html" in listed


def test_case_01_a_build_removes_what_its_manifest_lists_and_nothing_outside(rules, tmp_path):
    """What the previous build wrote and this one does not is removed; a path in a manifest that
    leads out of the folder is never followed."""
    out = tmp_path / "built"
    invoke("build", "--rules", rules, "-o", out)
    outside = tmp_path / "outside.txt"
    outside.write_text("not the build's\n")
    manifest = json.loads((out / "MANIFEST.json").read_text())
    manifest["files"] += [{"path": "../outside.txt", "sha256": "0"}, {"path": str(outside), "sha256": "0"}]
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (rules / "edition-03.yaml").unlink()
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 0 and "removed" in result.output
    assert not (out / "kotc_tables" / "edition_03.py").exists()
    assert outside.read_text() == "not the build's\n"


def test_case_01_build_never_writes_through_a_link(rules, tmp_path):
    """Was: with DIR/docs a link, the docs were written through it, outside DIR.  A link inside the
    folder (to a folder or to a file) is refused before anything is written, and named."""
    out = tmp_path / "built"
    invoke("build", "--rules", rules, "-o", out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "docs")
    (out / "docs").symlink_to(elsewhere)
    before = tree(out)
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 2, result.output
    assert f"{out / 'docs'} is a symbolic link" in result.stderr and "never through a link" in result.stderr
    assert list(elsewhere.iterdir()) == [] and tree(out) == before
    (out / "docs").unlink()
    assert invoke("build", "--rules", rules, "-o", out).exit_code == 0
    # a link in place of a generated file: the file it points to stays as it is
    victim = tmp_path / "victim.py"
    victim.write_text("precious\n")
    table = out / "kotc_tables" / "edition_01.py"
    table.unlink()
    table.symlink_to(victim)
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 2 and "is a symbolic link" in result.stderr
    assert victim.read_text() == "precious\n" and table.is_symlink()


def test_case_01_a_fifo_in_the_build_folder_is_never_opened(rules, tmp_path):
    """--check and build look at what is in the folder without opening a FIFO (a hang, before)."""
    out = tmp_path / "built"
    invoke("build", "--rules", rules, "-o", out)
    page = out / "docs" / "index.html"
    page.unlink()
    os.mkfifo(page)
    for args, code, said in ((["--check"], 1, "stale"), ([], 2, "is a FIFO (a named pipe), not a file")):
        done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "build", *args, "--rules", str(rules), "-o", str(out)],
                              capture_output=True, text=True, env=ENV, timeout=120)
        assert done.returncode == code and said in done.stdout + done.stderr, done.stdout + done.stderr
    assert page.is_fifo()


# --------------------------------------------------------------------------- case 4: an interrupted first build


@pytest.mark.parametrize("stop", ["interrupt", "full-disk"])
def test_case_04_an_interrupted_first_build_is_taken_up_by_the_next(rules, tmp_path, monkeypatch, stop):
    """Was: a first build killed (or stopped by a full disk) left files without MANIFEST.json, and
    every later build refused the folder until it was deleted by hand.  The manifest is written
    first, "building", listing what the folder may hold."""
    out = tmp_path / "first"
    if stop == "full-disk":
        full_disk(monkeypatch, after=8)
    else:
        real, calls = output.write_file, [0]

        def interrupted(*args, **kwargs):
            calls[0] += 1
            if calls[0] == 6:
                raise KeyboardInterrupt
            return real(*args, **kwargs)

        monkeypatch.setattr(output, "write_file", interrupted)
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == (2 if stop == "full-disk" else 130), result.output
    if stop == "full-disk":
        assert "No space left on device; the build did not finish: run it again" in result.stderr
    manifest = json.loads((out / "MANIFEST.json").read_text())
    assert "building" in manifest and "files" not in manifest
    assert 1 < len(tree(out)) < 30 and temporary_files(out) == []
    monkeypatch.undo()
    assert invoke("build", "--check", "--rules", rules, "-o", out).exit_code == 1
    result = invoke("build", "--rules", rules, "-o", out)
    assert result.exit_code == 0, result.output
    assert invoke("build", "--check", "--rules", rules, "-o", out).exit_code == 0


_KILLED = """
import os, signal, sys
from kotc_rulesc import output
real, calls = output.write_file, [0]
def killed(*args, **kwargs):
    calls[0] += 1
    if calls[0] == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args, **kwargs)
output.write_file = killed
sys.argv[0] = "kotc-rulesc"
from kotc_rulesc.cli import run
run()
"""


def test_case_04_a_killed_first_build_is_taken_up_by_the_next(rules, tmp_path):
    """SIGKILL, which nothing can clean up after, in the middle of the first build."""
    out = tmp_path / "first"
    done = subprocess.run([sys.executable, "-c", _KILLED, "build", "--rules", str(rules), "-o", str(out)], env=ENV,
                          capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert "building" in json.loads((out / "MANIFEST.json").read_text())
    assert invoke("build", "--rules", rules, "-o", out).exit_code == 0
    assert invoke("build", "--check", "--rules", rules, "-o", out).exit_code == 0
    assert temporary_files(out) == []


def test_case_04_a_first_build_on_a_real_full_disk_is_taken_up_by_the_next(rules, tmp_path):
    """On a tmpfs of 200 KiB (the mini rules' build is about 400 KiB): the build stops, exit 2, and
    the same folder builds once there is room, holding what a build on a roomy disk holds."""
    seen = in_tmpfs(tmp_path / "tmpfs", "build", "--rules", "{work}/rules", "-o", "{work}/out", setup="grow", size="200k")
    assert seen["code"] == 2 and "No space left on device" in seen["stderr"], seen
    assert "Traceback" not in seen["stderr"] and seen["again"] == 0
    assert invoke("build", "--rules", rules, "-o", tmp_path / "roomy").exit_code == 0
    built = sum(1 for p in (tmp_path / "roomy").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert len([name for name in seen["left"] if name.startswith("out/")]) == built
    assert not [name for name in seen["left"] if output.TEMP_MARK in name]


# --------------------------------------------------------------------------- case 2: new-edition is not atomic


def test_case_02_new_edition_on_a_full_disk_leaves_no_file(rules, monkeypatch):
    """Was: exit 2 blaming "standard output", and a 0-byte edition-04.yaml that broke every later
    command on the rules (and made new-edition want --force)."""
    full_disk(monkeypatch, after=1)  # (the schema beside the rules, which the new file's first line names, fits)
    result = invoke("new-edition", "4", "--rules", rules)
    assert result.exit_code == 2, result.output
    assert f"cannot write {rules / 'edition-04.yaml'}: No space left on device" in result.stderr
    assert "standard output" not in result.output
    assert sorted(p.name for p in rules.iterdir()) == ["edition-01.yaml", "edition-02.yaml", "edition-03.yaml", "edition.schema.json"]
    monkeypatch.undo()
    assert invoke("check", "--rules", rules).exit_code == 0
    assert invoke("new-edition", "4", "--rules", rules).exit_code == 0


def test_case_02_new_edition_in_a_read_only_folder_is_a_clean_error(rules, monkeypatch):
    """Was: an EROFS traceback, exit 1."""
    read_only(monkeypatch)
    result = invoke("new-edition", "4", "--rules", rules)
    assert result.exit_code == 2 and "Read-only file system" in result.stderr, result.output
    assert not (rules / "edition-04.yaml").exists()


@pytest.mark.parametrize("setup", ["full", "ro"])
def test_case_02_new_edition_on_a_real_full_or_read_only_disk(setup, tmp_path):
    seen = in_tmpfs(tmp_path / "tmpfs", "new-edition", "4", "--rules", "{work}/rules", setup=setup, size="256k")
    assert seen["code"] == 2, seen
    assert f"cannot write {tmp_path / 'tmpfs' / 'rules' / 'edition'}" in seen["stderr"] and "standard output" not in seen["stderr"]
    assert ("No space left on device" if setup == "full" else "Read-only file system") in seen["stderr"]
    assert "Traceback" not in seen["stderr"]
    assert sorted(seen["left"]) == ["rules/edition-01.yaml", "rules/edition-02.yaml", "rules/edition-03.yaml"]  # (nor the schema)


@pytest.mark.parametrize("force", [[], ["--force"], ["--force", "--discard-changes"]])
def test_case_02_new_edition_never_waits_on_a_fifo(rules, force):
    """A FIFO where the new file goes is named (the rules folder's listing), never opened."""
    os.mkfifo(rules / "edition-04.yaml")
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "new-edition", "4", *force, "--rules", str(rules)],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2 and "edition-04.yaml: is a FIFO" in done.stderr, done.stderr
    assert (rules / "edition-04.yaml").is_fifo() and sorted(p.name for p in rules.iterdir()) == [
        "edition-01.yaml", "edition-02.yaml", "edition-03.yaml", "edition-04.yaml"]


# --------------------------------------------------------------------------- case 3: schema -o is not atomic and refuses nothing


def test_case_03_schema_out_refuses_fifos_rules_files_and_links_to_them(rules, tmp_path):
    """Was: -o a FIFO blocked for ever; -o rules/edition-01.yaml (or a link to it) overwrote it."""
    first = rules / "edition-01.yaml"
    original = first.read_bytes()
    (tmp_path / "link.yaml").symlink_to(first)
    (tmp_path / "link.json").symlink_to(first)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target, said in ((first, "is a rules file"), (tmp_path / "link.yaml", "is a rules file"),
                         (tmp_path / "link.json", "is a rules file"), (rules / "schema.yaml", "is a rules file"),
                         (fifo, "is a FIFO (a named pipe), not a file")):
        done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "schema", "edition", "-o", str(target)],
                              capture_output=True, text=True, env=ENV, timeout=60)
        assert done.returncode == 2 and said in done.stderr, (target, done.stderr)
    assert first.read_bytes() == original and fifo.is_fifo() and not (rules / "schema.yaml").exists()
    assert output.destination_problem("/dev/null") == "/dev/null is a character device, not a file"
    if os.geteuid() != 0:  # (as root a regression would replace the node: the check above is enough)
        assert invoke("schema", "edition", "-o", "/dev/null").exit_code == 2
    schema = ROOT / "kotc_rulesc" / "schemas" / "edition.schema.json"
    result = invoke("schema", "edition", "-o", schema)
    assert result.exit_code == 2 and "is the bundled schema itself" in result.stderr
    assert invoke("schema", "edition", "-o", rules / "edition.schema.json").exit_code == 0  # (beside the rules: fine)


def test_case_03_schema_out_on_a_full_disk_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    """Was: a full disk left FILE truncated (8,192 of 15,894 bytes)."""
    target = tmp_path / "edition.schema.json"
    target.write_text("the previous version\n")
    full_disk(monkeypatch)
    result = invoke("schema", "edition", "-o", target)
    assert result.exit_code == 2 and f"cannot write {target}: No space left on device" in result.stderr
    assert target.read_text() == "the previous version\n" and temporary_files(tmp_path) == []


def test_case_03_schema_out_on_a_real_full_disk(tmp_path):
    seen = in_tmpfs(tmp_path / "tmpfs", "schema", "edition", "-o", "{work}/edition.schema.json", setup="full", size="256k",
                    files={"edition.schema.json": "the previous version\n"})
    assert seen["code"] == 2 and "No space left on device" in seen["stderr"], seen
    assert seen["left"]["edition.schema.json"] == len("the previous version\n")
    assert not [name for name in seen["left"] if output.TEMP_MARK in name]


# --------------------------------------------------------------------------- every output: the same refusals


def test_every_output_refuses_a_rules_file_an_input_and_a_fifo(rules, tmp_path):
    """The one writer's refusals, command by command: migrate, rules export, import-edition."""
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"cards": [CARD]}))
    result = invoke("migrate", cards, "--to", "3", "-o", rules / "edition-02.yaml", "--rules", rules)
    assert result.exit_code == 2 and "is a rules file" in result.stderr
    result = invoke("migrate", cards, "--to", "3", "-o", rules / "cards.yaml", "--rules", rules)
    assert result.exit_code == 2 and "is a rules file" in result.stderr  # (the loader would read it)
    exported = tmp_path / "exported"
    exported.mkdir()
    os.mkfifo(exported / "README.md")
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "rules", "export", str(exported), "--force"],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2 and "README.md is a FIFO" in done.stderr, done.stderr
    result = invoke("rules", "export", ROOT / "rules", "--force")
    assert result.exit_code == 2 and "a bundled rules file" in result.stderr
    assert subprocess.run(["git", "status", "--porcelain", "rules"], cwd=ROOT, capture_output=True, text=True).stdout == ""


# --------------------------------------------------------------------------- case 9: diff 11-pre 10


@pytest.mark.parametrize("a, b", [("11-pre", "10"), ("11-PRE", "10th"), (" 11th-pre", "1"), ("11-pre", "11-pre"), ("10", "10")])
def test_case_09_diff_backwards_across_a_pre_release_is_a_usage_error(a, b):
    """Was: ``diff 11-pre 10`` (any edition up to the 10th after 11-pre, in any spelling) crashed
    with a TypeError comparing "11-pre" with 10."""
    result = invoke("diff", a, b)
    assert result.exit_code == 2, result.output
    assert "a diff runs forwards" in result.stderr
    if a.strip().lower().startswith("11") and b != "11-pre":
        assert "run: diff " in result.stderr and " 11-pre" in result.stderr


def test_case_09_every_pair_of_editions_is_a_diff_or_a_usage_error():
    from kotc_rulesc.cards.rules_source import get_view
    from kotc_rulesc.diff import DiffOrderError, diff_editions

    view = get_view(None)
    for a in view.keys:
        for b in view.keys:
            try:
                diff_editions(view, a, b)
            except DiffOrderError:
                assert a == b or view.path(b, a) is not None


# --------------------------------------------------------------------------- case 12: control characters on a terminal

EVIL = "Evil\x1b[2J\x1b]0;pwned\x07 \u202eKING\u202c \x9b31m\r"


def on_a_terminal(*args: str, cwd: Path | None = None) -> tuple[int, bytes]:
    """Run ``kotc-rulesc ARGS`` with standard output and error on a pseudo-terminal: status, what it showed."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.argv[0] = 'kotc-rulesc'\nfrom kotc_rulesc.cli import run\nrun()",
                             *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=ENV, cwd=cwd)
    os.close(slave)
    shown = b""
    while select.select([master], [], [], 60)[0]:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # the other side is closed
            break
        if not data:
            break
        shown += data
    os.close(master)
    return proc.wait(60), shown


def _raw_controls(shown: bytes) -> list[str]:
    from kotc_rulesc.terminal import CONTROLS

    return CONTROLS.findall(shown.decode("utf-8").replace("\r\n", "\n"))


def test_case_12_control_characters_reach_a_terminal_escaped(tmp_path):
    """Was: escape sequences and U+202E from card names and rules texts reached the terminal raw
    (check-cards, show, reports, error messages).  On a terminal each is shown as an escape."""
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"cards": [dict(CARD, name=EVIL, text="Draw 2 cards.\x1b[31m")]}))
    rules = tmp_path / "rules"
    shutil.copytree(MINI, rules)
    first = rules / "edition-01.yaml"
    first.write_text(first.read_text().replace('text: "Destroy all targets."', 'text: "Destroy all \\e]0;x\\atargets \\u202eevil."'))
    named = tmp_path / f"{EVIL.strip()}.json"
    for args in (["check-cards", cards, "-e", "2", "--rules", MINI], ["check-cards", cards, "-e", "2", "--format", "json", "--rules", MINI],
                 ["show", "-e", "1", "--rules", rules], ["show", "-e", "1", "--format", "json", "--rules", rules],
                 ["migrate", cards, "--from", "2", "--to", "3", "--dry-run", "--rules", MINI],
                 ["migrate", cards, "--from", "2", "--to", "3", "--rules", MINI],
                 ["check-cards", named, "--rules", MINI], ["diff", "1", "3", "--rules", rules]):
        code, shown = on_a_terminal(*map(str, args))
        assert code in (0, 1, 2) and shown, (args, shown)
        assert _raw_controls(shown) == [], (args, shown)
        assert b"Traceback" not in shown
    code, shown = on_a_terminal("check-cards", str(cards), "-e", "2", "--rules", str(MINI))
    assert "Evil\\x1b[2J\\x1b]0;pwned\\x07 \\u202eKING\\u202c \\u009b31m\\x0d" in shown.decode()
    code, shown = on_a_terminal("check-cards", str(cards), "-e", "2", "--format", "json", "--rules", str(MINI))
    assert json.loads(shown.decode().replace("\r\n", "\n"))["cards"][0]["name"] == EVIL  # (JSON's own escapes: the same value)


def test_case_12_files_and_pipes_get_the_data_as_it_is(tmp_path):
    """Not a terminal: the output is the data as the commands write it (click removes no sequence
    from it any more), and JSON stays valid JSON with the same values."""
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"cards": [dict(CARD, name=EVIL)]}))
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "check-cards", str(cards), "-e", "2", "--rules", str(MINI)],
                          capture_output=True, env=ENV, timeout=60)
    assert EVIL.encode() in done.stdout
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "check-cards", str(cards), "-e", "2", "--format", "json",
                           "--rules", str(MINI)], capture_output=True, env=ENV, timeout=60)
    assert json.loads(done.stdout)["cards"][0]["name"] == EVIL


def test_the_terminal_escapes():
    from kotc_rulesc.terminal import escape

    assert escape("a\tb\nc") == "a\tb\nc"
    assert escape("\x1b[31m\x00\x7f\x85\u061c\u200e\u200f\u202a\u202e\u2066\u2069é€😀") == \
        "\\x1b[31m\\x00\\u007f\\u0085\\u061c\\u200e\\u200f\\u202a\\u202e\\u2066\\u2069é€😀"


# --------------------------------------------------------------------------- case 13: a FIFO named edition-NN.yaml


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "dangling link"])
def test_case_13_a_fifo_or_device_named_like_a_rules_file_is_named(rules, kind):
    """Was: skipped in silence — check exited 1 with 46 follow-on problems and never named it.  Now
    it is named, exit 2, and never opened (a FIFO would wait for a writer)."""
    entry = rules / "edition-02.yaml"
    entry.unlink()
    {"fifo": lambda: os.mkfifo(entry), "device": lambda: entry.symlink_to("/dev/null"),
     "directory": lambda: entry.mkdir(), "dangling link": lambda: entry.symlink_to(rules / "nothing.yaml")}[kind]()
    said = {"fifo": "is a FIFO (a named pipe), not a rules file", "device": "is a character device, not a rules file",
            "directory": "is a directory, not a rules file", "dangling link": "is a link to nothing (No such file or directory), not a rules file"}[kind]
    for command in (["check"], ["show", "-e", "1"], ["build", "-o", str(rules.parent / "out")]):
        done = subprocess.run([sys.executable, "-m", "kotc_rulesc", *command, "--rules", str(rules)],
                              capture_output=True, text=True, env=ENV, timeout=60)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        shown = done.stdout + done.stderr
        assert f"edition-02.yaml: {said}" in shown and shown.count("\n") <= 3, shown


def test_case_13_tables_do_not_answer_for_a_folder_with_a_fifo(tmp_path):
    """Rules served by their compiled tables (a rules checkout: generated/ beside rules/) are read
    from the YAML, which names the FIFO, once one is there."""
    rules = tmp_path / "kotc" / "rules"
    shutil.copytree(MINI, rules)
    assert invoke("build", "--rules", rules).exit_code == 0
    assert invoke("check", "--rules", rules).exit_code == 0
    os.mkfifo(rules / "edition-04.yaml")
    done = subprocess.run([sys.executable, "-m", "kotc_rulesc", "check", "--rules", str(rules)],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2 and "edition-04.yaml: is a FIFO" in done.stdout + done.stderr
