"""``--jobs N``: spread the blocks of a large collection over N processes, output order kept.

The main process only reads blocks of whole cards, hands them out and writes the
results back in the order the blocks were read; each worker process has its own
:class:`~kotc_rulesc.migrate.io_json.Context` (its own rules view and caches) and
returns the block's output bytes and its rendered share of the report.  At most
two blocks per worker are in flight, so memory stays bounded however large the file.

The pool is a small one of its own rather than :class:`multiprocessing.Pool`, whose
worker-handler thread spins while results are in the pipe (seconds of CPU taken from
the workers on a large file).  Each worker has one pipe; tasks go to the least busy
worker and results are read back in task order.  A task message stays small, so that
the main process never blocks writing to a worker that is itself writing a result:
a JSONL block of a regular file travels as ``(path, offset, length)`` — the worker
reads it from the page cache — and any other large task is written to a slot file
first (one slot per task in flight, reused).

Workers are forked where the platform allows it (they inherit the rules already
loaded); elsewhere each builds its context from a small picklable
:class:`WorkerConfig`.  Decisions one worker makes travel to the others
(:class:`Shared`), so a card design is decided about once however many workers see it.

Workers die with the main process, however it ends: on SIGINT or SIGTERM it stops
them as it unwinds; killed (SIGKILL), the kernel kills them (``PR_SET_PDEATHSIG`` on
Linux), and elsewhere their pipes reach end of file (a forked worker closes the
main process's ends it inherited).  A run that was killed leaves its slot folder
behind; the next run with workers removes it (its ``lock`` is free).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .io_json import BlockResult, Context, json_cards, jsonl_block

__all__ = ["WorkerConfig", "Shared", "ordered_map", "jsonl_task", "json_task", "default_jobs", "read_range", "remove_stale_slots"]

#: task messages larger than this go through a slot file (a pipe holds about 200 KB)
_INLINE = 32 << 10


@dataclass(frozen=True)
class WorkerConfig:
    """What a worker needs to build its own context."""

    rules_dir: str | None
    target: int
    assume: int | None
    report_format: str | None
    reissue: bool = False


_INHERITED: tuple[WorkerConfig, Context] | None = None  # set before forking
_CONTEXT: Context | None = None


def _init(config: WorkerConfig) -> None:
    global _CONTEXT
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # stopping a worker stops it at once
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the main process's to handle
    if _INHERITED is not None and _INHERITED[0] == config:
        _CONTEXT = _INHERITED[1]
        return
    from ..cards.rules_source import get_view
    from .plan import Migrator

    view = get_view(config.rules_dir)
    _CONTEXT = Context(Migrator(view, config.target, config.assume, reissue=config.reissue), config.report_format)


# --------------------------------------------------------------------------- the tasks


def _learning(run: Callable[[], BlockResult], known: list) -> BlockResult:
    """Adopt the decisions other workers made, run the block, hand back the new ones."""
    assert _CONTEXT is not None
    migrator = _CONTEXT.migrator
    migrator.adopt(known)
    migrator.learned = []
    try:
        result = run()
        result.learned = migrator.learned
    finally:
        migrator.learned = None
    return result


_FILES: dict[str, int] = {}  # path → file descriptor, per worker


def read_range(path: str, offset: int, length: int) -> bytes:
    """``length`` bytes of ``path`` at ``offset``: a worker reads its block itself (from the page
    cache the main process just filled) rather than receiving it through a pipe."""
    fd = _FILES.get(path)
    if fd is None:
        fd = _FILES[path] = os.open(path, os.O_RDONLY)
    data = os.pread(fd, length, offset)
    if len(data) != length:
        from ..inputs import InputError

        raise InputError("the file changed while it was being migrated (it is shorter now)", file=path)
    return data


def jsonl_task(block: bytes | tuple[str, int, int], first_index: int, first_line: int, known: list) -> BlockResult:
    """Migrate a JSONL block: its bytes, or where to read them, ``(path, offset, length)``."""
    data = block if isinstance(block, bytes) else read_range(*block)
    return _learning(lambda: jsonl_block(_CONTEXT, data, first_index, first_line), known)


def json_task(items: list, first_index: int, known: list) -> BlockResult:
    return _learning(lambda: json_cards(_CONTEXT, items, first_index), known)


class Shared:
    """Decisions made by one worker, handed to the others: each block's new decisions travel
    with the next ``jobs + 1`` tasks, so every worker (whichever tasks it takes) receives them
    about once, and a card design decided by one worker is not decided again by the others."""

    def __init__(self, jobs: int):
        self.sends = jobs + 1
        self.queue: deque = deque()  # [decisions, sends left]

    def known(self) -> list:
        out: list = []
        for entry in self.queue:
            out.extend(entry[0])
            entry[1] -= 1
        while self.queue and self.queue[0][1] <= 0:
            self.queue.popleft()
        return out

    def add(self, result: BlockResult) -> None:
        if result.learned:
            self.queue.append([result.learned, self.sends])


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# --------------------------------------------------------------------------- the pool


class WorkerFailed(RuntimeError):
    """A worker process died without an answer."""


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


def _serve(conn: Any, config: WorkerConfig, parent: int | None = None, inherited: tuple = ()) -> None:
    """A worker's loop: read a task, run it, send back ``(True, result)`` or ``(False, exception)``.
    ``inherited`` are the main process's ends of the pipes (this worker's and the ones started
    before it), which a forked worker holds too: closed, so that when the main process dies, every
    pipe reaches end of file."""
    for end in inherited:
        end.close()
    if parent is not None:
        _die_with_parent(parent)
    _init(config)
    while True:
        try:
            message = conn.recv_bytes()
        except EOFError:
            return
        if not message:
            return
        func, payload = pickle.loads(message)
        try:
            if isinstance(payload, str):  # a slot file
                with open(payload, "rb") as f:
                    payload = pickle.load(f)
            answer: tuple = (True, func(*payload))
        except Exception as exc:  # handed to the main process, which raises it
            answer = (False, exc)
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle
            conn.send((False, WorkerFailed(f"{type(exc).__name__}: {exc}")))


class _Worker:
    def __init__(self, mp: Any, config: WorkerConfig, others: list["_Worker"] = ()):
        self.conn, child = mp.Pipe()
        forked = mp.get_start_method() == "fork"
        inherited = tuple(w.conn for w in others) + (self.conn,) if forked else ()
        self.process = mp.Process(target=_serve, args=(child, config, os.getpid(), inherited), daemon=True)
        self.process.start()
        child.close()
        self.busy = 0

    def send(self, func: Callable, payload: Any) -> None:
        self.conn.send_bytes(pickle.dumps((func, payload), pickle.HIGHEST_PROTOCOL))
        self.busy += 1

    def receive(self) -> Any:
        try:
            ok, value = self.conn.recv()
        except (EOFError, OSError):
            raise WorkerFailed(f"worker process {self.process.pid} stopped (exit code {self.process.exitcode})") from None
        self.busy -= 1
        if not ok:
            raise value
        return value


def ordered_map(
    func: Callable[..., Any],
    tasks: Iterable[tuple[tuple, Any]],
    jobs: int,
    config: WorkerConfig,
    context: Context,
) -> Iterator[tuple[Any, Any]]:
    """Run ``func(*args)`` for each ``(args, keep)`` in ``tasks`` on ``jobs`` processes; yield
    ``(keep, result)`` in the order of ``tasks``.  ``context`` is this process's own context,
    handed to forked workers as they start.  ``tasks`` is advanced only when a task can be
    sent, so it may look at the results yielded so far."""
    global _INHERITED
    methods = multiprocessing.get_all_start_methods()
    mp = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    limit = 2 * jobs
    remove_stale_slots()
    slots = tempfile.mkdtemp(prefix=SLOTS_PREFIX)
    lock = _lock_slots(slots)
    _INHERITED = (config, context)
    workers: list[_Worker] = []
    try:
        for _ in range(jobs):
            workers.append(_Worker(mp, config, workers))
        _INHERITED = None
        pending: deque = deque()  # (keep, worker), in task order
        for number, (args, keep) in enumerate(tasks):
            if len(pending) >= limit:
                keep0, worker = pending.popleft()
                yield keep0, worker.receive()
            payload: Any = args
            data = pickle.dumps(args, pickle.HIGHEST_PROTOCOL)
            if len(data) > _INLINE:  # through a slot file: the pipe message stays small
                payload = os.path.join(slots, f"{number % (limit + 1)}.task")
                with open(payload, "wb") as f:
                    f.write(data)
            worker = min(workers, key=lambda w: w.busy)
            worker.send(func, payload)
            pending.append((keep, worker))
        while pending:
            keep0, worker = pending.popleft()
            yield keep0, worker.receive()
        for worker in workers:
            worker.conn.send_bytes(b"")
        for worker in workers:
            worker.process.join(5)
    finally:
        _INHERITED = None
        for worker in workers:
            if worker.process.is_alive():
                worker.process.terminate()
            worker.process.join()
            worker.conn.close()
        shutil.rmtree(slots, ignore_errors=True)
        if lock is not None:
            os.close(lock)


#: the folder of the slot files of one run, in the temporary folder: ``kotc-rulesc-slots-XXXXXXXX``,
#: with a ``lock`` file its run holds; a folder whose lock is free was left by a run that was killed
SLOTS_PREFIX = "kotc-rulesc-slots-"


def _lock_slots(slots: str) -> int | None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return None
    fd = os.open(os.path.join(slots, "lock"), os.O_WRONLY | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def remove_stale_slots(directory: str | None = None) -> list[str]:
    """Remove the slot folders that killed runs left in the temporary folder (their lock is free)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return []
    directory = directory or tempfile.gettempdir()
    removed = []
    try:
        names = [n for n in os.listdir(directory) if n.startswith(SLOTS_PREFIX)]
    except OSError:
        return []
    for name in names:
        path = os.path.join(directory, name)
        try:
            fd = os.open(os.path.join(path, "lock"), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)
        removed.append(name)
    return removed
