"""``--jobs N``: a JSONL collection file migrated by worker processes, one segment at a time.

The file is cut at line ends into segments (:func:`plan`): about a third of what remains per
worker at first, then smaller and smaller, so that the last ones are short.  The main process hands
the next segment to each worker that is free, with the number of its first card and of its first
line; it counts the cards and lines of the segments ahead (:func:`count`) while the workers
migrate.  A worker opens the collection itself and reads its segment in the very blocks a run in
one process reads (so that the same error stops both), migrates it with its own
:class:`~kotc_rulesc.migrate.io_json.Context`, writes the output and the report entries of the
segment to temporary files of their own beside the outputs
(:func:`~kotc_rulesc.migrate.atomic.locked_temp`: ``.NAME.kotc-rulesc-*.tmp``, locked), and answers
with the segment's totals and its first cards needing attention.  The main process migrates
nothing: it appends the finished segments to the outputs in order as they come — the kernel copies
them (:func:`~kotc_rulesc.migrate.atomic.copy_range`) — and removes them.  The output, the report
and the totals are those of a run in one process, byte for byte.

A worker writes each decision it makes to a file of its own, and reads the others' every
:data:`PART` bytes, so that a card design is decided about once however many workers meet it
(a block is checked as a whole first — what stops a block stops it before any of its cards — and
then migrated in parts).

How many workers (:func:`workers`): at most N, never more than the processors this process may
run on (its CPU affinity and, in a container, its CPU quota), never more than the processors other
programs left idle since the command started (:mod:`~kotc_rulesc.migrate.cpus`), never more than
the segments; and as the run goes, the main process hands segments to no more workers at a time
than the processors idle or used by the run lately.  On a machine that other programs keep busy the scheduler shares the processors
between groups of processes (sessions, services, containers), not between processes, so workers
would add their cost and no speed: such a run is one process, as with ``--jobs 1``.  The load
average is not consulted: it lags a minute behind and counts this command's own earlier runs.
Once started, a worker that other programs slow down holds up at most one of the last, short
segments, and the main process takes almost no processor time.  What cannot be split by byte
ranges — standard input or a pipe, a JSON or a YAML collection, a file of less than four blocks —
is migrated in one process.

Workers die with the main process, however it ends: on SIGINT or SIGTERM it stops them as it
unwinds and removes the temporary files; killed (SIGKILL), the kernel kills them
(``PR_SET_PDEATHSIG`` on Linux), and elsewhere their pipes reach end of file; the temporary files of
a killed run are removed by the next run writing beside them
(:func:`~kotc_rulesc.migrate.atomic.remove_stale`).
"""

from __future__ import annotations

import errno
import io
import multiprocessing
import os
import pickle
import re
import signal
import struct
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator

from ..reading.policy import InputError, decode, read_blocks
from . import atomic, cpus
from .io_json import BlockResult, Context, jsonl_block
from .report import ReportWriter, Totals

__all__ = [
    "WorkerConfig",
    "Grid",
    "Piece",
    "WorkerFailed",
    "workers",
    "shareable",
    "plan",
    "count",
    "segment_blocks",
    "migrate",
    "copy_to_stream",
    "scratch_target",
]

#: a segment is at least this many blocks, and at most :data:`MAX_BLOCKS`
MIN_BLOCKS = 2
MAX_BLOCKS = 16
#: a segment is about 1 / (SHARE × workers) of what remains of the file
SHARE = 3
#: a worker migrates a block in parts of about this many bytes, and takes up the other workers'
#: decisions between them
PART = 64 << 10
#: bytes counted at a time
_COUNT_CHUNK = 4 << 20
#: how often the main process updates the progress bar while it waits (seconds)
_TICK = 0.25
#: how often it measures the processors idle or used by the run (seconds)
_MEASURE = 1.0


@dataclass(frozen=True)
class WorkerConfig:
    """What a worker needs to build its own context where it is not forked."""

    rules_dir: str | None
    target: int
    assume: int | None
    report_format: str | None
    reissue: bool = False
    attention: int = 20


# --------------------------------------------------------------------------- how many workers


def workers(jobs: int, spare_only: bool = True) -> int:
    """How many workers ``--jobs jobs`` gets here: no more than the usable processors, and
    (``spare_only``) no more than the processors other programs left idle of late, so that a busy
    machine runs in one process (:mod:`~kotc_rulesc.migrate.cpus`)."""
    if not hasattr(os, "pread"):  # pragma: no cover - Windows: segments cannot be read in place
        return 1
    n = min(jobs, cpus.usable())
    if n > 1 and spare_only:
        spare = cpus.spare()
        if spare is not None:
            n = min(n, int(spare + 0.5))  # the nearest whole number
    return max(1, n)


# --------------------------------------------------------------------------- segments


@dataclass(frozen=True)
class Grid:
    """The offsets at which a run in one process reads the collection: from ``start`` (after a
    byte-order mark) in steps of ``step`` up to ``head`` (the bytes first read to tell the format),
    then on from there in steps of ``step``.  Its blocks end at the last line end before one of
    these offsets (:func:`~kotc_rulesc.reading.policy.read_blocks`); segments that end where a block ends,
    read at the same offsets, give the very same blocks."""

    start: int
    head: int
    step: int

    def after(self, p: int) -> int:
        """The first offset of the grid after ``p``."""
        if p < self.head:
            return min(self.head, self.start + ((p - self.start) // self.step + 1) * self.step)
        return self.head + ((p - self.head) // self.step + 1) * self.step


def shareable(size: int, grid: Grid) -> bool:
    """Is a file of ``size`` bytes large enough for two segments?"""
    return size - grid.start >= 2 * MIN_BLOCKS * grid.step


def plan(fd: int, size: int, grid: Grid, workers: int) -> list[int]:
    """Where the segments of the file ``fd`` (``size`` bytes) begin, and where the last one ends:
    ``[grid.start, …, size]``.  Each segment but the last ends where a block ends (after the last
    line end before an offset of ``grid``); a file too small to share is one segment."""
    bounds = [grid.start]
    least = MIN_BLOCKS * grid.step
    while True:
        begin = bounds[-1]
        rest = size - begin
        want = min(max(rest // (SHARE * workers), least), MAX_BLOCKS * grid.step)
        if rest < want + least:
            break
        cut = None
        point = grid.after(begin + want - 1)
        while point < size:
            low = max(begin, point - grid.step)
            end = os.pread(fd, point - low, low).rfind(b"\n")
            if end >= 0:
                cut = low + end + 1
                break
            point = grid.after(point)  # no line ends here (a long line): the next block's end
        if cut is None or size - cut < least:
            break
        bounds.append(cut)
    bounds.append(size)
    return bounds


def count(fd: int, start: int, end: int, display: str | None = None) -> tuple[int, int]:
    """(line ends, cards) in bytes ``start`` to ``end`` of the file ``fd``, which start a line; a
    card is a line that is not blank, as :func:`~kotc_rulesc.migrate.io_json.jsonl_block` counts.

    The main process counts while the workers migrate, on the same processors: the lines of a chunk
    are counted in place, and where every one starts a JSON object (one scan finds any that does
    not) each is a card."""
    lines = cards = 0
    carry = b""  # the start of a line begun in an earlier chunk
    pos = start
    while pos < end:
        data = os.pread(fd, min(_COUNT_CHUNK, end - pos), pos)
        if not data:
            raise _shorter(display)
        pos += len(data)
        first = data.find(b"\n") + 1
        if first == 0:  # no line end yet: a long line
            carry += data
            continue
        lines += 1
        cards += _cards(carry + data[:first])
        cut = data.rfind(b"\n") + 1
        body = data.count(b"\n", first, cut)  # the whole lines after the first
        lines += body
        if body:
            cards += body if _NOT_A_CARD_START.search(data, first - 1, cut) is None else _cards(data[first:cut])
        carry = data[cut:]
    if carry:  # the last line, without its line end
        cards += _cards(carry)
    return lines, cards


#: a line end followed by anything but the start of a JSON object (or by nothing: an empty line)
_NOT_A_CARD_START = re.compile(rb"\n[^{]")


def _cards(piece: bytes) -> int:
    """The cards in whole lines (the last may lack its line end)."""
    lines = piece.count(b"\n") + (0 if piece.endswith(b"\n") or not piece else 1)
    if piece.count(b"\n{") + piece.startswith(b"{") == lines:
        return lines  # every line starts a JSON object (the common case, counted at C speed)
    text = piece.decode("utf-8", "replace")  # a file that is not UTF-8 stops where it is read
    return sum(1 for raw in text.split("\n") if raw and not raw.isspace())


def _shorter(display: str | None) -> InputError:
    return InputError("the file changed while it was being migrated (it is shorter now)", file=display)


class _Part:
    """Bytes ``start`` to ``end`` of the file ``fd`` as a file to read, in the reads of ``grid``."""

    def __init__(self, fd: int, start: int, end: int, grid: Grid, display: str | None):
        self.fd, self.pos, self.end, self.grid, self.display = fd, start, end, grid, display

    def read(self, n: int) -> bytes:
        stop = min(self.pos + n, self.grid.after(self.pos), self.end)
        if stop <= self.pos:
            return b""
        data = os.pread(self.fd, stop - self.pos, self.pos)
        if len(data) != stop - self.pos:
            raise _shorter(self.display)
        self.pos = stop
        return data


def segment_blocks(fd: int, start: int, end: int, first_line: int, grid: Grid,
                   display: str | None = None) -> Iterator[bytes]:
    """The blocks of a segment, those a run in one process reads there."""
    return read_blocks(_Part(fd, start, end, grid, display), grid.step, display=display, line=first_line)


def _parts(block: bytes, size: int = PART) -> Iterator[bytes]:
    """A block in parts of whole lines of about ``size`` bytes."""
    start = 0
    while len(block) - start > size:
        end = block.find(b"\n", start + size) + 1
        if end == 0:
            break
        yield block[start:end]
        start = end
    if start < len(block):
        yield block[start:]


# --------------------------------------------------------------------------- decisions shared

_RECORD = struct.Struct("<I")  # the length of a pickled list of decisions


class _Decisions:
    """A worker's decisions, appended to its own file; the others', read from theirs."""

    def __init__(self, files: list[tuple[str, tuple[int, int]]], me: int, target: str):
        self.out = atomic.output_file(_open_same(files[me], os.O_WRONLY | os.O_APPEND, target), target)
        self.others = [[_open_same(f, os.O_RDONLY, target), 0] for i, f in enumerate(files) if i != me]

    def publish(self, learned: list) -> None:
        if learned:
            data = pickle.dumps(learned, pickle.HIGHEST_PROTOCOL)
            self.out.write(_RECORD.pack(len(data)) + data)
            self.out.flush()

    def collect(self) -> list:
        """The decisions the others wrote since the last call (whole records only)."""
        known: list = []
        for entry in self.others:
            fd, seen = entry
            size = os.fstat(fd).st_size
            if size - seen <= _RECORD.size:
                continue
            data = os.pread(fd, size - seen, seen)
            pos = 0
            while pos + _RECORD.size <= len(data):
                (n,) = _RECORD.unpack_from(data, pos)
                if pos + _RECORD.size + n > len(data):
                    break  # still being written
                known.extend(pickle.loads(data[pos + _RECORD.size:pos + _RECORD.size + n]))
                pos += _RECORD.size + n
            entry[1] = seen + pos
        return known

    def close(self) -> None:
        self.out.close()
        for fd, _ in self.others:
            os.close(fd)


def _open_same(file: tuple[str, tuple[int, int]], flags: int, target: str | None = None) -> int:
    """Open ``file`` — (path, (device, inode)) — and make sure it is that very file: the collection
    (else :class:`InputError`), or a temporary file of the output ``target`` (else
    :class:`~kotc_rulesc.migrate.atomic.OutputError` naming it)."""
    path, ident = file
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if target is None:
            raise InputError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
        raise atomic.OutputError(exc.errno, exc.strerror or str(exc), target) from None
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != ident:
        os.close(fd)
        if target is None:
            raise InputError("the file was replaced while it was being migrated", file=path)
        raise atomic.OutputError(errno.ESTALE, "a temporary file was replaced by another program", target)
    return fd


def _ident(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


# --------------------------------------------------------------------------- the workers


@dataclass(frozen=True)
class _Setup:
    """What every worker is given."""

    config: WorkerConfig
    collection: tuple[str, tuple[int, int]]
    display: str
    grid: Grid
    decisions: tuple[tuple[str, tuple[int, int]], ...]  # a file per worker
    output: str | None  # the output the segments become part of, as errors name it; None: no output
    report: str | None  # the same for the report; None: no report
    report_newline: str | None  # the newline= of the report's text stream


@dataclass(frozen=True)
class _Task:
    number: int
    start: int
    end: int
    first_index: int
    first_line: int
    output: tuple[str, tuple[int, int]] | None
    report: tuple[str, tuple[int, int]] | None


@dataclass
class _Done:
    number: int
    output: int  # bytes written
    report: int
    totals: Totals
    attention: list[str]
    end: tuple[int, int]  # the index and line after the segment


class WorkerFailed(RuntimeError):
    """A worker process died without an answer."""


_INHERITED: tuple[WorkerConfig, Context] | None = None  # set while workers are forked


def _context(config: WorkerConfig) -> Context:
    if _INHERITED is not None and _INHERITED[0] == config:
        return _INHERITED[1]
    from ..cards.rules_source import get_view
    from .plan import Migrator

    view = get_view(config.rules_dir)
    return Context(Migrator(view, config.target, config.assume, reissue=config.reissue), config.report_format,
                   config.attention)


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux: ``PR_SET_PDEATHSIG``), even
    by SIGKILL; elsewhere the pipe does it: the worker reads end of file and returns."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no libc, no prctl
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


class _Worker:
    """One worker's state inside its process."""

    def __init__(self, setup: _Setup, me: int, done: Any):
        self.setup, self.me, self.done = setup, me, done
        self.context = _context(setup.config)
        self.fd: int | None = None
        self.decisions: _Decisions | None = None

    def segment(self, task: _Task) -> _Done:
        setup = self.setup
        if self.fd is None:
            self.fd = _open_same(setup.collection, os.O_RDONLY)
            self.decisions = _Decisions(list(setup.decisions), self.me, setup.output or setup.report or "<stdout>")
        ctx, decisions = self.context, self.decisions
        migrator = ctx.migrator
        cap = ctx.attention_cap
        out = report = writer = None
        totals, attention = Totals(), []
        index, line, written = task.first_index, task.first_line, 0
        try:
            if task.output is not None:
                out = atomic.output_file(_open_same(task.output, os.O_WRONLY, setup.output), setup.output)
            if task.report is not None:
                report = io.TextIOWrapper(atomic.output_file(_open_same(task.report, os.O_WRONLY, setup.report), setup.report),
                                          encoding="utf-8", newline=setup.report_newline)
                writer = ReportWriter(report, ctx.report_format, migrator.words, following=True)
            for block in segment_blocks(self.fd, task.start, task.end, task.first_line, setup.grid, setup.display):
                if not block.isascii() or b"\x00" in block:  # what stops a block stops it before its cards
                    decode(None, block, line, bom=False)
                for part in _parts(block):
                    known = decisions.collect()
                    if known:
                        migrator.adopt(known)
                    migrator.learned = []
                    result = jsonl_block(ctx, part, index, line, cap - len(attention))
                    decisions.publish(migrator.learned)
                    migrator.learned = None
                    index += result.cards
                    line += part.count(b"\n")
                    if out is not None:
                        out.write(result.output)
                        written += len(result.output)
                    if writer is not None:
                        for entry in result.entries:
                            writer.entry(entry)
                    totals.merge(result.totals)
                    if len(attention) < cap:
                        attention.extend(result.attention[:cap - len(attention)])
                self.done[self.me] += len(block)
            if out is not None:
                out.flush()
            entries = 0
            if report is not None:
                report.flush()
                entries = report.buffer.tell()
        finally:
            for f in (out, report):
                if f is not None:
                    f.close()
        return _Done(task.number, written, entries, totals, attention, (index, line))


def _serve(conn: Any, setup: _Setup, me: int, done: Any, parent: int | None = None, inherited: tuple = ()) -> None:
    """A worker's loop: take a segment, migrate it, answer ``(True, _Done)`` or ``(False, (number,
    exception))``; ``None`` ends it.  ``inherited`` are the main process's ends of the pipes (this
    worker's and those of the workers started before it), which a forked worker holds too: closed,
    so that when the main process dies, every pipe reaches end of file."""
    for end in inherited:
        end.close()
    if parent is not None:
        _die_with_parent(parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # stopping a worker stops it at once
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the main process's to handle
    worker = _Worker(setup, me, done)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            answer: tuple = (True, worker.segment(task))
        except Exception as exc:  # handed to the main process, which raises it in its turn
            answer = (False, (task.number, exc))
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle
            conn.send((False, (task.number, WorkerFailed(f"{type(exc).__name__}: {exc}"))))


# --------------------------------------------------------------------------- the main process


@dataclass
class Piece:
    """A migrated segment, next in order: its output and its report entries (each ``(descriptor,
    offset, length)`` of a temporary file, or None), its totals and first cards needing attention,
    and its size in the collection.  The files are removed once the next piece is asked for."""

    output: tuple[int, int, int] | None
    report: tuple[int, int, int] | None
    result: BlockResult
    size: int


def copy_to_stream(fd: int, offset: int, length: int, stream: Any) -> None:
    """Write ``length`` bytes of the file ``fd`` from ``offset`` to ``stream`` (standard output)."""
    end = offset + length
    while offset < end:
        data = os.pread(fd, min(end - offset, 1 << 20), offset)
        if not data:
            raise OSError(errno.EIO, "a temporary file is shorter than what was written to it")
        stream.write(data)
        offset += len(data)


def scratch_target() -> str:
    """Where the temporary files go that belong beside no output file (standard output): named as
    if beside ``kotc-rulesc-migrate`` in the temporary folder."""
    return os.path.join(tempfile.gettempdir(), "kotc-rulesc-migrate")


@dataclass
class _Proc:
    process: Any
    conn: Any
    task: int | None = None  # the segment it migrates


@dataclass
class _Files:
    """Temporary files the main process made (and removes)."""

    made: dict[str, int] = field(default_factory=dict)  # path → descriptor
    scratch: str = ""  # the place of the files that belong to standard output

    def new(self, beside: str) -> tuple[int, tuple[str, tuple[int, int]]]:
        try:
            fd, path = atomic.locked_temp(beside)
        except OSError as exc:  # a full disk, a folder that cannot be written
            raise atomic.OutputError(exc.errno, exc.strerror or str(exc), "<stdout>" if beside == self.scratch else beside)
        self.made[path] = fd
        return fd, (path, _ident(fd))

    def remove(self, path: str) -> None:
        fd = self.made.pop(path)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.close(fd)

    def remove_all(self) -> None:
        for path in list(self.made):
            self.remove(path)


def _stopped(proc: _Proc) -> WorkerFailed:
    proc.process.join(1)
    return WorkerFailed(f"worker process {proc.process.pid} stopped (exit code {proc.process.exitcode})")


def migrate(path: str, ident: tuple[int, int], display: str, fd: int, bounds: list[int], grid: Grid, jobs: int,
            config: WorkerConfig, context: Context, output: str | None, report: str | None,
            report_newline: str | None, progress: Callable[[int], None], spare_only: bool = True) -> Iterator[Piece]:
    """Migrate the segments ``bounds`` (:func:`plan`) of the collection ``path`` (open as ``fd``; its
    device and inode ``ident``) on ``jobs`` workers; yield them in order.  ``output`` and ``report``
    are the files the segments become part of (temporary files go beside them; None: not written;
    :func:`scratch_target` for standard output); ``context`` is this process's, handed to forked
    workers; ``progress`` is told of every byte migrated.  With ``spare_only``, segments go to no
    more workers at a time than the processors idle or used by this run lately (:class:`~kotc_rulesc.
    migrate.cpus.Meter`, every :data:`_MEASURE` seconds): when other programs come to keep the machine
    busy, fewer work, down to one."""
    global _INHERITED
    segments = len(bounds) - 1
    scratch = scratch_target()
    files = _Files(scratch=scratch)
    if scratch in (output, report) or (output is None and report is None):
        atomic.remove_stale(scratch)
    methods = multiprocessing.get_all_start_methods()
    mp = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    done = mp.RawArray("q", jobs)  # bytes of the collection each worker has migrated
    shown = 0
    procs: list[_Proc] = []
    try:
        decisions = tuple(files.new(output or report or scratch)[1] for _ in range(jobs))

        def named(place: str | None) -> str | None:  # as errors name it: a spool of standard output names that
            return "<stdout>" if place == scratch else place

        setup = _Setup(config, (path, ident), display, grid, decisions, named(output), named(report), report_newline)
        _INHERITED = (config, context)
        forked = mp.get_start_method() == "fork"
        for me in range(jobs):
            conn, child = mp.Pipe()
            inherited = tuple(p.conn for p in procs) + (conn,) if forked else ()
            process = mp.Process(target=_serve, args=(child, setup, me, done, os.getpid(), inherited), daemon=True)
            procs.append(_Proc(process, conn))  # listed first: ^C as it starts stops it too
            process.start()
            child.close()
        _INHERITED = None
        meter = cpus.Meter([p.process.pid for p in procs]) if spare_only else None
        measured, active = time.monotonic(), jobs  # how many workers may work at a time

        numbers: list[tuple[int, int] | None] = [(0, 1)] + [None] * segments  # first index and line of each
        known = 1  # numbers[:known] are known
        given = 0  # segments handed out
        temps: dict[int, tuple] = {}  # segment → its (output, report) temporary files
        finished: dict[int, Any] = {}  # segment → _Done, or the exception that stopped it
        failed = segments  # the first segment that failed
        nxt = 0  # the next segment to yield
        while nxt < segments:
            while given < min(known, failed) and given < segments:  # hand out what is known
                idle = next((p for p in procs if p.task is None), None)
                if idle is None or sum(p.task is not None for p in procs) >= active:
                    break
                out = files.new(output) if output is not None else None
                rep = files.new(report) if report is not None else None
                temps[given] = (out, rep)
                first_index, first_line = numbers[given]
                try:
                    idle.conn.send(_Task(given, bounds[given], bounds[given + 1], first_index, first_line,
                                         out and out[1], rep and rep[1]))
                except OSError:
                    raise _stopped(idle) from None
                idle.task = given
                given += 1
            if nxt in finished:
                answer = finished.pop(nxt)
                if isinstance(answer, BaseException):
                    raise answer
                if known == nxt + 1:  # the worker counted it first
                    numbers[known] = answer.end
                    known += 1
                elif numbers[nxt + 1] is not None and numbers[nxt + 1] != answer.end:
                    raise RuntimeError(f"segment {nxt} of {display} ends at card {answer.end[0]}, line {answer.end[1]}, "
                                       f"but was counted to end at {numbers[nxt + 1]}")
                out, rep = temps.pop(nxt)
                result = BlockResult(answer.totals["cards"], answer.totals, attention=answer.attention)
                yield Piece(out and (out[0], 0, answer.output), rep and (rep[0], 0, answer.report), result,
                            bounds[nxt + 1] - bounds[nxt])
                for f in (out, rep):
                    if f is not None:
                        files.remove(f[1][0])
                nxt += 1
                continue
            timeout = _TICK
            if known < segments and known <= failed:  # count the next segment while the workers work
                lines, cards = count(fd, bounds[known - 1], bounds[known], display)
                before = numbers[known - 1]
                numbers[known] = (before[0] + cards, before[1] + lines)
                known += 1
                timeout = 0
            for conn in wait([p.conn for p in procs], timeout):  # answers, or a worker's end
                proc = next(p for p in procs if p.conn is conn)
                try:
                    ok, answer = conn.recv()
                except (EOFError, OSError):
                    raise _stopped(proc) from None
                proc.task = None
                if ok:
                    finished[answer.number] = answer
                else:
                    number, exc = answer
                    finished[number] = exc
                    failed = min(failed, number)
            now = sum(done)
            if now > shown:
                progress(now - shown)
                shown = now
            if meter is not None and time.monotonic() - measured >= _MEASURE:
                available = meter.available()
                measured = time.monotonic()
                if available is not None:
                    active = max(1, min(jobs, int(available + 0.5)))
        now = sum(done)
        if now > shown:
            progress(now - shown)
        for proc in procs:
            proc.conn.send(None)
        for proc in procs:
            proc.process.join(5)
    finally:
        _INHERITED = None
        for proc in procs:
            if proc.process.is_alive():
                proc.process.terminate()
            if proc.process.pid is not None:  # (started)
                proc.process.join()
            proc.conn.close()  # (a worker forked as ^C came, before it was known started, reads end of file)
        files.remove_all()
