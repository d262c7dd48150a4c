"""``--jobs N``: spread the blocks of a large collection over N processes, output order kept.

The main process only reads blocks of whole cards, hands them out and writes the
results back in the order the blocks were read; each worker process has its own
:class:`~kotc_rulesc.migrate.io_json.Context` (its own rules view and caches) and
returns the block's output bytes and its rendered share of the report.  At most
``2 × N`` blocks are in flight, so memory stays bounded however large the file.

Workers are forked where the platform allows it (they inherit the rules already
loaded); elsewhere each builds its context from a small picklable
:class:`WorkerConfig`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .io_json import BlockResult, Context, json_cards, jsonl_block

__all__ = ["WorkerConfig", "Shared", "ordered_map", "jsonl_task", "json_task", "default_jobs"]


@dataclass(frozen=True)
class WorkerConfig:
    """What a worker needs to build its own context."""

    rules_dir: str | None
    target: int
    assume: int | None
    report_format: str | None


_INHERITED: tuple[WorkerConfig, Context] | None = None  # set before forking
_CONTEXT: Context | None = None


def _init(config: WorkerConfig) -> None:
    global _CONTEXT
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's terminate() must stop a worker at once
    if _INHERITED is not None and _INHERITED[0] == config:
        _CONTEXT = _INHERITED[1]
        return
    from ..cards.rules_source import get_view
    from .plan import Migrator

    view = get_view(config.rules_dir)
    _CONTEXT = Context(Migrator(view, config.target, config.assume), config.report_format)


def _learning(run, known: list) -> BlockResult:
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


def jsonl_task(block: bytes, first_index: int, first_line: int, known: list) -> BlockResult:
    return _learning(lambda: jsonl_block(_CONTEXT, block, first_index, first_line), known)


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


def ordered_map(
    func: Callable[..., Any],
    tasks: Iterable[tuple[tuple, Any]],
    jobs: int,
    config: WorkerConfig,
    context: Context,
) -> Iterator[tuple[Any, Any]]:
    """Run ``func(*args)`` for each ``(args, keep)`` in ``tasks`` on ``jobs`` processes; yield
    ``(keep, result)`` in the order of ``tasks``.  ``context`` is this process's own context,
    handed to forked workers as they start."""
    global _INHERITED
    methods = multiprocessing.get_all_start_methods()
    mp = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    _INHERITED = (config, context)
    pool = mp.Pool(jobs, _init, (config,))
    try:
        pending: deque = deque()
        limit = 2 * jobs
        for args, keep in tasks:
            pending.append((keep, pool.apply_async(func, args)))
            while len(pending) >= limit:
                keep0, res = pending.popleft()
                yield keep0, res.get()
        while pending:
            keep0, res = pending.popleft()
            yield keep0, res.get()
        pool.close()
    finally:
        _INHERITED = None
        pool.terminate()
        pool.join()
