"""Outputs never destroy inputs, and faults leave nothing behind (issue 15, parts 2-4).

``migrate`` refuses an -o or --report that is the collection (or each other, or the backup
--in-place keeps) and an output that is a device, a FIFO or a directory; --in-place takes a lock
(a second run refuses) and the .bak is the file that was read; a killed run's temporary files are
removed by the next run; an OS error on output (a full disk) is a clean exit 2; an interrupted run
(^C, SIGTERM) cleans up and exits 130 or 143.

What cannot be done for real in a test is simulated, and says so: replacing a device node needs
root (the FIFO case runs the same code path; the device check is tested on /dev/null without
writing); a full disk is /dev/full for standard output and an injected ENOSPC for files."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc import output

ROOT = Path(__file__).resolve().parent.parent
RULES = str(Path(__file__).parent / "fixtures" / "migrate" / "rules")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "generated")])}

CARDS = [
    {"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards."},
    {"name": "Sprite", "type": "spell", "cost": 3, "text": "Activate when you take damage. Increase your hitpoints by 2."},
    {"name": "Old Guard", "type": "creature", "edition": 4, "cost": 4, "offense": 2, "defense": 10, "text": "This card has no abilities."},
]


def jsonl(n: int = 3) -> bytes:
    return b"".join(json.dumps(dict(CARDS[i % 3], name=f"{CARDS[i % 3]['name']} #{i}")).encode() + b"\n" for i in range(n))


def invoke(*args: str):
    result = CliRunner().invoke(main, ["migrate", *args, "--from", "1", "--to", "4", "--rules", RULES])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def cli(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kotc_rulesc", "migrate", *args, "--from", "1", "--to", "4",
                             "--rules", RULES], env=ENV, **kwargs)


#: the run holds still after its first block of cards, saying ``stalled`` on standard error, its
#: temporary files made and written to: a signal then comes in the middle of the work, however slow
#: the machine
STALLED = """
from kotc_rulesc.migrate import run as one_run
first = one_run.jsonl_block
def stalled(*a, **k):
    one_run.jsonl_block = lambda *a, **k: (print("stalled", file=sys.stderr, flush=True), time.sleep(600))
    return first(*a, **k)
one_run.jsonl_block = stalled
"""
#: ^C comes as the first output is put in place
INTERRUPTED_AT_COMMIT = """
from kotc_rulesc import output
commit = output.AtomicOutput.commit
def interrupted(self):
    os.kill(os.getpid(), signal.SIGINT)
    return commit(self)
output.AtomicOutput.commit = interrupted
"""


def cli_patched(patch: str, *args: str, **kwargs) -> subprocess.Popen:
    """As :func:`cli`, through the console script's entry (``cli.run``), with ``patch`` run first
    (:data:`STALLED`, :data:`INTERRUPTED_AT_COMMIT`).  ^C interrupts it as in a terminal, also where the
    tests run in a background job (which starts its commands with SIGINT ignored, and Python keeps it so)."""
    code = ("import os, signal, sys, time; signal.signal(signal.SIGINT, signal.default_int_handler)\n" + patch
            + "sys.argv[0] = 'kotc-rulesc'\nfrom kotc_rulesc.cli import run\nrun()\n")
    return subprocess.Popen([sys.executable, "-c", code, "migrate", *args, "--from", "1", "--to", "4", "--rules", RULES],
                            env=ENV, **kwargs)


@pytest.fixture
def src(tmp_path) -> Path:
    path = tmp_path / "cards.jsonl"
    path.write_bytes(jsonl())
    return path


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# --------------------------------------------------------------------------- outputs never destroy inputs


def test_report_onto_the_collection_is_refused(src):
    """Was: --report pointing at the input replaced the collection with the report."""
    original = src.read_bytes()
    for extra in (["-o", str(src.parent / "out.jsonl")], ["--in-place"], []):
        result = invoke(str(src), "--report", str(src), *extra)
        assert result.exit_code == 2, result.output
        assert f"--report {src} is the collection itself" in result.stderr
    assert src.read_bytes() == original and names(src.parent) == ["cards.jsonl"]


def test_output_and_report_on_one_file_are_refused(src):
    """Was: -o and --report on one file kept only the report."""
    out = src.parent / "out.jsonl"
    result = invoke(str(src), "-o", str(out), "--report", str(out))
    assert result.exit_code == 2 and "-o and --report name one file" in result.stderr
    assert names(src.parent) == ["cards.jsonl"]


def test_output_onto_the_input_is_refused(src):
    """Was: -o onto the input rewrote it with no backup (through a link or a hard link too)."""
    original = src.read_bytes()
    (src.parent / "link.jsonl").symlink_to(src)
    os.link(src, src.parent / "hard.jsonl")
    for out in (src, src.parent / "link.jsonl", src.parent / "hard.jsonl", src.parent / "." / "cards.jsonl"):
        result = invoke(str(src), "-o", str(out))
        assert result.exit_code == 2, result.output
        assert "is the collection itself: to replace it, use --in-place" in result.stderr
    assert src.read_bytes() == original


def test_report_onto_the_backup_of_in_place_is_refused(src):
    result = invoke(str(src), "--in-place", "--report", f"{src}.bak")
    assert result.exit_code == 2 and "is the backup that --in-place keeps" in result.stderr


def test_a_fifo_or_a_directory_as_output_is_refused(tmp_path, src):
    """Was: the output replaced what was there with a regular file — a FIFO here; as root a device
    node such as /dev/full (the same code path: a temporary file renamed over the target)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for flag in ("-o", "--report"):
        result = invoke(str(src), flag, str(fifo), *(["-o", "-"] if flag == "--report" else []))
        assert result.exit_code == 2, result.output
        assert f"{flag} {fifo} is a FIFO (a named pipe), not a file" in result.stderr
        assert fifo.is_fifo()
    result = invoke(str(src), "-o", str(tmp_path))
    assert result.exit_code == 2  # click refuses a directory for -o itself
    result = invoke(str(src), "-o", "-", "--report", str(tmp_path))
    assert result.exit_code == 2
    assert not [n for n in names(tmp_path) if n.endswith(".tmp")]


def test_a_device_is_no_output(src):
    """A device node is refused before anything is written.  The check alone on /dev/null as root
    (a regression there would replace the node); through the command line only when not root."""
    assert output.destination_problem("/dev/null") == "/dev/null is a character device, not a file"
    assert output.destination_problem("-") is None
    assert output.destination_problem(str(src)) is None
    assert output.destination_problem(str(src.parent / "new.jsonl")) is None
    if os.geteuid() != 0:
        result = invoke(str(src), "-o", "/dev/null")
        assert result.exit_code == 2 and "is a character device, not a file" in result.stderr
    assert Path("/dev/null").is_char_device()


def test_standard_output_is_fine(src):
    result = invoke(str(src), "-o", "-")
    assert result.exit_code == 0 and result.stdout_bytes.count(b"\n") == 3


# --------------------------------------------------------------------------- --in-place: a lock, the original in the .bak


def test_in_place_refuses_while_another_run_holds_the_lock(src):
    import fcntl

    original = src.read_bytes()
    with open(src, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a run in progress holds it
        result = invoke(str(src), "--in-place")
    assert result.exit_code == 2, result.output
    assert "is being migrated in place by another run" in result.stderr
    assert src.read_bytes() == original and names(src.parent) == ["cards.jsonl"]


def test_two_in_place_runs_at_once_keep_the_original_in_the_backup(tmp_path):
    """Was: two migrate --in-place runs on one file at once left the migrated content in the .bak
    and the original gone.  Now one runs and the other refuses; the .bak is the original."""
    src = tmp_path / "cards.jsonl"
    original = jsonl(30_000)
    src.write_bytes(original)
    first = cli(str(src), "--in-place", stderr=subprocess.PIPE)
    assert _wait_for(lambda: [n for n in names(tmp_path) if n.endswith(".tmp")] or first.poll() is not None)
    first.send_signal(signal.SIGSTOP)  # the first run holds still in the middle of its work
    try:
        second = cli(str(src), "--in-place", stderr=subprocess.PIPE)
        second.wait(60)
    finally:
        first.send_signal(signal.SIGCONT)
    codes = (first.wait(60), second.returncode)
    errs = (first.stderr.read().decode(), second.stderr.read().decode())
    assert codes[1] == 2 and "is being migrated in place by another run" in errs[1], (codes, errs)
    assert codes[0] == 0, errs[0]
    assert (tmp_path / "cards.jsonl.bak").read_bytes() == original
    assert src.read_bytes() != original and src.read_bytes().count(b"\n") == 30_000
    assert names(tmp_path) == ["cards.jsonl", "cards.jsonl.bak"]


def test_the_backup_is_the_file_that_was_read(src):
    """The .bak is another name for the very file read (a hard link), so it is the original."""
    before = os.stat(src)
    result = invoke(str(src), "--in-place")
    assert result.exit_code == 0
    bak = os.stat(f"{src}.bak")
    assert (bak.st_dev, bak.st_ino) == (before.st_dev, before.st_ino)


def test_a_collection_replaced_meanwhile_is_not_overwritten(src, monkeypatch):
    """If another program replaces the collection while it is migrated, nothing is written."""
    real = output.AtomicOutput._commit

    def replaced_first(self):
        if self.expect is not None:  # an editor saves the collection (a new file renamed over it)
            tmp = self.target + ".other"
            Path(tmp).write_bytes(b"written by someone else\n")
            os.replace(tmp, self.target)
        return real(self)

    monkeypatch.setattr(output.AtomicOutput, "_commit", replaced_first)
    result = invoke(str(src), "--in-place")
    assert result.exit_code == 2 and "changed while it was being migrated" in result.stderr
    assert src.read_bytes() == b"written by someone else\n"
    assert names(src.parent) == ["cards.jsonl"]


# --------------------------------------------------------------------------- temporary files of killed runs


def _wait_for(predicate, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_the_next_run_removes_what_a_killed_run_left(tmp_path):
    """Was: SIGKILL left .tmp files of up to the output's size, for good."""
    src = tmp_path / "cards.jsonl"
    src.write_bytes(jsonl(30_000))
    out = tmp_path / "out.jsonl"
    proc = cli(str(src), "-o", str(out), "--report", str(tmp_path / "report.txt"), stderr=subprocess.DEVNULL)
    assert _wait_for(lambda: len([n for n in names(tmp_path) if n.endswith(".tmp")]) == 2 or proc.poll() is not None)
    proc.kill()
    proc.wait(30)
    left = [n for n in names(tmp_path) if n.endswith(".tmp")]
    assert sorted(n.split(".kotc-rulesc-")[0] for n in left) == [".out.jsonl", ".report.txt"], left
    result = invoke(str(src), "-o", str(out), "--report", str(tmp_path / "report.txt"))
    assert result.exit_code == 0, result.output
    assert names(tmp_path) == ["cards.jsonl", "out.jsonl", "report.txt"]


def test_a_live_runs_temporary_file_is_left_alone(tmp_path, src):
    import fcntl

    live = tmp_path / ".out.jsonl.kotc-rulesc-live0000.tmp"
    stale = tmp_path / ".out.jsonl.kotc-rulesc-dead0000.tmp"
    other = tmp_path / ".out.jsonl.someone-else.tmp"
    for p in (live, stale, other):
        p.write_bytes(b"partial")
    with open(live, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = invoke(str(src), "-o", str(tmp_path / "out.jsonl"))
        assert result.exit_code == 0
        assert live.exists() and other.exists() and not stale.exists()


# --------------------------------------------------------------------------- OS errors on output


@pytest.mark.parametrize("mode", ["-o", "--in-place", "--report"])
def test_a_full_disk_is_a_clean_error(src, monkeypatch, mode):
    """Was: an OSError traceback and exit 1 (the data was safe).  ENOSPC is injected into the
    temporary file's writes (a real full disk needs a file system of its own)."""
    original = src.read_bytes()

    def full(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output, "_write", full)
    args = {"-o": ["-o", str(src.parent / "out.jsonl")], "--in-place": ["--in-place"],
            "--report": ["-o", "-", "--report", str(src.parent / "report.txt")]}[mode]
    result = invoke(str(src), *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "cannot write" in result.stderr and "No space left on device" in result.stderr
    assert f"{src} is as it was" in result.stderr
    assert src.read_bytes() == original and names(src.parent) == ["cards.jsonl"]


@pytest.mark.parametrize("command", [["migrate", "{src}", "--from", "1", "--to", "4", "--rules", RULES],
                                     ["check-cards", "{src}", "-e", "4", "--rules", RULES],
                                     ["migrate", "{src}", "--from", "1", "--to", "4", "-o", "{out}", "--report", "-", "--rules", RULES]])
def test_standard_output_on_a_full_device_is_a_clean_error(src, command):
    """A real ENOSPC: standard output is /dev/full."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    args = [a.format(src=src, out=src.parent / "out.jsonl") for a in command]
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "kotc_rulesc", *args], stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=60)
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr and b"No space left on device" in done.stderr
    assert names(src.parent) == ["cards.jsonl"]


# --------------------------------------------------------------------------- interrupted


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("mode", ["-o", "--in-place", "stdout"])
def test_ctrl_c_during_migrate(tmp_path, sig, status, mode):
    """Issue 27, case 11.  Was: ^C during migrate printed "Aborted!" and exited 1, the status of "some
    cards banned", so that a script could not tell an interrupted run from a finished one.  Now the
    run cleans up — no output, partial or whole, the collection as it was, no temporary file, no
    process left — and exits 130 (SIGTERM: 143), as a shell reports a command a signal stopped."""
    src = tmp_path / "cards.jsonl"
    original = jsonl(20_000)  # (more than one block of 1 MiB: the first is written when it stalls)
    src.write_bytes(original)
    report = ["--report", str(tmp_path / "report.txt")]
    where, temporary = {"-o": (["-o", str(tmp_path / "out.jsonl"), *report], 2), "--in-place": (["--in-place", *report], 2),
                        "stdout": ([], 0)}[mode]
    proc = cli_patched(STALLED, str(src), *where, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stderr.readline() == b"stalled\n", proc.stderr.read()
        assert len([n for n in names(tmp_path) if n.endswith(".tmp")]) == temporary
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)  # to the end of both pipes: no process of the run holds them
    finally:
        proc.kill()
    assert proc.returncode == status
    assert err.decode() == f"Error: interrupted: nothing was written, {src} is as it was\n"
    assert out == b""
    assert src.read_bytes() == original and names(tmp_path) == ["cards.jsonl"]


def test_ctrl_c_as_the_outputs_are_put_in_place_comes_too_late_to_stop_the_run(tmp_path, src):
    """An interrupted run is one that has written nothing: a ^C that comes while the outputs are
    renamed into place (after fsync, a while for a large file) is let go, and the run ends as a
    finished one — the output and the report both there, whole, and its own exit status."""
    out, report = tmp_path / "out.jsonl", tmp_path / "report.txt"
    done = cli_patched(INTERRUPTED_AT_COMMIT, str(src), "-o", str(out), "--report", str(report),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = done.communicate(timeout=60)
    assert done.returncode == 0, err
    assert out.read_bytes().count(b"\n") == 3 and report.read_text().startswith("Migration of")
    assert names(tmp_path) == ["cards.jsonl", "out.jsonl", "report.txt"]
