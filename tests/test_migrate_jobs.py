"""``migrate --jobs N``: segments cut where a run in one process cuts its blocks, counted as it
counts, migrated by workers that read and write their own files, and a result that is byte for byte
that of ``--jobs 1`` (output, report, totals, summary, errors) with nothing left behind."""

from __future__ import annotations

import errno
import functools
import io
import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.cli import main
from kotc_rulesc.reading.policy import MAX_LINE, InputError, open_input, read_blocks
from kotc_rulesc.loader import load_rules
from kotc_rulesc.migrate import atomic, cpus, jobs
from kotc_rulesc.migrate import run as runmod
from kotc_rulesc.migrate.io_json import Context, MissingFrom, jsonl_block
from kotc_rulesc.migrate.plan import Migrator
from kotc_rulesc.migrate.run import Options, run
from kotc_rulesc.view import FoldedRules

RULES = str(Path(__file__).parent / "fixtures" / "migrate" / "rules")

STUDY = {"name": "Study", "type": "spell", "cost": 8, "text": "Draw 2 cards."}  # re-issued
SPRITE = {"name": "Sprite", "type": "spell", "cost": 3, "text": "Activate when you take damage. Increase your hitpoints by 2."}
GUARD = {"name": "Old Guard", "type": "creature", "edition": 4, "cost": 4, "offense": 2, "defense": 10,
         "text": "This card has no abilities."}  # legal and unchanged: no report entry
PACT = {"name": "Blood Pact", "type": "spell", "cost": 4, "text": "Pay 2 hitpoints. Increase your hitpoints by 3."}  # banned


@pytest.fixture(scope="module")
def view():
    return FoldedRules(load_rules(RULES))


@pytest.fixture
def processors(monkeypatch):
    """As many idle processors as a test asks for (a machine with one, or a busy one, still runs the
    workers)."""
    def set_processors(n: int) -> None:
        monkeypatch.setattr(cpus, "usable", lambda: n)
        monkeypatch.setattr(cpus, "spare", lambda: float(n))
        monkeypatch.setattr(cpus.Meter, "available", lambda self: float(n))

    set_processors(4)
    return set_processors


def line(card: dict, i: int, style: str = "spaced") -> bytes:
    card = dict(card, name=f"{card['name']} #{i}")
    return (json.dumps(card) if style == "spaced" else json.dumps(card, separators=(",", ":"))).encode()


def mixed(n: int) -> bytes:
    """Cards of every outcome, with what a collection may hold besides: CRLF line ends, blank and
    whitespace-only lines, an unreadable line, a line that is no object, compact and spaced lines,
    a long stretch of unchanged cards (segments with no report entry) and a last line without its
    line end."""
    out = [b"\xef\xbb\xbf"]
    for i in range(n):
        card = (STUDY, SPRITE, GUARD, PACT)[i % 4] if i >= n // 4 else GUARD
        text = line(card, i, "compact" if i % 3 else "spaced")
        if i % 97 == 5:
            out.append(b"\n")  # blank
        if i % 101 == 7:
            out.append(b"  \t\r\n")  # whitespace only
        if i % 211 == 13 and i >= n // 4:
            text = b'{"name": "broken #%d", "cost": }' % i  # unreadable: kept, an error
        if i % 307 == 17 and i >= n // 4:
            text = b"[1, 2, 3]"  # no card
        out.append(text + (b"\r\n" if i % 5 == 0 else b"\n"))
    out.append(line(SPRITE, n))  # no line end
    return b"".join(out)


def migrate_both(tmp_path: Path, view, data: bytes, jobs_n: int = 3, block: int = 2048, **options) -> list[dict]:
    """Run ``--jobs 1`` and ``--jobs jobs_n`` on ``data``: per run the exit code, output, report and standard error."""
    src = tmp_path / "cards.jsonl"
    src.write_bytes(data)
    runs = []
    for n in (1, jobs_n):
        out = tmp_path / f"out{n}.jsonl"
        report = tmp_path / f"report{n}.txt" if "report_format" in options else None
        err = io.StringIO()
        code = run(Options(str(src), 4, assume=1, output=str(out), report=report and str(report), jobs=n, block=block,
                           rules_dir=RULES, **options), view, stderr=err)
        runs.append({"code": code, "output": out.read_bytes(), "report": report and report.read_bytes(),
                     "stderr": err.getvalue()})
    return runs


# --------------------------------------------------------------------------- segments


def serial_blocks(path: Path, block: int) -> tuple[list[bytes], jobs.Grid]:
    """The blocks a run in one process reads, and the grid they follow."""
    inp = open_input(path)
    head = inp.head()
    if head.startswith(b"\xef\xbb\xbf"):
        inp.read(3)
    grid = jobs.Grid(inp.tell(), len(head), block)
    blocks = list(read_blocks(inp, block))
    inp.close()
    return blocks, grid


@pytest.mark.parametrize("block", [1000, 4096, 20000])
def test_segments_end_where_the_blocks_of_one_process_end(tmp_path, block):
    """Cut into segments and read segment by segment, the file gives the very blocks a run in one
    process reads — before and after the bytes read first to tell the format, across lines longer
    than a block, CRLF line ends and a last line without its line end."""
    lines = [line(STUDY, i) + (b"\r\n" if i % 3 else b"\n") for i in range(3000)]
    lines[700] = b'{"text": "' + b"x" * (3 * block) + b'"}\n'  # spans several reads
    lines[2000] = b"\n\n  \n"
    path = tmp_path / "cards.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(lines) + line(SPRITE, 0))
    blocks, grid = serial_blocks(path, block)
    size = path.stat().st_size
    with open(path, "rb") as f:
        bounds = jobs.plan(f.fileno(), size, grid, 2)
        assert bounds[0] == 3 and bounds[-1] == size and bounds == sorted(set(bounds))
        assert len(bounds) > 4
        data = path.read_bytes()
        assert all(data[b - 1:b] == b"\n" for b in bounds[1:-1])  # cut at line ends
        sizes = [b - a for a, b in zip(bounds, bounds[1:])]
        assert sizes[0] > sizes[-2] > 0  # smaller towards the end
        again, first = [], 1
        for a, b in zip(bounds, bounds[1:]):
            part = list(jobs.segment_blocks(f.fileno(), a, b, first, grid))
            assert b"".join(part) == data[a:b]
            again.extend(part)
            first += data[a:b].count(b"\n")
    assert again == blocks


def test_a_small_file_is_one_segment(tmp_path):
    path = tmp_path / "cards.jsonl"
    path.write_bytes(line(STUDY, 0) + b"\n" + line(SPRITE, 1))  # fewer lines than workers
    with open(path, "rb") as f:
        assert jobs.plan(f.fileno(), path.stat().st_size, jobs.Grid(0, 65536, 1 << 20), 8) == [0, path.stat().st_size]


def test_count_counts_as_jsonl_block_does(tmp_path, view):
    """Lines and cards of any stretch of whole lines, as the migration itself counts them: blank and
    whitespace-only lines (also Unicode spaces) are no cards, unreadable lines and lines that are no
    object are."""
    data = mixed(400)[3:] + "\n\u00a0\u2003\n\x1c\n{}\n".encode()
    path = tmp_path / "cards.jsonl"
    path.write_bytes(data)
    ctx = Context(Migrator(view, 4, 1), None)
    cuts = [0] + [i + 1 for i in range(len(data)) if data[i:i + 1] == b"\n"][::37] + [len(data)]
    with open(path, "rb") as f:
        for a, b in zip(cuts, cuts[1:]):
            result = jsonl_block(ctx, data[a:b], 0, 1)
            assert jobs.count(f.fileno(), a, b) == (data[a:b].count(b"\n"), result.cards), (a, b)
        assert jobs.count(f.fileno(), 0, len(data)) == (data.count(b"\n"), jsonl_block(ctx, data, 0, 1).cards)


def test_count_is_the_same_whatever_the_chunks(tmp_path, view, monkeypatch):
    """The main process counts in chunks: lines and blank lines that straddle a chunk's end, a line
    longer than a chunk, a last line without its line end — counted the same at every chunk size."""
    data = (b'{"a": 1}\n  \n{"b": 2}\n' + b"x" * 70 + b"\n\n\t\n" + "\u00a0\n".encode() + b'{"c": 3}\n'
            + b"[1]\n{}\n" + b" " * 5 + b"\n" + b'{"d": "' + b"y" * 40 + b'"}')
    path = tmp_path / "cards.jsonl"
    path.write_bytes(data)
    expected = (data.count(b"\n"), jsonl_block(Context(Migrator(view, 4, 1), None), data, 0, 1).cards)
    assert expected == (data.count(b"\n"), 7)
    with open(path, "rb") as f:
        for chunk in range(1, len(data) + 2):
            monkeypatch.setattr(jobs, "_COUNT_CHUNK", chunk)
            assert jobs.count(f.fileno(), 0, len(data)) == expected, chunk
            assert jobs.count(f.fileno(), 9, len(data) - 50) == (data[9:-50].count(b"\n"),
                                                                  jsonl_block(Context(Migrator(view, 4, 1), None), data[9:-50], 0, 1).cards), chunk


def test_workers_only_on_processors_others_leave_idle(monkeypatch):
    """No more workers than usable processors, nor than those idle since the command started (what
    this process ran itself counts as its own); where the kernel does not say, the usable ones."""
    monkeypatch.setattr(cpus, "usable", lambda: 4)
    for spare, expected in ((0.2, 1), (1.0, 1), (1.4, 1), (1.6, 2), (2.9, 3), (7.5, 4), (None, 4)):
        monkeypatch.setattr(cpus, "spare", lambda: spare)
        assert jobs.workers(8) == expected, spare
    assert jobs.workers(8, spare_only=False) == 4
    assert jobs.workers(2) == 2


def test_idle_processors_are_measured_from_the_kernels_counters(monkeypatch):
    ticks = iter([(1000, 4000), (1150, 4200)])  # 200 ticks in all, 150 of them idle
    clock = iter([10.0, 10.0, 10.5])
    monkeypatch.setattr(cpus, "_idle_ticks", lambda: next(ticks))
    monkeypatch.setattr(cpus.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(cpus.time, "process_time", iter([1.0, 1.25]).__next__)
    monkeypatch.setattr(cpus.os, "cpu_count", lambda: 2)
    cpus.mark()
    assert cpus.spare() == pytest.approx(150 / 200 * 2 + 0.25 / 0.5)  # idle, and what it ran itself
    monkeypatch.setattr(cpus, "_idle_ticks", lambda: None)
    cpus.mark()
    assert cpus.spare() is None


def test_the_meter_counts_idle_processors_and_the_runs_own(monkeypatch):
    idle = iter([(1000, 4000), (1100, 4200), (1100, 4400), (1100, 4600)])
    ours = {None: iter([10, 60, 60]), 41: iter([5, 55, 255])}
    monkeypatch.setattr(cpus, "_idle_ticks", lambda: next(idle))
    monkeypatch.setattr(cpus, "_process_ticks", lambda pid=None: next(ours[pid]))
    monkeypatch.setattr(cpus.os, "cpu_count", lambda: 2)
    meter = cpus.Meter([41])
    assert meter.available() == pytest.approx((100 + 100) / 200 * 2)  # half idle, half this run's
    assert meter.available() == pytest.approx(200 / 200 * 2)  # no processor idle: all of it this run's
    monkeypatch.setattr(cpus, "_process_ticks", lambda pid=None: None)  # a worker gone
    assert meter.available() is None


def test_fewer_workers_work_when_the_machine_gets_busy(tmp_path, view, processors, monkeypatch):
    """Once other programs keep the processors busy (the meter finds one for this run), segments go
    to one worker at a time; the result is the same."""
    log = tmp_path / "log"
    real = jobs._Worker.segment

    def logged(self, task):
        start = time.monotonic()
        done = real(self, task)
        with open(log, "a") as f:
            f.write(f"{task.number} {start} {time.monotonic()}\n")
        return done

    monkeypatch.setattr(jobs._Worker, "segment", logged)
    monkeypatch.setattr(cpus.Meter, "available", lambda self: 1.0)
    monkeypatch.setattr(jobs, "_MEASURE", 0.0)
    one, many = migrate_both(tmp_path, view, mixed(3000), jobs_n=3)
    assert many == one
    spans = sorted(tuple(map(float, line.split()))[1:] for line in log.read_text().splitlines() if int(line.split()[0]) >= 3)
    assert len(spans) > 3
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # one at a time


def test_the_kernels_counters(tmp_path):
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 5 50 1000 20 0 3 7 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    assert cpus._idle_ticks(str(stat)) == (1020, 1185)
    stat.write_text("nothing\n")
    assert cpus._idle_ticks(str(stat)) is None
    assert cpus._idle_ticks(str(tmp_path / "none")) is None


def test_the_cpus_a_process_may_use(tmp_path):
    """The CPU quota of a container counts (cgroup v2, and v1), the strictest of its cgroups."""
    proc = tmp_path / "cgroup"
    root = tmp_path / "sys"
    (root / "a" / "b").mkdir(parents=True)
    proc.write_text("0::/a/b\n")
    assert cpus._cgroup_quota(str(proc), str(root)) is None
    (root / "a" / "b" / "cpu.max").write_text("max 100000\n")
    (root / "a" / "cpu.max").write_text("150000 100000\n")
    assert cpus._cgroup_quota(str(proc), str(root)) == 2
    (root / "a" / "b" / "cpu.max").write_text("50000 100000\n")
    assert cpus._cgroup_quota(str(proc), str(root)) == 1
    v1 = root / "cpu,cpuacct" / "c"
    v1.mkdir(parents=True)
    proc.write_text("3:cpu,cpuacct:/c\n2:memory:/c\n")
    (v1 / "cpu.cfs_quota_us").write_text("-1\n")
    (v1 / "cpu.cfs_period_us").write_text("100000\n")
    assert cpus._cgroup_quota(str(proc), str(root)) is None
    (v1 / "cpu.cfs_quota_us").write_text("300000\n")
    assert cpus._cgroup_quota(str(proc), str(root)) == 3
    assert cpus._cgroup_quota(str(tmp_path / "none"), str(root)) is None
    assert 1 <= cpus.usable() <= (os.cpu_count() or 1)


# --------------------------------------------------------------------------- the same result as --jobs 1


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_byte_for_byte_the_result_of_one_process(tmp_path, view, processors, fmt):
    one, many = migrate_both(tmp_path, view, mixed(3000), report_format=fmt)
    assert many == one
    assert one["code"] == 1 and one["output"].startswith(b"\xef\xbb\xbf")
    assert "3001 cards:" in one["stderr"]
    if fmt == "json":
        report = json.loads(one["report"])
        assert [c["index"] for c in report["cards"]] == sorted(c["index"] for c in report["cards"])
        assert report["cards"][0]["index"] > 750  # the first segments have no entry


@pytest.mark.parametrize("usable, spare", [(1, 1.0), (4, 0.6)])
def test_no_workers_without_processors_for_them(tmp_path, view, monkeypatch, usable, spare):
    """--jobs 8 with one usable processor, or on a machine that other programs keep busy, is a run
    in one process."""
    monkeypatch.setattr(cpus, "usable", lambda: usable)
    monkeypatch.setattr(cpus, "spare", lambda: spare)
    monkeypatch.setattr(jobs, "migrate", lambda *a, **k: pytest.fail("workers were started"))
    one, many = migrate_both(tmp_path, view, mixed(500), jobs_n=8)
    assert many == one


def test_a_dry_run_report_on_standard_output(tmp_path, view, processors, monkeypatch):
    """The report's segments go to the temporary folder when it goes to standard output."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(2000))
    outputs = []
    for n in (1, 2):
        stdout = io.BytesIO()
        run(Options(str(src), 4, assume=1, dry_run=True, report_format="markdown", jobs=n, block=2048, rules_dir=RULES),
            view, stdout=stdout, stderr=io.StringIO())
        outputs.append(stdout.getvalue())
    assert outputs[0] == outputs[1] and b"## Totals" in outputs[0]
    assert os.listdir(tmp_path / "tmp") == []
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl", "tmp"]


def test_progress_counts_every_byte(tmp_path, view, processors, monkeypatch):
    seen = []

    class Recorder:
        def __init__(self, total, stream=None):
            seen.append([total, 0])

        def update(self, n):
            seen[-1][1] += n

        def close(self):
            pass

    monkeypatch.setattr(runmod, "Progress", Recorder)
    one, many = migrate_both(tmp_path, view, mixed(2000))
    assert many == one
    size = (tmp_path / "cards.jsonl").stat().st_size
    assert seen == [[size, size - 3], [size, size - 3]]  # all but the byte-order mark, both times


# --------------------------------------------------------------------------- errors: the first, as with --jobs 1


def errors_of_both(tmp_path: Path, view, data: bytes, block: int = 4096) -> list[tuple]:
    src = tmp_path / "cards.jsonl"
    src.write_bytes(data)
    errors = []
    for n in (1, 3):
        with pytest.raises((MissingFrom, InputError)) as exc:
            run(Options(str(src), 4, output=str(tmp_path / "out.jsonl"), jobs=n, block=block, rules_dir=RULES), view,
                stderr=io.StringIO())
        errors.append((type(exc.value), str(exc.value), exc.value.line))
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl"]  # nothing written
    return errors


def test_a_card_without_edition_far_into_the_file(tmp_path, view, processors):
    """Without --from: the first card without an Edition Indicator stops the run, in a segment far
    from the first, as in one process."""
    one, many = errors_of_both(tmp_path, view, mixed(3000), block=2048)
    assert one == many and one[0] is MissingFrom and '"Blood Pact #751"' in one[1]


#: the bytes of a file of 3,000 legal cards where a block of a run in one process begins (the
#: first line start after its read at 64 KiB + 33 × 4 KiB)
_START = 65536 + 33 * 4096
NO_EDITION = json.dumps({"name": "No edition", "cost": 1, "text": "Draw 1 card."}).encode() + b"\n"


@pytest.mark.parametrize("fault, first", [
    ("a card without --from, then not UTF-8 in the same block", InputError),  # a block is decoded whole
    ("a card without --from, then not UTF-8 blocks later", MissingFrom),
    ("a line over the limit", InputError),
])
def test_the_error_a_run_in_one_process_meets_first(tmp_path, view, processors, fault, first):
    """The workers read the blocks a run in one process reads, so they stop on the error it stops
    on, where two faults are in one block as where they are blocks apart; nothing is written."""
    data = b"".join(line(GUARD, i) + b"\n" for i in range(3000))
    start = data.index(b"\n", _START) + 1
    if fault == "a line over the limit":
        insert = b'{"text": "' + b"y" * MAX_LINE + b'"}\n'
    elif fault.endswith("same block"):
        insert = NO_EDITION + b"\n" * 10 + b'{"name": "\xff"}\n'
    else:
        insert = NO_EDITION + data[start:start + 20_000].rsplit(b"\n", 1)[0] + b'\n{"name": "\xff"}\n'
    one, many = errors_of_both(tmp_path, view, data[:start] + insert + data[start:])
    assert one == many and one[0] is first
    assert one[2] == data[:start].count(b"\n") + (1 if first is MissingFrom or "limit" in fault else 12)


def test_a_full_disk_in_a_worker(tmp_path, processors, monkeypatch):
    """ENOSPC while a worker writes its segment: exit 2, the message names the output, nothing is
    left behind."""
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(2000))
    calls = []

    def full(self, data):
        calls.append(1)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write", full)  # the workers are forked with it
    monkeypatch.setattr(runmod, "Options", functools.partial(Options, block=2048))
    result = CliRunner().invoke(main, ["migrate", str(src), "--from", "1", "--to", "4", "--rules", RULES,
                                       "-o", str(tmp_path / "out.jsonl"), "--jobs", "2"])
    assert result.exit_code == 2, result.output
    assert f"cannot write {tmp_path / 'out.jsonl'}: No space left on device" in result.stderr
    assert "Traceback" not in result.output
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl"]


def test_temporary_files_beside_the_outputs_while_it_runs(tmp_path, view, processors, monkeypatch):
    """The segments and the shared decisions are ``.NAME.kotc-rulesc-*.tmp`` files beside the
    outputs, locked while the run lasts, and gone after it."""
    import fcntl

    (tmp_path / "out").mkdir()
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(3000))
    seen: list[list[str]] = []
    real = atomic.AtomicOutput.append_from

    def looking(self, fd, offset, length):
        names = sorted(os.listdir(tmp_path / "out"))
        seen.append(names)
        for name in names:
            if name.endswith(".tmp"):
                with open(tmp_path / "out" / name, "rb") as f:
                    with pytest.raises(BlockingIOError):
                        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return real(self, fd, offset, length)

    monkeypatch.setattr(atomic.AtomicOutput, "append_from", looking)
    code = run(Options(str(src), 4, assume=1, output=str(tmp_path / "out" / "new.jsonl"),
                       report=str(tmp_path / "out" / "report.md"), report_format="markdown", jobs=2, block=2048,
                       rules_dir=RULES), view, stderr=io.StringIO())
    assert code == 1 and len(seen) > 3
    temps = {n for names in seen for n in names}
    assert all(n.startswith((".new.jsonl.kotc-rulesc-", ".report.md.kotc-rulesc-")) and n.endswith(".tmp") for n in temps)
    assert any(n.startswith(".report.md.") for n in temps)
    assert sorted(os.listdir(tmp_path / "out")) == ["new.jsonl", "report.md"]


def test_in_place(tmp_path, view, processors):
    """--in-place with workers: the collection replaced, the original kept as .bak, nothing else."""
    data = mixed(2000)
    results = []
    for n in (1, 2):
        src = tmp_path / str(n) / "cards.jsonl"
        src.parent.mkdir()
        src.write_bytes(data)
        run(Options(str(src), 4, assume=1, in_place=True, jobs=n, block=2048, rules_dir=RULES), view, stderr=io.StringIO())
        results.append(src.read_bytes())
        assert (tmp_path / str(n) / "cards.jsonl.bak").read_bytes() == data
        assert sorted(os.listdir(src.parent)) == ["cards.jsonl", "cards.jsonl.bak"]
    assert results[0] == results[1] != data


def test_temporary_files_that_cannot_be_made(tmp_path, view, processors, monkeypatch):
    """A full disk (or a folder that cannot be written) where the segments go: an error naming the
    output, nothing left behind."""
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(2000))
    real = atomic.locked_temp
    made = []

    def full(target):
        made.append(target)
        if len(made) > 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(target)

    monkeypatch.setattr(atomic, "locked_temp", full)
    with pytest.raises(atomic.OutputError) as exc:
        run(Options(str(src), 4, assume=1, output=str(tmp_path / "out.jsonl"), jobs=2, block=2048, rules_dir=RULES), view,
            stderr=io.StringIO())
    assert exc.value.errno == errno.ENOSPC and exc.value.filename == os.path.realpath(tmp_path / "out.jsonl")
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl"]


def test_standard_input_is_migrated_in_one_process(view, processors, monkeypatch):
    import sys

    data = mixed(2000)
    monkeypatch.setattr(jobs, "migrate", lambda *a, **k: pytest.fail("workers were started"))
    outputs = []
    for n in (1, 2):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        out = io.BytesIO()
        run(Options("-", 4, assume=1, jobs=n, block=2048, rules_dir=RULES), view, stdout=out, stderr=io.StringIO())
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and outputs[0].startswith(b"\xef\xbb\xbf")


def test_workers_that_are_not_forked(tmp_path, view, processors, monkeypatch):
    """Where processes cannot be forked, each worker builds its own context from the rules."""
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    one, many = migrate_both(tmp_path, view, mixed(1500), jobs_n=2, report_format="json")
    assert many == one


# --------------------------------------------------------------------------- the pieces


def test_decisions_travel_between_workers(tmp_path):
    paths = []
    for _ in range(2):
        fd, path = atomic.locked_temp(str(tmp_path / "out.jsonl"))
        paths.append((path, jobs._ident(fd)))
        os.close(fd)
    a = jobs._Decisions(paths, 0, "out.jsonl")
    b = jobs._Decisions(paths, 1, "out.jsonl")
    assert b.collect() == []
    a.publish([(("k", 1), "one")])
    a.publish([])
    a.publish([(("k", 2), "two"), (("k", 3), "three")])
    assert b.collect() == [(("k", 1), "one"), (("k", 2), "two"), (("k", 3), "three")]
    assert b.collect() == [] and a.collect() == []
    with open(paths[0][0], "ab") as f:  # a record still being written is read once it is whole
        f.write(jobs._RECORD.pack(100) + b"x" * 10)
    assert b.collect() == []
    a.close()
    b.close()
    with pytest.raises(InputError, match="replaced"):
        jobs._open_same((paths[0][0], (0, 0)), os.O_RDONLY)


@pytest.mark.parametrize("ways", ["kernel", "sendfile", "read and write"])
def test_copy_range(tmp_path, monkeypatch, ways):
    data = bytes(range(256)) * 5000
    (tmp_path / "src").write_bytes(data)
    real = atomic._kernel_copies

    def fewer():
        found = real()
        if ways == "sendfile" and found:
            def unsupported(*a):
                raise OSError(errno.EXDEV, "cross-device")

            found[0] = unsupported
        return [] if ways == "read and write" else found

    monkeypatch.setattr(atomic, "_kernel_copies", fewer)
    with open(tmp_path / "src", "rb") as src, open(tmp_path / "dst", "wb") as dst:
        dst.write(b"head")
        dst.flush()
        atomic.copy_range(src.fileno(), dst.fileno(), 1000, 600_000)
        atomic.copy_range(src.fileno(), dst.fileno(), 0, 10)
        with pytest.raises(OSError, match="shorter"):
            atomic.copy_range(src.fileno(), dst.fileno(), len(data) - 5, 10)
    assert (tmp_path / "dst").read_bytes()[:600_014] == b"head" + data[1000:601_000] + data[:10]


def test_a_worker_that_dies(tmp_path, processors, monkeypatch):
    """A worker killed half-way (by the out-of-memory killer, say) stops the run with exit status 2:
    nothing written, no temporary file left."""
    real = jobs._Worker.segment

    def dying(self, task):
        if task.number == 2:
            os._exit(9)
        return real(self, task)

    monkeypatch.setattr(jobs._Worker, "segment", dying)
    monkeypatch.setattr(runmod, "Options", functools.partial(Options, block=2048))
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(3000))
    result = CliRunner().invoke(main, ["migrate", str(src), "--from", "1", "--to", "4", "--rules", RULES, "-o",
                                       str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.txt"), "--jobs", "2"])
    assert result.exit_code == 2, result.output
    assert "stopped (exit code 9): nothing was written" in result.stderr and "Traceback" not in result.output
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl"]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask") or "fork" not in multiprocessing.get_all_start_methods(),
                    reason="holds signals while it forks")
def test_a_worker_started_as_ctrl_c_comes_is_stopped_too(tmp_path, view, processors, monkeypatch):
    """Was: ^C between a worker's start and its being listed left that worker out of those the run
    stops as it unwinds; it waited on its pipe until the main process ended (under load, longer than
    the run's own end)."""
    real = multiprocessing.context.ForkProcess.start
    started = []

    def start(self):
        real(self)
        started.append(self)
        if len(started) == 2:
            os.kill(os.getpid(), signal.SIGINT)  # ^C just as the second worker has started

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", start)
    monkeypatch.setattr(jobs, "_INHERITED", None)
    src = tmp_path / "cards.jsonl"
    src.write_bytes(mixed(3000))
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt) as stopped:  # (its traceback keeps the run's pipes open)
            run(Options(str(src), 4, assume=1, output=str(tmp_path / "out.jsonl"), jobs=2, block=2048, rules_dir=RULES),
                view, stderr=io.StringIO())
        for worker in started:
            worker.join(5)
        assert [w.exitcode is not None for w in started] == [True, True], stopped.traceback[-1]
    finally:
        signal.signal(signal.SIGINT, before)
        for worker in started:
            if worker.is_alive():
                worker.kill()
    assert sorted(os.listdir(tmp_path)) == ["cards.jsonl"]
